/* Reading the tuning database (see tuning.h): where it is, what a line
 * holds, and which lines a device keeps, with a warning for every line or
 * file that cannot be used. Writing it: tuning_save.c. */
#include "tuning.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "registry.h"
#include "status.h"

/* Far beyond any real database; keeps a wrong path (a disk image) from being read whole. */
#define MAX_FILE_BYTES (16u << 20)
#define MAX_LINE 1024

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

static int line_error(char *why, size_t size, const char *format, ...) GK_PRINTF(3, 4);
static int line_error(char *why, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(why, size, format, args);
    va_end(args);
    return GK_LINE_MALFORMED;
}

/* Copies a field into a fixed-size member; -1 when it does not fit. */
static int copy_field(char *dst, size_t size, const char *src)
{
    size_t len = strlen(src);
    if (len >= size) return -1;
    memcpy(dst, src, len + 1);
    return 0;
}

gk_tuning_line gk_tuning_parse_line(const char *line, size_t len, gk_tuning_entry *e, char *why, size_t why_size)
{
    if (len && line[len - 1] == '\r') len--;
    size_t start = strspn(line, " \t");
    if (start >= len || line[start] == '#') return GK_LINE_SKIP;
    if (memchr(line, '\0', len)) return line_error(why, why_size, "a NUL byte: not a text file");
    if (len >= MAX_LINE) return line_error(why, why_size, "longer than %d characters", MAX_LINE - 1);
    char copy[MAX_LINE];
    memcpy(copy, line, len);
    copy[len] = '\0';
    static const char *const names[6] = {"backend", "device", "kernel", "params", "score", "date"};
    char *fields[6] = {0};
    int count = 0;
    for (char *p = copy; p; count++) {
        if (count == 6) return line_error(why, why_size, "more than 6 tab-separated fields");
        fields[count] = p;
        p = strchr(p, '\t');
        if (p) *p++ = '\0';
    }
    if (count < 5) {
        if (count == 1 && strchr(copy, ' '))
            return line_error(why, why_size, "fields separated by spaces; the database separates them by tabs");
        return line_error(why, why_size, "%d tab-separated field(s), want 6: backend, device, kernel, params, "
                          "score, date", count);
    }
    memset(e, 0, sizeof *e);
    char *members[6] = {e->backend, e->device, e->kernel, e->params, NULL, e->date};
    const size_t sizes[6] = {sizeof e->backend, sizeof e->device, sizeof e->kernel, sizeof e->params, 0,
                             sizeof e->date};
    for (int i = 0; i < count; i++) {
        if (i < 3 && !fields[i][0]) return line_error(why, why_size, "empty %s", names[i]);
        if (members[i] && copy_field(members[i], sizes[i], fields[i]))
            return line_error(why, why_size, "%s longer than %zu characters", names[i], sizes[i] - 1);
    }
    char *end = NULL;
    e->gflops = strtod(fields[4], &end);
    if (end == fields[4] || *end || !isfinite(e->gflops))
        return line_error(why, why_size, "score \"%.40s\" is not a number", fields[4]);
    return GK_LINE_ENTRY;
}

int gk_tuning_read_file(const char *path, char **text, size_t *len, char *why, size_t why_size)
{
    *text = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        snprintf(why, why_size, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    const char *problem = NULL;
    if (fstat(fd, &st) != 0) problem = strerror(errno);
    else if (S_ISDIR(st.st_mode)) problem = "is a directory";
    else if (!S_ISREG(st.st_mode)) problem = "not a regular file";
    else if ((size_t)st.st_size > MAX_FILE_BYTES) problem = "larger than 16 MiB";
    char *buffer = problem ? NULL : malloc((size_t)st.st_size + 1);
    if (!problem && !buffer) problem = "out of memory";
    size_t used = 0;
    while (!problem && used < (size_t)st.st_size) {
        ssize_t got = read(fd, buffer + used, (size_t)st.st_size - used);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) problem = strerror(errno);
        if (got <= 0) break; /* an error, or the file shrank while being read */
        used += (size_t)got;
    }
    close(fd);
    if (problem) {
        free(buffer);
        snprintf(why, why_size, "%s", problem);
        return -1;
    }
    buffer[used] = '\0';
    *text = buffer;
    *len = used;
    return 0;
}

