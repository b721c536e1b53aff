/* The CLBlast peer: CLBlastSgemm / CLBlastSomatcopy through CLBlast's C API,
 * loaded with dlopen, run on gemmkit's own OpenCL context and queue with its
 * own cl_mem buffers, timed with the queue's profiling events. */
#include <stdlib.h>
#include <string.h>

#include "gemmkit_cl.h"
#include "peer.h"

#include <dlfcn.h>

/* CLBlast's C API (clblast_c.h), declared here so that building needs no
 * CLBlast headers. Its layout and transpose values are CBLAS's, like gemmkit's. */
typedef int clblast_status;
typedef clblast_status (*clblast_sgemm_fn)(int layout, int a_transpose, int b_transpose, size_t m, size_t n,
                                           size_t k, float alpha, cl_mem a, size_t a_offset, size_t a_ld, cl_mem b,
                                           size_t b_offset, size_t b_ld, float beta, cl_mem c, size_t c_offset,
                                           size_t c_ld, cl_command_queue *queue, cl_event *event);
typedef clblast_status (*clblast_sgemm_strided_batched_fn)(
    int layout, int a_transpose, int b_transpose, size_t m, size_t n, size_t k, float alpha, cl_mem a, size_t a_offset,
    size_t a_ld, size_t a_stride, cl_mem b, size_t b_offset, size_t b_ld, size_t b_stride, float beta, cl_mem c,
    size_t c_offset, size_t c_ld, size_t c_stride, size_t batch_count, cl_command_queue *queue, cl_event *event);
typedef clblast_status (*clblast_somatcopy_fn)(int layout, int a_transpose, size_t m, size_t n, float alpha,
                                               cl_mem a, size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset,
                                               size_t b_ld, cl_command_queue *queue, cl_event *event);

typedef struct clblast_state {
    void *lib;
    clblast_sgemm_fn sgemm;
    clblast_somatcopy_fn somatcopy;
    clblast_sgemm_strided_batched_fn sgemm_strided_batched; /* NULL: a CLBlast before 1.5 */
    cl_context context;
    cl_command_queue queue;
    cl_mem slots[GK_RUNNER_SLOTS];
    int marker_timing; /* 1 while marker events give profiling times */
} clblast_state;

static int cl_fail(char *err, const char *what, cl_int code)
{
    snprintf(err, GK_BENCH_ERR, "%s failed (OpenCL error %d)", what, (int)code);
    return -1;
}

static int slot_ok(const clblast_state *st, int slot, char *err)
{
    if (slot >= 0 && slot < GK_RUNNER_SLOTS && st->slots[slot]) return 1;
    snprintf(err, GK_BENCH_ERR, "slot %d has no buffer", slot);
    return 0;
}

static int c_alloc(gk_runner *r, int slot, size_t count, char *err)
{
    clblast_state *st = r->state;
    if (slot < 0 || slot >= GK_RUNNER_SLOTS) return cl_fail(err, "slot range", CL_INVALID_VALUE);
    if (st->slots[slot]) clReleaseMemObject(st->slots[slot]);
    cl_int code = CL_SUCCESS;
    st->slots[slot] = clCreateBuffer(st->context, CL_MEM_READ_WRITE, (count ? count : 1) * sizeof(float), NULL, &code);
    return code == CL_SUCCESS ? 0 : cl_fail(err, "clCreateBuffer", code);
}

static int c_write(gk_runner *r, int slot, const float *src, size_t count, char *err)
{
    clblast_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    cl_int code = clEnqueueWriteBuffer(st->queue, st->slots[slot], CL_TRUE, 0, count * sizeof(float), src, 0, NULL, NULL);
    return code == CL_SUCCESS ? 0 : cl_fail(err, "clEnqueueWriteBuffer", code);
}

static int c_read(gk_runner *r, int slot, float *dst, size_t count, char *err)
{
    clblast_state *st = r->state;
    if (!slot_ok(st, slot, err)) return -1;
    cl_int code = clEnqueueReadBuffer(st->queue, st->slots[slot], CL_TRUE, 0, count * sizeof(float), dst, 0, NULL, NULL);
    return code == CL_SUCCESS ? 0 : cl_fail(err, "clEnqueueReadBuffer", code);
}

