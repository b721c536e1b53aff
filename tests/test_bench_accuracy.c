/* The accuracy side of `gemmkit bench` (issue 14): the float64 reference of an
 * input set (every element, or a grid of sampled rows x columns), the max and
 * RMS error of each result, --inputs wide (the same inputs scaled by powers of
 * two, deterministic per seed), the TF32 peer judged by its own bound on wide
 * inputs (the mock cuBLAS), and the error columns of the command's table,
 * JSON and CSV on this device. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_workdir.h"
#include "bench.h"
#include "test_support.h"

#ifdef GEMMKIT_HAVE_JANSSON
#include <jansson.h>
#endif

static double fp32_bound(int64_t k) { return 2.0 * (double)(k + 2) * FLT_EPSILON; }

/* ---- the reference ---- */

static double dot(const gk_sgemm_case *c, const float *a, const float *b, int64_t i, int64_t j, double *mag)
{
    const int rm = c->layout == GEMMKIT_ROW_MAJOR, ta = c->trans_a != GEMMKIT_NO_TRANS,
              tb = c->trans_b != GEMMKIT_NO_TRANS;
    double s = 0.0, m = 0.0;
    for (int64_t l = 0; l < c->k; l++) {
        const int64_t ar = ta ? l : i, ac = ta ? i : l, br = tb ? j : l, bc = tb ? l : j;
        const double p = (double)a[rm ? ar * c->lda + ac : ac * c->lda + ar] * (double)b[rm ? br * c->ldb + bc : bc * c->ldb + br];
        s += p;
        m += fabs(p);
    }
    *mag = fabs((double)c->alpha) * m;
    return (double)c->alpha * s;
}

static void expect_reference(const gk_sgemm_case *c, const float *a, const float *b, const gk_bench_reference *ref)
{
    for (int64_t r = 0; r < ref->row_count; r++)
        for (int64_t q = 0; q < ref->col_count; q++) {
            double mag, want = dot(c, a, b, ref->rows[r], ref->cols[q], &mag);
            const size_t at = (size_t)(r * ref->col_count + q);
            if (fabs(ref->ref[at] - want) > 1e-12 * mag || fabs(ref->mag[at] - mag) > 1e-12 * mag)
                fail_msg("reference of C(%lld,%lld): %.17g (mag %.17g), want %.17g (mag %.17g)", (long long)ref->rows[r],
                         (long long)ref->cols[q], ref->ref[at], ref->mag[at], want, mag);
        }
}

static void fill_case(gk_sgemm_case *c, float **a, float **b)
{
    gk_case_complete(c);
    size_t ea, eb, ec;
    gk_case_extents(c, &ea, &eb, &ec);
    *a = malloc(ea * sizeof **a);
    *b = malloc(eb * sizeof **b);
    assert_true(*a && *b);
    gk_fill_random(&test_rng, *a, ea);
    gk_fill_random(&test_rng, *b, eb);
}

/* Small problems: every element, each equal to a float64 dot product, alpha included. */
static void test_reference_full(void **state)
{
    (void)state;
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 40, 30, 20, -1.5f, 0.0f, 0, 0, 0};
    float *a, *b;
    fill_case(&c, &a, &b);
    gk_bench_reference ref;
    assert_int_equal(gk_bench_reference_make(&c, a, b, &test_rng, &ref), 0);
    assert_true(ref.ready && ref.full);
    assert_int_equal(ref.row_count, 40);
    assert_int_equal(ref.col_count, 30);
    for (int64_t i = 0; i < 40; i++) assert_int_equal(ref.rows[i], i);
    expect_reference(&c, a, b, &ref);
    gk_bench_reference_free(&ref);
    free(a);
    free(b);
}

static void expect_picks(const int64_t *idx, int64_t count, int64_t n)
{
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[count - 1], n - 1); /* the edges, so the corners, are always checked */
    for (int64_t i = 1; i < count; i++) assert_true(idx[i] > idx[i - 1]);
    /* Spread over the matrix: the middle pick lies in the middle third. */
    assert_true(idx[count / 2] > n / 3 && idx[count / 2] < 2 * n / 3);
}

