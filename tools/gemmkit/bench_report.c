/* The benchmark's results: records with their samples, statistics, ratios
 * to the peers, and the compact table printed on stdout. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "registry.h"

gk_bench_record *gk_bench_report_add(gk_bench_report *report)
{
    if (report->count == report->capacity) {
        size_t capacity = report->capacity ? 2 * report->capacity : 64;
        gk_bench_record *grown = realloc(report->records, capacity * sizeof *grown);
        if (!grown) return NULL;
        report->records = grown;
        report->capacity = capacity;
    }
    gk_bench_record *rec = &report->records[report->count++];
    memset(rec, 0, sizeof *rec);
    rec->unit = "GFLOPS";
    return rec;
}

void gk_bench_report_free(gk_bench_report *report)
{
    for (size_t i = 0; i < report->count; i++) {
        free(report->records[i].kernel_ms);
        free(report->records[i].total_ms);
        free(report->records[i].host_ms);
    }
    free(report->records);
    report->records = NULL;
    report->count = report->capacity = 0;
}

int gk_bench_record_samples(gk_bench_record *record, int count)
{
    size_t n = count > 0 ? (size_t)count : 1;
    record->kernel_ms = calloc(n, sizeof(double));
    record->total_ms = calloc(n, sizeof(double));
    record->host_ms = calloc(n, sizeof(double));
    record->count = count;
    if (record->kernel_ms && record->total_ms && record->host_ms) return 0;
    record->count = 0;
    return -1;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

gk_bench_stats gk_bench_stats_of(const double *samples, int count)
{
    gk_bench_stats s = {NAN, NAN, NAN};
    if (!samples || count <= 0) return s;
    double *sorted = malloc((size_t)count * sizeof *sorted);
    if (!sorted) return s;
    memcpy(sorted, samples, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_double);
    /* Median of an even count: the mean of the middle two. */
    s.median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    s.min = sorted[0];
    s.max = sorted[count - 1];
    free(sorted);
    return s;
}

double gk_bench_rate(const gk_bench_record *record, const double *samples)
{
    if (record->status != GK_BENCH_OK) return 0.0;
    gk_bench_stats s = gk_bench_stats_of(samples, record->count);
    return s.median > 0.0 ? record->work / (s.median * 1e6) : 0.0;
}

/* Same op, size, layout, transposes and batch: records that ratios compare. */
static int same_problem(const gk_bench_record *a, const gk_bench_record *b)
{
    return strcmp(a->op, b->op) == 0 && a->size.m == b->size.m && a->size.n == b->size.n &&
           a->size.k == b->size.k && strcmp(a->layout, b->layout) == 0 && strcmp(a->trans, b->trans) == 0 &&
           a->batch == b->batch;
}

const gk_bench_record *gk_bench_peer_record(const gk_bench_report *report, const gk_bench_record *record,
                                            const char *peer)
{
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *p = &report->records[i];
        if (strcmp(p->kind, "peer") == 0 && strcmp(p->name, peer) == 0 && same_problem(p, record)) return p;
    }
    return NULL;
}

double gk_bench_ratio(const gk_bench_report *report, const gk_bench_record *record, const char *peer)
{
    const double mine = gk_bench_rate(record, record->total_ms);
    const gk_bench_record *p = mine > 0.0 ? gk_bench_peer_record(report, record, peer) : NULL;
    const double theirs = p ? gk_bench_rate(p, p->total_ms) : 0.0;
    return theirs > 0.0 ? mine / theirs : 0.0;
}

/* The ladder's "speed-up over the step before": this kernel's rate over that
 * of the nearest earlier step of the same document (registry family and op)
 * measured on the same problem; 0 when there is none. */
double gk_bench_step_speedup(const gk_bench_report *report, const gk_bench_record *record)
{
    const gk_kernel_def *def = gk_kernel_find(record->name);
    double mine = gk_bench_rate(record, record->kernel_ms);
    if (!def || def->family == GK_FAMILY_LIBRARY || mine <= 0.0 || strcmp(record->kind, "gemmkit") != 0) return 0.0;
    const gk_bench_record *before = NULL;
    int before_step = 0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *c = &report->records[i];
        const gk_kernel_def *cd = gk_kernel_find(c->name);
        if (!cd || cd->family != def->family || gk_kernel_op(cd) != gk_kernel_op(def) || cd->step >= def->step ||
            cd->step <= before_step || c->status != GK_BENCH_OK || !same_problem(c, record))
            continue;
        before = c;
        before_step = cd->step;
    }
    double theirs = before ? gk_bench_rate(before, before->kernel_ms) : 0.0;
    return theirs > 0.0 ? mine / theirs : 0.0;
}

