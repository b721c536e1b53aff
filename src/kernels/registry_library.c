/* Registry entries of the library's own kernels: the general direct SGEMM,
 * xgemm and its split-K build, and the unpacking/scaling/reduction helpers used
 * around the tiled kernels (the packing runs on the transpose kernels,
 * registry_transpose.c). */
#include "registry.h"

/* Helpers by position, so plans reach them without a lookup (gk_kernel_helper). */
enum { DIRECT, XGEMM, XGEMM_SPLITK, XGEMM_DIRECT, XGEMM_DIRECT_SPLITK, UNPACK, SCALE, REDUCE, REDUCE_DEEP, SPLIT_TF32 };

#include "registry_xgemm.h"

/* skinny.cl's parameters, shared by its skinny-m and skinny-n rows. */
#define SKINNY_PARAMS                                                                                                 \
    {"MR", 16, "4,8,16", "rows of the small edge per work-group"},                                                   \
        {"LC", 16, "8,16,32", "work-items across the long edge"}, {"LK", 16, "4,8,16,32", "work-items along K"},      \
        {"NB", 1, "1,2,4", "long-edge columns per work-item"}, {"KU", 8, "4,8,16", "K values per work-item per chunk"},  \
        {"PF", 0, "0,1", "1: the long operand's values loaded a chunk ahead"}
#define SKINNY_CONSTRAINTS                                                                                            \
    "MR >= 1 && MR <= 32", "LC >= 1 && LK >= 1 && LC * LK <= 1024", "NB >= 1 && NB <= 8", "KU >= 1 && KU <= 16",     \
        "MR * NB <= 64", "PF == 0 || PF == 1"
#define SKINNY_LOCAL_MEM "(max(LK*KU, LC*LK) * max(MR + 1, 4 * ((MR + 3) / 4 + 1 - (MR + 3) / 4 % 2)) + 3) / 4 * 16"
#define SKINNY_SPLIT_PARAMS                                                                                           \
    {"SPLITK", 1, "1", "builds skinny.cl's split-K form (the contract's; always 1)"},                                 \
        {"SPLITS", 8, "1,2,4,8,16,32", "K slices; 0: as many as fill the compute units (gk_sgemm_splits)", 1}
#define SKINNY_SPLIT_CONSTRAINTS "SPLITK == 1", "SPLITS >= 0 && SPLITS <= 1024"
/* The most slices the skinny kernels' split-K builds sum in the kernel, each of a tile's few results summed by a
 * work-item of its own with its loads issued 16 at a time: the last slice's tail is about S / 16 load latencies,
 * past 64 slices as long as the reduction's launch it saves (docs/PERFORMANCE.md); longer splits (the model's go
 * to GK_MODEL_MAX_SPLITS) keep the reduction step. */
#define SKINNY_SUM_SPLITS 64

/* skinny_dot.cl's parameters, shared by its four rows (skinny-m-dot, skinny-n-dot and their split-K builds). */
#define SKINNY_DOT_PARAMS                                                                                             \
    {"MR", 4, "1,2,4,8,16", "rows of the small edge per work-group"},                                                \
        {"KL", 32, "8,16,32", "work-items along K per column (16 * KL contiguous bytes per load)"},                 \
        {"CL", 4, "1,2,4,8", "work-items across the long edge"},                                                     \
        {"NB", 2, "1,2,4", "long-edge columns per work-item"},                                                        \
        {"U", 4, "1,2,4,8", "float4 loads per column per work-item per chunk of K"}
#define SKINNY_DOT_CONSTRAINTS                                                                                        \
    "MR >= 1 && MR <= 16", "KL >= 1 && CL >= 1 && KL * CL <= 1024", "NB >= 1 && NB <= 8", "U >= 1 && U <= 8",       \
        "MR * NB <= 64", "U * NB <= 32"
#define SKINNY_DOT_LOCAL_MEM "(max(MR * (16*KL*U + 16), MR * CL * (KL + 1) * 4) + 15) / 16 * 16"

/* library/pack.cl's helpers (unpack, scale, reduce): TILE x TILE work-items, each WPT rows of one column of C
 * (4: float4 reads of padded results, float4 writes where C's columns are aligned, the VEC_C define). */
