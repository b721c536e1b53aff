/* Argument checks shared by the routines' entry points. */
#include <stdint.h>

#include "routine.h"
#include "status.h"

gemmkit_status gk_null_pointer(const char *name)
{
    return gk_fail(GEMMKIT_ERROR_NULL_POINTER, "%s is NULL", name);
}

gemmkit_status gk_bad_layout(gemmkit_layout layout)
{
    return gk_fail(GEMMKIT_ERROR_INVALID_LAYOUT, "layout = %d is neither row- (101) nor column-major (102)",
                   (int)layout);
}

gemmkit_status gk_bad_trans(gemmkit_transpose trans, const char *name)
{
    return gk_fail(GEMMKIT_ERROR_INVALID_TRANSPOSE, "%s = %d is not 111, 112 or 113", name, (int)trans);
}

gemmkit_status gk_bad_ld(const char *name, int64_t ld, int64_t min_rows)
{
    return gk_fail(GEMMKIT_ERROR_INVALID_LEADING_DIM, "%s = %lld must be >= max(1, %lld)", name,
                   (long long)ld, (long long)min_rows);
}

gemmkit_status gk_check_buffer(gemmkit_context *ctx, const gemmkit_buffer *buf, const char *name,
                               size_t offset, int64_t extent)
{
    GK_TRY(gk_check_pointer(buf, name));
    if (buf->ctx != ctx)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "buffer %s belongs to another context", name);
    if (extent > 0 && (offset > buf->count || (size_t)extent > buf->count - offset))
        return gk_fail(GEMMKIT_ERROR_BUFFER_TOO_SMALL,
                       "buffer %s holds %zu floats; offset %zu + extent %lld does not fit", name, buf->count,
                       offset, (long long)extent);
    if (offset + (size_t)extent > (size_t)INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "buffer %s: offset %zu + extent exceeds 2^31-1", name,
                       offset);
    return GEMMKIT_SUCCESS;
}
