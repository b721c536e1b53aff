/* Registry entries of the Ozaki scheme II (math mode int8x, docs/MATH.md): its INT8 product kernels (the main
 * kernels of the mode's plan, plan_ozaki.c) and the helpers around them, the operands' slicing (norms, then
 * residues) and the recombination. */
#include "registry.h"

/* Helpers by position (gk_ozaki_helper). */
enum { IGEMM, IGEMM_TC, IGEMM_WGMMA, SLICE, CRT, NORMS, SPREAD };

/* The wgmma row's local memory: a ring of STAGES slots of TSK bytes of K by TSM + TSN rows, 1024 bytes to align the
 * swizzle and 128 for the mbarriers; at most Hopper's opt-in 227 KiB. */
#define WGMMA_LOCAL_BYTES "STAGES * TSK * (WARPS_M*16 + NI*8) + 1024 + 128"

/* The mma.sync row's local memory: a ring of STAGES slots of TSK bytes of K by TSM + TSN rows, reused for the
 * result's TSN columns of TSM + 16 bytes; static arrays, so at most 48 KiB (OpenCL has no more). */
#define TC_LOCAL_BYTES "max(STAGES * TSK * (WARPS_M*MI*16 + WARPS_N*NI*8), WARPS_N*NI*8 * (WARPS_M*MI*16 + 16))"

