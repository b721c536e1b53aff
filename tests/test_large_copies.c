/* Copies into and out of one buffer at large byte offsets (issue 34): NVIDIA's
 * OpenCL wrapped a rectangular copy's origin at 4 GiB, so every operand past
 * 4 GiB was silently wrong on that backend.
 *   - The OpenCL backend's copy plan (cl_copy.h) as a pure function: no
 *     rectangle it issues has an origin or a pitch past what the drivers keep.
 *   - Every backend present, every device: whole-buffer, block and row-by-row
 *     copies, checked byte for byte against a pattern of the full 64-bit index
 *     (a wrap shows). On GPUs the buffer is 4.75 GiB (past the wrap); on PoCL
 *     (at most 2 GiB a buffer) a smaller one takes the same paths.
 *   - On a GPU context: an SGEMM on host arrays with A of 5.7 GB, checked
 *     against float64 on sampled elements.
 *   - The 32-bit index limits the planner keeps (issue 34's audit): a packed
 *     kernel whose padded copies would pass 2^31-1 floats is refused when named
 *     (here, on any device) and replaced by the no-copy kernel when the policy
 *     chose it; a batch of more than 2^30 matrices runs in several launches;
 *     a batch whose last C ends past 2^31-1 floats is refused (GPU only: the
 *     buffers take 6-26 GB). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend.h"
#include "check.h"
#include "cl_copy.h"
#include "gemmkit.h"
#include "test_backends.h"

#define GIB ((uint64_t)1 << 30)

/* ---- the copy plan */

static void assert_rect_safe(size_t offset, size_t pitch, size_t host_pitch, size_t width, size_t rows)
{
    const gk_cl_copy c = gk_cl_copy_for(offset, pitch, host_pitch, width, rows);
    if (c.kind != GK_CL_COPY_RECT) return;
    assert_true(c.origin_y * pitch + c.origin_x == offset);
    assert_true(c.origin_x + width <= pitch);
    assert_true(pitch <= GK_CL_RECT_PITCH_MAX && host_pitch <= GK_CL_RECT_PITCH_MAX);
}

static void test_copy_plan(void **state)
{
    (void)state;
    /* One row, or rows contiguous on both sides: a plain copy, whatever the offset. */
    assert_int_equal(gk_cl_copy_for(6 * GIB, 1000, 1000, 32 << 20, 1).kind, GK_CL_COPY_PLAIN);
    assert_int_equal(gk_cl_copy_for(6 * GIB, 4096, 4096, 4096, 1000).kind, GK_CL_COPY_PLAIN);
    /* A block past 4 GiB: whole rows of the pitch plus a remainder below it. */
    gk_cl_copy c = gk_cl_copy_for(6 * GIB + 12, 400000, 8000, 8000, 64);
    assert_int_equal(c.kind, GK_CL_COPY_RECT);
    assert_true(c.origin_y * 400000 + c.origin_x == 6 * GIB + 12);
    assert_true(c.origin_x < 400000);
    /* Pitches past 2^31-1 on either side, or rows running past their pitch: one copy per row. */
    assert_int_equal(gk_cl_copy_for(0, (size_t)3 << 30, 64, 64, 2).kind, GK_CL_COPY_ROWS);
    assert_int_equal(gk_cl_copy_for(0, 64, (size_t)3 << 30, 64, 2).kind, GK_CL_COPY_ROWS);
    assert_int_equal(gk_cl_copy_for(96, 128, 64, 64, 2).kind, GK_CL_COPY_ROWS);
    assert_int_equal(gk_cl_copy_for(64, 128, 64, 64, 2).kind, GK_CL_COPY_RECT);
    /* Random blocks, offsets up to 16 GiB. */
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    for (int i = 0; i < 100000; i++) {
        const double u = (gk_rng_uniform(&rng) + 1) / 2, v = (gk_rng_uniform(&rng) + 1) / 2;
        const size_t pitch = 4 + (size_t)(u * u * u * 3e9), width = 1 + (size_t)(v * (double)pitch);
        const size_t offset = (size_t)((gk_rng_uniform(&rng) + 1) * 8 * (double)GIB);
        const size_t rows = 1 + (size_t)((gk_rng_uniform(&rng) + 1) * 500);
        assert_rect_safe(offset, pitch, width, width, rows);
        assert_rect_safe(offset, pitch, pitch, width, rows);
    }
}

/* ---- copies on every backend */

static uint32_t pattern(uint64_t i, uint32_t salt) { return (uint32_t)(i * 2654435761u) ^ (uint32_t)(i >> 32) ^ salt; }

static void fill(uint32_t *x, uint64_t first, uint64_t count, uint32_t salt)
{
    for (uint64_t i = 0; i < count; i++) x[i] = pattern(first + i, salt);
}

