/* --plot FILE.png: rate against size, one line per kernel and peer, drawn by
 * gnuplot run as an external program (gnuplot-nox is enough). TF32 results get
 * their own panel, a long ladder one panel per document family (as
 * bench/plot.py draws them). Without gnuplot it says so; bench/plot.py draws
 * the same from the --json file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "output_file.h"

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

enum { MAX_SERIES = 256, MAX_PANELS = 6, LIBRARY = 3 };
/* More gemmkit series than this, from several documents: one panel per document. */
enum { MANY = 10 };
static const char *const families[LIBRARY] = {"tutorial", "slides", "lecture"};

/* Kernels in the tab10 colours but red and grey (tab20 without them for more than
 * 8); peers in black and greys; TF32 in red: no two kinds share a colour. */
static const char *const kernel_colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
                                             "#8c564b", "#e377c2", "#bcbd22", "#17becf"};
static const char *const kernel_colours_many[] = {"#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a",
                                                  "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2",
                                                  "#bcbd22", "#dbdb8d", "#17becf", "#9edae5"};
static const char *const peer_colours[] = {"#000000", "#696969", "#a9a9a9", "#2f4f4f"};
static const char *const tf32_colour = "#d62728";

typedef struct plot_series {
    const gk_bench_record *first;
    int tf32;   /* TF32 tensor cores: not fp32 accuracy, kept off the fp32 panels */
    int family; /* index in families[], or LIBRARY (library kernels, peers, baseline) */
    int colour; /* peers: index in peer_colours */
    size_t start, count; /* its points, sorted by size */
} plot_series;

typedef struct plot_point {
    int series;
    double x, y;
} plot_point;

typedef struct plot_panel {
    char heading[160];
    int members[MAX_SERIES], count;
} plot_panel;

typedef struct plot_layout {
    plot_series series[MAX_SERIES];
    int series_count;
    plot_point *points;
    plot_panel panels[MAX_PANELS];
    int panel_count;
} plot_layout;

static int contains_tf32(const char *s)
{
    for (; *s; s++)
        if ((s[0] | 32) == 't' && (s[1] | 32) == 'f' && s[2] == '3' && s[3] == '2') return 1;
    return 0;
}

static int is_tf32(const gk_bench_record *r)
{
    size_t n = strlen(r->name);
    return (n >= 5 && strcmp(r->name + n - 5, "-tf32") == 0) || contains_tf32(r->label);
}

static int family_of(const gk_bench_record *r)
{
    if (strcmp(r->kind, "gemmkit") != 0) return LIBRARY;
    for (int f = 0; f < LIBRARY; f++) {
        size_t n = strlen(families[f]);
        if (strncmp(r->name, families[f], n) == 0 && r->name[n] == '-') return f;
    }
    return LIBRARY;
}

static int by_series_then_size(const void *a, const void *b)
{
    const plot_point *p = a, *q = b;
    if (p->series != q->series) return p->series < q->series ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

/* The valid results as series, each sorted by size: sizes are measured in the
 * order given (4097 after 16384), and drawn left to right. */
static int collect(plot_layout *L, const gk_bench_report *report)
{
    L->points = malloc((report->count ? report->count : 1) * sizeof *L->points);
    if (!L->points) return -1;
    size_t n = 0;
    int peers = 0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        double rate = gk_bench_rate(r, r->total_ms);
        if (r->status != GK_BENCH_OK || rate <= 0.0) continue;
        int j = 0;
        while (j < L->series_count && !same_series(L->series[j].first, r)) j++;
        if (j == L->series_count) {
            if (j == MAX_SERIES) continue;
            plot_series *s = &L->series[L->series_count++];
            s->first = r;
            s->tf32 = is_tf32(r);
            s->family = family_of(r);
            s->colour = strcmp(r->kind, "gemmkit") != 0 && !s->tf32 ? peers++ : 0;
        }
        L->points[n++] = (plot_point){j, size_axis(&r->size), rate};
    }
    qsort(L->points, n, sizeof *L->points, by_series_then_size);
    for (size_t i = 0; i < n; i++) {
        plot_series *s = &L->series[L->points[i].series];
        if (s->count++ == 0) s->start = i;
    }
    return 0;
}

static plot_panel *add_panel(plot_layout *L, const char *heading, const char *note)
{
    plot_panel *p = &L->panels[L->panel_count++];
    snprintf(p->heading, sizeof p->heading, "%s%s", heading, note);
    return p;
}

