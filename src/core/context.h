/* The context: one opened device, its backend table, the cache of compiled
 * programs and reusable scratch buffers. Public calls lock it, so one context
 * may be shared between threads (calls on it run one at a time). */
#ifndef GK_CONTEXT_H
#define GK_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>

#include "backend.h"
#include "kernel_config.h"
#include "tuning.h"

/* A built program, keyed by its source file and defines (hash first: a launch formats no text). */
typedef struct gk_program_entry {
    uint64_t hash;
    char *source_file;
    unsigned define_count;
    gk_define defines[GK_MAX_DEFINES]; /* names copied */
    gk_program *program;
    struct gk_program_entry *next;
} gk_program_entry;

/* Scratch slots: padded operands, host-array staging, int8x's spread of its operands (plan_ozaki.c). */
enum {
    GK_SCRATCH_A,
    GK_SCRATCH_B,
    GK_SCRATCH_C,
    GK_SCRATCH_HOST_A,
    GK_SCRATCH_HOST_B,
    GK_SCRATCH_HOST_C,
    GK_SCRATCH_SPREAD,
    GK_SCRATCH_COUNT
};

/* The caller's workspace (gemmkit_cuda_set_workspace): while a call on the caller's stream runs (`active`), the
 * plans' scratch is cut from it, each plan's pieces one after another from its start (a plan's steps all run
 * before the next plan's on the one stream, so each plan starts again at 0), never allocated. A dry run
 * (`dry`) plans without launching and only counts the bytes: the size query, and the check that a workspace
 * holds a call before any of it is enqueued. workspace.c. */
#define GK_WORKSPACE_ALIGN 256 /* each piece's start in bytes: cuMemAlloc's alignment */
typedef struct gk_workspace {
    uint64_t address; /* 0: none set (scratch is allocated and cached, gk_context_scratch) */
    size_t bytes;
    int active, dry;
    size_t used, peak; /* bytes the current plan has taken; the most any plan of the call took */
    gk_mem *views[GK_SCRATCH_COUNT]; /* the pieces handed out (backend wrap_address), kept while their place holds */
    size_t view_at[GK_SCRATCH_COUNT], view_bytes[GK_SCRATCH_COUNT];
    int given[GK_SCRATCH_COUNT]; /* slot handed out in the current plan (at view_at, view_bytes long) */
} gk_workspace;

struct gemmkit_context {
    const gk_backend_ops *ops;
    gk_device *device;
    gemmkit_device_info info;
    pthread_mutex_t lock;
    gk_program_entry *programs;
    gk_mem *scratch[GK_SCRATCH_COUNT];
    size_t scratch_bytes[GK_SCRATCH_COUNT];
    /* Split-K's tile counters (GK_TILE_COUNTS ints, gk_split_sums_in_kernel): zeroed once when allocated, left at
     * zero by every kernel that counts on them; NULL until a call needs them. */
    gk_mem *tile_counts;
    char arch[32];       /* "sm_90", or "" when the backend cannot tell (tuning.h) */
    int fp64;            /* the device computes in fp64 (kernels may use double): the int8x mode's test */
    gk_tuning_set tuned; /* per-device parameter choices, resolved at creation */
    struct gk_decision_cache *decisions;   /* the SGEMM choices made so far (dispatch.c); NULL: none kept (no memory) */
    gk_config helpers[GK_HELPER_COUNT]; /* the helper kernels with their defaults, resolved at creation */
    atomic_int math; /* the default gk_math of SGEMM calls (GEMMKIT_MATH, gemmkit_context_set_math) */
    int device_index; /* the backend's index of the device */
    /* A context over several devices (a list or "all" as selector): devices[0] is
     * this context, the others ordinary one-device contexts; count 1 and NULL otherwise.
     * Everything but host-array SGEMM runs on devices[0] (context_devices.c). */
    int device_count;
    gemmkit_context **devices;
    /* The tiler's second lane per device (multi_gemm.c): its own context (queue,
     * stream, scratch) on the same device, so that one lane's copies overlap the
     * other's kernels; created by the first tiled call that needs it. */
    gemmkit_context **lanes;
    /* Device memory a tiled call may use on each device (bytes; 0: a default
     * share of the device's memory): GEMMKIT_DEVICE_MEMORY_LIMIT,
     * gemmkit_context_set_memory_limit. */
    atomic_size_t memory_limit;
    int64_t tile_size; /* the largest tile side of tiled calls (GEMMKIT_TILE_SIZE); 0: the default */
    /* GEMMKIT_TRACE set (not empty or 0): each launched step of a plan is timed and printed on stderr
     * (gk_plan_execute), to see where a call's time goes. */
    int trace;
    gk_workspace workspace; /* calls on the caller's stream (cuda_api.c) */
    /* 1 while a call is enqueued on the caller's queue or stream, or counted by a dry run (cl_api.c, cuda_api.c):
     * the call returns before its work runs, so nothing in it may wait for the device. */
    int on_caller_queue;
};

