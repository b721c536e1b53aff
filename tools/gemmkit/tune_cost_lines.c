/* The cost:* lines' text (tune_calibrate.h): what `gemmkit tune --calibrate` saves and --show prints, written once
 * so that both say the same numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tune_calibrate.h"

void gk_calibrate_number(double x, char *out, size_t size)
{
    /* Four significant digits as fixed decimals: the parser need not read exponents, and 3 GB/s and 3000 GFLOPS
     * keep the same relative precision. */
    int decimals = x > 0.0 && isfinite(x) ? 3 - (int)floor(log10(x)) : 3;
    if (decimals < 0) decimals = 0;
    if (decimals > 6) decimals = 6;
    snprintf(out, size, "%.*f", decimals, x);
}

/* ",NAME=x" after the `used` characters of out where x > 0 (an optional constant a line has); the new length. */
static int append_optional(char *out, size_t size, int used, const char *name, double x)
{
    if (!(x > 0) || used <= 0 || (size_t)used >= size) return used;
    char number[32];
    gk_calibrate_number(x, number, sizeof number);
    return used + snprintf(out + used, size - (size_t)used, ",%s=%s", name, number);
}

void gk_calibrate_line_params(const gk_cost_line *line, char *out, size_t size)
{
    char rate[32], occ[32], eff[32];
    gk_calibrate_number(line->rate_gflops, rate, sizeof rate);
    gk_calibrate_number(line->occupancy, occ, sizeof occ);
    gk_calibrate_number(line->bw_efficiency, eff, sizeof eff);
    int used = snprintf(out, size, "RATE=%s,OCC=%s,BWEFF=%s", rate, occ, eff);
    used = append_optional(out, size, used, "GOK", line->group_overhead_k);
    static const char *const names[4] = {"", "NT", "TN", "TT"};
    for (int i = 1; i < 4; i++) used = append_optional(out, size, used, names[i], line->orientation[i]);
    append_optional(out, size, used, "SUM", line->sum_slice_us);
}

void gk_calibrate_device_params(const gk_cost_constants *c, char *out, size_t size)
{
    char copy[32], launch[32], share[32];
    gk_calibrate_number(c->copy_gbs, copy, sizeof copy);
    gk_calibrate_number(c->launch_us, launch, sizeof launch);
    int used = snprintf(out, size, "COPY=%s,LAUNCH=%s", copy, launch);
    if (c->scalar_c > 0 && c->scalar_c < 1 && used > 0 && (size_t)used < size) {
        gk_calibrate_number(c->scalar_c, share, sizeof share);
        used += snprintf(out + used, size - (size_t)used, ",SCALAR_C=%s", share);
    }
    if (c->scalar_ab > 0 && c->scalar_ab < 1 && used > 0 && (size_t)used < size) {
        gk_calibrate_number(c->scalar_ab, share, sizeof share);
        snprintf(out + used, size - (size_t)used, ",SCALAR_AB=%s", share);
    }
}

/* A line for this device (its name: the most specific level, as tune saves), dated today. */
static void start_entry(const gemmkit_device_info *info, gk_tuning_entry *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->backend, sizeof e->backend, "%s", info->backend);
    snprintf(e->device, sizeof e->device, "%s", info->name);
    time_t now = time(NULL);
    strftime(e->date, sizeof e->date, "%Y-%m-%d", gmtime(&now));
}

void gk_calibrate_device_entry(const gemmkit_device_info *info, const gk_cost_constants *device,
                               gk_tuning_entry *entry)
{
    start_entry(info, entry);
    snprintf(entry->kernel, sizeof entry->kernel, "%s", GK_COST_DEVICE);
    gk_calibrate_device_params(device, entry->params, sizeof entry->params);
    entry->gflops = device->copy_gbs; /* the score column: GB/s, as transposes' lines */
}

void gk_calibrate_line_entry(const gemmkit_device_info *info, const gk_cost_line *line, gk_tuning_entry *entry)
{
    start_entry(info, entry);
    snprintf(entry->kernel, sizeof entry->kernel, "%s%.*s", GK_COST_PREFIX,
             (int)(sizeof entry->kernel - sizeof GK_COST_PREFIX), line->name);
    gk_calibrate_line_params(line, entry->params, sizeof entry->params);
    entry->gflops = line->rate_gflops;
}
