/* Checking B := alpha * op(A) (gemmkit_somatcopy): cases, the exact
 * comparison with the reference, and one-call runs on fresh random inputs.
 * Shared by the tests and the command-line tool. */
#ifndef GK_CHECK_TRANSPOSE_H
#define GK_CHECK_TRANSPOSE_H

#include "check.h"

typedef struct gk_omatcopy_case {
    gemmkit_layout layout;
    gemmkit_transpose trans;
    int64_t rows, cols; /* of A, in layout */
    float alpha;
    int64_t lda, ldb;       /* 0 = tight */
    size_t offset_a, offset_b; /* elements before A and B in their buffers */
} gk_omatcopy_case;

/* Fills in tight leading dimensions where the case has 0. */
void gk_omatcopy_complete(gk_omatcopy_case *c);
/* Elements spanned by A and by B (offsets not included). */
void gk_omatcopy_extents(const gk_omatcopy_case *c, size_t *ea, size_t *eb);

/* Fills the count floats of B's buffer (offset_b, B, gaps and what follows)
 * with random values, then poisons B's own elements with NaN. */
void gk_omatcopy_fill_b(const gk_omatcopy_case *c, gk_rng *rng, float *b, size_t count);

/* Compares result (B after the call) with alpha * op(A) exactly: one rounding
 * of one product; alpha == 0 gives zeros. Elements between B's columns (rows)
 * must still equal b0, bit for bit. */
void gk_check_omatcopy(const gk_omatcopy_case *c, const float *a, const float *b0, const float *result,
                       gk_check_result *out);

/* Runs a case on fresh random A and a NaN-poisoned B, through device buffers
 * (with the case's offsets and options) or, when buffers is 0, the host-array
 * entry point (options unused); checks B and that nothing around it changed.
 * Returns the library's status. */
gemmkit_status gk_check_omatcopy_run(gemmkit_context *ctx, const gemmkit_options *options, gk_omatcopy_case c,
                                     int buffers, gk_rng *rng, gk_check_result *out);

/* A one-line description of a case, for failure messages. */
void gk_omatcopy_describe(const gk_omatcopy_case *c, char *text, size_t size);

#endif
