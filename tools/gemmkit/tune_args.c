/* `gemmkit tune` options, each number checked whole (exit status 2 for
 * "abc", "64x64", "1.5" or "2abc", as in `gemmkit bench`). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tune.h"
#include "tune_calibrate.h"

/* The sizes that make sense: 3 square operands of n^2 floats. */
#define MAX_SIZE 65536
/* Timed samples per candidate: gk_tune_time_calls keeps them on the stack. */
#define MAX_REPEAT 64
#define MAX_CONFIGS 65536

void gk_tune_usage(FILE *out)
{
    fprintf(out,
            "usage: gemmkit tune [options]\n"
            "  --kernel NAME      the kernel to tune (default: the SGEMM kernel the library runs on\n"
            "                     this device at the shapes timed: xgemm on GPUs, lecture-6-one-block-shared\n"
            "                     on CPUs at n = 4096 / 512)\n"
            "  --size N           n of the timed n x n x n SGEMM or n x n transpose (default: GPU\n"
            "                     4096, CPU 512; transposes GPU 8192, CPU 1024); not with --variant\n"
            "  --variant NAME     tune the policy's variant NAME (policy.tsv: small, narrow-n, narrow-m,\n"
            "                     long-k) on its representative shapes (src/kernels/tuning/shapes.tsv,\n"
            "                     scored by the geometric mean of their GFLOPS) and save it as KERNEL/NAME,\n"
            "                     the line the dispatch takes for the shapes where the variant's row holds\n"
            "  --small            the same as --variant small\n"
            "  --all-variants     the main line, then every variant the policy has on this device: the\n"
            "                     rules of a new device in one command, with a summary of the lines saved\n"
            "  --blas-threshold   no kernel search: measure where this device beats the CPU BLAS for the\n"
            "                     BLAS drop-in (square n = 64, 128, ... up to --size, default 4096; host\n"
            "                     arrays, copies included; stops once the device has won twice in a row)\n"
            "                     and save the crossover as the device's blas-threshold line, which the\n"
            "                     drop-in uses when GEMMKIT_BLAS_THRESHOLD is not set (docs/DROPIN.md)\n"
            "  --calibrate        no kernel search: measure the SGEMM cost model's constants on this device\n"
            "                     (the copy bandwidth and a launch's time; per tuned line the model chooses\n"
            "                     among: its rate, occupancy and share of the bandwidth, fitted to timings\n"
            "                     at designed and random shapes) and save them as cost:* lines, each as\n"
            "                     soon as it is measured (an interrupted calibration keeps what it fitted)\n"
            "  --seed S           --calibrate's random shapes (those of `gemmkit bench --sizes random:N:S`,\n"
            "                     their longest edge halved down to the device's size); default %d\n"
            "  --show             with --calibrate: time nothing, print the constants a new context on this\n"
            "                     device reads (from --db FILE or the default database)\n"
            "  --lines NAME,...   with --calibrate: measure the device's constants, then fit and save only\n"
            "                     the lines named (of those the model chooses among here, as printed:\n"
            "                     xgemm-direct/small, ...), leaving the other cost:* lines as they are: a\n"
            "                     new tuned line calibrated in seconds; an unknown name is bad usage\n"
            "  --repeat R         timed runs per candidate after one warm-up, 1 to %d (default 3;\n"
            "                     --calibrate keeps the fastest)\n"
            "  --max-configs C    candidates timed at most per search, 1 to %d (default 400)\n"
            "  --max-time S       seconds for the whole command: each search stops timing new candidates\n"
            "                     once its share of what is left has passed (at least one each);\n"
            "                     --blas-threshold: no size is started that would end past it;\n"
            "                     --calibrate: each line timed (those of --lines, if given) stops timing\n"
            "                     shapes once its share has passed (three shapes at least, so many lines\n"
            "                     can run past S)\n"
            "  --db FILE          save to FILE instead of the default database (contexts read FILE\n"
            "                     only when GEMMKIT_TUNING_DB=FILE)\n"
            "  --no-save          search and report only\n"
            "  --verbose          one line per candidate timed (--calibrate: each timing beside the\n"
            "                     fit's prediction)\n"
            "Exit status: 0 a configuration was found (and saved) for every line tuned (--calibrate: every\n"
            "line's constants fitted), 1 none ran correctly (--calibrate: a line has no timing) or saving\n"
            "failed, 2 bad usage.\n",
            GK_CALIBRATE_SEED, MAX_REPEAT, MAX_CONFIGS);
}

/* --lines: names separated by commas, none of them empty ("a,,b", ",a" and "a," are refused); 0, or -1. */
static int check_line_names(const char *list)
{
    const size_t len = strlen(list);
    return len == 0 || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,") ? -1 : 0;
}

/* A whole decimal number from 0 to 2^64-1 (the bench's random:COUNT:SEED takes the same): 0, or -1. */
static int parse_seed(const char *text, uint64_t *out)
{
    uint64_t seed = 0;
    if (!*text) return -1;
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || seed > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return -1;
        seed = seed * 10 + (uint64_t)(*p - '0');
    }
    *out = seed;
    return 0;
}

