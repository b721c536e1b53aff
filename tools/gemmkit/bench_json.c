/* --json: the whole report (device, driver, date, command line, settings,
 * peers, every result with every sample) written with jansson. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench.h"
#include "output_file.h"

#ifdef GEMMKIT_HAVE_JANSSON
#include <jansson.h>

/* JSON has no NaN or infinity: those become null. */
static json_t *number(double x) { return isfinite(x) ? json_real(x) : json_null(); }

/* Driver and error texts may hold bytes that are not UTF-8: keep printable ASCII. */
static json_t *text(const char *s)
{
    char clean[2048];
    size_t i = 0;
    for (; s && s[i] && i + 1 < sizeof clean; i++) clean[i] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    clean[i] = 0;
    return json_string(clean);
}

static json_t *series(const double *samples, int count)
{
    gk_bench_stats s = gk_bench_stats_of(samples, count);
    json_t *all = json_array();
    for (int i = 0; i < count; i++) json_array_append_new(all, number(samples[i]));
    return json_pack("{s:o, s:o, s:o, s:o}", "median", number(s.median), "min", number(s.min), "max",
                     number(s.max), "samples", all);
}

static json_t *device_json(const gemmkit_device_info *d)
{
    char formula[256];
    snprintf(formula, sizeof formula, "%d compute units x %d lanes x 2 flops (FMA) x %d MHz", d->compute_units,
             d->lanes_per_unit, d->clock_mhz);
    json_t *o = json_pack("{s:b, s:i, s:i, s:i, s:o, s:s, s:I, s:I, s:I}", "is_gpu", d->is_gpu, "compute_units",
                          d->compute_units, "clock_mhz", d->clock_mhz, "lanes_per_unit", d->lanes_per_unit,
                          "peak_gflops", number(d->peak_gflops), "peak_formula", formula, "local_mem_bytes",
                          (json_int_t)d->local_mem_bytes, "global_mem_bytes", (json_int_t)d->global_mem_bytes,
                          "max_alloc_bytes", (json_int_t)d->max_alloc_bytes);
    if (!o) return NULL;
    json_object_set_new(o, "backend", text(d->backend));
    json_object_set_new(o, "platform", text(d->platform));
    json_object_set_new(o, "name", text(d->name));
    json_object_set_new(o, "vendor", text(d->vendor));
    json_object_set_new(o, "driver", text(d->driver_version));
    return o;
}

/* The run's settings but its --params lines. */
static json_t *settings_fields(const gk_bench_args *a, const char *trans)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:b, s:b, s:f, s:f, s:f, s:s, s:s, s:i, s:s, s:s, s:s}",
                     "kernel", a->kernel, "params", a->params ? a->params : "", "layout",
                     a->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", "trans", trans, "repeat", a->repeat,
                     "warmup_runs", 1, "sets", a->sets, "rotate_below_bytes",
                     GK_BENCH_ROTATE_BELOW_BYTES, "peers", a->peers, "baseline", a->baseline, "max_seconds",
                     a->max_seconds, "alpha", 1.0, "beta", 0.0, "inputs", a->wide_inputs ? "wide" : "uniform",
                     "inputs_detail",
                     a->wide_inputs ? "uniform in [-1, 1), then every row and column of A and B scaled by 2^e, e uniform in -20..20"
                                    : "uniform in [-1, 1)",
                     "check_samples", GK_BENCH_SAMPLES, "full_check_below",
                     "m*n*k <= 134217728 (512^3) and m*n <= 16777216: every element; beyond: a grid of 64 to 128 sampled "
                     "rows x as many columns (the first and last among them; 128 x 128 up to k = 16384), and every element finite",
                     "error",
                     "per checked element |c - ref| / (|alpha| sum |a||b|), ref in float64; max and RMS over every input set",
                     "timing",
                     "device time from profiling events (OpenCL) / CUDA events, after one untimed warm-up; median, min, max of the timed runs; "
                     "results with \"timing\": \"wall-clock\" (the CPU BLAS, the host baseline) have no device: their times are each call's wall time");
}

