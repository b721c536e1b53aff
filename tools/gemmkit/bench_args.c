/* `gemmkit bench` arguments: options, size lists and sweeps, with a clear
 * message (and exit status 2) for anything malformed. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"

/* The API's 2^31-1 (issue 34's operands past 4 GiB); products of sizes are taken in double. */
#define MAX_DIM 2147483647

void gk_bench_usage(FILE *out)
{
    fprintf(out,
            "usage: gemmkit bench [options]\n"
            "  --kernel NAME|all|best  a registry SGEMM kernel, every one in ladder order, or the\n"
            "                          kernel the public SGEMM dispatches to (default: best);\n"
            "                          --transpose: one transpose/copy kernel (beside copy-fast),\n"
            "                          every one and the library's choice (all, the default),\n"
            "                          or the library's choice per shape beside copy-fast (best)\n"
            "  --params P=V,...        parameter overrides for --kernel NAME; given again (up to 16),\n"
            "                          one runner per line on the same inputs, NAME#1, NAME#2, ...\n"
            "                          (SGEMM and --batch, not --transpose)\n"
            "  --math MODE             the library's math mode: " GK_CLI_MATH_HELP ";\n"
            "                          best runs that mode's kernel, named kernels their own mode;\n"
            "                          cublas-tf32 is the TF32 peer (docs/MATH.md)\n"
            "  --inputs uniform|wide   random inputs in [-1, 1) (uniform, the default), or those with\n"
            "                          every row and column of A and B scaled by 2^e, e uniform in\n"
            "                          -20..20 (wide: the issue-14 dynamic range; SGEMM only)\n"
            "  --sizes LIST            comma-separated: 1024 (square), 1000x3x77 (MxNxK; with\n"
            "                          --transpose 5001x3007, rows x cols), 1024:16384:x2 (x2\n"
            "                          steps), 256:2048:+256 (+256 steps: a sweep for cliffs),\n"
            "                          or a preset (below); N and MxNxK may name their own\n"
            "                          transposes and layout: 96x80x72:TN:row, 1024:NT, 500x7x9:col\n"
            "  --sizes random:COUNT[:SEED]  COUNT (1-%d) shapes drawn from six classes (square-ish,\n"
            "                          one short edge, small C long K, large C short K, transformer\n"
            "                          projections, odd middle sizes; docs/BENCHMARK.md), each with\n"
            "                          its own transposes and layout, A+B+C <= 8 GiB; run by rising\n"
            "                          work; the same SEED gives the same shapes everywhere; without\n"
            "                          one, a seed from the clock, printed in the header\n"
            "  --layout row|col        storage order (default col) of sizes without their own\n"
            "  --trans NN|NT|TN|TT     op(A) and op(B) (default NN) of sizes without their own\n"
            "  --batch N               strided batched SGEMM: N tight matrices of each size per call\n"
            "                          (gemmkit_sgemm_strided_batched; peers cublasSgemmStridedBatched,\n"
            "                          CLBlastSgemmStridedBatched); GFLOPS, and GB/s moved in the\n"
            "                          note (bench/batched.sh: issue 16's table)\n"
            "  --repeat N              timed runs after one warm-up (default 5)\n"
            "  --sets N                input sets rotated over the runs (default 3 when A+B+C\n"
            "                          take < 256 MiB, else 1)\n"
            "  --max-time SECONDS      time per measurement: fewer timed runs (at least one) once\n"
            "                          spent, and a size skipped when the previous one predicts\n"
            "                          more (default 20)\n"
            "  --json FILE             every result and sample as JSON\n"
            "  --csv FILE              one row per sample as CSV\n"
            "  --plot FILE.png         GFLOPS against size per kernel and peer (gnuplot)\n"
            "  --peers [LIST] | --no-peers  run the peers beside gemmkit when found (default on):\n"
            "                          cuBLAS, CLBlast and, on CPU devices, the CPU BLAS; LIST\n"
            "                          picks some of " GK_BENCH_PEER_NAMES " (cpublas on GPUs too)\n"
            "  --baseline | --no-baseline  time the sequential C triple loop on the host (default on)\n"
            "  --roofline | --no-roofline  measure the device's copy bandwidth first (a device-to-device\n"
            "                          copy of 256 MiB, 16 MiB on CPU devices; default on) for %%roof:\n"
            "                          call GFLOPS / min(fp32 peak, bandwidth x flops per byte)\n"
            "  --candidates            per shape, also time every candidate of the cost model (each\n"
            "                          kernel, tuned line and split count it weighs) by name, beside\n"
            "                          the default call: fastest, default/fastest, the model's\n"
            "                          measured/predicted (SGEMM, --kernel best)\n"
            "  --candidates-out FILE.tsv  with --candidates: one row per candidate (shape, kernel, line,\n"
            "                          splits, predicted, measured and wall ms, status, is_default),\n"
            "                          rewritten after each shape (a run cut short keeps those timed)\n"
            "  --transpose             B = A^T and B = A (copy) in GB/s instead of SGEMM; default\n"
            "                          sizes: GPU 4000,4096,8192,16384,5001x3007; CPU 1024,1000x777\n"
            "  --quiet                 no progress on stderr\n"
            "  --list-sizes            print the SGEMM shapes --sizes names (random draws expanded), one\n"
            "                          MxNxK:TT:layout a line, in the order they would run; time nothing\n"
            "With peers and 2 shapes or more, a summary follows the table: per gemmkit runner and\n"
            "peer, the geometric mean of gemmkit/peer speed in call time and in host wall time, the\n"
            "shapes below 0.90x and the 5 worst; with 2 shapes or more, each runner's geometric mean\n"
            "of %%roof over the shapes of at least 2^27 multiply-adds.\n"
            "Size presets (--sizes NAME, mixed with other items):\n", GK_BENCH_RANDOM_MAX);
    for (int i = 0; gk_bench_preset_at(i); i++) {
        const gk_bench_preset *p = gk_bench_preset_at(i);
        fprintf(out, "  %-23s %d shapes: %s\n", p->name, p->count, p->summary);
    }
    fprintf(out, "Exit status: 0 all results correct, 1 a result was wrong or a run failed, 2 bad usage.\n");
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gk_cli_usage_errorv("bench", fmt, ap);
    va_end(ap);
    return GK_EXIT_USAGE;
}