/* Beyond 512^3 multiply-adds: a grid of 128 x 128 (K <= 16384), distinct, ascending, edges
 * included, the same for the same rng state, and every element exact. */
static void test_reference_sampled_grid(void **state)
{
    (void)state;
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 1000, 700, 300, 1.0f, 0.0f, 0, 0, 0};
    float *a, *b;
    fill_case(&c, &a, &b);
    gk_rng pick = test_rng, again = test_rng;
    gk_bench_reference ref, ref2;
    assert_int_equal(gk_bench_reference_make(&c, a, b, &pick, &ref), 0);
    assert_false(ref.full);
    assert_int_equal(ref.row_count, GK_BENCH_GRID_MAX);
    assert_int_equal(ref.col_count, GK_BENCH_GRID_MAX);
    expect_picks(ref.rows, ref.row_count, c.m);
    expect_picks(ref.cols, ref.col_count, c.n);
    expect_reference(&c, a, b, &ref);
    assert_int_equal(gk_bench_reference_make(&c, a, b, &again, &ref2), 0);
    assert_memory_equal(ref.rows, ref2.rows, sizeof(int64_t) * (size_t)ref.row_count);
    assert_memory_equal(ref.cols, ref2.cols, sizeof(int64_t) * (size_t)ref.col_count);
    assert_memory_equal(ref.ref, ref2.ref, sizeof(double) * (size_t)(ref.row_count * ref.col_count));
    gk_bench_reference_free(&ref);
    gk_bench_reference_free(&ref2);
    /* A skinny C: every one of its 32 columns, sampled rows; a long K: fewer (at least 64) per side. */
    gk_sgemm_case skinny = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 3000, 32, 2000, 1.0f, 0.0f, 0, 0, 0};
    float *sa, *sb;
    fill_case(&skinny, &sa, &sb);
    assert_int_equal(gk_bench_reference_make(&skinny, sa, sb, &test_rng, &ref), 0);
    assert_int_equal(ref.col_count, 32);
    assert_int_equal(ref.row_count, GK_BENCH_GRID_MAX);
    expect_reference(&skinny, sa, sb, &ref);
    gk_bench_reference_free(&ref);
    free(sa);
    free(sb);
    /* K = 65536: 64 x 64, GK_BENCH_GRID_WORK multiply-adds in all. */
    gk_sgemm_case deep = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 150, 150, 65536, 1.0f, 0.0f, 0, 0, 0};
    fill_case(&deep, &sa, &sb);
    assert_int_equal(gk_bench_reference_make(&deep, sa, sb, &test_rng, &ref), 0);
    assert_int_equal(ref.row_count, GK_BENCH_GRID_MIN);
    assert_int_equal(ref.col_count, GK_BENCH_GRID_MIN);
    double mag, want = dot(&deep, sa, sb, ref.rows[37], ref.cols[11], &mag);
    assert_true(fabs(ref.ref[37 * ref.col_count + 11] - want) <= 1e-12 * mag);
    gk_bench_reference_free(&ref);
    free(sa);
    free(sb);
    /* K beyond one packed panel (2^24 floats for 64 + 64 lines: 131072 of K): the panels add up. */
    gk_sgemm_case panels = {GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 64, 64, 140000, 0.5f, 0.0f, 0, 0, 0};
    fill_case(&panels, &sa, &sb);
    assert_int_equal(gk_bench_reference_make(&panels, sa, sb, &test_rng, &ref), 0);
    assert_int_equal(ref.row_count * ref.col_count, 64 * 64);
    for (int e = 0; e < 8; e++) {
        const int64_t r = (e * 37) % 64, q = (e * 23 + 5) % 64;
        want = dot(&panels, sa, sb, ref.rows[r], ref.cols[q], &mag);
        assert_true(fabs(ref.ref[r * 64 + q] - want) <= 1e-12 * mag && fabs(ref.mag[r * 64 + q] - mag) <= 1e-12 * mag);
    }
    gk_bench_reference_free(&ref);
    free(sa);
    free(sb);
    free(a);
    free(b);
}

