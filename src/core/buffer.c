/* Device buffers of floats owned by (or wrapped into) a context. */
#include <stdint.h>
#include <stdlib.h>

#include "context.h"
#include "status.h"

gemmkit_status gemmkit_buffer_create(gemmkit_context *ctx, size_t count, gemmkit_buffer **out)
{
    if (!ctx || !out) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx or buffer is NULL");
    *out = NULL;
    if (count > SIZE_MAX / sizeof(float))
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "%zu floats overflow the byte count", count);
    gemmkit_buffer *buf = calloc(1, sizeof *buf);
    if (!buf) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a buffer record");
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = gk_context_alloc(ctx, count * sizeof(float), &buf->mem);
    pthread_mutex_unlock(&ctx->lock);
    if (status != GEMMKIT_SUCCESS) {
        free(buf);
        return status;
    }
    buf->ctx = ctx;
    buf->count = count;
    *out = buf;
    return GEMMKIT_SUCCESS;
}

void gemmkit_buffer_destroy(gemmkit_buffer *buf)
{
    if (!buf) return;
    /* Under the lock like every other call on the context: a backend may need
     * its device state (the CUDA context) current while it frees. */
    gemmkit_context *ctx = buf->ctx;
    pthread_mutex_lock(&ctx->lock);
    ctx->ops->release(buf->mem);
    pthread_mutex_unlock(&ctx->lock);
    free(buf);
}

size_t gemmkit_buffer_count(const gemmkit_buffer *buf) { return buf ? buf->count : 0; }

static gemmkit_status check_range(gemmkit_context *ctx, const gemmkit_buffer *buf, size_t offset,
                                  size_t count, const void *host)
{
    if (!ctx || !buf || (!host && count)) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx, buffer or data is NULL");
    if (buf->ctx != ctx) return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "buffer belongs to another context");
    if (offset > buf->count || count > buf->count - offset)
        return gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL, "range [%zu, %zu + %zu) is outside the %zu-float buffer",
                       offset, offset, count, buf->count);
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_buffer_write(gemmkit_context *ctx, gemmkit_buffer *buf, size_t offset, size_t count,
                                    const float *src)
{
    GK_TRY(check_range(ctx, buf, offset, count, src));
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = ctx->ops->write(ctx->device, buf->mem, offset * sizeof(float), count * sizeof(float), src);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}

gemmkit_status gemmkit_buffer_read(gemmkit_context *ctx, const gemmkit_buffer *buf, size_t offset, size_t count,
                                   float *dst)
{
    GK_TRY(check_range(ctx, buf, offset, count, dst));
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = ctx->ops->read(ctx->device, buf->mem, offset * sizeof(float), count * sizeof(float), dst);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