void gk_bench_args_default(gk_bench_args *args)
{
    memset(args, 0, sizeof *args);
    args->kernel = "best"; /* "all" with --transpose, unless --kernel says otherwise */
    args->layout = GEMMKIT_COL_MAJOR;
    args->trans_a = args->trans_b = GEMMKIT_NO_TRANS;
    args->repeat = 5;
    args->max_seconds = 20.0;
    args->peers = 1;
    args->baseline = 1;
    args->roofline = 1;
}

/* A positive integer of at most `max`, the whole of [p, end). */
static int parse_dim(const char *p, const char *end, int64_t max, int64_t *out)
{
    if (p == end || !isdigit((unsigned char)*p)) return -1;
    int64_t v = 0;
    for (; p < end; p++) {
        if (!isdigit((unsigned char)*p)) return -1;
        v = v * 10 + (*p - '0');
        if (v > max) return -1;
    }
    if (v < 1) return -1;
    *out = v;
    return 0;
}

static int add_size(gk_bench_size *sizes, int max, int *count, int64_t m, int64_t n, int64_t k, char *err)
{
    if (*count >= max) {
        snprintf(err, GK_BENCH_ERR, "more than %d sizes", max);
        return -1;
    }
    sizes[(*count)++] = (gk_bench_size){.m = m, .n = n, .k = k};
    return 0;
}

static int has_digit(const char *p, int len)
{
    for (int i = 0; i < len; i++)
        if (isdigit((unsigned char)p[i])) return 1;
    return 0;
}

/* "sweep, sweep-cpu" */
static const char *preset_names(void)
{
    static char names[GK_BENCH_ERR];
    size_t used = 0;
    names[0] = 0;
    for (int i = 0; gk_bench_preset_at(i) && used < sizeof names; i++) {
        const gk_bench_preset *p = gk_bench_preset_at(i);
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", p->name);
    }
    return names;
}

