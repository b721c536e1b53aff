/* `gemmkit bench`: argument parsing (sizes, sweeps, options), bad arguments
 * (a clear message and exit status 2), and the result files of tiny SGEMM and
 * --transpose runs on the default device (--json and --csv: required fields,
 * sample counts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_workdir.h"
#include "bench.h"
#include "test_files.h"

#ifdef GEMMKIT_HAVE_JANSSON
#include <jansson.h>
#endif

/* ---- sizes ---- */

static void expect_sizes(const char *text, const int64_t *mnk, int count)
{
    gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int n = -1;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(gk_bench_parse_sizes(text, sizes, GK_BENCH_MAX_SIZES, &n, NULL, NULL, err), 0);
    assert_int_equal(n, count);
    for (int i = 0; i < count; i++) {
        assert_int_equal(sizes[i].m, mnk[3 * i]);
        assert_int_equal(sizes[i].n, mnk[3 * i + 1]);
        assert_int_equal(sizes[i].k, mnk[3 * i + 2]);
    }
}

static void expect_bad_sizes(const char *text, const char *words)
{
    gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int n = 0;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(gk_bench_parse_sizes(text, sizes, GK_BENCH_MAX_SIZES, &n, NULL, NULL, err), -1);
    if (!strstr(err, words)) fail_msg("sizes \"%s\": message \"%s\" lacks \"%s\"", text, err, words);
}

static void test_sizes_squares_and_shapes(void **state)
{
    (void)state;
    static const int64_t squares[] = {1024, 1024, 1024, 2048, 2048, 2048};
    expect_sizes("1024,2048", squares, 2);
    static const int64_t shape[] = {1000, 3, 77};
    expect_sizes("1000x3x77", shape, 1);
    static const int64_t mixed[] = {7, 7, 7, 1, 2, 3, 9, 9, 9};
    expect_sizes("7,1x2x3,9", mixed, 3);
    /* RxC (transposes): k = 0; gk_bench_parse_args rejects it for SGEMM. */
    static const int64_t rows_cols[] = {33, 17, 0, 5, 5, 5};
    expect_sizes("33x17,5", rows_cols, 2);
}

static void test_sizes_sweeps(void **state)
{
    (void)state;
    static const int64_t doubling[] = {1024, 1024, 1024, 2048, 2048, 2048, 4096, 4096, 4096,
                                       8192, 8192, 8192, 16384, 16384, 16384};
    expect_sizes("1024:16384:x2", doubling, 5);
    static const int64_t steps[] = {256, 256, 256, 512, 512, 512, 768, 768, 768, 1024, 1024, 1024};
    expect_sizes("256:1024:+256", steps, 4);
    /* LAST need not be on the grid: the sweep stops below it. */
    static const int64_t partial[] = {3, 3, 3, 9, 9, 9};
    expect_sizes("3:20:x3", partial, 2);
}

static void test_sizes_rejected(void **state)
{
    (void)state;
    expect_bad_sizes("", "empty");
    expect_bad_sizes("0", "positive integer");
    expect_bad_sizes("-5", "positive integer");
    expect_bad_sizes("12x", "MxNxK");
    expect_bad_sizes("x3", "MxNxK");
    expect_bad_sizes("2x0x4", "MxNxK");
    expect_bad_sizes("1024:16:x2", "larger than LAST");
    expect_bad_sizes("16:1024:x1", "at least 2");
    expect_bad_sizes("16:1024:+0", "FIRST:LAST");
    expect_bad_sizes("16:1024", "FIRST:LAST");
    expect_bad_sizes("1,,2", "empty item");
    expect_bad_sizes("2147483648", "up to"); /* 2^31: past the API's 2^31-1 */
    expect_bad_sizes("1:100000:+1", "more than");
}

/* The sweep of issue 13, and nothing else. */
static const int64_t issue_sweep[] = {
    256,   256,   256,   512,   512,   512,   1024,  1024,  1024,  2048, 2048,  2048,  4096, 4096,  4096,
    8192,  8192,  8192,  16384, 16384, 16384, 999,   999,   999,   1500, 1500,  1500,  2049, 2049,  2049,
    4095,  4095,  4095,  7001,  7001,  7001,  4096,  11008, 4096,  11008, 4096, 4096,  8192, 8192,  128,
    16384, 32,    16384, 32,    16384, 16384, 128,   128,   131072, 8192, 8192, 2,     2,    8192,  8192,
};
enum { SWEEP_SHAPES = sizeof issue_sweep / sizeof issue_sweep[0] / 3 };

/* A sweep dimension on a CPU: kept up to 128, else divided by 16, the nearest odd number when not a multiple. */
static int64_t cpu_dim(int64_t d)
{
    if (d <= 128) return d;
    if (d % 16 == 0) return d / 16;
    int64_t q = d / 16; /* floor: the nearest odd is q or q + 1, whichever is odd */
    return q % 2 ? q : q + 1;
}

