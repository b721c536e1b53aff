/* gemmkit as a program calls it: gemmkit_sgemm_ex on host arrays with the
 * library's choice. On a CPU device the library routes such calls to the
 * CPU BLAS (policy.tsv's `route` rows, src/core/route_gemm.c), which is what
 * a user gets; the "best" runner on device buffers measures the device's
 * kernels instead. Its timings are the library's: the CPU BLAS call's wall
 * time when routed, else the device times (host copies only in host ms). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "route_gemm.h"

typedef struct host_call_state {
    gk_host_slots mem; /* first: gk_runner_use_host_memory's slots */
    gemmkit_context *ctx;
} host_call_state;

/* The case as the library sees it (column-major, its transposes), with placeholder pointers: the decisions below
 * read the shape and orientation only. */
static int case_problem(const gk_sgemm_case *c, gk_sgemm_problem *p)
{
    static float probe;
    const gk_gemm_call call = {c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, c->beta,
                               &probe, &probe, &probe, 0, 0, 0, c->lda, c->ldb, c->ldc};
    return gk_sgemm_prepare(&call, p) == GEMMKIT_SUCCESS;
}

int gk_bench_case_problem(gemmkit_context *ctx, const gk_sgemm_case *c, gk_sgemm_problem *p)
{
    if (!case_problem(c, p)) return 0;
    p->math = (gk_math)atomic_load(&ctx->math); /* as gk_sgemm_math gives a call with no mode of its own */
    return 1;
}

const char *gk_host_call_route(gemmkit_context *ctx, const gk_sgemm_case *c)
{
    gk_sgemm_problem p;
    if (!case_problem(c, &p)) return NULL;
    return gk_sgemm_route_host(NULL, &p, gk_sgemm_route_choice(ctx, &p)) ? "host-blas" : NULL;
}

const char *gk_case_default_kernel(gemmkit_context *ctx, const gk_sgemm_case *c)
{
    gk_sgemm_problem p;
    if (!gk_bench_case_problem(ctx, c, &p)) return NULL;
    const gk_sgemm_choice choice = gk_sgemm_default_kernel_for(ctx, &p);
    return choice.def ? choice.def->name : NULL;
}

static int h_run(gk_runner *r, const gk_routine *routine, const gk_case *kase, const int *slots,
                 gk_bench_timing *t, char *err)
{
    const host_call_state *st = r->state;
    if (routine != &gk_routine_gemm) {
        snprintf(err, GK_BENCH_ERR, "%s runs SGEMM only, not %s", r->name, routine->name);
        return -1;
    }
    float *a = gk_host_slot(r, slots[0], NULL, err), *b = a ? gk_host_slot(r, slots[1], NULL, err) : NULL;
    float *c = b ? gk_host_slot(r, slots[2], NULL, err) : NULL;
    if (!c) return -1;
    const gk_sgemm_case *g = &kase->gemm;
    gemmkit_options options = {.kernel_ms = t->wall_only ? NULL : &t->kernel_ms,
                               .total_ms = t->wall_only ? NULL : &t->total_ms};
    gemmkit_status status = gemmkit_sgemm_ex(st->ctx, &options, g->layout, g->trans_a, g->trans_b, g->m, g->n, g->k,
                                             g->alpha, a, g->lda, b, g->ldb, g->beta, c, g->ldc);
    if (status == GEMMKIT_SUCCESS) return 0;
    snprintf(err, GK_BENCH_ERR, "%s: %s", gemmkit_strerror(status), gemmkit_last_error_message());
    return -1;
}

static void h_destroy(gk_runner *r)
{
    if (!r) return;
    r->release(r);
    free(r->state);
    free(r);
}

gk_runner *gk_runner_gemmkit_host(gemmkit_context *ctx)
{
    gk_runner *r = calloc(1, sizeof *r);
    host_call_state *st = calloc(1, sizeof *st);
    if (!r || !st) {
        free(r);
        free(st);
        return NULL;
    }
    st->ctx = ctx;
    snprintf(r->name, sizeof r->name, "best-host");
    snprintf(r->label, sizeof r->label,
             "gemmkit_sgemm on host arrays, the library's choice (a CPU device routes it to the CPU BLAS: "
             "best-host:host-blas, its wall time per call)");
    snprintf(r->kind, sizeof r->kind, "gemmkit");
    r->state = st;
    gk_runner_use_host_memory(r);
    r->run = h_run;
    r->destroy = h_destroy;
    return r;
}