/* "A:B:xF" or "A:B:+D": A, then steps while <= B. */
static int parse_sweep(const char *item, const char *end, gk_bench_size *sizes, int max, int *count, char *err)
{
    const char *c1 = memchr(item, ':', (size_t)(end - item));
    const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
    int64_t first, last, step;
    int len = (int)(end - item);
    if (!c2 || parse_dim(item, c1, MAX_DIM, &first) || parse_dim(c1 + 1, c2, MAX_DIM, &last) || c2 + 1 >= end ||
        (c2[1] != 'x' && c2[1] != '+') || parse_dim(c2 + 2, end, MAX_DIM, &step)) {
        snprintf(err, GK_BENCH_ERR,
                 "bad sweep \"%.*s\": want FIRST:LAST:xFACTOR or FIRST:LAST:+STEP with positive integers up to %d",
                 len, item, MAX_DIM);
        return -1;
    }
    int geometric = c2[1] == 'x';
    if (first > last) {
        snprintf(err, GK_BENCH_ERR, "bad sweep \"%.*s\": FIRST %lld is larger than LAST %lld", len, item,
                 (long long)first, (long long)last);
        return -1;
    }
    if (geometric && step < 2) {
        snprintf(err, GK_BENCH_ERR, "bad sweep \"%.*s\": the factor must be at least 2", len, item);
        return -1;
    }
    for (int64_t v = first; v <= last; v = geometric ? v * step : v + step)
        if (add_size(sizes, max, count, v, v, v, err)) return -1;
    return 0;
}

/* "NN".."TT" into a and b; 0, or -1 when text (len bytes) is not a transposes pair. */
static int trans_pair(const char *text, size_t len, gemmkit_transpose *a, gemmkit_transpose *b)
{
    if (len != 2) return -1;
    gemmkit_transpose t[2];
    for (int i = 0; i < 2; i++) {
        char c = (char)toupper((unsigned char)text[i]);
        if (c != 'N' && c != 'T') return -1;
        t[i] = c == 'N' ? GEMMKIT_NO_TRANS : GEMMKIT_TRANS;
    }
    *a = t[0];
    *b = t[1];
    return 0;
}

/* A shape's own ":TN", ":row", ":TN:row" (the text after its first ':'), each part once. 0, or -1 with err. */
static int parse_shape_ops(const char *item, int len, const char *ops, const char *end, gk_bench_size *z, char *err)
{
    for (const char *p = ops; p < end;) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *stop = colon ? colon : end;
        const size_t part = (size_t)(stop - p);
        gemmkit_transpose a, b;
        if (!z->trans_a && trans_pair(p, part, &a, &b) == 0) {
            z->trans_a = a;
            z->trans_b = b;
        } else if (!z->layout && part == 3 && strncasecmp(p, "row", 3) == 0) {
            z->layout = GEMMKIT_ROW_MAJOR;
        } else if (!z->layout && part == 3 && strncasecmp(p, "col", 3) == 0) {
            z->layout = GEMMKIT_COL_MAJOR;
        } else {
            snprintf(err, GK_BENCH_ERR,
                     "bad size \"%.*s\": after the shape, :NN, :NT, :TN or :TT (op(A) op(B)) and/or :row or :col, "
                     "each once (e.g. 96x80x72:TN:row)", len, item);
            return -1;
        }
        p = colon ? colon + 1 : end;
    }
    return 0;
}

/* A sweep "A:B:..." has a digit after its first ':'; a shape's own transposes and layout ("96x80x72:TN") a letter. */
static int is_sweep(const char *item, const char *end)
{
    const char *colon = memchr(item, ':', (size_t)(end - item));
    return colon && (colon + 1 == end || isdigit((unsigned char)colon[1]));
}

/* N (square), MxNxK, or RxC (transposes: k = 0; gk_bench_parse_args checks which fits), each with its
 * own :TN / :row when given. 0, or -1 with err. */