double gk_bench_copy_fraction(const gk_bench_report *report, const gk_bench_record *record)
{
    double mine = gk_bench_rate(record, record->kernel_ms), best = 0.0;
    if (strcmp(record->unit, "GB/s") != 0 || mine <= 0.0) return 0.0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *c = &report->records[i];
        if (strcmp(c->op, "copy") != 0 || strcmp(c->kind, "gemmkit") != 0 || c->size.m != record->size.m ||
            c->size.n != record->size.n || strcmp(c->layout, record->layout) != 0)
            continue;
        double rate = gk_bench_rate(c, c->kernel_ms);
        best = rate > best ? rate : best;
    }
    return best > 0.0 ? mine / best : 0.0;
}

const char *gk_bench_status_name(gk_bench_status status)
{
    switch (status) {
    case GK_BENCH_OK: return "ok";
    case GK_BENCH_WRONG: return "wrong";
    case GK_BENCH_ERROR: return "error";
    default: return "skipped";
    }
}

int gk_bench_peer_columns(const gk_bench_report *report, const char **names, int max)
{
    int count = 0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        if (strcmp(r->kind, "peer") != 0) continue;
        int seen = 0;
        for (int j = 0; j < count; j++) seen |= strcmp(names[j], r->name) == 0;
        if (!seen && count < max) names[count++] = r->name;
    }
    return count;
}

void gk_bench_print_header(const gk_bench_report *report, FILE *out)
{
    const gemmkit_device_info *d = &report->device;
    fprintf(out, "%s\n", report->title);
    fprintf(out, "device: %s | %s (%s, driver %s)\n", d->platform, d->name, d->backend, d->driver_version);
    /* Transposes are measured in GB/s: an fp32 compute peak says nothing about them. */
    if (!report->args || !report->args->transpose)
        fprintf(out,
                "fp32 peak: %.0f GFLOPS = %d compute units x %d lanes x 2 flops (FMA) x %d MHz; %%peak = GFLOPS / peak\n",
                d->peak_gflops, d->compute_units, d->lanes_per_unit, d->clock_mhz);
    if (report->args && !report->args->transpose) gk_bench_print_bandwidth(report, out);
    if (report->kernel_note[0]) fprintf(out, "%s\n", report->kernel_note);
    if (report->args) gk_bench_print_draws(report->args, out);
    for (int i = 0; i < report->peer_count; i++)
        fprintf(out, "peer %s: %s%s\n", report->peers[i].label, report->peers[i].found ? "found, " : "not used: ",
                report->peers[i].detail);
    if (report->peer_count == 0) fprintf(out, "peers: not run (--no-peers)\n");
}

void gk_bench_print_draws(const gk_bench_args *args, FILE *out)
{
    for (int i = 0; i < args->draw_count; i++) {
        const gk_bench_draw *d = &args->draws[i];
        int per_class[GK_BENCH_RANDOM_CLASSES] = {0};
        for (int z = d->first; z < d->first + d->count; z++)
            if (args->sizes[z].drawn > 0) per_class[args->sizes[z].drawn - 1]++;
        fprintf(out, "random shapes: %d drawn with seed %llu%s (by class:", d->count, (unsigned long long)d->seed,
                d->seed_from_clock ? " from the clock" : "");
        for (int c = 0, first = 1; c < GK_BENCH_RANDOM_CLASSES; c++)
            if (per_class[c]) {
                fprintf(out, "%s %s %d", first ? "" : ",", gk_bench_random_class_name(c), per_class[c]);
                first = 0;
            }
        fprintf(out, "), each with its own transposes and layout, run by rising work; the same shapes: --sizes "
                     "random:%d:%llu\n", d->count, (unsigned long long)d->seed);
    }
}

/* Each ratio column is as wide as its heading "vs NAME". */
static int ratio_width(const char *peer)
{
    int w = 3 + (int)strlen(peer);
    return w > 8 ? w : 8;
}

static void print_ratio(FILE *out, const char *peer, double ratio)
{
    if (ratio > 0.0) fprintf(out, " %*.2fx", ratio_width(peer) - 1, ratio);
    else fprintf(out, " %*s", ratio_width(peer), "-");
}