static const gk_kernel_def kernels[] = {
    {
        .name = "ozaki-igemm",
        .contract = GK_CONTRACT_GEMM_OZAKI,
        .family = GK_FAMILY_LIBRARY,
        .step = 30,
        .source = "library/igemm.cl",
        .function = "gk_ozaki_igemm",
        .summary = "math int8x (Ozaki scheme II), portable: exact int8 x int8 -> int32 products of the operands' "
                   "residues, one modulus per grid z, tiled in local memory",
        .params = {{"TS", 16, "8,16", "work-group edge"},
                   {"WPT", 2, "1,2,4", "sums per work-item per dimension"},
                   {"KT", 32, "16,32,64", "k per local-memory step"}},
        .constraints = {"TS * TS <= 1024", "WPT >= 1 && WPT <= 8", "KT == 16 || KT == 32 || KT == 64"},
        .local_x = "TS", .local_y = "TS",
        .tile_m = "TS*WPT", .tile_n = "TS*WPT",
        .k_multiple = "KT",
        .local_mem_bytes = "2 * KT * (TS*WPT + 1) * 4",
        .math = GK_MATH_INT8X,
    },
    {
        .name = "ozaki-igemm-tc",
        .contract = GK_CONTRACT_GEMM_OZAKI,
        .family = GK_FAMILY_LIBRARY,
        .step = 31,
        .source = "library/igemm_tc.cl",
        .function = "gk_ozaki_igemm_tc",
        .summary = "math int8x (Ozaki scheme II) on tensor cores: mma.sync.m16n8k32 s8 x s8 -> s32 per modulus "
                   "on ldmatrix fragments of a cp.async ring (NVIDIA, compute capability 8.0+, either backend)",
        .params = {{"WARPS_M", 2, "1,2,4", "warps along M"}, {"WARPS_N", 2, "1,2,4", "warps along N"},
                   {"MI", 4, "1,2,4", "m16 tiles per warp along M"},
                   {"NI", 8, "2,4,8", "n8 tiles per warp along N (even: ldmatrix.x4 loads two)"},
                   {"TSK", 64, "32,64,128", "k (bytes) per slot of the ring"},
                   {"STAGES", 3, "2,3,4,6", "slots in the cp.async ring"},
                   {"SWIZZLE", 8, "1,8,16", "tile rows per band of the work-group order (1: plain)"}},
        .constraints = {"WARPS_M * WARPS_N <= 32", "MI >= 1 && NI >= 1 && MI * NI <= 32",
                        "TSK == 32 || TSK == 64 || TSK == 128", "STAGES >= 2 && STAGES <= 6",
                        "SWIZZLE >= 1 && SWIZZLE <= 64",
                        "NI % 2 == 0", TC_LOCAL_BYTES " <= 49152"},
        .local_x = "WARPS_M*WARPS_N*32", .local_y = "1",
        .tile_m = "WARPS_M*MI*16", .tile_n = "WARPS_N*NI*8",
        .k_multiple = "TSK",
        .local_mem_bytes = TC_LOCAL_BYTES,
        .math = GK_MATH_INT8X,
        .min_capability = 80,
    },
    {
        /* No problem defines: the contract's operands are the plan's residues, K-major as s8 wgmma requires. */
        .name = "ozaki-igemm-wgmma",
        .contract = GK_CONTRACT_GEMM_OZAKI_TMA,
        .family = GK_FAMILY_LIBRARY,
        .step = 32,
        .source = "library/igemm_wgmma.cl",
        .function = "gk_ozaki_igemm_wgmma",
        .summary = "math int8x (Ozaki scheme II) on Hopper: wgmma m64nNk32 s8 x s8 -> s32 per modulus on tiles "
                   "the tensor memory accelerator copies under a producer warpgroup (sm_90a, CUDA)",
        .params = {{"WARPS_M", 8, "4,8", "consumer warps along M (4 per warpgroup of 64 rows)"},
                   {"NI", 32, "8,16,32", "n8 tiles per warp: the instruction's N / 8 (64, 128, 256)"},
                   {"TSK", 128, "128,256", "k (bytes) per slot (whole 128-byte swizzle atoms)"},
                   {"STAGES", 4, "3,4,5", "slots in the ring"},
                   {"SWIZZLE", 16, "1,8,16", "tile rows per band of the work-group order (1: plain)"}},
        .constraints = {"WARPS_M == 4 || WARPS_M == 8", "NI == 8 || NI == 16 || NI == 32", "TSK == 128 || TSK == 256",
                        "STAGES >= 2 && STAGES <= 8", "SWIZZLE >= 1 && SWIZZLE <= 64",
                        WGMMA_LOCAL_BYTES " <= 232448"},
        .local_x = "WARPS_M*32 + 128", .local_y = "1", /* and the producer warpgroup */
        .tile_m = "WARPS_M*16", .tile_n = "NI*8",
        .k_multiple = "128", /* rows of whole 128-byte lines (a row 16 bytes off a sector costs the copies a fifth
                              * more sectors); the copy engine zero-fills the last slot past Kp */
        .local_mem_bytes = WGMMA_LOCAL_BYTES,
        .flags = GK_FLAG_DYNAMIC_LOCAL,
        .backends = GK_BACKEND_BIT_CUDA,
        .arch_specific = 90,
        .math = GK_MATH_INT8X,
    },
    {
        .name = "ozaki-slice",
        .contract = GK_CONTRACT_OZAKI_SLICE,
        .family = GK_FAMILY_LIBRARY,
        .step = 96,
        .source = "library/ozaki_slice.cl",
        .function = "gk_ozaki_slice",
        .summary = "int8x helper: an operand's rows scaled by their powers of two, rounded, reduced mod each "
                   "modulus (TR x 32 tiles through local memory, VW-byte stores)",
        .params = {{"TR", 64, "32,64,128", "rows per tile"},
                   {"VW", 16, "4,8,16", "residues (bytes) per work-item and store"}},
        .constraints = {"TR == 32 || TR == 64 || TR == 128", "VW == 4 || VW == 8 || VW == 16",
                        "TR * 32 / VW <= 1024"},
        .local_x = "TR*32/VW", .local_y = "1",
        .tile_m = "TR", .tile_n = "32",
        .k_multiple = "1",
        .local_mem_bytes = "TR * 33 * 4",
        .defines = GK_DEFINE_MODULI | GK_DEFINE_K_CONTIGUOUS,
        .math = GK_MATH_INT8X,
    },
    {
        .name = "ozaki-crt",
        .contract = GK_CONTRACT_OZAKI_CRT,
        .family = GK_FAMILY_LIBRARY,
        .step = 97,
        .source = "library/ozaki_crt.cl",
        .function = "gk_ozaki_crt",
        .summary = "int8x helper: residues recombined by the CRT in fp64, scaled back, alpha/beta into C "
                   "(4 rows x WJ columns per work-item, the moduli compiled in)",
        .params = {{"TX", 32, "16,32,64", "work-items along M (4 rows each)"},
                   {"TY", 4, "1,2,4,8", "work-items along N"},
                   {"WJ", 2, "1,2,4", "columns per work-item"}},
        .constraints = {"TX * TY <= 1024", "TX * TY >= 32", "WJ >= 1 && WJ <= 8"},
        .local_x = "TX", .local_y = "TY",
        .tile_m = "4*TX", .tile_n = "TY*WJ",
        .k_multiple = "1",
        .local_mem_bytes = "0",
        .defines = GK_DEFINE_TRANS_A | GK_DEFINE_TRANS_B | GK_DEFINE_MODULI,
        .math = GK_MATH_INT8X,
    },
    {
        .name = "ozaki-norms",
        .contract = GK_CONTRACT_OZAKI_NORMS,
        .family = GK_FAMILY_LIBRARY,
        .step = 98,
        .source = "library/ozaki_norms.cl",
        .function = "gk_ozaki_norms",
        .summary = "int8x helper: each row's power of two from its 2-norm (fp64, one summation order for both "
                   "layouts), 32 rows per work-group",
        .local_x = "256", .local_y = "1",
        .tile_m = "32", .tile_n = "1",
        .k_multiple = "1",
        .local_mem_bytes = "32 * 65 * 8",
        .defines = GK_DEFINE_K_CONTIGUOUS,
        .math = GK_MATH_INT8X,
    },
    {
        .name = "ozaki-spread",
        .contract = GK_CONTRACT_OZAKI_SPREAD,
        .family = GK_FAMILY_LIBRARY,
        .step = 99,
        .source = "library/ozaki_norms.cl",
        .function = "gk_ozaki_spread",
        .summary = "int8x helper: an operand's spread, the largest sqrt(K) |x|_2 / |x|_1 over its rows in quarter "
                   "bits (the norms' loads and fp64 sums, an atomic max), from which the plan sets the moduli",
        .params = {{"SPREAD", 1, "1", "builds ozaki_norms.cl's spread form (the contract's; always 1)"}},
        .constraints = {"SPREAD == 1"},
        .local_x = "256", .local_y = "1",
        .tile_m = "32", .tile_n = "1",
        .k_multiple = "1",
        .local_mem_bytes = "32 * 65 * 8",
        .defines = GK_DEFINE_K_CONTIGUOUS,
        .math = GK_MATH_INT8X,
    },
};

const gk_kernel_def *gk_ozaki_helper(gk_helper which)
{
    switch (which) {
    case GK_HELPER_OZAKI_NORMS: return &kernels[NORMS];
    case GK_HELPER_OZAKI_SLICE: return &kernels[SLICE];
    case GK_HELPER_OZAKI_CRT: return &kernels[CRT];
    case GK_HELPER_OZAKI_SPREAD: return &kernels[SPREAD];
    default: return NULL;
    }
}

const gk_kernel_def *const gk_ozaki_kernels = kernels;
const size_t gk_ozaki_kernel_count = sizeof kernels / sizeof kernels[0];