int gk_tune_parse_args(int argc, char **argv, gk_tune_args *args)
{
    *args = (gk_tune_args){.repeat = 3, .max_configs = 400, .save = 1, .seed = GK_CALIBRATE_SEED};
    int seed_given = 0, configs_given = 0;
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            gk_tune_usage(stdout);
            return -1;
        }
        if (strcmp(opt, "--no-save") == 0) args->save = 0;
        else if (strcmp(opt, "--small") == 0 || strcmp(opt, "--variant") == 0) {
            const char *name = "small";
            if (opt[2] == 'v') {
                if (i + 1 >= argc || !argv[i + 1][0] || strncmp(argv[i + 1], "--", 2) == 0)
                    return gk_cli_usage_error("tune", "--variant needs a value (a variant of policy.tsv: small, ...)");
                name = argv[++i];
            }
            if (args->variant && strcmp(args->variant, name) != 0)
                return gk_cli_usage_error("tune", "one variant at a time (--variant %s and %s); --all-variants for "
                                                  "every one", args->variant, name);
            args->variant = name;
        } else if (strcmp(opt, "--all-variants") == 0) args->all_variants = 1;
        else if (strcmp(opt, "--blas-threshold") == 0) args->blas_threshold = 1;
        else if (strcmp(opt, "--calibrate") == 0) args->calibrate = 1;
        else if (strcmp(opt, "--show") == 0) args->show = 1;
        else if (strcmp(opt, "--verbose") == 0) args->verbose = 1;
        else {
            const int valued = strcmp(opt, "--kernel") == 0 || strcmp(opt, "--size") == 0 ||
                               strcmp(opt, "--repeat") == 0 || strcmp(opt, "--max-configs") == 0 ||
                               strcmp(opt, "--max-time") == 0 || strcmp(opt, "--db") == 0 ||
                               strcmp(opt, "--seed") == 0 || strcmp(opt, "--lines") == 0;
            if (!valued) return gk_cli_usage_error("tune", "unknown option \"%s\"", opt);
            if (i + 1 >= argc || !argv[i + 1][0] || strncmp(argv[i + 1], "--", 2) == 0)
                return gk_cli_usage_error("tune", "%s needs a value", opt);
            const char *value = argv[++i];
            long v = 0;
            if (strcmp(opt, "--kernel") == 0) {
                args->kernel = value;
            } else if (strcmp(opt, "--db") == 0) {
                args->db = value;
            } else if (strcmp(opt, "--lines") == 0) {
                if (args->lines)
                    return gk_cli_usage_error("tune", "--lines given twice: name every line in one (--lines %s,%s)",
                                              args->lines, value);
                if (check_line_names(value))
                    return gk_cli_usage_error("tune", "--lines takes line names separated by commas, none empty, "
                                                      "not \"%s\"", value);
                args->lines = value;
            } else if (strcmp(opt, "--seed") == 0) {
                if (parse_seed(value, &args->seed))
                    return gk_cli_usage_error("tune", "--seed must be an integer from 0 to %llu, not \"%s\"",
                                              (unsigned long long)UINT64_MAX, value);
                seed_given = 1;
            } else if (strcmp(opt, "--max-time") == 0) {
                char *end = NULL;
                const double seconds = strtod(value, &end);
                if (end == value || *end || !(seconds > 0.0) || seconds > 1e7)
                    return gk_cli_usage_error("tune", "--max-time must be a positive number of seconds, not \"%s\"",
                                              value);
                args->max_seconds = seconds;
            } else if (strcmp(opt, "--size") == 0) {
                if (gk_cli_parse_int(value, 1, MAX_SIZE, &v))
                    return gk_cli_usage_error("tune", "--size must be an integer from 1 to %d, not \"%s\"", MAX_SIZE,
                                              value);
                args->size = v;
            } else if (strcmp(opt, "--repeat") == 0) {
                if (gk_cli_parse_int(value, 1, MAX_REPEAT, &v))
                    return gk_cli_usage_error("tune", "--repeat must be an integer from 1 to %d, not \"%s\"",
                                              MAX_REPEAT, value);
                args->repeat = (int)v;
            } else {
                configs_given = 1;
                if (gk_cli_parse_int(value, 1, MAX_CONFIGS, &v))
                    return gk_cli_usage_error("tune", "--max-configs must be an integer from 1 to %d, not \"%s\"",
                                              MAX_CONFIGS, value);
                args->max_configs = v;
            }
        }
    }
    if (args->blas_threshold && (args->kernel || args->variant || args->all_variants))
        return gk_cli_usage_error("tune", "--blas-threshold times no kernel: drop --kernel, --variant and "
                                          "--all-variants");
    if (args->blas_threshold && args->size && args->size < 64)
        return gk_cli_usage_error("tune", "--blas-threshold times n = 64, 128, ...: --size (the largest n) must be "
                                          "at least 64, not %lld", (long long)args->size);
    if (args->calibrate && (args->kernel || args->variant || args->all_variants || args->blas_threshold ||
                            args->size || configs_given))
        return gk_cli_usage_error("tune", "--calibrate times the lines the cost model chooses among at shapes of its "
                                          "own: drop --kernel, --variant, --all-variants, --blas-threshold, --size "
                                          "and --max-configs");
    if ((args->show || seed_given || args->lines) && !args->calibrate)
        return gk_cli_usage_error("tune", "%s goes with --calibrate",
                                  args->show ? "--show" : seed_given ? "--seed" : "--lines");
    if (args->show && args->lines)
        return gk_cli_usage_error("tune", "--show times nothing and prints every line: drop --lines");
    if (args->variant && args->all_variants)
        return gk_cli_usage_error("tune", "--all-variants tunes every variant: drop --variant/--small");
    if (args->variant && args->size)
        return gk_cli_usage_error("tune", "--size sets the main tune's n; --variant %s times its representative "
                                          "shapes (src/kernels/tuning/shapes.tsv)", args->variant);
    return 0;
}