static int parse_shape(const char *item, const char *end, gk_bench_size *sizes, int max, int *count, char *err)
{
    const int len = (int)(end - item);
    const char *colon = memchr(item, ':', (size_t)len);
    const char *shape_end = colon ? colon : end;
    const char *x1 = memchr(item, 'x', (size_t)(shape_end - item));
    int64_t m, n, k = 0;
    if (x1) {
        const char *x2 = memchr(x1 + 1, 'x', (size_t)(shape_end - x1 - 1));
        if (parse_dim(item, x1, MAX_DIM, &m) || parse_dim(x1 + 1, x2 ? x2 : shape_end, MAX_DIM, &n) ||
            (x2 && parse_dim(x2 + 1, shape_end, MAX_DIM, &k))) {
            snprintf(err, GK_BENCH_ERR,
                     "bad size \"%.*s\": want MxNxK (or RxC for --transpose) with positive integers up to %d", len,
                     item, MAX_DIM);
            return -1;
        }
    } else {
        if (parse_dim(item, shape_end, MAX_DIM, &m)) {
            snprintf(err, GK_BENCH_ERR, "bad size \"%.*s\": want a positive integer up to %d", len, item, MAX_DIM);
            return -1;
        }
        n = k = m;
    }
    gk_bench_size z = {.m = m, .n = n, .k = k};
    if ((colon && parse_shape_ops(item, len, colon + 1, end, &z, err)) || add_size(sizes, max, count, m, n, k, err))
        return -1;
    sizes[*count - 1] = z;
    return 0;
}

/* Less work (M N K) first. */
static int compare_work(const void *a, const void *b)
{
    const gk_bench_size *x = a, *y = b;
    const double wx = (double)x->m * (double)x->n * (double)x->k, wy = (double)y->m * (double)y->n * (double)y->k;
    return (wx > wy) - (wx < wy);
}

/* "random:COUNT[:SEED]": COUNT shapes of gk_bench_random_shapes, by rising work so that --max-time's
 * prediction (a runner's last size) skips the slow ones instead of running them. 0, or -1 with err. */
static int parse_random(const char *item, int len, gk_bench_size *sizes, int max, int *count, gk_bench_draw *draws,
                        int *draw_count, char *err)
{
    const char *end = item + len, *count_text = item + (len > 7 ? 7 : len); /* after "random:" */
    const char *colon = memchr(count_text, ':', (size_t)(end - count_text));
    int64_t n;
    if (len < 8 || item[6] != ':' || parse_dim(count_text, colon ? colon : end, GK_BENCH_RANDOM_MAX, &n)) {
        snprintf(err, GK_BENCH_ERR, "bad random shapes \"%.*s\": want random:COUNT[:SEED], COUNT an integer from 1 to %d",
                 len, item, GK_BENCH_RANDOM_MAX);
        return -1;
    }
    uint64_t seed = 0;
    int from_clock = !colon;
    if (colon) {
        const char *p = colon + 1;
        int bad = p == end; /* empty, not a digit, or past 2^64-1 */
        for (; p < end && !bad; p++) {
            bad = !isdigit((unsigned char)*p) || seed > (UINT64_MAX - (uint64_t)(*p - '0')) / 10;
            if (!bad) seed = seed * 10 + (uint64_t)(*p - '0');
        }
        if (bad) {
            snprintf(err, GK_BENCH_ERR, "bad random shapes \"%.*s\": SEED must be an integer from 0 to %llu",
                     len, item, (unsigned long long)UINT64_MAX);
            return -1;
        }
    } else {
        seed = gk_bench_random_clock_seed();
    }
    if (*count + n > max) {
        snprintf(err, GK_BENCH_ERR, "more than %d sizes", max);
        return -1;
    }
    if (draws && *draw_count >= GK_BENCH_MAX_DRAWS) {
        snprintf(err, GK_BENCH_ERR, "more than %d random:... items", GK_BENCH_MAX_DRAWS);
        return -1;
    }
    gk_bench_size *drawn = sizes + *count;
    if (gk_bench_random_shapes(seed, (int)n, drawn)) return -1; /* n was checked above */
    /* A stable order: insertion sort (qsort is not stable, and n is at most 1000). */
    for (int i = 1; i < (int)n; i++)
        for (int j = i; j > 0 && compare_work(&drawn[j - 1], &drawn[j]) > 0; j--) {
            const gk_bench_size t = drawn[j];
            drawn[j] = drawn[j - 1];
            drawn[j - 1] = t;
        }
    if (draws) draws[(*draw_count)++] = (gk_bench_draw){*count, (int)n, seed, from_clock};
    *count += (int)n;
    return 0;
}

