/* `gemmkit tune`: its options (tune_args.c), the progress it shows during a
 * search (tune_progress.c) and where the result goes (tune_save.c). The
 * search itself: cmd_tune.c. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "gemmkit.h"
#include "registry.h"
#include "tuning.h"

typedef struct gk_tune_args {
    const char *kernel;  /* NULL: the SGEMM kernel the library runs on the device (at the shapes tuned) */
    int64_t size;        /* 0: the device's default */
    int repeat;
    long max_configs;    /* per search */
    double max_seconds;  /* the whole command's time budget; 0: none */
    const char *db;      /* --db FILE; NULL: gk_tuning_path() */
    const char *variant; /* --variant NAME (--small: "small"); NULL: the kernel's main line */
    int all_variants;    /* --all-variants: the main line, then every variant of the policy */
    int blas_threshold;  /* --blas-threshold: the BLAS drop-in's device/CPU crossover (tune_blas_threshold.c) */
    int calibrate;       /* --calibrate: the cost model's constants (tune_calibrate.c) */
    int show;            /* --calibrate --show: the constants in force, nothing timed */
    const char *lines;   /* --calibrate --lines NAME,...: the only lines fitted (no empty name); NULL: every one */
    uint64_t seed;       /* --seed: the calibration's random shapes (GK_CALIBRATE_SEED unless given) */
    int save, verbose;
} gk_tune_args;

/* Parses the options: 0 to run, GK_EXIT_USAGE after a message on stderr, or
 * -1 after printing the help on stdout. */
int gk_tune_parse_args(int argc, char **argv, gk_tune_args *args);

/* `gemmkit tune --blas-threshold`: times the device (host arrays, copies
 * included) against the CPU BLAS on square sizes up to --size (default
 * 4096) and saves the crossover as the device's blas-threshold line. An exit
 * status; path is the database (NULL only with --no-save). */
struct gk_cli;
int gk_tune_blas_threshold(const struct gk_cli *cli, const gk_tune_args *args, const char *path);

/* `gemmkit tune --calibrate` (tune_calibrate.h): measures the cost model's constants on this device and saves
 * them as cost:* lines (with --lines, the device's and the named lines' only: GK_EXIT_USAGE, nothing timed, for a
 * name the model does not choose among here); with --show prints the constants a new context reading path has,
 * timing nothing. An exit status; path is the database (NULL only with --no-save). */
int gk_tune_calibrate(const struct gk_cli *cli, const gk_tune_args *args, const char *path);

/* What one command tunes (tune_plan.c): the main line (variant NULL) at n,
 * or a variant of the policy at its representative shapes
 * (src/kernels/tuning/shapes.tsv). */
typedef struct gk_tune_job {
    const gk_kernel_def *def; /* set by gk_tune_job_resolve */
    const char *variant;      /* NULL: the kernel's main line */
    int64_t n;                /* the main line's n */
    int count;                /* a variant's shapes: m, n, k, column-major */
    int64_t shapes[4][3];
    char note[320];           /* shapes left out, or why nothing was tuned */
} gk_tune_job;

#define GK_TUNE_MAX_JOBS 16

/* The jobs of the arguments on this device: the main line, --variant NAME,
 * or the main line and every variant of the policy's rows for this device
 * class. 0, or GK_EXIT_USAGE after a message (an unknown variant, a kernel
 * whose variant lines the policy would never use, no shapes). named is the
 * --kernel, or NULL. */
int gk_tune_plan(const gk_tune_args *args, const gemmkit_device_info *info, const gk_kernel_def *named,
                 gk_tune_job *jobs, int *count);
/* The kernel of a job on the tuning lines as they are now (so a variant
 * follows a main line just saved): named, else the kernel the policy's
 * kernel rows give its first shape (the main line: n^3); a variant's shapes
 * at which the policy runs another kernel are left out (named: kept), with a
 * note. 0, or -1 with why in job->note. */
int gk_tune_job_resolve(gk_tune_job *job, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                        const gk_kernel_def *named);

/* On how many of a variant job's shapes the dispatch would run its kernel
 * with params as the KERNEL/VARIANT line (in `tuned`, a working copy of the
 * context's lines, which this changes): a variant row may not hold there, and
 * the fallback rows replace tiles that pad a shape too much. */
int gk_tune_job_uses(const gk_tune_job *job, const gemmkit_device_info *info, gk_tuning_set *tuned,
                     const char *params);
/* Adds or replaces a line for this device in a set, as a new context reading it would have it. */
void gk_tune_remember(gk_tuning_set *set, const gemmkit_device_info *info, const gk_tuning_entry *line);

/* Progress of a search on stderr: on a terminal one line rewritten at most
 * twice a second; otherwise a line every 10 seconds, so that short searches
 * (and test logs) stay quiet. */
typedef struct gk_tune_progress {
    FILE *out;
    int tty;
    long total;           /* candidates to time */
    double start_ms, shown_ms;
    int line_open;        /* a rewritten line is on the terminal */
} gk_tune_progress;

void gk_tune_progress_start(gk_tune_progress *p, FILE *out, long total);
/* After each candidate: done of total, the best score so far (0: none yet). */
void gk_tune_progress_update(gk_tune_progress *p, long done, double best, const char *unit, const char *best_params);
/* Before printing anything else on the same stream: clears the rewritten line. */
void gk_tune_progress_clear(gk_tune_progress *p);
double gk_tune_progress_seconds(const gk_tune_progress *p);

/* Where the result goes (tune_save.c). Whether path can take the result,
 * saying why not on stderr: checked before a search that may take hours. */
int gk_tune_database_usable(const char *path);
/* Saves the best parameters for this device as KERNEL, or KERNEL/VARIANT when variant is not NULL. */
gemmkit_status gk_tune_save(const char *path, const gemmkit_device_info *info, const gk_kernel_def *def,
                            const char *variant, const char *params, double score);
/* "saved to PATH; used by ...": which contexts read the file and which calls run the kernel. */
void gk_tune_print_saved(const char *path, gemmkit_context *ctx, const gk_kernel_def *def, int64_t size);
/* The same for a variant line: a new context reading PATH, and what its dispatch runs at each shape. */
struct gk_cli;
void gk_tune_print_variant_use(const char *path, const struct gk_cli *cli, const gk_kernel_def *def,
                               const char *variant, const int64_t (*shapes)[3], int count);
/* A new context on cli's device reading the database at path (NULL: the default one), as a program would get
 * it; quiet: without printing the database's warnings again. NULL after a message. */
gemmkit_context *gk_tune_open_reading(const struct gk_cli *cli, const char *path, int quiet);

#endif
