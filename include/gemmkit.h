/**
 * @file gemmkit.h
 * @brief gemmkit: single-precision matrix multiplication (SGEMM) and
 * transposition on OpenCL and CUDA devices. The public C API.
 *
 * Rules that hold for every function below (each function's comment says
 * what is particular to it):
 *
 * - **Errors.** Functions return a ::gemmkit_status: ::GEMMKIT_SUCCESS (0)
 *   or a negative code. A failure also records a message on the calling
 *   thread (gemmkit_last_error_message()). The library never exits, aborts
 *   or prints errors; bad input is rejected before anything changes (output
 *   arrays and buffers are untouched). Arguments are checked in the order
 *   of the reference BLAS, so the first bad one is the one reported.
 * - **Threads.** A ::gemmkit_context serialises the calls made on it with a
 *   mutex: one context may be shared between threads (its calls then run one
 *   at a time), and separate contexts run in parallel. A context and its
 *   buffers must outlive every call that uses them.
 * - **Blocking.** Every call returns when its work is done: host-array calls
 *   when the result is in the caller's array, device-buffer calls when the
 *   device has finished. The first call that needs a kernel configuration
 *   compiles it (tens of milliseconds to seconds, by driver); the context
 *   caches the program, so later calls skip that step.
 * - **Limits.** Kernels index with 32-bit integers: dimensions, leading
 *   dimensions and the span of each matrix (offset included, in elements)
 *   are at most 2^31-1 (::GEMMKIT_ERROR_SIZE_OVERFLOW beyond). One device
 *   allocation is at most the device's `max_alloc_bytes`
 *   (::GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY beyond).
 */
#ifndef GEMMKIT_H
#define GEMMKIT_H

#include <stddef.h>
#include <stdint.h>

/* The one place the version is written: CMake reads these three lines
 * (cmake/gemmkit_version.cmake) for the soname, gemmkit.pc and the CMake
 * package; CHANGELOG.md says what each version brought. */
#define GEMMKIT_VERSION_MAJOR 0
#define GEMMKIT_VERSION_MINOR 1
#define GEMMKIT_VERSION_PATCH 0
/** The header's version as one number (MAJOR * 10000 + MINOR * 100 + PATCH), for `#if`. */
#define GEMMKIT_VERSION (GEMMKIT_VERSION_MAJOR * 10000 + GEMMKIT_VERSION_MINOR * 100 + GEMMKIT_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GEMMKIT_API __attribute__((visibility("default")))
#else
#define GEMMKIT_API
#endif

/** Status codes: 0 is success, every failure is negative and has its own
 * number. gemmkit_strerror() names them; gemmkit_last_error_message() gives
 * the details of the last failure on the calling thread. */
typedef enum gemmkit_status {
    GEMMKIT_SUCCESS = 0,
    GEMMKIT_ERROR_NULL_POINTER = -1,        /**< a required pointer is NULL */
    GEMMKIT_ERROR_INVALID_LAYOUT = -2,      /**< layout is not row/column-major */
    GEMMKIT_ERROR_INVALID_TRANSPOSE = -3,   /**< transpose flag is not N/T/C */
    GEMMKIT_ERROR_INVALID_SIZE = -4,        /**< a negative dimension */
    GEMMKIT_ERROR_INVALID_LEADING_DIM = -5, /**< lda/ldb/ldc smaller than allowed */
    GEMMKIT_ERROR_SIZE_OVERFLOW = -6,       /**< byte or index count overflows (the 2^31-1 limits) */
    GEMMKIT_ERROR_BUFFER_TOO_SMALL = -7,    /**< device buffer smaller than offset + extent */
    GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY = -8, /**< an allocation failed or exceeds max_alloc_bytes */
    GEMMKIT_ERROR_OUT_OF_HOST_MEMORY = -9,
    GEMMKIT_ERROR_BUILD_FAILED = -10,       /**< kernel compilation failed: see gemmkit_last_build_log() */
    GEMMKIT_ERROR_NO_DEVICE = -11,          /**< no device matches the selection */
    GEMMKIT_ERROR_UNKNOWN_KERNEL = -12,     /**< no kernel of that name, or not one for this routine */
    GEMMKIT_ERROR_INVALID_KERNEL_PARAMS = -13, /**< unknown parameter or failed constraint */
    GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE = -14, /**< kernel needs more than the device has */
    GEMMKIT_ERROR_UNSUPPORTED_BACKEND = -15,   /**< backend not built in, or wrong backend */
    GEMMKIT_ERROR_BACKEND_FAILURE = -16,    /**< a driver call failed (code in the message) */
    GEMMKIT_ERROR_INVALID_ARGUMENT = -17,   /**< any other invalid argument */
    GEMMKIT_ERROR_UNSUPPORTED_MATH = -18    /**< the device cannot compute in the math mode asked for */
} gemmkit_status;

/** Matrix storage order. Values match CBLAS so that callers can cast. */
typedef enum gemmkit_layout {
    GEMMKIT_ROW_MAJOR = 101,
    GEMMKIT_COL_MAJOR = 102
} gemmkit_layout;