/* The max and RMS error columns: "-" where the check measured none (RMS: where only a max is known). */
static void print_errors(FILE *out, const gk_bench_record *r)
{
    const int measured = (r->status == GK_BENCH_OK || r->status == GK_BENCH_WRONG) && r->check[0] &&
                         strcmp(r->check, "none") != 0;
    if (measured) fprintf(out, " %8.1e", r->max_error);
    else fprintf(out, " %8s", "-");
    if (measured && r->error_count > 0) fprintf(out, " %8.1e", r->rms_error);
    else fprintf(out, " %8s", "-");
}

void gk_bench_display_name(const gk_bench_record *r, char *out, size_t len)
{
    if (strcmp(r->op, "sgemm") != 0 && strcmp(r->kind, "gemmkit") != 0) snprintf(out, len, "%s:%s", r->name, r->op);
    else if (r->resolved[0] && strcmp(r->resolved, r->name) != 0) snprintf(out, len, "%s:%s", r->name, r->resolved);
    else snprintf(out, len, "%s", r->name);
}

void gk_bench_print_table(const gk_bench_report *report, FILE *out)
{
    const char *peers[GK_BENCH_MAX_RUNNERS];
    int npeers = gk_bench_peer_columns(report, peers, GK_BENCH_MAX_RUNNERS);
    int w = 24; /* the name column: as wide as the longest name */
    for (size_t i = 0; i < report->count; i++) {
        char name[160];
        gk_bench_display_name(&report->records[i], name, sizeof name);
        w = (int)strlen(name) > w ? (int)strlen(name) : w;
    }
    const char *unit = report->count ? report->records[0].unit : "GFLOPS";
    /* Transposes (GB/s) have %copy where SGEMM has %peak. */
    const int bytes = strcmp(unit, "GB/s") == 0;
    /* A ladder (several steps of one document) gets a speed-up column. */
    int ladder = 0;
    for (size_t i = 0; i < report->count && !ladder; i++) ladder = gk_bench_step_speedup(report, &report->records[i]) > 0.0;
    fprintf(out, "\n%s = work / median kernel time for gemmkit, / median call time for peers. kernel: the main\n"
                 "kernel; call: every launch of the call, device time (pack/unpack included); host: wall time\n"
                 "of the call. Ratios: gemmkit's call %s over the peer's.\n",
            unit, unit);
    int wall = 0;
    for (size_t i = 0; i < report->count; i++)
        wall |= report->records[i].wall_clock && strcmp(report->records[i].kind, "baseline") != 0;
    if (wall)
        fprintf(out, "On the CPU BLAS (cpublas, best-host:host-blas) there is no device: kernel and call times\n"
                     "are each call's wall-clock time.\n");
    if (bytes) fprintf(out, "GB/s: (bytes read + bytes written) / time; %%copy: kernel GB/s over the best gemmkit copy's.\n");
    if (ladder) fprintf(out, "step: kernel %s over the previous step of the same document at that size.\n", unit);
    if (!bytes)
        fprintf(out, "%%roof: call %s over the roofline, min(fp32 peak, copy GB/s x flops per byte), flops per byte =\n"
                     "2 M N K / 4 (M K + K N + M N; C twice when read); the CPU BLAS: its wall time.\n",
                unit);
    if (!bytes)
        fprintf(out, "max err, rms err: |c - ref| / (|alpha||A||B|)ij over the checked elements of every input set,\n"
                     "ref in float64 (check full: every element; sampled: a grid of rows x columns, the same for\n"
                     "every runner).\n");
    fprintf(out, "\n%-*s %-14s", w, "name", "size");
    if (!bytes) fprintf(out, " %-5s %-6s", "trans", "layout");
    fprintf(out, " %10s %6s", unit, bytes ? "%copy" : "%peak");
    if (!bytes) fprintf(out, " %6s %8s %8s", "%roof", "max err", "rms err");
    fprintf(out, " %24s %10s %10s", "kernel ms: median [min-max]", "call ms", "host ms");
    if (ladder) fprintf(out, " %6s", "step");
    for (int p = 0; p < npeers; p++) {
        char head[32];
        snprintf(head, sizeof head, "vs %s", peers[p]);
        fprintf(out, " %*s", ratio_width(peers[p]), head);
    }
    fprintf(out, "  check\n");
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        char size[48], spread[64], name[160];
        gk_bench_size_text(&r->size, size, sizeof size);
        if (r->batch) snprintf(size + strlen(size), sizeof size - strlen(size), " x%lld", (long long)r->batch);
        gk_bench_display_name(r, name, sizeof name);
        fprintf(out, "%-*s %-14s", w, name, size);
        if (!bytes) fprintf(out, " %-5s %-6s", r->trans, r->layout); /* each shape's own (--sizes 96x80x72:TN:row, random:...) */
        if (r->status != GK_BENCH_OK) {
            fprintf(out, " %10s %6s", "-", "-");
            if (!bytes) fprintf(out, " %6s", "-");
            if (!bytes) print_errors(out, r); /* a wrong result's errors say how wrong */
            fprintf(out, " %24s %10s %10s", "-", "-", "-");
            if (ladder) fprintf(out, " %6s", "-");
            for (int p = 0; p < npeers; p++) print_ratio(out, peers[p], 0.0);
            fprintf(out, "  %s: %s%s%s\n", gk_bench_status_name(r->status), r->message, r->note[0] ? "; " : "",
                    r->note);
            continue;
        }
        gk_bench_stats k = gk_bench_stats_of(r->kernel_ms, r->count);
        gk_bench_stats t = gk_bench_stats_of(r->total_ms, r->count);
        gk_bench_stats h = gk_bench_stats_of(r->host_ms, r->count);
        /* A peer's "kernel" is only its last launch (CLBlast pads and
         * transposes around its GEMM): its whole call is the fair figure. */
        const int peer = strcmp(r->kind, "peer") == 0;
        double rate = gk_bench_rate(r, peer ? r->total_ms : r->kernel_ms);
        snprintf(spread, sizeof spread, "%.4g [%.4g-%.4g]", k.median, k.min, k.max);
        /* Three significant digits at least, so slow rows don't read 0.0. */
        fprintf(out, rate >= 100.0 ? " %10.1f" : " %10.3g", rate);
        double copy = bytes ? gk_bench_copy_fraction(report, r) : 0.0;
        if (copy > 0.0)
            fprintf(out, " %5.1f%%", 100.0 * copy);
        else if (!bytes && report->device.peak_gflops > 0 && strcmp(r->kind, "baseline") != 0)
            fprintf(out, " %5.1f%%", 100.0 * rate / report->device.peak_gflops);
        else
            fprintf(out, " %6s", "-");
        const double roof = bytes ? 0.0 : gk_bench_roofline_fraction(report, r);
        if (roof > 0.0) fprintf(out, " %5.1f%%", 100.0 * roof);
        else if (!bytes) fprintf(out, " %6s", "-");
        if (!bytes) print_errors(out, r);
        fprintf(out, " %24s %10.4g %10.4g", spread, t.median, h.median);
        if (ladder) {
            double step = gk_bench_step_speedup(report, r);
            if (step > 0.0) fprintf(out, " %5.2fx", step);
            else fprintf(out, " %6s", "-");
        }
        for (int p = 0; p < npeers; p++)
            print_ratio(out, peers[p], strcmp(r->kind, "gemmkit") == 0 ? gk_bench_ratio(report, r, peers[p]) : 0.0);
        fprintf(out, "  %s%s%s\n", r->check[0] ? r->check : "ok", r->note[0] ? "; " : "", r->note);
    }
    /* What each baseline and peer row is (TF32 says it is not fp32 here). */
    fprintf(out, "\n");
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        int first = 1;
        for (size_t j = 0; j < i && first; j++) first = strcmp(report->records[j].name, r->name) != 0;
        if (first && strcmp(r->kind, "gemmkit") != 0) fprintf(out, "%-*s %s\n", w, r->name, r->label);
    }
}

void gk_bench_print_verified(const gk_bench_report *report, FILE *out)
{
    int verified = 0, ran = 0, skipped = 0, transposes = 0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        skipped += r->status == GK_BENCH_SKIPPED;
        ran += r->status != GK_BENCH_SKIPPED;
        verified += r->status == GK_BENCH_OK;
        transposes += strcmp(r->op, "sgemm") != 0 && strcmp(r->op, "sgemm_batched") != 0;
    }
    fprintf(out, "%d of %d results verified %s", verified, ran,
            transposes ? "exactly (B = A^T or A, bit for bit)" : "against the float64-accumulated host reference");
    if (skipped) fprintf(out, "; %d skipped", skipped);
    fprintf(out, ".\n");
}
