/* The benchmark's rows as a person reads them (one line each, then a table)
 * and as a TSV file; the ratios come from the rows measured so far. */
#include <stdio.h>
#include <string.h>

#include "multi_gpu.h"
#include "output_file.h"

const char *mg_status_name(mg_status s)
{
    switch (s) {
    case MG_OK: return "ok";
    case MG_WRONG: return "WRONG";
    case MG_FAILED: return "FAILED";
    default: return "SKIPPED";
    }
}

/* The OK row of `runner` measured like rows[i] (same n, memory and, where
 * asked, backend and device count), or NULL. */
static const mg_row *find(const mg_row *rows, int count, const mg_row *like, const char *runner, const char *memory,
                          const char *backend, int devices)
{
    for (int j = 0; j < count; j++) {
        const mg_row *r = &rows[j];
        if (r->status == MG_OK && r->n == like->n && strcmp(r->runner, runner) == 0 &&
            (!memory || strcmp(r->memory, memory) == 0) && (!backend || strcmp(r->backend, backend) == 0) &&
            r->devices == devices && r->seconds > 0)
            return r;
    }
    return NULL;
}

mg_ratios mg_row_ratios(const mg_row *rows, int count, int index)
{
    mg_ratios q = {0};
    const mg_row *r = &rows[index];
    if (r->status != MG_OK || r->seconds <= 0) return q;
    q.tflops = 2.0 * (double)r->n * (double)r->n * (double)r->n / r->seconds / 1e12;
    const mg_row *peer = NULL, *one = NULL, *resident = NULL;
    if (strcmp(r->runner, "gemmkit") == 0) {
        peer = find(rows, count, r, "cublasxt", r->memory, NULL, r->devices);
        resident = find(rows, count, r, "gemmkit-resident", NULL, r->backend, 1);
    } else if (strcmp(r->runner, "gemmkit-resident") == 0) {
        peer = find(rows, count, r, "cublas-resident", NULL, NULL, 1);
    } else if (strcmp(r->runner, "cublasxt") == 0) {
        resident = find(rows, count, r, "cublas-resident", NULL, NULL, 1);
    }
    if (peer) q.to_peer = peer->seconds / r->seconds;
    if (r->devices > 1 && (one = find(rows, count, r, r->runner, r->memory, r->backend, 1)))
        q.scaling = one->seconds / r->seconds;
    if (r->devices == 1 && resident && resident != r) q.host_to_resident = resident->seconds / r->seconds;
    return q;
}

static const char *peer_name(const mg_row *r)
{
    return strcmp(r->runner, "gemmkit-resident") == 0 ? "cuBLAS" : "cuBLASXt";
}

void mg_print_row(FILE *out, const mg_row *rows, int count, int index)
{
    const mg_row *r = &rows[index];
    fprintf(out, "%-16s %-16s %2d  %-8s ", r->runner, r->target, r->devices, r->memory);
    if (r->status != MG_OK) {
        fprintf(out, "%s: %s\n", mg_status_name(r->status), r->detail);
        fflush(out);
        return;
    }
    mg_ratios q = mg_row_ratios(rows, count, index);
    fprintf(out, "%9.4g s %6.1f TFLOPS  ok (%d timed, max err %.1e)", r->seconds, q.tflops, r->timed, r->max_error);
    if (q.to_peer > 0) fprintf(out, "  %.2fx %s", q.to_peer, peer_name(r));
    if (q.scaling > 0) fprintf(out, "  %.2fx over 1 device", q.scaling);
    if (q.host_to_resident > 0) fprintf(out, "  %.2fx of resident", q.host_to_resident);
    fputc('\n', out);
    fflush(out);
}

static void ratio_cell(FILE *out, double v)
{
    if (v > 0) fprintf(out, " %8.2fx", v);
    else fprintf(out, " %9s", "-");
}

void mg_print_summary(FILE *out, const mg_row *rows, int count)
{
    fprintf(out, "\n%-7s %-16s %-16s %-7s %3s %-8s %9s %7s %9s %9s %9s  %s\n", "n", "runner", "target", "backend",
            "dev", "memory", "seconds", "TFLOPS", "vs peer", "scaling", "vs resid", "check");
    for (int i = 0; i < count; i++) {
        const mg_row *r = &rows[i];
        fprintf(out, "%-7lld %-16s %-16s %-7s %3d %-8s ", (long long)r->n, r->runner, r->target, r->backend,
                r->devices, r->memory);
        if (r->status != MG_OK) {
            fprintf(out, "%9s %7s %9s %9s %9s  %s: %.80s\n", "-", "-", "-", "-", "-", mg_status_name(r->status),
                    r->detail);
            continue;
        }
        mg_ratios q = mg_row_ratios(rows, count, i);
        fprintf(out, "%9.4g %7.1f", r->seconds, q.tflops);
        ratio_cell(out, q.to_peer);
        ratio_cell(out, q.scaling);
        ratio_cell(out, q.host_to_resident);
        fprintf(out, "  ok, max err %.1e\n", r->max_error);
    }
    fprintf(out, "vs peer: gemmkit's rate over cuBLASXt's (same devices and memory), or over cuBLAS's for\n"
                 "gemmkit-resident; scaling: over the same runner on 1 device; vs resid: the host-array rate\n"
                 "over the same library's device-resident rate on one device (docs/SCALE.md).\n");
    fflush(out);
}

/* Tabs and line ends would break the row. */
static void put_field(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) fputc(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p, out);
}

static void put_number(FILE *out, const char *format, double v)
{
    fputc('\t', out);
    if (v > 0) fprintf(out, format, v);
}

typedef struct tsv_job {
    const mg_row *rows;
    int count;
} tsv_job;

static int write_rows(gk_output_file *file, void *user, char *err, size_t len)
{
    const tsv_job *job = user;
    FILE *out = file->stream;
    fputs("n\trunner\ttarget\tbackend\tdevices\tmemory\tstatus\tseconds\ttflops\ttimed\tratio_to_peer\tscaling"
          "\thost_to_resident\tmax_error\tdetail\n",
          out);
    for (int i = 0; i < job->count; i++) {
        const mg_row *r = &job->rows[i];
        mg_ratios q = mg_row_ratios(job->rows, job->count, i);
        fprintf(out, "%lld\t%s\t%s\t%s\t%d\t%s\t%s", (long long)r->n, r->runner, r->target, r->backend, r->devices,
                r->memory, mg_status_name(r->status));
        put_number(out, "%.9g", r->status == MG_OK ? r->seconds : 0);
        put_number(out, "%.3f", q.tflops);
        fprintf(out, "\t%d", r->timed);
        put_number(out, "%.4f", q.to_peer);
        put_number(out, "%.4f", q.scaling);
        put_number(out, "%.4f", q.host_to_resident);
        put_number(out, "%.3e", r->status == MG_OK || r->status == MG_WRONG ? r->max_error : 0);
        fputc('\t', out);
        put_field(out, r->detail);
        fputc('\n', out);
    }
    if (!ferror(out)) return 0;
    snprintf(err, len, "write error");
    return -1;
}

int mg_write_tsv(const char *path, const mg_row *rows, int count, char *err, size_t len)
{
    tsv_job job = {rows, count};
    return gk_output_write(path, write_rows, &job, err, len);
}