int gk_bench_parse_sizes(const char *text, gk_bench_size *sizes, int max, int *count, gk_bench_draw *draws,
                         int *draw_count, char *err)
{
    *count = 0;
    int ignored = 0;
    if (!draw_count) draw_count = &ignored;
    *draw_count = 0;
    if (!text || !*text) {
        snprintf(err, GK_BENCH_ERR, "empty size list");
        return -1;
    }
    for (const char *item = text;;) {
        const char *end = strchr(item, ',');
        if (!end) end = item + strlen(item);
        int len = (int)(end - item);
        if (len == 0) {
            snprintf(err, GK_BENCH_ERR, "empty item in size list \"%s\"", text);
            return -1;
        }
        if (len >= 6 && strncmp(item, "random", 6) == 0) {
            if (parse_random(item, len, sizes, max, count, draws, draw_count, err)) return -1;
        } else if (!has_digit(item, len)) {
            /* No digit: a preset's name. */
            const gk_bench_preset *p = gk_bench_preset_find(item, (size_t)len);
            if (!p) {
                snprintf(err, GK_BENCH_ERR, "unknown size preset \"%.*s\" (presets: %s)", len, item,
                         preset_names());
                return -1;
            }
            for (int i = 0; i < p->count; i++)
                if (add_size(sizes, max, count, p->sizes[i].m, p->sizes[i].n, p->sizes[i].k, err)) return -1;
        } else if (is_sweep(item, end)) {
            if (parse_sweep(item, end, sizes, max, count, err)) return -1;
        } else {
            if (parse_shape(item, end, sizes, max, count, err)) return -1;
        }
        if (!*end) break;
        item = end + 1;
    }
    return 0;
}

static int parse_trans(const char *text, gk_bench_args *args)
{
    return trans_pair(text, strlen(text), &args->trans_a, &args->trans_b);
}

/* Options that take a value; the value must not look like another option. */
static const char *const valued[] = {"--kernel", "--params", "--sizes",    "--layout", "--trans", "--repeat",
                                     "--sets",   "--json",   "--csv",      "--plot",   "--max-time", "--batch",
                                     "--math",   "--inputs", "--candidates-out"};

static int takes_value(const char *opt)
{
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (strcmp(opt, valued[i]) == 0) return 1;
    return 0;
}