static double event_ms(cl_event from, cl_profiling_info from_what, cl_event to, cl_int *code)
{
    cl_ulong start = 0, end = 0;
    *code = clGetEventProfilingInfo(from, from_what, sizeof start, &start, NULL);
    if (*code == CL_SUCCESS) *code = clGetEventProfilingInfo(to, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    return end >= start ? (double)(end - start) * 1e-6 : 0.0;
}

/* A marker before the call and CLBlast's event (its last kernel) after it:
 * the kernel time is that event's, the call's time runs from the marker's
 * end (the queue was idle) to the last kernel's end, covering any helper
 * kernels (padding, transposes) CLBlast ran in between. */
typedef struct clblast_call {
    cl_event marker, done;
    double host_start;
} clblast_call;

static void call_begin(clblast_state *st, clblast_call *call)
{
    call->marker = call->done = NULL;
    call->host_start = gk_bench_now_ms();
    if (st->marker_timing && clEnqueueMarkerWithWaitList(st->queue, 0, NULL, &call->marker) != CL_SUCCESS) {
        call->marker = NULL;
        st->marker_timing = 0;
    }
}

static int call_end(clblast_state *st, clblast_call *call, clblast_status status, const char *what,
                    gk_bench_timing *t, char *err)
{
    int rc = 0;
    cl_int code = CL_SUCCESS;
    if (status != 0) {
        snprintf(err, GK_BENCH_ERR, "%s returned CLBlast status %d", what, status);
        rc = -1;
    } else if (!call->done) {
        snprintf(err, GK_BENCH_ERR, "%s returned no event", what);
        rc = -1;
    } else if ((code = clWaitForEvents(1, &call->done)) != CL_SUCCESS) {
        rc = cl_fail(err, "clWaitForEvents", code);
    } else {
        double host_ms = gk_bench_now_ms() - call->host_start;
        t->kernel_ms = event_ms(call->done, CL_PROFILING_COMMAND_START, call->done, &code);
        if (code != CL_SUCCESS) rc = cl_fail(err, "clGetEventProfilingInfo", code);
        /* Without usable marker times the call counts as its last kernel only:
         * that flatters CLBlast, never gemmkit. A span longer than the host saw is no time. */
        t->total_ms = t->kernel_ms;
        if (rc == 0 && call->marker) {
            double span = event_ms(call->marker, CL_PROFILING_COMMAND_END, call->done, &code);
            if (code == CL_SUCCESS && span >= t->kernel_ms && span <= host_ms * 1.05 + 0.05) t->total_ms = span;
            else st->marker_timing = 0;
        }
    }
    if (call->marker) clReleaseEvent(call->marker);
    if (call->done) clReleaseEvent(call->done);
    return rc;
}

/* Says in the label when the call time fell back to the last kernel's. */
static void note_timing(gk_runner *r)
{
    const clblast_state *st = r->state;
    const char *note = "; call time = its last kernel only (marker events gave no times)";
    if (!st->marker_timing && !strstr(r->label, note)) {
        size_t used = strlen(r->label);
        snprintf(r->label + used, sizeof r->label - used, "%s", note);
    }
}

static int c_sgemm(gk_runner *r, const gk_sgemm_case *c, int a, int b, int slot_c, gk_bench_timing *t, char *err)
{
    clblast_state *st = r->state;
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err) || !slot_ok(st, slot_c, err)) return -1;
    clblast_call call;
    call_begin(st, &call);
    clblast_status status = st->sgemm(c->layout, c->trans_a, c->trans_b, (size_t)c->m, (size_t)c->n, (size_t)c->k,
                                      c->alpha, st->slots[a], 0, (size_t)c->lda, st->slots[b], 0, (size_t)c->ldb,
                                      c->beta, st->slots[slot_c], 0, (size_t)c->ldc, &st->queue, &call.done);
    int rc = call_end(st, &call, status, "CLBlastSgemm", t, err);
    note_timing(r);
    return rc;
}

static int c_sgemm_batched(gk_runner *r, const gk_batched_case *bc, int a, int b, int slot_c, gk_bench_timing *t,
                           char *err)
{
    clblast_state *st = r->state;
    const gk_sgemm_case *c = &bc->one;
    if (!st->sgemm_strided_batched) {
        snprintf(err, GK_BENCH_ERR, "this CLBlast has no CLBlastSgemmStridedBatched");
        return -1;
    }
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err) || !slot_ok(st, slot_c, err)) return -1;
    clblast_call call;
    call_begin(st, &call);
    clblast_status status = st->sgemm_strided_batched(
        c->layout, c->trans_a, c->trans_b, (size_t)c->m, (size_t)c->n, (size_t)c->k, c->alpha, st->slots[a], 0,
        (size_t)c->lda, (size_t)bc->stride_a, st->slots[b], 0, (size_t)c->ldb, (size_t)bc->stride_b, c->beta,
        st->slots[slot_c], 0, (size_t)c->ldc, (size_t)bc->stride_c, (size_t)bc->batch, &st->queue, &call.done);
    int rc = call_end(st, &call, status, "CLBlastSgemmStridedBatched", t, err);
    note_timing(r);
    return rc;
}

