/* The routing decision of host-array SGEMM calls (route_gemm.c): the device,
 * or the host's CPU BLAS. */
#ifndef GK_ROUTE_GEMM_H
#define GK_ROUTE_GEMM_H

#include "host_blas.h"
#include "policy.h"
#include "sgemm.h"

/* The choice of the policy's route rows for this prepared host-array call:
 * GK_ROUTE_HOST_BLAS, GK_ROUTE_DEVICE or GK_ROUTE_TILED ("host-blas",
 * "device", "tiled"; GK_ROUTE_DEVICE when no row applies). Evaluated once per
 * call and handed to the two decisions below. */
gk_policy_route gk_sgemm_route_choice(const gemmkit_context *ctx, const gk_sgemm_problem *p);

/* The CPU BLAS that should serve this prepared host-array call, or NULL for
 * the device: a call that names no kernel and no parameters, routed to
 * "host-blas" (route: gk_sgemm_route_choice), when an optimised CPU BLAS exists. */
const gk_host_blas *gk_sgemm_route_host(const gemmkit_options *options, const gk_sgemm_problem *p, gk_policy_route route);

/* True when a prepared host-array call goes to the tiler (multi_gemm.h)
 * rather than the host-staging path: always on a context of several devices;
 * on one device when the staged operands, with the padded copies a tiled
 * kernel may make, exceed the context's device-memory budget
 * (gk_tiled_budget), a matrix exceeds the device's largest buffer, a span
 * exceeds the kernels' 2^31-1 elements, or the policy's route (route:
 * gk_sgemm_route_choice) is "tiled" (large calls on GPUs, whose copies the
 * tiler overlaps). */
int gk_sgemm_route_tiled(const gemmkit_context *ctx, const gk_sgemm_problem *p, gk_policy_route route);

/* Runs the call on that BLAS, on the caller's arrays; options' timings get
 * its wall time (the clock is read only when the caller asks for them). */
gemmkit_status gk_sgemm_run_host(const gk_host_blas *blas, const gemmkit_options *options, const gk_sgemm_problem *p);

#endif