/* --peers LIST: known names, none empty. 0, or -1 with a message in err. */
static int check_peer_list(const char *list, char *err)
{
    static const char *const names[] = {"cublas", "clblast", "cpublas"};
    for (const char *p = list;; p++) {
        const size_t len = strcspn(p, ",");
        int known = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            known |= strlen(names[i]) == len && strncmp(p, names[i], len) == 0;
        if (!known) {
            snprintf(err, GK_BENCH_ERR, "unknown peer \"%.*s\" (peers: %s)", (int)(len < 64 ? len : 64), p,
                     GK_BENCH_PEER_NAMES);
            return -1;
        }
        p += len;
        if (!*p) return 0;
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcasecmp(s + ls - lx, suffix) == 0;
}

int gk_bench_parse_args(int argc, char **argv, gk_bench_args *args)
{
    gk_bench_args_default(args);
    int kernel_given = 0;
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            gk_bench_usage(stdout);
            return -1;
        }
        const char *value = NULL;
        if (takes_value(opt)) {
            if (i + 1 >= argc || (argv[i + 1][0] == '-' && argv[i + 1][1] == '-'))
                return usage_error("%s needs a value", opt);
            value = argv[++i];
            if (!*value) return usage_error("%s needs a non-empty value", opt);
        }
        long v;
        char err[GK_BENCH_ERR];
        if (strcmp(opt, "--kernel") == 0) {
            args->kernel = value;
            kernel_given = 1;
        } else if (strcmp(opt, "--params") == 0) {
            if (args->param_line_count == GK_BENCH_MAX_PARAM_LINES)
                return usage_error("--params at most %d times", GK_BENCH_MAX_PARAM_LINES);
            args->param_lines[args->param_line_count++] = value;
            args->params = args->param_lines[0];
        } else if (strcmp(opt, "--math") == 0) {
            if (gk_cli_parse_math(value, &args->math))
                return usage_error("--math must be fp32, 3xtf32, tf32 or int8x, not \"%s\"", value);
        } else if (strcmp(opt, "--inputs") == 0) {
            if (strcmp(value, "uniform") == 0) args->wide_inputs = 0;
            else if (strcmp(value, "wide") == 0) args->wide_inputs = 1;
            else return usage_error("--inputs must be uniform or wide, not \"%s\"", value);
        } else if (strcmp(opt, "--sizes") == 0) {
            if (gk_bench_parse_sizes(value, args->sizes, GK_BENCH_MAX_SIZES, &args->size_count, args->draws,
                                     &args->draw_count, err))
                return usage_error("--sizes: %s", err);
            args->preset = gk_bench_presets_named(value);
        } else if (strcmp(opt, "--layout") == 0) {
            if (strcasecmp(value, "row") == 0) args->layout = GEMMKIT_ROW_MAJOR;
            else if (strcasecmp(value, "col") == 0) args->layout = GEMMKIT_COL_MAJOR;
            else return usage_error("--layout must be row or col, not \"%s\"", value);
        } else if (strcmp(opt, "--trans") == 0) {
            if (parse_trans(value, args)) return usage_error("--trans must be NN, NT, TN or TT, not \"%s\"", value);
        } else if (strcmp(opt, "--repeat") == 0) {
            if (gk_cli_parse_int(value, 1, 10000, &v)) return usage_error("--repeat must be an integer from 1 to 10000, not \"%s\"", value);
            args->repeat = (int)v;
        } else if (strcmp(opt, "--batch") == 0) {
            if (gk_cli_parse_int(value, 1, 10000000, &v))
                return usage_error("--batch must be an integer from 1 to 10000000, not \"%s\"", value);
            args->batch = v;
        } else if (strcmp(opt, "--sets") == 0) {
            if (gk_cli_parse_int(value, 1, GK_BENCH_MAX_SETS, &v))
                return usage_error("--sets must be an integer from 1 to %d, not \"%s\"", GK_BENCH_MAX_SETS, value);
            args->sets = (int)v;
        } else if (strcmp(opt, "--max-time") == 0) {
            char *end = NULL;
            double s = strtod(value, &end);
            if (end == value || *end || !(s > 0.0) || s > 1e6)
                return usage_error("--max-time must be a positive number of seconds, not \"%s\"", value);
            args->max_seconds = s;
        } else if (strcmp(opt, "--json") == 0) {
            args->json_path = value;
        } else if (strcmp(opt, "--csv") == 0) {
            args->csv_path = value;
        } else if (strcmp(opt, "--plot") == 0) {
            if (!ends_with(value, ".png")) return usage_error("--plot writes a PNG image: the file name must end in .png, not \"%s\"", value);
            args->plot_path = value;
        } else if (strcmp(opt, "--peers") == 0) {
            args->peers = 1;
            args->peer_list = NULL;
            /* An optional LIST: bench takes no other word that is not an option. */
            if (i + 1 < argc && argv[i + 1][0] != '-') {
                if (check_peer_list(argv[i + 1], err)) return usage_error("--peers: %s", err);
                args->peer_list = argv[++i];
            }
        } else if (strcmp(opt, "--no-peers") == 0) {
            args->peers = 0;
            args->peer_list = NULL;
        } else if (strcmp(opt, "--baseline") == 0) {
            args->baseline = 1;
        } else if (strcmp(opt, "--no-baseline") == 0) {
            args->baseline = 0;
        } else if (strcmp(opt, "--roofline") == 0) {
            args->roofline = 1;
        } else if (strcmp(opt, "--no-roofline") == 0) {
            args->roofline = 0;
        } else if (strcmp(opt, "--candidates") == 0) {
            args->candidates = 1;
        } else if (strcmp(opt, "--candidates-out") == 0) {
            args->candidates_out = value;
        } else if (strcmp(opt, "--quiet") == 0) {
            args->quiet = 1;
        } else if (strcmp(opt, "--list-sizes") == 0) {
            args->list_sizes = 1;
        } else if (strcmp(opt, "--transpose") == 0) {
            args->transpose = 1;
        } else {
            return usage_error("unknown option \"%s\"", opt);
        }
    }
    if (args->transpose && !kernel_given) args->kernel = "all";
    if (args->params && (strcmp(args->kernel, "all") == 0 || strcmp(args->kernel, "best") == 0))
        return usage_error("--params needs one named kernel (--kernel NAME), not \"%s\"", args->kernel);
    if (args->transpose && args->param_line_count > 1)
        return usage_error("--params once with --transpose (several lines side by side are for SGEMM)");
    if (args->transpose && args->batch) return usage_error("--batch is for SGEMM, not --transpose");
    /* Scaled inputs test SGEMM's accumulation; a transpose is exact on any values. */
    if (args->wide_inputs && (args->transpose || args->batch))
        return usage_error("--inputs wide is for plain SGEMM, not %s", args->transpose ? "--transpose" : "--batch");
    if (args->draw_count && (args->transpose || args->batch))
        return usage_error("--sizes random:...: shapes for plain SGEMM, not for %s",
                           args->transpose ? "--transpose" : "--batch");
    if (args->candidates_out && !args->candidates) return usage_error("--candidates-out needs --candidates");
    if (args->list_sizes && (args->transpose || args->size_count == 0 || args->preset))
        return usage_error("--list-sizes lists the SGEMM shapes of --sizes (N, MxNxK or random:...), not %s",
                           args->transpose ? "--transpose" : args->preset ? "a preset" : "the default sizes");
    /* The candidates are the library's ways of running plain SGEMM: beside its own choice, not a named kernel's. */
    if (args->candidates && (args->transpose || args->batch))
        return usage_error("--candidates: the cost model's candidates are for plain SGEMM, not %s",
                           args->transpose ? "--transpose" : "--batch");
    if (args->candidates && strcmp(args->kernel, "best") != 0)
        return usage_error("--candidates times the candidates beside the library's choice: --kernel best, not \"%s\"",
                           args->kernel);
    if (args->transpose && args->preset)
        return usage_error("--sizes %s: an SGEMM preset (MxNxK shapes), not for --transpose", args->preset->name);
    /* Transposes take N (square) or RxC; SGEMM takes N or MxNxK. */
    for (int i = 0; i < args->size_count; i++) {
        gk_bench_size *z = &args->sizes[i];
        if (args->transpose && z->k && (z->m != z->n || z->n != z->k))
            return usage_error("--transpose: sizes are N or RxC (rows x cols), not %lldx%lldx%lld", (long long)z->m,
                               (long long)z->n, (long long)z->k);
        if (args->transpose && (z->trans_a || z->layout))
            return usage_error("--transpose: sizes are N or RxC without :TN or :row (--layout sets the layout)");
        if (args->transpose) z->k = 0;
        else if (z->k == 0)
            return usage_error("--sizes: %lldx%lld is a transpose size (RxC, with --transpose); SGEMM sizes are N "
                               "or MxNxK", (long long)z->m, (long long)z->n);
    }
    return 0;
}

gk_bench_size gk_bench_size_resolve(const gk_bench_args *args, const gk_bench_size *size)
{
    gk_bench_size z = *size;
    if (!z.trans_a) {
        z.trans_a = args->trans_a;
        z.trans_b = args->trans_b;
    }
    if (!z.layout) z.layout = args->layout;
    return z;
}

int gk_bench_sizes_own_ops(const gk_bench_args *args)
{
    for (int i = 0; i < args->size_count; i++)
        if (args->sizes[i].trans_a || args->sizes[i].layout) return 1;
    return 0;
}

void gk_bench_size_text(const gk_bench_size *s, char *text, size_t len)
{
    if (s->k == 0) snprintf(text, len, "%lldx%lld", (long long)s->m, (long long)s->n);
    else if (s->m == s->n && s->n == s->k) snprintf(text, len, "%lld", (long long)s->m);
    else snprintf(text, len, "%lldx%lldx%lld", (long long)s->m, (long long)s->n, (long long)s->k);
}