static json_t *settings_json(const gk_bench_report *r)
{
    const gk_bench_args *a = r->args;
    char trans[3] = {a->trans_a == GEMMKIT_NO_TRANS ? 'N' : 'T', a->trans_b == GEMMKIT_NO_TRANS ? 'N' : 'T', 0};
    json_t *o = settings_fields(a, trans);
    /* Every --params line, in order: runner KERNEL#i ran line i when there are several. */
    json_t *lines = json_array();
    for (int i = 0; o && lines && i < a->param_line_count; i++)
        json_array_append_new(lines, json_string(a->param_lines[i]));
    if (o && lines) json_object_set_new(o, "param_lines", lines);
    else json_decref(lines);
    return o;
}

/* The random:... items of --sizes: seed, whether from the clock, and every shape drawn with its class. */
static json_t *draws_json(const gk_bench_args *a)
{
    json_t *all = json_array();
    for (int i = 0; i < a->draw_count; i++) {
        const gk_bench_draw *d = &a->draws[i];
        json_t *shapes = json_array();
        for (int z = d->first; z < d->first + d->count; z++) {
            const gk_bench_size *s = &a->sizes[z];
            const char trans[3] = {s->trans_a == GEMMKIT_TRANS ? 'T' : 'N', s->trans_b == GEMMKIT_TRANS ? 'T' : 'N', 0};
            json_array_append_new(shapes, json_pack("{s:I, s:I, s:I, s:s, s:s, s:s}", "m", (json_int_t)s->m, "n",
                                                    (json_int_t)s->n, "k", (json_int_t)s->k, "trans", trans, "layout",
                                                    s->layout == GEMMKIT_ROW_MAJOR ? "row" : "col", "class",
                                                    gk_bench_random_class_name(s->drawn - 1)));
        }
        char item[64];
        snprintf(item, sizeof item, "random:%d:%llu", d->count, (unsigned long long)d->seed);
        /* A seed past 2^63 does not fit JSON's integers everywhere: also as text. */
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)d->seed);
        json_array_append_new(all, json_pack("{s:s, s:i, s:s, s:b, s:o}", "item", item, "count", d->count, "seed",
                                             seed, "seed_from_clock", d->seed_from_clock, "shapes", shapes));
    }
    return all;
}

/* Per runner, the geometric mean of its fraction of the roofline over the shapes of at least 2^27 multiply-adds. */
static json_t *roofline_summary_json(const gk_bench_report *report)
{
    gk_bench_roofline_summary s[GK_BENCH_MAX_PAIRS];
    const int n = gk_bench_roofline_summaries(report, s, GK_BENCH_MAX_PAIRS);
    json_t *runners = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(runners, json_pack("{s:s, s:s, s:i, s:o}", "name", s[i].name, "kind", s[i].kind, "shapes",
                                                 s[i].shapes, "geomean_fraction", number(s[i].geomean)));
    return json_pack("{s:s, s:f, s:o}", "about",
                     "geometric mean of fraction_of_roofline (call rate / roofline_gflops) per runner over its shapes "
                     "of at least min_multiply_adds",
                     "min_multiply_adds", GK_BENCH_ROOFLINE_MIN_MACS, "runners", runners);
}

/* How the roofline's bandwidth was measured, or why not. */
static json_t *bandwidth_json(const gk_bench_report *report)
{
    const gk_bench_bandwidth *b = &report->bandwidth;
    json_t *o = json_pack("{s:b, s:s}", "measured", b->measured, "method",
                          "gemmkit_somatcopy_buffers without transpose, device to device, one warm-up then repeat copies; "
                          "copy_gbs = (bytes read + bytes written) / the best device time; roofline_gflops = "
                          "min(peak_gflops, copy_gbs x 2 m n k / (4 (m k + k n + m n)))");
    if (!o) return NULL;
    if (b->measured) {
        json_object_set_new(o, "copy_gbs", number(b->gbs));
        json_object_set_new(o, "bytes", number(b->bytes));
        json_object_set_new(o, "repeat", json_integer(b->repeat));
        json_object_set_new(o, "kernel", text(b->kernel));
    } else {
        json_object_set_new(o, "note", text(b->note));
    }
    return o;
}