/* ---- error statistics of a result ---- */

/* A result rounded to float from the float64 reference: errors are that rounding alone, so
 * 0 < RMS <= max <= 2^-24 (|c| <= sum |a||b|); the statistics add up over two input sets. */
static void test_error_statistics(void **state)
{
    (void)state;
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 90, 70, 50, 1.0f, 0.0f, 0, 0, 0};
    float *a, *b;
    fill_case(&c, &a, &b);
    float *out = malloc(sizeof(float) * 90 * 70);
    assert_non_null(out);
    assert_int_equal(gemmkit_sgemm_reference(c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, 1.0f, a, c.lda, b, c.ldb,
                                             0.0f, out, c.ldc),
                     GEMMKIT_SUCCESS);
    gk_bench_reference ref = {0};
    gk_bench_record rec;
    memset(&rec, 0, sizeof rec);
    assert_int_equal(gk_bench_check_sgemm(&c, a, b, &ref, out, 0.0, &test_rng, &rec), 1);
    assert_string_equal(rec.check, "full");
    assert_int_equal(rec.error_count, 90 * 70);
    assert_true(rec.max_error > 0.0 && rec.max_error <= 0.5 * FLT_EPSILON);
    assert_true(rec.rms_error > 0.0 && rec.rms_error <= rec.max_error);
    const double max1 = rec.max_error, rms1 = rec.rms_error;
    /* The same set again: the count doubles, the max and RMS stay. */
    assert_int_equal(gk_bench_check_sgemm(&c, a, b, &ref, out, 0.0, &test_rng, &rec), 1);
    assert_int_equal(rec.error_count, 2 * 90 * 70);
    assert_true(rec.max_error == max1 && fabs(rec.rms_error - rms1) <= 1e-12 * rms1);
    /* One element off by 10x the bound: WRONG, and the max says by how much. */
    double mag;
    dot(&c, a, b, 5, 6, &mag);
    out[6 * c.ldc + 5] += (float)(10.0 * fp32_bound(c.k) * mag);
    memset(&rec, 0, sizeof rec);
    assert_int_equal(gk_bench_check_sgemm(&c, a, b, &ref, out, 0.0, &test_rng, &rec), 0);
    assert_non_null(strstr(rec.message, "WRONG"));
    assert_true(rec.max_error > 9.0 * fp32_bound(c.k) && rec.max_error < 11.0 * fp32_bound(c.k));
    assert_true(rec.rms_error <= rec.max_error && rec.rms_error > rec.max_error / sqrt(90.0 * 70.0) * 0.99);
    gk_bench_reference_free(&ref);
    free(out);
    free(a);
    free(b);
}

/* ---- --inputs wide ---- */

static void session_init(gk_bench_session *s, gk_bench_args *args, const char *sizes, int wide, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    gk_bench_args_default(args);
    char err[GK_BENCH_ERR];
    assert_int_equal(
        gk_bench_parse_sizes(sizes, args->sizes, GK_BENCH_MAX_SIZES, &args->size_count, NULL, NULL, err), 0);
    args->repeat = 2;
    args->baseline = 0;
    args->wide_inputs = wide;
    s->args = args;
    s->ctx = test_ctx;
    gemmkit_context_device_info(test_ctx, &s->info);
    s->report.args = args;
    s->report.device = s->info;
    s->report.seed = seed;
    gk_rng_seed(&s->rng, seed);
}