static void test_sizes_presets(void **state)
{
    (void)state;
    expect_sizes("sweep", issue_sweep, SWEEP_SHAPES);
    int64_t cpu[sizeof issue_sweep / sizeof issue_sweep[0]];
    for (size_t i = 0; i < sizeof issue_sweep / sizeof issue_sweep[0]; i++) cpu[i] = cpu_dim(issue_sweep[i]);
    expect_sizes("sweep-cpu", cpu, SWEEP_SHAPES);
    /* Beside other items, in order. */
    gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int n = 0;
    char err[GK_BENCH_ERR] = "";
    assert_int_equal(gk_bench_parse_sizes("4097,sweep,3x4x5", sizes, GK_BENCH_MAX_SIZES, &n, NULL, NULL, err), 0);
    assert_int_equal(n, SWEEP_SHAPES + 2);
    assert_true(sizes[0].m == 4097 && sizes[1].m == 256 && sizes[n - 1].m == 3 && sizes[n - 1].k == 5);
    expect_bad_sizes("sweeps", "unknown size preset");
    expect_bad_sizes("sweep-", "sweep, sweep-cpu");
    /* The GPU preset is refused on a CPU device, pointing at its twin; the CPU one runs anywhere. */
    const gk_bench_preset *gpu = gk_bench_preset_find("sweep", 5), *small = gk_bench_preset_find("sweep-cpu", 9);
    assert_non_null(gpu);
    assert_non_null(small);
    assert_int_equal(gk_bench_preset_fits(gpu, 1, err), 0);
    assert_int_equal(gk_bench_preset_fits(small, 0, err), 0);
    assert_int_equal(gk_bench_preset_fits(NULL, 0, err), 0);
    assert_int_equal(gk_bench_preset_fits(gpu, 0, err), -1);
    if (!strstr(err, "--sizes sweep-cpu")) fail_msg("message \"%s\" does not name sweep-cpu", err);
}

/* ---- options ---- */

static int parse(gk_bench_args *args, int argc, const char **argv)
{
    return gk_bench_parse_args(argc, (char **)argv, args);
}

static void test_options(void **state)
{
    (void)state;
    gk_bench_args a;
    assert_int_equal(parse(&a, 0, NULL), 0);
    assert_string_equal(a.kernel, "best");
    assert_int_equal(a.repeat, 5);
    assert_int_equal(a.layout, GEMMKIT_COL_MAJOR);
    assert_int_equal(a.peers, 1);
    assert_int_equal(a.size_count, 0);
    assert_int_equal(a.wide_inputs, 0);
    const char *wide[] = {"--inputs", "wide"};
    assert_int_equal(parse(&a, 2, wide), 0);
    assert_int_equal(a.wide_inputs, 1);
    const char *argv[] = {"--kernel", "direct", "--params", "TS=8", "--sizes", "64,32x16", "--layout", "row",
                          "--trans", "TN", "--repeat", "7", "--json", "r.json", "--csv", "r.csv", "--plot", "r.png",
                          "--no-peers", "--no-baseline", "--quiet", "--sets", "2", "--max-time", "1.5", "--transpose"};
    assert_int_equal(parse(&a, (int)(sizeof argv / sizeof argv[0]), argv), 0);
    assert_string_equal(a.kernel, "direct");
    assert_string_equal(a.params, "TS=8");
    assert_int_equal(a.size_count, 2);
    /* With --transpose, squares become rows x cols (k = 0). */
    assert_true(a.sizes[0].m == 64 && a.sizes[0].n == 64 && a.sizes[0].k == 0);
    assert_true(a.sizes[1].m == 32 && a.sizes[1].n == 16 && a.sizes[1].k == 0);
    assert_int_equal(a.layout, GEMMKIT_ROW_MAJOR);
    assert_int_equal(a.trans_a, GEMMKIT_TRANS);
    assert_int_equal(a.trans_b, GEMMKIT_NO_TRANS);
    assert_int_equal(a.repeat, 7);
    assert_string_equal(a.json_path, "r.json");
    assert_string_equal(a.csv_path, "r.csv");
    assert_string_equal(a.plot_path, "r.png");
    assert_int_equal(a.peers, 0);
    assert_int_equal(a.baseline, 0);
    assert_int_equal(a.quiet, 1);
    assert_int_equal(a.sets, 2);
    assert_true(a.max_seconds == 1.5);
    assert_int_equal(a.transpose, 1);
    assert_null(a.preset);
    const char *preset[] = {"--sizes", "1000,sweep-cpu,sweep"};
    assert_int_equal(parse(&a, 2, preset), 0);
    assert_string_equal(a.preset->name, "sweep"); /* the GPU-only one, which the device may refuse */
    assert_int_equal(a.size_count, 1 + 2 * SWEEP_SHAPES);
    const char *peers_back[] = {"--no-peers", "--peers"};
    assert_int_equal(parse(&a, 2, peers_back), 0);
    assert_int_equal(a.peers, 1);
    assert_null(a.peer_list);
    /* --peers LIST: exactly those (the CPU BLAS on a GPU too); without one, cpublas on CPU devices only. */
    assert_true(gk_bench_peer_wanted(&a, "cpublas", 0) && !gk_bench_peer_wanted(&a, "cpublas", 1));
    assert_true(gk_bench_peer_wanted(&a, "clblast", 1));
    const char *peer_list[] = {"--peers", "cpublas,clblast", "--sizes", "8"};
    assert_int_equal(parse(&a, 4, peer_list), 0);
    assert_string_equal(a.peer_list, "cpublas,clblast");
    assert_int_equal(a.size_count, 1);
    assert_true(gk_bench_peer_wanted(&a, "cpublas", 1) && gk_bench_peer_wanted(&a, "clblast", 0));
    assert_false(gk_bench_peer_wanted(&a, "cublas", 1));
    const char *list_then_none[] = {"--peers", "cpublas", "--no-peers"};
    assert_int_equal(parse(&a, 3, list_then_none), 0);
    assert_false(gk_bench_peer_wanted(&a, "cpublas", 0));
    /* Transposes show every variant unless a kernel (or "best", the library's choice) is named. */
    const char *transposes[] = {"--transpose", "--kernel", "best"};
    assert_int_equal(parse(&a, 1, transposes), 0);
    assert_string_equal(a.kernel, "all");
    assert_int_equal(parse(&a, 3, transposes), 0);
    assert_string_equal(a.kernel, "best");
    /* --params again: one line each, in order; params stays the first. */
    const char *lines[] = {"--kernel", "direct", "--params", "TS=8", "--params", "TS=16"};
    assert_int_equal(parse(&a, 6, lines), 0);
    assert_int_equal(a.param_line_count, 2);
    assert_string_equal(a.param_lines[0], "TS=8");
    assert_string_equal(a.param_lines[1], "TS=16");
    assert_string_equal(a.params, "TS=8");
}

