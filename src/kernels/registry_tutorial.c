/* Registry entries of the SGEMM tutorial kernels (kernels 1-10), in ladder
 * order. All compute C = A * B column-major on packed operands whose sizes
 * are tile multiples; from kernel 5 on, B arrives transposed (N x K). */
#include "registry.h"

/* Shared parameter rows and constraints of the register-blocked kernels (6-10). */
#define TILE_PARAMS                                                                                \
    {"TSM", 128, "32,64,128,160", "tile size along M"},                                           \
        {"TSN", 128, "32,64,128,160", "tile size along N"},                                       \
        {"TSK", 16, "8,16,32", "tile size along K"},                                               \
        {"WPTM", 8, "2,4,8,10", "C rows per work-item (register block)"},                          \
        {"WPTN", 8, "2,4,8,10", "C columns per work-item (register block)"}
#define TILE_POSITIVE "TSM >= 1 && TSN >= 1 && TSK >= 1 && WPTM >= 1 && WPTN >= 1"
#define TILE_DIVIDES "TSM % WPTM == 0 && TSN % WPTN == 0"
/* Every work-item loads the same number of (WIDTH-wide) elements of each tile. */
#define LOADS_A(per_load) "TSK * TSM % ((TSM / WPTM) * (TSN / WPTN)" per_load ") == 0"
#define LOADS_B(per_load) "TSK * TSN % ((TSM / WPTM) * (TSN / WPTN)" per_load ") == 0"
#define WIDTH_OK "WIDTH == 1 || WIDTH == 2 || WIDTH == 4 || WIDTH == 8"
#define WIDTH_DIVIDES "TSM % WIDTH == 0 && TSN % WIDTH == 0"
#define VLOCAL_OK "(VLOCAL == 0 || VLOCAL == 1) && (VLOCAL == 0 || (WPTM % WIDTH == 0 && WPTN % WIDTH == 0))"

