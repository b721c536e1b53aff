/* `gemmkit tune --calibrate`'s pieces that need no device (tools/gemmkit/tune_calibrate.h): the cost lines it saves
 * parse back, through the database file and a load as any context does it, into the constants it measured, within
 * the four significant digits it prints; and the shapes it times are the ones designed: exact counts of
 * work-groups per purpose, arrangements a narrow line serves, the random pool as the bench draws it, cut down to the
 * device. */
#include <math.h>
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
#include "test_fake_device.h"
#include "tune_calibrate.h"
#include "tuning.h"

static char db_path[64];

static int make_db(void **state)
{
    (void)state;
    snprintf(db_path, sizeof db_path, "/tmp/gemmkit-calibrate-%d.tsv", (int)getpid());
    unlink(db_path);
    setenv("GEMMKIT_TUNING_DB", db_path, 1);
    return 0;
}

static int remove_db(void **state)
{
    (void)state;
    char lock[80];
    snprintf(lock, sizeof lock, "%s.lock", db_path);
    unlink(db_path);
    unlink(lock);
    return 0;
}

static void assert_close(double got, double want)
{
    /* Four significant digits: half a unit of the fourth is at most 1/2000 of the value. */
    if (!(fabs(got - want) <= want / 2000.0)) fail_msg("read back %.9g, saved %.9g", got, want);
}

