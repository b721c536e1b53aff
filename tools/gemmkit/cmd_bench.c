/* `gemmkit bench`: gemmkit's kernels beside the host baseline and the peers
 * (cuBLAS, CLBlast) in one run; a compact table on stdout, progress on
 * stderr, and --json / --csv / --plot files with every sample. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "kernel_config.h"
#include "output_file.h"
#include "registry.h"

static int kind_rank(const char *kind)
{
    return strcmp(kind, "baseline") == 0 ? 0 : strcmp(kind, "gemmkit") == 0 ? 1 : 2;
}

typedef struct order_key {
    int rank, first, index;
} order_key;

static int compare_keys(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    if (x->rank != y->rank) return x->rank - y->rank;
    if (x->first != y->first) return x->first - y->first;
    return x->index - y->index;
}

/* Groups the records (measured size by size) by runner and op: baseline,
 * gemmkit's kernels in the order they ran, then the peers; sizes in order
 * within each. */
static void group_records(gk_bench_report *report)
{
    size_t n = report->count;
    order_key *keys = malloc((n ? n : 1) * sizeof *keys);
    gk_bench_record *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!keys || !sorted) goto done;
    for (size_t i = 0; i < n; i++) {
        size_t first = 0;
        /* One group per runner and op (a peer runs both transposes and copies). */
        while (strcmp(report->records[first].name, report->records[i].name) != 0 ||
               strcmp(report->records[first].op, report->records[i].op) != 0)
            first++;
        keys[i] = (order_key){kind_rank(report->records[i].kind), (int)first, (int)i};
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t i = 0; i < n; i++) sorted[i] = report->records[keys[i].index];
    memcpy(report->records, sorted, n * sizeof *sorted);
done:
    free(keys);
    free(sorted);
}

/* A run that measured nothing of gemmkit's is no benchmark (every size out
 * of memory, every kernel refused): 1, with the reason in why. */
static int nothing_measured(const gk_bench_session *s, char *why, size_t len)
{
    const gk_bench_record *first = NULL;
    for (size_t i = 0; i < s->report.count; i++) {
        const gk_bench_record *r = &s->report.records[i];
        if (strcmp(r->kind, "gemmkit") != 0) continue;
        if (r->status == GK_BENCH_OK) return 0;
        if (!first) first = r;
    }
    if (first) {
        char name[160], size[48];
        gk_bench_display_name(first, name, sizeof name);
        gk_bench_size_text(&first->size, size, sizeof size);
        snprintf(why, len, "no gemmkit kernel gave a result (first: %s at %s, %s: %s)", name, size,
                 gk_bench_status_name(first->status), first->message);
    } else {
        snprintf(why, len, "no size was run (%d of %d without host memory for the inputs)", s->sizes_without_memory,
                 s->args->size_count);
    }
    return 1;
}

static int write_candidates(const gk_bench_report *report, const char *path, char *err)
{
    static const gk_bench_candidates none;
    return gk_bench_write_candidates(report->candidates ? report->candidates : &none, path, err);
}

int gk_bench_finish(gk_bench_session *s)
{
    gk_bench_report *report = &s->report;
    group_records(report);
    gk_bench_progress_done(s);
    gk_bench_print_header(report, stdout);
    gk_bench_print_table(report, stdout);
    gk_bench_print_summary(report, stdout);
    gk_bench_print_roofline_summary(report, stdout);
    if (report->candidates) gk_bench_print_candidates(report->candidates, stdout);
    int failures = 0, wrong = 0;
    for (size_t i = 0; i < report->count; i++) {
        const gk_bench_record *r = &report->records[i];
        /* A peer's failure is shown but is not gemmkit's: it does not fail the run. */
        if (strcmp(r->kind, "peer") == 0) continue;
        wrong += r->status == GK_BENCH_WRONG;
        failures += r->status == GK_BENCH_WRONG || r->status == GK_BENCH_ERROR;
    }
    if (failures)
        printf("\n%d result(s) failed (%d wrong, %d errors): no speed is reported for them.\n", failures, wrong,
               failures - wrong);
    /* A candidate that computes wrong is gemmkit computing wrong; one that does not run is only recorded. */
    gk_bench_candidates_summary cs = {0};
    if (report->candidates) gk_bench_candidates_summarize(report->candidates, &cs);
    if (cs.wrong) printf("\n%d candidate result(s) wrong (see --candidates-out).\n", cs.wrong);
    failures += cs.wrong;
    gk_bench_print_verified(report, stdout);
    char why[2 * GK_BENCH_ERR];
    if (nothing_measured(s, why, sizeof why)) {
        fflush(stdout);
        fprintf(stderr, "gemmkit bench: nothing was measured: %s\n", why);
        failures++;
    }
    fflush(stdout);
    char err[GK_BENCH_ERR];
    struct {
        const char *path;
        int (*write)(const gk_bench_report *, const char *, char *);
        const char *what;
    } outputs[] = {{s->args->json_path, gk_bench_write_json, "JSON"},
                   {s->args->csv_path, gk_bench_write_csv, "CSV"},
                   {s->args->plot_path, gk_bench_write_plot, "plot"},
                   {s->args->candidates_out, write_candidates, "candidates"}};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        if (!outputs[i].path) continue;
        if (outputs[i].write(report, outputs[i].path, err)) {
            fprintf(stderr, "gemmkit bench: %s not written: %s\n", outputs[i].what, err);
            failures++;
        } else if (!s->args->quiet) {
            fprintf(stderr, "gemmkit bench: %s written to %s\n", outputs[i].what, outputs[i].path);
        }
    }
    return failures ? GK_EXIT_FAILED : GK_EXIT_OK;
}

