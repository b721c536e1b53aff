/* --csv: one row per timed sample (a row with an empty sample for results
 * that have none; gemmkit's rows with their ratios to the peers), after '#' lines with the device, driver, date and
 * command line. Each row repeats its result's summary, so any row stands alone. */
#include <math.h>
#include <string.h>

#include "bench.h"
#include "output_file.h"

/* RFC 4180 quoting: fields with commas, quotes or line breaks are quoted. */
static void field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"') fputc('"', f);
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

static void number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.9g,", x);
    else fputc(',', f);
}

/* '#' lines must stay single lines. */
static void comment(FILE *f, const char *key, const char *value)
{
    fprintf(f, "# %s: ", key);
    for (; *value; value++) fputc(*value == '\n' || *value == '\r' ? ' ' : *value, f);
    fputc('\n', f);
}

/* gemmkit's call rate over each peer's at the same problem, as the table's
 * "vs" columns: "cpublas=0.9;clblast=1.2" (peers without a result left out). */
static void ratios(FILE *f, const gk_bench_report *report, const gk_bench_record *r)
{
    if (strcmp(r->kind, "gemmkit") != 0) return;
    const char *peers[GK_BENCH_MAX_RUNNERS];
    const int n = gk_bench_peer_columns(report, peers, GK_BENCH_MAX_RUNNERS);
    for (int p = 0, written = 0; p < n; p++) {
        const double x = gk_bench_ratio(report, r, peers[p]);
        if (x > 0.0) fprintf(f, "%s%s=%.6g", written++ ? ";" : "", peers[p], x);
    }
}

/* The summary printed after the table, one '#' line per gemmkit runner and peer. */
static void summary_comments(FILE *f, const gk_bench_report *report)
{
    gk_bench_pair pairs[GK_BENCH_MAX_PAIRS];
    const int n = gk_bench_summaries(report, pairs, GK_BENCH_MAX_PAIRS);
    for (int i = 0; i < n; i++) {
        const gk_bench_pair *p = &pairs[i];
        const gk_bench_summary *s = &p->summary;
        char key[128], line[1024];
        snprintf(key, sizeof key, "summary %.63s vs %.31s", p->gemmkit, p->peer);
        int used = snprintf(line, sizeof line,
                            "%d shapes (%d without both); geomean call %.4g, host %.4g; below %.2f: call %d, host %d; "
                            "worst:", s->shapes, p->unpaired, s->geomean_device, s->geomean_host, GK_BENCH_SLOW_RATIO,
                            s->below_device, s->below_host);
        for (int w = 0; w < s->worst_count && used > 0 && used < (int)sizeof line; w++) {
            char shape[96];
            gk_bench_shape_text(&report->records[p->worst_record[w]], shape, sizeof shape);
            used += snprintf(line + used, sizeof line - (size_t)used, " %s %.4g;", shape, p->worst_device[w]);
        }
        comment(f, key, line);
    }
}

