/* `gemmkit verify`: every kernel (or one) against the reference on fresh
 * random inputs, through its routine's descriptor (tools/check/routine_desc.h):
 * the routine's verify cases for the kernel's tile, e.g. SGEMM at a native and
 * at an odd size through the padding path, transposes at a tile multiple and
 * at an odd shape with gaps and offsets. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernel_config.h"
#include "routine_desc.h"

/* What `gemmkit verify` found for one kernel. */
typedef enum gk_verify_outcome {
    GK_VERIFY_PASSED,
    GK_VERIFY_FAILED,  /* a wrong result, or the kernel failed to run */
    GK_VERIFY_SKIPPED, /* the backend cannot run it (a CUDA-only kernel on OpenCL), or the device its math mode */
} gk_verify_outcome;

/* batch: the matrices per call of batched kernels' cases (--batch; 0: the routine's own). */
static gk_verify_outcome verify_kernel(gemmkit_context *ctx, const gk_kernel_def *def, const char *params,
                                       int64_t batch, gk_rng *rng)
{
    const gk_routine *routine = gk_routine_of(gk_kernel_op(def));
    const int dims = routine->dims;
    gk_config config;
    gk_geometry g;
    if (gk_config_resolve(def, params, &config) != GEMMKIT_SUCCESS ||
        gk_config_geometry(&config, 64, 64, dims == 3 ? 64 : 0, &g) != GEMMKIT_SUCCESS) {
        printf("%-28s FAIL  %s\n", def->name, gemmkit_last_error_message());
        return GK_VERIFY_FAILED;
    }
    const gk_kernel_shape shape = {g.tile_m, g.tile_n, g.k_multiple, gk_kernel_op(def)};
    gk_case cases[GK_ROUTINE_MAX_CASES];
    const char *what[GK_ROUTINE_MAX_CASES];
    const int count = routine->verify_cases(&shape, cases, what);
    if (batch && routine == &gk_routine_gemm_batched)
        for (int i = 0; i < count; i++) cases[i].batched.batch = batch; /* strides stay: each C apart */
    const gemmkit_options options = {.kernel = def->name, .params = params};
    gk_verify_outcome outcome = GK_VERIFY_PASSED;
    for (int i = 0; i < count; i++) {
        gk_check_result result;
        gemmkit_status status = routine->check_run(ctx, &options, &cases[i], rng, &result);
        if (status == GEMMKIT_ERROR_UNSUPPORTED_BACKEND || status == GEMMKIT_ERROR_UNSUPPORTED_MATH) {
            printf("%-28s n/a   %s\n", def->name, gemmkit_last_error_message());
            return GK_VERIFY_SKIPPED;
        }
        const int passed = status == GEMMKIT_SUCCESS && result.passed;
        char size[64];
        gk_case_size_text(routine, &cases[i], size, sizeof size);
        printf("%-28s %s  %s %s: %s\n", def->name, passed ? "ok  " : "FAIL", size, what[i], result.message);
        if (!passed) outcome = GK_VERIFY_FAILED;
    }
    return outcome;
}

void gk_verify_usage(FILE *out)
{
    fprintf(out, "usage: gemmkit verify [--kernel NAME|all] [--params P=V,...] [--batch N] [--math MODE]\n"
                 "  Checks kernels against the reference on fresh random inputs (GEMMKIT_SEED repeats\n"
                 "  a run): SGEMM kernels at a native and at an odd size, transposes and copies at a\n"
                 "  tile multiple and at an odd shape with gaps and offsets.\n"
                 "  --kernel NAME|all   one kernel (see gemmkit list) or every one (default: all);\n"
                 "                      kernels the backend cannot run (CUDA only) are skipped\n"
                 "  --params P=V,...    parameter overrides for --kernel NAME\n"
                 "  --batch N           batched SGEMM kernels only, N matrices per case\n"
                 "  --math MODE         only the kernels of math mode MODE: " GK_CLI_MATH_HELP ";\n"
                 "                      kernels of a mode the device cannot run are skipped\n"
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
    const char *kernel = "all", *params = NULL, *math_text = NULL;
    long batch = 0;
    for (int i = 0; i < cli->argc; i++) {
        const char *arg = cli->argv[i];
        if (strcmp(arg, "--kernel") != 0 && strcmp(arg, "--params") != 0 && strcmp(arg, "--batch") != 0 &&
            strcmp(arg, "--math") != 0)
            return gk_cli_usage_error("verify", "unknown argument \"%s\"", arg);
        if (i + 1 >= cli->argc) return gk_cli_usage_error("verify", "%s needs a value", arg);
        if (strcmp(arg, "--batch") == 0) {
            if (gk_cli_parse_int(cli->argv[++i], 1, 1000000, &batch))
                return gk_cli_usage_error("verify", "--batch must be an integer from 1 to 1000000, not \"%s\"",
                                          cli->argv[i]);
            continue;
        }
        *(strcmp(arg, "--kernel") == 0 ? &kernel : strcmp(arg, "--math") == 0 ? &math_text : &params) = cli->argv[++i];
    }
    gemmkit_math math = GEMMKIT_MATH_DEFAULT;
    if (math_text && gk_cli_parse_math(math_text, &math))
        return gk_cli_usage_error("verify", "--math \"%s\": expected fp32, 3xtf32, tf32 or int8x", math_text);
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
        if (batch && gk_kernel_op(def) != GK_OP_SGEMM_BATCHED) continue;
        if (math != GEMMKIT_MATH_DEFAULT && (int)def->math != (int)math - GEMMKIT_MATH_FP32) continue; /* gk_math order */
        gk_verify_outcome outcome = verify_kernel(ctx, def, params, batch, &rng);
        if (outcome == GK_VERIFY_SKIPPED) snprintf(skipped_why, sizeof skipped_why, "%s", gemmkit_last_error_message());
        counts[outcome]++;
    }
    gemmkit_context_destroy(ctx);
    const int verified = counts[GK_VERIFY_PASSED] + counts[GK_VERIFY_FAILED];
    printf("%d kernel(s) verified, %d failed", verified, counts[GK_VERIFY_FAILED]);
    if (counts[GK_VERIFY_SKIPPED])
        printf(", %d skipped (not for the %s backend or this device's math)", counts[GK_VERIFY_SKIPPED], info.backend);
    printf("\n");
    if (counts[GK_VERIFY_FAILED]) return GK_EXIT_FAILED;
    if (verified == 0) {
        /* Not a pass: a CUDA-only kernel asked for on OpenCL tells nothing about it. */
        fprintf(stderr, "gemmkit verify: %s: nothing verified\n", skipped_why[0] ? skipped_why : "no kernel ran");
        return GK_EXIT_USAGE;
    }
    return GK_EXIT_OK;
}