static const gk_kernel_def kernels[] = {
    {
        .name = "tutorial-1-naive",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_TUTORIAL,
        .step = 1,
        .source = "tutorial/01_naive.cl",
        .function = "tutorial_gemm1",
        .summary = "naive: one work-item per element of C, A and B straight from global memory",
        .params = {{"TS", 32, "8,16,32", "work-group edge (TS x TS)"}},
        .constraints = {"TS >= 1"},
        .local_x = "TS", .local_y = "TS",
        .tile_m = "TS", .tile_n = "TS",
        .k_multiple = "1",
        .local_mem_bytes = "0",
    },
    {
        .name = "tutorial-2-tiling",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_TUTORIAL,
        .step = 2,
        .source = "tutorial/02_tiling.cl",
        .function = "tutorial_gemm2",
        .summary = "TS x TS tiles of A and B shared in local memory, coalesced loads",
        .params = {{"TS", 32, "8,16,32", "tile edge, work-group edge and K step"}},
        .constraints = {"TS >= 1"},
        .local_x = "TS", .local_y = "TS",
        .tile_m = "TS", .tile_n = "TS",
        .k_multiple = "TS",
        .local_mem_bytes = "2 * TS * TS * 4",
    },
    {
        .name = "tutorial-3-more-work",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_TUTORIAL,
        .step = 3,
        .source = "tutorial/03_more_work.cl",
        .function = "tutorial_gemm3",
        .summary = "kernel 2 with WPT columns of C per work-item: one Asub load feeds WPT FMAs",
        .params = {{"TS", 32, "16,32,64", "tile edge and K step"},
                   {"WPT", 8, "1,2,4,8,16", "C elements per work-item (along N)"}},
        .constraints = {"TS >= 1 && WPT >= 1", "TS % WPT == 0"},
        .local_x = "TS", .local_y = "TS / WPT",
        .tile_m = "TS", .tile_n = "TS",
        .k_multiple = "TS",
        .local_mem_bytes = "2 * TS * TS * 4",
    },
    {
        .name = "tutorial-4-wide",
        .contract = GK_CONTRACT_GEMM_PACKED,
        .family = GK_FAMILY_TUTORIAL,
        .step = 4,
        .source = "tutorial/04_wide.cl",
        .function = "tutorial_gemm4",
        .summary = "kernel 2 with float2/4/8 vectors (WIDTH rows of C per work-item): wide loads and stores",
        .params = {{"TS", 32, "16,32,64", "tile edge and K step"},
                   {"WIDTH", 4, "1,2,4,8", "floats per vector"}},
        .constraints = {"TS >= 1", WIDTH_OK, "TS % WIDTH == 0"},
        .local_x = "TS / WIDTH", .local_y = "TS",
        .tile_m = "TS", .tile_n = "TS",
        .k_multiple = "TS",
        .local_mem_bytes = "2 * TS * TS * 4",
    },
    {
        .name = "tutorial-5-transposed",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 5,
        .source = "tutorial/05_transposed.cl",
        .function = "tutorial_gemm5",
        .summary = "B pre-transposed, rectangular TSM x TSN x TSK tiles, WPTN columns per work-item, padded Bsub",
        .params = {{"TSM", 64, "32,64,128", "tile size along M (work-group width)"},
                   {"TSN", 64, "32,64,128", "tile size along N"},
                   {"TSK", 32, "8,16,32", "tile size along K"},
                   {"WPTN", 8, "1,2,4,8", "C columns per work-item"},
                   {"PADB", 2, "0,1,2", "padding of Bsub rows (floats) against bank conflicts"}},
        .constraints = {"TSM >= 1 && TSN >= 1 && TSK >= 1 && WPTN >= 1 && PADB >= 0",
                        "TSN % WPTN == 0",
                        /* LPTA and LPTB: loads per work-item of each tile are whole numbers */
                        "TSK % (TSN / WPTN) == 0",
                        "TSK * TSN % (TSM * (TSN / WPTN)) == 0"},
        .local_x = "TSM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "4 * (TSK * TSM + TSN * (TSK + PADB))",
    },
    {
        .name = "tutorial-6-register-blocking",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 6,
        .source = "tutorial/06_register_blocking.cl",
        .function = "tutorial_gemm6",
        .summary = "2D register blocking: WPTM x WPTN block of C per work-item from Areg/Breg",
        .params = {TILE_PARAMS,
                   {"PADB", 2, "0,1,2", "padding of Bsub rows (floats) against bank conflicts"}},
        .constraints = {TILE_POSITIVE " && PADB >= 0", TILE_DIVIDES, LOADS_A(""), LOADS_B("")},
        .local_x = "TSM / WPTM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "4 * (TSK * TSM + TSN * (TSK + PADB))",
    },
    {
        .name = "tutorial-7-wide-loads",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 7,
        .source = "tutorial/07_wide_loads.cl",
        .function = "tutorial_gemm7",
        .summary = "kernel 6 with float2/4/8 tile loads and stores (VLOCAL=1: vector local reads too)",
        .params = {TILE_PARAMS,
                   {"WIDTH", 4, "1,2,4,8", "floats per vector"},
                   {"VLOCAL", 1, "0,1", "1: read local memory as vectors too (0: the tutorial's scalar reads)"}},
        .constraints = {TILE_POSITIVE, TILE_DIVIDES, WIDTH_OK, WIDTH_DIVIDES, LOADS_A(" * WIDTH"), LOADS_B(" * WIDTH"),
                        VLOCAL_OK},
        .local_x = "TSM / WPTM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "4 * TSK * (TSM + TSN)",
    },
    {
        .name = "tutorial-8-cuda",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 8,
        .source = "tutorial/08_cuda.cl",
        .function = "tutorial_gemm8",
        .summary = "kernel 7 compiled as CUDA, with __ldg loads and warp-shuffled Breg (CUDA backend only)",
        .params = {TILE_PARAMS,
                   {"WIDTH", 4, "1,2,4", "floats per vector"},
                   {"USE_LDG", 1, "0,1", "global loads through __ldg"},
                   {"USE_SHUFFLE", 1, "0,1", "share Breg through warp shuffles"}},
        .constraints = {TILE_POSITIVE, TILE_DIVIDES, "WIDTH == 1 || WIDTH == 2 || WIDTH == 4", WIDTH_DIVIDES,
                        LOADS_A(" * WIDTH"), LOADS_B(" * WIDTH"),
                        "(USE_LDG == 0 || USE_LDG == 1) && (USE_SHUFFLE == 0 || USE_SHUFFLE == 1)",
                        /* shuffle groups of WPTN lanes share tidn, and warps are whole */
                        "USE_SHUFFLE == 0 || ((TSM / WPTM) % WPTN == 0 && (TSM / WPTM) * (TSN / WPTN) % 32 == 0 && "
                        "(WPTN == 1 || WPTN == 2 || WPTN == 4 || WPTN == 8 || WPTN == 16 || WPTN == 32))"},
        .local_x = "TSM / WPTM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "4 * TSK * (TSM + TSN)",
        .backends = GK_BACKEND_BIT_CUDA,
    },
    {
        .name = "tutorial-9-prefetch",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 9,
        .source = "tutorial/09_prefetch.cl",
        .function = "tutorial_gemm9",
        .summary = "kernel 7 with double-buffered local memory: the next tile loads while this one computes",
        .params = {TILE_PARAMS,
                   {"WIDTH", 4, "1,2,4,8", "floats per vector"},
                   {"VLOCAL", 1, "0,1", "1: read local memory as vectors too (0: the tutorial's scalar reads)"}},
        .constraints = {TILE_POSITIVE, TILE_DIVIDES, WIDTH_OK, WIDTH_DIVIDES, LOADS_A(" * WIDTH"), LOADS_B(" * WIDTH"),
                        VLOCAL_OK},
        .local_x = "TSM / WPTM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "TSK",
        .local_mem_bytes = "2 * 4 * TSK * (TSM + TSN)",
    },
    {
        /* The tutorial's kernel 10 is not a new inner kernel: it is the fast
         * kernel run at any size by zero-padding the inputs and cutting the
         * padding off C, which the GEMM plan does (src/core/routine_gemm.c) (library/pack.cl). */
        .name = "tutorial-10-padded",
        .contract = GK_CONTRACT_GEMM_PACKED_BT,
        .family = GK_FAMILY_TUTORIAL,
        .step = 10,
        .source = "tutorial/09_prefetch.cl",
        .function = "tutorial_gemm9",
        .summary = "kernel 9 at any size: the library zero-pads M, N around it; KREM=1 bounds-checks the K remainder "
                   "in the kernel (KREM=0: K padded too, as in the tutorial)",
        .params = {TILE_PARAMS,
                   {"WIDTH", 4, "1,2,4,8", "floats per vector"},
                   {"VLOCAL", 1, "0,1", "1: read local memory as vectors too (0: the tutorial's scalar reads)"},
                   {"KREM", 1, "0,1", "1: any K (loads beyond K read zeros); 0: K padded to TSK"}},
        .constraints = {TILE_POSITIVE, TILE_DIVIDES, WIDTH_OK, WIDTH_DIVIDES, LOADS_A(" * WIDTH"), LOADS_B(" * WIDTH"),
                        VLOCAL_OK, "KREM == 0 || KREM == 1"},
        .local_x = "TSM / WPTM", .local_y = "TSN / WPTN",
        .tile_m = "TSM", .tile_n = "TSN",
        .k_multiple = "KREM + (1 - KREM) * TSK",
        .local_mem_bytes = "2 * 4 * TSK * (TSM + TSN)",
    },
};

const gk_kernel_def *const gk_tutorial_kernels = kernels;
const size_t gk_tutorial_kernel_count = sizeof kernels / sizeof kernels[0];