/** op(X): X or its transpose. Values match CBLAS. */
typedef enum gemmkit_transpose {
    GEMMKIT_NO_TRANS = 111,
    GEMMKIT_TRANS = 112,
    GEMMKIT_CONJ_TRANS = 113 /**< same as GEMMKIT_TRANS for real data */
} gemmkit_transpose;

typedef enum gemmkit_backend {
    GEMMKIT_BACKEND_DEFAULT = 0, /**< the GEMMKIT_BACKEND environment variable, else OpenCL */
    GEMMKIT_BACKEND_OPENCL = 1,
    GEMMKIT_BACKEND_CUDA = 2
} gemmkit_backend;

/** What gemmkit knows about a device (gemmkit_device_get_info()). */
typedef struct gemmkit_device_info {
    char backend[16];
    char platform[128];
    char name[128];
    char vendor[128];
    char driver_version[128];
    int is_gpu;
    int compute_units;
    int clock_mhz;
    int lanes_per_unit;           /**< fp32 lanes per compute unit (estimate) */
    size_t local_mem_bytes;       /**< per work-group */
    size_t max_work_group_size;
    size_t global_mem_bytes;
    size_t max_alloc_bytes;       /**< the largest single allocation */
    double peak_gflops;           /**< units * lanes * 2 (FMA) * clock */
} gemmkit_device_info;

/** One opened device: its queue, compiled programs and scratch memory. */
typedef struct gemmkit_context gemmkit_context;
/** Device memory of floats, owned by (or wrapped into) one context. */
typedef struct gemmkit_buffer gemmkit_buffer;

/**
 * @brief The version of the loaded library, "MAJOR.MINOR.PATCH".
 *
 * Compare it with ::GEMMKIT_VERSION_MAJOR etc. to see whether the library
 * found at run time is the one the program was compiled against.
 * @param major, minor, patch  receive the numbers when not NULL.
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @return a static string; never NULL. This function cannot fail.
 */
GEMMKIT_API const char *gemmkit_version(int *major, int *minor, int *patch);

/**
 * @brief Human-readable name of a status code ("leading dimension too small").
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @return a static string, never NULL ("unknown status code" for a value
 *   that is not a ::gemmkit_status). This function cannot fail.
 */
GEMMKIT_API const char *gemmkit_strerror(gemmkit_status status);

/**
 * @brief Details of the last failure on the calling thread
 * ("lda = 3 must be >= max(1, 5)").
 *
 * Only failures write it: a successful call leaves the previous message in
 * place, so read it only after a call returned an error.
 * @par Blocks
 *   never.
 * @par Threads
 *   each thread has its own message.
 * @par Limits
 *   at most 1023 characters (longer messages are cut).
 * @return thread-local storage, valid until the thread's next failure or
 *   its exit; "" before any failure. This function cannot fail.
 */
GEMMKIT_API const char *gemmkit_last_error_message(void);

/**
 * @brief Compiler output of the last failed kernel build on the calling
 * thread (after ::GEMMKIT_ERROR_BUILD_FAILED).
 * @par Blocks
 *   never.
 * @par Threads
 *   each thread has its own log.
 * @par Limits
 *   none (the whole log is kept).
 * @return valid until the thread's next failed build or its exit; "" when
 *   no build failed on this thread. This function cannot fail.
 */
GEMMKIT_API const char *gemmkit_last_build_log(void);

/**
 * @brief Number of devices of a backend, numbered across all its platforms.
 *
 * The first call of a backend discovers its platforms and devices (OpenCL:
 * once per process); later calls return the same list.
 * @param backend  ::GEMMKIT_BACKEND_DEFAULT reads `GEMMKIT_BACKEND`.
 * @param[out] count  the number of devices (0 when the backend finds none).
 * @par Blocks
 *   on the driver's initialisation (first call).
 * @par Threads
 *   safe from any thread; needs no context.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  count is NULL.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  an unknown backend, a bad
 *   `GEMMKIT_BACKEND`, a backend not built into this library, or a CUDA
 *   driver older than the toolkit.
 * @retval GEMMKIT_ERROR_NO_DEVICE  CUDA: the driver library cannot be loaded.
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  the driver failed (its code in the message).
 */
GEMMKIT_API gemmkit_status gemmkit_device_count(gemmkit_backend backend, int *count);

/**
 * @brief Properties of device `index` (0 .. gemmkit_device_count() - 1) of a backend.
 * @param[out] info  filled on success.
 * @par Blocks
 *   on driver queries.
 * @par Threads
 *   safe from any thread; needs no context.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  info is NULL.
 * @retval GEMMKIT_ERROR_NO_DEVICE  index out of range.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  as for gemmkit_device_count().
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  a driver query failed.
 */
GEMMKIT_API gemmkit_status gemmkit_device_get_info(gemmkit_backend backend, int index,
                                                   gemmkit_device_info *info);

/**
 * @brief Opens a device on the default backend (`GEMMKIT_BACKEND`, else
 * OpenCL); see gemmkit_context_create_ex().
 * @par Blocks
 *   as gemmkit_context_create_ex().
 * @par Threads
 *   as gemmkit_context_create_ex().
 * @par Limits
 *   as gemmkit_context_create_ex().
 * @retval GEMMKIT_SUCCESS
 * @retval others  as gemmkit_context_create_ex().
 */
