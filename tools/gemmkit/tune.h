/* `gemmkit tune`: its options (tune_args.c), the progress it shows during a
 * search (tune_progress.c) and where the result goes (tune_save.c). The
 * search itself: cmd_tune.c. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <stdint.h>
#include <stdio.h>

#include "gemmkit.h"
#include "registry.h"

typedef struct gk_tune_args {
    const char *kernel; /* NULL: the SGEMM kernel the library runs on the device */
    int64_t size;       /* 0: the device's default */
    int repeat;
    long max_configs;
    const char *db;     /* --db FILE; NULL: gk_tuning_path() */
    int save, small, verbose;
} gk_tune_args;

/* Parses the options: 0 to run, GK_EXIT_USAGE after a message on stderr, or
 * -1 after printing the help on stdout. */
int gk_tune_parse_args(int argc, char **argv, gk_tune_args *args);

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
/* Saves the best parameters (KERNEL/small with small) for this device. */
gemmkit_status gk_tune_save(const char *path, const gemmkit_device_info *info, const gk_kernel_def *def, int small,
                            const char *params, double score);
/* "saved to PATH; used by ...": which contexts read the file and which calls run the kernel. */
void gk_tune_print_saved(const char *path, gemmkit_context *ctx, const gk_kernel_def *def, int64_t size, int small);

#endif
