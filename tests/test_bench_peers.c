/* The benchmark's runners and checks: a wrong result becomes an error and
 * never a speed (fake runners that corrupt, skip or fail), gemmkit's own
 * runner, CLBlast through the peer interface on this device when
 * libclblast is installed, cuBLAS declining non-NVIDIA devices, and the CPU
 * BLAS peer and gemmkit on host arrays (on a CPU device, the routed call). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include "bench.h"
#include "host_blas.h"
#include "test_support.h"

/* ---- a fake runner on host memory, with a chosen fault ---- */

typedef enum fault { FAULT_NONE, FAULT_PERTURB, FAULT_UNWRITTEN, FAULT_FAIL } fault;

typedef struct fake_state {
    fault fault;
    float *slots[GK_RUNNER_SLOTS];
    size_t counts[GK_RUNNER_SLOTS];
} fake_state;

static int f_alloc(gk_runner *r, int slot, size_t count, char *err)
{
    fake_state *st = r->state;
    (void)err;
    free(st->slots[slot]);
    st->slots[slot] = calloc(count ? count : 1, sizeof(float));
    st->counts[slot] = count;
    return st->slots[slot] ? 0 : -1;
}

static int f_write(gk_runner *r, int slot, const float *src, size_t count, char *err)
{
    (void)err;
    memcpy(((fake_state *)r->state)->slots[slot], src, count * sizeof(float));
    return 0;
}

static int f_read(gk_runner *r, int slot, float *dst, size_t count, char *err)
{
    (void)err;
    memcpy(dst, ((fake_state *)r->state)->slots[slot], count * sizeof(float));
    return 0;
}

static int f_sgemm(gk_runner *r, const gk_sgemm_case *c, int a, int b, int slot_c, gk_bench_timing *t, char *err)
{
    fake_state *st = r->state;
    if (st->fault == FAULT_FAIL) {
        snprintf(err, GK_BENCH_ERR, "the fake device failed on purpose");
        return -1;
    }
    float *out = st->slots[slot_c];
    /* Element (1, 1) before the call: an unwritten element keeps its NaN poison. */
    size_t keep = (size_t)(c->ldc + 1); /* (1, 1) in either layout */
    float kept = out[keep];
    gemmkit_sgemm_reference(c->layout, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, st->slots[a], c->lda,
                            st->slots[b], c->ldb, c->beta, out, c->ldc);
    if (st->fault == FAULT_PERTURB) out[keep] += 0.01f;
    if (st->fault == FAULT_UNWRITTEN) out[keep] = kept;
    t->kernel_ms = t->total_ms = 1.0;
    return 0;
}

static void f_release(gk_runner *r)
{
    fake_state *st = r->state;
    for (int i = 0; i < GK_RUNNER_SLOTS; i++) {
        free(st->slots[i]);
        st->slots[i] = NULL;
    }
}

static void f_destroy(gk_runner *r)
{
    f_release(r);
    free(r->state);
    free(r);
}

static gk_runner *fake_runner(const char *name, fault f)
{
    gk_runner *r = calloc(1, sizeof *r);
    fake_state *st = calloc(1, sizeof *st);
    assert_non_null(r);
    assert_non_null(st);
    st->fault = f;
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->label, sizeof r->label, "fake runner %s", name);
    snprintf(r->kind, sizeof r->kind, "peer");
    r->state = st;
    r->alloc = f_alloc;
    r->write = f_write;
    r->read = f_read;
    r->run = gk_peer_run;
    r->sgemm = f_sgemm;
    r->release = f_release;
    r->destroy = f_destroy;
    return r;
}

/* A session over the test context, for gk_bench_sgemm. */
static void session_init(gk_bench_session *s, gk_bench_args *args, const char *sizes)
{
    memset(s, 0, sizeof *s);
    gk_bench_args_default(args);
    char err[GK_BENCH_ERR];
    assert_int_equal(
        gk_bench_parse_sizes(sizes, args->sizes, GK_BENCH_MAX_SIZES, &args->size_count, NULL, NULL, err), 0);
    args->repeat = 3;
    args->baseline = 0;
    s->args = args;
    s->ctx = test_ctx;
    gemmkit_context_device_info(test_ctx, &s->info);
    s->report.args = args;
    s->report.device = s->info;
    s->report.seed = gk_rng_fresh_seed(); /* the input sets' seeds derive from it: fresh inputs each run */
    gk_rng_seed(&s->rng, s->report.seed);
}

