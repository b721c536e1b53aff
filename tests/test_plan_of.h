/* A call's plan without running it, and its steps by kernel, for the tests of the planner's choices (peeled
 * strips, copies): needs test_support.h's test_ctx. */
#ifndef GK_TEST_PLAN_OF_H
#define GK_TEST_PLAN_OF_H

#include <string.h>

#include "plan.h"
#include "sgemm.h"

/* The plan of an m x n x k column-major NN call on device buffers (none is written: only planned). */
static inline void plan_of(int64_t m, int64_t n, int64_t k, const gemmkit_options *options, gk_plan *plan)
{
    gemmkit_buffer *da, *db, *dc;
    assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(m * k), &da), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(k * n), &db), GEMMKIT_SUCCESS);
    assert_int_equal(gemmkit_buffer_create(test_ctx, (size_t)(m * n), &dc), GEMMKIT_SUCCESS);
    const gk_gemm_call call = {GEMMKIT_COL_MAJOR, GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, m, n, k, 1.0f, 0.0f,
                               da, db, dc, 0, 0, 0, m, k, m};
    gk_sgemm_problem p;
    assert_int_equal(gk_sgemm_prepare(&call, &p), GEMMKIT_SUCCESS);
    p.a.mem = da->mem;
    p.b.mem = db->mem;
    p.c.mem = dc->mem;
    assert_int_equal(gk_sgemm_plan(test_ctx, options, &p, plan), GEMMKIT_SUCCESS);
    gemmkit_buffer_destroy(da);
    gemmkit_buffer_destroy(db);
    gemmkit_buffer_destroy(dc);
}

/* How many of the plan's steps run `kernel`. */
static inline int count_steps(const gk_plan *plan, const char *kernel)
{
    int count = 0;
    for (unsigned i = 0; i < plan->count; i++) count += strcmp(plan->steps[i].config.def->name, kernel) == 0;
    return count;
}

#endif
