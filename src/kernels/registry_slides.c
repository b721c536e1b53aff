/* Registry entries of the OpenCL memory-hierarchy slides' matrix-multiplication
 * steps (docs/LADDER-NOTES-slides.md). The slides' kernels are row-major and
 * square; each .cl file maps them onto gemmkit's packed column-major contract
 * (C^T = B^T A^T, see the file headers) and generalises N to M, N, K. */
#include "registry.h"

static const gk_kernel_def kernels[] = {
    {
        .name = "slides-1-elem-per-item",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_SLIDES,
        .step = 1,
        .source = "slides/01_elem_per_item.cl",
        .function = "slides_elem_per_item",
        .summary = "C(i,j) per work-item, all operands read from global memory",
        .params = {{"LX", 16, "8,16,32,64,128", "work-group width (along M)"},
                   {"LY", 16, "1,2,4,8,16", "work-group height (along N)"}},
        .constraints = {"LX >= 1 && LY >= 1"},
        .local_x = "LX", .local_y = "LY",
        .tile_m = "LX", .tile_n = "LY",
        .k_multiple = "1",
        .local_mem_bytes = "0",
    },
    {
        .name = "slides-2-row-per-item",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_SLIDES,
        .step = 2,
        .source = "slides/02_row_per_item.cl",
        .function = "slides_row_per_item",
        .summary = "a row of C (row-major view) per work-item, all global: 1-D NDRange over the rows",
        .params = {{"WG", 64, "16,32,64,128,256", "work-items (rows) per work-group"}},
        .constraints = {"WG >= 1"},
        /* One work-item per row of the row-major C^T, i.e. per column of C:
         * a single work-item spans all of M. */
        .local_x = "1", .local_y = "WG",
        .tile_m = "max(M, 1)", .tile_n = "WG",
        .k_multiple = "1",
        .local_mem_bytes = "0",
    },
    {
        .name = "slides-3-row-private-a",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_SLIDES,
        .step = 3,
        .source = "slides/03_row_private_a.cl",
        .function = "slides_row_private_a",
        .summary = "row of C per work-item, the row of A copied into private memory (Awrk[1024])",
        .params = {{"WG", 64, "16,32,64,128,256", "work-items (rows) per work-group"},
                   {"PRIV", 1024, "256,512,1024", "private floats per work-item; K is done in chunks of PRIV"}},
        .constraints = {"WG >= 1", "PRIV >= 1"},
        .local_x = "1", .local_y = "WG",
        .tile_m = "max(M, 1)", .tile_n = "WG",
        .k_multiple = "1",
        .local_mem_bytes = "0",
    },
    {
        .name = "slides-4-private-a-local-b",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_SLIDES,
        .step = 4,
        .source = "slides/04_private_a_local_b.cl",
        .function = "slides_private_a_local_b",
        .summary = "row of C per work-item, A row private, each column of B shared in local memory",
        .params = {{"WG", 64, "16,32,64,128,256", "work-items (rows) per work-group"},
                   {"PRIV", 1024, "256,512,1024", "floats of Awrk (private) and Bwrk (local); K is done in chunks"}},
        .constraints = {"WG >= 1", "PRIV >= 1"},
        .local_x = "1", .local_y = "WG",
        .tile_m = "max(M, 1)", .tile_n = "WG",
        .k_multiple = "1",
        .local_mem_bytes = "PRIV * 4",
    },
    {
        .name = "slides-5-blocked",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_SLIDES,
        .step = 5,
        .source = "slides/05_blocked.cl",
        .function = "slides_blocked",
        .summary = "block-oriented: BLOCK x BLOCK blocks of A and B in local memory, C(i,j) per work-item",
        .params = {{"BLOCK", 16, "8,16,32", "work-group and block edge (the slides' blksz)"}},
        .constraints = {"BLOCK >= 1"},
        .local_x = "BLOCK", .local_y = "BLOCK",
        .tile_m = "BLOCK", .tile_n = "BLOCK",
        .k_multiple = "BLOCK",
        .local_mem_bytes = "2 * BLOCK * BLOCK * 4",
    },
};

const gk_kernel_def *const gk_slides_kernels = kernels;
const size_t gk_slides_kernel_count = sizeof kernels / sizeof kernels[0];
