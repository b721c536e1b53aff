/* The per-device tuning database: which parameters each kernel should use on
 * a given device. Lines of "backend<TAB>device<TAB>kernel<TAB>params<TAB>gflops<TAB>date",
 * where device is the exact device name, "arch:NAME" (an architecture such as
 * sm_90) or "vendor:NAME" (the start of the device's vendor string, any case).
 * The most specific usable line wins (device over architecture over vendor);
 * at equal specificity the user's file (written by `gemmkit tune`) beats the
 * database built into the library (src/kernels/tuning/builtin.tsv), and a
 * later line of a file an earlier one.
 * A database can never make a call fail or pick another kernel: a line this
 * device cannot use is skipped with a warning, and the kernel keeps its
 * registry defaults (or a less specific line). Lines are parsed to integer
 * parameter values once, when a context loads them.
 * A few lines hold a setting of the library instead of a kernel's
 * parameters: their kernel field names the setting ("blas-threshold"), their
 * params are one "NAME=VALUE". They are matched, ranked and saved as kernel
 * lines; the one table of them is in tuning_check.c (`settings`). */
#ifndef GK_TUNING_H
#define GK_TUNING_H

#include <stddef.h>
#include <string.h>

#include "gemmkit.h"
#include "cost_model.h"
#include "kernel_config.h"

#define GK_TUNED_MAX 96
#define GK_TUNING_WARNINGS 2048

typedef struct gk_tuning_entry {
    char backend[16];
    char device[128];
    char kernel[64];
    char params[256];
    double gflops;
    char date[32];
} gk_tuning_entry;

/* How specifically a line names the device (higher wins). */
typedef enum gk_tuning_level {
    GK_TUNING_NO_MATCH,
    GK_TUNING_VENDOR, /* "vendor:NVIDIA" */
    GK_TUNING_ARCH,   /* "arch:sm_90" */
    GK_TUNING_DEVICE  /* "NVIDIA H200" */
} gk_tuning_level;

/* A usable line: as written (for display and saving) and resolved. */
typedef struct gk_tuned {
    gk_tuning_entry line;
    gk_tuning_level level;
    gk_config config; /* the line's kernel with its parameters, checked for this device */
    double value;     /* a setting line's value (blas-threshold: multiply-adds, INFINITY for "inf") */
    int builtin;      /* from the built-in database (else the user's file) */
} gk_tuned;

typedef struct gk_tuning_set {
    int count;
    gk_tuned entries[GK_TUNED_MAX]; /* one per kernel ("xgemm", "xgemm/small") or setting */
    gk_cost_constants cost;         /* the cost model's, from the "cost:" lines (gk_cost_load) */
    /* What was wrong with the databases when loading them: one line per
     * problem, each ending in '\n' ("" when nothing was). */
    char warnings[GK_TUNING_WARNINGS];
} gk_tuning_set;

/* $GEMMKIT_TUNING_DB, else $XDG_CACHE_HOME/gemmkit/tuning.tsv, else ~/.cache/gemmkit/tuning.tsv. */
const char *gk_tuning_path(char *buffer, size_t size);

/* The usable entries for this device, whose architecture is `arch` ("" or
 * NULL when unknown: no "arch:" line matches): built-in first, then the
 * user's file; every problem found is described in set->warnings. A missing
 * user file is the normal case, not a problem. */
void gk_tuning_load(const gemmkit_device_info *info, const char *arch, gk_tuning_set *set);

/* How specifically the entry's backend and device field name this device. */
gk_tuning_level gk_tuning_match(const gk_tuning_entry *entry, const gemmkit_device_info *info, const char *arch);

/* Prints set->warnings on stderr, unless GEMMKIT_QUIET is set (and not "0"). */
void gk_tuning_print_warnings(const gk_tuning_set *set);