GEMMKIT_API gemmkit_status gemmkit_context_create(gemmkit_context **ctx, const char *selector);

/**
 * @brief Opens a device: its context and in-order queue, and this device's
 * lines of the tuning database.
 *
 * Kernels are not compiled here but by the first call that needs each one.
 * Problems that do not stop the context (an unusable tuning-database line)
 * go to gemmkit_context_warnings() and, once, to stderr unless
 * `GEMMKIT_QUIET` is set.
 * @param[out] ctx  the new context (NULL on failure); free it with
 *   gemmkit_context_destroy().
 * @param backend  ::GEMMKIT_BACKEND_DEFAULT reads `GEMMKIT_BACKEND`.
 * @param selector  NULL or "": the `GEMMKIT_DEVICE` environment variable,
 *   else the first GPU, else the first device. Otherwise a device index
 *   ("1") or a case-insensitive part of "platform device" ("H200", "pocl");
 *   or several devices: a comma-separated list of such selectors ("0,1";
 *   each names one device, the first it matches; no device twice), or "all"
 *   (any case: every GPU of the backend, else every device). A list of one
 *   device, or "all" finding one, is an ordinary one-device context.
 *
 * **Several devices.** gemmkit_sgemm() and gemmkit_sgemm_ex() on host
 * arrays tile C over every device of the context (docs/ARCHITECTURE.md,
 * "Several devices and out-of-core"). Every other call uses the context's
 * first device (index 0 of gemmkit_context_device_info_at(), the first of
 * the list): gemmkit_context_device_info(), buffers and every _buffers call,
 * gemmkit_somatcopy(), the batched calls and the OpenCL interop.
 * gemmkit_context_device_count() tells how many devices a context has.
 * `GEMMKIT_DEVICE_MEMORY_LIMIT` (bytes, or with K, M, G) sets every new
 * context's memory limit (gemmkit_context_set_memory_limit()),
 * `GEMMKIT_TILE_SIZE` the largest side of its tiles (default 8192).
 * @par Blocks
 *   on the driver opening the device and on reading the tuning database
 *   files.
 * @par Threads
 *   safe from any thread; any number of contexts may exist at once.
 * @par Limits
 *   none beyond the driver's.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  an unknown backend, a bad
 *   `GEMMKIT_BACKEND`, a backend not built in (CUDA without its toolkit at
 *   build time), or a CUDA driver older than the toolkit.
 * @retval GEMMKIT_ERROR_NO_DEVICE  no device at all (CUDA: also no loadable
 *   driver library), an index out of range, or a selector (or
 *   `GEMMKIT_DEVICE`, named in the message) that matches none; for a list,
 *   the item that matches none is named.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  a list with an empty item, one
 *   device named twice, or more than 64 devices; `GEMMKIT_DEVICE_MEMORY_LIMIT`
 *   or `GEMMKIT_TILE_SIZE` not a whole number.
 * @retval GEMMKIT_ERROR_OUT_OF_HOST_MEMORY
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  the driver failed to open a device.
 */
GEMMKIT_API gemmkit_status gemmkit_context_create_ex(gemmkit_context **ctx, gemmkit_backend backend,
                                                     const char *selector);

/**
 * @brief Releases a context: its compiled programs, scratch memory, queue
 * and device context.
 *
 * Destroy the context's buffers first (gemmkit_buffer_destroy() uses the
 * context). NULL does nothing.
 * @par Blocks
 *   until the context's queue is idle.
 * @par Threads
 *   no other call may use the context during or after this one.
 * @par Limits
 *   none.
 * @return nothing; cannot fail.
 */
GEMMKIT_API void gemmkit_context_destroy(gemmkit_context *ctx);

/**
 * @brief The properties of the context's device (a copy).
 * @par Blocks
 *   never (read when the context was created).
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or info is NULL.
 */
GEMMKIT_API gemmkit_status gemmkit_context_device_info(gemmkit_context *ctx,
                                                       gemmkit_device_info *info);

/**
 * @brief The number of devices of a context: 1, or the devices its selector
 *   named (a list or "all").
 * @param[out] count  the number of devices.
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or count is NULL.
 */
GEMMKIT_API gemmkit_status gemmkit_context_device_count(gemmkit_context *ctx, int *count);

/**
 * @brief The properties of device `index` (0 .. gemmkit_context_device_count() - 1)
 *   of a context, in the order of its selector; index 0 is what
 *   gemmkit_context_device_info() gives.
 * @param[out] info  filled on success.
 * @par Blocks
 *   never (read when the context was created).
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or info is NULL.
 * @retval GEMMKIT_ERROR_NO_DEVICE  index out of range.
 */
GEMMKIT_API gemmkit_status gemmkit_context_device_info_at(gemmkit_context *ctx, int index,
                                                          gemmkit_device_info *info);