static void test_numbers_are_four_digits_without_exponent(void **state)
{
    (void)state;
    const struct {
        double x;
        const char *text;
    } cases[] = {{0.5, "0.5000"}, {12345.6, "12346"}, {3.0, "3.000"}, {0.016481, "0.01648"}, {2840.4, "2840"},
                 {66910.2, "66910"}, {1.0, "1.000"}, {29.674, "29.67"}, {0.000123456, "0.000123"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[32];
        gk_calibrate_number(cases[i].x, text, sizeof text);
        assert_string_equal(text, cases[i].text);
    }
}

/* Lines saved as the command saves them, loaded as a context loads them: the same constants, for this device only. */
static void test_saved_lines_load_back(void **state)
{
    (void)state;
    const gemmkit_device_info info = device(0);
    const gk_cost_line lines[] = {
        {"xgemm-direct", 9.6031, 1.0, 0.066671, {0, 0.8123, 0.4567, 1.25}, 0, 2.25},
        {"xgemm-direct/small", 12345.6, 6.729, 1.0, {0}, 24.5, 0},
        {"skinny-m/strip", 0.0333, 16.0, 0.01, {0}, 0.5, 0}, {"xgemm", 333.33, 1.234, 0.5, {0}, 0, 0},
    };
    const int count = (int)(sizeof lines / sizeof lines[0]);
    gk_tuning_entry e;
    const gk_cost_constants measured = {.copy_gbs = 2840.37, .launch_us = 29.674, .scalar_c = 0.4512,
                                        .scalar_ab = 0.9137};
    gk_calibrate_device_entry(&info, &measured, &e);
    assert_string_equal(e.kernel, "cost:device");
    assert_string_equal(e.params, "COPY=2840,LAUNCH=29.67,SCALAR_C=0.4512,SCALAR_AB=0.9137");
    assert_string_equal(e.device, info.name);
    assert_string_equal(e.backend, info.backend);
    assert_int_equal(strlen(e.date), 10);
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    for (int i = 0; i < count; i++) {
        gk_calibrate_line_entry(&info, &lines[i], &e);
        assert_true(strncmp(e.kernel, "cost:", 5) == 0);
        assert_string_equal(e.kernel + 5, lines[i].name);
        assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    }
    gk_tuning_set *set = malloc(sizeof *set);
    assert_non_null(set);
    gk_tuning_load(&info, NULL, set);
    assert_string_equal(set->warnings, "");
    assert_true(set->cost.calibrated);
    assert_close(set->cost.copy_gbs, 2840.37);
    assert_close(set->cost.launch_us, 29.674);
    assert_close(set->cost.scalar_c, 0.4512);
    assert_close(set->cost.scalar_ab, 0.9137);
    for (int i = 0; i < count; i++) {
        const gk_cost_line *got = gk_cost_find(&set->cost, lines[i].name);
        assert_non_null(got);
        assert_close(got->rate_gflops, lines[i].rate_gflops);
        assert_close(got->occupancy, lines[i].occupancy);
        assert_close(got->bw_efficiency, lines[i].bw_efficiency);
        assert_close(got->group_overhead_k, lines[i].group_overhead_k); /* GOK where saved, else none (0) */
        assert_close(got->sum_slice_us, lines[i].sum_slice_us);         /* SUM likewise */
        for (int t = 1; t < 4; t++) /* the orientations' factors where saved, else none (1) */
            assert_close(gk_cost_orientation(got, t >= 2, t & 1), gk_cost_orientation(&lines[i], t >= 2, t & 1));
    }
    /* Saving a line again replaces it: one line per name, the new constants. */
    gk_cost_line again = lines[0];
    again.rate_gflops = 7.5;
    gk_calibrate_line_entry(&info, &again, &e);
    assert_int_equal(gk_tuning_save(db_path, &e), GEMMKIT_SUCCESS);
    gk_tuning_load(&info, NULL, set);
    assert_int_equal(set->cost.count, count);
    assert_close(gk_cost_find(&set->cost, "xgemm-direct")->rate_gflops, 7.5);
    /* Another device does not take them. */
    gemmkit_device_info other = info;
    snprintf(other.name, sizeof other.name, "another device");
    gk_tuning_load(&other, NULL, set);
    assert_false(set->cost.calibrated);
    assert_null(gk_cost_find(&set->cost, "xgemm-direct"));
    free(set);
}

static int always(void *data, const gk_calibrate_shape *z)
{
    (void)data, (void)z;
    return 1;
}

/* A skinny line: only an M of at most 16. */
static int m_at_most_16(void *data, const gk_calibrate_shape *z)
{
    (void)data;
    return z->m <= 16;
}

/* A small-k line: only a K of at most 16 (and counts its calls). */
static int k_at_most_16(void *data, const gk_calibrate_shape *z)
{
    ++*(int *)data;
    return z->k <= 16;
}

static int64_t groups_of(const gk_calibrate_shape *z, const gk_geometry *g)
{
    return (z->m + g->tile_m - 1) / g->tile_m * ((z->n + g->tile_n - 1) / g->tile_n);
}

static const gk_calibrate_shape *find(const gk_calibrate_shape *shapes, int count, const char *why)
{
    for (int i = 0; i < count; i++)
        if (strcmp(shapes[i].why, why) == 0) return &shapes[i];
    return NULL;
}

static void test_designed_shapes(void **state)
{
    (void)state;
    gemmkit_device_info gpu = device(1);
    gpu.peak_gflops = 66900;
    const gk_geometry g = {.tile_m = 64, .tile_n = 64, .k_multiple = 16};
    gk_calibrate_shape pool[GK_CALIBRATE_POOL], shapes[GK_CALIBRATE_MAX_SHAPES];
    assert_int_equal(gk_calibrate_random_shapes(&gpu, 7, GK_CALIBRATE_POOL, pool), GK_CALIBRATE_POOL);
    const int count = gk_calibrate_design(&gpu, &g, pool, GK_CALIBRATE_POOL, always, NULL, shapes,
                                          GK_CALIBRATE_MAX_SHAPES);
    assert_int_equal(count, 6 + GK_CALIBRATE_RANDOM);
    const struct {
        const char *why;
        int64_t groups;
    } purposes[] = {{"many waves", 8 * 132}, {"one wave", 132}, {"half a wave", 66}, {"two waves", 264}};
    for (size_t i = 0; i < sizeof purposes / sizeof purposes[0]; i++) {
        const gk_calibrate_shape *z = find(shapes, count, purposes[i].why);
        assert_non_null(z);
        assert_int_equal(groups_of(z, &g), purposes[i].groups);
        assert_int_equal(z->m % 64, 0);
        assert_int_equal(z->n % 64, 0);
        assert_int_equal(z->k, 2048); /* a long K, whole k steps */
    }
    const gk_calibrate_shape *memory = find(shapes, count, "memory");
    assert_non_null(memory);
    assert_int_equal(memory->k, 16);
    assert_true(memory->m * memory->n >= 8192 * 8192);
    /* One row of tiles over a long operand, read once: a long K within the device's floats. */
    const gk_calibrate_shape *stream = find(shapes, count, "stream");
    assert_non_null(stream);
    assert_int_equal(stream->m, 64);
    assert_true(stream->n >= 8192 && stream->k >= 1024 && stream->k % 16 == 0);
    assert_true((double)stream->m * stream->k + (double)stream->k * stream->n + (double)stream->m * stream->n <=
                268435456.0);
    /* Then the pool's first shapes, as drawn. */
    for (int i = 0; i < GK_CALIBRATE_RANDOM; i++) {
        assert_string_equal(shapes[6 + i].why, "random");
        assert_int_equal(shapes[6 + i].m, pool[i].m);
    }

    /* A skinny line gets each purpose as one row of tiles, and random shapes with M <= 16 only. */
    const gk_geometry skinny = {.tile_m = 16, .tile_n = 128, .k_multiple = 1};
    const int narrow = gk_calibrate_design(&gpu, &skinny, pool, GK_CALIBRATE_POOL, m_at_most_16, NULL, shapes,
                                           GK_CALIBRATE_MAX_SHAPES);
    assert_true(narrow >= 5);
    for (int i = 0; i < narrow; i++) assert_true(shapes[i].m <= 16);
    assert_int_equal(groups_of(find(shapes, narrow, "many waves"), &skinny), 8 * 132);
    assert_int_equal(groups_of(find(shapes, narrow, "one wave"), &skinny), 132);
    /* A long K within the device's floats for one shape (2^28: A + B + C). */
    const gk_calibrate_shape *many = find(shapes, narrow, "many waves");
    assert_true((double)many->m * many->k + (double)many->k * many->n + (double)many->m * many->n <= 268435456.0);
    assert_true(many->k >= 1024);

    /* A short-K line: the purposes at K = 16; the random ones are those with K <= 16, if any in the pool. */
    int asked = 0;
    const int short_k = gk_calibrate_design(&gpu, &g, pool, GK_CALIBRATE_POOL, k_at_most_16, &asked, shapes,
                                            GK_CALIBRATE_MAX_SHAPES);
    assert_true(short_k >= 5);
    assert_true(asked > 0);
    for (int i = 0; i < short_k; i++) assert_true(shapes[i].k <= 16);
    assert_int_equal(groups_of(find(shapes, short_k, "half a wave"), &g), 66);
}

/* The pool is `gemmkit bench --sizes random:N:SEED`'s shapes, each cut to one timing's worth on the device (the
 * CPU's much smaller), the longest edge halved; the same seed, the same shapes. */
static void test_random_pool(void **state)
{
    (void)state;
    const gemmkit_device_info cpu = device(0), gpu = device(1);
    gk_bench_size drawn[GK_CALIBRATE_POOL];
    gk_calibrate_shape a[GK_CALIBRATE_POOL], b[GK_CALIBRATE_POOL], g[GK_CALIBRATE_POOL];
    assert_int_equal(gk_bench_random_shapes(35, GK_CALIBRATE_POOL, drawn), 0);
    assert_int_equal(gk_calibrate_random_shapes(&cpu, 35, GK_CALIBRATE_POOL, a), GK_CALIBRATE_POOL);
    assert_int_equal(gk_calibrate_random_shapes(&cpu, 35, GK_CALIBRATE_POOL, b), GK_CALIBRATE_POOL);
    assert_int_equal(gk_calibrate_random_shapes(&gpu, 35, GK_CALIBRATE_POOL, g), GK_CALIBRATE_POOL);
    for (int i = 0; i < GK_CALIBRATE_POOL; i++) { /* field by field: the struct has padding */
        assert_true(a[i].m == b[i].m && a[i].n == b[i].n && a[i].k == b[i].k && a[i].why == b[i].why);
        assert_int_equal(a[i].orientation, 0); /* NN, as bench draws them */
    }
    for (int i = 0; i < GK_CALIBRATE_POOL; i++) {
        const double work = (double)a[i].m * a[i].n * a[i].k;
        assert_true(work <= 8388608.0); /* the CPU's 2^23 multiply-adds */
        assert_true((double)g[i].m * g[i].n * g[i].k <= 68719476736.0);
        assert_true(a[i].m <= drawn[i].m && a[i].n <= drawn[i].n && a[i].k <= drawn[i].k);
        /* An edge of at most 16 drawn (a strip, a short K: the shape's class) is never the one halved. */
        if (drawn[i].m <= 16) assert_int_equal(a[i].m, drawn[i].m);
        if (drawn[i].n <= 16) assert_int_equal(a[i].n, drawn[i].n);
        if (drawn[i].k <= 16) assert_int_equal(a[i].k, drawn[i].k);
        assert_string_equal(a[i].why, "random");
    }
    assert_int_equal(gk_calibrate_random_shapes(&cpu, 36, GK_CALIBRATE_POOL, b), GK_CALIBRATE_POOL);
    assert_memory_not_equal(a, b, sizeof a);
    assert_int_equal(gk_calibrate_random_shapes(&cpu, 35, GK_CALIBRATE_POOL + 1, b), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers_are_four_digits_without_exponent),
        cmocka_unit_test_setup_teardown(test_saved_lines_load_back, make_db, remove_db),
        cmocka_unit_test(test_designed_shapes),
        cmocka_unit_test(test_random_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
