/* Shared by the tests and the command-line tool: random inputs, poisoned
 * outputs, and comparison against the reference with float32 error bounds. */
#ifndef GK_CHECK_H
#define GK_CHECK_H

#include <stdint.h>

#include "gemmkit.h"

typedef struct gk_rng {
    uint64_t state;
} gk_rng;

/* Seeds from the clock unless GEMMKIT_SEED is set (printed on failure). */
void gk_rng_seed(gk_rng *rng, uint64_t seed);
uint64_t gk_rng_fresh_seed(void);
float gk_rng_uniform(gk_rng *rng); /* in [-1, 1) */
void gk_fill_random(gk_rng *rng, float *x, size_t count);
void gk_fill_value(float *x, size_t count, float value);

/* "Wide" inputs (gemmkit bench --inputs wide, math_study): every row of the
 * rows x cols matrix x (leading dimension ld) multiplied by 2^e, then every
 * column by 2^f, e and f uniform in -20..20 (drawn per row, then per column):
 * magnitudes over 2^-40..2^40, exact in float. For an SGEMM both operands'
 * rows and columns: the scales of A's columns and B's rows meet inside
 * each sum, which is what tests the accumulation (scaling only A's rows and
 * B's columns would scale each C(i,j) exactly, its relative error unchanged).
 * 0, or -1 when out of memory (x unchanged). */
int gk_scale_wide(gk_rng *rng, float *x, gemmkit_layout layout, int64_t rows, int64_t cols, int64_t ld);

/* A matrix of the size an sgemm operand needs: elements spanned with ld. */
size_t gk_matrix_extent(gemmkit_layout layout, int64_t rows, int64_t cols, int64_t ld);

typedef struct gk_sgemm_case {
    gemmkit_layout layout;
    gemmkit_transpose trans_a, trans_b;
    int64_t m, n, k;
    float alpha, beta;
    int64_t lda, ldb, ldc; /* 0 = tight */
} gk_sgemm_case;

typedef struct gk_check_result {
    int passed;
    int64_t bad_count;      /* elements outside the bound (or NaN mismatch, or gap changed) */
    double max_rel_error;   /* max |c - ref| / magnitude */
    double norm_rel_error;  /* ||c - ref|| / ||ref|| */
    char message[256];
} gk_check_result;

/* Fills in tight leading dimensions where the case has 0. */
void gk_case_complete(gk_sgemm_case *c);
/* Sizes of the three operands in floats. */
void gk_case_extents(const gk_sgemm_case *c, size_t *ea, size_t *eb, size_t *ec);
/* C as stored: *lines runs of *along contiguous elements, ldc apart (columns of a column-major C, rows of a
 * row-major one), for walks over C in storage order; 1 when C is row-major. */
int gk_case_c_lines(const gk_sgemm_case *c, int64_t *lines, int64_t *along);

/* Fresh random operands for a completed case (extents from gk_case_extents);
 * with beta == 0 the m x n block of C is NaN, so that a read of C or an
 * unwritten element shows. */
void gk_case_fill_inputs(const gk_sgemm_case *c, gk_rng *rng, float *a, float *b, float *c0);

/* The error bound per element of a case, relative to |alpha| |A||B| + |beta| |C0|,
 * by math mode (docs/MATH.md): fp32 2 (K + 2) eps; 3xtf32 twice that plus
 * 16 eps (the split drops terms below 3 * 2^-22 of each product, and the tensor
 * core truncates); tf32 4 * 2^-11 (each operand rounded to 11 bits or truncated: the wgmma
 * kernel's B, and its A read unrounded by descriptor) plus 3xtf32's. */
double gk_sgemm_bound(const gk_sgemm_case *c, gemmkit_math math);

/* Compares `result` with the reference of the case on inputs a, b, c0. The
 * bound per element is gk_sgemm_bound(c, fp32) * (|alpha| |A||B| + |beta| |C0|);
 * elements outside the m x n block (leading-dimension gaps) must equal c0. */
void gk_check_sgemm(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                    const float *result, gk_check_result *out);


/* The same with the bound of `math` (gk_sgemm_bound). */
void gk_check_sgemm_math(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b, const float *c0,
                         const float *result, gk_check_result *out);

/* Like gk_check_sgemm on `samples` random elements of C only, each computed
 * in double on the spot: for sizes where the full reference is too slow. */
void gk_check_sgemm_sampled(const gk_sgemm_case *c, const float *a, const float *b, const float *c0,
                            const float *result, int samples, gk_rng *rng, gk_check_result *out);
/* The same with the bound of `math` (gk_sgemm_bound). */
void gk_check_sgemm_sampled_math(const gk_sgemm_case *c, gemmkit_math math, const float *a, const float *b,
                                 const float *c0, const float *result, int samples, gk_rng *rng,
                                 gk_check_result *out);

/* Runs one case through gemmkit_sgemm_ex on fresh random inputs (C poisoned
 * with NaN when beta == 0) and checks it; full check up to `full_limit`
 * multiply-adds, sampled beyond, with the bound of the run's math mode: the
 * named kernel's, else options->math, else the context's. Returns the
 * library's status. */
gemmkit_status gk_check_run(gemmkit_context *ctx, const gemmkit_options *options, gk_sgemm_case c,
                            gk_rng *rng, double full_limit, gk_check_result *out);
#endif
