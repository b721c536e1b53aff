/* The per-device tuning database: which parameters each kernel should use on
 * a given device. Lines of "backend<TAB>device<TAB>kernel<TAB>params<TAB>gflops<TAB>date";
 * the user's file (written by `gemmkit tune`) takes precedence over the
 * database built into the library (src/kernels/tuning/builtin.tsv).
 * A database can never make a call fail or pick another kernel: a line this
 * device cannot use is skipped with a warning, and the kernel keeps its
 * registry defaults. */
#ifndef GK_TUNING_H
#define GK_TUNING_H

#include <stddef.h>

#include "gemmkit.h"

#define GK_TUNED_MAX 32
#define GK_TUNING_WARNINGS 2048

typedef struct gk_tuning_entry {
    char backend[16];
    char device[128];
    char kernel[64];
    char params[256];
    double gflops;
    char date[32];
} gk_tuning_entry;

typedef struct gk_tuning_set {
    int count;
    gk_tuning_entry entries[GK_TUNED_MAX];
    /* What was wrong with the databases when loading them: one line per
     * problem, each ending in '\n' ("" when nothing was). */
    char warnings[GK_TUNING_WARNINGS];
} gk_tuning_set;

/* $GEMMKIT_TUNING_DB, else $XDG_CACHE_HOME/gemmkit/tuning.tsv, else ~/.cache/gemmkit/tuning.tsv. */
const char *gk_tuning_path(char *buffer, size_t size);

/* The usable entries for this device: built-in first, then the user's file
 * overriding; every problem found is described in set->warnings. A missing
 * user file is the normal case, not a problem. */
void gk_tuning_load(const gemmkit_device_info *info, gk_tuning_set *set);

/* Prints set->warnings on stderr, unless GEMMKIT_QUIET is set (and not "0"). */
void gk_tuning_print_warnings(const gk_tuning_set *set);

/* The tuned parameters of `kernel`, or NULL. */
const char *gk_tuning_params(const gk_tuning_set *set, const char *kernel);

/* One line of a database (len bytes, without its '\n'). */
typedef enum gk_tuning_line { GK_LINE_SKIP, GK_LINE_ENTRY, GK_LINE_MALFORMED } gk_tuning_line;
gk_tuning_line gk_tuning_parse_line(const char *line, size_t len, gk_tuning_entry *entry, char *why,
                                    size_t why_size);

/* 0 when a device like `info` can run the entry's kernel with its parameters;
 * else -1 and why not (unknown kernel, a constraint, a device limit). */
int gk_tuning_check_entry(const gk_tuning_entry *entry, const gemmkit_device_info *info, char *why,
                          size_t why_size);

/* Reads a whole file: 0 and a malloc'd, NUL-terminated *text (which may hold
 * other NULs: use *len); 1 when the file does not exist; -1 and why
 * otherwise (a directory, unreadable, too large). */
int gk_tuning_read_file(const char *path, char **text, size_t *len, char *why, size_t why_size);

/* Adds or replaces the entry (same backend, device, kernel) in the file at
 * path, keeping every other line as it was. Atomic and safe against other
 * processes saving at the same time: under a lock on "<path>.lock", the new
 * contents go to a temporary file in the same folder that is then renamed
 * over the database, with SIGINT, SIGTERM and SIGHUP held off meanwhile. */
gemmkit_status gk_tuning_save(const char *path, const gk_tuning_entry *entry);

#endif