static void make_inputs(gk_bench_session *s, gk_bench_inputs *in)
{
    const gk_bench_size *z = &s->args->sizes[0];
    gk_case kase;
    gk_routine_gemm.case_of((const int64_t[3]){z->m, z->n, z->k}, s->args->layout, s->args->trans_a,
                            s->args->trans_b, &kase);
    assert_int_equal(gk_bench_inputs_make(s, &gk_routine_gemm, &kase, in), 0);
}

/* Wide inputs are the uniform ones times 2^e, |e| <= 40, with magnitudes over many binades; the
 * same seed gives the same inputs (and another seed others); the poisoned C is untouched. */
static void test_wide_inputs(void **state)
{
    (void)state;
    const uint64_t seed = gk_rng_fresh_seed();
    gk_bench_session s;
    gk_bench_args args;
    gk_bench_inputs uniform, wide, again, other;
    session_init(&s, &args, "96x80x64", 0, seed);
    make_inputs(&s, &uniform);
    session_init(&s, &args, "96x80x64", 0, seed + 1);
    make_inputs(&s, &other);
    session_init(&s, &args, "96x80x64", 1, seed);
    make_inputs(&s, &wide);
    make_inputs(&s, &again);
    assert_true(uniform.sets >= 1 && wide.sets == uniform.sets);
    for (int set = 0; set < wide.sets; set++) {
        for (int op = 0; op < 3; op++)
            assert_memory_equal(wide.ops[set][op], again.ops[set][op], wide.extent[op] * sizeof(float));
        assert_true(memcmp(uniform.ops[set][0], other.ops[set][0], uniform.extent[0] * sizeof(float)) != 0);
        for (int op = 0; op < 2; op++) {
            float largest = 0.0f, smallest = INFINITY;
            for (size_t i = 0; i < wide.extent[op]; i++) {
                const float u = uniform.ops[set][op][i], w = wide.ops[set][op][i];
                assert_true(u >= -1.0f && u < 1.0f); /* [-1, 1): -1 once in 2^24 draws */
                if (u == 0.0f) {
                    assert_true(w == 0.0f);
                    continue;
                }
                int eu, ew;
                const float mu = frexpf(u, &eu), mw = frexpf(w, &ew);
                if (mu != mw || abs(ew - eu) > 40)
                    fail_msg("operand %d element %zu: wide %g is not uniform %g times 2^e, |e| <= 40", op, i, w, u);
                largest = fabsf(w) > largest ? fabsf(w) : largest;
                smallest = fabsf(w) < smallest ? fabsf(w) : smallest;
            }
            assert_true(largest > 1024.0f && smallest < 1.0f / 1024.0f);
            /* Scaled per row and per column: the exponent added is e(row) + f(column), both varying. */
            const int64_t rows = op == 0 ? 96 : 64, cols = op == 0 ? 64 : 80; /* column-major, tight */
            int row_varies = 0, col_varies = 0;
            for (int64_t c = 0; c < cols; c++)
                for (int64_t r = 0; r < rows; r++) {
                    const float *u = uniform.ops[set][op], *w = wide.ops[set][op];
                    const size_t at = (size_t)(c * rows + r), r0 = (size_t)r, c0 = (size_t)(c * rows);
                    if (u[at] == 0.0f || u[r0] == 0.0f || u[c0] == 0.0f || u[0] == 0.0f) continue;
                    const int d = ilogbf(w[at]) - ilogbf(u[at]), dr = ilogbf(w[r0]) - ilogbf(u[r0]);
                    const int dc = ilogbf(w[c0]) - ilogbf(u[c0]), d0 = ilogbf(w[0]) - ilogbf(u[0]);
                    assert_int_equal(d - dr - dc + d0, 0);
                    row_varies |= dr != d0;
                    col_varies |= dc != d0;
                }
            assert_true(row_varies && col_varies);
        }
        for (size_t i = 0; i < wide.extent[2]; i++) assert_true(isnan(wide.ops[set][2][i]));
    }
    gk_bench_inputs_free(&uniform);
    gk_bench_inputs_free(&other);
    gk_bench_inputs_free(&wide);
    gk_bench_inputs_free(&again);
}

