/* --candidates' results: the shapes and rows kept while measuring (bench_candidates.c), their summary
 * (the default within 10% of the fastest candidate on how many shapes; the model's measured/predicted
 * ratio), the lines after the table and the --candidates-out file, one row per candidate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "output_file.h"

const char gk_bench_candidates_columns[] = "shape\ttrans\tlayout\trank\tkernel\tline\tsplits\tparams\tpredicted_ms\t"
                                           "measured_ms\twall_ms\tstatus\tis_default\tdefault_kernel\tdefault_ms\tmessage";

gk_bench_candidate_shape *gk_bench_candidates_add_shape(gk_bench_candidates *c)
{
    if (c->shape_count == c->shape_capacity) {
        const size_t capacity = c->shape_capacity ? 2 * c->shape_capacity : 16;
        gk_bench_candidate_shape *grown = realloc(c->shapes, capacity * sizeof *grown);
        if (!grown) return NULL;
        c->shapes = grown;
        c->shape_capacity = capacity;
    }
    gk_bench_candidate_shape *shape = &c->shapes[c->shape_count++];
    memset(shape, 0, sizeof *shape);
    shape->default_ms = shape->default_wall_ms = NAN;
    shape->first = c->row_count;
    return shape;
}

gk_bench_candidate_row *gk_bench_candidates_add_row(gk_bench_candidates *c, gk_bench_candidate_shape *shape)
{
    if (c->row_count == c->row_capacity) {
        const size_t capacity = c->row_capacity ? 2 * c->row_capacity : 64;
        gk_bench_candidate_row *grown = realloc(c->rows, capacity * sizeof *grown);
        if (!grown) return NULL;
        c->rows = grown;
        c->row_capacity = capacity;
    }
    gk_bench_candidate_row *row = &c->rows[c->row_count++];
    memset(row, 0, sizeof *row);
    row->predicted_ms = row->measured_ms = row->wall_ms = NAN;
    shape->count++;
    return row;
}

void gk_bench_candidates_free(gk_bench_candidates *c)
{
    free(c->shapes);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

const gk_bench_candidate_row *gk_bench_candidates_fastest(const gk_bench_candidates *c,
                                                          const gk_bench_candidate_shape *shape)
{
    const gk_bench_candidate_row *fastest = NULL;
    for (int i = 0; shape->chooses && i < shape->count; i++) {
        const gk_bench_candidate_row *row = &c->rows[shape->first + (size_t)i];
        if (row->status == GK_BENCH_OK && row->measured_ms > 0.0 && (!fastest || row->measured_ms < fastest->measured_ms))
            fastest = row;
    }
    return fastest;
}

int gk_bench_candidates_mismatch(const gk_bench_candidates *c, const gk_bench_candidate_shape *shape)
{
    return shape->chooses && shape->count > 0 && shape->default_kernel[0] &&
           strcmp(shape->default_kernel, c->rows[shape->first].kernel) != 0;
}

void gk_bench_candidates_summarize(const gk_bench_candidates *c, gk_bench_candidates_summary *out)
{
    memset(out, 0, sizeof *out);
    double logs = 0.0;
    for (size_t z = 0; z < c->shape_count; z++) {
        const gk_bench_candidate_shape *shape = &c->shapes[z];
        out->shapes++;
        out->skipped += shape->skipped;
        if (!shape->chooses) continue;
        out->chosen++;
        out->mismatched += gk_bench_candidates_mismatch(c, shape);
        for (int i = 0; i < shape->count; i++) {
            const gk_bench_candidate_row *row = &c->rows[shape->first + (size_t)i];
            out->candidates++;
            out->ok += row->status == GK_BENCH_OK;
            out->wrong += row->status == GK_BENCH_WRONG;
            out->failed += row->status == GK_BENCH_ERROR || row->status == GK_BENCH_SKIPPED;
            if (row->status == GK_BENCH_OK && row->measured_ms > 0.0 && row->predicted_ms > 0.0) {
                logs += log(row->measured_ms / row->predicted_ms);
                out->predicted++;
            }
        }
        const gk_bench_candidate_row *fastest = gk_bench_candidates_fastest(c, shape);
        if (!fastest || !(shape->default_ms > 0.0)) continue;
        out->compared++;
        out->near += shape->default_ms <= GK_BENCH_NEAR_FASTEST * fastest->measured_ms;
    }
    out->geomean_measured_over_predicted = out->predicted ? exp(logs / out->predicted) : NAN;
}

/* ok | wrong | failed (did not run: an error, or a kernel this device or backend refuses) | skipped (a shape not
 * run on purpose) */
static const char *row_status(gk_bench_status status)
{
    return status == GK_BENCH_OK       ? "ok"
           : status == GK_BENCH_WRONG   ? "wrong"
           : status == GK_BENCH_SKIPPED ? "skipped"
                                        : "failed";
}

