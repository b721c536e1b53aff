/* Registry entries of the strided batched SGEMM's kernels (issue 16): the
 * tiny-matrix kernel (several whole products per work-group) and xgemm-direct's
 * strided build (one matrix per grid z). routine_gemm_batched.c plans them;
 * policy.tsv's gemm_batched rows choose. */
#include "registry.h"
#include "registry_xgemm.h"

/* batched_small.cl's local memory per matrix (floats): A and B with odd local leading dimensions
 * (R | 1 = R + (R % 2 == 0)), each the larger of its two transposes, or a dense C's M*N block
 * (which overlays them), whichever is larger; and its matrices per work-group. */
#define BATCHED_SMALL_SLOT                                                                                       \
    "max(max((M + (M % 2 == 0)) * K, (K + (K % 2 == 0)) * M) + max((K + (K % 2 == 0)) * N, (N + (N % 2 == 0)) * K), " \
    "M * N)"
#define BATCHED_SMALL_MPG "max(1, min(ELEMS / max(1, M * N), 12288 / max(1, " BATCHED_SMALL_SLOT ")))"

static const gk_kernel_def kernels[] = {
    {
        .name = "batched-small",
        .contract = GK_CONTRACT_GEMM_BATCHED_SMALL,
        .family = GK_FAMILY_LIBRARY,
        .step = 20,
        .source = "library/batched_small.cl",
        .function = "gk_sgemm_batched_small",
        .summary = "batched, tiny matrices: ELEMS/(M*N) whole products per work-group, RM x RN per work-item; "
                   "float4 copies of densely stored batches",
        .params = {{"ELEMS", 1024, "256,512,1024,2048,4096", "C elements per work-group (matrices = ELEMS / (M*N))"},
                   {"RM", 2, "1,2,4,8", "C rows per work-item (TM apart; 1 where RM does not divide M)"},
                   {"RN", 2, "1,2,4,8", "C columns per work-item (TN apart; 1 where RN does not divide N)"}},
        .constraints = {"ELEMS % (RM * RN) == 0", "ELEMS / (RM * RN) >= 32 && ELEMS / (RM * RN) <= 1024"},
        /* batched_small.cl's MPG, WG and LOCAL4 are the same formulas: MPG matrices a work-group (ELEMS / (M*N),
         * fewer where their slots would pass 48 KiB = 12288 floats), each a slot of BATCHED_SMALL_SLOT floats, in
         * whole float4 */
        .local_x = "ELEMS / (RM * RN)", .local_y = "1",
        .tile_m = BATCHED_SMALL_MPG, .tile_n = "1",
        .k_multiple = "1",
        .local_mem_bytes = "(" BATCHED_SMALL_MPG " * " BATCHED_SMALL_SLOT " + 3) / 4 * 16",
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_SIZE_M | GK_DEFINE_SIZE_N | GK_DEFINE_SIZE_K |
                   GK_DEFINE_DENSE_A | GK_DEFINE_DENSE_B | GK_DEFINE_DENSE_C,
    },
    {
        .name = "xgemm-direct-batched",
        .contract = GK_CONTRACT_GEMM_DIRECT_STRIDED,
        .family = GK_FAMILY_LIBRARY,
        .step = 21,
        .source = "library/xgemm_direct.cl",
        .function = "gk_xgemm_direct",
        .summary = "batched: xgemm-direct's tiles, one matrix per grid z (strided build), operands as stored",
        /* xgemm-direct/small's H200 tiles: the batch, not the tiles, fills the device */
        .params = {XGEMM_TILE_PARAMS_AT(64, 64, 16, 4, 8), XGEMM_DIRECT_ASYNC_PARAM,
                   {"STRIDED", 1, "1", "builds xgemm_direct.cl's strided form (the contract's; always 1)"},
                   /* many small matrices: an SM's resident work-groups set the length of the last wave */
                   GK_MIN_GROUPS_PARAM("0,8,12,16")},
        .constraints = {XGEMM_CONSTRAINTS, "TSK % 4 == 0", XGEMM_ASYNC_CONSTRAINT, "STRIDED == 1",
                        GK_MIN_GROUPS_CONSTRAINT},
        .local_x = "TSM/WPTM", .local_y = "TSN/WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "1", .k_loop = "TSK",
        .local_mem_bytes = XGEMM_DIRECT_LOCAL_MEM,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B | GK_DEFINE_VEC_C,
    },
};

const gk_kernel_def *const gk_batched_kernels = kernels;
const size_t gk_batched_kernel_count = sizeof kernels / sizeof kernels[0];