/* Elements [first, first + count) of `got` (starting at element `first`) against the pattern. */
static void assert_pattern(const char *what, const uint32_t *got, uint64_t first, uint64_t count, uint32_t salt)
{
    for (uint64_t i = 0; i < count; i++)
        if (got[i] != pattern(first + i, salt))
            fail_msg("%s: element %llu (byte %llu) is %08x, not %08x", what, (unsigned long long)(first + i),
                     (unsigned long long)(4 * (first + i)), got[i], pattern(first + i, salt));
}


/* A block of `rows` rows of `width` elements, `pitch` elements apart from element `at`: written from a tight
 * host array, then the whole buffer read back (the block new, everything else as before), then the block read
 * back alone. */
static void block_round_trip(const gk_backend_ops *ops, gk_device *dev, gk_mem *mem, uint32_t *whole, uint64_t n,
                             uint64_t at, uint64_t pitch, uint64_t width, uint64_t rows, uint32_t salt)
{
    char what[160];
    snprintf(what, sizeof what, "block of %llu rows x %llu at element %llu, pitch %llu", (unsigned long long)rows,
             (unsigned long long)width, (unsigned long long)at, (unsigned long long)pitch);
    uint32_t *block = malloc(width * rows * 4);
    assert_non_null(block);
    for (uint64_t j = 0; j < rows; j++) fill(block + j * width, at + j * pitch, width, salt);
    const gk_rect r = {width * 4, rows, at * 4, pitch * 4, width * 4};
    assert_int_equal(ops->write_rect(dev, mem, &r, block), GEMMKIT_SUCCESS);
    assert_int_equal(ops->read(dev, mem, 0, n * 4, whole), GEMMKIT_SUCCESS);
    uint64_t next = 0;
    for (uint64_t j = 0; j < rows; j++) {
        const uint64_t row = at + j * pitch;
        assert_pattern(what, whole + next, next, row - next, 0);
        assert_pattern(what, whole + row, row, width, salt);
        next = row + width;
    }
    assert_pattern(what, whole + next, next, n - next, 0);
    memset(block, 0, width * rows * 4);
    assert_int_equal(ops->read_rect(dev, mem, &r, block), GEMMKIT_SUCCESS);
    for (uint64_t j = 0; j < rows; j++) assert_pattern(what, block + j * width, at + j * pitch, width, salt);
    /* The buffer as it was, for the next block. */
    for (uint64_t j = 0; j < rows; j++) fill(block + j * width, at + j * pitch, width, 0);
    assert_int_equal(ops->write_rect(dev, mem, &r, block), GEMMKIT_SUCCESS);
    free(block);
}

static void copies_on(const backend_case *b, int index, const gemmkit_device_info *info)
{
    const gk_backend_ops *ops = b->ops();
    /* Past 4 GiB where the device allows it; a GPU short of that is skipped, not tested small. */
    const uint64_t want = info->is_gpu ? 4 * GIB + 3 * (GIB / 4) : (uint64_t)96 << 20;
    if (info->max_alloc_bytes < want) {
        print_message("  %s: one buffer of %llu bytes is past its %zu: skipped\n", info->name,
                      (unsigned long long)want, info->max_alloc_bytes);
        return;
    }
    const uint64_t n = want / 4;
    gk_device *dev = NULL;
    gk_mem *mem = NULL;
    assert_int_equal(ops->open(index, &dev), GEMMKIT_SUCCESS);
    assert_int_equal(ops->alloc(dev, n * 4, &mem), GEMMKIT_SUCCESS);
    uint32_t *host = malloc(n * 4), *back = malloc(n * 4);
    assert_non_null(host);
    assert_non_null(back);

    /* The whole buffer, both ways; then a piece at an odd offset near the end. */
    fill(host, 0, n, 0);
    assert_int_equal(ops->write(dev, mem, 0, n * 4, host), GEMMKIT_SUCCESS);
    memset(back, 0, n * 4);
    assert_int_equal(ops->read(dev, mem, 0, n * 4, back), GEMMKIT_SUCCESS);
    assert_pattern("whole buffer", back, 0, n, 0);
    const uint64_t tail_at = n - n / 5 + 3, tail = n / 5 - 7;
    memset(back, 0, tail * 4);
    assert_int_equal(ops->read(dev, mem, tail_at * 4, tail * 4, back), GEMMKIT_SUCCESS);
    assert_pattern("piece near the end", back, tail_at, tail, 0);

    /* Blocks in the last fifth: a matrix view (rows within the pitch), a tight one, rows running past
     * their pitch, and (where the buffer holds it) a pitch past 2^31-1 bytes. */
    const uint64_t late = n - n / 5 + 1;
    block_round_trip(ops, dev, mem, back, n, late, 100003, 70001, (n - late - 70001) / 100003, 0x1111u);
    block_round_trip(ops, dev, mem, back, n, late + 5, 4096, 4096, (n - late - 5) / 4096 - 1, 0x2222u);
    block_round_trip(ops, dev, mem, back, n, late - late % 333 + 323, 333, 300, 999, 0x3333u); /* 323 + 300 > 333 */
    const uint64_t wide_pitch = ((uint64_t)1 << 29) + 17; /* elements: 2 GiB + 68 bytes */
    if (n > wide_pitch + 1000) block_round_trip(ops, dev, mem, back, n, 11, wide_pitch, 1000, 2, 0x4444u);

    ops->release(mem);
    ops->close(dev);
    free(host);
    free(back);
}

