/* Where a host-array SGEMM runs, decided before anything is staged: the
 * policy's `route` rows (policy.tsv) may send a call that names no kernel to
 * the host's optimised CPU BLAS (host_blas.h) instead of the device, which on
 * a CPU device (PoCL) is the same processor doing worse. Device buffers,
 * named kernels, explicit parameters and options->device_only always run on
 * the device. */
#include "route_gemm.h"

#include <string.h>
#include <time.h>

#include "context.h"
#include "multi_gemm.h"
#include "status.h"

typedef struct route_shape {
    const gk_sgemm_problem *p;
    int64_t compute_units;
} route_shape;

static int route_variables(const gk_policy_rule *rule, int64_t *values, void *data)
{
    (void)rule;
    const route_shape *s = data;
    values[GK_GEMM_M] = s->p->m;
    values[GK_GEMM_N] = s->p->n;
    values[GK_GEMM_K] = s->p->k;
    values[GK_GEMM_WORK] = gk_policy_product(s->p->m, s->p->n, s->p->k);
    values[GK_GEMM_CUS] = s->compute_units;
    return 1;
}

gk_policy_route gk_sgemm_route_choice(const gemmkit_context *ctx, const gk_sgemm_problem *p)
{
    const gk_policy *policy = gk_policy_builtin();
    /* The rows of a device class may not depend on the shape at all (CPUs: "1"): their choice, found at load. */
    int fixed = 0;
    const gk_policy_rule *rule = gk_policy_fixed(policy, GK_ROUTINE_GEMM, GK_STEP_ROUTE, ctx->info.is_gpu, &fixed);
    if (!fixed) {
        const route_shape shape = {p, ctx->info.compute_units};
        rule = gk_policy_first(policy, GK_ROUTINE_GEMM, GK_STEP_ROUTE, ctx->info.is_gpu, route_variables,
                               (void *)&shape);
    }
    return rule ? rule->route : GK_ROUTE_DEVICE;
}

const gk_host_blas *gk_sgemm_route_host(const gemmkit_options *options, const gk_sgemm_problem *p,
                                        gk_policy_route route)
{
    if (options && (options->kernel || options->params || options->device_only)) return NULL;
    /* C = beta C alone stays on the device path: some BLAS read A and B
     * even when alpha == 0 (drop-in, dropin_engine.c). */
    if (!gk_sgemm_reads_ab(p)) return NULL;
    if (route != GK_ROUTE_HOST_BLAS) return NULL;
    const gk_host_blas *blas = gk_host_blas_find();
    return blas && blas->optimised ? blas : NULL;
}

int gk_sgemm_route_tiled(const gemmkit_context *ctx, const gk_sgemm_problem *p, gk_policy_route route)
{
    if (ctx->device_count > 1) return 1;
    const int reads = gk_sgemm_reads_ab(p);
    const int64_t ea = reads ? gk_extent(gk_stored_rows(p->trans_a, p->m, p->k), p->trans_a ? p->m : p->k, p->a.ld) : 0;
    const int64_t eb = reads ? gk_extent(gk_stored_rows(p->trans_b, p->k, p->n), p->trans_b ? p->k : p->n, p->b.ld) : 0;
    const int64_t ec = gk_extent(p->m, p->n, p->c.ld);
    if (ea > INT32_MAX || eb > INT32_MAX || ec > INT32_MAX || (double)p->m * (double)p->n > (double)INT32_MAX) return 1;
    const int64_t largest = (ea > eb ? (ea > ec ? ea : ec) : (eb > ec ? eb : ec)) * (int64_t)sizeof(float);
    if (ctx->info.max_alloc_bytes && largest > (int64_t)ctx->info.max_alloc_bytes) return 1;
    const int64_t budget = gk_tiled_budget(ctx);
    if (budget > 0 && 2 * (ea + eb + ec) * (int64_t)sizeof(float) > budget) return 1;
    /* Calls large enough for the tiler's overlap of copies and compute to pay (the policy's "tiled" rows). */
    return route == GK_ROUTE_TILED;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

gemmkit_status gk_sgemm_run_host(const gk_host_blas *blas, const gemmkit_options *options, const gk_sgemm_problem *p)
{
    /* The clock only when the caller reads the time (options' timings; nothing else records host calls). */
    const int timed = options && (options->kernel_ms || options->total_ms);
    const double start = timed ? now_ms() : 0.0;
    if (gk_host_blas_sgemm(blas, p->trans_a, p->trans_b, p->m, p->n, p->k, p->alpha, p->source_a, p->a.ld,
                           p->source_b, p->b.ld, p->beta, p->source_c, p->c.ld) != 0)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "the CPU BLAS %s takes no 64-bit sizes", blas->name);
    if (!timed) return GEMMKIT_SUCCESS;
    /* Its "device" is the host: the call's wall time is both timings. */
    const double ms = now_ms() - start;
    if (options->kernel_ms) *options->kernel_ms = ms;
    if (options->total_ms) *options->total_ms = ms;
    return GEMMKIT_SUCCESS;
}
