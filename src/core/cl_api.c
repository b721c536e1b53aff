/* gemmkit_cl.h: OpenCL interop for callers that own cl_mem buffers. */
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "gemmkit_cl.h"
#include "status.h"

gemmkit_status gk_opencl_handles(gk_device *dev, cl_context *context, cl_command_queue *queue);
gemmkit_status gk_opencl_wrap(cl_mem buffer, gk_mem **out);

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

gemmkit_status gemmkit_sgemm_cl(gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a,
                                gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, cl_mem a,
                                size_t offset_a, int64_t lda, cl_mem b, size_t offset_b, int64_t ldb, float beta,
                                cl_mem c, size_t offset_c, int64_t ldc)
{
    GK_TRY(require_opencl(ctx));
    gemmkit_buffer *wa = NULL, *wb = NULL, *wc = NULL;
    gemmkit_status status = GEMMKIT_SUCCESS;
    /* A and B may be NULL where BLAS does not read them. */
    if (a) status = gemmkit_buffer_wrap_cl(ctx, a, &wa);
    if (status == GEMMKIT_SUCCESS && b) status = gemmkit_buffer_wrap_cl(ctx, b, &wb);
    if (status == GEMMKIT_SUCCESS && c) status = gemmkit_buffer_wrap_cl(ctx, c, &wc);
    if (status == GEMMKIT_SUCCESS)
        status = gemmkit_sgemm_buffers(ctx, NULL, layout, trans_a, trans_b, m, n, k, alpha, wa, offset_a, lda,
                                       wb, offset_b, ldb, beta, wc, offset_c, ldc);
    gemmkit_buffer_destroy(wa);
    gemmkit_buffer_destroy(wb);
    gemmkit_buffer_destroy(wc);
    return status;
}
