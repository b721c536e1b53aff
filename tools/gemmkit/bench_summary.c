/* The run's summary after the table: per gemmkit runner and peer, how gemmkit
 * does over every shape both measured, in device (call) time and in host wall
 * time: the geometric mean of the speed ratios, the shapes below 0.90x and
 * the worst five. A mean alone hides the shapes that lose; these show them. */
#include <math.h>
#include <string.h>

#include "bench.h"

void gk_bench_summarize(const double *device, const double *host, int count, gk_bench_summary *out)
{
    memset(out, 0, sizeof *out);
    out->shapes = count;
    double log_device = 0.0, log_host = 0.0;
    int host_count = 0;
    for (int i = 0; i < count; i++) {
        log_device += log(device[i]);
        out->below_device += device[i] < GK_BENCH_SLOW_RATIO;
        /* A host time may be missing where the device time is not: that mean takes the shapes that have one. */
        if (host[i] > 0.0) {
            log_host += log(host[i]);
            out->below_host += host[i] < GK_BENCH_SLOW_RATIO;
            host_count++;
        }
        /* Insert i among the worst by device ratio, ties in shape order. */
        int at = out->worst_count;
        while (at > 0 && device[out->worst[at - 1]] > device[i]) at--;
        if (at >= GK_BENCH_WORST) continue;
        const int last = out->worst_count < GK_BENCH_WORST ? out->worst_count : GK_BENCH_WORST - 1;
        for (int j = last; j > at; j--) out->worst[j] = out->worst[j - 1];
        out->worst[at] = i;
        if (out->worst_count < GK_BENCH_WORST) out->worst_count++;
    }
    out->host_shapes = host_count;
    out->geomean_device = count ? exp(log_device / count) : NAN;
    out->geomean_host = host_count ? exp(log_host / host_count) : NAN;
}

/* gemmkit's rate over the peer's in host wall time; 0 when either is missing. */
static double host_ratio(const gk_bench_record *mine, const gk_bench_record *p)
{
    const double a = gk_bench_rate(mine, mine->host_ms), b = gk_bench_rate(p, p->host_ms);
    return a > 0.0 && b > 0.0 ? a / b : 0.0;
}

/* One summary of gemmkit runner `name` against `peer`: 0, or -1 when they share no shape. */
static int summarize_pair(const gk_bench_report *report, const char *name, const char *peer, gk_bench_pair *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->gemmkit, sizeof out->gemmkit, "%s", name);
    snprintf(out->peer, sizeof out->peer, "%s", peer);
    double device[GK_BENCH_MAX_SIZES * 2], host[GK_BENCH_MAX_SIZES * 2];
    size_t records[GK_BENCH_MAX_SIZES * 2];
    int n = 0;
    for (size_t i = 0; i < report->count && n < GK_BENCH_MAX_SIZES * 2; i++) {
        const gk_bench_record *r = &report->records[i];
        if (strcmp(r->kind, "gemmkit") != 0 || strcmp(r->name, name) != 0) continue;
        const double d = gk_bench_ratio(report, r, peer); /* the table's ratio, in call time */
        if (!(d > 0.0)) {
            out->unpaired++; /* gemmkit or the peer has no valid result for this shape */
            continue;
        }
        device[n] = d;
        host[n] = host_ratio(r, gk_bench_peer_record(report, r, peer));
        records[n++] = i;
    }
    if (n == 0) return -1;
    gk_bench_summarize(device, host, n, &out->summary);
    for (int w = 0; w < out->summary.worst_count; w++) {
        const int at = out->summary.worst[w];
        out->worst_record[w] = records[at];
        out->worst_device[w] = device[at];
        out->worst_host[w] = host[at];
    }
    return 0;
}

int gk_bench_summaries(const gk_bench_report *report, gk_bench_pair *out, int max)
{
    const char *peers[GK_BENCH_MAX_RUNNERS];
    const int npeers = gk_bench_peer_columns(report, peers, GK_BENCH_MAX_RUNNERS);
    int count = 0;
    for (size_t i = 0; i < report->count && count < max; i++) {
        const gk_bench_record *r = &report->records[i];
        if (strcmp(r->kind, "gemmkit") != 0) continue;
        int seen = 0; /* each gemmkit runner once, at its first record */
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(report->records[j].kind, "gemmkit") == 0 && strcmp(report->records[j].name, r->name) == 0;
        if (seen) continue;
        for (int p = 0; p < npeers && count < max; p++) {
            if (summarize_pair(report, r->name, peers[p], &out[count]) != 0) continue;
            /* One shape is a ratio, not a summary. */
            if (out[count].summary.shapes + out[count].unpaired >= 2) count++;
        }
    }
    return count;
}

void gk_bench_shape_text(const gk_bench_record *r, char *text, size_t len)
{
    char size[48];
    gk_bench_size_text(&r->size, size, sizeof size);
    snprintf(text, len, "%s %s %s", size, r->trans, r->layout);
}

void gk_bench_print_summary(const gk_bench_report *report, FILE *out)
{
    gk_bench_pair pairs[GK_BENCH_MAX_PAIRS];
    const int n = gk_bench_summaries(report, pairs, GK_BENCH_MAX_PAIRS);
    if (n == 0) return;
    fprintf(out, "\nSummary: gemmkit / peer speed over the shapes both measured; geometric means in call time (device,\n"
                 "as the table's ratios; the CPU BLAS: wall clock) and in host wall time (the host ms column); shapes\n"
                 "below %.2fx; the %d worst by call time.\n",
            GK_BENCH_SLOW_RATIO, GK_BENCH_WORST);
    for (int i = 0; i < n; i++) {
        const gk_bench_pair *p = &pairs[i];
        const gk_bench_summary *s = &p->summary;
        fprintf(out, "%s vs %s: %d shape%s", p->gemmkit, p->peer, s->shapes, s->shapes == 1 ? "" : "s");
        if (p->unpaired) fprintf(out, " (%d more without a result from both)", p->unpaired);
        fprintf(out, "; call time %.3gx, host time ", s->geomean_device);
        if (s->host_shapes) fprintf(out, "%.3gx", s->geomean_host);
        else fprintf(out, "-");
        fprintf(out, "; below %.2fx: %d in call time, %d in host time\n", GK_BENCH_SLOW_RATIO, s->below_device,
                s->below_host);
        fprintf(out, "  worst:");
        for (int w = 0; w < s->worst_count; w++) {
            char shape[96];
            gk_bench_shape_text(&report->records[p->worst_record[w]], shape, sizeof shape);
            fprintf(out, "%s %s %.3gx", w ? "," : "", shape, p->worst_device[w]);
            if (p->worst_host[w] > 0.0) fprintf(out, " (host %.3gx)", p->worst_host[w]);
        }
        fprintf(out, "\n");
    }
}
