/* The same small OpenCL C kernels on every backend present (OpenCL here,
 * CUDA through NVRTC and cl_to_cuda.h on an NVIDIA machine), checked on the
 * host: work-item functions, local memory and pointers to it, barriers,
 * vector types and literals, vload/vstore, float4 pointer casts, math.
 * A backend without devices is skipped. */
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
#include "gemmkit.h"
#include "test_backends.h"

#define LX 8
#define LY 4
#define GROUPS_X 3
#define GROUPS_Y 2
#define OUT_PER_ITEM 16

static const char semantics_source[] =
    "#ifndef LX\n#define LX 1\n#endif\n"
    "typedef float4 floatX;\n"
    "float twice(float x) { return 2.0f * x; }\n"
    "__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))\n"
    "void semantics(const int n, const __global float* restrict A, __global float* out, const float alpha) {\n"
    "    const int gx = get_global_id(0), gy = get_global_id(1);\n"
    "    const int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    const int id = gy * (int)get_global_size(0) + gx;\n"
    "    __local float tile[LY][LX];\n"
    "    tile[ly][lx] = A[id];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    __local float* row = &tile[ly][0];\n"
    "    float4 v = vload4(id, A + 1);\n"
    "    floatX lit = (floatX)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "    float4 r = fma(v, lit, (float4)(alpha));\n"
    "    float8 w = (float8)(r, v * 2.0f);\n"
    "    float2 h = r.hi - r.lo;\n"
    "    __global float* o = out + id * 16;\n"
    "    o[0] = row[LX - 1 - lx];\n"
    "    o[1] = r.x; o[2] = r.y; o[3] = r.s2; o[4] = r.w;\n"
    "    o[5] = w.s4 + w.s7;\n"
    "    o[6] = dot(v, lit);\n"
    "    o[7] = (float)(get_group_id(0) + 10 * get_group_id(1));\n"
    "    o[8] = (float)(get_num_groups(0) + 100 * get_local_size(1)) + h.x + twice(h.y);\n"
    "    vstore4(r * alpha, 0, o + 9);\n"
    "    o[13] = as_float(as_int(alpha)) + (float)n;\n"
    "    o[14] = mad(v.x, v.y, v.z);\n"
    "    o[15] = clamp(v.w, -0.5f, 0.5f);\n"
    "}\n"
    "// Aligned float4 traffic through pointer casts (the tutorial's floatX kernels).\n"
    "__kernel void scale4(const __global float* A, __global float* B, const float alpha) {\n"
    "    const int i = get_global_id(0);\n"
    "    const float4 v = ((const __global float4*)A)[i];\n"
    "    ((__global float4*)B)[i] = v * alpha + (float4)(0.0f, 1.0f, 2.0f, 3.0f);\n"
    "}\n";


/* Expected outputs of `semantics` for work-item (gx, gy); tolerances cover fma vs mul+add. */
static void expected_item(const float *a, int gx, int gy, float alpha, int n, float o[OUT_PER_ITEM])
{
    const int global_x = LX * GROUPS_X, id = gy * global_x + gx, lx = gx % LX;
    const float *v = a + 1 + 4 * id;
    const float lit[4] = {1, 2, 3, 4};
    float r[4];
    for (int i = 0; i < 4; i++) r[i] = v[i] * lit[i] + alpha;
    o[0] = a[gy * global_x + (gx - lx) + (LX - 1 - lx)];
    for (int i = 0; i < 4; i++) o[1 + i] = r[i];
    o[5] = 2 * v[0] + 2 * v[3];
    o[6] = v[0] * 1 + v[1] * 2 + v[2] * 3 + v[3] * 4;
    o[7] = (float)(gx / LX + 10 * (gy / LY));
    o[8] = (float)(GROUPS_X + 100 * LY) + (r[2] - r[0]) + 2 * (r[3] - r[1]);
    for (int i = 0; i < 4; i++) o[9 + i] = r[i] * alpha;
    o[13] = alpha + (float)n;
    o[14] = v[0] * v[1] + v[2];
    o[15] = v[3] < -0.5f ? -0.5f : v[3] > 0.5f ? 0.5f : v[3];
}

static void assert_close(const char *backend, const char *what, int index, float got, float want)
{
    if (!(fabsf(got - want) <= 1e-5f * (1.0f + fabsf(want))))
        fail_msg("%s: %s[%d] = %.9g, expected %.9g", backend, what, index, got, want);
}