static const gk_bench_record *find(const gk_bench_report *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(r->records[i].name, name) == 0) return &r->records[i];
    fail_msg("no record named %s", name);
    return NULL;
}

static void test_wrong_results_are_errors_not_speeds(void **state)
{
    (void)state;
    gk_bench_session s;
    gk_bench_args args;
    session_init(&s, &args, "37x29x41");
    s.peers[0] = fake_runner("fake-right", FAULT_NONE);
    s.peers[1] = fake_runner("fake-perturbed", FAULT_PERTURB);
    s.peers[2] = fake_runner("fake-unwritten", FAULT_UNWRITTEN);
    s.peers[3] = fake_runner("fake-failing", FAULT_FAIL);
    s.peer_count = 4;
    gk_bench_sgemm(&s);

    const gk_bench_record *best = find(&s.report, "best");
    assert_int_equal(best->status, GK_BENCH_OK);
    assert_int_equal(best->count, 3);
    assert_true(gk_bench_rate(best, best->kernel_ms) > 0.0);

    const gk_bench_record *right = find(&s.report, "fake-right");
    assert_int_equal(right->status, GK_BENCH_OK);
    assert_string_equal(right->check, "full");
    assert_true(gk_bench_rate(right, right->total_ms) > 0.0);

    const char *broken[] = {"fake-perturbed", "fake-unwritten"};
    for (int i = 0; i < 2; i++) {
        const gk_bench_record *r = find(&s.report, broken[i]);
        assert_int_equal(r->status, GK_BENCH_WRONG);
        assert_non_null(strstr(r->message, "WRONG"));
        assert_true(gk_bench_rate(r, r->total_ms) == 0.0); /* no speed for a wrong result */
    }
    const gk_bench_record *failing = find(&s.report, "fake-failing");
    assert_int_equal(failing->status, GK_BENCH_ERROR);
    assert_non_null(strstr(failing->message, "on purpose"));
    /* The ratio to a peer with a wrong result is not reported. */
    assert_true(gk_bench_ratio(&s.report, best, "fake-perturbed") == 0.0);
    assert_true(gk_bench_ratio(&s.report, best, "fake-right") > 0.0);
    gk_bench_close_peers(&s);
    gk_bench_report_free(&s.report);
}

/* Beyond the full-check size only samples are compared, yet an unwritten (NaN) element anywhere is still caught,
 * in either layout, and named by its (row, column); the padding between C's columns (or rows) is not C's. */
/* A case's operands, C's leading dimension padded past its stored lines: the arrays and their extents. */
typedef struct padded_operands {
    float *a, *b, *c;
    size_t ea, eb, ec;
} padded_operands;

/* c completed, with C's leading dimension `pad` floats past its stored lines; its operands allocated into *o. */
static gk_sgemm_case padded_case(gk_sgemm_case c, int64_t pad, padded_operands *o)
{
    gk_case_complete(&c);
    int64_t lines, along;
    gk_case_c_lines(&c, &lines, &along);
    c.ldc = along + pad;
    gk_case_extents(&c, &o->ea, &o->eb, &o->ec);
    assert_true((int64_t)o->ec >= (lines - 1) * c.ldc + along);
    o->a = malloc(o->ea * sizeof *o->a), o->b = malloc(o->eb * sizeof *o->b), o->c = malloc(o->ec * sizeof *o->c);
    assert_true(o->a && o->b && o->c);
    return c;
}

static void padded_free(padded_operands *o)
{
    free(o->a);
    free(o->b);
    free(o->c);
}

