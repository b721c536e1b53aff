/* Context life cycle, device selection and the per-context caches. */
#include "context.h"
#include "decision_cache.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "math_mode.h"
#include "policy.h"
#include "status.h"

/* Test-only failure injection (context.h). Atomic: tests set them while
 * other threads may be inside the library. */
static _Atomic(const char *) injected_build_error;
static atomic_int alloc_failure_countdown = -1; /* < 0: off */

void gemmkit_test_inject_build_error(const char *extra_source) { atomic_store(&injected_build_error, extra_source); }

void gemmkit_test_inject_alloc_failure(int after) { atomic_store(&alloc_failure_countdown, after < 0 ? -1 : after); }

/* True when the test hook says this allocation must fail (then disarms it). */
static int injected_alloc_failure(void)
{
    int left = atomic_load(&alloc_failure_countdown);
    while (left >= 0 && !atomic_compare_exchange_weak(&alloc_failure_countdown, &left, left - 1)) {
    }
    return left == 0;
}

int gk_backend_parse(const char *name, gemmkit_backend *backend)
{
    if (strcasecmp(name, "opencl") == 0) *backend = GEMMKIT_BACKEND_OPENCL;
    else if (strcasecmp(name, "cuda") == 0) *backend = GEMMKIT_BACKEND_CUDA;
    else return 0;
    return 1;
}

static gemmkit_status backend_ops(gemmkit_backend backend, const gk_backend_ops **ops)
{
    if (backend == GEMMKIT_BACKEND_DEFAULT) {
        const char *env = getenv("GEMMKIT_BACKEND");
        backend = GEMMKIT_BACKEND_OPENCL;
        if (env && *env && !gk_backend_parse(env, &backend))
            return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND,
                           "GEMMKIT_BACKEND=\"%s\": expected \"opencl\" or \"cuda\"", env);
    }
    switch (backend) {
    case GEMMKIT_BACKEND_OPENCL: *ops = gk_backend_opencl(); break;
    case GEMMKIT_BACKEND_CUDA: *ops = gk_backend_cuda(); break;
    default: return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "unknown backend %d", (int)backend);
    }
    if (!*ops)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "the %s backend is not built into this gemmkit",
                       backend == GEMMKIT_BACKEND_CUDA ? "CUDA" : "OpenCL");
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_device_count(gemmkit_backend backend, int *count)
{
    if (!count) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "count is NULL");
    const gk_backend_ops *ops = NULL;
    GK_TRY(backend_ops(backend, &ops));
    gk_math math;
    GK_TRY(gk_math_from_env(&math));
    return ops->device_count(count);
}

gemmkit_status gemmkit_device_get_info(gemmkit_backend backend, int index, gemmkit_device_info *info)
{
    if (!info) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "info is NULL");
    const gk_backend_ops *ops = NULL;
    GK_TRY(backend_ops(backend, &ops));
    gk_math math;
    GK_TRY(gk_math_from_env(&math));
    return ops->device_info(index, info);
}

/* A context on device `index`: the device opened anew, or (sibling) a second
 * queue on that already open device's driver context (ops->open_queue). */
