/* `gemmkit tune --calibrate --show` (tune_calibrate.h): the cost model's constants as a new context on this device
 * has them (the databases read, checked and matched device -> architecture -> vendor as at any context creation),
 * in the saved lines' own text, and which of the lines the model chooses among here have none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "context.h"
#include "tune.h"
#include "tune_calibrate.h"

/* Whether `name` is one of the lines. */
static int among(const gk_calibrate_line *lines, int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (strcmp(lines[i].name, name) == 0) return 1;
    return 0;
}

int gk_calibrate_show(const gk_cli *cli, const char *path, uint64_t seed)
{
    gemmkit_context *ctx = gk_tune_open_reading(cli, path, 0);
    if (!ctx) return GK_EXIT_FAILED;
    gk_calibrate_line *lines = malloc(GK_COST_MAX_LINES * sizeof *lines);
    gk_calibrate_shape *pool = malloc(GK_CALIBRATE_POOL * sizeof *pool);
    const int count = lines && pool && gk_calibrate_random_shapes(&ctx->info, seed, GK_CALIBRATE_POOL, pool) > 0
                          ? gk_calibrate_lines(ctx, pool, GK_CALIBRATE_POOL, lines, GK_COST_MAX_LINES)
                          : -1;
    free(pool);
    if (count < 0) {
        free(lines);
        gemmkit_context_destroy(ctx);
        fprintf(stderr, "gemmkit tune: out of memory\n");
        return GK_EXIT_FAILED;
    }
    const gk_cost_constants *c = &ctx->tuned.cost;
    char params[160];
    printf("cost model constants on %s | %s (%s), as a new context reading %s has them:\n", ctx->info.platform,
           ctx->info.name, ctx->info.backend, path ? path : "the built-in database alone");
    if (c->calibrated) {
        gk_calibrate_device_params(c, params, sizeof params);
        printf("  %-36s %s\n", GK_COST_DEVICE, params);
    } else {
        const gk_cost_constants defaults = {.copy_gbs = GK_COST_DEFAULT_COPY, .launch_us = GK_COST_DEFAULT_LAUNCH};
        gk_calibrate_device_params(&defaults, params, sizeof params);
        printf("  %-36s none: the defaults %s\n", GK_COST_DEVICE, params);
    }
    for (int i = 0; i < count; i++) {
        const gk_cost_line *line = gk_cost_find(c, lines[i].name);
        char name[80];
        snprintf(name, sizeof name, "%s%s", GK_COST_PREFIX, lines[i].name);
        if (line) gk_calibrate_line_params(line, params, sizeof params);
        printf("  %-36s %s\n", name,
               line ? params : "none: RATE its tuned line's score, OCC 2, BWEFF 0.5 (gemmkit tune --calibrate)");
    }
    /* Constants for lines the model does not weigh at any shape probed here (another policy's, a line since
     * dropped): in force, but unused. */
    for (int i = 0; i < c->count; i++) {
        if (among(lines, count, c->lines[i].name)) continue;
        char name[80];
        snprintf(name, sizeof name, "%s%s", GK_COST_PREFIX, c->lines[i].name);
        gk_calibrate_line_params(&c->lines[i], params, sizeof params);
        printf("  %-36s %s (not a line the model chooses among here)\n", name, params);
    }
    if (count == 0)
        printf("the cost model chooses nowhere on this device: the policy has no candidate rows for its class\n");
    free(lines);
    gemmkit_context_destroy(ctx);
    return GK_EXIT_OK;
}
