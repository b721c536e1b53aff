/* The BLAS drop-in's measured threshold: without GEMMKIT_BLAS_THRESHOLD the
 * device's blas-threshold line of the tuning database decides (WORK=0: even a
 * small call goes to the device, a CPU device included; WORK=inf: even a
 * large one stays on the CPU), the verbose log says where the threshold came
 * from, GEMMKIT_BLAS_THRESHOLD overrides the line, and a process whose
 * databases hold no line below the default opens no device for small calls.
 * The drop-in makes its context (and reads the lines) once per process, so
 * each case runs in a child forked before this process touches the drop-in
 * or a device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "blas_dropin.h"
#include "check.h"
#include "stderr_capture.h"

void cblas_sgemm(gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int m, int n, int k,
                 float alpha, const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

static char db_path[64];

/* The database: one blas-threshold line with `work` for the device the
 * drop-in opens (device NULL), or for the named device. Runs in the child. */
static int write_db(const char *work, const char *device)
{
    gemmkit_device_info info = {0};
    if (!device) {
        gemmkit_context *ctx = NULL;
        if (gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) return -1;
        gemmkit_context_device_info(ctx, &info);
        gemmkit_context_destroy(ctx);
    } else {
        snprintf(info.backend, sizeof info.backend, "opencl");
        snprintf(info.name, sizeof info.name, "%s", device);
    }
    FILE *f = fopen(db_path, "w");
    if (!f) return -1;
    fprintf(f, "# test\n%s\t%s\tblas-threshold\tWORK=%s\t1.0\t2026-11-23\n", info.backend, info.name, work);
    return fclose(f);
}

/* One n x n x n call through cblas_sgemm, checked; its log line in `log`. 0 when right. */
static int call(int n, char *log, size_t log_size, gk_blas_stats *delta)
{
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *c0 = malloc(ec * sizeof *c0),
          *res = malloc(ec * sizeof *res);
    if (!a || !b || !c0 || !res) return -1;
    gk_rng rng;
    gk_rng_seed(&rng, 7);
    gk_case_fill_inputs(&c, &rng, a, b, c0);
    memcpy(res, c0, ec * sizeof *res);
    gk_blas_stats before, after;
    gk_blas_get_stats(&before);
    stderr_capture capture;
    if (stderr_capture_begin(&capture) != 0) return -1;
    cblas_sgemm(GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, n, n, n, 1.0f, a, n, b, n, 0.0f, res, n);
    stderr_capture_end(&capture, log, log_size);
    fprintf(stderr, "%s", log);
    gk_blas_get_stats(&after);
    delta->cpu_calls = after.cpu_calls - before.cpu_calls;
    delta->device_calls = after.device_calls - before.device_calls;
    gk_check_result check;
    gk_check_sgemm(&c, a, b, c0, res, &check);
    if (!check.passed) fprintf(stderr, "wrong result: %s\n", check.message);
    free(a);
    free(b);
    free(c0);
    free(res);
    return check.passed ? 0 : -1;
}

/* Fails the child (exit 1) with a message when cond is false. */
#define EXPECT(cond, ...)                                                                                             \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "child: expected %s: ", #cond);                                                            \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
            fflush(stderr);                                                                                            \
            _exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

/* Runs `body` in a child process with the drop-in's settings cleared and the
 * log on; the test fails when the child does. */
static void in_child(void (*body)(void))
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        unsetenv("GEMMKIT_BLAS_THRESHOLD");
        setenv("GEMMKIT_BLAS_VERBOSE", "1", 1);
        setenv("GEMMKIT_TUNING_DB", db_path, 1);
        setenv("GEMMKIT_QUIET", "1", 1);
        body();
        fflush(stderr);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void small_call_on_the_device(void)
{
    EXPECT(write_db("0", NULL) == 0, "a database");
    char log[4096];
    gk_blas_stats d;
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    EXPECT(d.device_calls == 1, "the device (log: %s)", log);
    EXPECT(strstr(log, "): device ") && strstr(log, "(threshold 0, measured, tuning database)"), "log: %s", log);
}

/* WORK=0 for the device: a 1000-multiply-add call goes to it, a CPU device too. */
static void test_measured_zero_sends_small_calls_to_the_device(void **state)
{
    (void)state;
    in_child(small_call_on_the_device);
}

