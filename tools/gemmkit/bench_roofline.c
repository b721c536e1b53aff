/* The roofline column (%roof) and its summary: each SGEMM result's call rate over the least of the
 * device's fp32 peak and what its bytes allow at the copy bandwidth measured in the same run
 * (bench_bandwidth.c). %peak alone flatters nothing but says nothing of memory-bound shapes (skinny,
 * short K), where the peak is out of reach for any kernel; the roofline says how far from the possible. */
#include <math.h>
#include <string.h>

#include "bench.h"

double gk_bench_intensity(int64_t m, int64_t n, int64_t k, int reads_c)
{
    const double dm = (double)m, dn = (double)n, dk = (double)k;
    const double bytes = 4.0 * (dm * dk + dk * dn + dm * dn * (reads_c ? 2.0 : 1.0));
    return bytes > 0.0 ? 2.0 * dm * dn * dk / bytes : 0.0;
}

double gk_bench_roofline_bound(double peak_gflops, double copy_gbs, double intensity)
{
    if (!(peak_gflops > 0.0) || !(copy_gbs > 0.0) || !(intensity > 0.0)) return 0.0;
    const double memory = copy_gbs * intensity; /* GB/s x flop/byte = GFLOPS */
    return memory < peak_gflops ? memory : peak_gflops;
}

/* Whether the record ran on the report's device: not the host loop, not the CPU BLAS beside a GPU. */
static int on_device(const gk_bench_report *report, const gk_bench_record *r)
{
    return strcmp(r->kind, "baseline") != 0 && !(r->wall_clock && report->device.is_gpu);
}

double gk_bench_roofline_gflops(const gk_bench_report *report, const gk_bench_record *r)
{
    if (!report->bandwidth.measured || strcmp(r->unit, "GFLOPS") != 0 || !on_device(report, r)) return 0.0;
    /* A batch moves its least bytes (bench_batched's A, B read once, C written once); one SGEMM its operands. */
    const double intensity = r->bytes > 0.0 ? r->work / r->bytes
                             : strcmp(r->op, "sgemm") == 0 ? gk_bench_intensity(r->size.m, r->size.n, r->size.k, r->reads_c)
                                                           : 0.0;
    return gk_bench_roofline_bound(report->device.peak_gflops, report->bandwidth.gbs, intensity);
}

double gk_bench_roofline_fraction(const gk_bench_report *report, const gk_bench_record *r)
{
    const double bound = gk_bench_roofline_gflops(report, r);
    /* The whole call (pack, unpack, split-K's reduction included): what a caller gets. */
    const double rate = bound > 0.0 ? gk_bench_rate(r, r->total_ms) : 0.0;
    return rate > 0.0 ? rate / bound : 0.0;
}

double gk_bench_roofline_geomean(const double *fractions, const double *macs, int count, int *shapes)
{
    double logs = 0.0;
    int n = 0;
    for (int i = 0; i < count; i++) {
        if (!(macs[i] >= GK_BENCH_ROOFLINE_MIN_MACS) || !(fractions[i] > 0.0)) continue;
        logs += log(fractions[i]);
        n++;
    }
    *shapes = n;
    return n ? exp(logs / n) : NAN;
}

/* One runner's summary; 0, or -1 when it has no summary shape. */
static int summarize_runner(const gk_bench_report *report, const gk_bench_record *first,
                            gk_bench_roofline_summary *out)
{
    double fractions[GK_BENCH_MAX_SIZES * 2], macs[GK_BENCH_MAX_SIZES * 2];
    int n = 0;
    for (size_t i = 0; i < report->count && n < GK_BENCH_MAX_SIZES * 2; i++) {
        const gk_bench_record *r = &report->records[i];
        if (strcmp(r->name, first->name) != 0 || strcmp(r->kind, first->kind) != 0 || strcmp(r->op, first->op) != 0)
            continue;
        fractions[n] = gk_bench_roofline_fraction(report, r);
        macs[n++] = r->work / 2.0;
    }
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", first->name);
    snprintf(out->kind, sizeof out->kind, "%s", first->kind);
    out->geomean = gk_bench_roofline_geomean(fractions, macs, n, &out->shapes);
    return out->shapes ? 0 : -1;
}

int gk_bench_roofline_summaries(const gk_bench_report *report, gk_bench_roofline_summary *out, int max)
{
    int count = 0;
    /* gemmkit's runners first, then the peers, each at its first record. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < report->count && count < max; i++) {
            const gk_bench_record *r = &report->records[i];
            if ((strcmp(r->kind, "gemmkit") == 0) != (pass == 0) || strcmp(r->kind, "baseline") == 0) continue;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = strcmp(report->records[j].name, r->name) == 0 && strcmp(report->records[j].kind, r->kind) == 0 &&
                       strcmp(report->records[j].op, r->op) == 0;
            if (!seen && summarize_runner(report, r, &out[count]) == 0) count++;
        }
    return count;
}

void gk_bench_print_bandwidth(const gk_bench_report *report, FILE *out)
{
    const gk_bench_bandwidth *b = &report->bandwidth;
    if (!b->measured) {
        fprintf(out, "copy bandwidth: not measured%s%s%s; no %%roof\n", b->note[0] ? " (" : "", b->note,
                b->note[0] ? ")" : "");
        return;
    }
    fprintf(out,
            "copy bandwidth: %.1f GB/s (device to device, %.0f MiB read + written, best of %d after a warm-up; "
            "gemmkit_somatcopy_buffers, %s); %%roof = call GFLOPS / min(peak, bandwidth x flops per byte)\n",
            b->gbs, b->bytes / (1024.0 * 1024.0), b->repeat, b->kernel[0] ? b->kernel : "the library's copy");
}

void gk_bench_print_roofline_summary(const gk_bench_report *report, FILE *out)
{
    if (!report->bandwidth.measured || !report->args || report->args->size_count < 2) return;
    gk_bench_roofline_summary s[GK_BENCH_MAX_PAIRS];
    const int n = gk_bench_roofline_summaries(report, s, GK_BENCH_MAX_PAIRS);
    fprintf(out, "\nRoofline: geometric mean of %%roof over the shapes of at least 2^27 multiply-adds (512^3)");
    if (n == 0) {
        fprintf(out, ": no such shape was measured.\n");
        return;
    }
    fprintf(out, ":");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s %s %.1f%% (%d shape%s)", i ? "," : "", s[i].name, 100.0 * s[i].geomean, s[i].shapes,
                s[i].shapes == 1 ? "" : "s");
    fprintf(out, "\n");
}