static void check_catches_unwritten(gemmkit_layout layout)
{
    padded_operands o;
    const gk_sgemm_case c =
        padded_case((gk_sgemm_case){layout, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 1300, 1000, 128, 1.0f, 0.0f, 0, 0, 0}, 7, &o);
    const int row_major = layout == GEMMKIT_ROW_MAJOR;
    gk_fill_random(&test_rng, o.a, o.ea);
    gk_fill_random(&test_rng, o.b, o.eb);
    for (size_t e = 0; e < o.ec; e++) o.c[e] = NAN; /* the padding stays NaN */
    assert_int_equal(gemmkit_sgemm_reference(c.layout, c.trans_a, c.trans_b, c.m, c.n, c.k, 1.0f, o.a, c.lda, o.b,
                                             c.ldb, 0.0f, o.c, c.ldc),
                     GEMMKIT_SUCCESS);
    gk_bench_reference ref = {0};
    gk_bench_record rec;
    memset(&rec, 0, sizeof rec);
    assert_int_equal(gk_bench_check_sgemm(&c, o.a, o.b, &ref, o.c, 0.0, &test_rng, &rec), 1);
    assert_string_equal(rec.check, "sampled");
    o.c[row_major ? 777 * c.ldc + 555 : 555 * c.ldc + 777] = NAN;
    assert_int_equal(gk_bench_check_sgemm(&c, o.a, o.b, &ref, o.c, 0.0, &test_rng, &rec), 0);
    assert_non_null(strstr(rec.message, "never written"));
    assert_non_null(strstr(rec.message, "C(777,555)"));
    gk_bench_reference_free(&ref);
    padded_free(&o);
}

static void test_sampled_check_catches_unwritten(void **state)
{
    (void)state;
    check_catches_unwritten(GEMMKIT_COL_MAJOR);
    check_catches_unwritten(GEMMKIT_ROW_MAJOR);
}

/* The inputs: with beta = 0 every element of C is NaN (it must be written, never read) and nothing past it, in either
 * layout with a padded ldc; with beta != 0, C is random and finite. */
static void test_inputs_poison_c_alone(void **state)
{
    (void)state;
    for (int v = 0; v < 4; v++) {
        const int row_major = v & 1, beta_zero = v >> 1;
        padded_operands o;
        const gk_sgemm_case c = padded_case((gk_sgemm_case){row_major ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR,
                                                            GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 29, 11, 1.0f,
                                                            beta_zero ? 0.0f : 0.5f, 0, 0, 0},
                                            5, &o);
        int64_t lines, along;
        gk_case_c_lines(&c, &lines, &along);
        gk_case_fill_inputs(&c, &test_rng, o.a, o.b, o.c);
        int64_t nan_inside = 0, nan_outside = 0;
        for (size_t e = 0; e < o.ec; e++) {
            const int inside = (int64_t)(e % (size_t)c.ldc) < along && (int64_t)(e / (size_t)c.ldc) < lines;
            if (isnan(o.c[e])) inside ? nan_inside++ : nan_outside++;
        }
        assert_int_equal(nan_inside, beta_zero ? c.m * c.n : 0);
        assert_int_equal(nan_outside, 0);
        padded_free(&o);
    }
}

/* The transpose's exact check in every layout and orientation: B = alpha op(A) passes, one element off fails and is
 * named by its place in B. */
static void test_omatcopy_check_names_the_wrong_element(void **state)
{
    (void)state;
    for (int v = 0; v < 4; v++) {
        const int rm = v & 1, t = v >> 1;
        gk_omatcopy_case o = {rm ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR, t ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, 37, 29,
                              0.5f, 0, 0, 0, 0};
        const int64_t b_rows = t ? o.cols : o.rows, b_cols = t ? o.rows : o.cols;
        o.lda = rm ? o.cols : o.rows;
        o.ldb = rm ? b_cols : b_rows;
        const size_t count = (size_t)(o.rows * o.cols);
        float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b);
        assert_true(a && b);
        gk_fill_random(&test_rng, a, count);
        for (int64_t i = 0; i < o.rows; i++)
            for (int64_t j = 0; j < o.cols; j++) {
                const int64_t bi = t ? j : i, bj = t ? i : j;
                b[rm ? bi * o.ldb + bj : bj * o.ldb + bi] = o.alpha * a[rm ? i * o.lda + j : j * o.lda + i];
            }
        gk_bench_record rec;
        memset(&rec, 0, sizeof rec);
        assert_int_equal(gk_bench_check_omatcopy(&o, a, b, &rec), 1);
        b[rm ? 11 * o.ldb + 7 : 7 * o.ldb + 11] += 1.0f; /* B(11,7) */
        assert_int_equal(gk_bench_check_omatcopy(&o, a, b, &rec), 0);
        assert_non_null(strstr(rec.message, "WRONG: B(11,7)"));
        free(a);
        free(b);
    }
}

/* ---- real runners ---- */

