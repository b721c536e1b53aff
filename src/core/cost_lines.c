/* The cost model's constants as tuning-database lines (cost_model.h): "cost:device" COPY=<GB/s>,LAUNCH=<us>
 * [,SCALAR_C=<x>][,SCALAR_AB=<x>] and
 * "cost:LINE" RATE=<GFLOPS>,OCC=<x>,BWEFF=<x>[,GOK=<k>][,NT=,TN=,TT=][,SUM=<us>]. Checked when a context loads the database, as kernel lines are,
 * and gathered then into the context's gk_cost_constants, so that no call reads text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost_model.h"
#include "tuning.h"

/* A line's values by name; 0 and why not when a name is unknown, repeated, missing or its value no positive
 * number. names: the line's parameters, in order, the first `required` of them required; values[i] gets
 * names[i]'s (left as they are for an optional one not given). */
static int parse_values(const char *params, const char *const *names, int count, int required, double *values,
                        char *why, size_t why_size)
{
    int seen = 0;
    const char *p = params;
    while (*p) {
        const char *eq = strchr(p, '=');
        const char *comma = strchr(p, ',');
        if (!eq || (comma && comma < eq)) {
            snprintf(why, why_size, "expected NAME=VALUE pairs, got \"%.60s\"", p);
            return 0;
        }
        int which = -1;
        for (int i = 0; i < count; i++)
            if ((size_t)(eq - p) == strlen(names[i]) && strncmp(p, names[i], (size_t)(eq - p)) == 0) which = i;
        if (which < 0 || (seen >> which & 1)) {
            snprintf(why, why_size, "%s \"%.*s\"", which < 0 ? "unknown constant" : "repeated constant",
                     (int)(eq - p), p);
            return 0;
        }
        char *end = NULL;
        const double x = strtod(eq + 1, &end);
        if (end == eq + 1 || (*end && *end != ',') || !(x > 0) || x > 1e12) {
            snprintf(why, why_size, "%s: want a positive number", names[which]);
            return 0;
        }
        values[which] = x;
        seen |= 1 << which;
        p = *end ? end + 1 : end;
    }
    for (int i = 0; i < required; i++)
        if (!(seen >> i & 1)) {
            snprintf(why, why_size, "missing %s", names[i]);
            return 0;
        }
    return 1;
}

static const char *const device_names[] = {"COPY", "LAUNCH", "SCALAR_C", "SCALAR_AB"};
static const char *const line_names[] = {"RATE", "OCC", "BWEFF", "NT", "TN", "TT", "GOK", "SUM"};
#define DEVICE_NAMES ((int)(sizeof device_names / sizeof device_names[0]))
#define LINE_NAMES ((int)(sizeof line_names / sizeof line_names[0]))

int gk_cost_apply(const char *kernel, const char *params, gk_cost_constants *c, char *why, size_t why_size)
{
    if (!gk_cost_is_line(kernel)) {
        snprintf(why, why_size, "not a cost line");
        return -1;
    }
    double v[LINE_NAMES > DEVICE_NAMES ? LINE_NAMES : DEVICE_NAMES] = {0};
    if (strcmp(kernel, GK_COST_DEVICE) == 0) {
        if (!parse_values(params, device_names, DEVICE_NAMES, 2, v, why, why_size)) return -1;
        if (v[2] > 1 || v[3] > 1) {
            snprintf(why, why_size, "%s above 1", v[2] > 1 ? "SCALAR_C" : "SCALAR_AB");
            return -1;
        }
        c->copy_gbs = v[0], c->launch_us = v[1], c->scalar_c = v[2], c->scalar_ab = v[3], c->calibrated = 1;
        return 0;
    }
    const char *name = kernel + strlen(GK_COST_PREFIX);
    if (!*name || strlen(name) >= sizeof c->lines[0].name) {
        snprintf(why, why_size, "no line named after \"%s\"", GK_COST_PREFIX);
        return -1;
    }
    if (!parse_values(params, line_names, LINE_NAMES, 3, v, why, why_size)) return -1;
    if (v[2] > 1) {
        snprintf(why, why_size, "BWEFF above 1");
        return -1;
    }
    for (int i = 3; i < 6; i++)
        if (v[i] > 4) {
            snprintf(why, why_size, "%s above 4", line_names[i]);
            return -1;
        }
    gk_cost_line *line = (gk_cost_line *)gk_cost_find(c, name);
    if (!line) {
        if (c->count == GK_COST_MAX_LINES) {
            snprintf(why, why_size, "more than %d cost lines", GK_COST_MAX_LINES);
            return -1;
        }
        line = &c->lines[c->count++];
        snprintf(line->name, sizeof line->name, "%s", name);
    }
    line->rate_gflops = v[0], line->occupancy = v[1], line->bw_efficiency = v[2], line->group_overhead_k = v[6];
    line->sum_slice_us = v[7];
    line->orientation[0] = 0, line->orientation[1] = v[3], line->orientation[2] = v[4], line->orientation[3] = v[5];
    return 0;
}

void gk_cost_load(const gk_tuning_set *set, gk_cost_constants *c)
{
    memset(c, 0, sizeof *c);
    c->copy_gbs = GK_COST_DEFAULT_COPY;
    c->launch_us = GK_COST_DEFAULT_LAUNCH;
    char why[128];
    for (int i = 0; i < set->count; i++)
        if (gk_cost_is_line(set->entries[i].line.kernel))
            gk_cost_apply(set->entries[i].line.kernel, set->entries[i].line.params, c, why, sizeof why);
}