static gemmkit_status open_context(const gk_backend_ops *ops, int index, gk_device *sibling, gk_device *opened,
                                   int quiet, gemmkit_context **out)
{
    gk_math math;
    GK_TRY(gk_math_from_env(&math));
    gemmkit_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a context");
    ctx->ops = ops;
    ctx->device_index = index;
    ctx->device_count = 1;
    atomic_init(&ctx->math, (int)math);
    atomic_init(&ctx->memory_limit, 0);
    const char *trace = getenv("GEMMKIT_TRACE");
    ctx->trace = trace && *trace && strcmp(trace, "0") != 0;
    gemmkit_status status = ops->device_info(index, &ctx->info);
    if (status == GEMMKIT_SUCCESS)
        status = opened    ? (ctx->device = opened, GEMMKIT_SUCCESS)
                 : sibling ? ops->open_queue(sibling, &ctx->device)
                           : ops->open(index, &ctx->device);
    if (status != GEMMKIT_SUCCESS) {
        if (opened) ops->close(opened);
        free(ctx);
        return status;
    }
    if (ops->device_arch) ops->device_arch(index, ctx->arch, sizeof ctx->arch);
    ctx->fp64 = ops->device_fp64 ? ops->device_fp64(index) : 1;
    gk_tuning_load(&ctx->info, ctx->arch, &ctx->tuned);
    /* Rows of the built-in policy left out (a bug its test catches) are reported like bad database lines. */
    size_t used = strlen(ctx->tuned.warnings);
    snprintf(ctx->tuned.warnings + used, sizeof ctx->tuned.warnings - used, "%s", gk_policy_builtin()->warnings);
    for (int h = 0; h < GK_HELPER_COUNT && status == GEMMKIT_SUCCESS; h++)
        status = gk_config_resolve(gk_kernel_helper((gk_helper)h), gk_kernel_helper_params((gk_helper)h), &ctx->helpers[h]);
    if (status != GEMMKIT_SUCCESS) {
        ops->close(ctx->device);
        free(ctx);
        return status;
    }
    if (!quiet) gk_tuning_print_warnings(&ctx->tuned); /* once per context; gemmkit_context_warnings keeps them */
    ctx->decisions = gk_decision_cache_create(); /* NULL: every call chooses anew */
    pthread_mutex_init(&ctx->lock, NULL);
    *out = ctx;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_context_open(const gk_backend_ops *ops, int index, int quiet, gemmkit_context **out)
{
    return open_context(ops, index, NULL, NULL, quiet, out);
}

gemmkit_status gk_context_open_device(const gk_backend_ops *ops, int index, gk_device *device, gemmkit_context **out)
{
    return open_context(ops, index, NULL, device, 0, out);
}

gemmkit_status gk_context_open_queue(const gemmkit_context *of, gemmkit_context **out)
{
    return open_context(of->ops, of->device_index, of->ops->open_queue ? of->device : NULL, NULL, 1, out);
}

gemmkit_status gemmkit_context_create_ex(gemmkit_context **out, gemmkit_backend backend,
                                         const char *selector)
{
    if (!out) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    *out = NULL;
    const gk_backend_ops *ops = NULL;
    GK_TRY(backend_ops(backend, &ops));
    gk_math math;
    GK_TRY(gk_math_from_env(&math));
    int indices[GK_MAX_DEVICES], count = 0;
    GK_TRY(gk_select_devices(ops, selector, indices, &count));
    gemmkit_context *ctx = NULL;
    GK_TRY(gk_context_open(ops, indices[0], 0, &ctx));
    gemmkit_status status = gk_context_add_devices(ctx, indices, count);
    if (status != GEMMKIT_SUCCESS) {
        gemmkit_context_destroy(ctx);
        return status;
    }
    *out = ctx;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_create(gemmkit_context **ctx, const char *selector)
{
    return gemmkit_context_create_ex(ctx, GEMMKIT_BACKEND_DEFAULT, selector);
}

void gemmkit_context_destroy(gemmkit_context *ctx)
{
    if (!ctx) return;
    gk_context_close_devices(ctx);
    gk_context_close(ctx);
}

void gk_context_close(gemmkit_context *ctx)
{
    for (gk_program_entry *e = ctx->programs; e;) {
        gk_program_entry *next = e->next;
        ctx->ops->release_program(e->program);
        free(e->source_file);
        for (unsigned i = 0; i < e->define_count; i++) free((char *)e->defines[i].name);
        free(e);
        e = next;
    }
    for (int i = 0; i < GK_SCRATCH_COUNT; i++) ctx->ops->release(ctx->scratch[i]);
    ctx->ops->release(ctx->tile_counts);
    gk_workspace_release(ctx);
    ctx->ops->close(ctx->device);
    gk_decision_cache_destroy(ctx->decisions);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

gemmkit_status gemmkit_context_device_info(gemmkit_context *ctx, gemmkit_device_info *info)
{
    if (!ctx || !info) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx or info is NULL");
    *info = ctx->info;
    return GEMMKIT_SUCCESS;
}

const char *gemmkit_context_warnings(const gemmkit_context *ctx) { return ctx ? ctx->tuned.warnings : ""; }

int gemmkit_context_blas_threshold(const gemmkit_context *ctx, double *work, const char **source)
{
    int builtin = 0;
    if (!ctx || !work || !gk_tuning_blas_threshold(&ctx->tuned, work, &builtin)) return 0;
    if (source) *source = builtin ? "built-in" : "tuning database";
    return 1;
}

double gemmkit_blas_threshold_lowest(void) { return gk_tuning_blas_threshold_lowest(); }

/* FNV-1a over the source file's name and each define's name and value. */
static uint64_t program_hash(const char *source_file, const gk_define *defines, unsigned count)
{
    uint64_t h = 14695981039346656037u;
    for (const char *p = source_file; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211u;
    for (unsigned i = 0; i < count; i++) {
        for (const char *p = defines[i].name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211u;
        for (int b = 0; b < 64; b += 8) h = (h ^ (uint8_t)((uint64_t)defines[i].value >> b)) * 1099511628211u;
    }
    return h;
}

static int entry_matches(const gk_program_entry *e, uint64_t hash, const char *source_file, const gk_define *defines,
                         unsigned count)
{
    if (e->hash != hash || e->define_count != count || strcmp(e->source_file, source_file) != 0) return 0;
    for (unsigned i = 0; i < count; i++)
        if (e->defines[i].value != defines[i].value || strcmp(e->defines[i].name, defines[i].name) != 0) return 0;
    return 1;
}

/* A cache entry for a program just built (names copied: the caller's may not outlive the context). */
static gk_program_entry *new_entry(uint64_t hash, const char *source_file, const gk_define *defines, unsigned count,
                                   gk_program *built)
{
    gk_program_entry *entry = calloc(1, sizeof *entry);
    if (!entry) return NULL;
    entry->hash = hash;
    entry->program = built;
    entry->source_file = strdup(source_file);
    int ok = entry->source_file != NULL;
    for (unsigned i = 0; i < count && ok; i++) {
        entry->defines[i] = (gk_define){strdup(defines[i].name), defines[i].value};
        entry->define_count = i + 1;
        ok = entry->defines[i].name != NULL;
    }
    if (ok) return entry;
    free(entry->source_file);
    for (unsigned i = 0; i < entry->define_count; i++) free((char *)entry->defines[i].name);
    free(entry);
    return NULL;
}

gemmkit_status gk_context_program(gemmkit_context *ctx, const char *source_file, const gk_define *defines,
                                  unsigned define_count, gk_program **program)
{
    if (define_count > GK_MAX_DEFINES)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%u defines for %s: at most %d", define_count, source_file,
                       GK_MAX_DEFINES);
    const uint64_t hash = program_hash(source_file, defines, define_count);
    for (gk_program_entry *e = ctx->programs; e; e = e->next) {
        if (entry_matches(e, hash, source_file, defines, define_count)) {
            *program = e->program;
            return GEMMKIT_SUCCESS;
        }
    }
    const char *source = gk_kernel_source(source_file);
    if (!source) return gk_fail(GEMMKIT_ERROR_UNKNOWN_KERNEL, "no embedded kernel source \"%s\"", source_file);
    char *patched = NULL;
    const char *injected = atomic_load(&injected_build_error);
    if (injected) {
        size_t len = strlen(source) + strlen(injected) + 2;
        patched = malloc(len);
        if (!patched) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating kernel source");
        snprintf(patched, len, "%s\n%s", source, injected);
        source = patched;
    }
    char *log = NULL;
    gk_program *built = NULL;
    gemmkit_status status = ctx->ops->build(ctx->device, source, defines, define_count, &built, &log);
    free(patched);
    if (status != GEMMKIT_SUCCESS) {
        gk_set_build_log(log ? log : "");
        free(log);
        if (status == GEMMKIT_ERROR_BUILD_FAILED) {
            char options[1024];
            gk_defines_text(defines, define_count, options, sizeof options);
            return gk_fail(status, "building %s with \"%s\" failed; gemmkit_last_build_log() has the log",
                           source_file, options);
        }
        return status;
    }
    free(log);
    gk_program_entry *entry = new_entry(hash, source_file, defines, define_count, built);
    if (!entry) {
        ctx->ops->release_program(built);
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a cache entry");
    }
    entry->next = ctx->programs;
    ctx->programs = entry;
    *program = built;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_context_resolve(const gemmkit_context *ctx, const gk_kernel_def *def, const char *params,
                                  gk_config *config)
{
    return params ? gk_config_resolve(def, params, config) : gk_tuning_resolve(&ctx->tuned, def, config);
}

gemmkit_status gk_context_alloc(gemmkit_context *ctx, size_t bytes, gk_mem **mem)
{
    if (ctx->info.max_alloc_bytes && bytes > ctx->info.max_alloc_bytes)
        return gk_fail(GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY,
                       "%zu bytes requested; the device allows at most %zu in one buffer", bytes,
                       ctx->info.max_alloc_bytes);
    if (injected_alloc_failure())
        return gk_fail(GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY, "%zu bytes: device allocation failure injected by a test",
                       bytes);
    return ctx->ops->alloc(ctx->device, bytes, mem);
}

gemmkit_status gk_context_tile_counts(gemmkit_context *ctx, gk_mem **mem)
{
    if (!ctx->tile_counts) {
        const size_t bytes = GK_TILE_COUNTS * sizeof(int);
        int *zeros = calloc(GK_TILE_COUNTS, sizeof *zeros);
        if (!zeros) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "split-K's tile counters: %zu bytes", bytes);
        gk_mem *counts = NULL;
        gemmkit_status status = gk_context_alloc(ctx, bytes, &counts);
        if (status == GEMMKIT_SUCCESS) status = ctx->ops->write(ctx->device, counts, 0, bytes, zeros);
        free(zeros);
        if (status != GEMMKIT_SUCCESS) {
            ctx->ops->release(counts);
            return status;
        }
        ctx->tile_counts = counts;
    }
    *mem = ctx->tile_counts;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_context_scratch(gemmkit_context *ctx, int slot, size_t bytes, gk_mem **mem)
{
    if (gk_workspace_serves(ctx)) return gk_workspace_scratch(ctx, slot, bytes, mem);
    if (ctx->scratch[slot] && ctx->scratch_bytes[slot] >= bytes) {
        *mem = ctx->scratch[slot];
        return GEMMKIT_SUCCESS;
    }
    ctx->ops->release(ctx->scratch[slot]);
    ctx->scratch[slot] = NULL;
    ctx->scratch_bytes[slot] = 0;
    GK_TRY(gk_context_alloc(ctx, bytes, &ctx->scratch[slot]));
    ctx->scratch_bytes[slot] = bytes;
    *mem = ctx->scratch[slot];
    return GEMMKIT_SUCCESS;
}