static void run_sgemm_case(gk_runner *r, gk_sgemm_case c)
{
    gk_case_complete(&c);
    size_t ea, eb, ec;
    gk_case_extents(&c, &ea, &eb, &ec);
    float *a = malloc(ea * sizeof *a), *b = malloc(eb * sizeof *b), *out = malloc(ec * sizeof *out);
    assert_true(a && b && out);
    gk_fill_random(&test_rng, a, ea);
    gk_fill_random(&test_rng, b, eb);
    gk_fill_value(out, ec, NAN);
    char err[GK_BENCH_ERR] = "";
    gk_bench_timing t = {-1.0, -1.0, 0};
    if (r->alloc(r, 0, ea, err) || r->alloc(r, 1, eb, err) || r->alloc(r, 2, ec, err) || r->write(r, 0, a, ea, err) ||
        r->write(r, 1, b, eb, err) || r->write(r, 2, out, ec, err) || r->run(r, &gk_routine_gemm, &(gk_case){.gemm = c}, (const int[]){0, 1, 2}, &t, err) ||
        r->read(r, 2, out, ec, err))
        fail_msg("%s: %s", r->name, err);
    assert_true(t.kernel_ms >= 0.0 && t.total_ms >= t.kernel_ms);
    gk_bench_reference ref = {0};
    gk_bench_record rec;
    memset(&rec, 0, sizeof rec);
    if (!gk_bench_check_sgemm(&c, a, b, &ref, out, r->input_rounding, &test_rng, &rec))
        fail_msg("%s %s %c%c %lldx%lldx%lld: %s", r->name, c.layout == GEMMKIT_ROW_MAJOR ? "row" : "col",
                 c.trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T', c.trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', (long long)c.m,
                 (long long)c.n, (long long)c.k, rec.message);
    gk_bench_reference_free(&ref);
    r->release(r);
    free(a);
    free(b);
    free(out);
}

static void run_omatcopy_case(gk_runner *r, gk_omatcopy_case o)
{
    int t = o.trans != GEMMKIT_NO_TRANS;
    int64_t b_rows = t ? o.cols : o.rows, b_cols = t ? o.rows : o.cols;
    o.lda = o.layout == GEMMKIT_ROW_MAJOR ? o.cols : o.rows;
    o.ldb = o.layout == GEMMKIT_ROW_MAJOR ? b_cols : b_rows;
    size_t count = (size_t)(o.rows * o.cols);
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b);
    assert_true(a && b);
    gk_fill_random(&test_rng, a, count);
    gk_fill_value(b, count, NAN);
    char err[GK_BENCH_ERR] = "";
    gk_bench_timing tm = {-1.0, -1.0, 0};
    if (r->alloc(r, 0, count, err) || r->alloc(r, 1, count, err) || r->write(r, 0, a, count, err) ||
        r->write(r, 1, b, count, err) || r->run(r, &gk_routine_omatcopy, &(gk_case){.omatcopy = o}, (const int[]){0, 1}, &tm, err) || r->read(r, 1, b, count, err))
        fail_msg("%s omatcopy: %s", r->name, err);
    gk_bench_record rec;
    memset(&rec, 0, sizeof rec);
    if (!gk_bench_check_omatcopy(&o, a, b, &rec)) fail_msg("%s omatcopy: %s", r->name, rec.message);
    r->release(r);
    free(a);
    free(b);
}

/* One strided batched call through the runner, every matrix checked (check_batched.c). */
static void run_batched_case(gk_runner *r, gk_batched_case c)
{
    gk_case_complete(&c.one);
    size_t e[3];
    gk_batched_extents(&c, &e[0], &e[1], &e[2]);
    float *ops[3], *out = malloc(e[2] * sizeof *out);
    for (int i = 0; i < 3; i++) ops[i] = malloc(e[i] * sizeof(float));
    assert_true(ops[0] && ops[1] && ops[2] && out);
    gk_batched_fill(&c, &test_rng, ops[0], ops[1], ops[2]);
    char err[GK_BENCH_ERR] = "";
    gk_bench_timing t = {-1.0, -1.0, 0};
    for (int i = 0; i < 3; i++)
        if (r->alloc(r, i, e[i], err) || r->write(r, i, ops[i], e[i], err)) fail_msg("%s: %s", r->name, err);
    assert_true(gk_runner_runs(r, &gk_routine_gemm_batched));
    if (r->run(r, &gk_routine_gemm_batched, &(gk_case){.batched = c}, (const int[]){0, 1, 2}, &t, err) ||
        r->read(r, 2, out, e[2], err))
        fail_msg("%s batched: %s", r->name, err);
    gk_check_result result;
    gk_check_batched(&c, ops[0], ops[1], ops[2], out, 1e7, &test_rng, &result);
    if (!result.passed) {
        char text[200];
        gk_batched_describe(&c, text, sizeof text);
        fail_msg("%s %s: %s", r->name, text, result.message);
    }
    r->release(r);
    for (int i = 0; i < 3; i++) free(ops[i]);
    free(out);
}