/* --candidates: per shape, the default's times and every candidate; the summary. */
static json_t *candidates_json(const gk_bench_candidates *c)
{
    json_t *shapes = json_array();
    for (size_t z = 0; z < c->shape_count; z++) {
        const gk_bench_candidate_shape *shape = &c->shapes[z];
        const char trans[3] = {shape->size.trans_a == GEMMKIT_TRANS ? 'T' : 'N',
                               shape->size.trans_b == GEMMKIT_TRANS ? 'T' : 'N', 0};
        json_t *rows = json_array();
        for (int i = 0; i < shape->count; i++) {
            const gk_bench_candidate_row *row = &c->rows[shape->first + (size_t)i];
            json_t *one = json_pack("{s:i, s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:s, s:b}", "rank", row->rank, "kernel",
                                    row->kernel, "line", row->line, "params", row->params, "splits", row->splits,
                                    "predicted_ms", number(row->predicted_ms), "measured_ms", number(row->measured_ms),
                                    "wall_ms", number(row->wall_ms), "status", gk_bench_status_name(row->status),
                                    "is_default", row->rank == 0);
            if (one) json_object_set_new(one, "message", text(row->message));
            json_array_append_new(rows, one);
        }
        const gk_bench_candidate_row *fastest = gk_bench_candidates_fastest(c, shape);
        json_t *one = json_pack("{s:I, s:I, s:I, s:s, s:s, s:b, s:s, s:o, s:o, s:o, s:o}", "m", (json_int_t)shape->size.m,
                                "n", (json_int_t)shape->size.n, "k", (json_int_t)shape->size.k, "trans", trans, "layout",
                                shape->size.layout == GEMMKIT_ROW_MAJOR ? "row" : "col", "model_chooses",
                                shape->chooses, "default_kernel", shape->default_kernel, "default_ms",
                                number(shape->default_ms), "default_wall_ms", number(shape->default_wall_ms),
                                "fastest_rank", fastest ? json_integer(fastest->rank) : json_null(), "candidates", rows);
        if (one) json_object_set_new(one, "note", text(shape->note));
        if (one) json_object_set_new(one, "default_is_first", json_boolean(shape->chooses && !gk_bench_candidates_mismatch(c, shape)));
        json_array_append_new(shapes, one);
    }
    gk_bench_candidates_summary s;
    gk_bench_candidates_summarize(c, &s);
    json_t *summary = json_pack("{s:i, s:i, s:i, s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:o}", "shapes", s.shapes,
                                "model_chooses", s.chosen, "compared", s.compared, "default_near_fastest", s.near,
                                "near_within", GK_BENCH_NEAR_FASTEST, "candidates", s.candidates, "ok", s.ok, "failed",
                                s.failed, "wrong", s.wrong, "predicted", s.predicted,
                                "geomean_measured_over_predicted", number(s.geomean_measured_over_predicted));
    if (summary) json_object_set_new(summary, "default_not_first", json_integer(s.mismatched));
    if (summary) json_object_set_new(summary, "not_measured", json_integer(s.skipped));
    return json_pack("{s:o, s:o}", "shapes", shapes, "summary", summary);
}

