/* `gemmkit tune --calibrate`: the SGEMM cost model's constants (src/core/cost_model.h) measured on one device.
 * The command (tune_calibrate.c) times the device's copy and launch, then each tuned line the model chooses among
 * at shapes designed to separate its constants (tune_calibrate_shapes.c), fits them and saves the cost:* lines
 * (tune_cost_lines.c), which --show prints back as a new context reads them (tune_calibrate_show.c). */
#ifndef GK_TUNE_CALIBRATE_H
#define GK_TUNE_CALIBRATE_H

#include <stdint.h>

#include "cost_model.h"
#include "gemmkit.h"
#include "kernel_config.h"
#include "sgemm.h"
#include "tuning.h"

/* The default seed of the random shapes (issue 35): fixed, so that two calibrations of one device time the same
 * shapes; a report judging the model draws with another one. */
#define GK_CALIBRATE_SEED 35
/* Random shapes drawn (`gemmkit bench --sizes random:GK_CALIBRATE_POOL:SEED`), of which each line times the first
 * GK_CALIBRATE_RANDOM at which the model weighs it, beside the designed ones. */
#define GK_CALIBRATE_POOL 64
#define GK_CALIBRATE_RANDOM 10
#define GK_CALIBRATE_MAX_SHAPES 24
/* Shapes per line at the least: a line that no designed arrangement serves takes probes up to this count. */
#define GK_CALIBRATE_MIN_SHAPES 3

/* One line the model chooses among: its name in the tuning database and how to run it unsplit. */
typedef struct gk_calibrate_line {
    char name[64];            /* "xgemm-direct/small"; the kernel's name for its own line */
    const gk_kernel_def *def; /* the kernel, unsplit */
    char params[256];         /* as gemmkit_options.params takes them */
    gk_config config;
    /* The first orientation (NN, NT, TN, TT) at which the model weighs it, which its shapes are timed in: NN for a
     * line whose rows hold there; a kernel whose rows hold only for one storage order of an operand (skinny-n-dot:
     * A transposed) is fitted there, its other orientations relative to it. */
    int orientation;
} gk_calibrate_line;

/* A column-major shape to time, and which constant it is there for. */
typedef struct gk_calibrate_shape {
    int64_t m, n, k;
    const char *why; /* "many waves" (RATE), "one wave", "half a wave" (OCC), "memory" (BWEFF), "random" */
    int orientation; /* how it is called: 0 NN, 1 NT, 2 TN, 3 TT (gk_cost_orientation's index) */
} gk_calibrate_shape;

/* The shapes at which the lines are enumerated: a few of every class the policy's rows tell apart, cut to the
 * device like the rest; returns their count (at most GK_CALIBRATE_MAX_SHAPES). */
int gk_calibrate_probe_shapes(const gemmkit_device_info *info, gk_calibrate_shape *out);
/* `count` shapes of `gemmkit bench --sizes random:COUNT:SEED` (their M, N, K; NN, column-major), each cut down
 * to what one timing on this device should cost; returns count, or -1 when count is out of range. */
int gk_calibrate_random_shapes(const gemmkit_device_info *info, uint64_t seed, int count, gk_calibrate_shape *out);
/* A line's geometry as the shapes are designed around it: its tiles and K step at the probes' large size. */
gemmkit_status gk_calibrate_tiles(const gemmkit_device_info *info, const gk_config *config, gk_geometry *g);
/* Whether the model weighs the line being designed for at shape z (one of its candidates there). */
typedef int (*gk_calibrate_weighs)(void *data, const gk_calibrate_shape *z);
/* The shapes that time a line of geometry g (gk_calibrate_tiles), each where the model weighs it, in the order
 * that pins its constants soonest: many waves of work-groups (RATE), exactly one wave (OCC), a memory-bound one
 * (BWEFF), half a wave and two waves, each in the first arrangement of its tiles that the line serves; then the
 * first GK_CALIBRATE_RANDOM of the pool; probes up to GK_CALIBRATE_MIN_SHAPES where that leaves fewer. Returns
 * their count. */
int gk_calibrate_design(const gemmkit_device_info *info, const gk_geometry *g, const gk_calibrate_shape *pool,
                        int pool_count, gk_calibrate_weighs weighs, void *data, gk_calibrate_shape *out, int max);
/* The distinct lines (splits == 1) of the cost model's candidates on ctx's device at the probes and the pool's
 * shapes, NN, then at the probes transposed (NT, TN, TT), each with the orientation it was first found in; returns
 * their count: 0 when the model chooses nowhere on this device (no candidate rows for its class), -1 when out of
 * memory. */
int gk_calibrate_lines(gemmkit_context *ctx, const gk_calibrate_shape *pool, int pool_count, gk_calibrate_line *out,
                       int max);
/* The model's candidates for shape z on ctx's device (gk_sgemm_candidates_for on a call oriented as z, beta 0). */
int gk_calibrate_candidates_at(gemmkit_context *ctx, const gk_calibrate_shape *z, gk_sgemm_candidate *out, int max);

/* The cost:* lines as saved for a device (tune_cost_lines.c): numbers with four significant digits, no exponent,
 * so that a saved line parsed back gives its constants within 1 part in 2000; dated today. */
void gk_calibrate_number(double x, char *out, size_t size);
void gk_calibrate_device_entry(const gemmkit_device_info *info, const gk_cost_constants *device,
                               gk_tuning_entry *entry);
void gk_calibrate_line_entry(const gemmkit_device_info *info, const gk_cost_line *line, gk_tuning_entry *entry);
/* A line's params alone ("RATE=123.4,OCC=2.000,BWEFF=0.5000"); the device's ("COPY=...,LAUNCH=...[,SCALAR_C=...]"). */
void gk_calibrate_line_params(const gk_cost_line *line, char *out, size_t size);
void gk_calibrate_device_params(const gk_cost_constants *device, char *out, size_t size);

/* Prints the constants a new context on cli's device has when it reads the database at path (NULL: the default
 * one), and for each line the model chooses among there (at the probes and the pool of seed) whether it has its
 * own; an exit status. */
struct gk_cli;
int gk_calibrate_show(const struct gk_cli *cli, const char *path, uint64_t seed);

#endif