/**
 * @brief Sets how much device memory a tiled host-array SGEMM may use on
 *   each device of the context (several devices, or out-of-core on one).
 *
 * A host-array call on a one-device context whose staged operands (A, B and
 * C, twice over for the padded copies a tiled kernel may make) exceed the
 * limit is tiled: tiles of C and chunks of K are chosen so that each of
 * the two lanes of a device uses at most half of it
 * (the limit is a planning figure, not a cap on the driver's allocations).
 * A new context starts with `GEMMKIT_DEVICE_MEMORY_LIMIT`, else 0.
 * @param bytes  0: three quarters of the smallest device's memory.
 * @par Blocks
 *   until the context's current call ends.
 * @par Threads
 *   safe from any thread (takes the context's lock).
 * @par Limits
 *   a limit too small for tiles of 16 x 16 with K chunks of 16 (about 12 KiB)
 *   fails the tiled calls with ::GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL.
 */
GEMMKIT_API gemmkit_status gemmkit_context_set_memory_limit(gemmkit_context *ctx, size_t bytes);

/**
 * @brief Problems found while creating the context that did not stop it.
 *
 * A tuning database line this device cannot use (its kernel then runs with
 * the registry defaults), or a database that is not readable or not a
 * tuning database. One line each, ending in '\\n'. They are also printed
 * once on stderr when the context is created, unless the environment has
 * `GEMMKIT_QUIET=1`.
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread (the text does not change after creation).
 * @par Limits
 *   the text is cut at 2 KiB.
 * @return valid until the context is destroyed; "" when there were none or
 *   ctx is NULL. This function cannot fail.
 */
GEMMKIT_API const char *gemmkit_context_warnings(const gemmkit_context *ctx);

/**
 * @brief The BLAS drop-in's measured threshold for the context's device.
 *
 * The `blas-threshold` line of the tuning database (`gemmkit tune
 * --blas-threshold`, docs/DROPIN.md "Measuring the crossover") that applies
 * to this device, the most specific one as for kernel lines: the number of
 * multiply-adds (M * N * K) from which the device beat the CPU BLAS on host
 * arrays, copies included. The drop-in (libgemmkit_blas) uses it when
 * `GEMMKIT_BLAS_THRESHOLD` is not set.
 * @par Blocks
 *   never (read when the context was created).
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   a context over several devices answers for its first one.
 * @param work   set to the multiply-adds, or INFINITY when the device never
 *   won (every call stays on the CPU); untouched when there is no line.
 * @param source when not NULL, set to "tuning database" (the user's file) or
 *   "built-in" (src/kernels/tuning/builtin.tsv).
 * @return 1 when a line applies; 0 when none does, or ctx or work is NULL.
 */
GEMMKIT_API int gemmkit_context_blas_threshold(const gemmkit_context *ctx, double *work, const char **source);

/**
 * @brief The lowest BLAS drop-in threshold any device's line holds.
 *
 * The smallest `blas-threshold` of every usable line of the databases a new
 * context would read (built-in, and `$GEMMKIT_TUNING_DB` or the default
 * file), whatever device it names: a call below it stays on the CPU on any
 * device, so the drop-in need not open one to decide it.
 * @par Blocks
 *   on reading the database files; opens no device.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   warns about nothing: a context reading the lines does.
 * @return the multiply-adds; INFINITY when no line holds one.
 */
GEMMKIT_API double gemmkit_blas_threshold_lowest(void);

/** The arithmetic of an SGEMM (docs/MATH.md). 3XTF32 and TF32 run on
 * tensor cores: NVIDIA GPUs of compute capability 8.0 or newer, either
 * backend; INT8X runs on every device with fp64 arithmetic. A device that
 * cannot compute in the mode asked for fails the call with
 * ::GEMMKIT_ERROR_UNSUPPORTED_MATH; the accuracy never changes silently. */
typedef enum gemmkit_math {
    GEMMKIT_MATH_DEFAULT = 0, /**< options only: the context's mode (gemmkit_context_set_math()) */
    GEMMKIT_MATH_FP32 = 1,    /**< fp32 FMA arithmetic, every device: the default */
    /** fp32 accuracy on tensor cores: each operand split into two TF32 parts,
     * three products ("3xtf32"); error no larger than fp32's in the host model */
    GEMMKIT_MATH_3XTF32 = 2,
    /** one TF32 product (10-bit mantissas, "tf32"): fastest, error ~2^-10
     * relative to sum |a||b|, about 100x fp32's */
    GEMMKIT_MATH_TF32 = 3,
    /** The Ozaki scheme II ("int8x"): each row of op(A) and column of op(B)
     * scaled by a power of two and rounded to an integer, one exact INT8
     * product of their residues per modulus, recombined by the Chinese
     * remainder theorem in fp64. The environment variable
     * `GEMMKIT_OZAKI_MODULI` (2 to 20; read by each call) sets the number of
     * moduli: more is slower and more accurate, the error per element
     * typically about 2^(-4 moduli) of |row i of op(A)|_2 |column j of
     * op(B)|_2. Unset, each call first measures how widely its operands'
     * elements spread within a row (one wait for the device) and takes 8
     * moduli on unspread inputs, more where they spread; calls enqueued on
     * the caller's queue or stream take 8. Rows and columns holding Inf or
     * NaN are computed in fp32 (docs/MATH.md). Needs fp64 on the device. */
    GEMMKIT_MATH_INT8X = 4
} gemmkit_math;

