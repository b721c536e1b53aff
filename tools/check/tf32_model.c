/* The host model of the tensor-core math modes: tf32_model.h says what it assumes. */
#include "tf32_model.h"

#include <math.h>
#include <string.h>

float gk_tf32_rna(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u) return x; /* Inf, NaN */
    /* Adding half of the dropped range to the magnitude's bits rounds ties
     * away from zero; a carry into the exponent is the correct result. */
    u = (u + 0x1000u) & ~0x1fffu;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* |s| rounded toward zero to fp32. */
static float toward_zero(double s)
{
    float f = (float)s;
    if (fabs((double)f) > fabs(s)) f = nextafterf(f, 0.0f);
    return f;
}

float gk_tc_dot(float c, const float *a, const float *b, int n)
{
    double t[9];
    int count = 0, emax = INT32_MIN;
    t[count++] = c;
    for (int i = 0; i < n; i++) t[count++] = (double)a[i] * (double)b[i]; /* exact */
    for (int i = 0; i < count; i++) {
        if (t[i] == 0.0) continue;
        int e;
        frexp(t[i], &e);
        if (e > emax) emax = e;
    }
    if (emax == INT32_MIN) return c + 0.0f;
    /* The largest addend lies in [2^(emax-1), 2^emax): its fp32 ulp is 2^(emax-24). */
    const double q = ldexp(1.0, emax - 24);
    double sum = 0.0; /* exact: at most 9 * 2^24 units of q */
    for (int i = 0; i < count; i++) sum += trunc(t[i] / q) * q;
    return toward_zero(sum);
}

const char *gk_model_scheme_name(gk_model_scheme scheme)
{
    static const char *names[] = {"fp32 FMA loop", "1xTF32", "3xTF32, one accumulator",
                                  "3xTF32, small terms apart", "3xTF32, big*big per k-tile in fp32",
                                  "3xTF32, per k-tile in fp32"};
    return scheme >= 0 && scheme < GK_MODEL_SCHEME_COUNT ? names[scheme] : "?";
}

/* The operands of one k8 step: big = tf32(x), small = tf32(x - big). */
typedef struct split8 {
    float big_a[8], small_a[8], big_b[8], small_b[8];
    int n;
} split8;

static void split_step(const float *a, int64_t sa, const float *b, int64_t sb, int64_t k0, int n, split8 *s)
{
    s->n = n;
    for (int i = 0; i < n; i++) {
        const float x = a[(k0 + i) * sa], y = b[(k0 + i) * sb];
        s->big_a[i] = gk_tf32_rna(x);
        s->small_a[i] = gk_tf32_rna(x - s->big_a[i]); /* x - big is exact */
        s->big_b[i] = gk_tf32_rna(y);
        s->small_b[i] = gk_tf32_rna(y - s->big_b[i]);
    }
}

float gk_model_dot(gk_model_scheme scheme, int ktile, const float *a, int64_t sa, const float *b, int64_t sb,
                   int64_t k)
{
    if (scheme == GK_MODEL_FP32_FMA) {
        float acc = 0.0f;
        for (int64_t i = 0; i < k; i++) acc = fmaf(a[i * sa], b[i * sb], acc);
        return acc;
    }
    float acc = 0.0f, small = 0.0f, tile = 0.0f;
    for (int64_t k0 = 0; k0 < k; k0 += 8) {
        split8 s;
        split_step(a, sa, b, sb, k0, k - k0 < 8 ? (int)(k - k0) : 8, &s);
        switch (scheme) {
        case GK_MODEL_TF32: acc = gk_tc_dot(acc, s.big_a, s.big_b, s.n); break;
        case GK_MODEL_3X_ONE_ACC:
            acc = gk_tc_dot(acc, s.small_a, s.big_b, s.n);
            acc = gk_tc_dot(acc, s.big_a, s.small_b, s.n);
            acc = gk_tc_dot(acc, s.big_a, s.big_b, s.n);
            break;
        case GK_MODEL_3X_SMALL_ACC:
        case GK_MODEL_3X_FP32_BIG:
            small = gk_tc_dot(small, s.small_a, s.big_b, s.n);
            small = gk_tc_dot(small, s.big_a, s.small_b, s.n);
            if (scheme == GK_MODEL_3X_SMALL_ACC) {
                acc = gk_tc_dot(acc, s.big_a, s.big_b, s.n);
            } else {
                tile = gk_tc_dot(tile, s.big_a, s.big_b, s.n);
                if ((k0 + 8) % ktile == 0 || k0 + 8 >= k) {
                    acc += tile; /* fp32 add, round to nearest */
                    tile = 0.0f;
                }
            }
            break;
        case GK_MODEL_3X_KTILE:
            tile = gk_tc_dot(tile, s.small_a, s.big_b, s.n);
            tile = gk_tc_dot(tile, s.big_a, s.small_b, s.n);
            tile = gk_tc_dot(tile, s.big_a, s.big_b, s.n);
            if ((k0 + 8) % ktile == 0 || k0 + 8 >= k) {
                acc += tile;
                tile = 0.0f;
            }
            break;
        default: break;
        }
    }
    return acc + small;
}
