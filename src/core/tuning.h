/* The per-device tuning database: which parameters each kernel should use on
 * a given device. Lines of "backend<TAB>device<TAB>kernel<TAB>params<TAB>gflops<TAB>date";
 * the user's file (written by `gemmkit tune`) takes precedence over the
 * database built into the library (src/kernels/tuning/builtin.tsv). */
#ifndef GK_TUNING_H
#define GK_TUNING_H

#include "gemmkit.h"

#define GK_TUNED_MAX 32

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
} gk_tuning_set;

/* $GEMMKIT_TUNING_DB, else $XDG_CACHE_HOME/gemmkit/tuning.tsv, else ~/.cache/gemmkit/tuning.tsv. */
const char *gk_tuning_path(char *buffer, size_t size);

/* The entries for this device: built-in first, then the user's file overriding. */
void gk_tuning_load(const gemmkit_device_info *info, gk_tuning_set *set);

/* The tuned parameters of `kernel`, or NULL. */
const char *gk_tuning_params(const gk_tuning_set *set, const char *kernel);

/* Adds or replaces the entry (same backend, device, kernel) in the file at path. */
gemmkit_status gk_tuning_save(const char *path, const gk_tuning_entry *entry);

#endif