/* The fp32 panels (one, or one per document family for a long ladder), then the TF32 one. */
static void arrange(plot_layout *L)
{
    int kernels = 0, tf32 = 0, in_family[LIBRARY + 1] = {0};
    for (int j = 0; j < L->series_count; j++) {
        const plot_series *s = &L->series[j];
        tf32 |= s->tf32;
        if (!s->tf32 && strcmp(s->first->kind, "gemmkit") == 0) {
            kernels++;
            in_family[s->family]++;
        }
    }
    int groups = 0;
    for (int f = 0; f <= LIBRARY; f++) groups += in_family[f] > 0;
    const char *note = tf32 ? "; TF32 (not fp32) in the last panel" : "";
    int by_family = kernels > MANY && groups > 1;
    for (int f = 0; f <= LIBRARY; f++) {
        if (by_family && f < LIBRARY && !in_family[f]) continue;
        char heading[64];
        if (!by_family) snprintf(heading, sizeof heading, "%s", tf32 ? "fp32" : "");
        else if (f < LIBRARY) snprintf(heading, sizeof heading, "%s-* kernels, fp32 peers dashed", families[f]);
        else snprintf(heading, sizeof heading, "library kernels, baseline and peers");
        plot_panel *p = add_panel(L, heading, tf32 ? note : "");
        for (int j = 0; j < L->series_count; j++) {
            const plot_series *s = &L->series[j];
            int peer = strcmp(s->first->kind, "peer") == 0;
            if (!s->tf32 && (!by_family || s->family == f || peer)) p->members[p->count++] = j;
        }
        if (!p->count) L->panel_count--;
        if (!by_family) break;
    }
    if (tf32) {
        plot_panel *p = add_panel(L, "TF32 tensor cores: NOT fp32 accuracy (fp32 peers dashed, for scale)", "");
        for (int j = 0; j < L->series_count; j++)
            if (L->series[j].tf32) p->members[p->count++] = j;
        for (int j = 0; j < L->series_count; j++)
            if (!L->series[j].tf32 && strcmp(L->series[j].first->kind, "peer") == 0) p->members[p->count++] = j;
    }
    if (L->panel_count == 0) add_panel(L, "no valid results to plot", "");
}

static void plot_panel_script(FILE *f, const plot_layout *L, const plot_panel *p)
{
    fprintf(f, "set title ");
    double_quoted(f, p->heading);
    fputc('\n', f);
    if (p->count == 0) {
        fprintf(f, "unset logscale y\nset label 1 'no valid results to plot' at graph 0.5, 0.5 center\n"
                   "plot [1:2] [0:1] NaN notitle\nunset label 1\n");
        return;
    }
    double lo = INFINITY, hi = 0.0, xlo = INFINITY, xhi = 0.0;
    int kernels = 0;
    for (int m = 0; m < p->count; m++) {
        const plot_series *s = &L->series[p->members[m]];
        kernels += strcmp(s->first->kind, "gemmkit") == 0;
        for (size_t i = s->start; i < s->start + s->count; i++) {
            const plot_point *q = &L->points[i];
            lo = fmin(lo, q->y), hi = fmax(hi, q->y), xlo = fmin(xlo, q->x), xhi = fmax(xhi, q->x);
        }
    }
    /* A log axis when the rates span more than 50x; else linear from 0, so gaps read as ratios. */
    fprintf(f, hi > 50.0 * lo ? "set logscale y 10\nset yrange [*:*]\n" : "unset logscale y\nset yrange [0:*]\n");
    /* A margin of 5% of the span (at least a tenth of an octave) keeps the end points off the frame. */
    double pad = exp2(fmax(0.05 * log2(xhi / xlo), 0.1));
    fprintf(f, "set xrange [%.6g:%.6g]\n", xlo / pad, xhi * pad);
    if (xhi < 4.0 * xlo) {
        /* Less than two octaves hold one or two powers of two: label the measured sizes instead. */
        double ticks[64];
        int count = 0;
        for (int m = 0; m < p->count; m++) {
            const plot_series *s = &L->series[p->members[m]];
            for (size_t i = s->start; i < s->start + s->count; i++) {
                int seen = 0;
                for (int t = 0; t < count; t++) seen |= ticks[t] == L->points[i].x;
                if (!seen && count < 64) ticks[count++] = L->points[i].x;
            }
        }
        fprintf(f, "set xtics (");
        for (int t = 0; t < count; t++) fprintf(f, "%s%.6g", t ? ", " : "", ticks[t]);
        fprintf(f, ")\n");
    } else {
        fprintf(f, "set xtics autofreq\n");
    }
    const char *const *palette = kernels <= 8 ? kernel_colours : kernel_colours_many;
    int colours = kernels <= 8 ? 8 : 16, k = 0;
    fprintf(f, "plot ");
    for (int m = 0; m < p->count; m++) {
        const plot_series *s = &L->series[p->members[m]];
        const char *kind = s->first->kind;
        /* Peers dashed, the host baseline dotted; point types vary so a long ladder stays readable. */
        int dash = strcmp(kind, "peer") == 0 ? 2 : strcmp(kind, "baseline") == 0 ? 3 : 1;
        const char *colour = s->tf32                          ? tf32_colour
                             : strcmp(kind, "gemmkit") == 0 ? palette[k++ % colours]
                                                              : peer_colours[s->colour % 4];
        fprintf(f, "%s'-' using 1:2 with linespoints lw 2 dt %d pt %d lc rgb '%s' title ", m ? ", " : "", dash,
                1 + m % 13, colour);
        char name[96];
        if (strcmp(s->first->op, "sgemm") != 0 && strcmp(kind, "gemmkit") != 0)
            snprintf(name, sizeof name, "%s:%s", s->first->name, s->first->op);
        else
            snprintf(name, sizeof name, "%s", s->first->name);
        quoted(f, name);
    }
    fputc('\n', f);
    for (int m = 0; m < p->count; m++) {
        const plot_series *s = &L->series[p->members[m]];
        for (size_t i = s->start; i < s->start + s->count; i++) fprintf(f, "%.6g %.6g\n", L->points[i].x, L->points[i].y);
        fprintf(f, "e\n");
    }
}

