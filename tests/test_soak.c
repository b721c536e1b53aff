/* Soak: many random small calls (shapes, layouts, transposes, alpha/beta
 * including 0 and 1, padded leading dimensions, host arrays and device
 * buffers, the context re-created every 1000 calls), each checked against
 * the reference, while the process's resident memory must stay flat. */
#include <malloc.h>
#include <unistd.h>

#include "test_support.h"
#include "test_random.h"

enum { BLOCK = 1000 };              /* calls between RSS readings and context re-creations */
static const double RSS_BOUND_MIB = 8.0; /* allowed growth from the end of block 1 to the end */

/* Sanitizer builds keep freed memory in quarantine and add shadow memory, so
 * RSS says nothing about leaks there (LeakSanitizer checks those at exit). */
#if defined(__SANITIZE_ADDRESS__)
#define GK_RSS_MEANINGFUL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GK_RSS_MEANINGFUL 0
#endif
#endif
#ifndef GK_RSS_MEANINGFUL
#define GK_RSS_MEANINGFUL 1
#endif

static double rss_mib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static int soak_calls(void)
{
    const char *env = getenv("GEMMKIT_SOAK_CALLS");
    int calls = env && atoi(env) > 0 ? atoi(env) : 10000;
    calls = (calls + BLOCK - 1) / BLOCK * BLOCK; /* end on a reading */
    return calls < 2 * BLOCK ? 2 * BLOCK : calls; /* two readings at least */
}

/* RSS readings at the end of the first block and at the end of the run:
 * as the kernel reports it, and after malloc_trim() has handed free heap
 * pages back (what is left is live memory, so its growth is the leak signal;
 * the raw figure also moves with malloc's arenas and fragmentation). */
typedef struct rss_pair {
    double raw, trimmed;
} rss_pair;

static rss_pair read_rss(void)
{
    rss_pair r;
    r.raw = rss_mib();
    malloc_trim(0);
    r.trimmed = rss_mib();
    return r;
}

static void test_soak(void **state)
{
    (void)state;
    const int calls = soak_calls();
    gemmkit_context *ctx = test_ctx;
    rss_pair first = {0, 0}, last = {0, 0};
    int failures = 0, buffer_calls = 0;
    for (int i = 1; i <= calls; i++) {
        gk_sgemm_case c = random_case(&test_rng, 48);
        int buffers = rnd_below(&test_rng, 8) == 0;
        gk_check_result result;
        gemmkit_status status = buffers ? check_run_buffers(ctx, NULL, c, &test_rng, &result)
                                        : gk_check_run(ctx, NULL, c, &test_rng, 1e9, &result);
        buffer_calls += buffers;
        if (status != GEMMKIT_SUCCESS || !result.passed) {
            char text[256];
            describe_case(&c, text, sizeof text);
            if (failures++ < 5)
                print_error("call %d (%s): %s: %s (GEMMKIT_SEED=%llu)\n", i, text, gemmkit_strerror(status),
                            result.message, (unsigned long long)test_seed);
        }
        if (i % BLOCK == 0) {
            /* A new context per block: contexts, program caches and scratch
             * buffers must all be given back. */
            gemmkit_context_destroy(ctx);
            test_ctx = NULL;
            assert_int_equal(gemmkit_context_create(&ctx, NULL), GEMMKIT_SUCCESS);
            test_ctx = ctx;
            last = read_rss();
            if (i == BLOCK) first = last;
            printf("after %6d calls: RSS %.1f MiB (%.1f MiB after malloc_trim)\n", i, last.raw, last.trimmed);
            fflush(stdout);
        }
    }
    double growth = last.trimmed - first.trimmed;
    printf("soak: %d calls (%d via device buffers), %d failures\n", calls, buffer_calls, failures);
    printf("soak RSS: after %d calls %.1f MiB, at the end %.1f MiB: growth %+.1f MiB after malloc_trim "
           "(raw %.1f -> %.1f MiB, %+.1f); bound %.0f MiB%s\n",
           BLOCK, first.trimmed, last.trimmed, growth, first.raw, last.raw, last.raw - first.raw, RSS_BOUND_MIB,
           GK_RSS_MEANINGFUL ? "" : ", not enforced under AddressSanitizer (LeakSanitizer checks leaks instead)");
    assert_int_equal(failures, 0);
    if (GK_RSS_MEANINGFUL) assert_true(growth <= RSS_BOUND_MIB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soak),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