static void test_options_rejected(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        {"--repeat", "0", NULL},    {"--repeat", "3x", NULL},      {"--layout", "diag", NULL},
        {"--trans", "NC", NULL},    {"--trans", "NNN", NULL},      {"--plot", "out.jpg", NULL},
        {"--sizes", NULL, NULL},    {"--json", "--csv", "x.csv"},  {"--what", NULL, NULL},
        {"--params", "TS=8", NULL}, {"--max-time", "-2", NULL},    {"--sets", "0", NULL},
        {"--sizes", "12x3", NULL},  {"--transpose", "--sizes", "8x8x9"}, {"--inputs", "normal", NULL},
        {"--transpose", "--inputs", "wide"},
    };
    /* Messages go to stderr (silenced here); the parser's return value is the exit status. */
    fflush(stderr);
    int saved = dup(2), quiet = open("/dev/null", O_WRONLY);
    dup2(quiet, 2);
    int rcs[sizeof bad / sizeof bad[0]];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gk_bench_args a;
        int argc = bad[i][1] ? (bad[i][2] ? 3 : 2) : 1;
        rcs[i] = parse(&a, argc, (const char **)bad[i]);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(quiet);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (rcs[i] != GK_EXIT_USAGE)
            fail_msg("%s %s: expected exit %d, got %d", bad[i][0], bad[i][1] ? bad[i][1] : "", GK_EXIT_USAGE, rcs[i]);
}

/* ---- the command itself ---- */

static void test_cli_bad_arguments_exit_2(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"bench --sizes 12x3", "MxNxK"},
        {"bench --sizes sweeps", "unknown size preset"},
        {"bench --transpose --sizes sweep", "an SGEMM preset"},
        {"bench --sizes 1024:16:x2", "larger than LAST"},
        {"bench --repeat 0", "--repeat"},
        {"bench --kernel no-such-kernel", "no SGEMM kernel named"},
        {"bench --kernel direct --params NOPE=1", "NOPE"},
        {"bench --layout sideways", "--layout"},
        {"bench --trans XY", "--trans"},
        {"bench --plot out.svg", ".png"},
        {"bench --bogus", "unknown option"},
        {"bench --json", "needs a value"},
        {"bench --transpose --kernel direct", "no transpose or copy kernel named"},
        {"bench --transpose --kernel no-such-kernel", "no transpose or copy kernel named"},
        {"bench --kernel copy-fast", "no SGEMM kernel named"},
        {"bench --transpose --sizes 4x5x6", "RxC"},
        {"bench --transpose --sizes 0x5", "positive integers"},
        {"bench --transpose --kernel copy-fast --params NOPE=1", "NOPE"},
        {"bench --transpose --params TILE=32", "--params needs one named kernel"},
        {"bench --transpose --kernel copy-fast --params TILE=32 --params TILE=16", "--params once with --transpose"},
        {"bench --kernel direct --params TS=8 --params NOPE=1", "NOPE"},
        {"bench --kernel direct --params TS=1 --params TS=2 --params TS=3 --params TS=4 --params TS=5 --params TS=6 "
         "--params TS=7 --params TS=8 --params TS=9 --params TS=10 --params TS=11 --params TS=12 --params TS=13 "
         "--params TS=14 --params TS=15 --params TS=16 --params TS=17",
         "--params at most 16 times"},
        {"bench --peers cuda", "unknown peer \"cuda\" (peers: cublas, clblast, cpublas)"},
        {"bench --peers cpublas,", "unknown peer \"\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run_cli(cases[i][0]);
        char *err = slurp("err.txt");
        assert_non_null(err);
        if (rc != GK_EXIT_USAGE || !strstr(err, cases[i][1]))
            fail_msg("gemmkit %s: exit %d (want 2), stderr \"%s\" (want \"%s\")", cases[i][0], rc, err, cases[i][1]);
        free(err);
    }
    assert_int_equal(run_cli("bench --help"), 0);
}

/* The tiny run both file tests read: two shapes, 3 timed runs, rotation over 2 sets. A generous
 * --max-time: on a loaded machine the default 20 s (warm-up and kernel builds included) cut it to 1 run. */
enum { REPEAT = 3 };
static int tiny_run_status = -1;

static int tiny_run(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "bench --sizes 48,40x24x56 --repeat %d --sets 2 --max-time 1000 --quiet --json '%s/r.json' "
             "--csv '%s/r.csv'",
             REPEAT, workdir, workdir);
    tiny_run_status = run_cli(args);
    return 0;
}