/* Write errors are caught when the file is committed (the stream's error flag). */
static int write_csv(gk_output_file *out, void *user, char *err, size_t err_size)
{
    const gk_bench_report *report = user;
    FILE *f = out->stream;
    const gemmkit_device_info *d = &report->device;
    char line[512];
    comment(f, "title", report->title);
    comment(f, "date", report->date);
    comment(f, "command line", report->command_line);
    snprintf(line, sizeof line, "%s | %s (%s)", d->platform, d->name, d->backend);
    comment(f, "device", line);
    comment(f, "driver", d->driver_version);
    snprintf(line, sizeof line, "%.0f GFLOPS = %d units x %d lanes x 2 x %d MHz", d->peak_gflops, d->compute_units,
             d->lanes_per_unit, d->clock_mhz);
    comment(f, "fp32 peak", line);
    if (report->args && !report->args->transpose) {
        const gk_bench_bandwidth *b = &report->bandwidth;
        if (b->measured)
            snprintf(line, sizeof line, "%.6g GB/s (device to device, %.0f MiB read + written, best of %d; %s)", b->gbs,
                     b->bytes / (1024.0 * 1024.0), b->repeat, b->kernel);
        else
            snprintf(line, sizeof line, "not measured (%.200s)", b->note);
        comment(f, "copy bandwidth", line);
    }
    if (report->args && !report->args->transpose)
        comment(f, "inputs", report->args->wide_inputs ? "wide: uniform in [-1, 1), rows and columns of A and B scaled by 2^-20..2^20"
                                                       : "uniform in [-1, 1)");
    for (int i = 0; i < report->peer_count; i++) {
        snprintf(line, sizeof line, "%s: %s", report->peers[i].found ? "found" : "not used", report->peers[i].detail);
        comment(f, report->peers[i].label, line);
    }
    for (int i = 0; report->args && i < report->args->draw_count; i++) {
        const gk_bench_draw *dr = &report->args->draws[i];
        snprintf(line, sizeof line, "random:%d:%llu%s (each shape's transposes and layout in its rows)", dr->count,
                 (unsigned long long)dr->seed, dr->seed_from_clock ? ", seed from the clock" : "");
        comment(f, "random shapes", line);
    }
    summary_comments(f, report);
    gk_bench_roofline_summary roof[GK_BENCH_MAX_PAIRS];
    const int nroof = gk_bench_roofline_summaries(report, roof, GK_BENCH_MAX_PAIRS);
    for (int i = 0; i < nroof; i++) {
        char key[96];
        snprintf(key, sizeof key, "roofline %.63s", roof[i].name);
        snprintf(line, sizeof line, "geomean fraction %.4g over %d shapes of at least 2^27 multiply-adds",
                 roof[i].geomean, roof[i].shapes);
        comment(f, key, line);
    }
    if (report->candidates) {
        gk_bench_candidates_summary cs;
        gk_bench_candidates_summarize(report->candidates, &cs);
        snprintf(line, sizeof line,
                 "default within %.0f%% of the fastest on %d of %d shapes; not the model's first on %d; %d candidates: "
                 "%d ok, %d failed, %d wrong; measured/predicted geomean %.4g over %d",
                 100.0 * (GK_BENCH_NEAR_FASTEST - 1.0), cs.near, cs.compared, cs.mismatched, cs.candidates, cs.ok,
                 cs.failed, cs.wrong, cs.geomean_measured_over_predicted, cs.predicted);
        comment(f, "candidates", line);
    }
    fprintf(f, "op,name,kind,resolved,m,n,k,layout,trans,status,unit,work,input_sets,repeat,sample,kernel_ms,total_ms,"
               "host_ms,median_kernel_ms,median_total_ms,median_host_ms,rate_kernel,rate_call,roofline_gflops,"
               "fraction_of_roofline,fraction_of_peak,"
               "fraction_of_copy,check,max_error,rms_error,checked_elements,"
               "message,note,batch,gbps_moved,timing,ratio_to_peer\n");
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        gk_bench_stats k = gk_bench_stats_of(r->kernel_ms, r->count);
        gk_bench_stats t = gk_bench_stats_of(r->total_ms, r->count);
        gk_bench_stats h = gk_bench_stats_of(r->host_ms, r->count);
        double rate_k = gk_bench_rate(r, r->kernel_ms), rate_c = gk_bench_rate(r, r->total_ms);
        double peak = strcmp(r->unit, "GFLOPS") == 0 && strcmp(r->kind, "baseline") != 0 && d->peak_gflops > 0 &&
                              r->status == GK_BENCH_OK
                          ? rate_k / d->peak_gflops
                          : NAN;
        double copy = gk_bench_copy_fraction(report, r);
        const double bound = gk_bench_roofline_gflops(report, r), roof = gk_bench_roofline_fraction(report, r);
        int rows = r->count > 0 ? r->count : 1;
        for (int s = 0; s < rows; s++) {
            field(f, r->op, 0);
            field(f, r->name, 0);
            field(f, r->kind, 0);
            field(f, r->resolved, 0);
            fprintf(f, "%lld,%lld,%lld,", (long long)r->size.m, (long long)r->size.n, (long long)r->size.k);
            field(f, r->layout, 0);
            field(f, r->trans, 0);
            field(f, gk_bench_status_name(r->status), 0);
            field(f, r->unit, 0);
            fprintf(f, "%.9g,%d,%d,", r->work, r->sets, r->count);
            if (r->count > 0) {
                fprintf(f, "%d,", s + 1);
                number(f, r->kernel_ms[s]);
                number(f, r->total_ms[s]);
                number(f, r->host_ms[s]);
            } else {
                fputs(",,,,", f);
            }
            number(f, k.median);
            number(f, t.median);
            number(f, h.median);
            number(f, r->status == GK_BENCH_OK ? rate_k : NAN);
            number(f, r->status == GK_BENCH_OK ? rate_c : NAN);
            number(f, bound > 0.0 ? bound : NAN);
            number(f, roof > 0.0 ? roof : NAN);
            number(f, peak);
            number(f, copy > 0.0 ? copy : NAN);
            field(f, r->check, 0);
            const int errors = (r->status == GK_BENCH_OK || r->status == GK_BENCH_WRONG) && r->check[0];
            number(f, errors ? r->max_error : NAN);
            number(f, errors && r->error_count > 0 ? r->rms_error : NAN);
            fprintf(f, "%lld,", (long long)r->error_count);
            field(f, r->message, 0);
            field(f, r->note, 0);
            const double call_ms = t.median;
            fprintf(f, "%lld,", (long long)r->batch);
            if (r->bytes > 0.0 && call_ms > 0.0 && r->status == GK_BENCH_OK) fprintf(f, "%.9g", r->bytes / call_ms * 1e-6);
            fprintf(f, ",%s,", r->wall_clock ? "wall-clock" : "device");
            ratios(f, report, r);
            fputs("\n", f);
        }
    }
    return 0;
}

int gk_bench_write_csv(const gk_bench_report *report, const char *path, char *err)
{
    return gk_output_write(path, write_csv, (void *)report, err, GK_BENCH_ERR);
}
