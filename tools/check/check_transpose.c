/* Checking B := alpha * op(A) against the reference, exactly (see check_transpose.h). */
#include "check_transpose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GUARD = 7 }; /* floats after each matrix that must stay untouched */

static int transposed(const gk_omatcopy_case *c) { return c->trans != GEMMKIT_NO_TRANS; }
static int64_t b_rows(const gk_omatcopy_case *c) { return transposed(c) ? c->cols : c->rows; }
static int64_t b_cols(const gk_omatcopy_case *c) { return transposed(c) ? c->rows : c->cols; }

static size_t at(gemmkit_layout layout, int64_t i, int64_t j, int64_t ld)
{
    return (size_t)(layout == GEMMKIT_ROW_MAJOR ? i * ld + j : i + j * ld);
}

void gk_omatcopy_complete(gk_omatcopy_case *c)
{
    const int row_major = c->layout == GEMMKIT_ROW_MAJOR;
    int64_t a_tight = row_major ? c->cols : c->rows, b_tight = row_major ? b_cols(c) : b_rows(c);
    if (c->lda == 0) c->lda = a_tight > 1 ? a_tight : 1;
    if (c->ldb == 0) c->ldb = b_tight > 1 ? b_tight : 1;
}

void gk_omatcopy_extents(const gk_omatcopy_case *c, size_t *ea, size_t *eb)
{
    *ea = gk_matrix_extent(c->layout, c->rows, c->cols, c->lda);
    *eb = gk_matrix_extent(c->layout, b_rows(c), b_cols(c), c->ldb);
}

void gk_omatcopy_describe(const gk_omatcopy_case *c, char *text, size_t size)
{
    snprintf(text, size, "%s %c rows=%lld cols=%lld alpha=%g lda=%lld ldb=%lld offset_a=%zu offset_b=%zu",
             c->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", transposed(c) ? 'T' : 'N', (long long)c->rows,
             (long long)c->cols, c->alpha, (long long)c->lda, (long long)c->ldb, c->offset_a, c->offset_b);
}

static void note(gk_check_result *out, const char *format, int64_t i, int64_t j, float got, float want)
{
    if (out->bad_count++ == 0) snprintf(out->message, sizeof out->message, format, (long long)i, (long long)j, got, want);
}

void gk_check_omatcopy(const gk_omatcopy_case *c, const float *a, const float *b0, const float *result,
                       gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    const int64_t br = b_rows(c), bc = b_cols(c);
    for (int64_t j = 0; j < bc; j++) {
        for (int64_t i = 0; i < br; i++) {
            const float x = transposed(c) ? a[at(c->layout, j, i, c->lda)] : a[at(c->layout, i, j, c->lda)];
            const float want = c->alpha == 0.0f ? 0.0f : c->alpha * x;
            const float got = result[at(c->layout, i, j, c->ldb)];
            if (!(got == want)) note(out, "B(%lld, %lld) = %g, expected %g", i, j, got, want);
        }
    }
    if (br == 0 || bc == 0) {
        out->passed = 1;
        snprintf(out->message, sizeof out->message, "empty");
        return;
    }
    /* The gaps between B's stored columns (column-major) or rows (row-major). */
    const int row_major = c->layout == GEMMKIT_ROW_MAJOR;
    const int64_t outer = row_major ? br : bc, inner = row_major ? bc : br;
    for (int64_t o = 0; o + 1 < outer; o++)
        for (int64_t x = inner; x < c->ldb; x++) {
            const size_t k = (size_t)(o * c->ldb + x);
            if (memcmp(&result[k], &b0[k], sizeof(float)) != 0)
                note(out, "gap element (%lld, %lld) of B changed from %g to %g", o, x, b0[k], result[k]);
        }
    out->passed = out->bad_count == 0;
    if (out->passed) snprintf(out->message, sizeof out->message, "exact");
}