static void test_cli_tiny_run_table(void **state)
{
    (void)state;
    char *out = slurp("out.txt"), *err = slurp("err.txt");
    assert_non_null(out);
#ifdef GEMMKIT_HAVE_JANSSON
    if (tiny_run_status != 0) fail_msg("tiny bench failed (exit %d):\n%s\n%s", tiny_run_status, out, err);
#endif
    assert_non_null(strstr(out, "fp32 peak"));
    assert_non_null(strstr(out, "host-seq"));
    assert_non_null(strstr(out, "best"));
    /* Why this kernel, and how many results were checked (the table's last line). */
    assert_non_null(strstr(out, "\nkernel: "));
    assert_non_null(strstr(out, "; parameters: "));
    /* 4 of gemmkit's own (host-seq and best at 2 sizes), more where peers run (GPUs). */
    const char *verified = strstr(out, " results verified against the float64-accumulated host reference.\n");
    assert_non_null(verified);
    while (verified > out && verified[-1] != '\n') verified--;
    int checked = 0, results = 0;
    assert_int_equal(sscanf(verified, "%d of %d results", &checked, &results), 2);
    assert_int_equal(checked, results);
    assert_true(results >= 4);
    /* Off NVIDIA GPUs cuBLAS is not used, and the table says why. */
    gemmkit_context *ctx = NULL;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    gemmkit_context_device_info(ctx, &info);
    gemmkit_context_destroy(ctx);
    if (!strstr(info.name, "NVIDIA") && !strstr(info.vendor, "NVIDIA"))
        assert_non_null(strstr(out, "peer cuBLAS: not used: "));
    /* On a CPU device the CPU BLAS is a peer: named with its file, checked, with a ratio column; on a GPU,
     * not by default. */
    assert_non_null(strstr(out, "\npeer CPU BLAS: "));
    if (!info.is_gpu && strstr(out, "\npeer CPU BLAS: found, ")) {
        assert_non_null(strstr(out, "vs cpublas"));
        assert_non_null(strstr(out, "\ncpublas "));
        assert_non_null(strstr(out, "CPU BLAS sgemm_ on host arrays, wall-clock time per call"));
        assert_non_null(strstr(strstr(out, "\npeer CPU BLAS: found, "), ".so"));
        assert_non_null(strstr(out, "\nbest-host:host-blas "));
    }
    if (info.is_gpu) assert_non_null(strstr(out, "\npeer CPU BLAS: not used: the device is a GPU"));
    free(out);
    free(err);
}

static void test_cli_csv_file(void **state)
{
    (void)state;
    char *csv = slurp("r.csv");
    assert_non_null(csv);
    const char *want_comments[] = {"# date: ", "# command line: gemmkit ", "# device: ", "# driver: ", "# fp32 peak: "};
    for (size_t i = 0; i < sizeof want_comments / sizeof want_comments[0]; i++)
        if (!strstr(csv, want_comments[i])) fail_msg("CSV lacks \"%s\"", want_comments[i]);
    const char *header = strstr(csv, "\nop,name,kind,resolved,m,n,k,layout,trans,status,unit,work,input_sets,repeat,"
                                     "sample,kernel_ms,total_ms,host_ms,");
    assert_non_null(header);
    /* Count data rows per (name, shape) among gemmkit's and the baseline's: REPEAT each. */
    int best48 = 0, best40 = 0, base48 = 0;
    for (const char *p = strchr(header + 1, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        char line[2048];
        size_t len = strcspn(p + 1, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, p + 1);
        if (strncmp(line, "sgemm,best,gemmkit,", 19) == 0) {
            if (strstr(line, ",48,48,48,col,NN,ok,GFLOPS,")) best48++;
            if (strstr(line, ",40,24,56,col,NN,ok,GFLOPS,")) best40++;
        }
        if (strncmp(line, "sgemm,host-seq,baseline,host-seq,48,48,48,", 42) == 0) base48++;
    }
    assert_int_equal(best48, REPEAT);
    assert_int_equal(best40, REPEAT);
    assert_int_equal(base48, REPEAT);
    assert_non_null(strstr(header, ",gbps_moved,timing,ratio_to_peer\n"));
    /* With the CPU BLAS as a peer, gemmkit's rows carry their ratio to it; its own rows are wall-clock. */
    if (strstr(csv, "\nsgemm,cpublas,peer,cpublas,48,48,48,col,NN,ok,")) {
        const char *row = strstr(csv, "\nsgemm,best,gemmkit,");
        assert_non_null(row);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
        if (!strstr(line, ",device,cpublas=")) fail_msg("best's CSV row lacks its ratio to cpublas: %s", line);
        row = strstr(csv, "\nsgemm,cpublas,peer,");
        snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
        if (!strstr(line, ",wall-clock,")) fail_msg("cpublas's CSV row is not wall-clock: %s", line);
    }
    free(csv);
}

#ifdef GEMMKIT_HAVE_JANSSON
static json_t *member(json_t *o, const char *key, json_type type)
{
    json_t *v = json_object_get(o, key);
    if (!v || json_typeof(v) != type) fail_msg("JSON: \"%s\" missing or of the wrong type", key);
    return v;
}

static void check_series_of(json_t *result, const char *key, int repeat)
{
    json_t *s = member(result, key, JSON_OBJECT);
    json_t *samples = member(s, "samples", JSON_ARRAY);
    assert_int_equal(json_array_size(samples), repeat);
    double lo = json_number_value(member(s, "min", JSON_REAL));
    double mid = json_number_value(member(s, "median", JSON_REAL));
    double hi = json_number_value(member(s, "max", JSON_REAL));
    assert_true(lo > 0.0 && lo <= mid && mid <= hi);
    for (size_t i = 0; i < json_array_size(samples); i++) {
        double x = json_number_value(json_array_get(samples, i));
        assert_true(x >= lo && x <= hi);
    }
}

static void test_cli_json_file(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/r.json", workdir);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("r.json does not parse: %s (line %d)", error.text, error.line);
    assert_string_equal(json_string_value(member(root, "schema", JSON_STRING)), "gemmkit-bench/1");
    assert_true(strlen(json_string_value(member(root, "date", JSON_STRING))) >= 20);
    assert_non_null(strstr(json_string_value(member(root, "command_line", JSON_STRING)), "bench --sizes 48,40x24x56"));
    json_t *device = member(root, "device", JSON_OBJECT);
    member(device, "name", JSON_STRING);
    member(device, "driver", JSON_STRING);
    member(device, "peak_formula", JSON_STRING);
    assert_true(json_number_value(member(device, "peak_gflops", JSON_REAL)) > 0.0);
    json_t *settings = member(root, "settings", JSON_OBJECT);
    assert_int_equal(json_integer_value(member(settings, "repeat", JSON_INTEGER)), REPEAT);
    /* Every peer is listed, found or with the reason it was not. */
    json_t *peers = member(root, "peers", JSON_ARRAY);
    assert_int_equal(json_array_size(peers), 3);
    int cpublas_found = 0;
    for (size_t i = 0; i < 3; i++) {
        json_t *p = json_array_get(peers, i);
        member(p, "name", JSON_STRING);
        json_t *found = json_object_get(p, "found");
        assert_true(json_is_boolean(found));
        assert_true(strlen(json_string_value(member(p, "detail", JSON_STRING))) > 0);
        if (strcmp(json_string_value(member(p, "name", JSON_STRING)), "cpublas") == 0) cpublas_found = json_is_true(found);
    }
    const int cpu = !json_is_true(json_object_get(device, "is_gpu"));
    json_t *results = member(root, "results", JSON_ARRAY);
    int gemmkit_ok = 0, baseline_ok = 0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const char *kind = json_string_value(member(r, "kind", JSON_STRING));
        const char *status = json_string_value(member(r, "status", JSON_STRING));
        member(r, "name", JSON_STRING);
        member(r, "m", JSON_INTEGER);
        member(r, "message", JSON_STRING);
        member(r, "check", JSON_OBJECT);
        /* The CPU BLAS and the host loop have no device: wall-clock times. */
        const char *timing = json_string_value(member(r, "timing", JSON_STRING));
        const char *name = json_string_value(member(r, "name", JSON_STRING));
        const char *resolved = json_string_value(member(r, "resolved", JSON_STRING));
        assert_string_equal(timing, strcmp(name, "cpublas") == 0 || strcmp(kind, "baseline") == 0 ||
                                            strcmp(resolved, "host-blas") == 0
                                        ? "wall-clock"
                                        : "device");
        if (strcmp(kind, "peer") != 0 && strcmp(status, "ok") != 0)
            fail_msg("result %zu (%s) is %s: %s", i, kind, status,
                     json_string_value(json_object_get(r, "message")));
        if (strcmp(status, "ok") != 0) continue;
        assert_int_equal(json_integer_value(member(r, "repeat", JSON_INTEGER)), REPEAT);
        check_series_of(r, "kernel_ms", REPEAT);
        check_series_of(r, "total_ms", REPEAT);
        check_series_of(r, "host_ms", REPEAT);
        json_t *rate = member(r, "rate", JSON_OBJECT);
        assert_true(json_number_value(member(rate, "kernel", JSON_REAL)) > 0.0);
        assert_true(json_is_true(json_object_get(member(r, "check", JSON_OBJECT), "passed")));
        if (strcmp(kind, "gemmkit") == 0) {
            gemmkit_ok++;
            /* --sets 2 with 3 runs: both sets used. */
            assert_int_equal(json_integer_value(member(r, "input_sets", JSON_INTEGER)), 2);
            member(r, "fraction_of_peak", JSON_REAL);
            json_t *ratios = member(r, "ratio_to_peer", JSON_OBJECT);
            if (cpu && cpublas_found) assert_true(json_number_value(member(ratios, "cpublas", JSON_REAL)) > 0.0);
        }
        baseline_ok += strcmp(kind, "baseline") == 0;
    }
    /* best at both sizes, and on a CPU device best-host (gemmkit_sgemm on host arrays) too. */
    assert_int_equal(gemmkit_ok, cpu ? 4 : 2);
    assert_int_equal(baseline_ok, 2);
    json_decref(root);
}
#else
static void test_cli_json_file(void **state)
{
    (void)state;
    skip(); /* built without jansson: --json is unavailable */
}
#endif

