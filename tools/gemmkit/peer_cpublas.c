/* The CPU BLAS peer: the host's CPU BLAS (the one the library routes CPU
 * work to, found by src/core/host_blas.c) timed on host arrays, the same
 * inputs gemmkit gets. There is no device time: each call's wall-clock time
 * is both its kernel and its call time, and the label says so. */
#include <stdlib.h>
#include <string.h>

#include "host_blas.h"
#include "peer.h"

typedef struct cpublas_state {
    gk_host_slots mem; /* first: gk_runner_use_host_memory's slots */
    const gk_host_blas *blas;
} cpublas_state;

/* One column-major sgemm_ call for a case in either layout: row-major C is
 * column-major C^T = op(B)^T op(A)^T, so A and B swap. 0, or -1 with err. */
static int blas_sgemm(const gk_host_blas *blas, const gk_sgemm_case *c, const float *a, const float *b, float *out,
                      char *err)
{
    const int ta = c->trans_a != GEMMKIT_NO_TRANS, tb = c->trans_b != GEMMKIT_NO_TRANS;
    const int rc = c->layout == GEMMKIT_ROW_MAJOR
                       ? gk_host_blas_sgemm(blas, tb, ta, c->n, c->m, c->k, c->alpha, b, c->ldb, a, c->lda, c->beta,
                                            out, c->ldc)
                       : gk_host_blas_sgemm(blas, ta, tb, c->m, c->n, c->k, c->alpha, a, c->lda, b, c->ldb, c->beta,
                                            out, c->ldc);
    if (rc) snprintf(err, GK_BENCH_ERR, "the CPU BLAS takes no 64-bit sizes (no sgemm_64_)");
    return rc;
}

/* The operands' host arrays; 0, or -1 with err. */
static int operands(gk_runner *r, int a, int b, int c, float **pa, float **pb, float **pc, char *err)
{
    return (*pa = gk_host_slot(r, a, NULL, err)) && (*pb = gk_host_slot(r, b, NULL, err)) &&
                   (*pc = gk_host_slot(r, c, NULL, err))
               ? 0
               : -1;
}

static int p_sgemm(gk_runner *r, const gk_sgemm_case *c, int a, int b, int slot_c, gk_bench_timing *t, char *err)
{
    const cpublas_state *st = r->state;
    float *pa, *pb, *pc;
    if (operands(r, a, b, slot_c, &pa, &pb, &pc, err)) return -1;
    const double start = gk_bench_now_ms();
    if (blas_sgemm(st->blas, c, pa, pb, pc, err)) return -1;
    t->kernel_ms = t->total_ms = gk_bench_now_ms() - start;
    return 0;
}

/* A BLAS has no strided batched SGEMM in its Fortran interface: one sgemm_ per matrix, timed together. */
static int p_sgemm_batched(gk_runner *r, const gk_batched_case *bc, int a, int b, int slot_c, gk_bench_timing *t,
                           char *err)
{
    const cpublas_state *st = r->state;
    float *pa, *pb, *pc;
    if (operands(r, a, b, slot_c, &pa, &pb, &pc, err)) return -1;
    const double start = gk_bench_now_ms();
    for (int64_t i = 0; i < bc->batch; i++)
        if (blas_sgemm(st->blas, &bc->one, pa + i * bc->stride_a, pb + i * bc->stride_b, pc + i * bc->stride_c, err))
            return -1;
    t->kernel_ms = t->total_ms = gk_bench_now_ms() - start;
    return 0;
}

static void p_destroy(gk_runner *r)
{
    if (!r) return;
    r->release(r);
    free(r->state);
    free(r);
}

int gk_peer_cpublas_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners, int max,
                         gk_bench_peer_info *info)
{
    (void)ctx, (void)device;
    snprintf(info->name, sizeof info->name, "cpublas");
    snprintf(info->label, sizeof info->label, "CPU BLAS");
    if (max < 1) {
        snprintf(info->detail, sizeof info->detail, "no room for another runner");
        return 0;
    }
    const gk_host_blas *blas = gk_host_blas_find();
    if (!blas) {
        const char *named = getenv("GEMMKIT_CPU_BLAS_LIB");
        if (named && strcmp(named, "builtin") == 0)
            snprintf(info->detail, sizeof info->detail,
                     "GEMMKIT_CPU_BLAS_LIB=builtin: no CPU BLAS (the library's CPU work runs gemmkit's own loop)");
        else
            snprintf(info->detail, sizeof info->detail,
                     "no CPU BLAS found (the program's sgemm_, libopenblas.so.0, libblis.so.4, an optimised "
                     "libblas.so.3; set GEMMKIT_CPU_BLAS_LIB)");
        return 0;
    }
    gk_runner *r = calloc(1, sizeof *r);
    cpublas_state *st = calloc(1, sizeof *st);
    if (!r || !st) {
        free(r);
        free(st);
        snprintf(info->detail, sizeof info->detail, "out of host memory");
        return 0;
    }
    st->blas = blas;
    snprintf(r->name, sizeof r->name, "cpublas");
    snprintf(r->label, sizeof r->label, "CPU BLAS sgemm_ on host arrays, wall-clock time per call (no device time): %.170s",
             blas->name);
    snprintf(r->kind, sizeof r->kind, "peer");
    r->wall_clock = 1;
    r->state = st;
    gk_runner_use_host_memory(r);
    r->run = gk_peer_run;
    r->sgemm = p_sgemm;
    r->sgemm_batched = p_sgemm_batched;
    r->destroy = p_destroy;
    runners[0] = r;
    info->found = 1;
    snprintf(info->detail, sizeof info->detail, "%.200s; sgemm_ on host arrays, timed by the wall clock", blas->name);
    return 1;
}
