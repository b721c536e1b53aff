/**
 * @file gemmkit_cl.h
 * @brief gemmkit for OpenCL programs that keep their data in their own
 * cl_mem buffers.
 *
 * The buffers must belong to the context's cl_context (get it, and the
 * in-order queue gemmkit uses, with gemmkit_cl_handles()). gemmkit enqueues
 * on its own queue and waits for no event of yours: finish your writes to
 * the buffers (clFinish on your queue) before a call, or enqueue them on
 * gemmkit's queue. The rules of gemmkit.h (errors, threads, limits) hold here.
 */
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

/**
 * @brief The OpenCL context and in-order queue of a context made on the
 * OpenCL backend.
 *
 * The handles are gemmkit's, not retained for the caller: do not release
 * them (retain them to keep them past gemmkit_context_destroy()).
 * @param[out] context, queue  filled when not NULL.
 * @par Blocks
 *   never.
 * @par Threads
 *   safe from any thread; enqueueing on the queue while another thread
 *   calls gemmkit on the same context interleaves with gemmkit's commands.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on OpenCL.
 */
GEMMKIT_API gemmkit_status gemmkit_cl_handles(gemmkit_context *ctx, cl_context *context,
                                              cl_command_queue *queue);

/**
 * @brief Wraps a caller's cl_mem as a ::gemmkit_buffer for the _buffers
 * entry points (its size, in floats, from CL_MEM_SIZE).
 *
 * The cl_mem is neither retained nor taken over: keep it alive while the
 * wrapper is used; gemmkit_buffer_destroy() frees the wrapper only.
 * @par Blocks
 *   on one driver query.
 * @par Threads
 *   safe from any thread (takes no lock).
 * @par Limits
 *   the buffer must belong to the context's cl_context (not checked).
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx, buffer or wrapped is NULL.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on OpenCL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  buffer is not a valid cl_mem.
 * @retval GEMMKIT_ERROR_OUT_OF_HOST_MEMORY
 */
GEMMKIT_API gemmkit_status gemmkit_buffer_wrap_cl(gemmkit_context *ctx, cl_mem buffer,
                                                  gemmkit_buffer **wrapped);

/**
 * @brief SGEMM on cl_mem buffers with element offsets: gemmkit_sgemm_buffers()
 * on wrappers of a, b and c (NULL where BLAS does not read them).
 * @par Blocks
 *   until the device has finished the call.
 * @par Threads
 *   holds the context's mutex during the product.
 * @par Limits
 *   those of gemmkit_sgemm_buffers().
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on OpenCL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  a buffer is not a valid cl_mem.
 * @retval others  as gemmkit_sgemm_buffers().
 */
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