/**
 * @brief The name of a math mode: "fp32", "3xtf32", "tf32", "int8x" ("default" for
 * ::GEMMKIT_MATH_DEFAULT).
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @return a static string; "unknown" for a value that is no mode. This
 *   function cannot fail.
 */
GEMMKIT_API const char *gemmkit_math_name(gemmkit_math math);

/**
 * @brief Parses a math mode name as gemmkit_math_name() writes it (any case).
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS  *math holds the mode.
 * @retval GEMMKIT_ERROR_NULL_POINTER  name or math is NULL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  not a mode name; *math unchanged.
 */
GEMMKIT_API gemmkit_status gemmkit_math_parse(const char *name, gemmkit_math *math);

/**
 * @brief Sets the context's math mode: the one of every SGEMM whose options
 * say ::GEMMKIT_MATH_DEFAULT (or that has no options). A new context starts
 * in the mode of the environment variable `GEMMKIT_MATH`, else fp32.
 * @par Blocks
 *   until the context's current call ends.
 * @par Threads
 *   safe from any thread (takes the context's lock).
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  math is not FP32, 3XTF32, TF32 or INT8X.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_MATH  the device cannot compute in it
 *   (the message says why); the mode is unchanged.
 */
GEMMKIT_API gemmkit_status gemmkit_context_set_math(gemmkit_context *ctx, gemmkit_math math);

/**
 * @brief The context's math mode (never ::GEMMKIT_MATH_DEFAULT).
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or math is NULL.
 */
GEMMKIT_API gemmkit_status gemmkit_context_get_math(gemmkit_context *ctx, gemmkit_math *math);

/** Optional controls for the _ex and _buffers entry points; a NULL options
 * pointer or a zero-initialised struct means defaults. */
typedef struct gemmkit_options {
    const char *kernel; /**< registry name (`gemmkit list`); NULL = the library's choice for the shape */
    const char *params; /**< overrides, "TSM=64,TSN=64"; NULL = this device's tuned values, else the defaults */
    double *kernel_ms;  /**< out: device time of the main kernel (ms), if non-NULL */
    double *total_ms;   /**< out: device time of all launches of the call (ms), if non-NULL */
    /** 1: host arrays go to the device even where the library would run the
     * call on the host's CPU BLAS (a CPU device and no kernel named:
     * docs/ARCHITECTURE.md, "Routing"); 0 = the library's choice. */
    int device_only;
    /** The call's arithmetic; ::GEMMKIT_MATH_DEFAULT = the context's mode. A
     * named kernel computes in its own mode (`gemmkit list`): a mode set here
     * must then be that one. */
    gemmkit_math math;
} gemmkit_options;