static void test_copies(void **state) { run_on_every_device(state, copies_on); }

/* ---- one SGEMM on host arrays with A past 4 GiB, on a GPU context */

static void test_sgemm_large_a(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    gemmkit_device_info info;
    if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS ||
        gemmkit_context_device_info(ctx, &info) != GEMMKIT_SUCCESS || !info.is_gpu ||
        info.max_alloc_bytes < 6 * GIB) {
        print_message("skipping: no GPU context that holds 6 GiB in one buffer\n");
        gemmkit_context_destroy(ctx);
        skip();
    }
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 49592, 2, 28747, 1.0f, 0.5f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * 4), *b = malloc(eb * 4), *c0 = malloc(ec * 4), *out = malloc(ec * 4);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c0);
    assert_non_null(out);
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_case_fill_inputs(&c, &rng, a, b, c0);
    memcpy(out, c0, ec * 4);
    assert_int_equal(gemmkit_sgemm(ctx, c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, c.alpha, a, c.lda, b, c.ldb,
                                   c.beta, out, c.ldc),
                     GEMMKIT_SUCCESS);
    gk_check_result check;
    gk_check_sgemm_sampled(&c, a, b, c0, out, 512, &rng, &check);
    if (!check.passed) fail_msg("%s", check.message);
    free(a), free(b), free(c0), free(out);
    gemmkit_context_destroy(ctx);
}

/* ---- the planner's 32-bit limits */

static gemmkit_context *gpu_context(size_t bytes)
{
    gemmkit_context *ctx = NULL;
    gemmkit_device_info info;
    if (gemmkit_context_create(&ctx, NULL) == GEMMKIT_SUCCESS &&
        gemmkit_context_device_info(ctx, &info) == GEMMKIT_SUCCESS && info.is_gpu && info.max_alloc_bytes >= bytes)
        return ctx;
    gemmkit_context_destroy(ctx);
    return NULL;
}

/* xgemm named for 1 x 1 x (2^24 + 1): A padded to 128 rows would be 128 x 2^24+ floats. */
static void test_named_packed_refused(void **state)
{
    (void)state;
    gemmkit_context *ctx = NULL;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    const int64_t k = ((int64_t)1 << 24) + 1;
    float *a = malloc((size_t)k * 4), *b = malloc((size_t)k * 4), c = 7.0f;
    assert_non_null(a);
    assert_non_null(b);
    gk_fill_value(a, (size_t)k, 1.0f);
    gk_fill_value(b, (size_t)k, 1.0f);
    const gemmkit_options options = {.kernel = "xgemm", .device_only = 1};
    assert_int_equal(gemmkit_sgemm_ex(ctx, &options, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 1, 1, k,
                                      1.0f, a, 1, b, k, 0.0f, &c, 1),
                     GEMMKIT_ERROR_SIZE_OVERFLOW);
    assert_non_null(strstr(gemmkit_last_error_message(), "2^31-1"));
    assert_true(c == 7.0f);
    free(a), free(b);
    gemmkit_context_destroy(ctx);
}

/* A device buffer of count floats, element i = pattern-derived value in [-1, 1). */
static gemmkit_buffer *random_buffer(gemmkit_context *ctx, size_t count, uint32_t salt, float **host)
{
    gemmkit_buffer *buf = NULL;
    assert_int_equal(gemmkit_buffer_create(ctx, count, &buf), GEMMKIT_SUCCESS);
    float *x = malloc(count * 4);
    assert_non_null(x);
    for (size_t i = 0; i < count; i++) x[i] = (float)(pattern(i, salt) >> 8) * (2.0f / 16777216.0f) - 1.0f;
    assert_int_equal(gemmkit_buffer_write(ctx, buf, 0, count, x), GEMMKIT_SUCCESS);
    if (host) *host = x;
    else free(x);
    return buf;
}

