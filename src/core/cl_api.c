/* gemmkit_cl.h: OpenCL interop for callers that own cl_mem buffers. */
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "sgemm.h"
#include "gemmkit_cl.h"
#include "status.h"

gemmkit_status gk_opencl_handles(gk_device *dev, cl_context *context, cl_command_queue *queue);
gemmkit_status gk_opencl_wrap(cl_mem buffer, gk_mem **out);
int gk_opencl_device_index(cl_device_id device);
gemmkit_status gk_opencl_open_shared(int index, cl_context context, gk_device **out);
void gk_opencl_call_begin(gk_device *dev, cl_command_queue queue, cl_uint wait_count, const cl_event *wait);
gemmkit_status gk_opencl_call_end(gk_device *dev, int failed, cl_event *event);

static gemmkit_status require_opencl(gemmkit_context *ctx)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    if (ctx->ops->bit != GK_BACKEND_BIT_OPENCL)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "the context runs on %s, not OpenCL", ctx->ops->name);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_cl_handles(gemmkit_context *ctx, cl_context *context, cl_command_queue *queue)
{
    GK_TRY(require_opencl(ctx));
    return gk_opencl_handles(ctx->device, context, queue);
}

gemmkit_status gemmkit_buffer_wrap_cl(gemmkit_context *ctx, cl_mem buffer, gemmkit_buffer **out)
{
    GK_TRY(require_opencl(ctx));
    if (!buffer || !out) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "buffer or wrapped is NULL");
    size_t bytes = 0;
    if (clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) != CL_SUCCESS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "not a valid cl_mem");
    gemmkit_buffer *buf = calloc(1, sizeof *buf);
    if (!buf) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    gemmkit_status status = gk_opencl_wrap(buffer, &buf->mem);
    if (status != GEMMKIT_SUCCESS) {
        free(buf);
        return status;
    }
    buf->ctx = ctx;
    buf->count = bytes / sizeof(float);
    *out = buf;
    return GEMMKIT_SUCCESS;
}

/* Wrappers of the operands a call reads (NULL where BLAS reads none: A and B when only C is scaled). */
typedef struct wrapped_operands {
    gemmkit_buffer *a, *b, *c;
} wrapped_operands;

static gemmkit_status wrap_operands(gemmkit_context *ctx, cl_mem a, cl_mem b, cl_mem c, wrapped_operands *w)
{
    *w = (wrapped_operands){NULL, NULL, NULL};
    gemmkit_status status = GEMMKIT_SUCCESS;
    if (a) status = gemmkit_buffer_wrap_cl(ctx, a, &w->a);
    if (status == GEMMKIT_SUCCESS && b) status = gemmkit_buffer_wrap_cl(ctx, b, &w->b);
    if (status == GEMMKIT_SUCCESS && c) status = gemmkit_buffer_wrap_cl(ctx, c, &w->c);
    return status;
}

/* The wrappers own nothing: a queue keeps the cl_mem objects its commands use. */
static void release_operands(wrapped_operands *w)
{
    gemmkit_buffer_destroy(w->a);
    gemmkit_buffer_destroy(w->b);
    gemmkit_buffer_destroy(w->c);
}

gemmkit_status gemmkit_sgemm_cl(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, cl_mem a,
                                size_t offset_a, int64_t lda, cl_mem b, size_t offset_b, int64_t ldb, float beta,
                                cl_mem c, size_t offset_c, int64_t ldc)
{
    GK_TRY(require_opencl(ctx));
    wrapped_operands w;
    gemmkit_status status = wrap_operands(ctx, a, b, c, &w);
    if (status == GEMMKIT_SUCCESS)
        status = gemmkit_sgemm_buffers(ctx, NULL, layout, trans_a, trans_b, m, n, k, alpha, w.a, offset_a, lda, w.b,
                                       offset_b, ldb, beta, w.c, offset_c, ldc);
    release_operands(&w);
    return status;
}

/* Whether device is one of context's. */
static int context_has_device(cl_context context, cl_device_id device)
{
    cl_device_id devices[64];
    size_t bytes = 0;
    if (clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devices, devices, &bytes) != CL_SUCCESS) return 0;
    for (size_t i = 0; i < bytes / sizeof devices[0]; i++)
        if (devices[i] == device) return 1;
    return 0;
}

gemmkit_status gemmkit_context_create_cl(cl_context context, cl_device_id device, gemmkit_context **ctx)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    *ctx = NULL;
    if (!context || !device) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "context or device is NULL");
    const int index = gk_opencl_device_index(device);
    if (index < 0)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "the cl_device_id is none of the OpenCL devices gemmkit lists");
    if (!context_has_device(context, device))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "the cl_device_id is not a device of the cl_context");
    gk_device *dev = NULL;
    GK_TRY(gk_opencl_open_shared(index, context, &dev));
    return gk_context_open_device(gk_backend_opencl(), index, dev, ctx);
}

/* The queue is of the context's cl_context and device. */
static gemmkit_status check_queue(gemmkit_context *ctx, cl_command_queue queue)
{
    if (!queue) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "queue is NULL");
    cl_context own = NULL, of = NULL;
    cl_device_id device = NULL;
    GK_TRY(gk_opencl_handles(ctx->device, &own, NULL));
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof of, &of, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) != CL_SUCCESS)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "queue is not a valid cl_command_queue");
    if (of != own)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "queue belongs to another cl_context than the gemmkit context's (gemmkit_context_create_cl)");
    if (gk_opencl_device_index(device) != ctx->device_index)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "queue is on another device than the gemmkit context's");
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_sgemm_cl_enqueue(gemmkit_context *ctx, cl_command_queue queue, gemmkit_layout layout,
                                        gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m, int64_t n,
                                        int64_t k, float alpha, cl_mem a, size_t offset_a, int64_t lda, cl_mem b,
                                        size_t offset_b, int64_t ldb, float beta, cl_mem c, size_t offset_c,
                                        int64_t ldc, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    GK_TRY(require_opencl(ctx));
    GK_TRY(check_queue(ctx, queue));
    if (num_events && !wait_list) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "num_events %u with no wait_list", num_events);
    if (!num_events && wait_list)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "a wait_list with num_events 0");
    wrapped_operands w;
    gemmkit_status status = wrap_operands(ctx, a, b, c, &w);
    const gk_gemm_call call = {layout, trans_a, trans_b, m, n, k, alpha, beta, w.a, w.b, w.c,
                               offset_a, offset_b, offset_c, lda, ldb, ldc};
    gk_sgemm_problem p;
    int writes_c = 0;
    if (status == GEMMKIT_SUCCESS) status = gk_sgemm_buffers_problem(ctx, NULL, &call, &p, &writes_c);
    if (status == GEMMKIT_SUCCESS) {
        pthread_mutex_lock(&ctx->lock);
        gk_opencl_call_begin(ctx->device, queue, num_events, wait_list);
        ctx->on_caller_queue = 1;
        if (writes_c) status = gk_sgemm_run(ctx, NULL, &p);
        ctx->on_caller_queue = 0;
        const gemmkit_status ended = gk_opencl_call_end(ctx->device, status != GEMMKIT_SUCCESS, event);
        if (status == GEMMKIT_SUCCESS) status = ended;
        pthread_mutex_unlock(&ctx->lock);
    }
    release_operands(&w);
    return status;
}
