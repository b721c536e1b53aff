/* gemmkit: fast single-precision matrix multiplication (SGEMM) and transposition
 * on OpenCL and CUDA devices. Public C API. */
#ifndef GEMMKIT_H
#define GEMMKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GEMMKIT_API __attribute__((visibility("default")))
#else
#define GEMMKIT_API
#endif

/* Status codes: 0 is success, every failure is negative and has its own
 * number. gemmkit_strerror names them; gemmkit_last_error_message() gives the
 * details of the last failure on the calling thread. */
typedef enum gemmkit_status {
    GEMMKIT_SUCCESS = 0,
    GEMMKIT_ERROR_NULL_POINTER = -1,        /* a required pointer is NULL */
    GEMMKIT_ERROR_INVALID_LAYOUT = -2,      /* layout is not row/column-major */
    GEMMKIT_ERROR_INVALID_TRANSPOSE = -3,   /* transpose flag is not N/T/C */
    GEMMKIT_ERROR_INVALID_SIZE = -4,        /* a negative dimension */
    GEMMKIT_ERROR_INVALID_LEADING_DIM = -5, /* lda/ldb/ldc smaller than allowed */
    GEMMKIT_ERROR_SIZE_OVERFLOW = -6,       /* byte or index count overflows */
    GEMMKIT_ERROR_BUFFER_TOO_SMALL = -7,    /* device buffer smaller than offset + extent */
    GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY = -8,
    GEMMKIT_ERROR_OUT_OF_HOST_MEMORY = -9,
    GEMMKIT_ERROR_BUILD_FAILED = -10,       /* kernel compilation failed: see build log */
    GEMMKIT_ERROR_NO_DEVICE = -11,          /* no device matches the selection */
    GEMMKIT_ERROR_UNKNOWN_KERNEL = -12,     /* no kernel of that name in the registry */
    GEMMKIT_ERROR_INVALID_KERNEL_PARAMS = -13, /* unknown parameter or failed constraint */
    GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE = -14, /* kernel needs more than the device has */
    GEMMKIT_ERROR_UNSUPPORTED_BACKEND = -15,   /* backend not built in, or wrong backend */
    GEMMKIT_ERROR_BACKEND_FAILURE = -16,    /* a driver call failed (code in the message) */
    GEMMKIT_ERROR_INVALID_ARGUMENT = -17    /* any other invalid argument */
} gemmkit_status;

/* Values match CBLAS so that callers can cast. */
typedef enum gemmkit_layout {
    GEMMKIT_ROW_MAJOR = 101,
    GEMMKIT_COL_MAJOR = 102
} gemmkit_layout;

typedef enum gemmkit_transpose {
    GEMMKIT_NO_TRANS = 111,
    GEMMKIT_TRANS = 112,
    GEMMKIT_CONJ_TRANS = 113 /* same as GEMMKIT_TRANS for real data */
} gemmkit_transpose;

typedef enum gemmkit_backend {
    GEMMKIT_BACKEND_DEFAULT = 0, /* GEMMKIT_BACKEND env, else OpenCL */
    GEMMKIT_BACKEND_OPENCL = 1,
    GEMMKIT_BACKEND_CUDA = 2
} gemmkit_backend;

typedef struct gemmkit_device_info {
    char backend[16];
    char platform[128];
    char name[128];
    char vendor[128];
    char driver_version[128];
    int is_gpu;
    int compute_units;
    int clock_mhz;
    int lanes_per_unit;           /* fp32 lanes per compute unit (estimate) */
    size_t local_mem_bytes;       /* per work-group */
    size_t max_work_group_size;
    size_t global_mem_bytes;
    size_t max_alloc_bytes;
    double peak_gflops;           /* units * lanes * 2 (FMA) * clock */
} gemmkit_device_info;

typedef struct gemmkit_context gemmkit_context;
typedef struct gemmkit_buffer gemmkit_buffer;

/* Human-readable name of a status code; never NULL. */
GEMMKIT_API const char *gemmkit_strerror(gemmkit_status status);
/* Details of the last failure on this thread ("lda = 3 must be >= max(1, 5)"). */
GEMMKIT_API const char *gemmkit_last_error_message(void);
/* Compiler output of the last failed kernel build on this thread, or "". */
GEMMKIT_API const char *gemmkit_last_build_log(void);

/* Devices are numbered across all platforms of a backend. */
GEMMKIT_API gemmkit_status gemmkit_device_count(gemmkit_backend backend, int *count);
GEMMKIT_API gemmkit_status gemmkit_device_get_info(gemmkit_backend backend, int index,
                                                   gemmkit_device_info *info);

/* selector: NULL or "" means the GEMMKIT_DEVICE environment variable, else the
 * first GPU, else the first device. Otherwise a device index ("1") or a
 * case-insensitive substring of "platform device" names ("H200", "pocl"). */
GEMMKIT_API gemmkit_status gemmkit_context_create(gemmkit_context **ctx, const char *selector);
GEMMKIT_API gemmkit_status gemmkit_context_create_ex(gemmkit_context **ctx, gemmkit_backend backend,
                                                     const char *selector);
GEMMKIT_API void gemmkit_context_destroy(gemmkit_context *ctx);
GEMMKIT_API gemmkit_status gemmkit_context_device_info(gemmkit_context *ctx,
                                                       gemmkit_device_info *info);
