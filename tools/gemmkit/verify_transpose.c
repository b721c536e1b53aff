/* `gemmkit verify` for the transpose and copy kernels: each against the exact
 * reference on fresh random inputs, at a tile-multiple size and at an odd one
 * with gaps, offsets, a row-major layout and alpha. */
#include <stdio.h>

#include "check_transpose.h"
#include "cli.h"
#include "registry.h"

gk_verify_outcome gk_verify_transpose_kernel(gemmkit_context *ctx, const gk_kernel_def *def, const char *params,
                                             gk_rng *rng)
{
    const gemmkit_transpose trans = gk_kernel_op(def) == GK_OP_TRANSPOSE ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
    const struct {
        gk_omatcopy_case c;
        const char *what;
    } cases[] = {
        {{GEMMKIT_COL_MAJOR, trans, 256, 192, 1.0f, 0, 0, 0, 0}, "tile multiple"},
        {{GEMMKIT_ROW_MAJOR, trans, 203, 131, -2.5f, 134, 211, 5, 2}, "odd, row-major, gaps, offsets, alpha"},
    };
    const gemmkit_options options = {.kernel = def->name, .params = params};
    gk_verify_outcome outcome = GK_VERIFY_PASSED;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gk_check_result result;
        gemmkit_status status = gk_check_omatcopy_run(ctx, &options, cases[i].c, 1, rng, &result);
        if (status == GEMMKIT_ERROR_UNSUPPORTED_BACKEND) {
            printf("%-28s n/a   %s\n", def->name, gemmkit_last_error_message());
            return GK_VERIFY_SKIPPED;
        }
        const int passed = status == GEMMKIT_SUCCESS && result.passed;
        printf("%-28s %s  %lldx%lld %s: %s\n", def->name, passed ? "ok  " : "FAIL", (long long)cases[i].c.rows,
               (long long)cases[i].c.cols, cases[i].what, result.message);
        if (!passed) outcome = GK_VERIFY_FAILED;
    }
    return outcome;
}
