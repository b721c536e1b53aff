/* Registry entries of the tensor-core SGEMM kernels (library/xgemm_tc.cl): one
 * source, two math modes (docs/MATH.md). They run only on NVIDIA GPUs of
 * compute capability 8.0 or newer (gk_math_supported), through either backend,
 * and only for calls in their mode (the policy skips a kernel of another mode). */
#include "registry.h"

#define TC_PARAMS                                                                                                 \
    {"WARPS_M", 2, "1,2,4", "warps along M"}, {"WARPS_N", 4, "1,2,4", "warps along N"},                          \
        {"MI", 4, "1,2,4", "m16 tiles per warp along M"}, {"NI", 4, "2,4,8", "n8 tiles per warp along N"},       \
        {"TSK", 16, "8,16,32", "K per local-memory tile (multiple of 8)"},                                       \
        {"LOCAL_SWIZZLE", 0, "0,1", "1: local columns XOR-swizzled by k (no bank conflicts in transposing stores)"}
#define TC_CONSTRAINTS                                                                                            \
    "WARPS_M * WARPS_N <= 32", "MI >= 1 && NI >= 1 && MI * NI <= 32", "TSK % 8 == 0 && TSK <= 64",                \
        "(TSK * WARPS_M * MI * 16 / 4) % (WARPS_M * WARPS_N * 32) == 0",                                          \
        "(TSK * WARPS_N * NI * 8 / 4) % (WARPS_M * WARPS_N * 32) == 0"
#define TC_GEOMETRY                                                                                               \
    .local_x = "WARPS_M*WARPS_N*32", .local_y = "1", .tile_m = "WARPS_M*MI*16", .tile_n = "WARPS_N*NI*8",          \
    .k_multiple = "1", .local_mem_bytes = "2 * TSK * (WARPS_M*MI*16 + WARPS_N*NI*8 + 16) * 4",                    \
    .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B

/* The wgmma rows' local memory, a ring of STAGES stages (B big and small, then A padded for fragment loads or, with
 * A_DESC, swizzled big and small), 1024 bytes to align the swizzle and 128 for the mbarriers; at most Hopper's
 * opt-in 227 KiB. The rows on split operands (PRESPLIT) hold big and small tiles of both, no padding. */
#define WG_LOCAL_BYTES                                                                                            \
    "STAGES * ((SPLIT + 1) * TSK * NI*8 + max(((WARPS_M*16 + 8) * (TSK + 4) + 255) / 256 * 256, "                \
    "min(A_DESC, 1) * (SPLIT + 1) * TSK * WARPS_M*16)) * 4 + 1024 + 128"
#define WG_PRESPLIT_LOCAL_BYTES "STAGES * 2 * TSK * (NI*8 + WARPS_M*16) * 4 + 1024 + 128"
#define WG_LOCAL_LIMIT " <= 232448"

/* The wgmma kernel (library/xgemm_wgmma.cl, sm_90a, CUDA only): warpgroups of 4
 * warps along M, each 64 x NI*8 of C; a ring of STAGES tiles filled by cp.async
 * in local memory sized at launch (up to 227 KiB: the last constraint). */
#define WG_PARAMS                                                                                                 \
    {"WARPS_M", 8, "4,8", "warps along M (4 per warpgroup of 64 rows)"},                                        \
        {"NI", 16, "8,16,32", "n8 tiles per warp: the instruction's N / 8 (64, 128, 256)"},                   \
        {"TSK", 32, "32,64", "K per local tile (whole 32-k swizzle atoms)"},                                   \
        {"STAGES", 4, "3,4,5", "local tiles in the cp.async ring"},                                              \
        {"PIPE", 0, "0,1", "1: a tile's wgmmas run on while the next tile's fragments are loaded"},           \
        {"SUM_TILES", 2, "2,4", "PIPE: K tiles per loop step and per 3xTF32 partial sum"},                      \
        {"SWIZZLE", 1, "1,8,16", "tile rows per band of the work-group order (1: plain)"},                      \
        {"A_DESC", 0, "0,1,2",                                                                                  \
         "1: A read by the tensor cores from local memory where K-contiguous and aligned; 2: unrounded (TF32)"},   \
        {"PRODUCER", 0, "0,1", "1: one more warpgroup copies and rounds every tile, the others only multiply"}
