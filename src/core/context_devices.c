/* Which devices a context opens (a selector, a list of them, or "all"), the
 * other devices and tiler lanes of a context, and the tiling settings
 * (GEMMKIT_DEVICE_MEMORY_LIMIT, GEMMKIT_TILE_SIZE). One device stays the
 * plain context it always was: device_count 1, no arrays. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "context.h"
#include "status.h"

static int contains_ignoring_case(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* One selector (an index, or part of "platform device") to a device index; `what` names it in messages. */
static gemmkit_status select_one(const gk_backend_ops *ops, int count, const char *selector, const char *what,
                                 int *index)
{
    char *end = NULL;
    long wanted = strtol(selector, &end, 10);
    if (*end == '\0') {
        if (wanted < 0 || wanted >= count)
            return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "%s: device index out of range: %d %s device(s)", what, count,
                           ops->name);
        *index = (int)wanted;
        return GEMMKIT_SUCCESS;
    }
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        GK_TRY(ops->device_info(i, &info));
        char full[300];
        snprintf(full, sizeof full, "%s %s", info.platform, info.name);
        if (contains_ignoring_case(full, selector)) {
            *index = i;
            return GEMMKIT_SUCCESS;
        }
    }
    return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "%s matches no %s device (see `gemmkit devices`)", what, ops->name);
}

/* "all": every GPU when there is one, else every device. */
static gemmkit_status select_all(const gk_backend_ops *ops, int count, int *indices, int *selected)
{
    int gpus = 0;
    for (int i = 0; i < count && i < GK_MAX_DEVICES; i++) {
        gemmkit_device_info info;
        GK_TRY(ops->device_info(i, &info));
        if (info.is_gpu) indices[gpus++] = i;
    }
    if (gpus == 0)
        for (int i = 0; i < count && i < GK_MAX_DEVICES; i++) indices[gpus++] = i;
    *selected = gpus;
    return GEMMKIT_SUCCESS;
}

/* "0,1" or "H200, pocl": each item a selector, no device twice. */
static gemmkit_status select_list(const gk_backend_ops *ops, int count, const char *list, const char *what,
                                  int *indices, int *selected)
{
    *selected = 0;
    for (const char *item = list;; item++) {
        const char *comma = strchr(item, ',');
        size_t len = comma ? (size_t)(comma - item) : strlen(item);
        while (len && isspace((unsigned char)*item)) item++, len--;
        while (len && isspace((unsigned char)item[len - 1])) len--;
        char one[256];
        if (len == 0 || len >= sizeof one)
            return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s: an empty or overlong item in the device list", what);
        memcpy(one, item, len);
        one[len] = '\0';
        if (*selected == GK_MAX_DEVICES)
            return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s: more than %d devices", what, GK_MAX_DEVICES);
        char item_what[600];
        snprintf(item_what, sizeof item_what, "%s, item \"%s\"", what, one);
        int index = 0;
        GK_TRY(select_one(ops, count, one, item_what, &index));
        for (int i = 0; i < *selected; i++)
            if (indices[i] == index)
                return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s names device %d twice", what, index);
        indices[(*selected)++] = index;
        if (!comma) return GEMMKIT_SUCCESS;
        item = comma;
    }
}

gemmkit_status gk_select_devices(const gk_backend_ops *ops, const char *selector, int indices[GK_MAX_DEVICES],
                                 int *selected)
{
    int count = 0;
    GK_TRY(ops->device_count(&count));
    if (count == 0)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "no %s device found (%s)", ops->name,
                       ops->no_device_hint ? ops->no_device_hint : "none listed");
    /* A selector from the environment is named in messages: the user may not know it is set. */
    const int from_env = !selector || !*selector;
    if (from_env) selector = getenv("GEMMKIT_DEVICE");
    *selected = 1;
    if (selector && *selector) {
        char what[300];
        snprintf(what, sizeof what, "%s\"%s\"", from_env ? "GEMMKIT_DEVICE=" : "", selector);
        if (strcasecmp(selector, "all") == 0) return select_all(ops, count, indices, selected);
        if (strchr(selector, ',')) return select_list(ops, count, selector, what, indices, selected);
        return select_one(ops, count, selector, what, &indices[0]);
    }
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        GK_TRY(ops->device_info(i, &info));
        if (info.is_gpu) {
            indices[0] = i;
            return GEMMKIT_SUCCESS;
        }
    }
    indices[0] = 0;
    return GEMMKIT_SUCCESS;
}