/* The command line as a shell would take it back (arguments with spaces quoted). */
static void command_line(const gk_cli *cli, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "gemmkit");
    if (cli->device && used < len) used += (size_t)snprintf(out + used, len - used, " --device '%s'", cli->device);
    if (cli->backend != GEMMKIT_BACKEND_DEFAULT && used < len)
        used += (size_t)snprintf(out + used, len - used, " --backend %s",
                                 cli->backend == GEMMKIT_BACKEND_CUDA ? "cuda" : "opencl");
    if (used < len) used += (size_t)snprintf(out + used, len - used, " bench");
    for (int i = 0; i < cli->argc && used < len; i++) {
        const char *a = cli->argv[i];
        int plain = *a && !strpbrk(a, " \t'\"$\\*?;&|<>()");
        used += (size_t)snprintf(out + used, len - used, plain ? " %s" : " '%s'", a);
    }
}

static void default_sizes(gk_bench_args *args, int is_gpu)
{
    static const gk_bench_size gpu[] = {GK_BENCH_SIZE(1024, 1024, 1024), GK_BENCH_SIZE(2048, 2048, 2048),
                                        GK_BENCH_SIZE(4096, 4096, 4096)};
    static const gk_bench_size cpu[] = {GK_BENCH_SIZE(256, 256, 256), GK_BENCH_SIZE(512, 512, 512)};
    /* Transposes: a power of two and a size near it (bank conflicts, partition camping), and an odd shape. */
    static const gk_bench_size gpu_t[] = {GK_BENCH_SIZE(4000, 4000, 0), GK_BENCH_SIZE(4096, 4096, 0),
                                          GK_BENCH_SIZE(8192, 8192, 0), GK_BENCH_SIZE(16384, 16384, 0),
                                          GK_BENCH_SIZE(5001, 3007, 0)};
    static const gk_bench_size cpu_t[] = {GK_BENCH_SIZE(1024, 1024, 0), GK_BENCH_SIZE(1000, 777, 0)};
    const gk_bench_size *src = args->transpose ? (is_gpu ? gpu_t : cpu_t) : is_gpu ? gpu : cpu;
    args->size_count = args->transpose ? (is_gpu ? 5 : 2) : is_gpu ? 3 : 2;
    memcpy(args->sizes, src, (size_t)args->size_count * sizeof *src);
}

static int check_kernel(const gk_bench_args *args)
{
    if (strcmp(args->kernel, "all") == 0 || strcmp(args->kernel, "best") == 0) return 0;
    const gk_kernel_def *def = gk_kernel_find(args->kernel);
    const gk_operation op = def ? gk_kernel_op(def) : GK_OP_HELPER;
    const int fits = args->transpose ? op == GK_OP_TRANSPOSE || op == GK_OP_COPY
                                     : op == (args->batch ? GK_OP_SGEMM_BATCHED : GK_OP_SGEMM);
    if (!def || gk_kernel_is_helper(def) || !fits) {
        fprintf(stderr, "gemmkit bench: no %s kernel named \"%s\" (see gemmkit list; or all, best)\n",
                args->transpose ? "transpose or copy" : args->batch ? "batched SGEMM" : "SGEMM", args->kernel);
        return GK_EXIT_USAGE;
    }
    /* Unknown parameters and failed constraints are usage errors, found before any device work. */
    gk_config config;
    for (int i = 0; i < (args->param_line_count ? args->param_line_count : 1); i++) {
        const char *line = args->param_line_count ? args->param_lines[i] : NULL;
        if (gk_config_resolve(def, line, &config) != GEMMKIT_SUCCESS) {
            fprintf(stderr, "gemmkit bench: --params \"%s\": %s\n", line ? line : "", gemmkit_last_error_message());
            return GK_EXIT_USAGE;
        }
    }
    return 0;
}

/* The output files are checked before the run, so that a bad path fails in a
 * second rather than after a long benchmark. Without a plotter, --plot is a
 * warning (the results are still measured and written); it is dropped. */
static int check_outputs(gk_bench_args *args)
{
    char err[GK_BENCH_ERR];
#ifndef GEMMKIT_HAVE_JANSSON
    if (args->json_path) {
        fprintf(stderr, "gemmkit bench: --json: this gemmkit was built without jansson (libjansson-dev)\n");
        return GK_EXIT_FAILED;
    }
#endif
    const char *paths[] = {args->json_path, args->csv_path, args->plot_path, args->candidates_out};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (paths[i] && gk_output_check(paths[i], err, sizeof err)) {
            fprintf(stderr, "gemmkit bench: %s\n", err);
            return GK_EXIT_FAILED;
        }
    }
    char plotter[1024];
    if (args->plot_path && !gk_bench_plotter(plotter, sizeof plotter, err)) {
        fprintf(stderr, "gemmkit bench: warning: no plot will be drawn (%s): %s\n", args->plot_path, err);
        args->plot_path = NULL;
    }
    return GK_EXIT_OK;
}