#define WG_CONSTRAINTS                                                                                            \
    "WARPS_M == 4 || WARPS_M == 8", "NI == 8 || NI == 16 || NI == 32", "TSK == 32 || TSK == 64",              \
        "STAGES >= 3 && STAGES <= 6", "(TSK * NI) % (64 * WARPS_M) == 0",                                         \
        "(PIPE == 0 || PIPE == 1) && (SUM_TILES == 2 || SUM_TILES == 4) && SWIZZLE >= 1 && SWIZZLE <= 64 "       \
        "&& (A_DESC == 0 || ((A_DESC == 1 || A_DESC == 2 && SPLIT == 0) && PIPE == 0))"                           \
        "&& (PRODUCER == 0 || PIPE == 0)",                                                                        \
        WG_LOCAL_BYTES WG_LOCAL_LIMIT
#define WG_GEOMETRY                                                                                               \
    .source = "library/xgemm_wgmma.cl", .function = "gk_xgemm_wgmma",                                            \
    .local_x = "WARPS_M*32 + PRODUCER*128", .local_y = "1", /* PRODUCER: one more warpgroup */                   \
    .tile_m = "WARPS_M*16", .tile_n = "NI*8", .k_multiple = "1",                                                  \
    .local_mem_bytes = WG_LOCAL_BYTES,                                                                            \
    .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B,                          \
    .flags = GK_FLAG_DYNAMIC_LOCAL, .backends = GK_BACKEND_BIT_CUDA, .arch_specific = 90

/* The tiles of the 3xTF32 rows built on other operands or over K-slices (-split, -splitk): two warpgroups at
 * most, an instruction N of 128 at most, one swizzle atom of K per tile. */
#define WG_3XTF32_TILE_PARAMS                                                                                     \
    {"WARPS_M", 8, "4,8", "warps along M (4 per warpgroup of 64 rows)"},                                        \
        {"NI", 16, "8,16", "n8 tiles per warp: the instruction's N / 8 (64, 128)"},                             \
        {"TSK", 32, "32", "K per local tile (one 32-k swizzle atom)"}
#define WG_3XTF32_TILE_CONSTRAINTS                                                                                \
    "WARPS_M == 4 || WARPS_M == 8", "NI == 8 || NI == 16", "TSK == 32", "(TSK * NI) % (64 * WARPS_M) == 0"

/* The wgmma kernel whose operands the tensor memory accelerator copies (library/xgemm_wgmma_tma.cl, sm_90a, CUDA
 * only): WARPS_M / 4 consumer warpgroups of 64 rows and one producer warpgroup; a ring of STAGES slots of
 * (SPLIT + 1) x TSK x (TSM + TSN) floats (big and small parts with SPLIT), 1024 bytes to align the swizzle and 128
 * for the mbarriers. */
#define WG_TMA_LOCAL_BYTES "STAGES * (SPLIT + 1) * TSK * (WARPS_M*16 + NI*8) * 4 + 1024 + 128"
#define WG_TMA_CONSTRAINTS                                                                                        \
    "WARPS_M == 4 || WARPS_M == 8", "TSK == 32 || TSK == 64", "STAGES >= 2 && STAGES <= 8",                     \
        "SWIZZLE >= 1 && SWIZZLE <= 64", WG_TMA_LOCAL_BYTES WG_LOCAL_LIMIT
#define WG_TMA_GEOMETRY_FLAGS(extra)                                                                              \
    .source = "library/xgemm_wgmma_tma.cl", .function = "gk_xgemm_wgmma_tma",                                    \
    .local_x = "WARPS_M*32 + 128", .local_y = "1", /* and the producer warpgroup */                              \
    .tile_m = "WARPS_M*16", .tile_n = "NI*8", .k_multiple = "1", .local_mem_bytes = WG_TMA_LOCAL_BYTES,            \
    .flags = GK_FLAG_DYNAMIC_LOCAL | (extra), .backends = GK_BACKEND_BIT_CUDA, .arch_specific = 90
#define WG_TMA_GEOMETRY WG_TMA_GEOMETRY_FLAGS(0)

/* The 3xTF32 rows on split operands (the kernel and its split-K build): 128 x 128 tiles at most (registers: sums
 * and partials, 2 x 4 NI a work-item), one swizzle atom of K per slot. */