int gk_bench_plot_script(FILE *f, const gk_bench_report *report, const char *path, const char *terminal)
{
    plot_layout *L = calloc(1, sizeof *L);
    if (!L || collect(L, report)) {
        if (L) free(L->points);
        free(L);
        return -1;
    }
    arrange(L);
    int n = L->panel_count;
    fprintf(f, "set terminal %s size 1300,%d noenhanced\nset output ", terminal, n == 1 ? 800 : 100 + 500 * n);
    quoted(f, path);
    const char *unit = report->count ? report->records[0].unit : "GFLOPS";
    /* The run's title over the whole image, centred on it (a panel's title centres on its narrower plot). */
    char header[768];
    snprintf(header, sizeof header, "%s\n%s | %s (%s), %s", report->title, report->device.platform,
             report->device.name, report->device.backend, report->date);
    fprintf(f, "\nset multiplot layout %d,1 title ", n);
    double_quoted(f, header);
    fputc('\n', f);
    /* Fixed margins: the panels line up whatever their legends' widths. */
    fprintf(f, "set lmargin 12\nset rmargin 36\nset key outside right top\n");
    fprintf(f, "set xlabel 'size (n for squares; geometric mean of the dimensions otherwise)'\n");
    fprintf(f, "set ylabel '%s, median (whole call, device time)'\n", unit);
    /* 5% of room above and below the data: lines off the frame (a fixed 0 stays 0). */
    fprintf(f, "set logscale x 2\nset format x '%%g'\nset grid xtics ytics mytics\nset offsets 0, 0, graph 0.05, graph 0.05\n");
    for (int i = 0; i < n; i++) plot_panel_script(f, L, &L->panels[i]);
    fprintf(f, "unset multiplot\n");
    free(L->points);
    free(L);
    return 0;
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

int gk_bench_plotter(char *path, size_t len, char *why)
{
    if (find_gnuplot(path, len) && !strchr(path, '\'')) return 1;
    snprintf(why, GK_BENCH_ERR,
             "gnuplot is missing (apt-get install gnuplot-nox, or set GEMMKIT_GNUPLOT); "
             "bench/plot.py draws the same plot from a --json file");
    return 0;
}

/* A whole PNG: the signature first and the IEND chunk last (a plotter cut
 * short by a full disk or a file-size limit may still exit 0). */
static int png_complete(const char *path)
{
    static const unsigned char magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    unsigned char head[8], tail[12];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = fread(head, 1, 8, f) == 8 && memcmp(head, magic, 8) == 0 && fseek(f, -12, SEEK_END) == 0 &&
             fread(tail, 1, 12, f) == 12 && memcmp(tail, iend, 12) == 0;
    fclose(f);
    return ok;
}

typedef struct plot_job {
    const gk_bench_report *report;
    const char *gnuplot;
} plot_job;

/* gnuplot draws into the output's temporary file, renamed over the target only when whole. */
static int draw(gk_output_file *out, void *user, char *err, size_t err_size)
{
    const plot_job *job = user;
    /* pngcairo draws better; plain png (libgd) is the fallback. */
    static const char *const terminals[] = {"pngcairo", "png"};
    for (size_t t = 0; t < 2; t++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) break;
        int bad = gk_bench_plot_script(f, job->report, out->temp, terminals[t]);
        fclose(f);
        if (bad) {
            free(text);
            snprintf(err, err_size, "out of memory for the plot script");
            return -1;
        }
        int rc = run_gnuplot(job->gnuplot, text);
        free(text);
        if (rc == 0 && png_complete(out->temp)) return 0;
    }
    snprintf(err, err_size, "%.200s could not draw it (no png terminal, or the file cannot be written)", job->gnuplot);
    return -1;
}

int gk_bench_write_plot(const gk_bench_report *report, const char *path, char *err)
{
    char gnuplot[1024];
    if (!gk_bench_plotter(gnuplot, sizeof gnuplot, err)) return -1;
    plot_job job = {report, gnuplot};
    return gk_output_write(path, draw, &job, err, GK_BENCH_ERR);
}
