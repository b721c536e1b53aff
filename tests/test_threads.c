/* Threads: 8 threads each with its own context, and 8 threads sharing one
 * context (host arrays, device buffers created and destroyed concurrently,
 * default and packed kernels), every result checked against the reference. */
#include <pthread.h>

#include "test_support.h"
#include "test_random.h"

enum { THREADS = 8 };

static int calls_per_thread(void)
{
    const char *env = getenv("GEMMKIT_THREAD_CALLS");
    return env && atoi(env) > 0 ? atoi(env) : 60;
}

typedef struct worker {
    int index;
    gemmkit_context *ctx;       /* shared context, or NULL: create one */
    const char *packed_kernel; /* optional kernel for some calls */
    pthread_barrier_t *start;
    uint64_t seed;
    int calls, failures;
    char first_failure[1024];
} worker;

static void record_failure(worker *w, const gk_sgemm_case *c, const char *kernel, const char *api,
                           gemmkit_status status, const char *message)
{
    if (w->failures++ > 0) return;
    char text[256];
    describe_case(c, text, sizeof text);
    snprintf(w->first_failure, sizeof w->first_failure, "thread %d: %s via %s (kernel %s): %s: %s", w->index,
             text, api, kernel ? kernel : "default", gemmkit_strerror(status), message);
}

static void *work(void *arg)
{
    worker *w = arg;
    gk_rng rng;
    gk_rng_seed(&rng, w->seed);
    gemmkit_context *ctx = w->ctx;
    pthread_barrier_wait(w->start);
    if (!ctx && gemmkit_context_create(&ctx, NULL) != GEMMKIT_SUCCESS) {
        snprintf(w->first_failure, sizeof w->first_failure, "thread %d: context: %s", w->index,
                 gemmkit_last_error_message());
        w->failures++;
        return NULL;
    }
    for (int i = 0; i < w->calls; i++) {
        gk_sgemm_case c = random_case(&rng, 48);
        gemmkit_options options = {0};
        if (w->packed_kernel && rnd_below(&rng, 3) == 0) options.kernel = w->packed_kernel;
        int buffers = rnd_below(&rng, 4) == 0;
        gk_check_result result;
        gemmkit_status status = buffers ? check_run_buffers(ctx, &options, c, &rng, &result)
                                        : gk_check_run(ctx, &options, c, &rng, 1e9, &result);
        if (status != GEMMKIT_SUCCESS || !result.passed)
            record_failure(w, &c, options.kernel, buffers ? "buffers" : "host arrays", status, result.message);
    }
    if (!w->ctx) gemmkit_context_destroy(ctx);
    return NULL;
}

/* Runs THREADS workers and asserts (on the main thread: cmocka is not
 * thread-safe) that every call of every thread succeeded. */
static void run_workers(gemmkit_context *shared, const char *packed_kernel)
{
    worker workers[THREADS];
    pthread_t threads[THREADS];
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (worker){.index = t, .ctx = shared, .packed_kernel = packed_kernel, .start = &start,
                              .seed = test_seed * 31 + (uint64_t)t + 1, .calls = calls_per_thread()};
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    int failures = 0;
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        if (workers[t].failures) {
            print_error("%s (%d failures; GEMMKIT_SEED=%llu)\n", workers[t].first_failure, workers[t].failures,
                        (unsigned long long)test_seed);
            failures += workers[t].failures;
        }
    }
    pthread_barrier_destroy(&start);
    printf("%d threads x %d calls, %s context%s: %d failures\n", THREADS, calls_per_thread(),
           shared ? "one shared" : "one per thread", packed_kernel ? ", some calls on the packed path" : "",
           failures);
    assert_int_equal(failures, 0);
}

static void test_independent_contexts(void **state)
{
    (void)state;
    run_workers(NULL, NULL);
}

static void test_shared_context(void **state)
{
    (void)state;
    run_workers(test_ctx, NULL);
}

/* The packed path shares the context's scratch buffers between calls: run
 * it from all threads at once when a kernel for it is registered. */
static void test_shared_context_packed_path(void **state)
{
    (void)state;
    const char *kernel = packed_kernel_for(test_ctx, &test_rng);
    if (!kernel) {
        printf("no packed-path SGEMM kernel registered for this device: skipped\n");
        skip();
    }
    printf("packed-path kernel: %s\n", kernel);
    run_workers(test_ctx, kernel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_independent_contexts),
        cmocka_unit_test(test_shared_context),
        cmocka_unit_test(test_shared_context_packed_path),
    };
    return cmocka_run_group_tests(tests, test_setup_context, test_teardown_context);
}