/**
 * @brief C := alpha * op(A) * op(B) + beta * C on host arrays, with full
 * BLAS semantics; gemmkit_sgemm_ex() without options.
 * @par Blocks
 *   as gemmkit_sgemm_ex().
 * @par Threads
 *   as gemmkit_sgemm_ex().
 * @par Limits
 *   as gemmkit_sgemm_ex().
 * @retval GEMMKIT_SUCCESS
 * @retval others  as gemmkit_sgemm_ex().
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm(gemmkit_context *ctx, gemmkit_layout layout,
                                         gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                         int64_t m, int64_t n, int64_t k, float alpha,
                                         const float *a, int64_t lda, const float *b, int64_t ldb,
                                         float beta, float *c, int64_t ldc);

/**
 * @brief C := alpha * op(A) * op(B) + beta * C on host arrays, with full
 * BLAS semantics: op(A) is m x k, op(B) is k x n, C is m x n, stored in
 * `layout` with leading dimensions lda, ldb, ldc.
 *
 * A, B and C are copied into the context's staging buffers (which grow to
 * the largest call and are kept until the context is destroyed), the plan
 * runs, and C is read back into a temporary and copied out only when
 * everything succeeded: on failure C is untouched. Elements between C's rows
 * (columns) that a larger ldc leaves are never written. When beta == 0, C is
 * not read (NaN in C does not propagate); when alpha == 0 or k == 0, A and B
 * are not read (they may be NULL). When m == 0, n == 0, or (alpha == 0 or
 * k == 0) and beta == 1, the call checks its arguments and returns without
 * touching the device.
 *
 * **Tiled** (a context of several devices, operands beyond one device's
 * memory limit: gemmkit_context_set_memory_limit(), or a large call on a GPU,
 * from 2^33 multiply-adds, as the built-in policy routes it): C is cut into tiles
 * that every device takes from a shared queue (two lanes per device, so
 * copies overlap kernels); each tile's panels of A and B are copied from
 * the caller's arrays (K in chunks when they would not fit), multiplied with
 * the kernel the device's policy (or options) picks, and the tile is copied
 * into C. Tiles are within the 32-bit limits whatever the whole matrices'
 * spans, so only m, n, k and the leading dimensions are limited to 2^31-1.
 * On failure C is not rolled back: each element of C holds its value from
 * before the call or its result, but the elements of a tile whose copy back
 * failed (a driver failure during that copy) are undefined. Timings
 * (options) are the device times summed over every tile and device.
 * @param options  kernel, parameters and timings (NULL: defaults).
 * @par Blocks
 *   until C holds the result (uploads, compilation of kernels not yet
 *   built on this context, the kernels, the read-back).
 * @par Threads
 *   holds the context's mutex for the whole call; calls on other contexts
 *   run in parallel. A tiled call runs two threads per device and joins
 *   them before it returns.
 * @par Limits
 *   m, n, k, the leading dimensions at most 2^31-1; m * n and each matrix's
 *   span too unless the call is tiled (a span beyond that, or a matrix beyond
 *   the device's max_alloc_bytes, makes it tiled).
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL; C is NULL while C is
 *   written; A or B is NULL while they are read.
 * @retval GEMMKIT_ERROR_INVALID_LAYOUT, GEMMKIT_ERROR_INVALID_TRANSPOSE
 * @retval GEMMKIT_ERROR_INVALID_SIZE  m, n or k negative.
 * @retval GEMMKIT_ERROR_INVALID_LEADING_DIM  lda, ldb or ldc below the rows
 *   (column-major) or row length (row-major) of its stored matrix, or below 1.
 * @retval GEMMKIT_ERROR_SIZE_OVERFLOW  beyond the 32-bit limits above.
 * @retval GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY, GEMMKIT_ERROR_OUT_OF_HOST_MEMORY
 * @retval GEMMKIT_ERROR_UNKNOWN_KERNEL  options->kernel is no SGEMM kernel.
 * @retval GEMMKIT_ERROR_INVALID_KERNEL_PARAMS  options->params names an
 *   unknown parameter or breaks the kernel's constraints.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE  the kernel's work-group or
 *   local memory exceed the device's.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_MATH  the device cannot compute in the
 *   call's math mode (options->math, else the context's); C is unchanged.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the named kernel does not run
 *   on this backend.
 * @retval GEMMKIT_ERROR_BUILD_FAILED  see gemmkit_last_build_log().
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  a driver call failed.
 * A tiled call on several devices fails with the status of the first
 * device that failed, its message prefixed with "device I (NAME): ".
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_ex(gemmkit_context *ctx, const gemmkit_options *options,
                                            gemmkit_layout layout, gemmkit_transpose trans_a,
                                            gemmkit_transpose trans_b, int64_t m, int64_t n,
                                            int64_t k, float alpha, const float *a, int64_t lda,
                                            const float *b, int64_t ldb, float beta, float *c,
                                            int64_t ldc);

/**
 * @brief Allocates a device buffer of `count` floats (contents undefined).
 *
 * Offsets and counts of every buffer function are in floats. A buffer
 * belongs to its context: pass it only with that context, and destroy it
 * before the context.
 * @param[out] buffer  the new buffer (NULL on failure).
 * @par Blocks
 *   on the driver's allocation.
 * @par Threads
 *   takes the context's mutex.
 * @par Limits
 *   count * 4 bytes at most the device's max_alloc_bytes; count 0 is allowed.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or buffer is NULL.
 * @retval GEMMKIT_ERROR_SIZE_OVERFLOW  count * 4 overflows size_t.
 * @retval GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY  above max_alloc_bytes, or the
 *   driver's allocation failed.
 * @retval GEMMKIT_ERROR_OUT_OF_HOST_MEMORY
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE
 */
GEMMKIT_API gemmkit_status gemmkit_buffer_create(gemmkit_context *ctx, size_t count,
                                                 gemmkit_buffer **buffer);

/**
 * @brief Frees a buffer (a wrapped cl_mem stays alive). NULL does nothing.
 * @par Blocks
 *   on the driver's release.
 * @par Threads
 *   takes the buffer's context's mutex; no other call may use the buffer
 *   during or after this one.
 * @par Limits
 *   call it before gemmkit_context_destroy() of its context.
 * @return nothing; cannot fail.
 */
GEMMKIT_API void gemmkit_buffer_destroy(gemmkit_buffer *buffer);

/**
 * @brief The number of floats a buffer holds (0 for NULL).
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   none.
 * @return the count; cannot fail.
 */
GEMMKIT_API size_t gemmkit_buffer_count(const gemmkit_buffer *buffer);

/**
 * @brief Copies `count` floats from host memory `src` into the buffer at `offset`.
 * @par Blocks
 *   until the copy is complete (src may be reused on return).
 * @par Threads
 *   takes the context's mutex.
 * @par Limits
 *   offset + count within the buffer.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or buffer is NULL, or src is NULL
 *   with count > 0.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  the buffer belongs to another context.
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  the range is outside the buffer.
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE
 */
GEMMKIT_API gemmkit_status gemmkit_buffer_write(gemmkit_context *ctx, gemmkit_buffer *buffer,
                                                size_t offset, size_t count, const float *src);

/**
 * @brief Copies `count` floats of the buffer from `offset` into host memory `dst`.
 * @par Blocks
 *   until dst holds the data (after the context's earlier work).
 * @par Threads
 *   takes the context's mutex.
 * @par Limits
 *   offset + count within the buffer.
 * @retval GEMMKIT_SUCCESS
 * @retval others  as gemmkit_buffer_write() (dst for src).
 */