/* Elements [from, to) of two arrays are identical, bit for bit. */
void gk_omatcopy_fill_b(const gk_omatcopy_case *c, gk_rng *rng, float *b, size_t count)
{
    gk_fill_random(rng, b, count); /* gaps and surroundings: random values that must survive */
    for (int64_t j = 0; j < b_cols(c); j++) /* B itself: poison, every element must be written */
        for (int64_t i = 0; i < b_rows(c); i++) b[c->offset_b + at(c->layout, i, j, c->ldb)] = NAN;
}

static int64_t count_changed(const float *x, const float *y, size_t from, size_t to)
{
    int64_t changed = 0;
    for (size_t k = from; k < to; k++) changed += memcmp(&x[k], &y[k], sizeof(float)) != 0;
    return changed;
}

static gemmkit_status run_buffers(gemmkit_context *ctx, const gemmkit_options *options, const gk_omatcopy_case *c,
                                  const float *a, size_t na, float *b, size_t nb)
{
    gemmkit_buffer *da = NULL, *db = NULL;
    gemmkit_status status = gemmkit_buffer_create(ctx, na, &da);
    if (!status) status = gemmkit_buffer_create(ctx, nb, &db);
    if (!status) status = gemmkit_buffer_write(ctx, da, 0, na, a);
    if (!status) status = gemmkit_buffer_write(ctx, db, 0, nb, b);
    if (!status) {
        status = gemmkit_somatcopy_buffers(ctx, options, c->layout, c->trans, c->rows, c->cols, c->alpha, da,
                                           c->offset_a, c->lda, db, c->offset_b, c->ldb);
        char message[512]; /* keep the call's message across the read-back */
        snprintf(message, sizeof message, "%s", gemmkit_last_error_message());
        gemmkit_status read = gemmkit_buffer_read(ctx, db, 0, nb, b);
        if (status == GEMMKIT_SUCCESS) status = read;
        else if (read != GEMMKIT_SUCCESS) fprintf(stderr, "reading B back failed after: %s\n", message);
    }
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    return status;
}

gemmkit_status gk_check_omatcopy_run(gemmkit_context *ctx, const gemmkit_options *options, gk_omatcopy_case c,
                                     int buffers, gk_rng *rng, gk_check_result *out)
{
    memset(out, 0, sizeof *out);
    gk_omatcopy_complete(&c);
    size_t ea, eb;
    gk_omatcopy_extents(&c, &ea, &eb);
    const size_t na = c.offset_a + ea + GUARD, nb = c.offset_b + eb + GUARD;
    float *a = malloc(na * sizeof *a), *b0 = malloc(nb * sizeof *b0), *res = malloc(nb * sizeof *res);
    gemmkit_status status = GEMMKIT_ERROR_OUT_OF_HOST_MEMORY;
    if (!a || !b0 || !res) goto done;
    gk_fill_random(rng, a, na);
    gk_omatcopy_fill_b(&c, rng, b0, nb);
    memcpy(res, b0, nb * sizeof *res);
    status = buffers ? run_buffers(ctx, options, &c, a, na, res, nb)
                     : gemmkit_somatcopy(ctx, c.layout, c.trans, c.rows, c.cols, c.alpha, a + c.offset_a, c.lda,
                                         res + c.offset_b, c.ldb);
    if (status != GEMMKIT_SUCCESS) { /* a failed call must leave B as it was */
        out->bad_count = count_changed(res, b0, 0, nb);
        out->passed = out->bad_count == 0;
        snprintf(out->message, sizeof out->message, "%s: %s%s", gemmkit_strerror(status),
                 gemmkit_last_error_message(), out->passed ? "" : " (and B changed)");
        goto done;
    }
    gk_check_omatcopy(&c, a + c.offset_a, b0 + c.offset_b, res + c.offset_b, out);
    const int64_t outside = count_changed(res, b0, 0, c.offset_b) + count_changed(res, b0, c.offset_b + eb, nb);
    if (outside) {
        out->bad_count += outside;
        out->passed = 0;
        snprintf(out->message, sizeof out->message, "%lld element(s) outside B changed", (long long)outside);
    }
done:
    free(a);
    free(b0);
    free(res);
    return status;
}
