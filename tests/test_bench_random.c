/* `gemmkit bench --sizes random:COUNT[:SEED]` and what came with it: the
 * drawing (reproducible, within the API's limits and the 8 GiB cap, every
 * class in its ranges), its parsing, each shape's own transposes and layout
 * ("96x80x72:TN:row") reaching the measurement, and the summary after the
 * table (geometric means, shapes below 0.90x, the worst five). */
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

enum { DRAWS = 600 };

static int same_shape(const gk_bench_size *a, const gk_bench_size *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && a->trans_a == b->trans_a && a->trans_b == b->trans_b &&
           a->layout == b->layout && a->drawn == b->drawn;
}

static void test_same_seed_same_shapes(void **state)
{
    (void)state;
    static gk_bench_size a[DRAWS], b[DRAWS], c[DRAWS];
    assert_int_equal(gk_bench_random_shapes(42, DRAWS, a), 0);
    assert_int_equal(gk_bench_random_shapes(42, DRAWS, b), 0);
    assert_int_equal(gk_bench_random_shapes(43, DRAWS, c), 0);
    int differ = 0;
    for (int i = 0; i < DRAWS; i++) {
        assert_true(same_shape(&a[i], &b[i]));
        differ += !same_shape(&a[i], &c[i]);
    }
    assert_true(differ > DRAWS / 2);
    /* A shorter draw is the start of a longer one: shapes are drawn one after another. */
    assert_int_equal(gk_bench_random_shapes(42, 7, c), 0);
    for (int i = 0; i < 7; i++) assert_true(same_shape(&a[i], &c[i]));
    /* Pinned: the generator is ours (splitmix64, integers only), so these are the same on every machine. */
    assert_int_equal(gk_bench_random_shapes(1, 3, c), 0);
    const gk_bench_size pinned[3] = {
        {.m = 227, .n = 177, .k = 1233, .trans_a = GEMMKIT_TRANS, .trans_b = GEMMKIT_TRANS, .layout = GEMMKIT_ROW_MAJOR,
         .drawn = 6},
        {.m = 13034, .n = 2174, .k = 321, .trans_a = GEMMKIT_TRANS, .trans_b = GEMMKIT_NO_TRANS,
         .layout = GEMMKIT_ROW_MAJOR, .drawn = 4},
        {.m = 3663, .n = 27071, .k = 36, .trans_a = GEMMKIT_TRANS, .trans_b = GEMMKIT_NO_TRANS,
         .layout = GEMMKIT_ROW_MAJOR, .drawn = 4},
    };
    for (int i = 0; i < 3; i++)
        if (!same_shape(&c[i], &pinned[i]))
            fail_msg("seed 1, shape %d: %lldx%lldx%lld, not the pinned one", i, (long long)c[i].m, (long long)c[i].n,
                     (long long)c[i].k);
    assert_int_equal(gk_bench_random_shapes(0, 0, c), -1);
    assert_int_equal(gk_bench_random_shapes(0, GK_BENCH_RANDOM_MAX + 1, c), -1);
}