/* ---- the transpose benchmark ---- */

enum { T_REPEAT = 2 };
static int transpose_run_status = -1;

static int transpose_run(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "bench --transpose --sizes 64,33x17 --repeat %d --quiet --json '%s/t.json' --csv '%s/t.csv'",
             T_REPEAT, workdir, workdir);
    transpose_run_status = run_cli(args);
    return 0;
}

static void test_cli_transpose_table(void **state)
{
    (void)state;
    char *out = slurp("out.txt"), *err = slurp("err.txt");
    assert_non_null(out);
#ifdef GEMMKIT_HAVE_JANSSON
    if (transpose_run_status != 0) fail_msg("transpose bench failed (exit %d):\n%s\n%s", transpose_run_status, out, err);
#endif
    assert_non_null(strstr(out, "%copy"));
    assert_non_null(strstr(out, "GB/s"));
    /* A bandwidth measurement: no fp32 compute peak. */
    assert_null(strstr(out, "fp32 peak"));
    assert_non_null(strstr(out, "results verified exactly"));
    assert_non_null(strstr(out, "transpose-fast"));
    assert_non_null(strstr(out, "copy-fast "));
    assert_non_null(strstr(out, "33x17"));
    free(out);
    free(err);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_cli_transpose_csv(void **state)
{
    (void)state;
    char *csv = slurp("t.csv");
    assert_non_null(csv);
    assert_non_null(strstr(csv, ",fraction_of_peak,fraction_of_copy,check,"));
    /* T_REPEAT sample rows per (kernel, size): the fast transpose and copy, one odd shape. */
    int t64 = 0, t33 = 0, c33 = 0, sgemm = 0;
    for (const char *p = csv; p; p = strchr(p + 1, '\n')) {
        const char *line = *p == '\n' ? p + 1 : p;
        t64 += starts_with(line, "transpose,transpose-fast,gemmkit,transpose-fast,64,64,0,col,T,ok,GB/s,");
        t33 += starts_with(line, "transpose,transpose-fast,gemmkit,transpose-fast,33,17,0,col,T,ok,GB/s,");
        c33 += starts_with(line, "copy,copy-fast,gemmkit,copy-fast,33,17,0,col,N,ok,GB/s,");
        sgemm += starts_with(line, "sgemm,");
    }
    assert_int_equal(t64, T_REPEAT);
    assert_int_equal(t33, T_REPEAT);
    assert_int_equal(c33, T_REPEAT);
    assert_int_equal(sgemm, 0);
    free(csv);
}

#ifdef GEMMKIT_HAVE_JANSSON
/* --params given twice: one runner per line (direct#1, direct#2) on the same shapes, each checked, the lines in the
 * settings and in each runner's label. */
static void test_cli_param_lines(void **state)
{
    (void)state;
    char args[1024], path[512];
    snprintf(path, sizeof path, "%s/lines.json", workdir);
    snprintf(args, sizeof args,
             "bench --kernel direct --params TS=8 --params TS=16,WPT=1 --sizes 40x24x56,33:TN:row --repeat 1 "
             "--max-time 1000 --no-peers --no-baseline --quiet --json '%s'",
             path);
    assert_int_equal(run_cli(args), 0);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("lines.json does not parse: %s (line %d)", error.text, error.line);
    json_t *lines = member(member(root, "settings", JSON_OBJECT), "param_lines", JSON_ARRAY);
    assert_int_equal(json_array_size(lines), 2);
    assert_string_equal(json_string_value(json_array_get(lines, 1)), "TS=16,WPT=1");
    json_t *results = member(root, "results", JSON_ARRAY);
    int seen[2] = {0, 0};
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const char *name = json_string_value(member(r, "name", JSON_STRING));
        const int which = strcmp(name, "direct#1") == 0 ? 0 : strcmp(name, "direct#2") == 0 ? 1 : -1;
        if (which < 0) fail_msg("result %zu: runner \"%s\"", i, name);
        assert_string_equal(json_string_value(member(r, "status", JSON_STRING)), "ok");
        assert_non_null(strstr(json_string_value(member(r, "label", JSON_STRING)), which ? "TS=16,WPT=1" : "TS=8"));
        seen[which]++;
    }
    assert_int_equal(seen[0], 2);
    assert_int_equal(seen[1], 2);
    json_decref(root);
}