static void warn(gk_tuning_set *set, const char *format, ...) GK_PRINTF(2, 3);
static void warn(gk_tuning_set *set, const char *format, ...)
{
    size_t used = strlen(set->warnings), size = sizeof set->warnings;
    if (used + 2 >= size) return;
    used += (size_t)snprintf(set->warnings + used, size - used, "gemmkit: ");
    va_list args;
    va_start(args, format);
    if (used < size) vsnprintf(set->warnings + used, size - used, format, args);
    va_end(args);
    used = strlen(set->warnings);
    if (used + 1 >= size) used = size - 2; /* truncated: still one line per warning */
    set->warnings[used] = '\n';
    set->warnings[used + 1] = '\0';
}

gk_tuning_level gk_tuning_match(const gk_tuning_entry *e, const gemmkit_device_info *info, const char *arch)
{
    if (strcmp(e->backend, info->backend) != 0) return GK_TUNING_NO_MATCH;
    if (strncmp(e->device, "arch:", 5) == 0)
        return arch && *arch && strcasecmp(e->device + 5, arch) == 0 ? GK_TUNING_ARCH : GK_TUNING_NO_MATCH;
    if (strncmp(e->device, "vendor:", 7) == 0) {
        /* A prefix: "vendor:NVIDIA" covers "NVIDIA Corporation", "vendor:AMD" does not cover "Advanced ...". */
        const char *vendor = e->device + 7;
        return *vendor && strncasecmp(info->vendor, vendor, strlen(vendor)) == 0 ? GK_TUNING_VENDOR
                                                                                : GK_TUNING_NO_MATCH;
    }
    return strcmp(e->device, info->name) == 0 ? GK_TUNING_DEVICE : GK_TUNING_NO_MATCH;
}

/* Keeps the most specific line per kernel; at equal specificity the later
 * one (the user's file is read after the built-in one). */
static void add_entry(gk_tuning_set *set, const gk_tuned *t)
{
    for (int i = 0; i < set->count; i++) {
        if (strcmp(set->entries[i].line.kernel, t->line.kernel) == 0) {
            if (t->level >= set->entries[i].level) set->entries[i] = *t;
            return;
        }
    }
    if (set->count < GK_TUNED_MAX) set->entries[set->count++] = *t;
}

/* Adds this device's usable lines of one database; `name` is for the warnings. */
static void load_text(const char *name, int builtin, const char *text, size_t len, const gemmkit_device_info *info,
                      const char *arch, gk_tuning_set *set)
{
    int line_no = 0, malformed = 0, first_malformed = 0;
    char first_why[256] = "";
    size_t pos = 0, line_len = 0;
    for (const char *line; (line = gk_tuning_next_line(text, len, &pos, &line_len));) {
        line_no++;
        gk_tuned t;
        gk_tuning_entry *const e = &t.line;
        char why[256];
        gk_tuning_line kind = gk_tuning_parse_line(line, line_len, e, why, sizeof why);
        if (kind == GK_LINE_MALFORMED && !malformed++) {
            first_malformed = line_no;
            snprintf(first_why, sizeof first_why, "%s", why);
        }
        if (kind != GK_LINE_ENTRY || !(t.level = gk_tuning_match(e, info, arch))) continue;
        /* A built-in variant line the policy in use has no row for (a GEMMKIT_POLICY file without it) is
         * unused, not wrong: no warning, as for the user's rows that file leaves out. */
        if (builtin && gk_tuning_unknown_variant(e)) continue;
        if (gk_tuning_check_entry(e, info, &t, why, sizeof why) != 0) {
            warn(set, "tuning database %s:%d: %s %s: %s; using %s", name, line_no, e->kernel, e->params, why,
                 gk_tuning_find(set, e->kernel) ? "the earlier line for this kernel"
                                                : gk_tuning_setting_default(e->kernel));
            continue;
        }
        t.builtin = builtin;
        add_entry(set, &t);
    }
    if (malformed > 1)
        warn(set, "tuning database %s:%d: %s; ignoring it and %d more malformed line(s)", name, first_malformed,
             first_why, malformed - 1);
    else if (malformed)
        warn(set, "tuning database %s:%d: %s; ignoring the line", name, first_malformed, first_why);
}

/* The databases a context reads, in order: the built-in one, then the
 * user's file when there is one; `fn` gets each text. A file that exists but
 * cannot be read goes to `unreadable` instead (NULL: skipped). */
