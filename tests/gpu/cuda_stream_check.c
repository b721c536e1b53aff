/* The CUDA-stream entry points (gemmkit_cuda.h) on a real GPU, in one command:
 *   build/tests/gpu/gemmkit_cuda_stream_check
 * - results against a float64 host reference: transposes, row-major, beta != 0, a long K (split-K), a large
 *   packed shape (2048^3, sampled entries);
 * - ordering on one stream: copies in before, copy out after, no wait between;
 * - a call captured in a CUDA graph with a workspace set, replayed on new inputs;
 * - two streams at once, a context and workspace each;
 * - the host time of enqueueing 1000 back-to-back 64^3 calls on one stream, per call, beside cuBLAS's
 *   cublasSgemm doing the same (when libcublas loads).
 * Prints PASS/FAIL lines and the timings; exits 1 on any failure, 77 without a CUDA device. */
#include <cuda.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmkit_cuda.h"

static int failures;

static void result(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok) failures++;
}

static int cu_ok(CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS) return 1;
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("FAIL: %s: %s\n", what, name ? name : "?");
    failures++;
    return 0;
}

static int gk_ok(gemmkit_status s, const char *what)
{
    if (s == GEMMKIT_SUCCESS) return 1;
    printf("FAIL: %s: %s\n", what, gemmkit_last_error_message());
    failures++;
    return 0;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One SGEMM case with its host data (pinned) and device copies. */
typedef struct gemm_case {
    const char *name;
    gemmkit_layout layout;
    gemmkit_transpose ta, tb;
    int64_t m, n, k;
    float alpha, beta;
    int64_t lda, ldb, ldc, a_elems, b_elems, c_elems;
    float *a, *b, *c0, *c;
    CUdeviceptr da, db, dc;
} gemm_case;

#define CASE(label, lay, a_t, b_t, m_, n_, k_, al, be)                                                          \
    {.name = (label), .layout = (lay), .ta = (a_t), .tb = (b_t), .m = (m_), .n = (n_), .k = (k_), .alpha = (al),     \
     .beta = (be)}

static float frand(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* The stored extent of an operand: rows x cols of op(X) in the layout. */
static void stored(gemmkit_layout layout, gemmkit_transpose t, int64_t rows, int64_t cols, int64_t *ld, int64_t *elems)
{
    const int trans = t != GEMMKIT_NO_TRANS;
    const int64_t r = trans ? cols : rows, c = trans ? rows : cols; /* X is r x c */
    *ld = layout == GEMMKIT_COL_MAJOR ? r : c;
    *elems = r * c;
}

static int setup_case(gemm_case *g, unsigned seed)
{
    stored(g->layout, g->ta, g->m, g->k, &g->lda, &g->a_elems);
    stored(g->layout, g->tb, g->k, g->n, &g->ldb, &g->b_elems);
    stored(g->layout, GEMMKIT_NO_TRANS, g->m, g->n, &g->ldc, &g->c_elems);
    if (!cu_ok(cuMemAllocHost((void **)&g->a, g->a_elems * 4), "cuMemAllocHost") ||
        !cu_ok(cuMemAllocHost((void **)&g->b, g->b_elems * 4), "cuMemAllocHost") ||
        !cu_ok(cuMemAllocHost((void **)&g->c, g->c_elems * 4), "cuMemAllocHost") ||
        !cu_ok(cuMemAlloc(&g->da, g->a_elems * 4), "cuMemAlloc") ||
        !cu_ok(cuMemAlloc(&g->db, g->b_elems * 4), "cuMemAlloc") ||
        !cu_ok(cuMemAlloc(&g->dc, g->c_elems * 4), "cuMemAlloc"))
        return 0;
    /* Pinned, as the copies from it are asynchronous: it must hold C's start values until the stream reads it. */
    if (!cu_ok(cuMemAllocHost((void **)&g->c0, g->c_elems * 4), "cuMemAllocHost")) return 0;
    for (int64_t i = 0; i < g->a_elems; i++) g->a[i] = frand(&seed);
    for (int64_t i = 0; i < g->b_elems; i++) g->b[i] = frand(&seed);
    for (int64_t i = 0; i < g->c_elems; i++) g->c0[i] = frand(&seed);
    return 1;
}

static void free_case(gemm_case *g)
{
    cuMemFreeHost(g->a), cuMemFreeHost(g->b), cuMemFreeHost(g->c);
    cuMemFree(g->da), cuMemFree(g->db), cuMemFree(g->dc);
    cuMemFreeHost(g->c0);
}

/* Element (i, j) of op(X) (rows x cols of op) stored with ld in the layout. */
static double op_at(const float *x, gemmkit_layout layout, gemmkit_transpose t, int64_t ld, int64_t i, int64_t j)
{
    if (t != GEMMKIT_NO_TRANS) {
        const int64_t s = i;
        i = j, j = s;
    }
    return layout == GEMMKIT_COL_MAJOR ? x[i + j * ld] : x[i * ld + j];
}

/* C against the float64 reference, within a bound of fp32 accumulation over K; every entry up to 2^20 of them,
 * else 4096 sampled. */
static int compare(const gemm_case *g, double *worst_ratio)
{
    const int64_t total = g->m * g->n, samples = total <= (1 << 20) ? total : 4096;
    unsigned seed = 7;
    *worst_ratio = 0.0;
    for (int64_t s = 0; s < samples; s++) {
        int64_t i, j;
        if (samples == total) i = s % g->m, j = s / g->m;
        else seed = seed * 1664525u + 1013904223u, i = (seed >> 4) % g->m, seed = seed * 1664525u + 1013904223u,
        j = (seed >> 4) % g->n;
        double sum = 0.0, abs_sum = 0.0;
        for (int64_t p = 0; p < g->k; p++) {
            const double x = op_at(g->a, g->layout, g->ta, g->lda, i, p) * op_at(g->b, g->layout, g->tb, g->ldb, p, j);
            sum += x;
            abs_sum += fabs(x);
        }
        const int64_t at = g->layout == GEMMKIT_COL_MAJOR ? i + j * g->ldc : i * g->ldc + j;
        const double want = g->alpha * sum + g->beta * (double)g->c0[at];
        const double bound = 2.0 * (double)(g->k + 2) * 1.19e-7 * (fabs(g->alpha) * abs_sum + fabs(g->beta * g->c0[at])) + 1e-30;
        const double ratio = fabs(want - (double)g->c[at]) / bound;
        if (!(ratio <= *worst_ratio)) *worst_ratio = ratio; /* NaN too */
    }
    return *worst_ratio <= 1.0;
}

/* Copy in, the call, copy out: all on `stream`, one wait at the end. */
static int run_case(gemmkit_context *ctx, CUstream stream, gemm_case *g)
{
    cuMemcpyHtoDAsync(g->da, g->a, g->a_elems * 4, stream);
    cuMemcpyHtoDAsync(g->db, g->b, g->b_elems * 4, stream);
    /* C's start values from c0 (untouched until the stream has read it), the result into c, NaN until then. */
    cuMemcpyHtoDAsync(g->dc, g->c0, g->c_elems * 4, stream);
    memset(g->c, 0xff, g->c_elems * 4);
    if (!gk_ok(gemmkit_sgemm_cuda_enqueue(ctx, stream, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->da,
                                          g->lda, g->db, g->ldb, g->beta, g->dc, g->ldc),
               g->name))
        return 0;
    cuMemcpyDtoHAsync(g->c, g->dc, g->c_elems * 4, stream);
    return cu_ok(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

static void check_results(gemmkit_context *ctx, CUstream stream)
{
    gemm_case cases[] = {
        CASE("257x129x65 NN col-major beta 0.5", GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 257, 129, 65, 1.0f, 0.5f),
        CASE("300x200x150 TN row-major alpha 2", GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 300, 200, 150, 2.0f, 0.0f),
        CASE("128x96x1000 TT col-major beta -1", GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, 128, 96, 1000, 1.0f, -1.0f),
        CASE("511x513x257 NT row-major beta 1", GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 511, 513, 257, 0.5f, 1.0f),
        CASE("64x64x100000 NN (split-K)", GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 64, 64, 100000, 1.0f, 0.0f),
        CASE("2048^3 NN (packed; sampled)", GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 2048, 2048, 2048, 1.0f, 0.0f),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gemm_case *g = &cases[i];
        if (!setup_case(g, 11u + (unsigned)i)) continue;
        double ratio = 0.0;
        char what[160];
        if (run_case(ctx, stream, g)) {
            const int ok = compare(g, &ratio);
            snprintf(what, sizeof what, "%s, copies and call ordered on one stream (error %.3f of the bound)", g->name,
                     ratio);
            result(ok, what);
        }
        free_case(g);
    }
}

/* Pointer-array batched SGEMM: three matrices of one shape, each checked against its own reference. */
static void check_pointer_arrays(gemmkit_context *ctx, CUstream stream)
{
    enum { BATCH = 3 };
    gemm_case g[BATCH];
    CUdeviceptr a[BATCH], b[BATCH], c[BATCH];
    int ready = 1;
    for (int i = 0; i < BATCH; i++) {
        g[i] = (gemm_case)CASE("batch", GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 129, 67, 301, 1.5f, 0.5f);
        ready = ready && setup_case(&g[i], 101u + (unsigned)i);
        if (!ready) return;
        a[i] = g[i].da, b[i] = g[i].db, c[i] = g[i].dc;
        cuMemcpyHtoDAsync(g[i].da, g[i].a, g[i].a_elems * 4, stream);
        cuMemcpyHtoDAsync(g[i].db, g[i].b, g[i].b_elems * 4, stream);
        cuMemcpyHtoDAsync(g[i].dc, g[i].c0, g[i].c_elems * 4, stream);
        memset(g[i].c, 0xff, g[i].c_elems * 4);
    }
    const gemm_case *f = &g[0];
    if (gk_ok(gemmkit_sgemm_batched_cuda_enqueue(ctx, stream, f->layout, f->ta, f->tb, f->m, f->n, f->k, f->alpha, a,
                                                 f->lda, b, f->ldb, f->beta, c, f->ldc, BATCH),
              "gemmkit_sgemm_batched_cuda_enqueue")) {
        for (int i = 0; i < BATCH; i++) cuMemcpyDtoHAsync(g[i].c, g[i].dc, g[i].c_elems * 4, stream);
        if (cu_ok(cuStreamSynchronize(stream), "cuStreamSynchronize")) {
            int ok = 1;
            double worst = 0.0;
            for (int i = 0; i < BATCH; i++) {
                double ratio = 0.0;
                ok = compare(&g[i], &ratio) && ok;
                if (!(ratio <= worst)) worst = ratio;
            }
            char what[160];
            snprintf(what, sizeof what, "pointer-array batch of %d (129x67x301 TN, alpha 1.5, beta 0.5; error %.3f of "
                     "the bound)", BATCH, worst);
            result(ok, what);
        }
    }
    for (int i = 0; i < BATCH; i++) free_case(&g[i]);
}

/* A call captured with a workspace set and replayed on inputs written after the capture. */
static void check_graph(CUstream stream)
{
    gemmkit_context *ctx = NULL;
    if (!gk_ok(gemmkit_context_create_cuda(NULL, &ctx), "context for the graph")) return;
    gemm_case g = CASE("graph", GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 64, 64, 100000, 1.0f, 0.0f);
    size_t bytes = 0;
    CUdeviceptr workspace = 0;
    if (setup_case(&g, 99) &&
        gk_ok(gemmkit_cuda_workspace_size(ctx, g.layout, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.da, g.lda, g.db, g.ldb,
                                          g.beta, g.dc, g.ldc, &bytes),
              "workspace size") &&
        cu_ok(cuMemAlloc(&workspace, bytes ? bytes : 256), "workspace") &&
        gk_ok(gemmkit_cuda_set_workspace(ctx, workspace, bytes), "set workspace") && run_case(ctx, stream, &g)) {
        printf("      workspace for 64x64x100000: %zu bytes\n", bytes);
        CUgraph graph = NULL;
        CUgraphExec exec = NULL;
        int ok = cu_ok(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
        ok = ok && gk_ok(gemmkit_sgemm_cuda_enqueue(ctx, stream, g.layout, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.da,
                                                    g.lda, g.db, g.ldb, g.beta, g.dc, g.ldc),
                         "the call under capture");
        CUresult ended = cuStreamEndCapture(stream, &graph);
        ok = ok && cu_ok(ended, "cuStreamEndCapture") && cu_ok(cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
        if (ok) {
            for (int64_t i = 0; i < g.a_elems; i++) g.a[i] = -g.a[i] * 0.5f; /* new inputs after the capture */
            cuMemcpyHtoDAsync(g.da, g.a, g.a_elems * 4, stream);
            cuMemsetD32Async(g.dc, 0x7fc00000u, g.c_elems, stream); /* NaN: the replay must write every entry */
            ok = cu_ok(cuGraphLaunch(exec, stream), "cuGraphLaunch");
            cuMemcpyDtoHAsync(g.c, g.dc, g.c_elems * 4, stream);
            ok = ok && cu_ok(cuStreamSynchronize(stream), "sync after the replay");
            double ratio = 0.0;
            if (ok) {
                char what[160];
                const int right = compare(&g, &ratio);
                snprintf(what, sizeof what, "graph capture with a workspace, replayed on new inputs (error %.3f of the bound)",
                         ratio);
                result(right, what);
            }
        }
        if (exec) cuGraphExecDestroy(exec);
        if (graph) cuGraphDestroy(graph);
    }
    gemmkit_context_destroy(ctx);
    if (workspace) cuMemFree(workspace);
    free_case(&g);
}

/* Two streams, a context each, their calls interleaved from one thread and running at once. */
static void check_two_streams(void)
{
    CUstream s[2] = {NULL, NULL};
    gemmkit_context *ctx[2] = {NULL, NULL};
    gemm_case g[2] = {
        CASE("stream 1", GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 96, 80, 30000, 1.0f, 0.0f),
        CASE("stream 2", GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 1000, 700, 600, 1.0f, 0.25f),
    };
    int ok = 1;
    for (int i = 0; i < 2 && ok; i++)
        ok = cu_ok(cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING), "cuStreamCreate") &&
             gk_ok(gemmkit_context_create_cuda(NULL, &ctx[i]), "context per stream") && setup_case(&g[i], 500u + i);
    for (int i = 0; ok && i < 2; i++) {
        cuMemcpyHtoDAsync(g[i].da, g[i].a, g[i].a_elems * 4, s[i]);
        cuMemcpyHtoDAsync(g[i].db, g[i].b, g[i].b_elems * 4, s[i]);
    }
    for (int round = 0; ok && round < 10; round++)
        for (int i = 0; ok && i < 2; i++) {
            memcpy(g[i].c, g[i].c0, g[i].c_elems * 4);
            cuMemcpyHtoDAsync(g[i].dc, g[i].c, g[i].c_elems * 4, s[i]);
            ok = gk_ok(gemmkit_sgemm_cuda_enqueue(ctx[i], s[i], g[i].layout, g[i].ta, g[i].tb, g[i].m, g[i].n, g[i].k,
                                                  g[i].alpha, g[i].da, g[i].lda, g[i].db, g[i].ldb, g[i].beta, g[i].dc,
                                                  g[i].ldc),
                       g[i].name);
        }
    for (int i = 0; ok && i < 2; i++) {
        cuMemcpyDtoHAsync(g[i].c, g[i].dc, g[i].c_elems * 4, s[i]);
        ok = cu_ok(cuStreamSynchronize(s[i]), "sync");
    }
    if (ok) {
        double r0 = 0.0, r1 = 0.0;
        const int right = compare(&g[0], &r0) & compare(&g[1], &r1);
        char what[160];
        snprintf(what, sizeof what, "two streams at once, a context each (errors %.3f, %.3f of the bound)", r0, r1);
        result(right, what);
    }
    for (int i = 0; i < 2; i++) {
        gemmkit_context_destroy(ctx[i]);
        if (s[i]) cuStreamDestroy(s[i]);
        if (g[i].a) free_case(&g[i]);
    }
}

/* cuBLAS, loaded at run time (as tools/gemmkit/peer_cublas.c does): just what the timing needs. */
typedef struct cublas {
    void *lib, *handle;
    int (*create)(void **);
    int (*destroy)(void *);
    int (*set_stream)(void *, CUstream);
    int (*sgemm)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int, const float *,
                 float *, int);
} cublas;

static int load_cublas(cublas *b)
{
    static const char *const names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11"};
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !b->lib; i++) b->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!b->lib) return 0;
    void *syms[4] = {dlsym(b->lib, "cublasCreate_v2"), dlsym(b->lib, "cublasDestroy_v2"),
                     dlsym(b->lib, "cublasSetStream_v2"), dlsym(b->lib, "cublasSgemm_v2")};
    for (int i = 0; i < 4; i++)
        if (!syms[i]) return 0;
    memcpy(&b->create, &syms[0], sizeof syms[0]);
    memcpy(&b->destroy, &syms[1], sizeof syms[1]);
    memcpy(&b->set_stream, &syms[2], sizeof syms[2]);
    memcpy(&b->sgemm, &syms[3], sizeof syms[3]);
    return b->create(&b->handle) == 0;
}

/* The host time of `calls` back-to-back enqueues of 64^3 on one stream, per call (us); the device catches up after. */
static void time_enqueue(CUstream stream)
{
    enum { S = 64, CALLS = 1000, WARM = 20 };
    CUdeviceptr a, b, c, workspace = 0;
    if (!cu_ok(cuMemAlloc(&a, S * S * 4), "alloc") || !cu_ok(cuMemAlloc(&b, S * S * 4), "alloc") ||
        !cu_ok(cuMemAlloc(&c, S * S * 4), "alloc"))
        return;
    cuMemsetD32(a, 0, S * S), cuMemsetD32(b, 0, S * S), cuMemsetD32(c, 0, S * S);
    gemmkit_context *ctx = NULL;
    if (!gk_ok(gemmkit_context_create_cuda(NULL, &ctx), "context for the timing")) return;
    double per_call[2] = {0, 0};
    for (int with_workspace = 0; with_workspace < 2; with_workspace++) {
        if (with_workspace) {
            size_t bytes = 0;
            gemmkit_cuda_workspace_size(ctx, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, S, S, S, 1.0f, a, S,
                                        b, S, 0.0f, c, S, &bytes);
            cuMemAlloc(&workspace, bytes ? bytes : 256);
            gemmkit_cuda_set_workspace(ctx, workspace, bytes);
        }
        int ok = 1;
        for (int i = 0; i < WARM && ok; i++)
            ok = gk_ok(gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, S,
                                                  S, S, 1.0f, a, S, b, S, 0.0f, c, S),
                       "64^3 warm-up");
        cuStreamSynchronize(stream);
        const double t0 = seconds();
        for (int i = 0; i < CALLS && ok; i++)
            ok = gemmkit_sgemm_cuda_enqueue(ctx, stream, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, S, S, S,
                                            1.0f, a, S, b, S, 0.0f, c, S) == GEMMKIT_SUCCESS;
        per_call[with_workspace] = (seconds() - t0) / CALLS * 1e6;
        result(ok && cu_ok(cuStreamSynchronize(stream), "sync after timing"), "1000 back-to-back 64^3 calls enqueued");
    }
    printf("TIME: gemmkit_sgemm_cuda_enqueue 64^3: %.2f us per call (host, enqueue only); %.2f us with a workspace set\n",
           per_call[0], per_call[1]);
    cublas blas;
    if (load_cublas(&blas) && blas.set_stream(blas.handle, stream) == 0) {
        const float one = 1.0f, zero = 0.0f;
        for (int i = 0; i < WARM; i++)
            blas.sgemm(blas.handle, 0, 0, S, S, S, &one, (const float *)(uintptr_t)a, S, (const float *)(uintptr_t)b, S,
                       &zero, (float *)(uintptr_t)c, S);
        cuStreamSynchronize(stream);
        const double t0 = seconds();
        int status = 0;
        for (int i = 0; i < CALLS && status == 0; i++)
            status = blas.sgemm(blas.handle, 0, 0, S, S, S, &one, (const float *)(uintptr_t)a, S,
                                (const float *)(uintptr_t)b, S, &zero, (float *)(uintptr_t)c, S);
        const double cublas_us = (seconds() - t0) / CALLS * 1e6;
        cuStreamSynchronize(stream);
        printf("TIME: cublasSgemm 64^3: %.2f us per call (host, enqueue only)%s\n", cublas_us,
               status ? " (a call failed)" : "");
        printf("TIME: gemmkit - cuBLAS: %+.2f us per call (issue 37's target: <= +2 us)\n", per_call[0] - cublas_us);
        blas.destroy(blas.handle);
    } else {
        printf("TIME: cuBLAS not loaded (libcublas.so not found): no comparison\n");
    }
    gemmkit_context_destroy(ctx);
    cuMemFree(a), cuMemFree(b), cuMemFree(c);
    if (workspace) cuMemFree(workspace);
}

int main(void)
{
    int count = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    CUdevice device;
    CUcontext context;
    CUstream stream;
    char name[128] = "";
    if (!cu_ok(cuDeviceGet(&device, 0), "cuDeviceGet") || !cu_ok(cuDevicePrimaryCtxRetain(&context, device), "retain") ||
        !cu_ok(cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
        !cu_ok(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
        return 1;
    cuDeviceGetName(name, sizeof name, device);
    printf("device: %s\n", name);
    gemmkit_context *ctx = NULL;
    if (!gk_ok(gemmkit_context_create_cuda(context, &ctx), "gemmkit_context_create_cuda")) return 1;
    check_results(ctx, stream);
    check_pointer_arrays(ctx, stream);
    CUcontext now = NULL;
    cuCtxGetCurrent(&now);
    result(now == context, "the thread's current context unchanged by the calls");
    gemmkit_context_destroy(ctx);
    check_graph(stream);
    check_two_streams();
    time_enqueue(stream);
    cuStreamDestroy(stream);
    cuDevicePrimaryCtxRelease(device);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
