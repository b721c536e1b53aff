/* --plot FILE.png: rate against size, one line per kernel and peer, drawn by
 * gnuplot run as an external program (gnuplot-nox is enough). Without
 * gnuplot it says so; bench/plot.py draws the same from the --json file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static int find_gnuplot(char *path, size_t len)
{
    const char *env = getenv("GEMMKIT_GNUPLOT");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(path, X_OK) == 0;
    }
    const char *dirs = getenv("PATH");
    if (!dirs) dirs = "/usr/bin:/bin";
    while (*dirs) {
        const char *end = strchr(dirs, ':');
        size_t n = end ? (size_t)(end - dirs) : strlen(dirs);
        snprintf(path, len, "%.*s/gnuplot", (int)n, dirs);
        if (n && access(path, X_OK) == 0) return 1;
        dirs += n + (end ? 1 : 0);
    }
    return 0;
}

/* gnuplot strings in single quotes: a quote is doubled. */
static void quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* gnuplot strings in double quotes (escapes work there): for the two-line title. */
static void double_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", f);
        else if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* One side of a square (n), or the geometric mean of the dimensions. */
static double size_axis(const gk_bench_size *s)
{
    return s->k ? cbrt((double)s->m * (double)s->n * (double)s->k) : sqrt((double)s->m * (double)s->n);
}

/* One series per runner and op (a peer runs both transposes and copies). */
static int same_series(const gk_bench_record *a, const gk_bench_record *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->op, b->op) == 0;
}

static void script(FILE *f, const gk_bench_report *report, const char *path, const char *terminal)
{
    const gk_bench_record *first[256];
    int series = 0;
    double lo = INFINITY, hi = 0.0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        double rate = gk_bench_rate(r, r->total_ms);
        if (r->status != GK_BENCH_OK || rate <= 0.0) continue;
        lo = rate < lo ? rate : lo;
        hi = rate > hi ? rate : hi;
        int seen = 0;
        for (int j = 0; j < series; j++) seen |= same_series(first[j], r);
        if (!seen && series < 256) first[series++] = r;
    }
    const char *unit = report->count ? report->records[0].unit : "GFLOPS";
    fprintf(f, "set terminal %s size 1280,800 noenhanced\nset output ", terminal);
    quoted(f, path);
    fprintf(f, "\nset title ");
    char title[512];
    snprintf(title, sizeof title, "%s\n%s | %s (%s), %s", report->title, report->device.platform, report->device.name,
             report->device.backend, report->date);
    double_quoted(f, title);
    fprintf(f, "\nset xlabel 'size (n for squares; geometric mean of the dimensions otherwise)'\n");
    fprintf(f, "set ylabel '%s, median of the timed runs (whole call, device time)'\n", unit);
    fprintf(f, "set logscale x 2\nset grid\nset key outside right top\n");
    if (hi > 50.0 * lo) fprintf(f, "set logscale y 10\n");
    if (series == 0) {
        fprintf(f, "set label 'no valid results to plot' at graph 0.5, 0.5 center\nplot [1:2] [0:1] NaN notitle\n");
        return;
    }
    fprintf(f, "plot ");
    for (int j = 0; j < series; j++) {
        /* Peers dashed, the host baseline dotted; point types vary so a long ladder stays readable. */
        const char *kind = first[j]->kind;
        int dash = strcmp(kind, "peer") == 0 ? 2 : strcmp(kind, "baseline") == 0 ? 3 : 1;
        fprintf(f, "%s'-' using 1:2 with linespoints lw 2 dt %d pt %d title ", j ? ", " : "", dash, 1 + j % 13);
        char title[96];
        if (strcmp(first[j]->op, "sgemm") != 0 && strcmp(kind, "gemmkit") != 0)
            snprintf(title, sizeof title, "%s:%s", first[j]->name, first[j]->op);
        else
            snprintf(title, sizeof title, "%s", first[j]->name);
        quoted(f, title);
    }
    fputc('\n', f);
    for (int j = 0; j < series; j++) {
        for (size_t i = 0; i < report->count; i++) {
            const gk_bench_record *r = &report->records[i];
            double rate = gk_bench_rate(r, r->total_ms);
            if (r->status == GK_BENCH_OK && rate > 0.0 && same_series(first[j], r))
                fprintf(f, "%.6g %.6g\n", size_axis(&r->size), rate);
        }
        fprintf(f, "e\n");
    }
}

static int run_gnuplot(const char *gnuplot, const char *text)
{
    char command[1200];
    snprintf(command, sizeof command, "'%s' 2>/dev/null", gnuplot);
    FILE *p = popen(command, "w");
    if (!p) return -1;
    fputs(text, p);
    int status = pclose(p);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int gk_bench_write_plot(const gk_bench_report *report, const char *path, char *err)
{
    char gnuplot[1024];
    if (!find_gnuplot(gnuplot, sizeof gnuplot) || strchr(gnuplot, '\'')) {
        snprintf(err, GK_BENCH_ERR,
                 "gnuplot is missing (apt-get install gnuplot-nox, or set GEMMKIT_GNUPLOT); "
                 "bench/plot.py draws the same plot from a --json file");
        return -1;
    }
    /* pngcairo draws better; plain png (libgd) is the fallback. */
    static const char *const terminals[] = {"pngcairo", "png"};
    for (size_t t = 0; t < 2; t++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) break;
        script(f, report, path, terminals[t]);
        fclose(f);
        int rc = run_gnuplot(gnuplot, text);
        free(text);
        if (rc == 0 && access(path, R_OK) == 0) return 0;
    }
    snprintf(err, GK_BENCH_ERR, "%.80s could not draw %.100s (no png terminal, or the file cannot be written)", gnuplot, path);
    return -1;
}
