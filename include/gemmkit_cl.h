/* gemmkit for OpenCL users who keep their data in their own cl_mem buffers.
 * The buffers must belong to the context's cl_context (get it, and the queue
 * gemmkit uses, with gemmkit_cl_handles). */
#ifndef GEMMKIT_CL_H
#define GEMMKIT_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "gemmkit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The OpenCL context and in-order queue of a context made on the OpenCL backend. */
GEMMKIT_API gemmkit_status gemmkit_cl_handles(gemmkit_context *ctx, cl_context *context,
                                              cl_command_queue *queue);

/* Wraps a caller's cl_mem (not taken over: destroying the wrapper leaves it alive). */
GEMMKIT_API gemmkit_status gemmkit_buffer_wrap_cl(gemmkit_context *ctx, cl_mem buffer,
                                                  gemmkit_buffer **wrapped);

/* SGEMM on cl_mem buffers with element offsets; same semantics as gemmkit_sgemm. */
GEMMKIT_API gemmkit_status gemmkit_sgemm_cl(gemmkit_context *ctx, gemmkit_layout layout,
                                            gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                            int64_t m, int64_t n, int64_t k, float alpha, cl_mem a,
                                            size_t offset_a, int64_t lda, cl_mem b, size_t offset_b,
                                            int64_t ldb, float beta, cl_mem c, size_t offset_c,
                                            int64_t ldc);

#ifdef __cplusplus
}
#endif
#endif