static const gk_bench_record *find(const gk_bench_report *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->records[i].name, name) == 0) return &r->records[i];
    fail_msg("no record named %s", name);
    return NULL;
}

/* On wide inputs gemmkit and cuBLAS fp32 (the mock, on the host) stay within the fp32 bound, and
 * cuBLAS TF32 (the mock truncates inputs to 10 bits) is judged by its own bound: ok, though its
 * error is far beyond fp32's. */
/* The cuBLAS peer's two runners (fp32, TF32) over the mock cuBLAS. */
static void open_mock_cublas(gk_runner *runners[2])
{
    setenv("GEMMKIT_CUDART", GEMMKIT_MOCK_CUDA, 1);
    setenv("GEMMKIT_CUBLAS", GEMMKIT_MOCK_CUDA, 1);
    gemmkit_device_info device;
    memset(&device, 0, sizeof device);
    snprintf(device.name, sizeof device.name, "NVIDIA Mock GPU");
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    assert_int_equal(gk_peer_cublas_open(test_ctx, &device, runners, 2, &info), 2);
    unsetenv("GEMMKIT_CUDART");
    unsetenv("GEMMKIT_CUBLAS");
}

static void test_wide_inputs_and_tf32_bound(void **state)
{
    (void)state;
    gk_runner *runners[2] = {NULL, NULL};
    open_mock_cublas(runners);
    gk_bench_session s;
    gk_bench_args args;
    session_init(&s, &args, "72x56x200", 1, gk_rng_fresh_seed());
    s.peers[0] = runners[0];
    s.peers[1] = runners[1];
    s.peer_count = 2;
    gk_bench_sgemm(&s);
    const double bound = fp32_bound(200);
    const char *fp32[] = {"best", "cublas"};
    for (int i = 0; i < 2; i++) {
        const gk_bench_record *r = find(&s.report, fp32[i]);
        if (r->status != GK_BENCH_OK) fail_msg("%s on wide inputs: %s", fp32[i], r->message);
        assert_true(r->max_error > 0.0 && r->max_error <= bound);
        assert_true(r->rms_error > 0.0 && r->rms_error <= r->max_error);
        assert_int_equal(r->error_count, 72 * 56 * r->sets);
    }
    const gk_bench_record *tf32 = find(&s.report, "cublas-tf32");
    if (tf32->status != GK_BENCH_OK) fail_msg("cublas-tf32 on wide inputs: %s", tf32->message);
    assert_true(tf32->max_error > bound && tf32->max_error <= bound + 2.0 * runners[1]->input_rounding);
    assert_true(tf32->rms_error > 0.0 && tf32->rms_error <= tf32->max_error);
    gk_bench_close_peers(&s);
    gk_bench_report_free(&s.report);
}

/* Strided batches (issue 34's bench fix): the TF32 peer is judged by TF32's bound, as single calls are, and not
 * reported wrong; the fp32 runners by fp32's. The mock's TF32 truncates each input to 10 bits. */
static void test_batched_peers_by_their_own_bound(void **state)
{
    (void)state;
    gk_runner *runners[2] = {NULL, NULL};
    open_mock_cublas(runners);
    assert_int_equal(runners[0]->math, GEMMKIT_MATH_FP32);
    assert_int_equal(runners[1]->math, GEMMKIT_MATH_TF32);
    gk_bench_session s;
    gk_bench_args args;
    session_init(&s, &args, "24x20x256", 0, gk_rng_fresh_seed());
    args.batch = 6;
    s.peers[0] = runners[0];
    s.peers[1] = runners[1];
    s.peer_count = 2;
    gk_bench_sgemm(&s);
    const char *names[] = {"best", "cublas", "cublas-tf32"};
    for (int i = 0; i < 3; i++) {
        const gk_bench_record *r = find(&s.report, names[i]);
        if (r->status != GK_BENCH_OK) fail_msg("%s, a batch of 6: %s", names[i], r->message);
    }
    /* The TF32 peer's error is past fp32's bound: only its own mode's bound lets it pass. */
    assert_true(find(&s.report, "cublas-tf32")->max_error > fp32_bound(256));
    gk_bench_close_peers(&s);
    gk_bench_report_free(&s.report);
}