static int is_hidden(int64_t x)
{
    static const int64_t sizes[] = {768, 1024, 2048, 3072, 4096, 5120, 8192, 11008, 14336, 32000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (x == sizes[i]) return 1;
    return 0;
}

static int within(int64_t x, int64_t lo, int64_t hi) { return x >= lo && x <= hi; }

/* Each class's ranges (docs/BENCHMARK.md). */
static int in_class(const gk_bench_size *z)
{
    const int64_t lo_mn = z->m < z->n ? z->m : z->n, hi_mn = z->m < z->n ? z->n : z->m;
    switch (z->drawn - 1) {
    case 0: { /* each within 1.5x of a common size in [64, 8192] */
        int64_t lo = z->k < lo_mn ? z->k : lo_mn, hi = z->k > hi_mn ? z->k : hi_mn;
        return within(lo, 43, 12288) && within(hi, 43, 12288) && 4 * hi <= 9 * lo;
    }
    case 1: return within(lo_mn, 1, 256) && within(hi_mn, 256, 32768) && within(z->k, 256, 32768);
    case 2: return within(z->m, 1, 256) && within(z->n, 1, 256) && within(z->k, 10000, 1000000);
    case 3: return within(z->m, 2048, 40000) && within(z->n, 2048, 40000) && within(z->k, 1, 512);
    case 4: return within(z->m, 16, 32768) && is_hidden(z->n) && is_hidden(z->k);
    case 5:
        return within(z->m, 101, 2999) && within(z->n, 101, 2999) && within(z->k, 101, 2999) && z->m % 2 &&
               z->n % 2 && z->k % 2;
    default: return 0;
    }
}

static void test_shapes_fit_and_cover_the_classes(void **state)
{
    (void)state;
    static gk_bench_size z[DRAWS];
    assert_int_equal(gk_bench_random_shapes(2024, DRAWS, z), 0);
    int per_class[GK_BENCH_RANDOM_CLASSES] = {0}, ops[2][2][2] = {{{0}}};
    for (int i = 0; i < DRAWS; i++) {
        assert_true(gk_bench_shape_fits(&z[i]));
        /* The cap itself, said again: A + B + C <= 8 GiB of floats, each operand <= 2^31-1. */
        const double a = (double)z[i].m * z[i].k, b = (double)z[i].k * z[i].n, c = (double)z[i].m * z[i].n;
        assert_true(a + b + c <= 2147483648.0 && a <= 2147483647.0 && b <= 2147483647.0 && c <= 2147483647.0);
        if (!in_class(&z[i]))
            fail_msg("shape %d: %lldx%lldx%lld is not in its class %s", i, (long long)z[i].m, (long long)z[i].n,
                     (long long)z[i].k, gk_bench_random_class_name(z[i].drawn - 1));
        per_class[z[i].drawn - 1]++;
        assert_true(z[i].trans_a == GEMMKIT_TRANS || z[i].trans_a == GEMMKIT_NO_TRANS);
        assert_true(z[i].trans_b == GEMMKIT_TRANS || z[i].trans_b == GEMMKIT_NO_TRANS);
        assert_true(z[i].layout == GEMMKIT_ROW_MAJOR || z[i].layout == GEMMKIT_COL_MAJOR);
        ops[z[i].trans_a == GEMMKIT_TRANS][z[i].trans_b == GEMMKIT_TRANS][z[i].layout == GEMMKIT_ROW_MAJOR]++;
    }
    /* Uniform classes: 100 expected each; far below 50 would be a bug, not chance. */
    for (int c = 0; c < GK_BENCH_RANDOM_CLASSES; c++)
        if (per_class[c] < 50) fail_msg("class %s drawn %d times of %d", gk_bench_random_class_name(c), per_class[c], DRAWS);
    for (int i = 0; i < 8; i++)
        if (ops[i >> 2][(i >> 1) & 1][i & 1] < 30) fail_msg("transposes/layout %d drawn only %d times", i, ops[i >> 2][(i >> 1) & 1][i & 1]);
    /* The cap bites: a transformer shape of 32768 tokens x 32000 x 32000 would take 16 GiB. */
    assert_false(gk_bench_shape_fits(&(gk_bench_size)GK_BENCH_SIZE(32768, 32000, 32000)));
    assert_true(gk_bench_shape_fits(&(gk_bench_size)GK_BENCH_SIZE(40000, 40000, 512)));
    assert_false(gk_bench_shape_fits(&(gk_bench_size)GK_BENCH_SIZE(46341, 46341, 1))); /* C past 2^31-1 */
    assert_false(gk_bench_shape_fits(&(gk_bench_size)GK_BENCH_SIZE(1, 1, 2147483648LL)));
}

/* Log-uniform: as many draws in the lower half of the range's logarithm as in the upper. */
static void test_sizes_are_log_uniform(void **state)
{
    (void)state;
    static gk_bench_size z[GK_BENCH_RANDOM_MAX];
    int low = 0, all = 0;
    for (uint64_t seed = 0; seed < 6; seed++) {
        assert_int_equal(gk_bench_random_shapes(seed, GK_BENCH_RANDOM_MAX, z), 0);
        for (int i = 0; i < GK_BENCH_RANDOM_MAX; i++)
            if (z[i].drawn - 1 == 2) { /* K in [10^4, 10^6]: the geometric middle is 10^5 */
                low += z[i].k < 100000;
                all++;
            }
    }
    assert_true(all > 500);
    if (fabs((double)low / all - 0.5) > 0.08) fail_msg("%d of %d long-K draws below 10^5", low, all);
}

/* ---- parsing ---- */

static int parse_sizes(const char *text, gk_bench_size *sizes, int *n, gk_bench_draw *draws, int *draw_count,
                       char *err)
{
    return gk_bench_parse_sizes(text, sizes, GK_BENCH_MAX_SIZES, n, draws, draw_count, err);
}

static void expect_bad(const char *text, const char *words)
{
    static gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int n = 0;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(parse_sizes(text, sizes, &n, NULL, NULL, err), -1);
    if (!strstr(err, words)) fail_msg("sizes \"%s\": message \"%s\" lacks \"%s\"", text, err, words);
}

static double work(const gk_bench_size *z) { return (double)z->m * (double)z->n * (double)z->k; }

static void test_parse_random(void **state)
{
    (void)state;
    static gk_bench_size sizes[GK_BENCH_MAX_SIZES], drawn[8];
    gk_bench_draw draws[GK_BENCH_MAX_DRAWS];
    int n = 0, nd = 0;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(parse_sizes("random:5:42", sizes, &n, draws, &nd, err), 0);
    assert_int_equal(n, 5);
    assert_int_equal(nd, 1);
    assert_true(draws[0].first == 0 && draws[0].count == 5 && draws[0].seed == 42 && !draws[0].seed_from_clock);
    /* The drawn shapes, run by rising work. */
    assert_int_equal(gk_bench_random_shapes(42, 5, drawn), 0);
    for (int i = 0; i < 5; i++) {
        int found = 0;
        for (int j = 0; j < 5; j++) found += same_shape(&sizes[i], &drawn[j]);
        assert_true(found >= 1);
        if (i) assert_true(work(&sizes[i - 1]) <= work(&sizes[i]));
    }
    /* Mixed with other items, each random item remembered; the largest seed. */
    assert_int_equal(parse_sizes("64,random:3:18446744073709551615,8x9x10:TN:row,random:2", sizes, &n, draws, &nd, err), 0);
    assert_int_equal(n, 1 + 3 + 1 + 2);
    assert_int_equal(nd, 2);
    assert_true(draws[0].first == 1 && draws[0].count == 3 && draws[0].seed == UINT64_MAX);
    assert_true(draws[1].first == 5 && draws[1].count == 2 && draws[1].seed_from_clock);
    assert_true(sizes[0].m == 64 && !sizes[0].trans_a && !sizes[0].layout && !sizes[0].drawn);
    assert_true(sizes[4].m == 8 && sizes[4].k == 10 && sizes[4].trans_a == GEMMKIT_TRANS &&
                sizes[4].trans_b == GEMMKIT_NO_TRANS && sizes[4].layout == GEMMKIT_ROW_MAJOR);
    assert_true(sizes[1].drawn > 0 && sizes[6].drawn > 0);
    /* The most one item draws. */
    assert_int_equal(parse_sizes("random:1000:3", sizes, &n, NULL, NULL, err), 0);
    assert_int_equal(n, 1000);
    expect_bad("random:0", "COUNT an integer from 1 to 1000");
    expect_bad("random:x", "COUNT an integer from 1 to 1000");
    expect_bad("random:1001", "COUNT an integer from 1 to 1000");
    expect_bad("random", "want random:COUNT[:SEED]");
    expect_bad("random:", "want random:COUNT[:SEED]");
    expect_bad("random:5:notanumber", "SEED must be an integer from 0 to 18446744073709551615");
    expect_bad("random:5:", "SEED must be");
    expect_bad("random:5:18446744073709551616", "SEED must be"); /* 2^64 */
    expect_bad("random:5:-1", "SEED must be");
    expect_bad("random:1000:1,random:100:2", "more than 1024 sizes");
}

static void test_parse_shape_ops(void **state)
{
    (void)state;
    static gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int n = 0;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(parse_sizes("96x80x72:TN:row,1024:nt,500x7x9:col,7:row:TT,5", sizes, &n, NULL, NULL, err), 0);
    assert_int_equal(n, 5);
    assert_true(sizes[0].trans_a == GEMMKIT_TRANS && sizes[0].trans_b == GEMMKIT_NO_TRANS &&
                sizes[0].layout == GEMMKIT_ROW_MAJOR && sizes[0].m == 96 && sizes[0].k == 72);
    assert_true(sizes[1].m == 1024 && sizes[1].k == 1024 && sizes[1].trans_a == GEMMKIT_NO_TRANS &&
                sizes[1].trans_b == GEMMKIT_TRANS && !sizes[1].layout);
    assert_true(!sizes[2].trans_a && sizes[2].layout == GEMMKIT_COL_MAJOR);
    assert_true(sizes[3].trans_a == GEMMKIT_TRANS && sizes[3].trans_b == GEMMKIT_TRANS &&
                sizes[3].layout == GEMMKIT_ROW_MAJOR);
    assert_true(!sizes[4].trans_a && !sizes[4].layout);
    /* Sizes without their own take the run's --trans and --layout. */
    gk_bench_args args;
    gk_bench_args_default(&args);
    args.trans_a = GEMMKIT_TRANS;
    args.layout = GEMMKIT_ROW_MAJOR;
    const gk_bench_size own = gk_bench_size_resolve(&args, &sizes[2]), plain = gk_bench_size_resolve(&args, &sizes[4]);
    /* 500x7x9:col: its own layout, the run's transposes (each part on its own). */
    assert_true(own.trans_a == GEMMKIT_TRANS && own.trans_b == GEMMKIT_NO_TRANS && own.layout == GEMMKIT_COL_MAJOR);
    const gk_bench_size first = gk_bench_size_resolve(&args, &sizes[0]);
    assert_true(first.trans_a == GEMMKIT_TRANS && first.trans_b == GEMMKIT_NO_TRANS && first.layout == GEMMKIT_ROW_MAJOR);
    const gk_bench_size second = gk_bench_size_resolve(&args, &sizes[1]);
    assert_true(second.trans_a == GEMMKIT_NO_TRANS && second.trans_b == GEMMKIT_TRANS && second.layout == GEMMKIT_ROW_MAJOR);
    assert_true(plain.trans_a == GEMMKIT_TRANS && plain.trans_b == GEMMKIT_NO_TRANS && plain.layout == GEMMKIT_ROW_MAJOR);
    expect_bad("96x80x72:TX", ":NN, :NT, :TN or :TT");
    expect_bad("96x80x72:TN:NT", "each once");
    expect_bad("96x80x72:row:col", "each once");
    expect_bad("96x80x72:", "FIRST:LAST"); /* a ':' then nothing: a sweep cut short */
    expect_bad("0:TN", "positive integer");
    expect_bad("12x:TN", "MxNxK");
    /* Sweeps keep their syntax. */
    assert_int_equal(parse_sizes("16:64:x2", sizes, &n, NULL, NULL, err), 0);
    assert_int_equal(n, 3);
}

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
    const char *ok[] = {"--sizes", "random:4:7,64:TN", "--trans", "NT", "--layout", "row"};
    assert_int_equal(parse_quietly(&a, 6, ok), 0);
    assert_int_equal(a.size_count, 5);
    assert_int_equal(a.draw_count, 1);
    assert_true(gk_bench_sizes_own_ops(&a));
    const char *plain[] = {"--sizes", "64,32x16x8"};
    assert_int_equal(parse_quietly(&a, 2, plain), 0);
    assert_int_equal(a.draw_count, 0);
    assert_false(gk_bench_sizes_own_ops(&a));
    const char *transpose[] = {"--transpose", "--sizes", "random:3:1"};
    assert_int_equal(parse_quietly(&a, 3, transpose), GK_EXIT_USAGE);
    const char *batch[] = {"--batch", "4", "--sizes", "random:3:1"};
    assert_int_equal(parse_quietly(&a, 4, batch), GK_EXIT_USAGE);
    const char *transpose_ops[] = {"--transpose", "--sizes", "64:TN"};
    assert_int_equal(parse_quietly(&a, 3, transpose_ops), GK_EXIT_USAGE);
    const char *bad[] = {"--sizes", "random:5:notanumber"};
    assert_int_equal(parse_quietly(&a, 2, bad), GK_EXIT_USAGE);
}

