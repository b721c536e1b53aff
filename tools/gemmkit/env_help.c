/* `gemmkit help env`: every environment variable gemmkit reads, with its
 * default. README.md carries the same table; tests/scripts/cli_env_table.sh
 * checks that the two agree and that every GEMMKIT_* name in the sources is
 * here. A new variable is one more row. */
#include <stdio.h>

#include "cli.h"

#define MAX_PER_GROUP 14

typedef struct env_var {
    const char *name;
    const char *fallback; /* the default, word for word as in README.md */
    const char *meaning;
} env_var;

static const struct {
    const char *who;
    env_var vars[MAX_PER_GROUP];
} groups[] = {
    {"the library (every program using libgemmkit)",
     {{"GEMMKIT_DEVICE", "the first GPU, else device 0",
       "device of a context created without a selector: an index from `gemmkit devices` or part of "
       "\"platform device\" (any case); several devices: a comma-separated list (\"0,1\") or \"all\" (every GPU), "
       "over which host-array SGEMM is tiled"},
      {"GEMMKIT_BACKEND", "opencl", "backend of a context created without one: opencl or cuda (any case)"},
      {"GEMMKIT_TUNING_DB", "$XDG_CACHE_HOME/gemmkit/tuning.tsv, else ~/.cache/gemmkit/tuning.tsv",
       "tuning database read by every new context and written by `gemmkit tune`"},
      {"GEMMKIT_POLICY", "unset (the built-in policy)",
       "a whole policy table (a copy of src/kernels/tuning/policy.tsv, edited) used instead of the built-in one, "
       "read once per process, for trying rows before they are built in: a file of a few rows alone leaves the "
       "rest out; a file that cannot be read leaves the built-in table and a warning"},
      {"GEMMKIT_QUIET", "unset (warnings shown)",
       "any value but empty or 0: a context's warnings (unusable tuning-database lines) are not printed on "
       "stderr; gemmkit_context_warnings() still has them"},
      {"GEMMKIT_TRACE", "unset (off)",
       "any value but empty or 0: every kernel a call launches is timed and printed on stderr (kernel, "
       "parameters, grid, device time), to see where a call's time goes; each launch then waits for the device"},
      {"GEMMKIT_MATH", "fp32",
       "math mode of every new context's SGEMM calls: fp32, 3xtf32 (fp32 accuracy on tensor cores), tf32 "
       "(faster, less accurate) or int8x (the Ozaki scheme: exact INT8 products of integer slices); a mode the "
       "device cannot run fails those calls (docs/MATH.md)"},
      {"GEMMKIT_OZAKI_MODULI", "from the operands' spread",
       "moduli of math mode int8x, 2 to 20 or auto, read by each call: more is slower and more accurate (about 4 bits "
       "each); unset or auto, each call measures its operands' spread first and takes 8 on unspread inputs, more where "
       "they spread (8 on the caller's queue or stream); the default's error is at or below fp32's on unspread "
       "inputs, near it on spread ones; set at all, int8x runs the Ozaki scheme on every shape (docs/MATH.md)"},
      {"GEMMKIT_DEVICE_MEMORY_LIMIT", "3/4 of the device's memory",
       "bytes (or with K, M, G) of device memory a host-array SGEMM may use per device; operands beyond it "
       "are tiled out-of-core (gemmkit_context_set_memory_limit)"},
      {"GEMMKIT_TILE_SIZE", "8192", "largest tile side when host-array SGEMM is tiled (several devices, out-of-core)"},
      {"GEMMKIT_LIBCUDA", "libcuda.so.1", "NVIDIA driver library loaded by the CUDA backend"},
      {"GEMMKIT_NVRTC", "libnvrtc.so.MAJOR, libnvrtc.so, then the CUDA toolkit's lib64",
       "NVRTC library the CUDA backend compiles kernels with"},
      {"GEMMKIT_CPU_BLAS_LIB", "the program's own BLAS, else libopenblas.so.0, libblis.so.4, an optimised libblas.so.3",
       "CPU BLAS (a file or soname with sgemm_) that serves CPU work: the drop-in's CPU calls and gemmkit_sgemm on a "
       "CPU device (and gemmkit bench's cpublas peer); builtin: none (gemmkit's own loop). Read once per process"}}},
    {"the BLAS drop-in (libgemmkit_blas: sgemm_, cblas_sgemm and their _64 forms)",
     {{"GEMMKIT_BLAS_THRESHOLD", "the device's measured line (gemmkit tune --blas-threshold), else 1000000 (GPUs only)",
       "multiply-adds (M*N*K) below which a call stays on the CPU; when set (or measured), a CPU device (PoCL) is "
       "used too"},
      {"GEMMKIT_BLAS_VERBOSE", "0 (off)", "1: one line on stderr per call: where it ran, why, and how long"}}},
    {"the Python package (python/)",
     {{"GEMMKIT_LIBRARY", "the checkout's build/, the loader's path, the environment's lib/, then pkg-config",
       "path of the libgemmkit the Python package loads (then no other is tried)"}}},
    {"the gemmkit command",
     {{"GEMMKIT_SEED", "a fresh seed per run", "seed of the random inputs of verify, bench, tune and the tests"},
      {"GEMMKIT_CUBLAS", "libcublas.so, then versioned names", "cuBLAS library for bench's peer"},
      {"GEMMKIT_CUDART", "libcudart.so, then versioned names", "CUDA runtime library for bench's cuBLAS peer"},
      {"GEMMKIT_CLBLAST", "libclblast.so.1, then libclblast.so", "CLBlast library for bench's peer"},
      {"GEMMKIT_GNUPLOT", "gnuplot on PATH", "gnuplot program for bench --plot"}}},
    {"the tests only",
     {{"GEMMKIT_SOAK_CALLS", "10000", "calls made by test_soak"},
      {"GEMMKIT_THREAD_CALLS", "60", "calls per thread in test_threads"},
      {"GEMMKIT_CUDA_TEST_ARCH", "90", "compute capability test_cuda_translation compiles for"},
      {"GEMMKIT_KEEP_PLOT", "unset", "when set, test_bench_plot keeps the plot it draws"},
      {"GEMMKIT_CLI", "set by ctest", "gemmkit program that test_cli_gemm runs"}}},
};

void gk_env_help(FILE *out)
{
    fprintf(out, "Environment variables (README.md has the same table):\n");
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        fprintf(out, "\nread by %s:\n", groups[g].who);
        for (const env_var *v = groups[g].vars; v < groups[g].vars + MAX_PER_GROUP && v->name; v++)
            fprintf(out, "  %-24s default: %s\n      %s\n", v->name, v->fallback, v->meaning);
    }
}
