/* The benchmark's whole truth (issue 35): the roofline column (%roof: each result's call rate over the
 * least of the fp32 peak and the copy bandwidth measured in the run times its flops per byte), its
 * summary over the shapes of at least 2^27 multiply-adds, and --candidates' bookkeeping (the summary's
 * counts, the TSV file) on made-up results; then the command end to end on this machine's device. The
 * candidates' CLI run against the cost model is tests/scripts/bench_candidates.sh. */
#include <math.h>
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

#include "test_workdir.h"
#include "bench.h"

#ifdef GEMMKIT_HAVE_JANSSON
#include <jansson.h>
#endif

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12; }

static void test_intensity(void **state)
{
    (void)state;
    /* 2 n^3 flops over 3 n^2 floats (A, B read, C written): n / 6 flops per byte. */
    assert_true(close_to(gk_bench_intensity(1024, 1024, 1024, 0), 1024.0 / 6.0));
    /* C read too (beta != 0): 4 n^2 floats. */
    assert_true(close_to(gk_bench_intensity(1024, 1024, 1024, 1), 1024.0 / 8.0));
    /* A matrix-vector-like product reads the large operand once: about half a flop per byte. */
    const double mv = gk_bench_intensity(1, 8192, 8192, 0);
    assert_true(close_to(mv, 2.0 * 8192 * 8192 / (4.0 * (8192 + 8192.0 * 8192 + 8192))));
    assert_true(mv > 0.49 && mv < 0.5);
    /* Not symmetric in its operands' roles when C is read: M N counted twice. */
    assert_true(close_to(gk_bench_intensity(100, 10, 1000, 1), 2.0 * 100 * 10 * 1000 / (4.0 * (100000 + 10000 + 2000))));
    assert_true(gk_bench_intensity(0, 10, 10, 0) == 0.0);
}

static void test_bound(void **state)
{
    (void)state;
    /* Memory-bound: bandwidth x intensity under the peak. */
    assert_true(close_to(gk_bench_roofline_bound(1000.0, 100.0, 5.0), 500.0));
    /* Compute-bound: the peak. */
    assert_true(close_to(gk_bench_roofline_bound(1000.0, 100.0, 20.0), 1000.0));
    /* Unknown peak or bandwidth: no bound at all, never a division by zero downstream. */
    assert_true(gk_bench_roofline_bound(0.0, 100.0, 5.0) == 0.0);
    assert_true(gk_bench_roofline_bound(1000.0, 0.0, 5.0) == 0.0);
    assert_true(gk_bench_roofline_bound(1000.0, NAN, 5.0) == 0.0);
    assert_true(gk_bench_roofline_bound(1000.0, 100.0, 0.0) == 0.0);
}

/* A record with one sample of each time: call time call_ms, kernel time half of it. */
static gk_bench_record *add(gk_bench_report *report, const char *name, const char *kind, int64_t m, int64_t n,
                            int64_t k, double call_ms, gk_bench_status status)
{
    gk_bench_record *r = gk_bench_report_add(report);
    assert_non_null(r);
    snprintf(r->op, sizeof r->op, "sgemm");
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->layout, sizeof r->layout, "col");
    snprintf(r->trans, sizeof r->trans, "NN");
    r->size = (gk_bench_size)GK_BENCH_SIZE(m, n, k);
    r->work = 2.0 * (double)m * (double)n * (double)k;
    assert_int_equal(gk_bench_record_samples(r, 1), 0);
    r->total_ms[0] = r->host_ms[0] = call_ms;
    r->kernel_ms[0] = call_ms / 2.0;
    r->status = status;
    return r;
}

static void measured(gk_bench_report *report, double peak, double gbs)
{
    memset(report, 0, sizeof *report);
    report->device.peak_gflops = peak;
    report->bandwidth.measured = 1;
    report->bandwidth.gbs = gbs;
}