static void test_cli_transpose_json(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/t.json", workdir);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("t.json does not parse: %s (line %d)", error.text, error.line);
    json_t *results = member(root, "results", JSON_ARRAY);
    int transposes = 0, copies = 0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const char *op = json_string_value(member(r, "op", JSON_STRING));
        const char *kind = json_string_value(member(r, "kind", JSON_STRING));
        const char *status = json_string_value(member(r, "status", JSON_STRING));
        if (strcmp(op, "transpose") != 0 && strcmp(op, "copy") != 0) fail_msg("result %zu: op \"%s\"", i, op);
        assert_string_equal(json_string_value(member(r, "unit", JSON_STRING)), "GB/s");
        assert_int_equal(json_integer_value(member(r, "k", JSON_INTEGER)), 0);
        int64_t m = json_integer_value(member(r, "m", JSON_INTEGER)), n = json_integer_value(member(r, "n", JSON_INTEGER));
        assert_true((m == 64 && n == 64) || (m == 33 && n == 17));
        /* Bytes read + written. */
        assert_true(json_number_value(member(r, "work", JSON_REAL)) == 8.0 * (double)(m * n));
        /* gemmkit's variants may be skipped where the device cannot run them, never fail. */
        if (strcmp(kind, "gemmkit") == 0 && strcmp(status, "ok") != 0 && strcmp(status, "skipped") != 0)
            fail_msg("result %zu (%s) is %s: %s", i, json_string_value(json_object_get(r, "name")), status,
                     json_string_value(json_object_get(r, "message")));
        if (strcmp(status, "ok") != 0) continue;
        assert_int_equal(json_integer_value(member(r, "repeat", JSON_INTEGER)), T_REPEAT);
        check_series_of(r, "kernel_ms", T_REPEAT);
        check_series_of(r, "total_ms", T_REPEAT);
        check_series_of(r, "host_ms", T_REPEAT);
        assert_true(json_number_value(member(member(r, "rate", JSON_OBJECT), "kernel", JSON_REAL)) > 0.0);
        json_t *check = member(r, "check", JSON_OBJECT);
        assert_string_equal(json_string_value(member(check, "method", JSON_STRING)), "exact");
        assert_true(json_is_true(json_object_get(check, "passed")));
        if (strcmp(kind, "gemmkit") != 0) continue;
        assert_true(json_number_value(member(r, "fraction_of_copy", JSON_REAL)) > 0.0);
        member(r, "ratio_to_peer", JSON_OBJECT);
        transposes += strcmp(op, "transpose") == 0;
        copies += strcmp(op, "copy") == 0;
    }
    /* Every variant at both sizes: at least the lecture's and the fast ones. */
    assert_true(transposes >= 2 * 2 && copies >= 2 * 2);
    json_decref(root);
}
#else
static void test_cli_param_lines(void **state)
{
    (void)state;
    skip(); /* built without jansson: --json is unavailable */
}

static void test_cli_transpose_json(void **state)
{
    (void)state;
    skip(); /* built without jansson: --json is unavailable */
}
#endif

/* ---- what a run measured ---- */

static int on_cuda_backend(void)
{
    gemmkit_context *ctx = NULL;
    gemmkit_device_info info;
    assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
    gemmkit_context_device_info(ctx, &info);
    gemmkit_context_destroy(ctx);
    return strcmp(info.backend, "cuda") == 0;
}

