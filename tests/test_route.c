/* Routing of host-array SGEMM (route_gemm.c) and the CPU BLAS search
 * (host_blas.c): on a CPU device a call that names no kernel runs on the
 * host's optimised CPU BLAS, a named kernel or options->device_only on the
 * device, and both give the reference's results; GEMMKIT_CPU_BLAS_LIB picks
 * the library, "builtin" none, and a gemmkit drop-in is never taken. */
#define _GNU_SOURCE /* RTLD_LOCAL, dlopen */
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "route_gemm.h"
#include "test_support.h"

static gk_sgemm_problem problem(int64_t m, int64_t n, int64_t k, float alpha)
{
    static float a[1], b[1], c[1];
    return (gk_sgemm_problem){.m = m, .n = n, .k = k, .alpha = alpha, .beta = 0.0f, .a = {NULL, 0, m},
                              .b = {NULL, 0, k}, .c = {NULL, 0, m}, .source_a = a, .source_b = b, .source_c = c};
}

static void test_route_decision(void **state)
{
    (void)state;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_device_info(test_ctx, &info), GEMMKIT_SUCCESS);
    const gk_host_blas *blas = gk_host_blas_find();
    printf("CPU BLAS: %s\n", blas ? blas->name : "none");
    const gk_sgemm_problem p = problem(64, 48, 32, 1.0f);
    const gk_host_blas *routed = gk_sgemm_route_host(NULL, &p, gk_sgemm_route_choice(test_ctx, &p));
    if (info.is_gpu || !blas || !blas->optimised) assert_null(routed);
    else assert_ptr_equal(routed, blas);
    /* Whatever the device: the caller's choices keep the call on it. */
    const gemmkit_options named = {.kernel = "direct"}, params = {.params = "WPT=1"}, device = {.device_only = 1};
    assert_null(gk_sgemm_route_host(&named, &p, gk_sgemm_route_choice(test_ctx, &p)));
    assert_null(gk_sgemm_route_host(&params, &p, gk_sgemm_route_choice(test_ctx, &p)));
    assert_null(gk_sgemm_route_host(&device, &p, gk_sgemm_route_choice(test_ctx, &p)));
    const gk_sgemm_problem scale_only = problem(64, 48, 32, 0.0f);
    assert_null(gk_sgemm_route_host(NULL, &scale_only, gk_sgemm_route_choice(test_ctx, &scale_only)));
}

/* Every layout and transpose pair, leading-dimension gaps, beta over NaN
 * and not, through the library's choice and through the device. */
static void test_both_routes_compute_right(void **state)
{
    (void)state;
    static const int64_t shapes[][3] = {{1, 1, 1}, {33, 17, 65}, {128, 96, 70}, {300, 257, 129}};
    const gemmkit_transpose t[] = {GEMMKIT_NO_TRANS, GEMMKIT_TRANS};
    double kernel_ms = -1.0;
    const gemmkit_options choice = {.kernel_ms = &kernel_ms}, device = {.device_only = 1};
    for (int layout = 0; layout < 2; layout++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                    gk_sgemm_case c = {layout ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, t[ta], t[tb], shapes[s][0],
                                       shapes[s][1], shapes[s][2], 1.5f, (s & 1) ? 0.0f : -0.5f, 0, 0, 0};
                    gk_case_complete(&c);
                    c.lda += (int64_t)s * 3;
                    c.ldb += (int64_t)s;
                    c.ldc += (int64_t)s * 2;
                    const gemmkit_options *runs[] = {&choice, &device};
                    for (int r = 0; r < 2; r++) {
                        gk_check_result result;
                        gemmkit_status status = gk_check_run(test_ctx, runs[r], c, &test_rng, 1e9, &result);
                        if (status != GEMMKIT_SUCCESS || !result.passed)
                            print_error("%s (GEMMKIT_SEED=%llu): %s %s\n", r ? "device_only" : "default choice",
                                        (unsigned long long)test_seed, gemmkit_last_error_message(), result.message);
                        assert_int_equal(status, GEMMKIT_SUCCESS);
                        assert_true(result.passed);
                    }
                    assert_true(kernel_ms >= 0.0); /* the BLAS's wall time when routed there */
                }
}

/* The search under GEMMKIT_CPU_BLAS_LIB, in a child (it runs once per
 * process); the child exits 0 when `expect` holds of the library found. */
typedef enum { EXPECT_NONE, EXPECT_OPENBLAS, EXPECT_NOT_DROPIN } expectation;

static void search_with(const char *value, expectation expect, const char *stderr_words)
{
    int pipe_fds[2];
    assert_int_equal(pipe(pipe_fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(pipe_fds[1], 2);
        close(pipe_fds[0]);
        setenv("GEMMKIT_CPU_BLAS_LIB", value, 1);
        const gk_host_blas *blas = gk_host_blas_find();
        /* Where OpenBLAS is installed (scripts/install-deps.sh), it is found. */
        void *openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
        int ok = expect == EXPECT_NONE       ? blas == NULL
               : expect == EXPECT_OPENBLAS   ? !openblas || (blas && strstr(blas->name, "OpenBLAS"))
                                             : !blas || !strstr(blas->name, "gemmkit_blas");
        fprintf(stderr, "found: %s\n", blas ? blas->name : "none");
        _exit(ok ? 0 : 1);
    }
    close(pipe_fds[1]);
    char text[2048];
    ssize_t got, used = 0;
    while ((got = read(pipe_fds[0], text + used, sizeof text - 1 - (size_t)used)) > 0) used += got;
    text[used] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    printf("GEMMKIT_CPU_BLAS_LIB=%s: %s", value, text);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (stderr_words) assert_non_null(strstr(text, stderr_words));
}

static void test_cpu_blas_setting(void **state)
{
    (void)state;
    /* Before this process looks (children inherit what it found). */
    search_with("builtin", EXPECT_NONE, NULL);
    search_with("/no/such/libblas.so", EXPECT_OPENBLAS, "is not a usable BLAS");
    /* A gemmkit drop-in has sgemm_ but would call back into gemmkit. */
    search_with(GEMMKIT_BLAS_LIBRARY, EXPECT_NOT_DROPIN, "is not a usable BLAS");
    search_with("libopenblas.so.0", EXPECT_OPENBLAS, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_blas_setting),
        cmocka_unit_test(test_route_decision),
        cmocka_unit_test(test_both_routes_compute_right),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