static void test_fraction_of_a_record(void **state)
{
    (void)state;
    gk_bench_report report;
    measured(&report, 1000.0, 100.0);
    /* 1024^3: compute-bound (1024/6 flops per byte x 100 GB/s > 1000); 2.147 GFLOP in 4.294 ms: 500 GFLOPS. */
    const double work = 2.0 * 1024 * 1024 * 1024;
    gk_bench_record *square = add(&report, "best", "gemmkit", 1024, 1024, 1024, work / 500.0 * 1e-6, GK_BENCH_OK);
    assert_true(close_to(gk_bench_roofline_gflops(&report, square), 1000.0));
    /* The whole call's rate counts (pack and unpack included), not the main kernel's (twice as fast here). */
    assert_true(close_to(gk_bench_roofline_fraction(&report, square), 0.5));
    /* C read too: no change while compute-bound. */
    square->reads_c = 1;
    assert_true(close_to(gk_bench_roofline_gflops(&report, square), 1000.0));
    /* Memory-bound: 1 x 8192 x 8192 under 100 GB/s x ~0.5 flops per byte. */
    gk_bench_record *mv = add(&report, "cublas", "peer", 1, 8192, 8192, 1.0, GK_BENCH_OK);
    const double bound = 100.0 * gk_bench_intensity(1, 8192, 8192, 0);
    assert_true(close_to(gk_bench_roofline_gflops(&report, mv), bound));
    assert_true(close_to(gk_bench_roofline_fraction(&report, mv), (2.0 * 8192 * 8192 / 1e6) / bound));
    /* A batch: its least bytes moved give the intensity. */
    gk_bench_record *batch = add(&report, "best", "gemmkit", 8, 8, 8, 1.0, GK_BENCH_OK);
    snprintf(batch->op, sizeof batch->op, "sgemm_batched");
    batch->batch = 1000;
    batch->work *= 1000;
    batch->bytes = 1000 * 4.0 * 3 * 64;
    assert_true(close_to(gk_bench_roofline_gflops(&report, batch), 100.0 * batch->work / batch->bytes));
    /* No bound: the host loop, a wrong result, transposes, the CPU BLAS beside a GPU. */
    gk_bench_record *host = add(&report, "host-seq", "baseline", 64, 64, 64, 1.0, GK_BENCH_OK);
    assert_true(gk_bench_roofline_gflops(&report, host) == 0.0);
    gk_bench_record *wrong = add(&report, "best", "gemmkit", 64, 64, 64, 1.0, GK_BENCH_WRONG);
    assert_true(gk_bench_roofline_fraction(&report, wrong) == 0.0);
    gk_bench_record *transpose = add(&report, "copy-fast", "gemmkit", 64, 64, 0, 1.0, GK_BENCH_OK);
    transpose->unit = "GB/s";
    assert_true(gk_bench_roofline_gflops(&report, transpose) == 0.0);
    gk_bench_record *cpu = add(&report, "cpublas", "peer", 64, 64, 64, 1.0, GK_BENCH_OK);
    cpu->wall_clock = 1;
    assert_true(gk_bench_roofline_gflops(&report, cpu) > 0.0); /* a CPU device: the same processor */
    report.device.is_gpu = 1;
    assert_true(gk_bench_roofline_gflops(&report, cpu) == 0.0);
    /* Without a bandwidth (--no-roofline, a failed copy): nothing. */
    report.bandwidth.measured = 0;
    assert_true(gk_bench_roofline_fraction(&report, square) == 0.0);
    gk_bench_report_free(&report);
}

static void test_geomean_over_large_shapes(void **state)
{
    (void)state;
    const double fractions[] = {0.25, 1.0, 0.5, 0.9, 0.0};
    /* 2^27 exactly counts; one below does not; a shape without a fraction does not. */
    const double macs[] = {134217728.0, 1e9, 134217727.0, 1e3, 1e12};
    int shapes = -1;
    assert_true(close_to(gk_bench_roofline_geomean(fractions, macs, 5, &shapes), 0.5));
    assert_int_equal(shapes, 2);
    assert_true(isnan(gk_bench_roofline_geomean(fractions + 2, macs + 2, 2, &shapes)));
    assert_int_equal(shapes, 0);
}