/* The summary after the table: per gemmkit runner and peer, geometric means, shapes below 0.90x, the worst. */
static json_t *summary_json(const gk_bench_report *report)
{
    gk_bench_pair pairs[GK_BENCH_MAX_PAIRS];
    const int n = gk_bench_summaries(report, pairs, GK_BENCH_MAX_PAIRS);
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        const gk_bench_pair *p = &pairs[i];
        const gk_bench_summary *s = &p->summary;
        json_t *worst = json_array();
        for (int w = 0; w < s->worst_count; w++) {
            const gk_bench_record *r = &report->records[p->worst_record[w]];
            json_array_append_new(worst, json_pack("{s:I, s:I, s:I, s:s, s:s, s:o, s:o}", "m", (json_int_t)r->size.m,
                                                   "n", (json_int_t)r->size.n, "k", (json_int_t)r->size.k, "trans",
                                                   r->trans, "layout", r->layout, "ratio_device",
                                                   number(p->worst_device[w]), "ratio_host",
                                                   p->worst_host[w] > 0.0 ? number(p->worst_host[w]) : json_null()));
        }
        json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:f, s:i, s:i, s:o}", "gemmkit",
                                              p->gemmkit, "peer", p->peer, "shapes", s->shapes, "without_both",
                                              p->unpaired, "geomean_ratio_device", number(s->geomean_device),
                                              "geomean_ratio_host", number(s->geomean_host), "slow_below",
                                              GK_BENCH_SLOW_RATIO, "below_device", s->below_device, "below_host",
                                              s->below_host, "worst", worst));
    }
    return json_pack("{s:s, s:o, s:o}", "about",
                     "gemmkit rate / peer rate per shape both measured ok: device = call time (the table's ratios; "
                     "wall clock for the CPU BLAS), host = each call's wall time on the host; geometric means, "
                     "shapes below slow_below, the worst by device ratio",
                     "pairs", list, "roofline", roofline_summary_json(report));
}

static json_t *record_json(const gk_bench_report *report, const gk_bench_record *r)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:s, s:I, s:I, s:I, s:s, s:s, s:s, s:o, s:s, s:i, s:i}", "op", r->op,
                          "name", r->name, "kind", r->kind, "label", text(r->label), "resolved", r->resolved, "m",
                          (json_int_t)r->size.m, "n", (json_int_t)r->size.n, "k", (json_int_t)r->size.k, "layout",
                          r->layout, "trans", r->trans, "status", gk_bench_status_name(r->status), "work",
                          number(r->work), "unit", r->unit, "input_sets", r->sets, "repeat", r->count);
    if (!o) return NULL;
    if (r->batch) {
        json_object_set_new(o, "batch", json_integer((json_int_t)r->batch));
        json_object_set_new(o, "bytes", number(r->bytes));
    }
    json_object_set_new(o, "timing", json_string(r->wall_clock ? "wall-clock" : "device"));
    json_object_set_new(o, "message", text(r->message));
    json_object_set_new(o, "note", text(r->note));
    json_object_set_new(o, "check", json_pack("{s:s, s:b, s:o, s:o, s:I}", "method", r->check, "passed",
                                              r->status == GK_BENCH_OK, "max_error_of_scale", number(r->max_error),
                                              "rms_error_of_scale", r->error_count > 0 ? number(r->rms_error) : json_null(),
                                              "elements", (json_int_t)r->error_count));
    if (r->count > 0) {
        json_object_set_new(o, "kernel_ms", series(r->kernel_ms, r->count));
        json_object_set_new(o, "total_ms", series(r->total_ms, r->count));
        json_object_set_new(o, "host_ms", series(r->host_ms, r->count));
    }
    if (r->status == GK_BENCH_OK) {
        double kernel = gk_bench_rate(r, r->kernel_ms);
        json_object_set_new(o, "rate", json_pack("{s:o, s:o, s:o}", "kernel", number(kernel), "call",
                                                 number(gk_bench_rate(r, r->total_ms)), "host",
                                                 number(gk_bench_rate(r, r->host_ms))));
        const double call_ms = gk_bench_stats_of(r->total_ms, r->count).median;
        if (r->bytes > 0.0 && call_ms > 0.0) json_object_set_new(o, "gbps_moved", number(r->bytes / call_ms * 1e-6));
        if (strcmp(r->unit, "GFLOPS") == 0 && strcmp(r->kind, "baseline") != 0 && report->device.peak_gflops > 0)
            json_object_set_new(o, "fraction_of_peak", number(kernel / report->device.peak_gflops));
        double copy = gk_bench_copy_fraction(report, r);
        if (copy > 0.0) json_object_set_new(o, "fraction_of_copy", number(copy));
        const double bound = gk_bench_roofline_gflops(report, r);
        if (bound > 0.0) {
            json_object_set_new(o, "roofline_gflops", number(bound));
            json_object_set_new(o, "fraction_of_roofline", number(gk_bench_roofline_fraction(report, r)));
        }
        if (strcmp(r->kind, "gemmkit") == 0) {
            json_t *ratios = json_object();
            const char *peers[GK_BENCH_MAX_RUNNERS];
            int n = gk_bench_peer_columns(report, peers, GK_BENCH_MAX_RUNNERS);
            for (int p = 0; p < n; p++) {
                double x = gk_bench_ratio(report, r, peers[p]);
                json_object_set_new(ratios, peers[p], x > 0 ? number(x) : json_null());
            }
            json_object_set_new(o, "ratio_to_peer", ratios);
        }
    }
    return o;
}

