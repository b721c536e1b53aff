/* Reading and writing the tuning database (see tuning.h). */
#include "tuning.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "registry.h"
#include "status.h"

const char *gk_tuning_path(char *buffer, size_t size)
{
    const char *env = getenv("GEMMKIT_TUNING_DB");
    if (env && *env) {
        snprintf(buffer, size, "%s", env);
        return buffer;
    }
    const char *cache = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (cache && *cache) snprintf(buffer, size, "%s/gemmkit/tuning.tsv", cache);
    else if (home && *home) snprintf(buffer, size, "%s/.cache/gemmkit/tuning.tsv", home);
    else return NULL;
    return buffer;
}

static void copy_field(char *dst, size_t size, const char *src)
{
    size_t len = strlen(src);
    if (len >= size) len = size - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* Parses one line; returns 0 for comments, blanks and malformed lines. */
static int parse_line(const char *line, gk_tuning_entry *e)
{
    if (line[0] == '#' || line[0] == '\n' || line[0] == '\0') return 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", line);
    copy[strcspn(copy, "\r\n")] = '\0';
    char *fields[6] = {0};
    char *p = copy;
    for (int i = 0; i < 6 && p; i++) {
        fields[i] = p;
        p = strchr(p, '\t');
        if (p) *p++ = '\0';
    }
    if (!fields[4]) return 0;
    memset(e, 0, sizeof *e);
    copy_field(e->backend, sizeof e->backend, fields[0]);
    copy_field(e->device, sizeof e->device, fields[1]);
    copy_field(e->kernel, sizeof e->kernel, fields[2]);
    copy_field(e->params, sizeof e->params, fields[3]);
    e->gflops = atof(fields[4]);
    copy_field(e->date, sizeof e->date, fields[5] ? fields[5] : "");
    return 1;
}

static void add_matching(gk_tuning_set *set, const gemmkit_device_info *info, const gk_tuning_entry *e)
{
    if (strcmp(e->backend, info->backend) != 0 || strcmp(e->device, info->name) != 0) return;
    for (int i = 0; i < set->count; i++) {
        if (strcmp(set->entries[i].kernel, e->kernel) == 0) {
            set->entries[i] = *e;
            return;
        }
    }
    if (set->count < GK_TUNED_MAX) set->entries[set->count++] = *e;
}

static void load_text(const char *text, const gemmkit_device_info *info, gk_tuning_set *set)
{
    while (text && *text) {
        size_t len = strcspn(text, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), text);
        gk_tuning_entry e;
        if (parse_line(line, &e)) add_matching(set, info, &e);
        text += len + (text[len] == '\n');
    }
}

void gk_tuning_load(const gemmkit_device_info *info, gk_tuning_set *set)
{
    set->count = 0;
    load_text(gk_kernel_source("tuning/builtin.tsv"), info, set);
    char path[1024];
    if (!gk_tuning_path(path, sizeof path)) return;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        gk_tuning_entry e;
        if (parse_line(line, &e)) add_matching(set, info, &e);
    }
    fclose(f);
}

const char *gk_tuning_params(const gk_tuning_set *set, const char *kernel)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->entries[i].kernel, kernel) == 0) return set->entries[i].params;
    return NULL;
}

/* Creates the parent folders of path. */
static void make_parents(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
}

gemmkit_status gk_tuning_save(const char *path, const gk_tuning_entry *entry)
{
    /* Keep every other line, drop the one this entry replaces, then append. */
    char *kept = NULL;
    size_t kept_len = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        FILE *mem = open_memstream(&kept, &kept_len);
        if (!mem) {
            fclose(f);
            return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "reading %s", path);
        }
        char line[1024];
        while (fgets(line, sizeof line, f)) {
            gk_tuning_entry e;
            if (parse_line(line, &e) && strcmp(e.backend, entry->backend) == 0 &&
                strcmp(e.device, entry->device) == 0 && strcmp(e.kernel, entry->kernel) == 0)
                continue;
            fputs(line, mem);
        }
        fclose(mem);
        fclose(f);
    }
    make_parents(path);
    f = fopen(path, "w");
    if (!f) {
        free(kept);
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "cannot write the tuning database %s: %s", path,
                       strerror(errno));
    }
    if (kept && kept_len) fputs(kept, f);
    else fputs("# gemmkit tuning database: backend, device, kernel, params, GFLOPS, date (tab-separated)\n", f);
    fprintf(f, "%s\t%s\t%s\t%s\t%.1f\t%s\n", entry->backend, entry->device, entry->kernel, entry->params, entry->gflops,
            entry->date);
    free(kept);
    return fclose(f) == 0 ? GEMMKIT_SUCCESS : gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT, "writing %s failed", path);
}