/* ---- the command ---- */

/* gemmkit bench ARGS with GEMMKIT_SEED=seed; stdout in NAME.txt, stderr in err.txt. Returns the exit status. */
static int bench(uint64_t seed, const char *name, const char *args)
{
    char command[2048];
    snprintf(command, sizeof command, "GEMMKIT_SEED=%llu '%s' bench %s >'%s/%s.txt' 2>'%s/err.txt'",
             (unsigned long long)seed, GEMMKIT_CLI_PATH, args, workdir, name, workdir);
    const int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_cli_bad_inputs_is_usage(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"--inputs gaussian", "--inputs must be uniform or wide, not \"gaussian\""},
        {"--inputs", "--inputs needs a value"},
        {"--transpose --inputs wide", "--inputs wide is for plain SGEMM, not --transpose"},
        {"--batch 4 --inputs wide", "--inputs wide is for plain SGEMM, not --batch"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int rc = bench(1, "out", cases[i][0]);
        char *err = slurp("err.txt");
        assert_non_null(err);
        if (rc != GK_EXIT_USAGE || !strstr(err, cases[i][1]))
            fail_msg("bench %s: exit %d (want 2), stderr \"%s\" (want \"%s\")", cases[i][0], rc, err, cases[i][1]);
        free(err);
    }
}

#ifdef GEMMKIT_HAVE_JANSSON
typedef struct errors {
    double max, rms;
    long long elements;
} errors;

/* Every ok SGEMM result of a run's JSON: within the fp32 bound (gemmkit fp32 and the fp32 peers),
 * 0 < RMS <= max, the elements counted; returns best's errors at size n (m = n = k) or 200x300x2300. */
static errors check_json(const char *name, const char *inputs, int64_t want_m)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    json_error_t error;
    json_t *root = json_load_file(path, 0, &error);
    if (!root) fail_msg("%s does not parse: %s", name, error.text);
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "settings"), "inputs")), inputs);
    assert_non_null(strstr(json_string_value(json_object_get(root, "title")), inputs));
    json_t *results = json_object_get(root, "results");
    errors best = {-1.0, -1.0, 0};
    int checked = 0;
    for (size_t i = 0; i < json_array_size(results); i++) {
        json_t *r = json_array_get(results, i);
        const char *status = json_string_value(json_object_get(r, "status"));
        const char *kind = json_string_value(json_object_get(r, "kind"));
        const char *rname = json_string_value(json_object_get(r, "name"));
        if (strcmp(kind, "peer") != 0 && strcmp(status, "ok") != 0)
            fail_msg("%s: %s is %s: %s", name, rname, status, json_string_value(json_object_get(r, "message")));
        /* TF32 peers (cublas-tf32, where cuBLAS is there) are judged by their own bound in bench. */
        if (strcmp(status, "ok") != 0 || strstr(rname, "tf32")) continue;
        const int64_t m = json_integer_value(json_object_get(r, "m")), n = json_integer_value(json_object_get(r, "n")),
                      k = json_integer_value(json_object_get(r, "k"));
        json_t *check = json_object_get(r, "check");
        const double max = json_number_value(json_object_get(check, "max_error_of_scale"));
        const double rms = json_number_value(json_object_get(check, "rms_error_of_scale"));
        const long long elements = json_integer_value(json_object_get(check, "elements"));
        const int sets = (int)json_integer_value(json_object_get(r, "input_sets"));
        const char *method = json_string_value(json_object_get(check, "method"));
        if (!(max > 0.0 && max <= fp32_bound(k) && rms > 0.0 && rms <= max))
            fail_msg("%s: %s at %lldx%lldx%lld: max %g, RMS %g (fp32 bound %g)", name, rname, (long long)m,
                     (long long)n, (long long)k, max, rms, fp32_bound(k));
        if (strcmp(method, "full") == 0) assert_int_equal(elements, m * n * sets);
        else assert_int_equal(elements, (m < 128 ? m : 128) * (n < 128 ? n : 128) * sets);
        if (strcmp(rname, "best") == 0 && m == want_m) best = (errors){max, rms, elements};
        checked++;
    }
    assert_true(checked >= 2 && best.max > 0.0);
    json_decref(root);
    return best;
}
#endif