static int c_omatcopy(gk_runner *r, const gk_omatcopy_case *o, int a, int b, gk_bench_timing *t, char *err)
{
    clblast_state *st = r->state;
    if (!slot_ok(st, a, err) || !slot_ok(st, b, err)) return -1;
    clblast_call call;
    call_begin(st, &call);
    clblast_status status = st->somatcopy(o->layout, o->trans, (size_t)o->rows, (size_t)o->cols, o->alpha,
                                          st->slots[a], 0, (size_t)o->lda, st->slots[b], 0, (size_t)o->ldb,
                                          &st->queue, &call.done);
    int rc = call_end(st, &call, status, "CLBlastSomatcopy", t, err);
    note_timing(r);
    return rc;
}

static void c_release(gk_runner *r)
{
    clblast_state *st = r->state;
    for (int i = 0; i < GK_RUNNER_SLOTS; i++) {
        if (st->slots[i]) clReleaseMemObject(st->slots[i]);
        st->slots[i] = NULL;
    }
}

static void c_destroy(gk_runner *r)
{
    if (!r) return;
    clblast_state *st = r->state;
    c_release(r);
    if (st->queue) clFinish(st->queue);
    /* The library stays loaded: its cached programs belong to gemmkit's context. */
    free(st);
    free(r);
}

int gk_peer_clblast_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners, int max,
                         gk_bench_peer_info *info)
{
    snprintf(info->name, sizeof info->name, "clblast");
    snprintf(info->label, sizeof info->label, "CLBlast");
    (void)device;
    if (max < 1) {
        snprintf(info->detail, sizeof info->detail, "no room for another runner");
        return 0;
    }
    cl_context context;
    cl_command_queue queue;
    if (gemmkit_cl_handles(ctx, &context, &queue) != GEMMKIT_SUCCESS) {
        snprintf(info->detail, sizeof info->detail, "gemmkit is not on OpenCL here (%s), and CLBlast needs its queue",
                 gemmkit_last_error_message());
        return 0;
    }
    static const char *const names[] = {"libclblast.so.1", "libclblast.so", NULL};
    char path[256] = "";
    void *lib = gk_peer_dlopen("GEMMKIT_CLBLAST", names, path, sizeof path, info->detail);
    if (!lib) return 0;
    clblast_sgemm_fn sgemm = (clblast_sgemm_fn)dlsym(lib, "CLBlastSgemm");
    clblast_somatcopy_fn somatcopy = (clblast_somatcopy_fn)dlsym(lib, "CLBlastSomatcopy");
    if (!sgemm || !somatcopy) {
        snprintf(info->detail, sizeof info->detail, "%.200s lacks CLBlastSgemm/CLBlastSomatcopy", path);
        dlclose(lib);
        return 0;
    }
    gk_peer_real_path((void *)sgemm, path, sizeof path);
    gk_runner *r = calloc(1, sizeof *r);
    clblast_state *st = calloc(1, sizeof *st);
    if (!r || !st) {
        free(r);
        free(st);
        snprintf(info->detail, sizeof info->detail, "out of host memory");
        return 0;
    }
    *st = (clblast_state){.lib = lib, .sgemm = sgemm, .somatcopy = somatcopy, .context = context, .queue = queue,
                          .marker_timing = 1};
    st->sgemm_strided_batched = (clblast_sgemm_strided_batched_fn)dlsym(lib, "CLBlastSgemmStridedBatched");
    snprintf(r->name, sizeof r->name, "clblast");
    snprintf(r->label, sizeof r->label, "CLBlast SGEMM/omatcopy on gemmkit's OpenCL queue (%.100s)", path);
    snprintf(r->kind, sizeof r->kind, "peer");
    r->state = st;
    r->alloc = c_alloc;
    r->write = c_write;
    r->read = c_read;
    r->run = gk_peer_run;
    r->sgemm = c_sgemm;
    r->omatcopy = c_omatcopy;
    r->sgemm_batched = c_sgemm_batched;
    r->release = c_release;
    r->destroy = c_destroy;
    runners[0] = r;
    info->found = 1;
    snprintf(info->detail, sizeof info->detail, "%.200s, on gemmkit's OpenCL context and queue", path);
    return 1;
}
