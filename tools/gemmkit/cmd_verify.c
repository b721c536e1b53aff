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

static int verify_kernel(gemmkit_context *ctx, const gk_kernel_def *def, const char *params, gk_rng *rng)
{
    gk_config config;
    gk_geometry g;
    if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
        gk_config_geometry(&config, 64, 64, 64, &g) != GEMMKIT_SUCCESS) {
        printf("%-28s FAIL  %s\n", def->name, gemmkit_last_error_message());
        return 0;
    }
    gk_sgemm_case cases[2];
    cases_for(&g, cases);
    gemmkit_options options = {.kernel = def->name, .params = params};
    int ok = 1;
    for (int i = 0; i < 2; i++) {
        gk_check_result result;
        gemmkit_status status = gk_check_run(ctx, &options, cases[i], rng, 1e9, &result);
        if (status == GEMMKIT_ERROR_UNSUPPORTED_BACKEND) {
            printf("%-28s n/a   %s\n", def->name, gemmkit_last_error_message());
            return 1;
        }
        int passed = status == GEMMKIT_SUCCESS && result.passed;
        printf("%-28s %s  %lldx%lldx%lld %s: %s\n", def->name, passed ? "ok  " : "FAIL", (long long)cases[i].m,
               (long long)cases[i].n, (long long)cases[i].k, i == 0 ? "native" : "odd, row-major, A^T, alpha/beta",
               result.message);
        ok &= passed;
    }
    return ok;
}

int gk_cmd_verify(const gk_cli *cli)
{
    const char *kernel = "all", *params = NULL;
    for (int i = 0; i < cli->argc; i++) {
        if (strcmp(cli->argv[i], "--kernel") == 0 && i + 1 < cli->argc) kernel = cli->argv[++i];
        else if (strcmp(cli->argv[i], "--params") == 0 && i + 1 < cli->argc) params = cli->argv[++i];
        else {
            fprintf(stderr, "gemmkit verify: unknown argument %s\nusage: gemmkit verify [--kernel NAME|all] [--params P=V,...]\n",
                    cli->argv[i]);
            return GK_EXIT_USAGE;
        }
    }
    if (strcmp(kernel, "all") != 0) {
        const gk_kernel_def *def = gk_kernel_find(kernel);
        if (!def || gk_kernel_is_helper(def)) {
            fprintf(stderr, "gemmkit verify: no kernel named \"%s\" (see gemmkit list)\n", kernel);
            return GK_EXIT_USAGE;
        }
    }
    gemmkit_context *ctx = gk_cli_open(cli);
    if (!ctx) return GK_EXIT_FAILED;
    gemmkit_device_info info;
    gemmkit_context_device_info(ctx, &info);
    uint64_t seed = gk_rng_fresh_seed();
    gk_rng rng;
    gk_rng_seed(&rng, seed);
    printf("verifying on %s | %s (seed %llu)\n", info.platform, info.name, (unsigned long long)seed);
    int failures = 0, count = 0;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (gk_kernel_is_helper(def)) continue;
        if (strcmp(kernel, "all") != 0 && strcmp(kernel, def->name) != 0) continue;
        count++;
        if (gk_kernel_op(def) == GK_OP_SGEMM) failures += !verify_kernel(ctx, def, params, &rng);
        else failures += !gk_verify_transpose_kernel(ctx, def, params, &rng);
    }
    gemmkit_context_destroy(ctx);
    printf("%d kernel(s) verified, %d failed\n", count, failures);
    return failures ? GK_EXIT_FAILED : GK_EXIT_OK;
}