/* ---- the summary ---- */

static void test_summarize(void **state)
{
    (void)state;
    const double device[] = {1.2, 0.5, 2.0, 0.89, 0.9, 1.0, 0.7, 0.5};
    const double host[] = {1.0, 0.4, 0.0, 0.95, 0.85, 1.0, 0.6, 0.8}; /* shape 2 has no host time */
    gk_bench_summary s;
    gk_bench_summarize(device, host, 8, &s);
    assert_int_equal(s.shapes, 8);
    assert_int_equal(s.host_shapes, 7);
    double log_d = 0.0, log_h = 0.0;
    for (int i = 0; i < 8; i++) log_d += log(device[i]);
    for (int i = 0; i < 8; i++) log_h += host[i] > 0.0 ? log(host[i]) : 0.0;
    assert_true(fabs(s.geomean_device - exp(log_d / 8)) < 1e-12);
    assert_true(fabs(s.geomean_host - exp(log_h / 7)) < 1e-12);
    assert_int_equal(s.below_device, 4); /* 0.5, 0.89, 0.7, 0.5; 0.9 is not below 0.90 */
    assert_int_equal(s.below_host, 4);   /* 0.4, 0.85, 0.6, 0.8 */
    /* The five worst by device ratio, smallest first, ties in shape order. */
    assert_int_equal(s.worst_count, 5);
    const int worst[] = {1, 7, 6, 3, 4};
    for (int i = 0; i < 5; i++) assert_int_equal(s.worst[i], worst[i]);
    gk_bench_summarize(device, host, 2, &s);
    assert_int_equal(s.worst_count, 2);
    assert_int_equal(s.worst[0], 1);
    assert_int_equal(s.worst[1], 0);
    gk_bench_summarize(device, host, 0, &s);
    assert_int_equal(s.shapes, 0);
    assert_true(isnan(s.geomean_device));
}

