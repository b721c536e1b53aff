/* SGEMM inside the library: argument checking shared by every entry point,
 * and the execution on device memory of a problem already put in
 * column-major form. */
#ifndef GK_SGEMM_H
#define GK_SGEMM_H

#include "context.h"

typedef struct gk_matrix {
    gk_mem *mem;
    size_t offset; /* elements */
    int64_t ld;
} gk_matrix;

/* A column-major problem: C = alpha * op(A) * op(B) + beta * C. */
typedef struct gk_sgemm_problem {
    int trans_a, trans_b; /* 0 or 1 */
    int64_t m, n, k;
    float alpha, beta;
    gk_matrix a, b, c;
} gk_sgemm_problem;

/* The rows of a stored column-major matrix holding op(X) of size rows x cols. */
int64_t gk_stored_rows(int trans, int64_t rows, int64_t cols);
/* Elements spanned by a column-major matrix: (cols - 1) * ld + rows, or 0. */
int64_t gk_extent(int64_t rows, int64_t cols, int64_t ld);

/* Argument checks shared by the entry points (SGEMM, transposition): each
 * fails with a message naming the argument. */
gemmkit_status gk_check_pointer(const void *ptr, const char *name);
/* ld >= max(1, min_rows). */
gemmkit_status gk_check_ld(const char *name, int64_t ld, int64_t min_rows);
/* buf belongs to ctx and holds offset + extent floats, within 32-bit indexing. */
gemmkit_status gk_check_buffer(gemmkit_context *ctx, const gemmkit_buffer *buf, const char *name,
                               size_t offset, int64_t extent);

/* Checks everything but pointers, in the reference BLAS order, and fills a
 * column-major problem (row-major is turned into the transposed product). */
gemmkit_status gk_sgemm_prepare(gemmkit_layout layout, gemmkit_transpose trans_a,
                                gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k,
                                float alpha, int64_t lda, int64_t ldb, float beta, int64_t ldc,
                                gk_sgemm_problem *problem);

/* True when the call reads A and B / changes C at all. */
int gk_sgemm_reads_ab(const gk_sgemm_problem *p);
int gk_sgemm_writes_c(const gk_sgemm_problem *p);

/* Runs a prepared problem on device memory (the context is locked). */
gemmkit_status gk_sgemm_run(gemmkit_context *ctx, const gemmkit_options *options,
                            const gk_sgemm_problem *problem);

/* The kernel the library picks for a shape when the caller names none, and
 * its parameters (NULL: the device's tuned ones, else the defaults). */
typedef struct gk_sgemm_choice {
    const gk_kernel_def *def;
    const char *params;
} gk_sgemm_choice;
gk_sgemm_choice gk_sgemm_default_kernel(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k);
/* The device class's fast kernel, which the dispatch gives the shapes that
 * gk_sgemm_fast_kernel_scope describes in words (the rest run "direct"). */
const gk_kernel_def *gk_sgemm_fast_kernel(const gemmkit_context *ctx);
const char *gk_sgemm_fast_kernel_scope(void);

#endif