/* A whole number of bytes, with an optional K, M or G (powers of 1024); 0 when unset or empty. */
static gemmkit_status env_size(const char *name, int64_t *value)
{
    *value = 0;
    const char *text = getenv(name);
    if (!text || !*text) return GEMMKIT_SUCCESS;
    char *end = NULL;
    errno = 0;
    long long number = strtoll(text, &end, 10);
    int shift = 0;
    if (*end == 'K' || *end == 'k') shift = 10, end++;
    else if (*end == 'M' || *end == 'm') shift = 20, end++;
    else if (*end == 'G' || *end == 'g') shift = 30, end++;
    if (errno || end == text || *end != '\0' || number < 0 || number > (INT64_MAX >> shift))
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "%s=\"%s\": expected a whole number, optionally with K, M or G",
                       name, text);
    *value = (int64_t)number << shift;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_context_add_devices(gemmkit_context *ctx, const int *indices, int count)
{
    int64_t limit = 0;
    GK_TRY(env_size("GEMMKIT_DEVICE_MEMORY_LIMIT", &limit));
    GK_TRY(env_size("GEMMKIT_TILE_SIZE", &ctx->tile_size));
    atomic_store(&ctx->memory_limit, (size_t)limit);
    if (count <= 1) return GEMMKIT_SUCCESS;
    ctx->devices = calloc((size_t)count, sizeof *ctx->devices);
    if (!ctx->devices) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %d devices", count);
    ctx->devices[0] = ctx;
    ctx->device_count = count;
    for (int d = 1; d < count; d++) GK_TRY(gk_context_open(ctx->ops, indices[d], 0, &ctx->devices[d]));
    return GEMMKIT_SUCCESS;
}

void gk_context_close_devices(gemmkit_context *ctx)
{
    for (int d = 0; ctx->lanes && d < ctx->device_count; d++)
        if (ctx->lanes[d]) gk_context_close(ctx->lanes[d]);
    for (int d = 1; ctx->devices && d < ctx->device_count; d++)
        if (ctx->devices[d]) gk_context_close(ctx->devices[d]);
    free(ctx->lanes);
    free(ctx->devices);
    ctx->lanes = ctx->devices = NULL;
}

gemmkit_context *gk_context_device(gemmkit_context *ctx, int d) { return d == 0 ? ctx : ctx->devices[d]; }

gemmkit_status gk_context_lane(gemmkit_context *ctx, int d, gemmkit_context **lane)
{
    if (!ctx->lanes) {
        ctx->lanes = calloc((size_t)ctx->device_count, sizeof *ctx->lanes);
        if (!ctx->lanes) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating the tiler's lanes");
    }
    if (!ctx->lanes[d]) GK_TRY(gk_context_open_queue(gk_context_device(ctx, d), &ctx->lanes[d]));
    *lane = ctx->lanes[d];
    return GEMMKIT_SUCCESS;
}

void gk_context_trim_scratch(gemmkit_context *ctx, size_t bytes)
{
    for (int i = 0; i < GK_SCRATCH_COUNT; i++) {
        if (ctx->scratch_bytes[i] <= bytes) continue;
        ctx->ops->release(ctx->scratch[i]);
        ctx->scratch[i] = NULL;
        ctx->scratch_bytes[i] = 0;
    }
}

gemmkit_status gemmkit_context_device_count(gemmkit_context *ctx, int *count)
{
    if (!ctx || !count) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx or count is NULL");
    *count = ctx->device_count;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_device_info_at(gemmkit_context *ctx, int index, gemmkit_device_info *info)
{
    if (!ctx || !info) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx or info is NULL");
    if (index < 0 || index >= ctx->device_count)
        return gk_fail(GEMMKIT_ERROR_NO_DEVICE, "device %d of a context of %d device(s)", index, ctx->device_count);
    *info = gk_context_device(ctx, index)->info;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gemmkit_context_set_memory_limit(gemmkit_context *ctx, size_t bytes)
{
    if (!ctx) return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "ctx is NULL");
    pthread_mutex_lock(&ctx->lock);
    atomic_store(&ctx->memory_limit, bytes);
    pthread_mutex_unlock(&ctx->lock);
    return GEMMKIT_SUCCESS;
}