/* A record with one sample of each time. */
static void add(gk_bench_report *report, const char *name, const char *kind, int64_t n, double call_ms, double host_ms,
                gk_bench_status status)
{
    gk_bench_record *r = gk_bench_report_add(report);
    assert_non_null(r);
    snprintf(r->op, sizeof r->op, "sgemm");
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    snprintf(r->layout, sizeof r->layout, "col");
    snprintf(r->trans, sizeof r->trans, "NN");
    r->size = (gk_bench_size)GK_BENCH_SIZE(n, n, n);
    r->work = 2.0 * n * n * n;
    assert_int_equal(gk_bench_record_samples(r, 1), 0);
    r->kernel_ms[0] = r->total_ms[0] = call_ms;
    r->host_ms[0] = host_ms;
    r->status = status;
}

static void test_summaries_of_a_report(void **state)
{
    (void)state;
    gk_bench_report report;
    memset(&report, 0, sizeof report);
    /* best at 3 sizes, the peer at 2 of them (one failed): 2 compared, 1 without both. */
    add(&report, "best", "gemmkit", 10, 1.0, 2.0, GK_BENCH_OK);
    add(&report, "best", "gemmkit", 20, 4.0, 4.0, GK_BENCH_OK);
    add(&report, "best", "gemmkit", 30, 1.0, 1.0, GK_BENCH_OK);
    add(&report, "cpublas", "peer", 10, 2.0, 2.0, GK_BENCH_OK); /* best 2x in call time, 1x on the host */
    add(&report, "cpublas", "peer", 20, 2.0, 1.0, GK_BENCH_OK); /* best 0.5x, 0.25x */
    add(&report, "cpublas", "peer", 30, 1.0, 1.0, GK_BENCH_WRONG);
    gk_bench_pair pairs[4];
    assert_int_equal(gk_bench_summaries(&report, pairs, 4), 1);
    assert_string_equal(pairs[0].gemmkit, "best");
    assert_string_equal(pairs[0].peer, "cpublas");
    assert_int_equal(pairs[0].summary.shapes, 2);
    assert_int_equal(pairs[0].unpaired, 1);
    assert_true(fabs(pairs[0].summary.geomean_device - 1.0) < 1e-12);
    assert_true(fabs(pairs[0].summary.geomean_host - 0.5) < 1e-12);
    assert_int_equal(pairs[0].summary.below_device, 1);
    assert_int_equal(pairs[0].summary.below_host, 1);
    assert_int_equal(pairs[0].summary.worst_count, 2);
    assert_int_equal(report.records[pairs[0].worst_record[0]].size.m, 20);
    assert_true(fabs(pairs[0].worst_device[0] - 0.5) < 1e-12 && fabs(pairs[0].worst_host[0] - 0.25) < 1e-12);
    char text[96];
    gk_bench_shape_text(&report.records[0], text, sizeof text);
    assert_string_equal(text, "10 NN col");
    /* One shape is no summary. */
    gk_bench_report one;
    memset(&one, 0, sizeof one);
    add(&one, "best", "gemmkit", 10, 1.0, 1.0, GK_BENCH_OK);
    add(&one, "cpublas", "peer", 10, 1.0, 1.0, GK_BENCH_OK);
    assert_int_equal(gk_bench_summaries(&one, pairs, 4), 0);
    gk_bench_report_free(&one);
    gk_bench_report_free(&report);
}

