/* The one host-array path of every routine (routine.h, gk_host_call). */
#include <stdlib.h>
#include <string.h>

#include "routine.h"
#include "status.h"

/* An operand's upload is left pending where the backend can (*pending set): the read-back waits for it, as the
 * caller's arrays stay put until the call returns. */
static gemmkit_status stage(gemmkit_context *ctx, gk_host_operand *o, int *pending)
{
    const size_t bytes = (size_t)gk_batch_span(gk_extent(o->rows, o->cols, o->ld), o->stride, o->batch) * sizeof(float);
    GK_TRY(gk_context_scratch(ctx, o->slot, bytes, o->mem));
    if (!o->in) return GEMMKIT_SUCCESS;
    if (!ctx->ops->write_pending) return ctx->ops->write(ctx->device, *o->mem, 0, bytes, o->in);
    *pending = 1;
    return ctx->ops->write_pending(ctx->device, *o->mem, 0, bytes, o->in);
}

/* Reads into a temporary, then copies the rows x cols matrices out. */
static gemmkit_status read_back(gemmkit_context *ctx, const gk_host_operand *o)
{
    const int64_t extent = gk_extent(o->rows, o->cols, o->ld), batch = o->batch > 1 ? o->batch : 1;
    const size_t count = (size_t)gk_batch_span(extent, o->stride, o->batch);
    float *result = malloc(count * sizeof(float));
    if (!result) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %zu floats", count);
    gemmkit_status status = ctx->ops->read(ctx->device, *o->mem, 0, count * sizeof(float), result);
    for (int64_t z = 0; status == GEMMKIT_SUCCESS && z < batch; z++) {
        float *out = o->out + z * o->stride;
        const float *in = result + z * o->stride;
        if (o->ld == o->rows) memcpy(out, in, (size_t)extent * sizeof(float));
        else
            for (int64_t j = 0; j < o->cols; j++)
                memcpy(out + j * o->ld, in + j * o->ld, (size_t)o->rows * sizeof(float));
    }
    free(result);
    return status;
}

int64_t gk_batch_span(int64_t extent, int64_t stride, int64_t batch)
{
    int64_t span = 0;
    if (batch <= 1 || extent == 0) return extent;
    if (__builtin_mul_overflow(batch - 1, stride, &span) || __builtin_add_overflow(span, extent, &span))
        return INT64_MAX;
    return span;
}

static gemmkit_status run_staged(gemmkit_context *ctx, gk_host_operand *operands, int count,
                                 gemmkit_status (*run)(gemmkit_context *, void *), void *problem, int *pending)
{
    for (int i = 0; i < count; i++)
        if (operands[i].in || operands[i].out) GK_TRY(stage(ctx, &operands[i], pending));
    GK_TRY(run(ctx, problem));
    for (int i = 0; i < count; i++)
        if (operands[i].out) {
            GK_TRY(read_back(ctx, &operands[i]));
            *pending = 0; /* a blocking read: every upload before it is done */
        }
    return GEMMKIT_SUCCESS;
}

static gemmkit_status call_locked(gemmkit_context *ctx, gk_host_operand *operands, int count,
                                  gemmkit_status (*run)(gemmkit_context *, void *), void *problem)
{
    int pending = 0;
    const gemmkit_status status = run_staged(ctx, operands, count, run, problem, &pending);
    /* Never return while the device may still read the caller's arrays. */
    if (pending) ctx->ops->finish(ctx->device);
    return status;
}

gemmkit_status gk_host_call(gemmkit_context *ctx, gk_host_operand *operands, int count,
                            gemmkit_status (*run)(gemmkit_context *ctx, void *problem), void *problem)
{
    pthread_mutex_lock(&ctx->lock);
    gemmkit_status status = call_locked(ctx, operands, count, run, problem);
    pthread_mutex_unlock(&ctx->lock);
    return status;
}
