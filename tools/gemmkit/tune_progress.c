/* Progress of `gemmkit tune` (see tune.h): enough to see that a long search
 * advances and what it has found, without a line per candidate. */
#include <unistd.h>

#include "bench.h"
#include "tune.h"

#define TTY_EVERY_MS 500.0
#define LOG_EVERY_MS 10000.0

void gk_tune_progress_start(gk_tune_progress *p, FILE *out, long total)
{
    *p = (gk_tune_progress){.out = out, .tty = isatty(fileno(out)), .total = total};
    p->start_ms = p->shown_ms = gk_bench_now_ms();
}

double gk_tune_progress_seconds(const gk_tune_progress *p) { return (gk_bench_now_ms() - p->start_ms) / 1000.0; }

void gk_tune_progress_update(gk_tune_progress *p, long done, double best, const char *unit, const char *best_params)
{
    const double now = gk_bench_now_ms();
    if (now - p->shown_ms < (p->tty ? TTY_EVERY_MS : LOG_EVERY_MS)) return;
    p->shown_ms = now;
    fprintf(p->out, "%s%ld/%ld timed, %.0f s", p->tty ? "\r\033[K" : "", done, p->total,
            (now - p->start_ms) / 1000.0);
    if (best > 0.0) fprintf(p->out, ", best %.1f %s (%s)", best, unit, best_params);
    fputs(p->tty ? "" : "\n", p->out);
    p->line_open = p->tty;
    fflush(p->out);
}

void gk_tune_progress_clear(gk_tune_progress *p)
{
    if (!p->line_open) return;
    fputs("\r\033[K", p->out);
    p->line_open = 0;
}