/* --list-sizes: each shape as --sizes would take it back, its op() and layout resolved. */
static int list_sizes(const gk_bench_args *args)
{
    for (int i = 0; i < args->size_count; i++) {
        const gk_bench_size z = gk_bench_size_resolve(args, &args->sizes[i]);
        printf("%lldx%lldx%lld:%c%c:%s\n", (long long)z.m, (long long)z.n, (long long)z.k,
               z.trans_a == GEMMKIT_TRANS ? 'T' : 'N', z.trans_b == GEMMKIT_TRANS ? 'T' : 'N',
               z.layout == GEMMKIT_ROW_MAJOR ? "row" : "col");
    }
    return fflush(stdout) == 0 ? GK_EXIT_OK : GK_EXIT_FAILED;
}

int gk_cmd_bench(const gk_cli *cli)
{
    gk_bench_args args;
    int rc = gk_bench_parse_args(cli->argc, cli->argv, &args);
    if (rc == -1) return GK_EXIT_OK; /* --help */
    if (rc) return rc;
    if (args.list_sizes) return list_sizes(&args);
    if ((rc = check_kernel(&args)) || (rc = check_outputs(&args))) return rc;

    gk_bench_session s;
    memset(&s, 0, sizeof s);
    s.cli = cli;
    s.args = &args;
    s.progress = args.quiet ? NULL : stderr;
    gk_bench_progress_setup(&s);
    s.started_ms = gk_bench_now_ms();
    if (!(s.ctx = gk_cli_open(cli))) return GK_EXIT_FAILED;
    gemmkit_context_device_info(s.ctx, &s.info);
    gemmkit_status math_status = args.math ? gemmkit_context_set_math(s.ctx, args.math) : GEMMKIT_SUCCESS;
    if (math_status != GEMMKIT_SUCCESS) {
        gk_cli_report("--math", math_status);
        gemmkit_context_destroy(s.ctx);
        return GK_EXIT_FAILED;
    }
    if (args.size_count == 0) default_sizes(&args, s.info.is_gpu);
    char err[GK_BENCH_ERR];
    if (gk_bench_preset_fits(args.preset, s.info.is_gpu, err)) {
        gk_cli_usage_error("bench", "%s", err);
        gemmkit_context_destroy(s.ctx);
        return GK_EXIT_USAGE;
    }

    gk_bench_report *report = &s.report;
    report->args = &args;
    report->device = s.info;
    report->seed = gk_rng_fresh_seed();
    gk_rng_seed(&s.rng, report->seed);
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(report->date, sizeof report->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    command_line(cli, report->command_line, sizeof report->command_line);
    snprintf(report->title, sizeof report->title,
             "gemmkit bench: SGEMM C = op(A) op(B), %s%s-major, %c%c; inputs %s; 1 warm-up + %d timed runs each; seed %llu",
             gk_bench_sizes_own_ops(&args) ? "per shape (see trans, layout), else " : "",
             args.layout == GEMMKIT_ROW_MAJOR ? "row" : "column", args.trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T',
             args.trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', args.wide_inputs ? "wide" : "uniform", args.repeat,
             (unsigned long long)report->seed);

    gk_bench_progress(&s, "device: %s | %s; %d size(s), kernel %s", s.info.platform, s.info.name, args.size_count,
                      args.kernel);
    gk_bench_open_peers(&s);
    /* The roofline's bandwidth, before the SGEMM runs on the same device (transposes have %copy). */
    if (!args.transpose && !args.roofline) {
        snprintf(report->bandwidth.note, sizeof report->bandwidth.note, "--no-roofline");
    } else if (!args.transpose && gk_bench_copy_bandwidth(s.ctx, &s.info, &report->bandwidth) == 0) {
        /* The figure itself is the table's header's: a progress line shows no result. */
        gk_bench_progress(&s, "copy bandwidth measured for the roofline (%.0f MiB device to device, best of %d)",
                          report->bandwidth.bytes / (1024.0 * 1024.0), report->bandwidth.repeat);
    } else if (!args.transpose) {
        gk_bench_progress(&s, "copy bandwidth not measured: %s", report->bandwidth.note);
    }
    if (args.candidates) report->candidates = &s.candidates;
    if (args.transpose) {
        rc = gk_bench_transpose(&s); /* fills the same report, and its title */
    } else {
        gk_bench_sgemm(&s);
        rc = GK_EXIT_OK;
    }
    int finished = gk_bench_finish(&s);
    gk_bench_close_peers(&s);
    gemmkit_context_destroy(s.ctx);
    gk_bench_report_free(report);
    gk_bench_candidates_free(&s.candidates);
    return rc ? rc : finished;
}
