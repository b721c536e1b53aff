/* The timing loop shared by every benchmark: one untimed warm-up (it
 * compiles the kernels), then timed calls rotating over the input sets, each
 * with its device times and the host's wall time around it. */
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

int gk_bench_input_sets(const gk_bench_args *args, double bytes)
{
    int sets = args->sets ? args->sets : bytes < GK_BENCH_ROTATE_BELOW_BYTES ? 3 : 1;
    /* Only the sets the runs will touch: the warm-up and the timed runs start at set 0. */
    return sets > args->repeat ? args->repeat : sets;
}

double gk_bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int gk_bench_time(gk_bench_call call, void *user, int (*prepare)(void *user, char *err), int sets,
                  double max_seconds, gk_bench_record *rec)
{
    char err[GK_BENCH_ERR] = "";
    gk_bench_timing t = {0.0, 0.0, 0};
    const double started = gk_bench_now_ms();
    if (call(user, 0, &t, err)) {
        snprintf(rec->message, sizeof rec->message, "warm-up failed: %.220s", err);
        return -1;
    }
    if (prepare && prepare(user, err)) {
        snprintf(rec->message, sizeof rec->message, "%s", err);
        return -1;
    }
    for (int r = 0; r < rec->count; r++) {
        t.kernel_ms = t.total_ms = 0.0;
        double start = gk_bench_now_ms();
        if (call(user, r % sets, &t, err)) {
            snprintf(rec->message, sizeof rec->message, "timed run %d failed: %.200s", r + 1, err);
            return -1;
        }
        rec->host_ms[r] = gk_bench_now_ms() - start; /* replaced by the wall-clock run's below */
        rec->kernel_ms[r] = t.kernel_ms;
        rec->total_ms[r] = t.total_ms;
        /* --max-time holds for every measurement, the first size's too (whose
         * time nothing predicts): stop when one more run would pass it. */
        const double spent_ms = gk_bench_now_ms() - started;
        if (r + 1 < rec->count && spent_ms + rec->host_ms[r] > max_seconds * 1e3) {
            snprintf(rec->note, sizeof rec->note, "%d of %d runs: --max-time %g s", r + 1, rec->count, max_seconds);
            rec->count = r + 1;
        }
    }
    /* The same calls untimed on the device: profiling (events per launch, their read-back) is no part of what a
     * program waits for. The outputs' poison was spent on the timed runs, which the check reads. */
    for (int r = 0; r < rec->count; r++) {
        gk_bench_timing wall = {0.0, 0.0, 1};
        const double start = gk_bench_now_ms();
        if (call(user, r % sets, &wall, err)) {
            snprintf(rec->message, sizeof rec->message, "wall-clock run %d failed: %.200s", r + 1, err);
            return -1;
        }
        rec->host_ms[r] = gk_bench_now_ms() - start;
    }
    rec->sets = sets < rec->count ? sets : rec->count;
    return 0;
}

/* stdout and stderr write to the same file, terminal or pipe. */
static int same_target(void)
{
    struct stat out, err;
    return fstat(STDOUT_FILENO, &out) == 0 && fstat(STDERR_FILENO, &err) == 0 && out.st_dev == err.st_dev &&
           out.st_ino == err.st_ino;
}

void gk_bench_progress_setup(gk_bench_session *s)
{
    if (!s->progress || !same_target()) return; /* apart, each stream shows each result once */
    s->progress_in_place = isatty(STDERR_FILENO);
    s->progress_no_results = !s->progress_in_place;
}

void gk_bench_progress_done(gk_bench_session *s)
{
    if (s->progress && s->progress_in_place) fputs("\r\033[K", s->progress);
    s->progress_in_place = 0;
}

void gk_bench_progress(const gk_bench_session *s, const char *fmt, ...)
{
    if (!s->progress) return;
    char line[1024];
    int used = snprintf(line, sizeof line, "[%6.1f s] ", (gk_bench_now_ms() - s->started_ms) * 1e-3);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + used, sizeof line - (size_t)used, fmt, ap);
    va_end(ap);
    if (s->progress_in_place) {
        /* One terminal row (a wrapped line could not be rewritten), replacing the last. */
        struct winsize w;
        size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 1 ? w.ws_col - 1u : 79u;
        if (strlen(line) > width) line[width] = '\0';
        fprintf(s->progress, "\r\033[K%s", line);
    } else {
        fprintf(s->progress, "%s\n", line);
    }
    fflush(s->progress);
}

void gk_bench_progress_record(const gk_bench_session *s, const gk_bench_record *rec)
{
    if (s->progress_no_results) return;
    char size[48], name[160];
    gk_bench_size_text(&rec->size, size, sizeof size);
    if (rec->batch) snprintf(size + strlen(size), sizeof size - strlen(size), " x%lld", (long long)rec->batch);
    gk_bench_display_name(rec, name, sizeof name);
    if (rec->status == GK_BENCH_OK) {
        gk_bench_stats k = gk_bench_stats_of(rec->kernel_ms, rec->count);
        gk_bench_progress(s, "%-24s %-14s %10.1f %s  (kernel %.4g ms median of %d, %d input set%s; %s)", name,
                          size, gk_bench_rate(rec, rec->kernel_ms), rec->unit, k.median, rec->count, rec->sets,
                          rec->sets == 1 ? "" : "s", rec->check);
    } else {
        gk_bench_progress(s, "%-24s %-14s %s: %s", name, size, gk_bench_status_name(rec->status),
                          rec->message);
    }
}

int gk_bench_too_slow(const gk_bench_session *s, gk_bench_record *rec)
{
    for (int i = 0; i < s->pace_count; i++) {
        if (strcmp(s->pace[i].name, rec->name) != 0 || s->pace[i].work <= 0.0) continue;
        double run_s = s->pace[i].ms * 1e-3 * rec->work / s->pace[i].work;
        double total_s = run_s * (s->args->repeat + 1);
        if (total_s <= s->args->max_seconds) return 0;
        rec->status = GK_BENCH_SKIPPED;
        snprintf(rec->message, sizeof rec->message,
                 "predicted %.0f s (warm-up + %d runs of %.2g s at its last size's rate) > --max-time %g", total_s,
                 s->args->repeat, run_s, s->args->max_seconds);
        return 1;
    }
    return 0;
}

void gk_bench_pace(gk_bench_session *s, const gk_bench_record *rec)
{
    int i = 0;
    while (i < s->pace_count && strcmp(s->pace[i].name, rec->name) != 0) i++;
    if (i == s->pace_count) {
        if (s->pace_count == (int)(sizeof s->pace / sizeof s->pace[0])) return;
        s->pace_count++;
    }
    snprintf(s->pace[i].name, sizeof s->pace[i].name, "%s", rec->name);
    s->pace[i].work = rec->work;
    s->pace[i].ms = gk_bench_stats_of(rec->host_ms, rec->count).median;
}