/* Every kernel refused (the CUDA-only kernel on OpenCL): nothing measured is a failure, said so. */
/* GEMMKIT_CPU_BLAS_LIB=builtin: no CPU BLAS, so no cpublas peer (the header
 * says why) and best-host runs on the device; --no-peers: no peer at all. */
static void test_cli_cpu_blas_peer_absent(void **state)
{
    (void)state;
    const char *args = "bench --sizes 32 --repeat 1 --no-baseline";
    assert_int_equal(run_cli_after("GEMMKIT_CPU_BLAS_LIB=builtin", args, 1), 0);
    char *out = slurp("out.txt");
    assert_non_null(out);
    assert_non_null(strstr(out, "\npeer CPU BLAS: not used: "));
    assert_null(strstr(out, "\ncpublas "));
    assert_null(strstr(out, "vs cpublas"));
    assert_null(strstr(out, "best-host:host-blas"));
    if (!strstr(out, "the device is a GPU")) assert_non_null(strstr(out, "GEMMKIT_CPU_BLAS_LIB=builtin: no CPU BLAS"));
    free(out);
    char none[256];
    snprintf(none, sizeof none, "%s --no-peers", args);
    assert_int_equal(run_cli(none), 0);
    out = slurp("out.txt");
    assert_non_null(out);
    assert_non_null(strstr(out, "peers: not run (--no-peers)"));
    assert_null(strstr(out, "peer CPU BLAS"));
    assert_null(strstr(out, "\ncpublas "));
    assert_null(strstr(out, "vs cpublas"));
    free(out);
}

static void test_cli_nothing_measured_fails(void **state)
{
    (void)state;
    if (on_cuda_backend()) skip(); /* there tutorial-8-cuda runs */
    int rc = run_cli("bench --kernel tutorial-8-cuda --sizes 32 --repeat 1 --quiet");
    char *err = slurp("err.txt");
    if (rc != GK_EXIT_FAILED || !strstr(err, "nothing was measured: ") || !strstr(err, "needs the CUDA backend"))
        fail_msg("exit %d, stderr \"%s\"", rc, err);
    free(err);
}

/* --max-time holds for the first size too: 10000 runs are cut to what fits. */
static void test_cli_max_time_bounds_the_first_size(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "bench --kernel direct --sizes 256 --repeat 10000 --max-time 0.3 --no-peers --no-baseline --quiet "
             "--csv '%s/m.csv'", workdir);
    double start = gk_bench_now_ms();
    int rc = run_cli(args);
    double seconds = (gk_bench_now_ms() - start) * 1e-3;
    char *out = slurp("out.txt"), *csv = slurp("m.csv");
    if (rc != GK_EXIT_OK || !strstr(out, " of 10000 runs: --max-time 0.3 s")) fail_msg("exit %d, table:\n%s", rc, out);
    int rows = 0;
    for (const char *p = strstr(csv, "\nsgemm,direct,"); p; p = strstr(p + 1, "\nsgemm,direct,")) rows++;
    assert_true(rows >= 1 && rows < 10000);
    print_message("--max-time 0.3: %d timed runs, %.1f s in all (device setup included)\n", rows, seconds);
    free(out);
    free(csv);
}

/* stdout and stderr into one file (2>&1, as `make run | tee` does): each result once. */
static void test_cli_results_once_in_a_shared_file(void **state)
{
    (void)state;
    char command[1024];
    snprintf(command, sizeof command, "'%s' bench --sizes 48,40 --repeat 1 --no-peers >'%s/both.txt' 2>&1", cli_path(),
             workdir);
    assert_int_equal(WEXITSTATUS(system(command)), 0);
    char *both = slurp("both.txt");
    assert_non_null(both);
    /* The baseline's result at 48, in the table or as a progress line. */
    int shown = 0;
    for (const char *p = both; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        shown += strstr(line, "host-seq") && strstr(line, " 48 ");
    }
    if (shown != 1) fail_msg("the baseline's result at 48 shows %d times:\n%s", shown, both);
    free(both);
}

/* ---- output files: checked before the run, written whole or not at all ---- */

static void write_text(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void expect_file(const char *name, const char *text)
{
    char *have = slurp(name);
    if (!have || strcmp(have, text) != 0) fail_msg("%s changed: \"%.200s\" (want \"%s\")", name, have ? have : "(gone)", text);
    free(have);
}

/* A stand-in for gnuplot (GEMMKIT_GNUPLOT): writes a 20 kB PNG-shaped file
 * (signature, zeros, IEND) wherever the script's `set output` says. */
static void write_fake_gnuplot(void)
{
    write_text("fake-gnuplot.sh", "#!/bin/sh\n"
                                  "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\")\n"
                                  "{ printf '\\211PNG\\r\\n\\032\\n'; head -c 20000 /dev/zero; "
                                  "printf '\\0\\0\\0\\0IEND\\256B`\\202'; } >\"$out\"\n");
    char path[512];
    snprintf(path, sizeof path, "%s/fake-gnuplot.sh", workdir);
    assert_int_equal(chmod(path, 0755), 0);
}

static void test_cli_outputs_checked_before_the_run(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "bench --sizes 32 --repeat 1 --quiet --json '%s/no/such/dir/r.json'", workdir);
    assert_int_equal(run_cli(args), GK_EXIT_FAILED);
    char *out = slurp("out.txt"), *err = slurp("err.txt");
    if (!strstr(err, "cannot create") || out[0]) fail_msg("stdout \"%.300s\", stderr \"%s\"", out, err);
    free(out);
    free(err);
    /* A directory is not replaced, and nothing ran either. */
    snprintf(args, sizeof args, "bench --sizes 32 --repeat 1 --quiet --csv '%s'", workdir);
    assert_int_equal(run_cli(args), GK_EXIT_FAILED);
    out = slurp("out.txt"), err = slurp("err.txt");
    if (!strstr(err, "is a directory") || out[0]) fail_msg("stdout \"%.300s\", stderr \"%s\"", out, err);
    free(out);
    free(err);
}

