/* `gemmkit bench --plot` (tools/gemmkit/bench_plot.c) on made-up reports: each
 * series drawn in size order, TF32 results on their own panel, a long ladder
 * one panel per document family, and a non-empty PNG when gnuplot is here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "bench.h"

/* One ok result whose call rate is `gflops` (one sample of 2 n^3 flops). */
static void add(gk_bench_report *report, const char *name, const char *kind, const char *label, int64_t n,
                double gflops)
{
    gk_bench_record *r = gk_bench_report_add(report);
    assert_non_null(r);
    snprintf(r->op, sizeof r->op, "sgemm");
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->size = (gk_bench_size)GK_BENCH_SIZE(n, n, n);
    r->work = 2.0 * (double)n * (double)n * (double)n;
    r->count = 1;
    r->total_ms = malloc(sizeof *r->total_ms);
    assert_non_null(r->total_ms);
    r->total_ms[0] = r->work / (gflops * 1e6);
    r->status = GK_BENCH_OK;
}

static void header(gk_bench_report *report)
{
    snprintf(report->title, sizeof report->title, "SGEMM test");
    snprintf(report->device.platform, sizeof report->device.platform, "Test platform");
    snprintf(report->device.name, sizeof report->device.name, "Test GPU");
    snprintf(report->device.backend, sizeof report->device.backend, "opencl");
    snprintf(report->date, sizeof report->date, "2026-01-01T00:00:00Z");
}

/* The `--kernel best --sizes 1024:16384:x2,4097` shape: 4097 measured last. */
static void best_report(gk_bench_report *report)
{
    header(report);
    static const int64_t sizes[] = {1024, 2048, 4096, 8192, 16384, 4097};
    for (int i = 0; i < 6; i++) {
        double scale = sizes[i] == 4097 ? 0.8 : 1.0;
        add(report, "best", "gemmkit", "gemmkit (library dispatch)", sizes[i], 45000.0 * scale);
        add(report, "cublas", "peer", "cuBLAS SGEMM, pure fp32", sizes[i], 50000.0 * scale);
        add(report, "cublas-tf32", "peer", "cuBLAS SGEMM, TF32 tensor cores: NOT fp32 accuracy", sizes[i], 4e5 * scale);
        add(report, "clblast", "peer", "CLBlast SGEMM", sizes[i], 33000.0 * scale);
    }
}

static char *script_of(const gk_bench_report *report)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(gk_bench_plot_script(f, report, "/tmp/never-written.png", "pngcairo"), 0);
    long len = ftell(f);
    assert_true(len > 0);
    char *text = calloc((size_t)len + 1, 1);
    assert_non_null(text);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return text;
}

/* The sizes (first column) of the data block after the plot command whose legend has `title`. */
static int data_block(const char *script, const char *plot_title, double *xs, int max)
{
    const char *plot = script;
    char want[96];
    snprintf(want, sizeof want, "title '%s'", plot_title);
    for (;;) {
        plot = strstr(plot, "\nplot ");
        if (!plot) {
            fail_msg("no plot command draws '%s'", plot_title);
            return 0;
        }
        plot++;
        const char *end = strchr(plot, '\n');
        const char *hit = strstr(plot, want);
        if (hit && hit < end) break;
    }
    /* Count which series of the command it is, then skip that many blocks. */
    const char *hit = strstr(plot, want);
    int index = 0;
    for (const char *p = plot; p < hit; p++) index += strncmp(p, "'-'", 3) == 0;
    const char *data = strchr(plot, '\n') + 1;
    for (int skip = 1; skip < index; skip++) data = strstr(data, "\ne\n") + 3;
    int n = 0;
    while (strncmp(data, "e\n", 2) != 0 && n < max) {
        xs[n++] = strtod(data, NULL);
        data = strchr(data, '\n') + 1;
    }
    return n;
}