static void shape_text(const gk_bench_size *z, char *text, size_t len)
{
    char size[48];
    gk_bench_size_text(z, size, sizeof size);
    snprintf(text, len, "%s %c%c %s", size, z->trans_a == GEMMKIT_TRANS ? 'T' : 'N', z->trans_b == GEMMKIT_TRANS ? 'T' : 'N',
             z->layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
}

void gk_bench_print_candidates(const gk_bench_candidates *c, FILE *out)
{
    fprintf(out, "\nCandidates (--candidates): per shape, the call with no kernel named (default) and each way the cost\n"
                 "model can run it, named by kernel and parameters, timed alike (call time, device); fastest: the\n"
                 "fastest correct candidate.\n");
    for (size_t z = 0; z < c->shape_count; z++) {
        const gk_bench_candidate_shape *shape = &c->shapes[z];
        char text[96];
        shape_text(&shape->size, text, sizeof text);
        fprintf(out, "%-22s ", text);
        if (shape->skipped || shape->count == 0) {
            fprintf(out, "not measured: %s\n", shape->note);
            continue;
        }
        if (shape->default_ms > 0.0) fprintf(out, "default %.4g ms (%s)", shape->default_ms, shape->default_kernel);
        else fprintf(out, "default not measured (%s)", shape->note);
        if (!shape->chooses) {
            fprintf(out, "; the model does not choose here\n");
            continue;
        }
        const gk_bench_candidate_row *fastest = gk_bench_candidates_fastest(c, shape);
        int bad = 0;
        for (int i = 0; i < shape->count; i++) bad += c->rows[shape->first + (size_t)i].status != GK_BENCH_OK;
        if (fastest) {
            fprintf(out, "; fastest %s (line %s, %d split%s) %.4g ms", fastest->kernel, fastest->line, fastest->splits,
                    fastest->splits == 1 ? "" : "s", fastest->measured_ms);
            if (shape->default_ms > 0.0) fprintf(out, "; default/fastest %.3gx", shape->default_ms / fastest->measured_ms);
        } else {
            fprintf(out, "; no candidate ran");
        }
        fprintf(out, "; %d candidate%s", shape->count, shape->count == 1 ? "" : "s");
        if (bad) fprintf(out, " (%d not ok)", bad);
        if (gk_bench_candidates_mismatch(c, shape))
            fprintf(out, "; MISMATCH: the default ran %s, the model ranks %s first", shape->default_kernel,
                    c->rows[shape->first].kernel);
        fprintf(out, "\n");
    }
    gk_bench_candidates_summary s;
    gk_bench_candidates_summarize(c, &s);
    fprintf(out, "Candidates summary: default within %.0f%% of the fastest candidate on %d of %d shapes (%.0f%%)",
            100.0 * (GK_BENCH_NEAR_FASTEST - 1.0), s.near, s.compared, s.compared ? 100.0 * s.near / s.compared : 0.0);
    if (s.chosen + s.skipped < s.shapes)
        fprintf(out, "; %d of %d shapes without the model's choice", s.shapes - s.chosen - s.skipped, s.shapes);
    if (s.skipped) fprintf(out, "; %d of %d shapes not measured", s.skipped, s.shapes);
    if (s.mismatched)
        fprintf(out, "; the default is not the model's first candidate on %d shape%s", s.mismatched,
                s.mismatched == 1 ? "" : "s");
    fprintf(out, "; %d candidates: %d ok, %d failed, %d wrong; measured/predicted geometric mean ", s.candidates, s.ok,
            s.failed, s.wrong);
    if (s.predicted) fprintf(out, "%.3gx over %d\n", s.geomean_measured_over_predicted, s.predicted);
    else fprintf(out, "-\n");
}

/* A number, or "-" where there is none. */
static void cell(FILE *f, double x, int last)
{
    if (isfinite(x)) fprintf(f, "%.6g", x);
    else fputc('-', f);
    fputc(last ? '\n' : '\t', f);
}

/* Tabs and line breaks would split a field. */
static void text_cell(FILE *f, const char *s, int last)
{
    if (!*s) fputc('-', f);
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc(last ? '\n' : '\t', f);
}

static int write_rows(gk_output_file *file, void *user, char *err, size_t err_size)
{
    (void)err;
    (void)err_size;
    const gk_bench_candidates *c = user;
    FILE *f = file->stream;
    fprintf(f, "%s\n", gk_bench_candidates_columns);
    for (size_t z = 0; z < c->shape_count; z++) {
        const gk_bench_candidate_shape *shape = &c->shapes[z];
        char size[48];
        gk_bench_size_text(&shape->size, size, sizeof size);
        for (int i = 0; i < shape->count; i++) {
            const gk_bench_candidate_row *row = &c->rows[shape->first + (size_t)i];
            fprintf(f, "%s\t%c%c\t%s\t%d\t", size, shape->size.trans_a == GEMMKIT_TRANS ? 'T' : 'N',
                    shape->size.trans_b == GEMMKIT_TRANS ? 'T' : 'N',
                    shape->size.layout == GEMMKIT_ROW_MAJOR ? "row" : "col", row->rank);
            text_cell(f, row->kernel, 0);
            text_cell(f, row->line, 0);
            if (row->splits > 0) fprintf(f, "%d\t", row->splits);
            else fputs("-\t", f);
            text_cell(f, row->params, 0);
            cell(f, row->predicted_ms, 0);
            cell(f, row->measured_ms, 0);
            cell(f, row->wall_ms, 0);
            fprintf(f, "%s\t%d\t", row_status(row->status), row->rank == 0);
            text_cell(f, shape->default_kernel, 0);
            cell(f, shape->default_ms, 0);
            text_cell(f, row->message, 1);
        }
    }
    return 0;
}

int gk_bench_write_candidates(const gk_bench_candidates *c, const char *path, char *err)
{
    return gk_output_write(path, write_rows, (void *)c, err, GK_BENCH_ERR);
}