struct gemmkit_buffer {
    gemmkit_context *ctx;
    gk_mem *mem;
    size_t count; /* floats; SIZE_MAX when unknown (wrapped cl_mem of unknown size) */
};

/* "opencl" or "cuda", any case (GEMMKIT_BACKEND, --backend); 0 when `name` is neither. */
int gk_backend_parse(const char *name, gemmkit_backend *backend);

/* The gk_context_* helpers below touch the context's caches: call them with
 * ctx->lock held (every public entry point takes it). */

/* A compiled program of a source file with these defines, from the cache or built now. */
gemmkit_status gk_context_program(gemmkit_context *ctx, const char *source_file, const gk_define *defines,
                                  unsigned define_count, gk_program **program);

/* Resolves a kernel's parameters: the caller's when given, else the ones
 * tuned for this device (resolved when the context was created), else the
 * registry defaults. */
gemmkit_status gk_context_resolve(const gemmkit_context *ctx, const gk_kernel_def *def, const char *params,
                                  gk_config *config);

/* The split-K tile counters (zeroed on first use, kept with the context). */
gemmkit_status gk_context_tile_counts(gemmkit_context *ctx, gk_mem **mem);

/* A scratch buffer of at least `bytes`, reused across calls. */
gemmkit_status gk_context_scratch(gemmkit_context *ctx, int slot, size_t bytes, gk_mem **mem);

/* The workspace (workspace.c): a call on the caller's stream begins (dry: count only) and ends; a plan's
 * scratch freed for the next plan of the call once the plan is enqueued (gk_plan_execute); the pieces' records
 * released with the context or a new workspace. */
void gk_workspace_begin(gemmkit_context *ctx, int dry);
void gk_workspace_end(gemmkit_context *ctx);
void gk_workspace_plan_done(gemmkit_context *ctx);
void gk_workspace_release(gemmkit_context *ctx);
/* Scratch of a call inside gk_workspace_begin .. _end: cut from the caller's workspace, or counted (dry); 0 when
 * the context's own cache serves it (no workspace set). */
int gk_workspace_serves(const gemmkit_context *ctx);
gemmkit_status gk_workspace_scratch(gemmkit_context *ctx, int slot, size_t bytes, gk_mem **mem);

/* Allocates device memory after checking it against the device's limits. */
gemmkit_status gk_context_alloc(gemmkit_context *ctx, size_t bytes, gk_mem **mem);

/* Opens one device as an ordinary context (context.c); quiet: no warnings on stderr. */
gemmkit_status gk_context_open(const gk_backend_ops *ops, int index, int quiet, gemmkit_context **out);
/* A context on device `index` of the backend, opened already (`device`, which the context takes over, closed on
 * failure too): a device on the caller's own driver context (gemmkit_context_create_cl). */
gemmkit_status gk_context_open_device(const gk_backend_ops *ops, int index, gk_device *device, gemmkit_context **out);
/* A quiet context on the same device as `of` whose work overlaps of's: a
 * second queue on of's driver context where the backend has open_queue, else
 * the device opened again. Freed like any context; destroy it before `of`. */
gemmkit_status gk_context_open_queue(const gemmkit_context *of, gemmkit_context **out);
/* Frees a context made by gk_context_open: its caches and its device. */
void gk_context_close(gemmkit_context *ctx);

/* The devices a selector names (context_devices.c): NULL or "" reads
 * GEMMKIT_DEVICE; one selector, a comma-separated list of them, or "all". */
#define GK_MAX_DEVICES 64
gemmkit_status gk_select_devices(const gk_backend_ops *ops, const char *selector, int indices[GK_MAX_DEVICES],
                                 int *count);
/* Opens devices 1.. of a several-device context and reads the tiling
 * variables (GEMMKIT_DEVICE_MEMORY_LIMIT, GEMMKIT_TILE_SIZE). */
gemmkit_status gk_context_add_devices(gemmkit_context *ctx, const int *indices, int count);
/* Frees the other devices and the lanes. */
void gk_context_close_devices(gemmkit_context *ctx);
/* Device d of the context (0: the context itself). */
gemmkit_context *gk_context_device(gemmkit_context *ctx, int d);
/* The second lane of device d, opened on first use (ctx locked). */
gemmkit_status gk_context_lane(gemmkit_context *ctx, int d, gemmkit_context **lane);
/* Releases scratch buffers larger than `bytes` (a tiled call's budget). */
void gk_context_trim_scratch(gemmkit_context *ctx, size_t bytes);

/* Test hooks, hidden: the tests link the static library; libgemmkit.so does
 * not export them. When set, every kernel build gets this extra text
 * appended to its source (used to inject a build failure). */
void gemmkit_test_inject_build_error(const char *extra_source);

/* Test hook: after `after` more successful device allocations (any context),
 * the next one fails with GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY, once; a
 * negative value disarms it. */
void gemmkit_test_inject_alloc_failure(int after);

#endif
