/* Registry entries of the library's own kernels: the general direct SGEMM,
 * xgemm and its split-K build, and the unpacking/scaling/reduction helpers used
 * around the tiled kernels (the packing runs on the transpose kernels,
 * registry_transpose.c). */
#include "registry.h"

/* Helpers by position, so plans reach them without a lookup (gk_kernel_helper). */
enum { DIRECT, XGEMM, XGEMM_SPLITK, XGEMM_DIRECT, UNPACK, SCALE, REDUCE };

/* xgemm's tiles, shared by its split-K build. */
#define XGEMM_TILE_PARAMS                                                                                             \
    {"TSM", 128, "32,64,128,256", "C tile rows per work-group"},                                                     \
        {"TSN", 128, "32,64,128,256", "C tile columns per work-group"}, {"TSK", 8, "4,8,16,32", "K step per tile"},  \
        {"WPTM", 8, "4,8,16", "C rows per work-item (multiple of 4)"},                                               \
        {"WPTN", 8, "4,8,16", "C columns per work-item (multiple of 4)"}
#define XGEMM_CONSTRAINTS                                                                                             \
    "WPTM % 4 == 0 && WPTN % 4 == 0", "TSM % WPTM == 0 && TSN % WPTN == 0",                                          \
        "(TSK * TSM / 4) % ((TSM / WPTM) * (TSN / WPTN)) == 0", "(TSK * TSN / 4) % ((TSM / WPTM) * (TSN / WPTN)) == 0", \
        "(TSK * TSM / 4) >= (TSM / WPTM) * (TSN / WPTN)", "(TSK * TSN / 4) >= (TSM / WPTM) * (TSN / WPTN)"

static const gk_kernel_def kernels[] = {
    {
        .name = "direct",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 1,
        .source = "library/direct.cl",
        .function = "gk_sgemm_direct",
        .summary = "general bounds-checked tiled SGEMM: any size, transposes, offsets, alpha/beta in one pass",
        .params = {{"TS", 16, "8,16", "work-group edge and K step"},
                   {"WPT", 2, "1,2,4", "C elements per work-item per dimension"}},
        .constraints = {"TS * TS <= 1024", "WPT >= 1 && WPT <= 8"},
        .local_x = "TS", .local_y = "TS",
        .tile_m = "TS*WPT", .tile_n = "TS*WPT",
        .k_multiple = "1",
        .local_mem_bytes = "2 * TS * (TS*WPT + 1) * 4",
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B,
    },
    {
        .name = "xgemm",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_LIBRARY,
        .step = 2,
        .source = "library/xgemm.cl",
        .function = "gk_xgemm",
        .summary = "fast tiled SGEMM: 2D register blocking, float4 loads, double-buffered local memory, B transposed",
        .params = {XGEMM_TILE_PARAMS},
        .constraints = {XGEMM_CONSTRAINTS},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "2 * TSK * (TSM + TSN) * 4",
    },
    [XGEMM_SPLITK] = {
        .name = "xgemm-splitk",
        .contract = GK_CONTRACT_GEMM_PACKED_BT_STRIDED,
        .family = GK_FAMILY_LIBRARY,
        .step = 3,
        .source = "library/xgemm.cl",
        .function = "gk_xgemm",
        .summary = "xgemm over SPLITS slices of K (grid z = slice) into partials, then a reduction: for few tiles and long K",
        .params = {XGEMM_TILE_PARAMS,
                   {"STRIDED", 1, "1", "builds xgemm's strided form (the contract's; always 1)"},
                   {"SPLITS", 4, "1,2,4,8,16", "K slices; 0: as many as fill the compute units (gk_sgemm_splits)", 1}},
        .constraints = {XGEMM_CONSTRAINTS, "STRIDED == 1", "SPLITS >= 0 && SPLITS <= 256"},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "2 * TSK * (TSM + TSN) * 4",
    },
    [XGEMM_DIRECT] = {
        .name = "xgemm-direct",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 4,
        .source = "library/xgemm_direct.cl",
        .function = "gk_xgemm_direct",
        .summary = "xgemm's tiles on the operands as stored: edge tiles bounds-checked, no packing or padding copies",
        .params = {XGEMM_TILE_PARAMS},
        .constraints = {XGEMM_CONSTRAINTS, "TSK % 4 == 0"},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "1",
        .local_mem_bytes = "2 * TSK * (TSM + TSN + 8) * 4",
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B | GK_DEFINE_VEC_C,
    },
    [UNPACK] = {
        .name = "unpack",
        .contract = GK_CONTRACT_UNPACK,
        .family = GK_FAMILY_LIBRARY,
        .step = 91,
        .source = "library/pack.cl",
        .function = "gk_unpack",
        .summary = "C = alpha * P + beta * C from a padded result (post-processing, tutorial kernel 10)",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}},
        .local_x = "TILE", .local_y = "TILE",
        .tile_m = "TILE", .tile_n = "TILE",
        .k_multiple = "1",
    },
    [SCALE] = {
        .name = "scale",
        .contract = GK_CONTRACT_SCALE,
        .family = GK_FAMILY_LIBRARY,
        .step = 92,
        .source = "library/pack.cl",
        .function = "gk_scale",
        .summary = "C = beta * C, the alpha == 0 / K == 0 case",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}},
        .local_x = "TILE", .local_y = "TILE",
        .tile_m = "TILE", .tile_n = "TILE",
        .k_multiple = "1",
    },
    [REDUCE] = {
        .name = "reduce",
        .contract = GK_CONTRACT_REDUCE,
        .family = GK_FAMILY_LIBRARY,
        .step = 93,
        .source = "library/reduce.cl",
        .function = "gk_reduce",
        .summary = "C = alpha * (P_0 + ... + P_{s-1}) + beta * C: split-K's partials summed in order",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}},
        .local_x = "TILE", .local_y = "TILE",
        .tile_m = "TILE", .tile_n = "TILE",
        .k_multiple = "1",
    },
};

const gk_kernel_def *gk_kernel_helper(gk_helper which)
{
    switch (which) {
    case GK_HELPER_SCALE: return &kernels[SCALE];
    case GK_HELPER_UNPACK: return &kernels[UNPACK];
    case GK_HELPER_REDUCE: return &kernels[REDUCE];
    default: return NULL;
    }
}

const gk_kernel_def *const gk_library_kernels = kernels;
const size_t gk_library_kernel_count = sizeof kernels / sizeof kernels[0];