static void test_summaries_of_a_report(void **state)
{
    (void)state;
    gk_bench_report report;
    measured(&report, 1000.0, 1000.0); /* every square below compute-bound from 64^3 on: bound = 1000 */
    const double w512 = 2.0 * 512 * 512 * 512, w1024 = 2.0 * 1024 * 1024 * 1024;
    add(&report, "cpublas", "peer", 512, 512, 512, w512 / 800.0 * 1e-6, GK_BENCH_OK);  /* 0.8 */
    add(&report, "best", "gemmkit", 512, 512, 512, w512 / 200.0 * 1e-6, GK_BENCH_OK);  /* 0.2 */
    add(&report, "best", "gemmkit", 1024, 1024, 1024, w1024 / 800.0 * 1e-6, GK_BENCH_OK); /* 0.8 */
    add(&report, "best", "gemmkit", 64, 64, 64, 1e-3, GK_BENCH_OK);                   /* below 2^27: not counted */
    add(&report, "cpublas", "peer", 1024, 1024, 1024, 1.0, GK_BENCH_ERROR);              /* no result */
    add(&report, "host-seq", "baseline", 512, 512, 512, 1e3, GK_BENCH_OK);               /* never summarized */
    gk_bench_roofline_summary s[4];
    assert_int_equal(gk_bench_roofline_summaries(&report, s, 4), 2);
    /* gemmkit's runners first, then the peers. */
    assert_string_equal(s[0].name, "best");
    assert_int_equal(s[0].shapes, 2);
    assert_true(close_to(s[0].geomean, 0.4));
    assert_string_equal(s[1].name, "cpublas");
    assert_string_equal(s[1].kind, "peer");
    assert_int_equal(s[1].shapes, 1);
    assert_true(close_to(s[1].geomean, 0.8));
    report.bandwidth.measured = 0;
    assert_int_equal(gk_bench_roofline_summaries(&report, s, 4), 0);
    gk_bench_report_free(&report);
}

/* ---- --candidates' bookkeeping ---- */

static gk_bench_candidate_row *row(gk_bench_candidates *c, gk_bench_candidate_shape *shape, const char *kernel,
                                   double predicted, double measured_ms, gk_bench_status status)
{
    gk_bench_candidate_row *r = gk_bench_candidates_add_row(c, shape);
    assert_non_null(r);
    r->rank = shape->count - 1;
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->line, sizeof r->line, "%s", kernel);
    r->splits = 1;
    r->predicted_ms = predicted;
    r->status = status;
    if (status == GK_BENCH_OK) r->measured_ms = r->wall_ms = measured_ms;
    else snprintf(r->message, sizeof r->message, "warm-up failed:\ta tab\nand a line");
    return r;
}

/* Four shapes: the default near the fastest; the default 2x the fastest (and not the model's first
 * kernel); the model not choosing; one not measured. */
