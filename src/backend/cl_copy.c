/* See cl_copy.h. */
#include "cl_copy.h"

gk_cl_copy gk_cl_copy_for(size_t device_offset, size_t device_pitch, size_t host_pitch, size_t width, size_t rows)
{
    gk_cl_copy copy = {GK_CL_COPY_PLAIN, 0, 0};
    if (rows <= 1 || (device_pitch == width && host_pitch == width)) return copy;
    if (device_pitch > GK_CL_RECT_PITCH_MAX || host_pitch > GK_CL_RECT_PITCH_MAX || device_pitch < width) {
        copy.kind = GK_CL_COPY_ROWS;
        return copy;
    }
    copy.origin_x = device_offset % device_pitch;
    copy.origin_y = device_offset / device_pitch;
    /* A row that runs past its pitch would need origin_x + width > pitch: legal, but untried on the drivers. */
    copy.kind = copy.origin_x + width <= device_pitch ? GK_CL_COPY_RECT : GK_CL_COPY_ROWS;
    return copy;
}
