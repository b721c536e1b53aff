/* Registry entries of the transposition kernels: the CUDA lecture's ladder
 * (copy, naive, coalesced, padded, diagonal) and the library's fast transpose
 * and copy. All take (rows, cols, alpha, A, offA, lda, B, offB, ldb), see
 * GK_CONTRACT_TRANSPOSE in registry.h. */
#include "registry.h"

/* The lecture's launch shape: TILE_DIM x BLOCK_ROWS work-items per TILE_DIM^2 block. */
#define LECTURE_PARAMS                                                                             \
    {"TILE_DIM", 32, "16,32,64", "tile edge and work-group width"},                                \
        {"BLOCK_ROWS", 8, "4,8,16,32", "work-group height (TILE_DIM / BLOCK_ROWS elements each)"}
#define LECTURE_CONSTRAINTS "TILE_DIM % BLOCK_ROWS == 0", "TILE_DIM * BLOCK_ROWS <= 1024"

/* vector.cl's kernels on CUDA: work-groups an SM must hold at once (registry.h). */
#define MIN_GROUPS_PARAM GK_MIN_GROUPS_PARAM("0,4,6,8")

/* The fast kernels: TILE x TILE tiles, (TILE / VW) x BLOCK_ROWS work-items, up to
 * TILES tiles per work-group while that leaves at least GROUPS work-groups
 * (several waves on a large GPU), and always enough to keep dimension 1 within
 * 65535 work-groups (CUDA's grid limit, which NVIDIA's OpenCL shares). TILES and
 * GROUPS only shape the launch. */
#define FAST_PARAMS                                                                                \
    {"TILE", 64, "32,64", "tile edge"}, {"VW", 4, "1,2,4", "floats per access where aligned"},     \
        {"BLOCK_ROWS", 16, "4,8,16,32", "work-group height"},                                      \
        {"TILES", 4, "1,2,4,8", "tiles per work-group, at most (large matrices)"},                 \
        {"GROUPS", 2048, "512,1024,2048,4096", "work-groups to keep before stacking tiles"}, MIN_GROUPS_PARAM
#define FAST_CONSTRAINTS                                                                           \
    "VW == 1 || VW == 2 || VW == 4", "TILE % VW == 0", "TILE % BLOCK_ROWS == 0",                   \
        "TILE / VW * BLOCK_ROWS <= 1024", "TILES >= 1", "GROUPS >= 1", GK_MIN_GROUPS_CONSTRAINT
#define FAST_TILE_N                                                                                \
    "TILE * max(min(TILES, (ROWS + TILE - 1) / TILE * ((COLS + TILE - 1) / TILE) / GROUPS),"        \
    " ((COLS + TILE - 1) / TILE + 65534) / 65535)"

