/* `--sizes random:COUNT[:SEED]`: SGEMM shapes drawn from realistic classes
 * (docs/BENCHMARK.md lists them), each with its own transposes and layout.
 *
 * Integer arithmetic only, with our own generator (splitmix64): a seed gives
 * the same shapes on every machine, compiler and libm. "Log-uniform" is the
 * discrete distribution P(x) ~ 1/x on [lo, hi], drawn exactly by rejection:
 * x uniform, kept with probability lo/x. */
#include <string.h>
#include <time.h>

#include "bench.h"

static const char *const class_names[GK_BENCH_RANDOM_CLASSES] = {
    "square-ish", "one-edge", "small-c-long-k", "large-c-short-k", "transformer", "odd-middle",
};

/* Hidden sizes of common transformer models (BERT, GPT-2/3, LLaMA's 11008 and 14336, a 32000 vocabulary). */
static const int64_t hidden_sizes[] = {768, 1024, 2048, 3072, 4096, 5120, 8192, 11008, 14336, 32000};

/* A + B + C at most 8 GiB of floats, so every shape fits one GPU beside a peer's copy. */
#define MAX_FLOATS ((int64_t)2 * 1024 * 1024 * 1024)
#define API_MAX ((int64_t)2147483647) /* each dimension and each operand's elements */

typedef struct rng64 {
    uint64_t state;
} rng64;

static uint64_t next(rng64 *r)
{
    uint64_t x = (r->state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [0, n), n >= 1, without modulo bias: draws below 2^64 mod n are redrawn. */
static uint64_t below(rng64 *r, uint64_t n)
{
    const uint64_t reject = (0 - n) % n;
    uint64_t x;
    do x = next(r);
    while (x < reject);
    return x % n;
}

static int64_t uniform(rng64 *r, int64_t lo, int64_t hi) { return lo + (int64_t)below(r, (uint64_t)(hi - lo + 1)); }

/* P(x) proportional to 1/x on [lo, hi], lo >= 1. */
static int64_t log_uniform(rng64 *r, int64_t lo, int64_t hi)
{
    for (;;) {
        const int64_t x = uniform(r, lo, hi);
        if (below(r, (uint64_t)x) < (uint64_t)lo) return x;
    }
}

/* Within a factor 1.5 of s: [ceil(2s/3), floor(3s/2)]. */
static int64_t near(rng64 *r, int64_t s) { return log_uniform(r, (2 * s + 2) / 3, 3 * s / 2); }

/* An odd size in [100, 3000]: an even draw moves up by one (3000 down). */
static int64_t odd_middle(rng64 *r)
{
    const int64_t x = log_uniform(r, 100, 3000);
    return x % 2 ? x : x < 3000 ? x + 1 : x - 1;
}

static void draw_dims(rng64 *r, int cls, gk_bench_size *z)
{
    switch (cls) {
    case 0: {
        const int64_t s = log_uniform(r, 64, 8192);
        z->m = near(r, s);
        z->n = near(r, s);
        z->k = near(r, s);
        break;
    }
    case 1: {
        const int64_t small = log_uniform(r, 1, 256);
        const int64_t large = log_uniform(r, 256, 32768);
        const int m_small = (int)below(r, 2);
        z->m = m_small ? small : large;
        z->n = m_small ? large : small;
        z->k = log_uniform(r, 256, 32768);
        break;
    }
    case 2:
        z->m = log_uniform(r, 1, 256);
        z->n = log_uniform(r, 1, 256);
        z->k = log_uniform(r, 10000, 1000000);
        break;
    case 3:
        z->m = log_uniform(r, 2048, 40000);
        z->n = log_uniform(r, 2048, 40000);
        z->k = log_uniform(r, 1, 512);
        break;
    case 4: {
        const uint64_t hidden = sizeof hidden_sizes / sizeof hidden_sizes[0];
        z->m = log_uniform(r, 16, 32768);
        z->n = hidden_sizes[below(r, hidden)];
        z->k = hidden_sizes[below(r, hidden)];
        break;
    }
    default:
        z->m = odd_middle(r);
        z->n = odd_middle(r);
        z->k = odd_middle(r);
        break;
    }
}

int gk_bench_shape_fits(const gk_bench_size *z)
{
    if (z->m < 1 || z->n < 1 || z->k < 1 || z->m > API_MAX || z->n > API_MAX || z->k > API_MAX) return 0;
    /* Each product of two dimensions <= 2^62: no overflow. */
    const int64_t a = z->m * z->k, b = z->k * z->n, c = z->m * z->n;
    return a <= API_MAX && b <= API_MAX && c <= API_MAX && a + b + c <= MAX_FLOATS;
}

int gk_bench_random_shapes(uint64_t seed, int count, gk_bench_size *out)
{
    if (count < 1 || count > GK_BENCH_RANDOM_MAX) return -1;
    rng64 r = {seed};
    for (int i = 0; i < count; i++) {
        gk_bench_size *z = &out[i];
        memset(z, 0, sizeof *z);
        const int cls = (int)below(&r, GK_BENCH_RANDOM_CLASSES);
        do draw_dims(&r, cls, z); /* the class is kept: a redraw would otherwise favour the small classes */
        while (!gk_bench_shape_fits(z));
        z->trans_a = below(&r, 2) ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
        z->trans_b = below(&r, 2) ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
        z->layout = below(&r, 2) ? GEMMKIT_ROW_MAJOR : GEMMKIT_COL_MAJOR;
        z->drawn = (signed char)(1 + cls);
    }
    return 0;
}

const char *gk_bench_random_class_name(int cls)
{
    return cls >= 0 && cls < GK_BENCH_RANDOM_CLASSES ? class_names[cls] : "?";
}

uint64_t gk_bench_random_clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    rng64 r = {(uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec};
    return next(&r);
}