/* The error columns on this device, uniform and wide inputs, a full and a sampled check; the
 * same seed gives the same inputs and so the same errors, wide inputs other errors. */
static void test_cli_error_columns(void **state)
{
    (void)state;
    const uint64_t seed = gk_rng_fresh_seed();
    char args[1024];
    const char *const runs[][2] = {{"uniform", "u1"}, {"uniform", "u2"}, {"wide", "w"}};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args,
                 "--sizes 64,200x300x2300 --repeat 1 --sets 2 --no-baseline --max-time 1000 --inputs %s "
                 "--json '%s/%s.json' --csv '%s/%s.csv'",
                 runs[i][0], workdir, runs[i][1], workdir, runs[i][1]);
        const int rc = bench(seed, runs[i][1], args);
        char *err = slurp("err.txt");
        if (rc != 0) fail_msg("bench %s: exit %d: %s", args, rc, err);
        free(err);
    }
    char *table = slurp("w.txt");
    assert_non_null(table);
    assert_non_null(strstr(table, " max err  rms err "));
    assert_non_null(strstr(table, "inputs wide"));
    assert_non_null(strstr(table, "  full"));
    assert_non_null(strstr(table, "  sampled"));
    free(table);
    char *csv = slurp("w.csv");
    assert_non_null(csv);
    assert_non_null(strstr(csv, ",check,max_error,rms_error,checked_elements,message,"));
    assert_non_null(strstr(csv, "\n# inputs: wide"));
    free(csv);
#ifdef GEMMKIT_HAVE_JANSSON
    const int64_t sizes[] = {64, 200};
    for (int z = 0; z < 2; z++) {
        char json[3][16];
        for (int i = 0; i < 3; i++) snprintf(json[i], sizeof json[i], "%s.json", runs[i][1]);
        const errors u1 = check_json(json[0], "uniform", sizes[z]), u2 = check_json(json[1], "uniform", sizes[z]);
        const errors w = check_json(json[2], "wide", sizes[z]);
        assert_true(u1.max == u2.max && u1.rms == u2.rms && u1.elements == u2.elements);
        assert_true(w.elements == u1.elements && (w.max != u1.max || w.rms != u1.rms));
    }
#endif
}

static int make_workdir(void **state)
{
    (void)state;
    return workdir_make("bench-accuracy");
}

static int remove_workdir(void **state)
{
    (void)state;
    return workdir_remove();
}

int main(void)
{
    const struct CMUnitTest units[] = {
        cmocka_unit_test(test_reference_full),
        cmocka_unit_test(test_reference_sampled_grid),
        cmocka_unit_test(test_error_statistics),
        cmocka_unit_test(test_wide_inputs),
        cmocka_unit_test(test_wide_inputs_and_tf32_bound),
        cmocka_unit_test(test_batched_peers_by_their_own_bound),
    };
    const struct CMUnitTest command[] = {
        cmocka_unit_test(test_cli_bad_inputs_is_usage),
        cmocka_unit_test(test_cli_error_columns),
    };
    (void)assert_case_ok;
    int failed = cmocka_run_group_tests_name("bench accuracy", units, test_setup_context, test_teardown_context);
    failed += cmocka_run_group_tests_name("bench accuracy command", command, make_workdir, remove_workdir);
    return failed;
}
