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

#include "context.h"
#include "sgemm.h"
#include "tune.h"
#include "tuning.h"

/* Whether a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Where the result went and, truthfully, which calls will use it. */
void gk_tune_print_saved(const char *path, gemmkit_context *ctx, const gk_kernel_def *def, int64_t size, int small)
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
    else if (small)
        printf(", for the problems the default dispatch gives %s whose main tiles would leave some of the "
               "device's %d compute units idle\n", def->name, ctx->info.compute_units);
    else
        printf(", in the default dispatch for %s\n", gk_sgemm_fast_kernel_scope());
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

gemmkit_status gk_tune_save(const char *path, const gemmkit_device_info *info, const gk_kernel_def *def, int small,
                            const char *params, double score)
{
    gk_tuning_entry e = {0};
    snprintf(e.backend, sizeof e.backend, "%s", info->backend);
    snprintf(e.device, sizeof e.device, "%s", info->name);
    snprintf(e.kernel, sizeof e.kernel, "%s%s", def->name, small ? "/small" : "");
    snprintf(e.params, sizeof e.params, "%s", params);
    e.gflops = score;
    time_t now = time(NULL);
    strftime(e.date, sizeof e.date, "%Y-%m-%d", gmtime(&now));
    return gk_tuning_save(path, &e);
}
