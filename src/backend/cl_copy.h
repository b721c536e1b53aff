/* How the OpenCL backend issues one copy of a block of rows between host
 * memory and a buffer, so that no offset or pitch the driver mishandles ever
 * reaches it. NVIDIA's OpenCL (driver 580.159) wraps a rectangular copy's
 * buffer_origin[0] at 2^32 bytes, silently, while origin[1] * row_pitch and
 * plain copies are right past 4 GiB (bench/large_probe.c, docs/RELIABILITY.md).
 * So a block is a plain copy where its bytes are contiguous on both sides,
 * else a rectangle whose origin is whole rows of the pitch plus a remainder
 * below it, else (pitches beyond the drivers' 2^31-1, rows that run past
 * their pitch) one plain copy per row. */
#ifndef GK_CL_COPY_H
#define GK_CL_COPY_H

#include <stddef.h>

/* The largest row pitch given to a rectangular copy (CUDA's own limit on pitches). */
#define GK_CL_RECT_PITCH_MAX ((size_t)0x7fffffff)

typedef enum gk_cl_copy_kind {
    GK_CL_COPY_PLAIN, /* one clEnqueue{Read,Write}Buffer of width * rows bytes at device_offset */
    GK_CL_COPY_RECT,  /* one rectangular copy, buffer origin {origin_x, origin_y, 0} */
    GK_CL_COPY_ROWS   /* one plain copy per row */
} gk_cl_copy_kind;

typedef struct gk_cl_copy {
    gk_cl_copy_kind kind;
    size_t origin_x, origin_y; /* GK_CL_COPY_RECT: origin_y * device_pitch + origin_x = device_offset */
} gk_cl_copy;

/* rows rows of width bytes, device_pitch apart from device_offset in the
 * buffer and host_pitch apart on the host (either pitch is ignored for one row). */
gk_cl_copy gk_cl_copy_for(size_t device_offset, size_t device_pitch, size_t host_pitch, size_t width, size_t rows);

#endif