typedef void database_fn(const char *name, int builtin, const char *text, size_t len, void *data);
static void each_database(database_fn *fn, void (*unreadable)(const char *path, const char *why, void *data),
                          void *data)
{
    const char *builtin = gk_kernel_source("tuning/builtin.tsv");
    if (builtin) fn("(built-in) src/kernels/tuning/builtin.tsv", 1, builtin, strlen(builtin), data);
    char path[1024], why[256];
    if (!gk_tuning_path(path, sizeof path)) return;
    char *text = NULL;
    size_t len = 0;
    const int read = gk_tuning_read_file(path, &text, &len, why, sizeof why);
    if (read < 0 && unreadable) unreadable(path, why, data);
    if (read == 0) fn(path, 0, text, len, data);
    free(text);
}

typedef struct load_target {
    const gemmkit_device_info *info;
    const char *arch;
    gk_tuning_set *set;
} load_target;

static void load_database(const char *name, int builtin, const char *text, size_t len, void *data)
{
    const load_target *t = data;
    load_text(name, builtin, text, len, t->info, t->arch, t->set);
}

static void warn_unreadable(const char *path, const char *why, void *data)
{
    warn(((load_target *)data)->set, "tuning database %s: %s; not using it", path, why);
}

void gk_tuning_load(const gemmkit_device_info *info, const char *arch, gk_tuning_set *set)
{
    set->count = 0;
    set->warnings[0] = '\0';
    load_target target = {info, arch, set};
    each_database(load_database, warn_unreadable, &target);
    gk_cost_load(set, &set->cost);
}

int gk_tuning_blas_threshold(const gk_tuning_set *set, double *work, int *builtin)
{
    const gk_tuned *t = gk_tuning_find(set, GK_TUNING_BLAS_THRESHOLD);
    if (!t) return 0;
    *work = t->value;
    if (builtin) *builtin = t->builtin;
    return 1;
}

/* Lowers *(double *)data to the lowest usable blas-threshold line of one database. */
static void lowest_in(const char *name, int builtin, const char *text, size_t len, void *data)
{
    (void)name, (void)builtin;
    double *lowest = data;
    size_t pos = 0, line_len = 0;
    for (const char *line; (line = gk_tuning_next_line(text, len, &pos, &line_len));) {
        gk_tuned t;
        char why[256];
        if (gk_tuning_parse_line(line, line_len, &t.line, why, sizeof why) == GK_LINE_ENTRY &&
            strcmp(t.line.kernel, GK_TUNING_BLAS_THRESHOLD) == 0 &&
            gk_tuning_check_entry(&t.line, NULL, &t, why, sizeof why) == 0 && t.value < *lowest)
            *lowest = t.value;
    }
}

double gk_tuning_blas_threshold_lowest(void)
{
    double lowest = INFINITY;
    each_database(lowest_in, NULL, &lowest);
    return lowest;
}

void gk_tuning_print_warnings(const gk_tuning_set *set)
{
    const char *quiet = getenv("GEMMKIT_QUIET");
    if (quiet && *quiet && strcmp(quiet, "0") != 0) return;
    fputs(set->warnings, stderr);
}

const gk_tuned *gk_tuning_find(const gk_tuning_set *set, const char *kernel)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->entries[i].line.kernel, kernel) == 0) return &set->entries[i];
    return NULL;
}

const gk_tuned *gk_tuning_find_variant(const gk_tuning_set *set, const char *kernel, const char *variant)
{
    char key[sizeof set->entries[0].line.kernel];
    const int n = snprintf(key, sizeof key, "%s/%s", kernel, variant);
    return n > 0 && (size_t)n < sizeof key ? gk_tuning_find(set, key) : NULL;
}

const char *gk_tuning_params(const gk_tuning_set *set, const char *kernel)
{
    const gk_tuned *t = gk_tuning_find(set, kernel);
    return t ? t->line.params : NULL;
}

const gk_config *gk_tuning_config(const gk_tuning_set *set, const char *kernel)
{
    const gk_tuned *t = gk_tuning_find(set, kernel);
    return t ? &t->config : NULL;
}

gemmkit_status gk_tuning_resolve(const gk_tuning_set *set, const gk_kernel_def *def, gk_config *config)
{
    /* Only lines that resolved and fit this device were kept (tuning_check.c). */
    const gk_config *tuned = gk_tuning_config(set, def->name);
    if (!tuned) return gk_config_resolve(def, NULL, config);
    *config = *tuned;
    return GEMMKIT_SUCCESS;
}
