/* Where `gemmkit tune` puts its result (see tune.h): checked before the
 * search, saved through the library's atomic gk_tuning_save, and described
 * truthfully: which contexts read the file, which calls run the kernel. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "context.h"
#include "sgemm.h"
#include "tune.h"
#include "tune_calibrate.h"
#include "tuning.h"

/* Whether a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Where the result went and, truthfully, which calls will use it. */
void gk_tune_print_saved(const char *path, gemmkit_context *ctx, const gk_kernel_def *def, int64_t size)
{
    char read_buffer[1024];
    const char *read = gk_tuning_path(read_buffer, sizeof read_buffer);
    printf("saved to %s; used by new contexts on this device", path);
    if (!read || !same_file(read, path)) printf(" when GEMMKIT_TUNING_DB=%s", path);
    const gk_kernel_def *fast = gk_sgemm_fast_kernel(ctx, size);
    if (gk_kernel_op(def) != GK_OP_SGEMM)
        printf(", whenever %s runs\n", def->name);
    else if (def != fast)
        printf(", only in SGEMM calls that name %s (the default dispatch runs %s on this device at %lld^3)\n", def->name,
               fast ? fast->name : "direct", (long long)size);
    else
        printf(", in the default dispatch for %s\n", gk_sgemm_fast_kernel_scope());
}

/* Sets (value not NULL) or unsets an environment variable. */
static void set_env(const char *name, const char *value)
{
    if (value) setenv(name, value, 1);
    else unsetenv(name);
}

/* The name of the tuning line the dispatch's choice took its parameters from, or "its main line". */
static const char *line_of(const gk_tuning_set *set, const gk_sgemm_choice *choice)
{
    for (int i = 0; choice->params && i < set->count; i++)
        if (set->entries[i].line.params == choice->params) return set->entries[i].line.kernel;
    return NULL;
}

gemmkit_context *gk_tune_open_reading(const gk_cli *cli, const char *path, int quiet)
{
    /* A fresh context is what a program gets: the file read, checked and resolved as at any context creation. */
    char *old_db = getenv("GEMMKIT_TUNING_DB") ? strdup(getenv("GEMMKIT_TUNING_DB")) : NULL;
    char *old_quiet = getenv("GEMMKIT_QUIET") ? strdup(getenv("GEMMKIT_QUIET")) : NULL;
    if (path) set_env("GEMMKIT_TUNING_DB", path);
    if (quiet) set_env("GEMMKIT_QUIET", "1");
    gemmkit_context *fresh = gk_cli_open(cli);
    set_env("GEMMKIT_TUNING_DB", old_db);
    set_env("GEMMKIT_QUIET", old_quiet);
    free(old_db);
    free(old_quiet);
    return fresh;
}

/* Whether the cost model chooses at this shape (NN, tight) on ctx's device (a GPU's candidate rows). */
static int model_chooses(gemmkit_context *ctx, const int64_t shape[3])
{
    const gk_calibrate_shape z = {shape[0], shape[1], shape[2], NULL, 0};
    static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];
    return gk_calibrate_candidates_at(ctx, &z, candidates, GK_SGEMM_MAX_CANDIDATES) > 0;
}

void gk_tune_print_variant_use(const char *path, const gk_cli *cli, const gk_kernel_def *def, const char *variant,
                               const int64_t (*shapes)[3], int count)
{
    char read_buffer[1024];
    const char *read = gk_tuning_path(read_buffer, sizeof read_buffer);
    printf("saved to %s as %s/%s; used by new contexts on this device", path, def->name, variant);
    if (!read || !same_file(read, path)) printf(" when GEMMKIT_TUNING_DB=%s", path);
    printf(" wherever the dispatch runs %s and policy.tsv's variant row %s holds. A new context reading it runs:\n",
           def->name, variant);
    gemmkit_context *fresh = gk_tune_open_reading(cli, path, 1); /* the first context showed the warnings */
    if (!fresh) return;
    char want[160];
    snprintf(want, sizeof want, "%s/%s", def->name, variant);
    for (int i = 0; i < count; i++) {
        const gk_sgemm_choice c = gk_sgemm_default_kernel(fresh, shapes[i][0], shapes[i][1], shapes[i][2]);
        const char *line = line_of(&fresh->tuned, &c);
        printf("  %lldx%lldx%lld: %s", (long long)shapes[i][0], (long long)shapes[i][1], (long long)shapes[i][2],
               c.def ? c.def->name : "nothing");
        if (line) printf(" with %s (%s)", line, c.params);
        if (line && strcmp(line, want) == 0) printf("\n");
        else if (model_chooses(fresh, shapes[i]))
            printf(" -- not the line saved: the cost model predicts another faster here (bench --candidates times "
                   "them)\n");
        else if (c.def != def) printf(" -- not the line saved: the policy runs another kernel here\n");
        else if (line) printf(" -- not the line saved: an earlier variant row holds here\n");
        else printf(" -- not the line saved: the variant row does not hold here\n");
    }
    gemmkit_context_destroy(fresh);
}

/* Fails early (before a long search) when the result could not be saved. */
int gk_tune_database_usable(const char *path)
{
    char *text = NULL, why[256];
    size_t len = 0;
    int read = gk_tuning_read_file(path, &text, &len, why, sizeof why);
    free(text);
    if (read < 0) {
        fprintf(stderr, "gemmkit tune: cannot use the tuning database %s: %s\n", path, why);
        return 0;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    const char *folder = dirname(dir);
    if (access(folder, F_OK) == 0 && access(folder, W_OK) != 0) {
        fprintf(stderr, "gemmkit tune: cannot write the tuning database %s: the folder %s is not writable\n", path,
                folder);
        return 0;
    }
    return 1;
}

gemmkit_status gk_tune_save(const char *path, const gemmkit_device_info *info, const gk_kernel_def *def,
                            const char *variant, const char *params, double score)
{
    gk_tuning_entry e = {0};
    snprintf(e.backend, sizeof e.backend, "%s", info->backend);
    snprintf(e.device, sizeof e.device, "%s", info->name);
    snprintf(e.kernel, sizeof e.kernel, "%s%s%s", def->name, variant ? "/" : "", variant ? variant : "");
    snprintf(e.params, sizeof e.params, "%s", params);
    e.gflops = score;
    time_t now = time(NULL);
    strftime(e.date, sizeof e.date, "%Y-%m-%d", gmtime(&now));
    return gk_tuning_save(path, &e);
}