GEMMKIT_API gemmkit_status gemmkit_buffer_read(gemmkit_context *ctx, const gemmkit_buffer *buffer,
                                               size_t offset, size_t count, float *dst);

/**
 * @brief C := alpha * op(A) * op(B) + beta * C on device buffers that stay
 * on the device: the semantics of gemmkit_sgemm_ex(), with each matrix at an
 * element offset in its buffer.
 *
 * Nothing is copied to or from the host. A buffer that is not read (A and B
 * when alpha == 0 or k == 0) may be NULL. C must not overlap A or B (not
 * checked).
 * @par Blocks
 *   until the device has finished the call (the result is in C on return).
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   those of gemmkit_sgemm_ex(), and offset + span of each matrix at most
 *   2^31-1 elements and within its buffer.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  a buffer belongs to another context.
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  offset + span exceeds a buffer.
 * @retval others  as gemmkit_sgemm_ex() (NULL_POINTER for a NULL buffer that is used).
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
    gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
    float alpha, const gemmkit_buffer *a, size_t offset_a, int64_t lda, const gemmkit_buffer *b,
    size_t offset_b, int64_t ldb, float beta, gemmkit_buffer *c, size_t offset_c, int64_t ldc);

/**
 * @brief Out-of-place copy/transpose with scaling on host arrays:
 * B := alpha * op(A).
 *
 * A has `rows` x `cols` elements in `layout`; B is op(A) in the same layout
 * (trans N: a scaled copy; T or C: the transpose). lda covers A's stored
 * rows (column-major) or row length (row-major), ldb likewise for op(A);
 * elements between B's columns (rows) are left as they are. When alpha == 0,
 * A is not read (it may be NULL) and B is set to zero. A and B must not
 * overlap. B is written only when everything succeeded.
 * @par Blocks
 *   until B holds the result.
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   rows, cols, lda, ldb and each matrix's span at most 2^31-1 elements;
 *   each staged matrix at most max_alloc_bytes.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or B is NULL, or A with alpha != 0.
 * @retval GEMMKIT_ERROR_INVALID_LAYOUT, GEMMKIT_ERROR_INVALID_TRANSPOSE
 * @retval GEMMKIT_ERROR_INVALID_SIZE  rows or cols negative.
 * @retval GEMMKIT_ERROR_INVALID_LEADING_DIM  lda or ldb too small.
 * @retval GEMMKIT_ERROR_SIZE_OVERFLOW  beyond the 32-bit limits.
 * @retval GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY, GEMMKIT_ERROR_OUT_OF_HOST_MEMORY
 * @retval GEMMKIT_ERROR_BUILD_FAILED, GEMMKIT_ERROR_BACKEND_FAILURE
 */
GEMMKIT_API gemmkit_status gemmkit_somatcopy(gemmkit_context *ctx, gemmkit_layout layout,
                                             gemmkit_transpose trans, int64_t rows, int64_t cols,
                                             float alpha, const float *a, int64_t lda, float *b,
                                             int64_t ldb);

/**
 * @brief gemmkit_somatcopy() on device buffers, with element offsets.
 * @param options  a transpose (trans T/C) or copy (trans N) kernel by name,
 *   parameters and timings; NULL: the library's choice.
 * @par Blocks
 *   until the device has finished the call.
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   those of gemmkit_somatcopy(), offset + span of each matrix within its
 *   buffer and at most 2^31-1 elements.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  A and B overlap in one buffer, or
 *   a buffer belongs to another context.
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  offset + span exceeds a buffer.
 * @retval GEMMKIT_ERROR_UNKNOWN_KERNEL  options->kernel is not a kernel for
 *   this operation (a transpose for T/C, a copy for N).
 * @retval GEMMKIT_ERROR_INVALID_KERNEL_PARAMS, GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE
 * @retval others  as gemmkit_somatcopy().
 */
GEMMKIT_API gemmkit_status gemmkit_somatcopy_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout,
    gemmkit_transpose trans, int64_t rows, int64_t cols, float alpha, const gemmkit_buffer *a,
    size_t offset_a, int64_t lda, gemmkit_buffer *b, size_t offset_b, int64_t ldb);