static const gk_kernel_def kernels[] = {
    {
        .name = "lecture-copy",
        .contract = GK_CONTRACT_COPY,
        .family = GK_FAMILY_LECTURE,
        .step = 1,
        .source = "transpose/untiled.cl",
        .function = "gk_untiled",
        .summary = "plain copy B = alpha * A: the bandwidth a transpose should reach",
        .params = {LECTURE_PARAMS, {"TRANSPOSE", 0, "0", "copy (this step)"}},
        .constraints = {LECTURE_CONSTRAINTS, "TRANSPOSE == 0"},
        .local_x = "TILE_DIM", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE_DIM", .tile_n = "TILE_DIM",
        .k_multiple = "1",
    },
    {
        .name = "lecture-transpose-naive",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LECTURE,
        .step = 2,
        .source = "transpose/untiled.cl",
        .function = "gk_untiled",
        .summary = "naive transpose: coalesced reads, interleaved writes",
        .params = {LECTURE_PARAMS, {"TRANSPOSE", 1, "1", "transpose (this step)"}},
        .constraints = {LECTURE_CONSTRAINTS, "TRANSPOSE == 1"},
        .local_x = "TILE_DIM", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE_DIM", .tile_n = "TILE_DIM",
        .k_multiple = "1",
    },
    {
        .name = "lecture-transpose-coalesced",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LECTURE,
        .step = 3,
        .source = "transpose/tiled.cl",
        .function = "gk_transpose_tiled",
        .summary = "through a local-memory tile: coalesced reads and writes, bank conflicts",
        .params = {LECTURE_PARAMS, {"PAD", 0, "0", "tile padding (none at this step)"},
                   {"DIAGONAL", 0, "0", "diagonal order (not at this step)"}},
        .constraints = {LECTURE_CONSTRAINTS, "PAD == 0", "DIAGONAL == 0"},
        .local_x = "TILE_DIM", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE_DIM", .tile_n = "TILE_DIM",
        .k_multiple = "1",
        .local_mem_bytes = "TILE_DIM * TILE_DIM * 4",
    },
    {
        .name = "lecture-transpose-padded",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LECTURE,
        .step = 4,
        .source = "transpose/tiled.cl",
        .function = "gk_transpose_tiled",
        .summary = "tile padded by one column: no bank conflicts",
        .params = {LECTURE_PARAMS, {"PAD", 1, "1", "tile padding against bank conflicts"},
                   {"DIAGONAL", 0, "0", "diagonal order (not at this step)"}},
        .constraints = {LECTURE_CONSTRAINTS, "PAD == 1", "DIAGONAL == 0"},
        .local_x = "TILE_DIM", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE_DIM", .tile_n = "TILE_DIM",
        .k_multiple = "1",
        .local_mem_bytes = "TILE_DIM * (TILE_DIM + 1) * 4",
    },
    {
        .name = "lecture-transpose-diagonal",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LECTURE,
        .step = 5,
        .source = "transpose/tiled.cl",
        .function = "gk_transpose_tiled",
        .summary = "padded tile, work-groups in diagonal order against partition camping (any grid)",
        .params = {LECTURE_PARAMS, {"PAD", 1, "1", "tile padding against bank conflicts"},
                   {"DIAGONAL", 1, "1", "diagonal work-group order"}},
        .constraints = {LECTURE_CONSTRAINTS, "PAD == 1", "DIAGONAL == 1"},
        .local_x = "TILE_DIM", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE_DIM", .tile_n = "TILE_DIM",
        .k_multiple = "1",
        .local_mem_bytes = "TILE_DIM * (TILE_DIM + 1) * 4",
    },
    {
        .name = "transpose-fast",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LIBRARY,
        .step = 10,
        .source = "transpose/vector.cl",
        .function = "gk_transpose_vector",
        .summary = "the library's transpose: float4 where aligned, several tiles per work-group, prefetch",
        .params = {FAST_PARAMS, {"ORDER", 0, "0,1,2", "work-group order: launch, diagonal, bands"},
                   {"BAND", 8, "4,8,16", "tile rows per band (ORDER 2)"}},
        .constraints = {FAST_CONSTRAINTS, "ORDER >= 0 && ORDER <= 2", "BAND >= 1"},
        .local_x = "TILE / VW", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE", .tile_n = FAST_TILE_N,
        .k_multiple = "1",
        .local_mem_bytes = "TILE * (TILE + 1) * 4",
    },
    {
        .name = "copy-fast",
        .contract = GK_CONTRACT_COPY,
        .family = GK_FAMILY_LIBRARY,
        .step = 11,
        .source = "transpose/vector.cl",
        .function = "gk_copy_vector",
        .summary = "the library's copy: float4 where aligned, several tiles per work-group",
        .params = {FAST_PARAMS,
                   {"COPY_PREFETCH", 0, "0,1", "1: the next tile's loads issued before the current one's stores"}},
        .constraints = {FAST_CONSTRAINTS, "COPY_PREFETCH == 0 || COPY_PREFETCH == 1"},
        .local_x = "TILE / VW", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE", .tile_n = FAST_TILE_N,
        .k_multiple = "1",
    },
    {
        .name = "transpose-aligned",
        .contract = GK_CONTRACT_TRANSPOSE,
        .family = GK_FAMILY_LIBRARY,
        .step = 12,
        .source = "transpose/vector.cl",
        .function = "gk_transpose_aligned",
        .summary = "transpose writing whole lines at any alignment (B's columns in chunks that start on ALIGN)",
        .params = {{"TILE", 64, "32,64", "tile edge"}, {"BLOCK_ROWS", 16, "4,8,16", "work-group height"},
                   {"ALIGN", 16, "8,16,32,64", "floats: where the chunks of B's columns start"},
                   {"TILES", 2, "1,2,4,8", "tiles per work-group, at most (large matrices)"},
                   {"GROUPS", 2048, "1024,2048,4096", "work-groups to keep before stacking tiles"},
                   {"ORDER", 2, "0,2", "work-group order: launch, bands"},
                   {"BAND", 8, "4,8,16", "tile rows per band (ORDER 2)"}, MIN_GROUPS_PARAM},
        .constraints = {"TILE == 32 || TILE == 64", "TILE % BLOCK_ROWS == 0", "TILE / 4 * BLOCK_ROWS <= 1024",
                        "ALIGN == 4 || ALIGN == 8 || ALIGN == 16 || ALIGN == 32 || ALIGN == 64", "ALIGN <= TILE", "TILES >= 1",
                        "GROUPS >= 1", "ORDER >= 0 && ORDER <= 2", "BAND >= 1", GK_MIN_GROUPS_CONSTRAINT},
        .local_x = "TILE / 4", .local_y = "BLOCK_ROWS",
        .tile_m = "TILE", .tile_n = FAST_TILE_N,
        .k_multiple = "1",
        .local_mem_bytes = "2 * TILE * (TILE + 1) * 4",
    },
};

const gk_kernel_def *const gk_transpose_kernels = kernels;
const size_t gk_transpose_kernel_count = sizeof kernels / sizeof kernels[0];
