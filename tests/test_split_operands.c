/* The split step of 3xTF32 on split operands (split.cl, the "split" helper that
 * plans for xgemm-wgmma-3xtf32-split run before the kernel): for each element
 * x of the source, big = tf32(x) as cvt.rna.tf32.f32 rounds (the host model,
 * tools/check/tf32_model.h) and, a matrix further, small = tf32(x - big), bit
 * for bit; from a source at an offset with an odd leading dimension into
 * another buffer, and in place; nothing outside the two matrices written. The
 * kernel that reads them is sm_90a-only: the GPU suite runs it. */
#include "plan.h"
#include "test_support.h"
#include "tf32_model.h"

/* Splits the rows x cols of x (offset off, leading dimension ldx) into y (ldy), in place when in_place
 * (then x is y and ldy = ldx), and checks every element. */
static void check_split(int64_t rows, int64_t cols, int64_t off, int64_t ldx, int64_t ldy, int in_place)
{
    const size_t nx = (size_t)(off + ldx * cols), ny = (size_t)(2 * ldy * cols) + 7;
    float *x = malloc(nx * sizeof *x), *y = malloc(ny * sizeof *y), *before = malloc(ny * sizeof *before);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(before);
    /* Full 24-bit significands (the uniform draws are multiples of 2^-23: their remainders mostly fit TF32
     * already), some at wide exponents too. */
    for (size_t i = 0; i < nx; i++) {
        const float hi = gk_rng_uniform(&test_rng), lo = gk_rng_uniform(&test_rng);
        x[i] = (hi + lo * 0x1p-12f) * (i % 5 == 0 ? 0x1p20f : 1.0f);
    }
    gk_fill_random(&test_rng, before, ny);
    if (in_place) memcpy(before, x, nx * sizeof *x);
    gemmkit_buffer *dx, *dy;
    assert_int_equal(gemmkit_buffer_create(test_ctx, nx, &dx), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, ny, &dy), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dx, 0, nx, x), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_write(test_ctx, dy, 0, ny, before), GEMMKIT_SUCCESS);
    const gk_matrix source = {in_place ? dy->mem : dx->mem, (size_t)off, ldx};
    const gk_operands split = {.m = rows, .n = cols, .a = source, .b = {dy->mem, 0, ldy}};
    gk_plan plan = {0};
    assert_int_equal(gk_plan_add_helper(test_ctx, &plan, GK_HELPER_SPLIT, &split, 1), GEMMKIT_SUCCESS);
    assert_int_equal(gk_plan_execute(test_ctx, &plan, NULL, NULL), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_read(test_ctx, dy, 0, ny, y), GEMMKIT_SUCCESS);
    const float *src = in_place ? before : x;
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < ldy; r++) {
            const size_t at = (size_t)(r + c * ldy), small_at = at + (size_t)(cols * ldy);
            if (r >= rows) { /* rows past the matrix: as they were (in place, the source's own) */
                assert_memory_equal(&y[at], &before[at], sizeof(float));
                assert_memory_equal(&y[small_at], &before[small_at], sizeof(float));
                continue;
            }
            const float v = src[off + r + c * ldx], big = gk_tf32_rna(v), small = gk_tf32_rna(v - big);
            if (memcmp(&y[at], &big, sizeof big) != 0 || memcmp(&y[small_at], &small, sizeof small) != 0)
                fail_msg("seed %llu: (%lld, %lld) of %g: big %a small %a, want %a and %a", (unsigned long long)test_seed,
                         (long long)r, (long long)c, v, y[at], y[small_at], big, small);
        }
    assert_memory_equal(&y[2 * ldy * cols], &before[2 * ldy * cols], 7 * sizeof(float)); /* past both */
    gemmkit_buffer_destroy(dx);
    gemmkit_buffer_destroy(dy);
    free(x);
    free(y);
    free(before);
}

static void test_split_into_another_buffer(void **state)
{
    (void)state;
    check_split(37, 21, 3, 41, 40, 0);  /* odd source, aligned destination (the plan's) */
    check_split(130, 5, 0, 130, 132, 0); /* more rows than one work-group's 64 */
    check_split(1, 1, 0, 1, 4, 0);
}

static void test_split_in_place(void **state)
{
    (void)state;
    check_split(33, 19, 0, 36, 36, 1); /* after a transposing copy: rows padded to whole float4 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_into_another_buffer),
        cmocka_unit_test(test_split_in_place),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