static void test_cli_failed_writes_keep_previous_files(void **state)
{
    (void)state;
    write_fake_gnuplot();
    write_text("kept.json", "previous JSON\n");
    write_text("kept.csv", "previous CSV\n");
    write_text("kept.png", "previous PNG\n");
    char prefix[600], files[1024], args[1200];
    snprintf(prefix, sizeof prefix, "GEMMKIT_GNUPLOT='%s/fake-gnuplot.sh'; export GEMMKIT_GNUPLOT;", workdir);
    snprintf(files, sizeof files, "--json '%s/kept.json' --csv '%s/kept.csv' --plot '%s/kept.png'", workdir, workdir,
             workdir);
    /* Every file is larger than 4 blocks (2 kB in dash, 4 kB in bash): each write fails midway. The
     * OpenCL compiler writes temporary files larger than that, so no gemmkit kernel runs here: the
     * CUDA-only kernel is skipped on OpenCL, and the host baseline fills the files. */
    snprintf(args, sizeof args, "bench --kernel tutorial-8-cuda --no-peers --sizes 32 --repeat 50 --quiet %s", files);
    char limited[700];
    snprintf(limited, sizeof limited, "%s ulimit -f 4;", prefix);
    run_cli_after(limited, args, 0);
    char *err = slurp("err.txt");
    if (!strstr(err, "kept.json: writing failed: File too large") || !strstr(err, "kept.csv: writing failed: File too large") ||
        !strstr(err, "plot not written"))
        fail_msg("stderr \"%s\"", err);
    free(err);
    expect_file("kept.json", "previous JSON\n");
    expect_file("kept.csv", "previous CSV\n");
    expect_file("kept.png", "previous PNG\n");
    expect_no_temp_files(workdir);
    /* Without the limit a run replaces all three. */
    snprintf(args, sizeof args, "bench --sizes 32 --repeat 2 --quiet %s", files);
    assert_int_equal(run_cli_after(prefix, args, 0), GK_EXIT_OK);
    char *json = slurp("kept.json"), *csv = slurp("kept.csv"), *png = slurp("kept.png");
#ifdef GEMMKIT_HAVE_JANSSON
    assert_non_null(strstr(json, "gemmkit-bench/1"));
#endif
    assert_non_null(strstr(csv, "# command line: gemmkit"));
    assert_memory_equal(png, "\x89PNG", 4);
    free(json);
    free(csv);
    free(png);
    expect_no_temp_files(workdir);
}

/* Without gnuplot, --plot is a warning: the results are still measured and written. */
static void test_cli_plot_without_plotter_warns(void **state)
{
    (void)state;
    char prefix[600], args[1024];
    snprintf(prefix, sizeof prefix, "GEMMKIT_GNUPLOT='%s/no-gnuplot'; export GEMMKIT_GNUPLOT;", workdir);
    snprintf(args, sizeof args, "bench --sizes 32 --repeat 1 --quiet --csv '%s/p.csv' --plot '%s/p.png'", workdir,
             workdir);
    int rc = run_cli_after(prefix, args, 1);
    char *err = slurp("err.txt"), *csv = slurp("p.csv");
    if (rc != GK_EXIT_OK || !strstr(err, "warning") || !strstr(err, "gnuplot is missing"))
        fail_msg("exit %d, stderr \"%s\"", rc, err);
    assert_non_null(csv);
    char png[512];
    snprintf(png, sizeof png, "%s/p.png", workdir);
    assert_int_not_equal(access(png, F_OK), 0);
    free(err);
    free(csv);
}

static int make_workdir(void **state)
{
    (void)state;
    return workdir_make("bench-cli");
}

static int remove_workdir(void **state)
{
    (void)state;
    return workdir_remove();
}

int main(void)
{
    const struct CMUnitTest parsing[] = {
        cmocka_unit_test(test_sizes_squares_and_shapes),
        cmocka_unit_test(test_sizes_sweeps),
        cmocka_unit_test(test_sizes_rejected),
        cmocka_unit_test(test_sizes_presets),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_options_rejected),
    };
    const struct CMUnitTest command[] = {
        cmocka_unit_test(test_cli_bad_arguments_exit_2),
        cmocka_unit_test_setup(test_cli_tiny_run_table, tiny_run),
        cmocka_unit_test(test_cli_csv_file),
        cmocka_unit_test(test_cli_json_file),
        cmocka_unit_test(test_cli_param_lines),
        cmocka_unit_test_setup(test_cli_transpose_table, transpose_run),
        cmocka_unit_test(test_cli_transpose_csv),
        cmocka_unit_test(test_cli_transpose_json),
        cmocka_unit_test(test_cli_cpu_blas_peer_absent),
        cmocka_unit_test(test_cli_nothing_measured_fails),
        cmocka_unit_test(test_cli_max_time_bounds_the_first_size),
        cmocka_unit_test(test_cli_results_once_in_a_shared_file),
        cmocka_unit_test(test_cli_outputs_checked_before_the_run),
        cmocka_unit_test(test_cli_failed_writes_keep_previous_files),
        cmocka_unit_test(test_cli_plot_without_plotter_warns),
    };
    int failed = cmocka_run_group_tests_name("bench arguments", parsing, NULL, NULL);
    failed += cmocka_run_group_tests_name("bench command", command, make_workdir, remove_workdir);
    return failed;
}
