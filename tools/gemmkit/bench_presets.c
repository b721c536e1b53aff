/* Named size lists for `gemmkit bench --sizes`: the shape sweep of issue 13
 * ("no cliffs": squares, sizes that are not tile multiples, skinny and
 * rectangular shapes) at GPU sizes, and its twin scaled for CPU devices.
 *
 * Order matters with --max-time: a runner's last size predicts the next one's
 * time, so each group runs from less work to more (squares) or from more to
 * less (the rectangular shapes), never from a slow skinny shape to a large one. */
#include <string.h>

#include "bench.h"

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Issue 13's sweep, M x N x K. */
static const gk_bench_size sweep[] = {
    /* squares */
    GK_BENCH_SIZE(256, 256, 256), GK_BENCH_SIZE(512, 512, 512), GK_BENCH_SIZE(1024, 1024, 1024),
    GK_BENCH_SIZE(2048, 2048, 2048), GK_BENCH_SIZE(4096, 4096, 4096),
    GK_BENCH_SIZE(8192, 8192, 8192), GK_BENCH_SIZE(16384, 16384, 16384),
    /* not multiples of any tile */
    GK_BENCH_SIZE(999, 999, 999), GK_BENCH_SIZE(1500, 1500, 1500), GK_BENCH_SIZE(2049, 2049, 2049),
    GK_BENCH_SIZE(4095, 4095, 4095), GK_BENCH_SIZE(7001, 7001, 7001),
    /* rectangular and skinny, by falling work */
    GK_BENCH_SIZE(4096, 11008, 4096), GK_BENCH_SIZE(11008, 4096, 4096), GK_BENCH_SIZE(8192, 8192, 128),
    GK_BENCH_SIZE(16384, 32, 16384), GK_BENCH_SIZE(32, 16384, 16384),
    GK_BENCH_SIZE(128, 128, 131072), GK_BENCH_SIZE(8192, 8192, 2), GK_BENCH_SIZE(2, 8192, 8192),
};

/* The same shapes for a CPU device: every dimension above 128 divided by 16
 * (non-multiples kept odd: 999 -> 63, 2049 -> 129, 4095 -> 255), dimensions of
 * 128 or less kept, so that skinny stays skinny. */
static const gk_bench_size sweep_cpu[] = {
    GK_BENCH_SIZE(16, 16, 16), GK_BENCH_SIZE(32, 32, 32), GK_BENCH_SIZE(64, 64, 64), GK_BENCH_SIZE(128, 128, 128),
    GK_BENCH_SIZE(256, 256, 256), GK_BENCH_SIZE(512, 512, 512),
    GK_BENCH_SIZE(1024, 1024, 1024),
    GK_BENCH_SIZE(63, 63, 63), GK_BENCH_SIZE(93, 93, 93), GK_BENCH_SIZE(129, 129, 129), GK_BENCH_SIZE(255, 255, 255),
    GK_BENCH_SIZE(437, 437, 437),
    GK_BENCH_SIZE(256, 688, 256), GK_BENCH_SIZE(688, 256, 256), GK_BENCH_SIZE(512, 512, 128),
    GK_BENCH_SIZE(1024, 32, 1024), GK_BENCH_SIZE(32, 1024, 1024),
    GK_BENCH_SIZE(128, 128, 8192), GK_BENCH_SIZE(512, 512, 2), GK_BENCH_SIZE(2, 512, 512),
};

static const gk_bench_preset presets[] = {
    {"sweep", "issue 13's SGEMM sweep, up to 16384^3 (GPUs only)", "sweep-cpu", sweep, COUNT(sweep)},
    {"sweep-cpu", "the same, dimensions > 128 divided by 16 (CPUs)", NULL, sweep_cpu, COUNT(sweep_cpu)},
};

const gk_bench_preset *gk_bench_preset_find(const char *name, size_t len)
{
    for (int i = 0; i < COUNT(presets); i++)
        if (strlen(presets[i].name) == len && strncmp(presets[i].name, name, len) == 0) return &presets[i];
    return NULL;
}

const gk_bench_preset *gk_bench_preset_at(int i) { return i >= 0 && i < COUNT(presets) ? &presets[i] : NULL; }

const gk_bench_preset *gk_bench_presets_named(const char *list)
{
    const gk_bench_preset *first = NULL;
    for (const char *item = list; item && *item;) {
        const char *end = strchr(item, ',');
        if (!end) end = item + strlen(item);
        const gk_bench_preset *p = gk_bench_preset_find(item, (size_t)(end - item));
        if (p && (!first || (p->cpu_twin && !first->cpu_twin))) first = p;
        item = *end ? end + 1 : end;
    }
    return first;
}

int gk_bench_preset_fits(const gk_bench_preset *preset, int is_gpu, char *err)
{
    if (!preset || !preset->cpu_twin || is_gpu) return 0;
    double most = 0.0;
    for (int i = 0; i < preset->count; i++) {
        const gk_bench_size *z = &preset->sizes[i];
        double flops = 2.0 * (double)z->m * (double)z->n * (double)z->k;
        most = flops > most ? flops : most;
    }
    snprintf(err, GK_BENCH_ERR, "--sizes %s is for GPUs (up to %.0f GFLOP per call: hours on this CPU device); "
             "use --sizes %s, the same shapes scaled for CPUs", preset->name, most * 1e-9, preset->cpu_twin);
    return -1;
}