/* Both layouts with transposes (the peers' row-major mapping swaps A and B with their strides), gaps, a broadcast B. */
static void batched_shapes(gk_runner *r)
{
    gk_batched_case c = gk_batched_tight(
        (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 7, 5, 6, 1.0f, 0.0f, 0, 0, 0}, 3);
    c.stride_a += 2, c.stride_c += 3;
    run_batched_case(r, c);
    c = gk_batched_tight((gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 7, 5, 6, 1.0f, 0.0f, 0, 0,
                                         0}, 4);
    c.stride_a += 1, c.stride_b = 0;
    run_batched_case(r, c);
}

static void sgemm_shapes(gk_runner *r)
{
    run_sgemm_case(r, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 64, 48, 80, 1.0f, 0.0f,
                                      0, 0, 0});
    run_sgemm_case(r, (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 53, 29, 1.0f, 0.0f,
                                      0, 0, 0});
    run_sgemm_case(r, (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_TRANS, 33, 17, 65, 1.0f, 0.0f,
                                      0, 0, 0});
    run_sgemm_case(r, (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_TRANS, 20, 31, 9, 1.0f, 0.0f, 0, 0,
                                      0});
}

static void test_gemmkit_runner(void **state)
{
    (void)state;
    gk_runner *r = gk_runner_gemmkit(test_ctx, "direct", NULL);
    assert_non_null(r);
    sgemm_shapes(r);
    r->destroy(r);
    r = gk_runner_gemmkit(test_ctx, NULL, NULL); /* the library's choice: batched-small here */
    assert_non_null(r);
    batched_shapes(r);
    r->destroy(r);
}

static void test_clblast_peer(void **state)
{
    (void)state;
    gk_runner *runners[2] = {NULL, NULL};
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    gemmkit_device_info device;
    gemmkit_context_device_info(test_ctx, &device);
    int n = gk_peer_clblast_open(test_ctx, &device, runners, 2, &info);
    assert_true(strlen(info.detail) > 0);
    if (n == 0) {
        print_message("CLBlast not used here: %s\n", info.detail);
        skip();
    }
    assert_int_equal(n, 1);
    assert_true(info.found);
    sgemm_shapes(runners[0]);
    if (runners[0]->sgemm_batched) batched_shapes(runners[0]); /* CLBlastSgemmStridedBatched: CLBlast 1.5 on */
    for (int layout = 0; layout < 2; layout++)
        for (int t = 0; t < 2; t++)
            run_omatcopy_case(runners[0], (gk_omatcopy_case){layout ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR,
                                                          t ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, 45, 70, 1.0f, 0, 0, 0, 0});
    runners[0]->destroy(runners[0]);
}

/* The CPU BLAS peer: the library's own search (host_blas.c), named in its
 * label, timed by the wall clock, right in every layout and transpose and
 * as a loop of calls for a batch; no transposes (a BLAS has no omatcopy). */
static void test_cpublas_peer(void **state)
{
    (void)state;
    gk_runner *runners[2] = {NULL, NULL};
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    gemmkit_device_info device;
    gemmkit_context_device_info(test_ctx, &device);
    const int n = gk_peer_cpublas_open(test_ctx, &device, runners, 2, &info);
    assert_string_equal(info.name, "cpublas");
    assert_true(strlen(info.detail) > 0);
    const gk_host_blas *blas = gk_host_blas_find();
    if (!blas) {
        assert_int_equal(n, 0);
        assert_false(info.found);
        assert_non_null(strstr(info.detail, "GEMMKIT_CPU_BLAS_LIB"));
        print_message("no CPU BLAS here: %s\n", info.detail);
        skip();
    }
    assert_int_equal(n, 1);
    assert_true(info.found);
    gk_runner *r = runners[0];
    assert_non_null(strstr(info.detail, blas->name));
    assert_non_null(strstr(r->label, blas->name));
    assert_non_null(strstr(r->label, "wall-clock"));
    assert_true(r->wall_clock);
    assert_string_equal(r->kind, "peer");
    assert_string_equal(r->name, "cpublas");
    sgemm_shapes(r);
    batched_shapes(r);
    assert_false(gk_runner_runs(r, &gk_routine_omatcopy));
    r->destroy(r);
}