static int dump(gk_output_file *out, void *root, char *err, size_t err_size)
{
    if (json_dumpf(root, out->stream, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) == 0) return 0;
    snprintf(err, err_size, "writing failed: %s", strerror(errno));
    return -1;
}

int gk_bench_write_json(const gk_bench_report *report, const char *path, char *err)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_string("gemmkit-bench/1"));
    char tool[64];
    snprintf(tool, sizeof tool, "gemmkit %s", gemmkit_version(NULL, NULL, NULL));
    json_object_set_new(root, "tool", json_string(tool));
    json_object_set_new(root, "title", text(report->title));
    json_object_set_new(root, "date", json_string(report->date));
    json_object_set_new(root, "command_line", text(report->command_line));
    json_object_set_new(root, "seed", json_integer((json_int_t)report->seed));
    json_object_set_new(root, "device", device_json(&report->device));
    json_object_set_new(root, "settings", settings_json(report));
    json_t *settings = json_object_get(root, "settings");
    if (settings) {
        /* --trans and --layout hold for the sizes without their own (96x80x72:TN:row, random:...). */
        json_object_set_new(settings, "per_shape_ops", json_boolean(gk_bench_sizes_own_ops(report->args)));
        json_object_set_new(settings, "random", draws_json(report->args));
    }
    json_t *peers = json_array();
    for (int i = 0; i < report->peer_count; i++) {
        const gk_bench_peer_info *p = &report->peers[i];
        json_array_append_new(peers, json_pack("{s:s, s:s, s:b, s:o}", "name", p->name, "label", p->label, "found",
                                               p->found, "detail", text(p->detail)));
    }
    json_object_set_new(root, "peers", peers);
    if (!report->args || !report->args->transpose) json_object_set_new(root, "roofline", bandwidth_json(report));
    json_t *results = json_array();
    int packed = 1;
    for (size_t i = 0; i < report->count; i++) {
        json_t *one = record_json(report, &report->records[i]);
        packed &= one != NULL;
        json_array_append_new(results, one);
    }
    json_object_set_new(root, "results", results);
    json_object_set_new(root, "summary", summary_json(report));
    if (report->candidates) json_object_set_new(root, "candidates", candidates_json(report->candidates));
    if (!packed || (report->candidates && !json_object_get(root, "candidates")) ||
        ((!report->args || !report->args->transpose) && !json_object_get(root, "roofline")) ||
        !json_object_get(root, "device") || !json_object_get(root, "settings") || !json_object_get(root, "summary")) {
        json_decref(root);
        snprintf(err, GK_BENCH_ERR, "internal error: a JSON value could not be built");
        return -1;
    }
    int rc = gk_output_write(path, dump, root, err, GK_BENCH_ERR);
    json_decref(root);
    return rc;
}

#else

int gk_bench_write_json(const gk_bench_report *report, const char *path, char *err)
{
    (void)report;
    snprintf(err, GK_BENCH_ERR, "this gemmkit was built without jansson (libjansson-dev): cannot write %s", path);
    return -1;
}

#endif