/**
 * @brief Strided batched SGEMM on host arrays: for z = 0 .. batch_count-1,
 * C_z := alpha * op(A_z) * op(B_z) + beta * C_z, with X_z = X + z * stride_x
 * (strides in floats).
 *
 * One m, n, k, layout, pair of transposes, alpha, beta and set of leading
 * dimensions for the whole batch, as cuBLAS's cublasSgemmStridedBatched. A
 * stride of 0 broadcasts A or B (every product reads the same matrix); C's
 * stride must be at least C's extent (the C matrices may not overlap;
 * elements between them are never written). Each operand's batch is staged
 * and C read back as in gemmkit_sgemm_ex(): on failure C is untouched.
 * batch_count == 0 checks the arguments and returns. Small matrices run
 * several per work-group, medium ones one per work-group column of the grid's
 * third dimension, large ones one plain SGEMM each (docs/ARCHITECTURE.md,
 * "Batched SGEMM"); host arrays always go to the device (no CPU BLAS route).
 * @param options  kernel (a batched kernel, or an SGEMM kernel run once per
 *   matrix), parameters and timings (summed over the batch's launches).
 * @par Blocks
 *   until every C_z holds its result.
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   those of gemmkit_sgemm_ex() for each matrix; each operand's whole batch
 *   (span (batch_count - 1) * stride + extent) at most max_alloc_bytes.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  a negative stride, or stride_c
 *   below C's extent while more than one C is written (checked after
 *   gemmkit_sgemm_ex()'s checks, then the batch count).
 * @retval GEMMKIT_ERROR_INVALID_SIZE  m, n, k or batch_count negative.
 * @retval GEMMKIT_ERROR_UNKNOWN_KERNEL  options->kernel is neither a batched
 *   nor an SGEMM kernel.
 * @retval others  as gemmkit_sgemm_ex().
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_strided_batched(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout, gemmkit_transpose trans_a,
    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
    int64_t stride_a, const float *b, int64_t ldb, int64_t stride_b, float beta, float *c, int64_t ldc,
    int64_t stride_c, int64_t batch_count);

/**
 * @brief gemmkit_sgemm_strided_batched() on device buffers: matrix z of
 * each operand at offset_x + z * stride_x in its buffer.
 *
 * Nothing is copied to or from the host. A and B may be NULL when not read
 * (alpha == 0 or k == 0). C must not overlap A or B (not checked).
 * @par Blocks
 *   until the device has finished the call.
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   those of gemmkit_sgemm_buffers() for matrix 0; the whole batch within
 *   each buffer; the first matrix of every launch (65535 matrices per launch
 *   for kernels with the batch on the grid's third dimension, 1 for plain
 *   plans per matrix) below 2^31 floats in its buffer.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  a buffer does not hold its batch.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  as gemmkit_sgemm_strided_batched(),
 *   or a buffer of another context.
 * @retval others  as gemmkit_sgemm_strided_batched().
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_strided_batched_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout, gemmkit_transpose trans_a,
    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, const gemmkit_buffer *a,
    size_t offset_a, int64_t lda, int64_t stride_a, const gemmkit_buffer *b, size_t offset_b, int64_t ldb,
    int64_t stride_b, float beta, gemmkit_buffer *c, size_t offset_c, int64_t ldc, int64_t stride_c,
    int64_t batch_count);

/**
 * @brief Batched SGEMM with an offset, alpha and beta per matrix (CLBlast's
 * CLBlastSgemmBatched): C_z := alphas[z] * op(A_z) * op(B_z) + betas[z] * C_z
 * with X_z at offsets_x[z] in buffer X, one shape and leading dimensions.
 *
 * The arrays are host memory of batch_count entries each. Every matrix is
 * checked before anything runs; then each runs as one gemmkit_sgemm_buffers()
 * plan, all in one lock and one wait for the device. For many small
 * matrices use the strided form, which runs them in one launch.
 * @param options  an SGEMM kernel, parameters and timings (summed).
 * @par Blocks
 *   until the device has finished the call.
 * @par Threads
 *   holds the context's mutex for the whole call.
 * @par Limits
 *   those of gemmkit_sgemm_buffers() for each matrix.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx, or (batch_count > 0) alphas,
 *   betas or an offsets array is NULL; a buffer that is used is NULL.
 * @retval GEMMKIT_ERROR_INVALID_SIZE  m, n, k or batch_count negative.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  two written C matrices overlap
 *   (their spans offset .. offset + extent), or a buffer of another context.
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  a matrix does not fit its buffer.
 * @retval others  as gemmkit_sgemm_buffers().
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_batched_buffers(
    gemmkit_context *ctx, const gemmkit_options *options, gemmkit_layout layout, gemmkit_transpose trans_a,
    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, const float *alphas, const gemmkit_buffer *a,
    const size_t *offsets_a, int64_t lda, const gemmkit_buffer *b, const size_t *offsets_b, int64_t ldb,
    const float *betas, gemmkit_buffer *c, const size_t *offsets_c, int64_t ldc, int64_t batch_count);

/**
 * @brief Reference SGEMM on the host (plain loops, double accumulation),
 * with the semantics and argument checks of gemmkit_sgemm(). The yardstick
 * of the tests, `gemmkit verify` and the benchmark: O(m n k) and slow on
 * purpose.
 * @par Blocks
 *   the calling thread computes the whole product.
 * @par Threads
 *   safe from any thread; needs no context.
 * @par Limits
 *   those of gemmkit_sgemm() (the same checks).
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  C is NULL while written, A or B while read.
 * @retval GEMMKIT_ERROR_INVALID_LAYOUT, GEMMKIT_ERROR_INVALID_TRANSPOSE,
 *   GEMMKIT_ERROR_INVALID_SIZE, GEMMKIT_ERROR_INVALID_LEADING_DIM,
 *   GEMMKIT_ERROR_SIZE_OVERFLOW  as gemmkit_sgemm().
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_reference(gemmkit_layout layout, gemmkit_transpose trans_a,
                                                   gemmkit_transpose trans_b, int64_t m, int64_t n,
                                                   int64_t k, float alpha, const float *a,
                                                   int64_t lda, const float *b, int64_t ldb,
                                                   float beta, float *c, int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif /* GEMMKIT_H */