static void made_up(gk_bench_candidates *c)
{
    memset(c, 0, sizeof *c);
    gk_bench_candidate_shape *a = gk_bench_candidates_add_shape(c);
    a->size = (gk_bench_size){.m = 64, .n = 48, .k = 600, .trans_a = GEMMKIT_NO_TRANS, .trans_b = GEMMKIT_NO_TRANS,
                              .layout = GEMMKIT_COL_MAJOR};
    a->chooses = 1;
    snprintf(a->default_kernel, sizeof a->default_kernel, "xgemm-direct");
    a->default_ms = 1.05;
    row(c, a, "xgemm-direct", 0.5, 1.0, GK_BENCH_OK);  /* measured/predicted 2 */
    row(c, a, "xgemm", 1.0, 8.0, GK_BENCH_OK);         /* 8 */
    row(c, a, "xgemm", 2.0, NAN, GK_BENCH_ERROR);      /* failed: not in the mean */
    gk_bench_candidate_shape *b = gk_bench_candidates_add_shape(c);
    b->size = (gk_bench_size){.m = 33, .n = 17, .k = 9, .trans_a = GEMMKIT_TRANS, .trans_b = GEMMKIT_NO_TRANS,
                              .layout = GEMMKIT_ROW_MAJOR};
    b->chooses = 1;
    snprintf(b->default_kernel, sizeof b->default_kernel, "xgemm");
    b->default_ms = 2.0;
    row(c, b, "xgemm-direct", 0.25, 1.0, GK_BENCH_OK); /* 4 */
    row(c, b, "xgemm", 0.5, 2.0, GK_BENCH_WRONG);      /* wrong: not the fastest, not in the mean */
    row(c, b, "skinny-m", 4.0, 1.0, GK_BENCH_ERROR);   /* refused by the device: failed */
    gk_bench_candidate_shape *d = gk_bench_candidates_add_shape(c);
    d->size = (gk_bench_size){.m = 8, .n = 8, .k = 8, .trans_a = GEMMKIT_NO_TRANS, .trans_b = GEMMKIT_NO_TRANS,
                              .layout = GEMMKIT_COL_MAJOR};
    snprintf(d->default_kernel, sizeof d->default_kernel, "direct");
    d->default_ms = 0.5;
    gk_bench_candidate_row *alone = row(c, d, "direct", NAN, 0.5, GK_BENCH_OK);
    alone->splits = 0;
    /* Nothing timed: one skipped row. */
    const gk_bench_size big = {.m = 4096, .n = 4096, .k = 4096, .trans_a = GEMMKIT_NO_TRANS,
                               .trans_b = GEMMKIT_NO_TRANS, .layout = GEMMKIT_COL_MAJOR};
    gk_bench_candidates_skip(c, &big, "skipped by --max-time's prediction");
}

static void test_candidates_summary(void **state)
{
    (void)state;
    gk_bench_candidates c;
    made_up(&c);
    gk_bench_candidates_summary s;
    gk_bench_candidates_summarize(&c, &s);
    assert_int_equal(s.shapes, 4);
    assert_int_equal(s.chosen, 2);
    assert_int_equal(s.skipped, 1);
    assert_int_equal(s.compared, 2);
    assert_int_equal(s.near, 1); /* 1.05 <= 1.1 x 1.0; 2.0 > 1.1 x 1.0 */
    assert_int_equal(s.mismatched, 1);
    assert_int_equal(s.candidates, 6); /* the default-alone and skipped rows are no candidates */
    assert_int_equal(s.ok, 3);
    assert_int_equal(s.failed, 2);
    assert_int_equal(s.wrong, 1);
    assert_int_equal(s.predicted, 3);
    assert_true(close_to(s.geomean_measured_over_predicted, 4.0)); /* (2 x 8 x 4)^(1/3) */
    assert_ptr_equal(gk_bench_candidates_fastest(&c, &c.shapes[0]), &c.rows[0]);
    assert_ptr_equal(gk_bench_candidates_fastest(&c, &c.shapes[1]), &c.rows[3]);
    assert_null(gk_bench_candidates_fastest(&c, &c.shapes[2]));
    assert_null(gk_bench_candidates_fastest(&c, &c.shapes[3]));
    assert_int_equal(c.shapes[3].count, 1);
    assert_int_equal(c.rows[c.shapes[3].first].status, GK_BENCH_SKIPPED);
    assert_false(gk_bench_candidates_mismatch(&c, &c.shapes[0]));
    assert_true(gk_bench_candidates_mismatch(&c, &c.shapes[1]));
    /* The boundary: exactly 10% slower is near. */
    c.shapes[1].default_ms = 1.1;
    gk_bench_candidates_summarize(&c, &s);
    assert_int_equal(s.near, 2);
    gk_bench_candidates_free(&c);
    gk_bench_candidates_summarize(&c, &s);
    assert_int_equal(s.shapes, 0);
    assert_true(isnan(s.geomean_measured_over_predicted));
}