/* ---- end to end: each shape's own transposes and layout reach every runner and every output ---- */

static void test_cli_bad_random_exit_2(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"bench --sizes random:0", "COUNT an integer from 1 to 1000"},
        {"bench --sizes random:x", "COUNT an integer from 1 to 1000"},
        {"bench --sizes random:5:notanumber", "SEED must be an integer"},
        {"bench --sizes 64:TX", ":NN, :NT, :TN or :TT"},
        {"bench --transpose --sizes random:3", "not for --transpose"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int rc = run_cli(cases[i][0]);
        char *err = slurp("err.txt");
        assert_non_null(err);
        if (rc != GK_EXIT_USAGE || !strstr(err, cases[i][1]))
            fail_msg("gemmkit %s: exit %d (want 2), stderr \"%s\" (want \"%s\")", cases[i][0], rc, err, cases[i][1]);
        free(err);
    }
}

static void test_cli_shape_ops_end_to_end(void **state)
{
    (void)state;
    char args[1024], json[600] = "";
#ifdef GEMMKIT_HAVE_JANSSON
    snprintf(json, sizeof json, " --json '%s/o.json'", workdir);
#endif
    snprintf(args, sizeof args,
             "bench --sizes 48x40x32:TN:row,40x24x56:NT,36x28x20 --layout col --trans TT --repeat 1 --no-baseline "
             "--peers cpublas --max-time 1000 --quiet --csv '%s/o.csv'%s",
             workdir, json);
    const int rc = run_cli(args);
    char *out = slurp("out.txt"), *csv = slurp("o.csv");
    assert_non_null(out);
    if (rc != 0) fail_msg("exit %d:\n%s", rc, out);
    /* The table: each shape with its own, the third with the run's --trans and --layout. */
    assert_non_null(strstr(out, "per shape (see trans, layout), else column-major, TT"));
    assert_non_null(strstr(out, " trans layout "));
    assert_non_null(strstr(out, "48x40x32       TN    row "));
    assert_non_null(strstr(out, "40x24x56       NT    col "));
    assert_non_null(strstr(out, "36x28x20       TT    col "));
    /* The CSV: every row of gemmkit's and the peer's says so too. */
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\nsgemm,best,gemmkit,"));
    for (const char *row = strstr(csv, "\nsgemm,"); row; row = strstr(row + 1, "\nsgemm,")) {
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
        if (!strstr(line, ",48,40,32,row,TN,") && !strstr(line, ",40,24,56,col,NT,") && !strstr(line, ",36,28,20,col,TT,"))
            fail_msg("CSV row without its shape's transposes and layout: %s", line);
    }
    const int peer = strstr(out, "\npeer CPU BLAS: found, ") != NULL;
    if (peer) {
        /* Three shapes beside the CPU BLAS: the summary follows the table. */
        assert_non_null(strstr(out, "\nSummary: gemmkit / peer speed"));
        assert_non_null(strstr(out, "\nbest vs cpublas: 3 shapes; call time "));
        assert_non_null(strstr(out, "  worst: "));
        assert_non_null(strstr(csv, "# summary best vs cpublas: 3 shapes"));
    }
#ifdef GEMMKIT_HAVE_JANSSON
    char path[512];
    snprintf(path, sizeof path, "%s/o.json", workdir);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("o.json does not parse: %s", error.text);
    json_t *results = json_object_get(root, "results");
    int best = 0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const json_int_t m = json_integer_value(json_object_get(r, "m"));
        const char *trans = json_string_value(json_object_get(r, "trans"));
        const char *layout = json_string_value(json_object_get(r, "layout"));
        const char *want = m == 48 ? "TN row" : m == 40 ? "NT col" : "TT col";
        char got[16];
        snprintf(got, sizeof got, "%s %s", trans, layout);
        assert_string_equal(got, want);
        best += strcmp(json_string_value(json_object_get(r, "name")), "best") == 0 &&
                strcmp(json_string_value(json_object_get(r, "status")), "ok") == 0;
    }
    assert_int_equal(best, 3);
    json_t *settings = json_object_get(root, "settings");
    assert_true(json_is_true(json_object_get(settings, "per_shape_ops")));
    assert_int_equal(json_array_size(json_object_get(settings, "random")), 0);
    json_t *summary = json_object_get(root, "summary");
    assert_true(json_is_object(summary));
    json_t *pairs = json_object_get(summary, "pairs");
    assert_true(json_is_array(pairs));
    if (peer) {
        assert_true(json_array_size(pairs) >= 1);
        json_t *p = json_array_get(pairs, 0);
        assert_string_equal(json_string_value(json_object_get(p, "gemmkit")), "best");
        assert_string_equal(json_string_value(json_object_get(p, "peer")), "cpublas");
        assert_int_equal(json_integer_value(json_object_get(p, "shapes")), 3);
        assert_true(json_number_value(json_object_get(p, "geomean_ratio_device")) > 0.0);
        assert_true(json_number_value(json_object_get(p, "geomean_ratio_host")) > 0.0);
        assert_int_equal(json_array_size(json_object_get(p, "worst")), 3);
    }
    json_decref(root);