/* gemmkit_sgemm on host arrays: right in every layout and transpose; on a CPU
 * device with an optimised CPU BLAS the library routes it there. */
static void test_gemmkit_host_runner(void **state)
{
    (void)state;
    gk_runner *r = gk_runner_gemmkit_host(test_ctx);
    assert_non_null(r);
    assert_string_equal(r->name, "best-host");
    assert_string_equal(r->kind, "gemmkit");
    sgemm_shapes(r);
    gemmkit_device_info device;
    gemmkit_context_device_info(test_ctx, &device);
    const gk_host_blas *blas = gk_host_blas_find();
    gk_sgemm_case c = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, 64, 64, 64, 1.0f, 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    const char *route = gk_host_call_route(test_ctx, &c);
    if (!device.is_gpu && blas && blas->optimised) assert_string_equal(route, "host-blas");
    if (device.is_gpu) assert_null(route);
    r->destroy(r);
}

/* The whole SGEMM benchmark on this device: on a CPU the CPU BLAS is a peer
 * (checked, with ratios) and best-host runs beside best; --no-peers and a
 * --peers list without it leave it out. */
static void test_cpu_device_compares_with_the_cpu_blas(void **state)
{
    (void)state;
    gemmkit_device_info device;
    gemmkit_context_device_info(test_ctx, &device);
    if (device.is_gpu) skip();
    const gk_host_blas *blas = gk_host_blas_find();
    /* Where OpenBLAS is installed (the development machine) it must be found. */
    void *openblas = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (openblas) {
        assert_non_null(blas);
        dlclose(openblas);
    }
    for (int mode = 0; mode < 3; mode++) {
        gk_bench_session s;
        gk_bench_args args;
        session_init(&s, &args, "48,40x24x56");
        if (mode == 1) args.peers = 0;
        if (mode == 2) args.peer_list = "clblast,cublas";
        gk_bench_open_peers(&s);
        gk_bench_sgemm(&s);
        int cpublas = 0, listed = 0;
        for (size_t i = 0; i < s.report.count; i++) cpublas += strcmp(s.report.records[i].name, "cpublas") == 0;
        for (int i = 0; i < s.report.peer_count; i++) listed += strcmp(s.report.peers[i].name, "cpublas") == 0;
        const gk_bench_record *host = find(&s.report, "best-host");
        assert_int_equal(host->status, GK_BENCH_OK);
        if (blas && blas->optimised) {
            assert_string_equal(host->resolved, "host-blas");
            assert_true(host->wall_clock);
        }
        if (mode == 0 && blas) {
            assert_int_equal(listed, 1);
            assert_int_equal(cpublas, 2);
            const gk_bench_record *peer = find(&s.report, "cpublas");
            assert_int_equal(peer->status, GK_BENCH_OK);
            assert_string_equal(peer->check, "full");
            assert_true(peer->wall_clock);
            assert_true(gk_bench_ratio(&s.report, find(&s.report, "best"), "cpublas") > 0.0);
            assert_true(gk_bench_ratio(&s.report, host, "cpublas") > 0.0);
        } else {
            assert_int_equal(cpublas, 0);
            if (mode) assert_int_equal(listed, 0);
        }
        gk_bench_close_peers(&s);
        gk_bench_report_free(&s.report);
    }
}

static void test_cublas_declines_other_devices(void **state)
{
    (void)state;
    gemmkit_device_info device;
    gemmkit_context_device_info(test_ctx, &device);
    if (strstr(device.name, "NVIDIA") || strstr(device.vendor, "NVIDIA")) skip();
    gk_runner *runners[2] = {NULL, NULL};
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    assert_int_equal(gk_peer_cublas_open(test_ctx, &device, runners, 2, &info), 0);
    assert_false(info.found);
    assert_non_null(strstr(info.detail, "not an NVIDIA GPU"));
    assert_null(runners[0]);
}