/* The line used for `kernel` ("xgemm", "xgemm/small"), or NULL. */
const gk_tuned *gk_tuning_find(const gk_tuning_set *set, const char *kernel);
/* The "KERNEL/VARIANT" line of a policy variant row's choice, or NULL. */
const gk_tuned *gk_tuning_find_variant(const gk_tuning_set *set, const char *kernel, const char *variant);
/* Its parameters as written (for display), or NULL. */
const char *gk_tuning_params(const gk_tuning_set *set, const char *kernel);
/* Its resolved configuration, or NULL: what calls use, parsed once at load. */
const gk_config *gk_tuning_config(const gk_tuning_set *set, const char *kernel);
/* def's configuration on this device: its tuned one, else its registry defaults. */
gemmkit_status gk_tuning_resolve(const gk_tuning_set *set, const gk_kernel_def *def, gk_config *config);

/* The line of a database text that starts at *pos (its length in *line_len,
 * without the '\n'), moving *pos past it; NULL at the end of the text. */
static inline const char *gk_tuning_next_line(const char *text, size_t len, size_t *pos, size_t *line_len)
{
    if (*pos >= len) return NULL;
    const char *line = text + *pos;
    const char *newline = memchr(line, '\n', len - *pos);
    *line_len = newline ? (size_t)(newline - line) : len - *pos;
    *pos += *line_len + (newline != NULL);
    return line;
}

/* One line of a database (len bytes, without its '\n'). */
typedef enum gk_tuning_line { GK_LINE_SKIP, GK_LINE_ENTRY, GK_LINE_MALFORMED } gk_tuning_line;
gk_tuning_line gk_tuning_parse_line(const char *line, size_t len, gk_tuning_entry *entry, char *why,
                                    size_t why_size);

/* 0 and t->config resolved when a device like `info` can run the entry's
 * kernel with its parameters; else -1 and why not (unknown kernel, a
 * constraint, a device limit). A setting line: 0 and t->value when its
 * params are its one "NAME=VALUE" with a usable value, else -1 and why. */
int gk_tuning_check_entry(const gk_tuning_entry *entry, const gemmkit_device_info *info, gk_tuned *t, char *why,
                          size_t why_size);

/* 1 when the entry is a "KERNEL/VARIANT" line whose variant the policy in use
 * has no row for (no such variant, or a GEMMKIT_POLICY file without it). */
int gk_tuning_unknown_variant(const gk_tuning_entry *entry);

/* The BLAS drop-in's measured threshold (docs/DROPIN.md "Measuring the
 * crossover"): a setting line "blas-threshold" with params "WORK=<multiply-adds>"
 * or "WORK=inf" (the device never won: every call stays on the CPU), saved
 * by `gemmkit tune --blas-threshold`. */
#define GK_TUNING_BLAS_THRESHOLD "blas-threshold"
#define GK_TUNING_BLAS_THRESHOLD_PARAM "WORK"

/* The cost model's constants of a loaded set: its "cost:" lines over the defaults (cost_lines.c). */
void gk_cost_load(const gk_tuning_set *set, gk_cost_constants *constants);

/* What a setting line's absence means, for the warning about a bad one ("the default threshold"). */
const char *gk_tuning_setting_default(const char *kernel);

/* 1 and *work (multiply-adds, INFINITY: never the device) when the set has a
 * blas-threshold line for its device (the most specific one, as for kernel
 * lines), else 0. */
int gk_tuning_blas_threshold(const gk_tuning_set *set, double *work, int *builtin);
/* The lowest usable blas-threshold of any line of the databases a context
 * would read (built-in and the user's file), whatever its device; INFINITY
 * when there is none. Opens no device and warns about nothing (a context
 * reading the lines does). */
double gk_tuning_blas_threshold_lowest(void);

/* Reads a whole file (the tuning databases, and a GEMMKIT_POLICY table): 0 and
 * a malloc'd, NUL-terminated *text (which may hold other NULs: use *len); 1
 * when the file does not exist; -1 and why otherwise (a directory, a FIFO,
 * unreadable, larger than 16 MiB). */
int gk_tuning_read_file(const char *path, char **text, size_t *len, char *why, size_t why_size);

/* Adds or replaces the entry (same backend, device, kernel) in the file at
 * path, keeping every other line as it was. Atomic and safe against other
 * processes saving at the same time: under a lock on "<path>.lock", the new
 * contents go to a temporary file in the same folder that is then renamed
 * over the database, with SIGINT, SIGTERM and SIGHUP held off meanwhile. */
gemmkit_status gk_tuning_save(const char *path, const gk_tuning_entry *entry);

#endif