static void test_series_in_size_order(void **state)
{
    (void)state;
    gk_bench_report report = {0};
    best_report(&report);
    char *script = script_of(&report);
    double xs[16];
    int n = data_block(script, "best", xs, 16);
    assert_int_equal(n, 6);
    for (int i = 1; i < n; i++)
        if (!(xs[i] > xs[i - 1])) fail_msg("best: size %g drawn after %g", xs[i], xs[i - 1]);
    assert_int_equal(data_block(script, "cublas-tf32", xs, 16), 6);
    free(script);
    gk_bench_report_free(&report);
}

static void test_tf32_on_its_own_panel(void **state)
{
    (void)state;
    gk_bench_report report = {0};
    best_report(&report);
    char *script = script_of(&report);
    assert_non_null(strstr(script, "set multiplot layout 2,1"));
    /* The first panel draws gemmkit and the fp32 peers, not TF32. */
    const char *first = strstr(script, "\nplot ");
    const char *end = strchr(first + 1, '\n');
    const char *tf32 = strstr(first, "'cublas-tf32'");
    assert_non_null(strstr(first, "'best'"));
    assert_true(tf32 > end);
    /* The TF32 panel says what it is before it draws TF32. */
    const char *panel = strstr(script, "TF32 tensor cores: NOT fp32 accuracy");
    assert_non_null(panel);
    assert_true(panel < tf32);
    free(script);
    gk_bench_report_free(&report);
}

static void test_ladder_by_family(void **state)
{
    (void)state;
    gk_bench_report report = {0};
    header(&report);
    char name[64];
    for (int64_t n = 256; n >= 64; n /= 2) {
        for (int i = 1; i <= 8; i++) {
            snprintf(name, sizeof name, "tutorial-%d-step", i);
            add(&report, name, "gemmkit", name, n, 100.0 * i);
        }
        for (int i = 1; i <= 4; i++) {
            snprintf(name, sizeof name, "lecture-%d-step", i);
            add(&report, name, "gemmkit", name, n, 50.0 * i);
        }
        add(&report, "xgemm", "gemmkit", "xgemm", n, 900.0);
        add(&report, "host-seq", "baseline", "host loop", n, 1.0);
        add(&report, "clblast", "peer", "CLBlast SGEMM", n, 1000.0);
    }
    char *script = script_of(&report);
    assert_non_null(strstr(script, "set multiplot layout 3,1"));
    const char *tutorial = strstr(script, "tutorial-* kernels");
    const char *lecture = strstr(script, "lecture-* kernels");
    const char *library = strstr(script, "library kernels, baseline and peers");
    assert_non_null(tutorial);
    assert_non_null(lecture);
    assert_non_null(library);
    assert_true(tutorial < lecture && lecture < library);
    /* The library panel holds xgemm and the baseline; the peer is on every panel. */
    assert_true(strstr(script, "'xgemm'") > library);
    assert_true(strstr(script, "'host-seq'") > library);
    assert_true(strstr(script, "'clblast'") < lecture);
    free(script);
    gk_bench_report_free(&report);
}

static void test_png_written(void **state)
{
    (void)state;
    gk_bench_report report = {0};
    best_report(&report);
    char dir[] = "/tmp/gemmkit-plot-test-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/plot.png", dir);
    char err[GK_BENCH_ERR] = "";
    int rc = gk_bench_write_plot(&report, path, err);
    gk_bench_report_free(&report);
    if (rc != 0 && strstr(err, "gnuplot is missing")) {
        rmdir(dir);
        skip();
    }
    if (rc != 0) fail_msg("plot not written: %s", err);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    if (getenv("GEMMKIT_KEEP_PLOT")) {
        print_message("plot kept: %s\n", path);
    } else {
        unlink(path);
        rmdir(dir);
    }
    assert_int_equal(got, 8);
    assert_memory_equal(magic, "\x89PNG\r\n\x1a\n", 8);
    assert_true(size > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_in_size_order),
        cmocka_unit_test(test_tf32_on_its_own_panel),
        cmocka_unit_test(test_ladder_by_family),
        cmocka_unit_test(test_png_written),
    };
    return cmocka_run_group_tests_name("bench plot", tests, NULL, NULL);
}