#endif
    free(out);
    free(csv);
}

/* A shape --max-time skips for every runner gets no inputs (a random shape's may take 8 GiB). */
static void test_cli_skipped_shape_gets_no_inputs(void **state)
{
    (void)state;
    const int rc = run_cli("bench --sizes 64,20000x20000x64 --repeat 1 --no-baseline --max-time 0.001");
    char *out = slurp("out.txt"), *err = slurp("err.txt");
    assert_non_null(out);
    assert_non_null(err);
    if (rc != 0) fail_msg("exit %d:\n%s\n%s", rc, out, err);
    assert_non_null(strstr(err, "size 64 NN col: "));
    if (strstr(err, "size 20000x20000x64")) fail_msg("inputs were made for a shape every runner skips:\n%s", err);
    const char *row = strstr(out, "\nbest ");
    assert_non_null(row);
    assert_non_null(strstr(out, "20000x20000x64 NN    col             -      -"));
    assert_non_null(strstr(out, "skipped: predicted"));
    free(out);
    free(err);
}

static int make_workdir(void **state)
{
    (void)state;
    return workdir_make("bench-random");
}

static int remove_workdir(void **state)
{
    (void)state;
    return workdir_remove();
}

int main(void)
{
    const struct CMUnitTest drawing[] = {
        cmocka_unit_test(test_same_seed_same_shapes),
        cmocka_unit_test(test_shapes_fit_and_cover_the_classes),
        cmocka_unit_test(test_sizes_are_log_uniform),
        cmocka_unit_test(test_parse_random),
        cmocka_unit_test(test_parse_shape_ops),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_summarize),
        cmocka_unit_test(test_summaries_of_a_report),
    };
    const struct CMUnitTest command[] = {
        cmocka_unit_test(test_cli_bad_random_exit_2),
        cmocka_unit_test(test_cli_shape_ops_end_to_end),
        cmocka_unit_test(test_cli_skipped_shape_gets_no_inputs),
    };
    int failed = cmocka_run_group_tests_name("bench random shapes", drawing, NULL, NULL);
    failed += cmocka_run_group_tests_name("bench random command", command, make_workdir, remove_workdir);
    return failed;
}
