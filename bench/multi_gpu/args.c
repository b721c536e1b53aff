/* The options of bench/multi_gpu.c: every value checked whole, a clear
 * reason for each refusal (the caller exits with 2). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "cli.h"
#include "multi_gpu.h"

void mg_usage(FILE *out)
{
    fputs("usage: multi_gpu [OPTION...]\n"
          "Times SGEMM C = A*B (column-major, n x n x n, beta = 0) on host arrays: gemmkit on a context\n"
          "per selector, cuBLASXt on the same arrays, and one device's device-resident rate; each result\n"
          "is checked on sampled elements against a float64 dot product (WRONG instead of a speed).\n"
          "  --n N              size (default 32768)\n"
          "  --repeat R         timed calls after the warm-up; the median is reported (default 3)\n"
          "  --warmup N         size of the untimed first call: N = n (default), smaller (it builds the\n"
          "                     kernels and cuBLASXt's handles), or 0 for none\n"
          "  --devices LIST     gemmkit selectors, separated by spaces (the option may repeat), each\n"
          "                     [cuda:|opencl:]SELECTOR as GEMMKIT_DEVICE takes it: \"0\", \"all\", \"0,1\",\n"
          "                     \"H200\"; no prefix: GEMMKIT_BACKEND's backend (default \"0 all\")\n"
          "  --xt LIST          cuBLASXt device sets, CUDA ids, separated by spaces (\"0 0,1\"); default:\n"
          "                     devices 0..k-1 for each device count k of --devices\n"
          "  --block B          cuBLASXt block dimension (default 4096)\n"
          "  --memory KIND      pinned, pageable or both (default both): how the host arrays are allocated\n"
          "                     (pinned: cudaHostAlloc, portable; pageable: malloc)\n"
          "  --peers LIST       cublasxt,resident (default), cublasxt, resident or none; resident: gemmkit\n"
          "                     (gemmkit_sgemm_buffers) and cuBLAS on one device, data already there\n"
          "  --budget SECONDS   stop repeating, and skip runners, once the time is spent or a runner's\n"
          "                     calls would overrun it (default 0: no budget)\n"
          "  --samples S        elements of C checked per result (default 64)\n"
          "  --threads T        host threads filling the arrays (default: every core)\n"
          "  --seed S           inputs' seed (default: GEMMKIT_SEED, else the clock)\n"
          "  --tsv FILE         the rows, tab-separated, rewritten after each one\n"
          "Exit status: 0 all results right, 1 a result WRONG or a run FAILED, 2 bad usage.\n",
          out);
}

static int refuse(char *err, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(err, size, format, args);
    va_end(args);
    return 2;
}

static int add_entry(mg_options *o, const char *text, char *err, size_t size)
{
    if (o->entry_count == MG_MAX_ENTRIES) return refuse(err, size, "--devices: at most %d selectors", MG_MAX_ENTRIES);
    mg_entry *e = &o->entries[o->entry_count];
    memset(e, 0, sizeof *e);
    if (strlen(text) >= sizeof e->text) return refuse(err, size, "--devices: selector \"%.40s...\" is too long", text);
    snprintf(e->text, sizeof e->text, "%s", text);
    const char *sel = text;
    if (strncasecmp(text, "cuda:", 5) == 0) e->backend = GEMMKIT_BACKEND_CUDA, sel = text + 5;
    else if (strncasecmp(text, "opencl:", 7) == 0) e->backend = GEMMKIT_BACKEND_OPENCL, sel = text + 7;
    else e->backend = GEMMKIT_BACKEND_DEFAULT;
    if (!*sel) return refuse(err, size, "--devices: \"%s\" has no selector after the backend", text);
    snprintf(e->selector, sizeof e->selector, "%s", sel);
    o->entry_count++;
    return 0;
}

int mg_parse_xt_set(const char *text, mg_xt_set *set)
{
    memset(set, 0, sizeof *set);
    const char *p = text;
    while (*p) {
        char item[32];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof item || set->count == MG_MAX_IDS) return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        long id;
        if (gk_cli_parse_int(item, 0, 1023, &id)) return -1;
        for (int i = 0; i < set->count; i++)
            if (set->ids[i] == id) return -1; /* a device twice */
        set->ids[set->count++] = (int)id;
        p += len;
        if (*p == ',' && !*++p) return -1; /* a trailing comma */
    }
    return set->count > 0 ? 0 : -1;
}

/* Calls add(o, word) for each space-separated word of text; 2 on the first refusal. */
static int each_word(mg_options *o, const char *option, const char *text, char *err, size_t size,
                     int (*add)(mg_options *, const char *, char *, size_t))
{
    char copy[1024];
    if (strlen(text) >= sizeof copy) return refuse(err, size, "%s: the list is too long", option);
    snprintf(copy, sizeof copy, "%s", text);
    int words = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), words++)
        if (add(o, w, err, size)) return 2;
    return words ? 0 : refuse(err, size, "%s: the list is empty", option);
}

static int add_xt(mg_options *o, const char *text, char *err, size_t size)
{
    if (o->xt_count == MG_MAX_ENTRIES) return refuse(err, size, "--xt: at most %d device sets", MG_MAX_ENTRIES);
    if (mg_parse_xt_set(text, &o->xt[o->xt_count]))
        return refuse(err, size, "--xt: \"%s\" is not a list of distinct CUDA device ids (\"0\", \"0,1\")", text);
    o->xt_count++;
    return 0;
}