/* The cuBLAS peer against tests/mock/mock_cuda.c (host stand-ins with
 * cuBLAS's semantics), presented as an NVIDIA device: loading, both math
 * modes, row-major mapping, transposes through geam, and the TF32 bound. */
static void test_cublas_peer_on_mock(void **state)
{
    (void)state;
    setenv("GEMMKIT_CUDART", GEMMKIT_MOCK_CUDA, 1);
    setenv("GEMMKIT_CUBLAS", GEMMKIT_MOCK_CUDA, 1);
    gemmkit_device_info device;
    memset(&device, 0, sizeof device);
    snprintf(device.backend, sizeof device.backend, "opencl");
    snprintf(device.name, sizeof device.name, "NVIDIA Mock GPU");
    gk_runner *runners[2] = {NULL, NULL};
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    int n = gk_peer_cublas_open(test_ctx, &device, runners, 2, &info);
    unsetenv("GEMMKIT_CUDART");
    unsetenv("GEMMKIT_CUBLAS");
    if (n != 2) fail_msg("cuBLAS peer on the mock: %s", info.detail);
    assert_true(info.found);
    assert_non_null(strstr(info.detail, "cuBLAS 13.1.0"));
    assert_non_null(strstr(info.detail, "NVIDIA Mock GPU"));
    assert_string_equal(runners[0]->name, "cublas");
    assert_string_equal(runners[1]->name, "cublas-tf32");
    assert_true(runners[0]->input_rounding == 0.0 && runners[1]->input_rounding > 0.0);
    sgemm_shapes(runners[0]);
    sgemm_shapes(runners[1]); /* truncated inputs pass only with the widened bound */
    batched_shapes(runners[0]); /* cublasSgemmStridedBatched's argument mapping */
    for (int layout = 0; layout < 2; layout++)
        for (int t = 0; t < 2; t++)
            run_omatcopy_case(runners[0], (gk_omatcopy_case){layout ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR,
                                                          t ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, 45, 70, 1.0f, 0, 0, 0, 0});
    runners[0]->destroy(runners[0]);
    runners[1]->destroy(runners[1]);
}

/* TF32's truncated inputs fail the pure-fp32 bound: the widening is needed, and only for TF32. */
static void test_tf32_needs_its_own_bound(void **state)
{
    (void)state;
    setenv("GEMMKIT_CUDART", GEMMKIT_MOCK_CUDA, 1);
    setenv("GEMMKIT_CUBLAS", GEMMKIT_MOCK_CUDA, 1);
    gemmkit_device_info device;
    memset(&device, 0, sizeof device);
    snprintf(device.name, sizeof device.name, "NVIDIA Mock GPU");
    gk_runner *runners[2] = {NULL, NULL};
    gk_bench_peer_info info;
    memset(&info, 0, sizeof info);
    assert_int_equal(gk_peer_cublas_open(test_ctx, &device, runners, 2, &info), 2);
    unsetenv("GEMMKIT_CUDART");
    unsetenv("GEMMKIT_CUBLAS");
    runners[1]->input_rounding = 0.0; /* pretend TF32 were fp32 */
    gk_bench_session s;
    gk_bench_args args;
    session_init(&s, &args, "64");
    s.peers[0] = runners[1];
    s.peer_count = 1;
    gk_bench_sgemm(&s);
    assert_int_equal(find(&s.report, "cublas-tf32")->status, GK_BENCH_WRONG);
    gk_bench_close_peers(&s);
    gk_bench_report_free(&s.report);
    runners[0]->destroy(runners[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_results_are_errors_not_speeds),
        cmocka_unit_test(test_sampled_check_catches_unwritten),
        cmocka_unit_test(test_omatcopy_check_names_the_wrong_element),
        cmocka_unit_test(test_inputs_poison_c_alone),
        cmocka_unit_test(test_gemmkit_runner),
        cmocka_unit_test(test_clblast_peer),
        cmocka_unit_test(test_cpublas_peer),
        cmocka_unit_test(test_gemmkit_host_runner),
        cmocka_unit_test(test_cpu_device_compares_with_the_cpu_blas),
        cmocka_unit_test(test_cublas_declines_other_devices),
        cmocka_unit_test(test_cublas_peer_on_mock),
        cmocka_unit_test(test_tf32_needs_its_own_bound),
    };
    (void)assert_case_ok; /* test_support.h's helper, unused here */
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