static void large_call_on_the_cpu(void)
{
    EXPECT(write_db("inf", NULL) == 0, "a database");
    char log[4096];
    gk_blas_stats d;
    EXPECT(call(128, log, sizeof log, &d) == 0, "a right result"); /* 2097152 > the default 1000000 */
    EXPECT(d.cpu_calls == 1 && d.device_calls == 0, "the CPU (log: %s)", log);
    EXPECT(strstr(log, "cpu (2097152 multiply-adds < threshold inf, measured, tuning database)"), "log: %s", log);
}

/* WORK=inf: the device never won, so a call above the default stays on the CPU. */
static void test_measured_inf_keeps_large_calls_on_the_cpu(void **state)
{
    (void)state;
    in_child(large_call_on_the_cpu);
}

static void explicit_overrides(void)
{
    EXPECT(write_db("inf", NULL) == 0, "a database");
    char log[4096];
    gk_blas_stats d;
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    EXPECT(d.device_calls == 1, "the device (log: %s)", log);
    EXPECT(strstr(log, "(threshold 0, GEMMKIT_BLAS_THRESHOLD)"), "log: %s", log);
    setenv("GEMMKIT_BLAS_THRESHOLD", "1e30", 1);
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    EXPECT(d.cpu_calls == 1, "the CPU (log: %s)", log);
    EXPECT(strstr(log, "cpu (1000 multiply-adds < threshold 1000000000000000019884624838656, GEMMKIT_BLAS_THRESHOLD)"),
           "log: %s", log);
    /* Unset again: the line decides. */
    unsetenv("GEMMKIT_BLAS_THRESHOLD");
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    EXPECT(d.cpu_calls == 1 && strstr(log, "threshold inf, measured, tuning database"), "log: %s", log);
}

/* GEMMKIT_BLAS_THRESHOLD keeps its meaning whatever the line says. */
static void test_explicit_threshold_overrides_the_line(void **state)
{
    (void)state;
    in_child(explicit_overrides);
}

static void no_line_opens_no_device(void)
{
    EXPECT(write_db("0", "some other device") == 0, "a database");
    /* Another device's line lowers the bound below which no device is opened ... */
    char log[4096];
    gk_blas_stats d;
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    /* ... so the device is opened; without a line of its own: the default, and a CPU device is not used by
     * default; with one (builtin.tsv has lines for some GPUs), that line. */
    EXPECT(d.cpu_calls == 1, "the CPU (log: %s)", log);
    gemmkit_context *ctx = NULL;
    double work = 0.0;
    const char *source = NULL;
    int measured = 0;
    if (gemmkit_context_create(&ctx, NULL) == GEMMKIT_SUCCESS) {
        measured = gemmkit_context_blas_threshold(ctx, &work, &source);
        gemmkit_context_destroy(ctx);
    }
    char expected[160];
    if (measured)
        snprintf(expected, sizeof expected, "cpu (1000 multiply-adds < threshold %.0f, measured, %s)", work, source);
    else
        snprintf(expected, sizeof expected, "cpu (1000 multiply-adds < threshold 1000000, default)");
    EXPECT(strstr(log, expected), "%s in the log: %s", expected, log);
}

static void no_line_at_all(void)
{
    FILE *f = fopen(db_path, "w");
    EXPECT(f && fclose(f) == 0, "an empty database");
    char log[4096];
    gk_blas_stats d;
    EXPECT(call(10, log, sizeof log, &d) == 0, "a right result");
    EXPECT(d.cpu_calls == 1, "the CPU (log: %s)", log);
    /* No line anywhere below the default: the call is decided without opening a device. */
    EXPECT(strstr(log, "cpu (1000 multiply-adds < threshold 1000000, default; no device opened yet)"), "log: %s",
           log);
}

/* Without any line below the default a small call opens no device (as before
 * measured lines existed); a line for another device only costs the opening. */
static void test_small_calls_open_a_device_only_for_a_lower_line(void **state)
{
    (void)state;
    in_child(no_line_at_all);
    in_child(no_line_opens_no_device);
}

int main(void)
{
    snprintf(db_path, sizeof db_path, "/tmp/gemmkit-blas-measured-%d.tsv", (int)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measured_zero_sends_small_calls_to_the_device),
        cmocka_unit_test(test_measured_inf_keeps_large_calls_on_the_cpu),
        cmocka_unit_test(test_explicit_threshold_overrides_the_line),
        cmocka_unit_test(test_small_calls_open_a_device_only_for_a_lower_line),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(db_path);
    char lock[80];
    snprintf(lock, sizeof lock, "%s.lock", db_path);
    unlink(lock);
    return failed;
}