/* The fields of one TSV line (modified in place); their count. */
static int split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static void test_candidates_file(void **state)
{
    (void)state;
    gk_bench_candidates c;
    made_up(&c);
    char path[512], err[GK_BENCH_ERR];
    snprintf(path, sizeof path, "%s/c.tsv", workdir);
    assert_int_equal(gk_bench_write_candidates(&c, path, err), 0);
    char *text = slurp("c.tsv");
    assert_non_null(text);
    char *line = strtok(text, "\n");
    assert_non_null(line);
    assert_string_equal(line, gk_bench_candidates_columns);
    char *header[32];
    const int columns = split_tabs(line, header, 32);
    assert_string_equal(header[0], "shape");
    int rows = 0, defaults = 0;
    while ((line = strtok(NULL, "\n"))) {
        char *f[32];
        /* Tabs and line breaks in a message stay inside their field. */
        assert_int_equal(split_tabs(line, f, 32), columns);
        const gk_bench_candidate_row *r = &c.rows[rows++];
        assert_int_equal(atoi(f[3]), r->rank);
        assert_string_equal(f[4], r->kernel);
        const int ok = strcmp(f[11], "ok") == 0;
        /* A time exactly where the status is ok; failed covers errors and refusals. */
        assert_true(ok ? atof(f[9]) > 0.0 : strcmp(f[9], "-") == 0);
        if (r->status == GK_BENCH_ERROR) assert_string_equal(f[11], "failed");
        if (r->status == GK_BENCH_SKIPPED) assert_string_equal(f[11], "skipped");
        if (r->status == GK_BENCH_WRONG) assert_string_equal(f[11], "wrong");
        defaults += strcmp(f[12], "1") == 0;
        if (r->splits == 0) assert_true(strcmp(f[6], "-") == 0 && strcmp(f[8], "-") == 0);
    }
    assert_int_equal(rows, (int)c.row_count);
    assert_int_equal(defaults, 4); /* one per shape */
    free(text);
    /* Into a missing folder: refused, nothing left behind. */
    snprintf(path, sizeof path, "%s/missing/c.tsv", workdir);
    assert_int_equal(gk_bench_write_candidates(&c, path, err), -1);
    gk_bench_candidates_free(&c);
}

/* ---- options ---- */

static int parse_quietly(gk_bench_args *a, int argc, const char **argv)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 2);
    int rc = gk_bench_parse_args(argc, (char **)argv, a);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(null);
    return rc;
}

static void test_options(void **state)
{
    (void)state;
    gk_bench_args a;
    const char *none[] = {"--sizes", "64"};
    assert_int_equal(parse_quietly(&a, 2, none), 0);
    assert_true(a.roofline); /* on by default */
    assert_false(a.candidates);
    const char *off[] = {"--no-roofline", "--candidates", "--candidates-out", "c.tsv"};
    assert_int_equal(parse_quietly(&a, 4, off), 0);
    assert_false(a.roofline);
    assert_true(a.candidates);
    assert_string_equal(a.candidates_out, "c.tsv");
    const char *again[] = {"--no-roofline", "--roofline"};
    assert_int_equal(parse_quietly(&a, 2, again), 0);
    assert_true(a.roofline);
    const char *bad[][4] = {{"--candidates-out", "c.tsv"},        /* without --candidates */
                            {"--candidates", "--transpose"},      /* SGEMM only */
                            {"--candidates", "--batch", "4"},
                            {"--candidates", "--kernel", "xgemm"}, /* beside the library's choice only */
                            {"--candidates", "--candidates-out"}};
    const int counts[] = {2, 2, 3, 3, 2};
    for (int i = 0; i < 5; i++)
        if (parse_quietly(&a, counts[i], bad[i]) != GK_EXIT_USAGE) fail_msg("bad options %d were taken", i);
}