static int parse_peers(mg_options *o, const char *text, char *err, size_t size)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    o->cublasxt = o->resident = 0;
    int none = 0, words = 0;
    for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save), words++) {
        if (strcmp(w, "cublasxt") == 0) o->cublasxt = 1;
        else if (strcmp(w, "resident") == 0) o->resident = 1;
        else if (strcmp(w, "none") == 0) none = 1;
        else return refuse(err, size, "--peers: \"%s\" is not cublasxt, resident or none", w);
    }
    if (!words) return refuse(err, size, "--peers: the list is empty");
    if (none && (o->cublasxt || o->resident)) return refuse(err, size, "--peers: none with something else");
    return 0;
}

int mg_parse_args(int argc, char **argv, mg_options *o, char *err, size_t size)
{
    memset(o, 0, sizeof *o);
    o->n = 32768;
    o->repeat = 3;
    o->warmup = -1; /* n */
    o->block = 4096;
    o->memory = MG_MEM_PINNED | MG_MEM_PAGEABLE;
    o->cublasxt = o->resident = 1;
    o->samples = 64;
    o->seed = gk_rng_fresh_seed();
    int devices_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            mg_usage(stdout);
            return 1;
        }
        if (strncmp(opt, "--", 2) != 0) return refuse(err, size, "unexpected argument \"%s\"", opt);
        if (i + 1 >= argc) return refuse(err, size, "%s needs a value", opt);
        const char *v = argv[++i];
        long x;
        if (strcmp(opt, "--n") == 0) {
            if (gk_cli_parse_int(v, 1, 2147483647L, &x)) return refuse(err, size, "--n: \"%s\" is not a size >= 1", v);
            o->n = x;
        } else if (strcmp(opt, "--repeat") == 0) {
            if (gk_cli_parse_int(v, 1, 1000, &x)) return refuse(err, size, "--repeat: \"%s\" is not in 1..1000", v);
            o->repeat = (int)x;
        } else if (strcmp(opt, "--warmup") == 0) {
            if (gk_cli_parse_int(v, 0, 2147483647L, &x)) return refuse(err, size, "--warmup: \"%s\" is not a size >= 0", v);
            o->warmup = x;
        } else if (strcmp(opt, "--block") == 0) {
            if (gk_cli_parse_int(v, 1, 1 << 20, &x)) return refuse(err, size, "--block: \"%s\" is not in 1..1048576", v);
            o->block = (int)x;
        } else if (strcmp(opt, "--devices") == 0) {
            if (!devices_given++) o->entry_count = 0;
            if (each_word(o, "--devices", v, err, size, add_entry)) return 2;
        } else if (strcmp(opt, "--xt") == 0) {
            if (each_word(o, "--xt", v, err, size, add_xt)) return 2;
        } else if (strcmp(opt, "--memory") == 0) {
            if (strcmp(v, "pinned") == 0) o->memory = MG_MEM_PINNED;
            else if (strcmp(v, "pageable") == 0) o->memory = MG_MEM_PAGEABLE;
            else if (strcmp(v, "both") == 0) o->memory = MG_MEM_PINNED | MG_MEM_PAGEABLE;
            else return refuse(err, size, "--memory: \"%s\" is not pinned, pageable or both", v);
        } else if (strcmp(opt, "--peers") == 0) {
            if (parse_peers(o, v, err, size)) return 2;
        } else if (strcmp(opt, "--budget") == 0) {
            char *end = NULL;
            double s = strtod(v, &end);
            if (end == v || *end || !(s >= 0 && s < 1e7)) return refuse(err, size, "--budget: \"%s\" is not seconds >= 0", v);
            o->budget_s = s;
        } else if (strcmp(opt, "--samples") == 0) {
            if (gk_cli_parse_int(v, 1, 100000, &x)) return refuse(err, size, "--samples: \"%s\" is not in 1..100000", v);
            o->samples = (int)x;
        } else if (strcmp(opt, "--threads") == 0) {
            if (gk_cli_parse_int(v, 1, 4096, &x)) return refuse(err, size, "--threads: \"%s\" is not in 1..4096", v);
            o->threads = (int)x;
        } else if (strcmp(opt, "--seed") == 0) {
            char *end = NULL;
            unsigned long long s = strtoull(v, &end, 10);
            if (end == v || *end || *v == '-') return refuse(err, size, "--seed: \"%s\" is not a whole number", v);
            o->seed = s;
        } else if (strcmp(opt, "--tsv") == 0) {
            if (!*v) return refuse(err, size, "--tsv: empty file name");
            o->tsv = v;
        } else {
            return refuse(err, size, "unknown option \"%s\"", opt);
        }
    }
    if (!devices_given && (add_entry(o, "0", err, size) || add_entry(o, "all", err, size))) return 2;
    if (o->warmup < 0) o->warmup = o->n;
    if (o->warmup > o->n) return refuse(err, size, "--warmup %lld is larger than --n %lld", (long long)o->warmup, (long long)o->n);
    return 0;
}