#define PACK_HELPER                                                                                               \
    .source = "library/pack.cl",                                                                                  \
    .params = {{"TILE", 16, "8,16,32", "work-group edge"},                                                        \
               {"WPT", 4, "1,4", "rows of C per work-item (4: float4 where the data are whole float4)"}},         \
    .constraints = {"WPT == 1 || WPT == 4"}, .local_x = "TILE", .local_y = "TILE", .tile_m = "TILE*WPT",         \
    .tile_n = "TILE", .k_multiple = "1", .defines = GK_DEFINE_VEC_C

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
        .params = {XGEMM_TILE_PARAMS, XGEMM_ORDER_PARAMS},
        .constraints = {XGEMM_CONSTRAINTS, XGEMM_ORDER_CONSTRAINTS},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "max(2, ASYNC_STAGES) * TSK * (TSM + TSN) * 4",
    },
    [XGEMM_SPLITK] = {
        .name = "xgemm-splitk",
        .contract = GK_CONTRACT_GEMM_PACKED_BT_STRIDED,
        .family = GK_FAMILY_LIBRARY,
        .step = 3,
        .source = "library/xgemm.cl",
        .function = "gk_xgemm",
        .summary = "xgemm over SPLITS slices of K (grid z = slice) into partials, then a reduction: for few tiles and long K",
        .params = {XGEMM_TILE_PARAMS, XGEMM_ORDER_PARAMS,
                   {"STRIDED", 1, "1", "builds xgemm's strided form (the contract's; always 1)"},
                   {"SPLITS", 4, "1,2,4,8,16", "K slices; 0: as many as fill the compute units (gk_sgemm_splits)", 1}},
        .constraints = {XGEMM_CONSTRAINTS, XGEMM_ORDER_CONSTRAINTS, "STRIDED == 1", "SPLITS >= 0 && SPLITS <= 256"},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "max(2, ASYNC_STAGES) * TSK * (TSM + TSN) * 4",
    },
    [XGEMM_DIRECT] = {
        .name = "xgemm-direct",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 4,
        .source = "library/xgemm_direct.cl",
        .function = "gk_xgemm_direct",
        .summary = "xgemm's tiles on the operands as stored: edge tiles bounds-checked, no packing or padding copies",
        .params = {XGEMM_TILE_PARAMS, XGEMM_DIRECT_ASYNC_PARAM, GK_MIN_GROUPS_PARAM("0"),
                   {"TPG", 1, "1", "tiles of C along N per work-group, back to back through the ring"}},
        .constraints = {XGEMM_CONSTRAINTS, "TSK % 4 == 0", XGEMM_ASYNC_CONSTRAINT, GK_MIN_GROUPS_CONSTRAINT,
                        "TPG >= 1 && TPG <= 8 && (TPG == 1 || ASYNC_STAGES >= 2)"},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN*TPG",
        .k_multiple = "1", .k_loop = "TSK",
        .local_mem_bytes = XGEMM_DIRECT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B | GK_DEFINE_VEC_C,
    },
    [XGEMM_DIRECT_SPLITK] = {
        .name = "xgemm-direct-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
        .family = GK_FAMILY_LIBRARY,
        .step = 5,
        .source = "library/xgemm_direct.cl",
        .function = "gk_xgemm_direct",
        .summary = "xgemm-direct over SPLITS slices of K (grid z = slice) into partials, which each tile's last slice "
                   "sums (a reduction step past 4 slices): no packing",
        .params = {XGEMM_TILE_PARAMS, XGEMM_DIRECT_ASYNC_PARAM, GK_MIN_GROUPS_PARAM("0"),
                   {"SPLITK", 1, "1", "builds xgemm-direct's split-K form (the contract's; always 1)"},
                   {"SPLITS", 4, "1,2,4,8,16", "K slices; 0: as many as fill the compute units (gk_sgemm_splits)", 1}},
        .constraints = {XGEMM_CONSTRAINTS, "TSK % 4 == 0", XGEMM_ASYNC_CONSTRAINT, GK_MIN_GROUPS_CONSTRAINT,
                        "SPLITK == 1 && SPLITS >= 0 && SPLITS <= 256"},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "1", .k_loop = "TSK",
        .local_mem_bytes = XGEMM_DIRECT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B | GK_DEFINE_VEC_C,
    },
    [UNPACK] = {
        .name = "unpack",
        .contract = GK_CONTRACT_UNPACK,
        .family = GK_FAMILY_LIBRARY,
        .step = 91,
        .function = "gk_unpack",
        .summary = "C = alpha * P + beta * C from a padded result (post-processing, tutorial kernel 10)",
        PACK_HELPER,
    },
    [SCALE] = {
        .name = "scale",
        .contract = GK_CONTRACT_SCALE,
        .family = GK_FAMILY_LIBRARY,
        .step = 92,
        .function = "gk_scale",
        .summary = "C = beta * C, the alpha == 0 / K == 0 case",
        PACK_HELPER,
    },
    [REDUCE] = {
        .name = "reduce",
        .contract = GK_CONTRACT_REDUCE,
        .family = GK_FAMILY_LIBRARY,
        .step = 93,
        .function = "gk_reduce",
        .summary = "C = alpha * (P_0 + ... + P_{s-1}) + beta * C: split-K's partials summed in order",
        PACK_HELPER,
    },
    [REDUCE_DEEP] = {
        .name = "reduce-deep",
        .contract = GK_CONTRACT_REDUCE,
        .family = GK_FAMILY_LIBRARY,
        .step = 95,
        .source = "library/reduce_deep.cl",
        .function = "gk_reduce_deep",
        .summary = "reduce's sum over many partials of a small C: lanes along the partials, added in a fixed tree",
        .params = {{"RW", 32, "32", "rows of C per work-group"}, {"LZ", 32, "8,16,32", "lanes along the partials"}},
        .constraints = {"RW >= 1 && RW * LZ <= 1024", "LZ == 1 || LZ == 2 || LZ == 4 || LZ == 8 || LZ == 16 || LZ == 32"},
        .local_x = "RW", .local_y = "LZ", .tile_m = "RW", .tile_n = "1", .k_multiple = "1",
        .local_mem_bytes = "LZ * (RW + 1) * 4",
    },
    [SPLIT_TF32] = {
        .name = "split",
        .contract = GK_CONTRACT_SPLIT,
        .family = GK_FAMILY_LIBRARY,
        .step = 94,
        .source = "library/split.cl",
        .function = "gk_split",
        .summary = "3xTF32's operands: big parts tf32(x) and small parts tf32(x - big), a matrix apart",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}, {"WPT", 4, "1,2,4,8", "rows per work-item (TILE apart)"}},
        .constraints = {"WPT >= 1 && WPT <= 8"}, .local_x = "TILE", .local_y = "TILE", .tile_m = "TILE*WPT",
        .tile_n = "TILE", .k_multiple = "1",
    },
    /* Matrix-vector-like products (one edge of C small) and short K: library/skinny.cl, library/small_k.cl. */
    {
        .name = "skinny-m",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 10,
        .source = "library/skinny.cl",
        .function = "gk_sgemm_skinny_m",
        .summary = "M small (<= MR rows per work-group): reads op(B) once, coalesced in either storage order",
        .params = {SKINNY_PARAMS, {"SKINNY_N", 0, "0", "the small edge: 0 is M (this row)"}},
        .constraints = {SKINNY_CONSTRAINTS, "SKINNY_N == 0"},
        .local_x = "1", .local_y = "LC*LK",
        .tile_m = "MR", .tile_n = "LC*NB",
        .k_multiple = "1", .k_loop = "LK*KU",
        .local_mem_bytes = SKINNY_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B,
    },
    {
        .name = "skinny-n",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 11,
        .source = "library/skinny.cl",
        .function = "gk_sgemm_skinny_n",
        .summary = "N small (<= MR columns per work-group): reads op(A) once, coalesced in either storage order",
        .params = {SKINNY_PARAMS, {"SKINNY_N", 1, "1", "the small edge: 1 is N (this row)"}},
        .constraints = {SKINNY_CONSTRAINTS, "SKINNY_N == 1"},
        .local_x = "LC*LK", .local_y = "1",
        .tile_m = "LC*NB", .tile_n = "MR",
        .k_multiple = "1", .k_loop = "LK*KU",
        .local_mem_bytes = SKINNY_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B,
    },
    /* Their split-K builds: a small C over a long K, slices of K into partials (split_k.h) summed in the same launch
     * by each tile's last slice (tile_count.h). */
    {
        .name = "skinny-m-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
        .family = GK_FAMILY_LIBRARY,
        .step = 13,
        .source = "library/skinny.cl",
        .function = "gk_sgemm_skinny_m",
        .summary = "skinny-m over SPLITS slices of K (grid z = slice) into partials, which each tile's last slice sums",
        .params = {SKINNY_PARAMS, {"SKINNY_N", 0, "0", "the small edge: 0 is M (this row)"}, SKINNY_SPLIT_PARAMS},
        .constraints = {SKINNY_CONSTRAINTS, "SKINNY_N == 0", SKINNY_SPLIT_CONSTRAINTS},
        .local_x = "1", .local_y = "LC*LK",
        .tile_m = "MR", .tile_n = "LC*NB",
        .k_multiple = "1", .k_loop = "LK*KU",
        .local_mem_bytes = SKINNY_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_SUM_HERE,
        .sum_splits = SKINNY_SUM_SPLITS,
    },
    {
        .name = "skinny-n-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
        .family = GK_FAMILY_LIBRARY,
        .step = 14,
        .source = "library/skinny.cl",
        .function = "gk_sgemm_skinny_n",
        .summary = "skinny-n over SPLITS slices of K (grid z = slice) into partials, which each tile's last slice sums",
        .params = {SKINNY_PARAMS, {"SKINNY_N", 1, "1", "the small edge: 1 is N (this row)"}, SKINNY_SPLIT_PARAMS},
        .constraints = {SKINNY_CONSTRAINTS, "SKINNY_N == 1", SKINNY_SPLIT_CONSTRAINTS},
        .local_x = "LC*LK", .local_y = "1",
        .tile_m = "LC*NB", .tile_n = "MR",
        .k_multiple = "1", .k_loop = "LK*KU",
        .local_mem_bytes = SKINNY_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_SUM_HERE,
        .sum_splits = SKINNY_SUM_SPLITS,
    },
    /* The skinny kernels for a large operand contiguous along K, read as a copy reads it (library/skinny_dot.cl). */
    {
        .name = "skinny-m-dot",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 15,
        .source = "library/skinny_dot.cl",
        .function = "gk_sgemm_skinny_m_dot",
        .summary = "M small, op(B) contiguous along K: reads B in float4s along K, A's rows staged per chunk",
        .params = {SKINNY_DOT_PARAMS, {"SKINNY_N", 0, "0", "the small edge: 0 is M (this row)"}},
        .constraints = {SKINNY_DOT_CONSTRAINTS, "SKINNY_N == 0"},
        .local_x = "1", .local_y = "KL*CL",
        .tile_m = "MR", .tile_n = "CL*NB",
        .k_multiple = "1", .k_loop = "4*KL*U",
        .local_mem_bytes = SKINNY_DOT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_B,
    },
    {
        .name = "skinny-n-dot",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 16,
        .source = "library/skinny_dot.cl",
        .function = "gk_sgemm_skinny_n_dot",
        .summary = "N small, op(A) contiguous along K: reads A in float4s along K, B's columns staged per chunk",
        .params = {SKINNY_DOT_PARAMS, {"SKINNY_N", 1, "1", "the small edge: 1 is N (this row)"}},
        .constraints = {SKINNY_DOT_CONSTRAINTS, "SKINNY_N == 1"},
        .local_x = "KL*CL", .local_y = "1",
        .tile_m = "CL*NB", .tile_n = "MR",
        .k_multiple = "1", .k_loop = "4*KL*U",
        .local_mem_bytes = SKINNY_DOT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A,
    },
    {
        .name = "skinny-m-dot-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
        .family = GK_FAMILY_LIBRARY,
        .step = 17,
        .source = "library/skinny_dot.cl",
        .function = "gk_sgemm_skinny_m_dot",
        .summary = "skinny-m-dot over SPLITS K slices (grid z = slice) into partials, summed by each tile's last slice",
        .params = {SKINNY_DOT_PARAMS, {"SKINNY_N", 0, "0", "the small edge: 0 is M (this row)"}, SKINNY_SPLIT_PARAMS},
        .constraints = {SKINNY_DOT_CONSTRAINTS, "SKINNY_N == 0", SKINNY_SPLIT_CONSTRAINTS},
        .local_x = "1", .local_y = "KL*CL",
        .tile_m = "MR", .tile_n = "CL*NB",
        .k_multiple = "1", .k_loop = "4*KL*U",
        .local_mem_bytes = SKINNY_DOT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_B | GK_DEFINE_SUM_HERE,
        .sum_splits = SKINNY_SUM_SPLITS,
    },
    {
        .name = "skinny-n-dot-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM,
        .family = GK_FAMILY_LIBRARY,
        .step = 18,
        .source = "library/skinny_dot.cl",
        .function = "gk_sgemm_skinny_n_dot",
        .summary = "skinny-n-dot over SPLITS K slices (grid z = slice) into partials, summed by each tile's last slice",
        .params = {SKINNY_DOT_PARAMS, {"SKINNY_N", 1, "1", "the small edge: 1 is N (this row)"}, SKINNY_SPLIT_PARAMS},
        .constraints = {SKINNY_DOT_CONSTRAINTS, "SKINNY_N == 1", SKINNY_SPLIT_CONSTRAINTS},
        .local_x = "KL*CL", .local_y = "1",
        .tile_m = "CL*NB", .tile_n = "MR",
        .k_multiple = "1", .k_loop = "4*KL*U",
        .local_mem_bytes = SKINNY_DOT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_SUM_HERE,
        .sum_splits = SKINNY_SUM_SPLITS,
    },
    {
        .name = "small-k",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 12,
        .source = "library/small_k.cl",
        .function = "gk_sgemm_small_k",
        .summary = "short K, large C: tiles of C written with coalesced stores, op(A)/op(B) staged in local memory",
        .params = {{"LX", 32, "16,32,64", "work-items along M"},
                   {"LY", 8, "4,8,16", "work-items along N"},
                   {"WM", 4, "1,2,4,8", "rows of C per work-item (LX apart)"},
                   {"WN", 8, "4,8", "consecutive columns of C per work-item (multiple of 4)"},
                   {"KCH", 8, "4,8,16,32", "K per staged chunk"}},
        .constraints = {"LX * LY <= 1024", "WN % 4 == 0 && WN <= 16", "WM >= 1 && WM * WN <= 64",
                        "KCH >= 1 && KCH <= 64"},
        .local_x = "LX", .local_y = "LY",
        .tile_m = "LX*WM", .tile_n = "LY*WN",
        .k_multiple = "1",
        .local_mem_bytes = "KCH * (LX*WM + LY*WN) * 4",
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B,
    },
};

const gk_kernel_def *gk_kernel_helper(gk_helper which)
{
    switch (which) {
    case GK_HELPER_SCALE: return &kernels[SCALE];
    case GK_HELPER_UNPACK: return &kernels[UNPACK];
    case GK_HELPER_REDUCE:
    case GK_HELPER_REDUCE_ROWS: return &kernels[REDUCE];
    case GK_HELPER_REDUCE_DEEP: return &kernels[REDUCE_DEEP];
    case GK_HELPER_SPLIT: return &kernels[SPLIT_TF32];
    case GK_HELPER_OZAKI_NORMS:
    case GK_HELPER_OZAKI_SLICE:
    case GK_HELPER_OZAKI_CRT:
    case GK_HELPER_OZAKI_SPREAD: return gk_ozaki_helper(which);
    default: return NULL;
    }
}

const char *gk_kernel_helper_params(gk_helper which) { return which == GK_HELPER_REDUCE_ROWS ? "WPT=1" : NULL; }

const gk_kernel_def *const gk_library_kernels = kernels;
const size_t gk_library_kernel_count = sizeof kernels / sizeof kernels[0];
