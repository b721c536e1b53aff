/* `gemmkit verify`: every SGEMM kernel (or one) against the reference on
 * fresh random inputs, at a size it supports natively and at an odd size
 * through the library's padding path; transposes and copies likewise
 * (verify_transpose.c). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "kernel_config.h"

static int64_t at_least(int64_t x, int64_t minimum) { return x > minimum ? x : minimum; }

/* Two cases per kernel: a native tile-multiple size, and an odd one with transposes and alpha/beta. */
static void cases_for(const gk_geometry *g, gk_sgemm_case cases[2])
{
    int64_t m = at_least(2 * g->tile_m, 64), n = at_least(2 * g->tile_n, 64);
    int64_t k = at_least(4 * g->k_multiple, 64);
    m = (m + g->tile_m - 1) / g->tile_m * g->tile_m;
    n = (n + g->tile_n - 1) / g->tile_n * g->tile_n;
    k = (k + g->k_multiple - 1) / g->k_multiple * g->k_multiple;
    int64_t s = m > n ? m : n; /* square, so square-only kernels run natively too */
    s = s > k ? s : k;
    cases[0] = (gk_sgemm_case){GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, s, s, s, 1.0f, 0.0f, 0, 0, 0};
    cases[1] = (gk_sgemm_case){GEMMKIT_ROW_MAJOR, GEMMKIT_TRANS, GEMMKIT_NO_TRANS, 37, 53, 29, 0.75f, -1.5f, 41, 60, 57};
}

static gk_verify_outcome verify_kernel(gemmkit_context *ctx, const gk_kernel_def *def, const char *params,
                                       gk_rng *rng)
{
    gk_config config;
    gk_geometry g;
    if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
        gk_config_geometry(&config, 64, 64, 64, &g) != GEMMKIT_SUCCESS) {
        printf("%-28s FAIL  %s\n", def->name, gemmkit_last_error_message());
        return GK_VERIFY_FAILED;
    }
    gk_sgemm_case cases[2];
    cases_for(&g, cases);
    gemmkit_options options = {.kernel = def->name, .params = params};
    gk_verify_outcome outcome = GK_VERIFY_PASSED;
    for (int i = 0; i < 2; i++) {
        gk_check_result result;
        gemmkit_status status = gk_check_run(ctx, &options, cases[i], rng, 1e9, &result);
        if (status == GEMMKIT_ERROR_UNSUPPORTED_BACKEND) {
            printf("%-28s n/a   %s\n", def->name, gemmkit_last_error_message());
            return GK_VERIFY_SKIPPED;
        }
        int passed = status == GEMMKIT_SUCCESS && result.passed;
        printf("%-28s %s  %lldx%lldx%lld %s: %s\n", def->name, passed ? "ok  " : "FAIL", (long long)cases[i].m,
               (long long)cases[i].n, (long long)cases[i].k, i == 0 ? "native" : "odd, row-major, A^T, alpha/beta",
               result.message);
        if (!passed) outcome = GK_VERIFY_FAILED;
    }
    return outcome;
}

void gk_verify_usage(FILE *out)
{
    fprintf(out, "usage: gemmkit verify [--kernel NAME|all] [--params P=V,...]\n"
                 "  Checks kernels against the reference on fresh random inputs (GEMMKIT_SEED repeats\n"
                 "  a run): SGEMM kernels at a native and at an odd size, transposes and copies at a\n"
                 "  tile multiple and at an odd shape with gaps and offsets.\n"
                 "  --kernel NAME|all   one kernel (see gemmkit list) or every one (default: all);\n"
                 "                      kernels the backend cannot run (CUDA only) are skipped\n"
                 "  --params P=V,...    parameter overrides for --kernel NAME\n"
                 "Exit status: 0 every kernel verified passed, 1 a wrong result or a kernel that\n"
                 "failed to run, 2 bad usage or nothing verified (e.g. a CUDA-only kernel on OpenCL).\n");
}

/* Usage errors (a kernel that does not exist, parameters it does not have or
 * that break its constraints) are found before any device work. */
static int check_request(const char *kernel, const char *params)
{
    if (strcmp(kernel, "all") == 0) {
        if (params) return gk_cli_usage_error("verify", "--params needs one named kernel (--kernel NAME), not all");
        return 0;
    }
    const gk_kernel_def *def = gk_kernel_find(kernel);
    if (!def || gk_kernel_is_helper(def))
        return gk_cli_usage_error("verify", "no kernel named \"%s\" (see gemmkit list)", kernel);
    gk_config config;
    if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS)
        return gk_cli_usage_error("verify", "--params \"%s\": %s", params ? params : "", gemmkit_last_error_message());
    return 0;
}

int gk_cmd_verify(const gk_cli *cli)
{
    const char *kernel = "all", *params = NULL;
    for (int i = 0; i < cli->argc; i++) {
        const char *arg = cli->argv[i];
        if (strcmp(arg, "--kernel") != 0 && strcmp(arg, "--params") != 0)
            return gk_cli_usage_error("verify", "unknown argument \"%s\"", arg);
        if (i + 1 >= cli->argc) return gk_cli_usage_error("verify", "%s needs a value", arg);
        *(strcmp(arg, "--kernel") == 0 ? &kernel : &params) = cli->argv[++i];
    }
    int rc = check_request(kernel, params);
    if (rc) return rc;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    uint64_t seed = gk_rng_fresh_seed();
    gk_rng rng;
    gk_rng_seed(&rng, seed);
    printf("verifying on %s | %s (seed %llu)\n", info.platform, info.name, (unsigned long long)seed);
    int counts[3] = {0, 0, 0}; /* by gk_verify_outcome */
    char skipped_why[512] = "";
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (gk_kernel_is_helper(def)) continue;
        if (strcmp(kernel, "all") != 0 && strcmp(kernel, def->name) != 0) continue;
        gk_verify_outcome outcome = gk_kernel_op(def) == GK_OP_SGEMM ? verify_kernel(ctx, def, params, &rng)
                                                            : gk_verify_transpose_kernel(ctx, def, params, &rng);
        if (outcome == GK_VERIFY_SKIPPED) snprintf(skipped_why, sizeof skipped_why, "%s", gemmkit_last_error_message());
        counts[outcome]++;
    }
    gemmkit_context_destroy(ctx);
    const int verified = counts[GK_VERIFY_PASSED] + counts[GK_VERIFY_FAILED];
    printf("%d kernel(s) verified, %d failed", verified, counts[GK_VERIFY_FAILED]);
    if (counts[GK_VERIFY_SKIPPED])
        printf(", %d skipped (not for the %s backend)", counts[GK_VERIFY_SKIPPED], info.backend);
    printf("\n");
    if (counts[GK_VERIFY_FAILED]) return GK_EXIT_FAILED;
    if (verified == 0) {
        /* Not a pass: a CUDA-only kernel asked for on OpenCL tells nothing about it. */
        fprintf(stderr, "gemmkit verify: %s: nothing verified\n", skipped_why[0] ? skipped_why : "no kernel ran");
        return GK_EXIT_USAGE;
    }
    return GK_EXIT_OK;
}
