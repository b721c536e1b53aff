/* bench/multi_gpu.c's parts: the options (args.c), host memory and checks
 * (host.c), the CUDA libraries loaded at run time (cuda.c), the runners
 * (runners.c) and the report (report.c). See docs/SCALE.md. */
#ifndef GK_MULTI_GPU_H
#define GK_MULTI_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gemmkit.h"

#define MG_MAX_ENTRIES 16 /* selectors in --devices, device sets in --xt */
#define MG_MAX_IDS 16     /* CUDA devices of one cuBLASXt set */
#define MG_MAX_ROWS 128
#define MG_ERR 512

/* One gemmkit context to time: "[cuda:|opencl:]SELECTOR". */
typedef struct mg_entry {
    char text[128];          /* as given */
    gemmkit_backend backend; /* from the prefix; DEFAULT without one (GEMMKIT_BACKEND) */
    char selector[120];      /* what gemmkit_context_create_ex gets */
} mg_entry;

/* One cuBLASXt device set: CUDA device ids. */
typedef struct mg_xt_set {
    int count;
    int ids[MG_MAX_IDS];
} mg_xt_set;

enum { MG_MEM_PINNED = 1, MG_MEM_PAGEABLE = 2 };

typedef struct mg_options {
    int64_t n;
    int repeat;
    int64_t warmup; /* size of the warm-up call: n (default), smaller, or 0 for none */
    int block;      /* cuBLASXt block dimension */
    int memory;     /* MG_MEM_* bits */
    int cublasxt;   /* --peers: cuBLASXt on host arrays */
    int resident;   /* --peers: gemmkit and cuBLAS on device buffers (one device) */
    double budget_s; /* 0: none */
    int samples;     /* elements checked per result */
    int threads;     /* host threads for filling arrays */
    uint64_t seed;
    const char *tsv; /* NULL: none */
    mg_entry entries[MG_MAX_ENTRIES];
    int entry_count;
    mg_xt_set xt[MG_MAX_ENTRIES];
    int xt_count; /* 0: derived from the entries' device counts */
} mg_options;

/* Parses argv (argv[0] is the program). 0: run; 1: --help was printed;
 * 2: bad usage, with the reason in err. */
int mg_parse_args(int argc, char **argv, mg_options *o, char *err, size_t err_size);
void mg_usage(FILE *out);
/* Parses "0,1" into a device set. 0 or -1. */
int mg_parse_xt_set(const char *text, mg_xt_set *set);

/* --- host memory (host.c) ------------------------------------------------ */
/* Calls fn(first, count, user) on `threads` threads over [0, total). */
void mg_parallel(size_t total, int threads, void (*fn)(size_t first, size_t count, void *user), void *user);
/* The inputs: element i of matrix `which` from (seed, which, i) alone, in
 * (-1, 1) and never 0, so every memory kind and thread count sees the same data. */
void mg_fill_inputs(float *x, size_t count, uint64_t seed, int which, int threads);
void mg_fill_nan(float *x, size_t count, int threads);
/* Bytes of host memory the system can give (MemAvailable), 0 if unknown. */
size_t mg_host_available(void);

/* --- CUDA runtime + cuBLAS + cuBLASXt, loaded with dlopen (cuda.c) ------- */
typedef struct mg_cuda mg_cuda;
/* The CUDA runtime (GEMMKIT_CUDART, else the usual names) and cuBLAS
 * (GEMMKIT_CUBLAS, ...). NULL with the reason in why when either is absent
 * or sees no device. Sets NVIDIA_TF32_OVERRIDE=0 first: cuBLASXt has no math
 * mode setting, and this keeps it in pure fp32. */
mg_cuda *mg_cuda_open(char *why, size_t len);
const char *mg_cuda_version(const mg_cuda *cu);
/* Why cuBLAS (and cuBLASXt) could not be loaded; "" when it was. */
const char *mg_cuda_cublas_why(const mg_cuda *cu);
int mg_cuda_device_count(const mg_cuda *cu);
/* Page-locked host memory (cudaHostAlloc, portable to every context). */
float *mg_cuda_host_alloc(mg_cuda *cu, size_t bytes, char *err, size_t len);
void mg_cuda_host_free(mg_cuda *cu, float *p);

/* --- runners (runners.c) -------------------------------------------------- */
/* One thing timed: set up once, called (warm-up, repeats), finished, torn down. */
typedef struct mg_runner mg_runner;
struct mg_runner {
    char name[32];     /* gemmkit, cublasxt, gemmkit-resident, cublas-resident */
    char target[128];  /* the selector or device list, as printed */
    char backend[16];  /* cuda, opencl, or "-" */
    int devices;
    int host_arrays;   /* 1: the call reads and writes the host arrays (C poisoned before each) */
    int small_warmup;  /* 1: a warm-up call of another size is allowed */
    char about[256];   /* what setup opened (device names), printed */
    /* 0; -1 with err: failed; 1 with err: cannot run here (skipped). a and b
     * hold the inputs, c the poison (resident runners upload all three). */
    int (*setup)(mg_runner *r, int64_t n, const float *a, const float *b, const float *c, char *err);
    int (*call)(mg_runner *r, int64_t n, const float *a, const float *b, float *c, char *err);
    /* Resident runners read C back into c here; others do nothing. */
    int (*finish)(mg_runner *r, int64_t n, float *c, char *err);
    void (*teardown)(mg_runner *r);
    void *state;
};

/* The devices a gemmkit selector names, counted as the library opens them:
 * "all" is every GPU of the backend (every device where there is none), a
 * comma-separated list one device per item. 0 with err when not countable. */
int mg_selector_devices(const mg_entry *e, char *err, size_t len);
void mg_runner_gemmkit(mg_runner *r, const mg_entry *e, int devices);
void mg_runner_gemmkit_resident(mg_runner *r, const mg_entry *e);
void mg_runner_cublasxt(mg_runner *r, mg_cuda *cu, const mg_xt_set *set, int block);
void mg_runner_cublas_resident(mg_runner *r, mg_cuda *cu, int device);

/* --- the report (report.c) ------------------------------------------------ */
typedef enum { MG_OK, MG_WRONG, MG_FAILED, MG_SKIPPED } mg_status;

typedef struct mg_row {
    int64_t n;
    char runner[32], target[128], backend[16], memory[16];
    int devices;
    mg_status status;
    double seconds;  /* median of the timed calls */
    int timed;       /* how many */
    double max_error; /* of the sampled check, relative to sum |a||b| */
    char detail[MG_ERR];
} mg_row;

/* Derived from other rows (0 where there is nothing to compare with). */
typedef struct mg_ratios {
    double tflops;
    double to_peer;  /* gemmkit host: cuBLASXt's seconds / ours, same device count and memory;
                        gemmkit-resident: cublas-resident's / ours */
    double scaling;  /* same runner, backend and memory: 1 device's seconds / ours */
    double host_to_resident; /* one device: the resident rate's share reached on host arrays */
} mg_ratios;

mg_ratios mg_row_ratios(const mg_row *rows, int count, int index);
/* One line per row: "RUNNER TARGET DEVICES MEMORY  SECONDS s  TFLOPS ..." */
void mg_print_row(FILE *out, const mg_row *rows, int count, int index);
void mg_print_summary(FILE *out, const mg_row *rows, int count);
/* The TSV file, rewritten whole (0, or -1 with err). */
int mg_write_tsv(const char *path, const mg_row *rows, int count, char *err, size_t len);
const char *mg_status_name(mg_status s);

#endif