static void run_on(const backend_case *b, int device_index, const gemmkit_device_info *info)
{
    (void)info;
    const gk_backend_ops *ops = b->ops();
    gk_device *dev = NULL;
    gk_program *prog = NULL;
    gk_mem *ma = NULL, *mout = NULL;
    char *log = NULL;
    const int items = LX * GROUPS_X * LY * GROUPS_Y, n = 7;
    const size_t a_count = (size_t)items * 4 + 8, out_count = (size_t)items * OUT_PER_ITEM;
    float *a = malloc(a_count * sizeof *a), *out = malloc(out_count * sizeof *out);
    assert_non_null(a);
    assert_non_null(out);
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    gk_fill_random(&rng, a, a_count);
    gk_fill_value(out, out_count, NAN);
    const float alpha = 0.75f;

    assert_int_equal(ops->open(device_index, &dev), GEMMKIT_SUCCESS);
    const gk_define defines[] = {{"LX", LX}, {"LY", LY}};
    gemmkit_status status = ops->build(dev, semantics_source, defines, 2, &prog, &log);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s build: %s\n%s", b->name, gemmkit_last_error_message(), log ? log : "");
    assert_int_equal(ops->alloc(dev, a_count * sizeof *a, &ma), GEMMKIT_SUCCESS);
    assert_int_equal(ops->alloc(dev, out_count * sizeof *out, &mout), GEMMKIT_SUCCESS);
    assert_int_equal(ops->write(dev, ma, 0, a_count * sizeof *a, a), GEMMKIT_SUCCESS);
    assert_int_equal(ops->write(dev, mout, 0, out_count * sizeof *out, out), GEMMKIT_SUCCESS);

    gk_arg args[] = {GK_INT(n), GK_MEM(ma), GK_MEM(mout), GK_FLOAT(alpha)};
    gk_launch launch = {"semantics", 2, {LX * GROUPS_X, LY * GROUPS_Y}, {LX, LY}, args, 4, 0};
    double ms = 0.0;
    status = ops->launch(dev, prog, &launch, &ms);
    if (status != GEMMKIT_SUCCESS) fail_msg("%s launch: %s", b->name, gemmkit_last_error_message());
    assert_true(ms >= 0.0);
    assert_int_equal(ops->finish(dev), GEMMKIT_SUCCESS);
    assert_int_equal(ops->read(dev, mout, 0, out_count * sizeof *out, out), GEMMKIT_SUCCESS);
    for (int gy = 0; gy < LY * GROUPS_Y; gy++)
        for (int gx = 0; gx < LX * GROUPS_X; gx++) {
            float want[OUT_PER_ITEM];
            expected_item(a, gx, gy, alpha, n, want);
            const int id = gy * LX * GROUPS_X + gx;
            for (int k = 0; k < OUT_PER_ITEM; k++)
                assert_close(b->name, "semantics", id * OUT_PER_ITEM + k, out[id * OUT_PER_ITEM + k], want[k]);
        }

    /* scale4 over the first 4 * items floats, read back at a byte offset. */
    gk_fill_value(out, out_count, NAN);
    assert_int_equal(ops->write(dev, mout, 0, out_count * sizeof *out, out), GEMMKIT_SUCCESS);
    gk_arg args4[] = {GK_MEM(ma), GK_MEM(mout), GK_FLOAT(alpha)};
    gk_launch launch4 = {"scale4", 1, {(size_t)items, 1}, {LX, 1}, args4, 3, 0};
    assert_int_equal(ops->launch(dev, prog, &launch4, NULL), GEMMKIT_SUCCESS);
    const size_t skip = 5; /* floats */
    assert_int_equal(ops->read(dev, mout, skip * sizeof *out, ((size_t)items * 4 - skip) * sizeof *out, out),
                     GEMMKIT_SUCCESS);
    for (size_t i = skip; i < (size_t)items * 4; i++)
        assert_close(b->name, "scale4", (int)i, out[i - skip], a[i] * alpha + (float)(i % 4));

    /* A global size that is not a multiple of the work-group size is refused, not run. */
    gk_launch bad = launch4;
    bad.global[0] = (size_t)items + 1;
    assert_int_not_equal(ops->launch(dev, prog, &bad, NULL), GEMMKIT_SUCCESS);

    ops->release(ma);
    ops->release(mout);
    ops->release_program(prog);

    /* A compile error comes back as BUILD_FAILED with the compiler's log. */
    log = NULL;
    prog = NULL;
    status = ops->build(dev, "__kernel void broken(__global float* A) { A[0] = no_such_name; }\n", NULL, 0, &prog, &log);
    assert_int_equal(status, GEMMKIT_ERROR_BUILD_FAILED);
    assert_null(prog);
    assert_non_null(log);
    assert_non_null(strstr(log, "no_such_name"));
    free(log);
    ops->close(dev);
    free(a);
    free(out);
}

static void test_backend(void **state) { run_on_every_device(state, run_on); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_backend, set_opencl),
        cmocka_unit_test_setup(test_backend, set_cuda),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