/* Problems found while creating the context that did not stop it: a tuning
 * database line this device cannot use (its kernel then runs with the
 * registry defaults), or a database that is not readable or not a tuning
 * database. One line each, ending in '\n'; "" when there were none. They
 * are also printed once on stderr when the context is created, unless the
 * environment has GEMMKIT_QUIET=1. Valid until the context is destroyed. */
GEMMKIT_API const char *gemmkit_context_warnings(const gemmkit_context *ctx);

/* Optional controls for the _ex entry points; a NULL options pointer or
 * zero-initialised struct means defaults. */
typedef struct gemmkit_options {
    const char *kernel; /* registry name; NULL = the library's choice for the shape */
    const char *params; /* overrides, "TSM=64,TSN=64"; NULL = the kernel's defaults */
    double *kernel_ms;  /* out: device time of the main kernel (ms), if non-NULL */
    double *total_ms;   /* out: device time of all launches of the call (ms), if non-NULL */
    /* 1: host arrays go to the device even where the library would run the
     * call on the host's CPU BLAS (a CPU device and no kernel named:
     * docs/ARCHITECTURE.md, "Routing"); 0 = the library's choice. */
    int device_only;
} gemmkit_options;

/* C := alpha * op(A) * op(B) + beta * C on host arrays, with full BLAS semantics:
 * op(A) is m x k, op(B) is k x n, C is m x n. When beta == 0, C is not read.
 * On a CPU device, a call that names no kernel runs on the host's optimised
 * CPU BLAS (OpenBLAS, BLIS, MKL) when the process has one (then timings are
 * its wall time); options->device_only keeps it on the device. */
GEMMKIT_API gemmkit_status gemmkit_sgemm(gemmkit_context *ctx, gemmkit_layout layout,
                                         gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                         int64_t m, int64_t n, int64_t k, float alpha,
                                         const float *a, int64_t lda, const float *b, int64_t ldb,
                                         float beta, float *c, int64_t ldc);
GEMMKIT_API gemmkit_status gemmkit_sgemm_ex(gemmkit_context *ctx, const gemmkit_options *options,
                                            gemmkit_layout layout, gemmkit_transpose trans_a,
                                            gemmkit_transpose trans_b, int64_t m, int64_t n,
                                            int64_t k, float alpha, const float *a, int64_t lda,
                                            const float *b, int64_t ldb, float beta, float *c,
                                            int64_t ldc);

/* Device buffers, counted in floats; offsets are in elements. */
GEMMKIT_API gemmkit_status gemmkit_buffer_create(gemmkit_context *ctx, size_t count,
                                                 gemmkit_buffer **buffer);
GEMMKIT_API void gemmkit_buffer_destroy(gemmkit_buffer *buffer);
GEMMKIT_API size_t gemmkit_buffer_count(const gemmkit_buffer *buffer);
GEMMKIT_API gemmkit_status gemmkit_buffer_write(gemmkit_context *ctx, gemmkit_buffer *buffer,
                                                size_t offset, size_t count, const float *src);
GEMMKIT_API gemmkit_status gemmkit_buffer_read(gemmkit_context *ctx, const gemmkit_buffer *buffer,
                                               size_t offset, size_t count, float *dst);

/* SGEMM on device buffers that stay on the device. */
GEMMKIT_API gemmkit_status gemmkit_sgemm_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
    gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
    float alpha, const gemmkit_buffer *a, size_t offset_a, int64_t lda, const gemmkit_buffer *b,
    size_t offset_b, int64_t ldb, float beta, gemmkit_buffer *c, size_t offset_c, int64_t ldc);

/* Out-of-place copy/transpose with scaling: B := alpha * op(A), where A has
 * `rows` x `cols` elements in `layout` and B is op(A) in the same layout
 * (trans N: a scaled copy; T or C: the transpose). lda covers A's stored rows
 * (column-major) or row length (row-major), ldb likewise for op(A); elements
 * between B's columns (rows) are left as they are. When alpha == 0, A is not
 * read (it may be NULL) and B is set to zero. A and B must not overlap. */
GEMMKIT_API gemmkit_status gemmkit_somatcopy(gemmkit_context *ctx, gemmkit_layout layout,
                                             gemmkit_transpose trans, int64_t rows, int64_t cols,
                                             float alpha, const float *a, int64_t lda, float *b,
                                             int64_t ldb);
GEMMKIT_API gemmkit_status gemmkit_somatcopy_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
    gemmkit_transpose trans, int64_t rows, int64_t cols, float alpha, const gemmkit_buffer *a,
    size_t offset_a, int64_t lda, gemmkit_buffer *b, size_t offset_b, int64_t ldb);

/* Reference SGEMM on the host (double accumulation), same semantics as
 * gemmkit_sgemm. Used by the tests, `gemmkit verify` and the benchmark. */
GEMMKIT_API gemmkit_status gemmkit_sgemm_reference(gemmkit_layout layout, gemmkit_transpose trans_a,
                                                   gemmkit_transpose trans_b, int64_t m, int64_t n,
                                                   int64_t k, float alpha, const float *a,
                                                   int64_t lda, const float *b, int64_t ldb,
                                                   float beta, float *c, int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif /* GEMMKIT_H */
