/* Scratch cut from the caller's workspace during a call on the caller's stream
 * (gemmkit_cuda_set_workspace, context.h's gk_workspace): no allocation in the
 * call, and the bytes a call needs counted by a dry run of its plans. */
#include "context.h"
#include "status.h"

static size_t round_up(size_t bytes) { return (bytes + GK_WORKSPACE_ALIGN - 1) / GK_WORKSPACE_ALIGN * GK_WORKSPACE_ALIGN; }

static void forget_plan(gk_workspace *w)
{
    w->used = 0;
    for (int i = 0; i < GK_SCRATCH_COUNT; i++) w->given[i] = 0;
}

void gk_workspace_begin(gemmkit_context *ctx, int dry)
{
    gk_workspace *w = &ctx->workspace;
    w->active = 1;
    w->dry = dry;
    w->peak = 0;
    forget_plan(w);
}

void gk_workspace_end(gemmkit_context *ctx)
{
    ctx->workspace.active = 0;
    ctx->workspace.dry = 0;
    forget_plan(&ctx->workspace);
}

void gk_workspace_plan_done(gemmkit_context *ctx)
{
    if (ctx->workspace.active) forget_plan(&ctx->workspace);
}

void gk_workspace_release(gemmkit_context *ctx)
{
    gk_workspace *w = &ctx->workspace;
    for (int i = 0; i < GK_SCRATCH_COUNT; i++) {
        ctx->ops->release(w->views[i]); /* a record only: the memory is the caller's */
        w->views[i] = NULL;
    }
}

int gk_workspace_serves(const gemmkit_context *ctx)
{
    return ctx->workspace.active && (ctx->workspace.dry || ctx->workspace.address);
}

gemmkit_status gk_workspace_scratch(gemmkit_context *ctx, int slot, size_t bytes, gk_mem **mem)
{
    gk_workspace *w = &ctx->workspace;
    /* A slot asked again by the same plan gets its piece again, as the cache would give its buffer. */
    if (w->given[slot] && w->view_bytes[slot] >= bytes) {
        *mem = w->dry ? NULL : w->views[slot];
        return GEMMKIT_SUCCESS;
    }
    const size_t at = w->used, end = at + round_up(bytes);
    w->used = end;
    if (end > w->peak) w->peak = end;
    if (w->dry) { /* the plan is never launched: its steps may hold no memory */
        w->given[slot] = 1, w->view_at[slot] = at, w->view_bytes[slot] = bytes;
        *mem = NULL;
        return GEMMKIT_SUCCESS;
    }
    if (end > w->bytes)
        return gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL,
                       "the workspace holds %zu bytes; this call needs at least %zu (gemmkit_cuda_workspace_size)",
                       w->bytes, end);
    if (!w->views[slot] || w->view_at[slot] != at) {
        ctx->ops->release(w->views[slot]);
        w->views[slot] = NULL;
        GK_TRY(ctx->ops->wrap_address(ctx->device, w->address + at, &w->views[slot]));
    }
    w->given[slot] = 1, w->view_at[slot] = at, w->view_bytes[slot] = bytes;
    *mem = w->views[slot];
    return GEMMKIT_SUCCESS;
}