#define WG_TMA_3XTF32_PARAMS                                                                                      \
    {"WARPS_M", 8, "4,8", "consumer warps along M (4 per warpgroup of 64 rows)"},                                 \
        {"NI", 16, "8,16", "n8 tiles per warp: the instruction's N / 8 (64, 128)"},                               \
        {"TSK", 32, "32", "K per slot (one 32-k swizzle atom)"}, {"STAGES", 3, "2,3,4", "slots in the ring"},     \
        {"SUM_TILES", 2, "2,4", "K tiles per partial sum in the tensor cores before fp32"},                      \
        {"SWIZZLE", 8, "1,8,16", "tile rows per band of the work-group order (1: plain)"},                       \
        {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"}
#define WG_TMA_3XTF32_CONSTRAINTS WG_TMA_CONSTRAINTS, "NI == 8 || NI == 16", "SUM_TILES == 2 || SUM_TILES == 4"

static const gk_kernel_def kernels[] = {
    {
        .name = "xgemm-3xtf32",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 20,
        .source = "library/xgemm_tc.cl",
        .function = "gk_xgemm_tc",
        .summary = "tensor cores at fp32 accuracy (math 3xtf32): big/small TF32 split, three mma.sync per step, "
                   "K tiles summed in fp32",
        .params = {TC_PARAMS, {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"}},
        .constraints = {TC_CONSTRAINTS, "SPLIT == 1"},
        TC_GEOMETRY,
        .math = GK_MATH_3XTF32,
    },
    {
        /* xgemm-3xtf32's split-K build (SPLITK; the policy's split step gives it the chosen line's tiles and
         * gk_sgemm_splits' count: several of these work-groups share an SM, as xgemm-direct's do). */
        .name = "xgemm-3xtf32-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT,
        .family = GK_FAMILY_LIBRARY,
        .step = 26,
        .source = "library/xgemm_tc.cl",
        .function = "gk_xgemm_tc",
        .summary = "xgemm-3xtf32 over SPLITS slices of K (grid z = slice) into partials, then a reduction (math "
                   "3xtf32): for tiles that leave compute units idle",
        .params = {TC_PARAMS, {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"},
                   {"SPLITK", 1, "1", "builds the kernel's split-K form (the contract's; always 1)"},
                   {"SPLITS", 0, "0,2,4", "K slices; 0: as many as fill the compute units (gk_sgemm_splits)", 1}},
        .constraints = {TC_CONSTRAINTS, "SPLIT == 1 && SPLITK == 1", "SPLITS >= 0 && SPLITS <= 256"},
        TC_GEOMETRY,
        .math = GK_MATH_3XTF32,
    },
    {
        .name = "xgemm-tf32",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 21,
        .source = "library/xgemm_tc.cl",
        .function = "gk_xgemm_tc",
        .summary = "tensor cores in TF32 (math tf32: 10-bit mantissa products, less accurate than fp32), one mma.sync per step",
        .params = {TC_PARAMS, {"SPLIT", 0, "0", "1xTF32 (this row: always 0)"}},
        .constraints = {TC_CONSTRAINTS, "SPLIT == 0"},
        TC_GEOMETRY,
        .math = GK_MATH_TF32,
    },
    {
        .name = "xgemm-wgmma-3xtf32",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 22,
        .summary = "Hopper's warpgroup tensor-core instruction (wgmma, sm_90a, CUDA backend) at fp32 accuracy "
                   "(math 3xtf32): xgemm-3xtf32's scheme on a cp.async ring",
        .params = {WG_PARAMS, {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"}},
        /* registers: sums and fragments (PIPE: two sets of fragments; ptxas -v spills past these) */
        .constraints = {WG_CONSTRAINTS, "SPLIT == 1", "NI <= 16 && TSK == 32", "PIPE == 0 || NI == 8 || SUM_TILES == 2"},
        WG_GEOMETRY,
        .math = GK_MATH_3XTF32,
    },
    {
        /* xgemm-wgmma-3xtf32's split-K build (SPLITK; the policy's split step gives it the chosen line's tiles):
         * K-slices along the grid's third dimension into partials, then split-K's reduction. No PIPE or PRODUCER
         * (in no 3xTF32 line). */
        .name = "xgemm-wgmma-3xtf32-splitk",
        .contract = GK_CONTRACT_GEMM_DIRECT_SPLIT,
        .family = GK_FAMILY_LIBRARY,
        .step = 25,
        .summary = "xgemm-wgmma-3xtf32 over SPLITS slices of K (grid z = slice) into partials, then a reduction "
                   "(math 3xtf32): for tile counts that leave SMs idle",
        .params = {WG_3XTF32_TILE_PARAMS,
                   {"STAGES", 4, "3,4,5", "local tiles in the cp.async ring"},
                   {"SUM_TILES", 2, "2,4", "A_DESC: K tiles per partial sum in the tensor cores before fp32"},
                   {"SWIZZLE", 8, "1,8,16", "tile rows per band of the work-group order (1: plain)"},
                   {"A_DESC", 0, "0,1", "1: A read by the tensor cores from local memory where K-contiguous and aligned"},
                   {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"},
                   {"SPLITK", 1, "1", "builds the kernel's split-K form (the contract's; always 1)"},
                   {"SPLITS", 0, "0,2,3,4", "K slices; 0: the count whose waves cost least (gk_sgemm_splits_by_waves)", 1}},
        .constraints = {WG_3XTF32_TILE_CONSTRAINTS, "STAGES >= 3 && STAGES <= 6",
                        "(SUM_TILES == 2 || SUM_TILES == 4) && SWIZZLE >= 1 && SWIZZLE <= 64 && (A_DESC == 0 || A_DESC == 1)",
                        "SPLIT == 1 && SPLITK == 1", "SPLITS >= 0 && SPLITS <= 256",
                        WG_LOCAL_BYTES WG_LOCAL_LIMIT},
        .source = "library/xgemm_wgmma.cl", .function = "gk_xgemm_wgmma",
        .local_x = "WARPS_M*32", .local_y = "1",
        .tile_m = "WARPS_M*16", .tile_n = "NI*8", .k_multiple = "1",
        .local_mem_bytes = WG_LOCAL_BYTES,
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_VEC_A | GK_DEFINE_VEC_B,
        .flags = GK_FLAG_DYNAMIC_LOCAL | GK_FLAG_SPLIT_BY_WAVES, .backends = GK_BACKEND_BIT_CUDA, .arch_specific = 90,
        .math = GK_MATH_3XTF32,
    },
    {
        /* The same kernel on operands the plan splits first (PRESPLIT; routine_gemm.c, plan_split): big and
         * small tiles copied alike, nothing rounded in the kernel; 2 x (TSK x TSM + TSK x TSN) floats a stage. */
        .name = "xgemm-wgmma-3xtf32-split",
        .contract = GK_CONTRACT_GEMM_SPLIT,
        .family = GK_FAMILY_LIBRARY,
        .step = 24,
        .summary = "xgemm-wgmma-3xtf32 on operands split into TF32 big and small parts by a step before it "
                   "(math 3xtf32): three wgmmas per k8 on local tiles only",
        .params = {WG_3XTF32_TILE_PARAMS,
                   {"STAGES", 3, "2,3,4", "local tiles in the cp.async ring"},
                   {"SUM_TILES", 2, "2,4", "K tiles per partial sum in the tensor cores before fp32"},
                   {"SWIZZLE", 8, "1,8,16", "tile rows per band of the work-group order (1: plain)"},
                   {"SPLIT", 1, "1", "3xTF32 (this row: always 1)"},
                   {"PRESPLIT", 1, "1", "the operands come split (this row: always 1)"}},
        .constraints = {WG_3XTF32_TILE_CONSTRAINTS, "STAGES >= 2 && STAGES <= 6",
                        "(SUM_TILES == 2 || SUM_TILES == 4) && SWIZZLE >= 1 && SWIZZLE <= 64",
                        "SPLIT == 1 && PRESPLIT == 1",
                        WG_PRESPLIT_LOCAL_BYTES WG_LOCAL_LIMIT},
        .source = "library/xgemm_wgmma.cl", .function = "gk_xgemm_wgmma",
        .local_x = "WARPS_M*32", .local_y = "1",
        .tile_m = "WARPS_M*16", .tile_n = "NI*8", .k_multiple = "1",
        .local_mem_bytes = WG_PRESPLIT_LOCAL_BYTES,
        /* no problem defines: PRESPLIT fixes TRANS_A = 1, TRANS_B = 0 and aligned operands */
        .flags = GK_FLAG_DYNAMIC_LOCAL, .backends = GK_BACKEND_BIT_CUDA, .arch_specific = 90,
        .math = GK_MATH_3XTF32,
    },
    {
        .name = "xgemm-wgmma-tf32",
        .contract = GK_CONTRACT_GEMM_DIRECT,
        .family = GK_FAMILY_LIBRARY,
        .step = 23,
        .summary = "Hopper's warpgroup tensor-core instruction (wgmma, sm_90a, CUDA backend) in TF32 (math tf32)",
        .params = {WG_PARAMS, {"SPLIT", 0, "0", "1xTF32 (this row: always 0)"}},
        .constraints = {WG_CONSTRAINTS, "SPLIT == 0", "PIPE == 0 || TSK == 32 || NI <= 16"},
        WG_GEOMETRY,
        .math = GK_MATH_TF32,
    },
    {
        /* No problem defines: the contract's operands are K-contiguous and aligned (the plan copies them so). */
        .name = "xgemm-wgmma-tf32-tma",
        .contract = GK_CONTRACT_GEMM_TMA,
        .family = GK_FAMILY_LIBRARY,
        .step = 27,
        .summary = "wgmma in TF32 (math tf32) on tiles the tensor memory accelerator copies under a producer "
                   "warpgroup: the consumers only multiply",
        .params = {{"WARPS_M", 8, "4,8", "consumer warps along M (4 per warpgroup of 64 rows)"},
                   {"NI", 32, "8,16,32", "n8 tiles per warp: the instruction's N / 8 (64, 128, 256)"},
                   {"TSK", 32, "32,64", "K per slot (whole 32-k swizzle atoms)"},
                   {"STAGES", 4, "3,4,5", "slots in the ring"},
                   {"SWIZZLE", 16, "1,8,16", "tile rows per band of the work-group order (1: plain)"},
                   {"SPLIT", 0, "0", "1xTF32 (this row: always 0)"}},
        .constraints = {WG_TMA_CONSTRAINTS, "NI == 8 || NI == 16 || NI == 32", "SPLIT == 0"},
        WG_TMA_GEOMETRY,
        .math = GK_MATH_TF32,
    },
    {
        /* On operands split by the plan (as xgemm-wgmma-3xtf32-split's): big and small boxes of both per slot. */
        .name = "xgemm-wgmma-3xtf32-split-tma",
        .contract = GK_CONTRACT_GEMM_SPLIT_TMA,
        .family = GK_FAMILY_LIBRARY,
        .step = 28,
        .summary = "xgemm-wgmma-3xtf32-split (math 3xtf32) on tiles the tensor memory accelerator copies under a "
                   "producer warpgroup",
        .params = {WG_TMA_3XTF32_PARAMS},
        .constraints = {WG_TMA_3XTF32_CONSTRAINTS, "SPLIT == 1"},
        WG_TMA_GEOMETRY,
        .math = GK_MATH_3XTF32,
    },
    {
        /* Its split-K build (SPLITK; the policy's split step gives it the chosen line's tiles and the slice count by
         * waves, as xgemm-wgmma-3xtf32-splitk's): for tile counts that leave SMs idle. */
        .name = "xgemm-wgmma-3xtf32-split-tma-splitk",
        .contract = GK_CONTRACT_GEMM_SPLIT_TMA_K,
        .family = GK_FAMILY_LIBRARY,
        .step = 29,
        .summary = "xgemm-wgmma-3xtf32-split-tma over SPLITS slices of K (grid z = slice) into partials, then a "
                   "reduction (math 3xtf32)",
        .params = {WG_TMA_3XTF32_PARAMS, {"SPLITK", 1, "1", "builds the kernel's split-K form (the contract's; always 1)"},
                   {"SPLITS", 0, "0,2,3,4", "K slices; 0: the count whose waves cost least (gk_sgemm_splits_by_waves)", 1}},
        .constraints = {WG_TMA_3XTF32_CONSTRAINTS, "SPLIT == 1 && SPLITK == 1", "SPLITS >= 0 && SPLITS <= 256"},
        WG_TMA_GEOMETRY_FLAGS(GK_FLAG_SPLIT_BY_WAVES),
        .math = GK_MATH_3XTF32,
    },
};

const gk_kernel_def *const gk_tensor_kernels = kernels;
const size_t gk_tensor_kernel_count = sizeof kernels / sizeof kernels[0];