/* 46300 x 46300 x 46380: every span below 2^31, the policy's packed kernel's padded A (46336 x 46384) not. */
static void test_policy_packed_falls_back(void **state)
{
    (void)state;
    const int64_t m = 46300, n = 46300, k = 46380;
    gemmkit_context *ctx = gpu_context((size_t)(k * n) * 4);
    if (!ctx) {
        print_message("skipping: no GPU context that holds 8.6 GB in one buffer\n");
        skip();
    }
    float *a, *b, *c;
    gemmkit_buffer *ba = random_buffer(ctx, (size_t)(m * k), 1, &a), *bb = random_buffer(ctx, (size_t)(k * n), 2, &b);
    gemmkit_buffer *bc = random_buffer(ctx, (size_t)(m * n), 3, NULL);
    assert_int_equal(gemmkit_sgemm_buffers(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k,
                                           1.0f, ba, 0, m, bb, 0, k, 0.0f, bc, 0, m),
                     GEMMKIT_SUCCESS);
    c = malloc((size_t)(m * n) * 4);
    assert_non_null(c);
    assert_int_equal(gemmkit_buffer_read(ctx, bc, 0, (size_t)(m * n), c), GEMMKIT_SUCCESS);
    gk_sgemm_case kase = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, 0.0f, m, k, m};
    gk_check_result check;
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_check_sgemm_sampled(&kase, a, b, c, c, 256, &rng, &check);
    if (!check.passed) fail_msg("%s", check.message);
    gemmkit_buffer_destroy(ba), gemmkit_buffer_destroy(bb), gemmkit_buffer_destroy(bc);
    free(a), free(b), free(c);
    gemmkit_context_destroy(ctx);
}

/* 1.5e9 matrices of 1 x 1 x 1 (C of 6 GB): more than one launch of 2^30; and a batch whose last C ends past
 * 2^31-1 floats, refused before anything runs. */
static void test_batches_past_32_bits(void **state)
{
    (void)state;
    const int64_t batch = 1500000000;
    gemmkit_context *ctx = gpu_context((size_t)batch * 4);
    if (!ctx) {
        print_message("skipping: no GPU context that holds 6 GB in one buffer\n");
        skip();
    }
    float *a, *b, *c0;
    gemmkit_buffer *ba = random_buffer(ctx, 1, 4, &a), *bb = random_buffer(ctx, 1, 5, &b);
    gemmkit_buffer *bc = random_buffer(ctx, (size_t)batch, 6, &c0);
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                           GEMMKIT_NO_TRANS, 1, 1, 1, 1.0f, ba, 0, 1, 0, bb, 0, 1, 0,
                                                           0.5f, bc, 0, 1, 1, batch),
                     GEMMKIT_SUCCESS);
    float *c = malloc((size_t)batch * 4);
    assert_non_null(c);
    assert_int_equal(gemmkit_buffer_read(ctx, bc, 0, (size_t)batch, c), GEMMKIT_SUCCESS);
    for (int64_t z = 0; z < batch; z += z < batch - 1000 ? 99991 : 1) {
        const double want = (double)a[0] * b[0] + 0.5 * c0[z];
        if (fabs(c[z] - want) > 1e-6 * (fabs(want) + 1))
            fail_msg("matrix %lld: C = %g, want %g", (long long)z, c[z], want);
    }
    /* C = 2 C (alpha 0: one scale step per matrix) on 2^21 columns of 1024 rows from row 512: the last ends at
     * 2^31 + 511 floats. */
    gemmkit_buffer_destroy(bc);
    const int64_t rows = 1024, columns = (int64_t)1 << 21;
    assert_int_equal(gemmkit_buffer_create(ctx, (size_t)(rows * columns + 512), &bc), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_sgemm_strided_batched_buffers(ctx, NULL, GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS,
                                                           GEMMKIT_NO_TRANS, rows, 1, 1, 0.0f, NULL, 0, rows, 0, NULL,
                                                           0, 1, 0, 2.0f, bc, 512, rows, rows, columns),
                     GEMMKIT_ERROR_SIZE_OVERFLOW);
    gemmkit_buffer_destroy(ba), gemmkit_buffer_destroy(bb), gemmkit_buffer_destroy(bc);
    free(a), free(b), free(c0), free(c);
    gemmkit_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_plan),
        cmocka_unit_test_setup(test_copies, set_opencl),
        cmocka_unit_test_setup(test_copies, set_cuda),
        cmocka_unit_test(test_sgemm_large_a),
        cmocka_unit_test(test_named_packed_refused),
        cmocka_unit_test(test_policy_packed_falls_back),
        cmocka_unit_test(test_batches_past_32_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