/* ---- end to end ---- */

static void test_cli_help(void **state)
{
    (void)state;
    assert_int_equal(run_cli("bench --help"), 0);
    char *out = slurp("out.txt");
    assert_non_null(out);
    for (const char *want[] = {"--no-roofline", "--candidates ", "--candidates-out FILE.tsv", "%roof", NULL}, **w = want; *w;
         w++)
        if (!strstr(out, *w)) fail_msg("bench --help lacks \"%s\"", *w);
    free(out);
}

/* The bound of a result as the header's bandwidth and peak give it. */
static double bound_of(double peak, double gbs, int64_t m, int64_t n, int64_t k)
{
    const double memory = gbs * 2.0 * m * n * k / (4.0 * (m * k + k * n + m * n));
    return memory < peak ? memory : peak;
}

static void test_cli_roofline(void **state)
{
    (void)state;
    char args[1024];
    /* 512^3 (2^27 multiply-adds) makes the summary; 40x24x56 does not. */
    snprintf(args, sizeof args,
             "bench --sizes 512,40x24x56:TN:row --repeat 2 --no-baseline --max-time 1000 --quiet --json '%s/r.json' "
             "--csv '%s/r.csv'", workdir, workdir);
    const int rc = run_cli(args);
    char *out = slurp("out.txt"), *err = slurp("err.txt");
    assert_non_null(out);
    if (rc != 0) fail_msg("bench failed (exit %d):\n%s\n%s", rc, out, err);
    const char *head = strstr(out, "\ncopy bandwidth: ");
    assert_non_null(head);
    double gbs = 0.0;
    assert_int_equal(sscanf(head, "\ncopy bandwidth: %lf GB/s (device to device, ", &gbs), 1);
    assert_true(gbs > 0.0);
    assert_non_null(strstr(out, " %roof "));
    assert_non_null(strstr(out, "\nRoofline: geometric mean of %roof over the shapes of at least 2^27 multiply-adds"));
    assert_non_null(strstr(out, ": best "));
    char *csv = slurp("r.csv");
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\n# copy bandwidth: "));
    assert_non_null(strstr(csv, ",rate_call,roofline_gflops,fraction_of_roofline,fraction_of_peak,"));
    assert_non_null(strstr(csv, "\n# roofline best: geomean fraction "));
    free(csv);
#ifdef GEMMKIT_HAVE_JANSSON
    char path[512];
    snprintf(path, sizeof path, "%s/r.json", workdir);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("r.json does not parse: %s", error.text);
    json_t *roof = json_object_get(root, "roofline");
    assert_true(json_is_true(json_object_get(roof, "measured")));
    const double copy = json_number_value(json_object_get(roof, "copy_gbs"));
    assert_true(copy > 0.0);
    /* The same bandwidth as the header's (printed to one decimal). */
    assert_true(fabs(copy - gbs) <= 0.051);
    const double peak = json_number_value(json_object_get(json_object_get(root, "device"), "peak_gflops"));
    json_t *results = json_object_get(root, "results");
    int with = 0;
    double best512 = 0.0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const char *kind = json_string_value(json_object_get(r, "kind"));
        json_t *fraction = json_object_get(r, "fraction_of_roofline");
        if (strcmp(json_string_value(json_object_get(r, "status")), "ok") != 0 || strcmp(kind, "baseline") == 0) {
            assert_null(fraction);
            continue;
        }
        assert_non_null(fraction);
        const int64_t m = json_integer_value(json_object_get(r, "m")), n = json_integer_value(json_object_get(r, "n")),
                      k = json_integer_value(json_object_get(r, "k"));
        const double bound = json_number_value(json_object_get(r, "roofline_gflops"));
        assert_true(fabs(bound - bound_of(peak, copy, m, n, k)) <= 1e-6 * bound);
        /* Of the call rate. */
        const double call = json_number_value(json_object_get(json_object_get(r, "rate"), "call"));
        /* JSON keeps 9 significant digits. */
        assert_true(fabs(json_number_value(fraction) - call / bound) <= 1e-7 * call / bound);
        if (m == 512 && strcmp(json_string_value(json_object_get(r, "name")), "best") == 0)
            best512 = json_number_value(fraction);
        with++;
    }
    assert_true(with >= 2);
    assert_true(best512 > 0.0);
    /* The summary of best: its one shape of 2^27 multiply-adds, the 512^3 result's fraction. */
    json_t *runners = json_object_get(json_object_get(json_object_get(root, "summary"), "roofline"), "runners");
    int found = 0;
    for (size_t i = 0; i < json_array_size(runners); i++) {
        json_t *s = json_array_get(runners, i);
        if (strcmp(json_string_value(json_object_get(s, "name")), "best") != 0) continue;
        found = 1;
        assert_int_equal(json_integer_value(json_object_get(s, "shapes")), 1);
        assert_true(fabs(json_number_value(json_object_get(s, "geomean_fraction")) - best512) <= 1e-7 * best512);
    }
    assert_true(found);
    json_decref(root);
