/* The copy bandwidth the roofline is drawn with, measured in the run itself on the benchmark's device:
 * a device-to-device copy through gemmkit's own path (gemmkit_somatcopy_buffers, no transpose), timed by
 * the device, the best of a few. A datasheet's bandwidth is never reached; the same run's copy is what a
 * kernel's loads and stores can reach there and then (clocks, ECC, the driver). */
#include <string.h>

#include "bench.h"
#include "transpose.h"

/* Elements per column: a copy of whole columns, packed (ld = rows), so one contiguous block. */
enum { COPY_ROWS = 2048 };

static int fail(gk_bench_bandwidth *out, const char *what, gemmkit_status status)
{
    snprintf(out->note, sizeof out->note, "%s: %s: %.150s", what, gemmkit_strerror(status),
             gemmkit_last_error_message());
    return -1;
}

int gk_bench_copy_bandwidth(gemmkit_context *ctx, const gemmkit_device_info *info, gk_bench_bandwidth *out)
{
    memset(out, 0, sizeof *out);
    double bytes = info->is_gpu ? GK_BENCH_COPY_BYTES_GPU : GK_BENCH_COPY_BYTES_CPU;
    /* Two buffers of it: within one allocation each and a quarter of the memory in all. */
    if (info->max_alloc_bytes > 0 && bytes > (double)info->max_alloc_bytes) bytes = (double)info->max_alloc_bytes;
    if (info->global_mem_bytes > 0 && 2.0 * bytes > 0.25 * (double)info->global_mem_bytes)
        bytes = 0.125 * (double)info->global_mem_bytes;
    const int64_t cols = (int64_t)(bytes / (4.0 * COPY_ROWS));
    if (cols < 1) {
        snprintf(out->note, sizeof out->note, "the device's memory holds no copy of %d floats", COPY_ROWS);
        return -1;
    }
    const size_t count = (size_t)cols * COPY_ROWS;
    out->bytes = 4.0 * (double)count;
    out->repeat = GK_BENCH_COPY_REPEAT;
    /* The kernel the library runs for it (its omatcopy rows), to name in the header. */
    const gk_transpose_problem problem = {0, COPY_ROWS, cols, 1.0f, {NULL, 0, COPY_ROWS}, {NULL, 0, COPY_ROWS}};
    const gk_kernel_def *def = gk_omatcopy_choose(gk_policy_builtin(), info, &problem);
    snprintf(out->kernel, sizeof out->kernel, "%s", def ? def->name : "");

    gemmkit_buffer *a = NULL, *b = NULL;
    gemmkit_status status = gemmkit_buffer_create(ctx, count, &a);
    if (status == GEMMKIT_SUCCESS) status = gemmkit_buffer_create(ctx, count, &b);
    int rc = status == GEMMKIT_SUCCESS ? 0 : fail(out, "allocating the copy's buffers", status);
    double best = 0.0;
    /* r = -1: the warm-up (builds the kernel, touches the pages). */
    for (int r = -1; r < out->repeat && rc == 0; r++) {
        double total_ms = 0.0;
        const gemmkit_options options = {.total_ms = &total_ms};
        status = gemmkit_somatcopy_buffers(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, COPY_ROWS, cols, 1.0f,
                                           a, 0, COPY_ROWS, b, 0, COPY_ROWS);
        if (status != GEMMKIT_SUCCESS) rc = fail(out, "the copy", status);
        else if (r >= 0 && total_ms > 0.0 && (best == 0.0 || total_ms < best)) best = total_ms;
    }
    gemmkit_buffer_destroy(a);
    gemmkit_buffer_destroy(b);
    if (rc) return rc;
    if (!(best > 0.0)) {
        snprintf(out->note, sizeof out->note, "the device reported no time for the copy");
        return -1;
    }
    out->gbs = 2.0 * out->bytes / (best * 1e6); /* bytes read + written per second, in 1e9 */
    out->measured = 1;
    return 0;
}
