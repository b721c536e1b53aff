/* Host arrays of the multi-GPU benchmark, filled on every core: at n = 110000
 * one matrix is 48 GB, which one thread takes minutes to fill. Each element
 * comes from (seed, matrix, index) alone, so pinned and pageable arrays and
 * any thread count hold the same inputs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multi_gpu.h"

typedef struct slice {
    size_t first, count;
    void (*fn)(size_t, size_t, void *);
    void *user;
} slice;

static void *run_slice(void *arg)
{
    slice *s = arg;
    s->fn(s->first, s->count, s->user);
    return NULL;
}

void mg_parallel(size_t total, int threads, void (*fn)(size_t first, size_t count, void *user), void *user)
{
    if (threads < 1) threads = 1;
    if ((size_t)threads > total / 4096 + 1) threads = (int)(total / 4096 + 1); /* small arrays: fewer threads */
    slice *s = calloc((size_t)threads, sizeof *s);
    pthread_t *t = calloc((size_t)threads, sizeof *t);
    int *started = calloc((size_t)threads, sizeof *started);
    if (!s || !t || !started) threads = 0; /* no room for threads: all on this one below */
    size_t per = threads ? total / (size_t)threads : 0, done = 0;
    for (int i = 0; i < threads; i++) {
        s[i] = (slice){done, i == threads - 1 ? total - done : per, fn, user};
        done += s[i].count;
        started[i] = pthread_create(&t[i], NULL, run_slice, &s[i]) == 0;
        if (!started[i]) run_slice(&s[i]); /* a thread refused: its slice here */
    }
    for (int i = 0; i < threads; i++)
        if (started[i]) pthread_join(t[i], NULL);
    if (!threads) fn(0, total, user);
    free(s);
    free(t);
    free(started);
}

typedef struct fill_job {
    float *x;
    uint64_t seed;
    int which;
} fill_job;

/* splitmix64's finaliser: a well-mixed 64-bit value per counter. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill_slice(size_t first, size_t count, void *user)
{
    const fill_job *job = user;
    const uint64_t base = job->seed * 0x9E3779B97F4A7C15ull + (uint64_t)(job->which + 1) * 0xD1B54A32D192ED03ull;
    for (size_t i = first; i < first + count; i++) {
        /* An odd multiple of 2^-24 in (-1, 1): exact in float, never 0. */
        int32_t odd = (int32_t)((mix(base + i) >> 40) * 2 + 1) - (1 << 24);
        job->x[i] = (float)odd * 0x1p-24f;
    }
}

void mg_fill_inputs(float *x, size_t count, uint64_t seed, int which, int threads)
{
    fill_job job = {x, seed, which};
    mg_parallel(count, threads, fill_slice, &job);
}

static void nan_slice(size_t first, size_t count, void *user)
{
    float *x = user;
    const float poison = __builtin_nanf("");
    for (size_t i = first; i < first + count; i++) x[i] = poison;
}

void mg_fill_nan(float *x, size_t count, int threads) { mg_parallel(count, threads, nan_slice, x); }

size_t mg_host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    if (f) fclose(f);
    if (kb) return (size_t)kb * 1024;
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}