#endif
    free(out);
    free(err);
}

static void test_cli_no_roofline(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "bench --sizes 32,16 --repeat 1 --no-baseline --no-peers --no-roofline --quiet --json '%s/n.json'", workdir);
    const int rc = run_cli(args);
    char *out = slurp("out.txt");
    assert_non_null(out);
    if (rc != 0) fail_msg("bench --no-roofline failed (exit %d):\n%s", rc, out);
    assert_non_null(strstr(out, "\ncopy bandwidth: not measured (--no-roofline); no %roof\n"));
    assert_null(strstr(out, "\nRoofline: "));
#ifdef GEMMKIT_HAVE_JANSSON
    char path[512];
    snprintf(path, sizeof path, "%s/n.json", workdir);
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    json_t *roof = json_object_get(root, "roofline");
    assert_true(json_is_false(json_object_get(roof, "measured")));
    assert_string_equal(json_string_value(json_object_get(roof, "note")), "--no-roofline");
    json_t *results = json_object_get(root, "results");
    for (size_t i = 0; i < json_array_size(results); i++)
        assert_null(json_object_get(json_array_get(results, i), "fraction_of_roofline"));
    json_decref(root);
#endif
    /* Transposes have %copy, no roofline: no copy measured for it, no line. */
    assert_int_equal(run_cli("bench --transpose --kernel copy-fast --sizes 64 --repeat 1 --no-peers --quiet"), 0);
    free(out);
    out = slurp("out.txt");
    assert_null(strstr(out, "copy bandwidth"));
    assert_null(strstr(out, "%roof"));
    free(out);
}

static int make_workdir(void **state)
{
    (void)state;
    return workdir_make("bench-roofline");
}

static int remove_workdir(void **state)
{
    (void)state;
    return workdir_remove();
}

int main(void)
{
    const struct CMUnitTest pure[] = {
        cmocka_unit_test(test_intensity),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_fraction_of_a_record),
        cmocka_unit_test(test_geomean_over_large_shapes),
        cmocka_unit_test(test_summaries_of_a_report),
        cmocka_unit_test(test_candidates_summary),
        cmocka_unit_test(test_options),
    };
    const struct CMUnitTest command[] = {
        cmocka_unit_test(test_candidates_file),
        cmocka_unit_test(test_cli_help),
        cmocka_unit_test(test_cli_roofline),
        cmocka_unit_test(test_cli_no_roofline),
    };
    int failed = cmocka_run_group_tests_name("bench roofline and candidates", pure, NULL, NULL);
    failed += cmocka_run_group_tests_name("bench roofline command", command, make_workdir, remove_workdir);
    return failed;
}
