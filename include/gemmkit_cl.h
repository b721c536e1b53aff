/**
 * @file gemmkit_cl.h
 * @brief gemmkit for OpenCL programs that keep their data in their own
 * cl_mem buffers.
 *
 * The buffers must belong to the context's cl_context (get it, and the
 * in-order queue gemmkit uses, with gemmkit_cl_handles()). The blocking
 * calls enqueue on gemmkit's own queue and wait for no event of yours:
 * finish your writes to the buffers (clFinish on your queue) before a call,
 * or enqueue them on gemmkit's queue. A program with its own cl_context and
 * queues makes a context on them (gemmkit_context_create_cl()) and enqueues
 * on its queue with events (gemmkit_sgemm_cl_enqueue()). The rules of
 * gemmkit.h (errors, threads, limits) hold here.
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

/**
 * @brief A context on the caller's own OpenCL context and device: gemmkit's
 * programs are built for that cl_context (and kept with the context), its
 * scratch memory allocated there, so that gemmkit_sgemm_cl_enqueue() runs on
 * the caller's queues and cl_mem buffers (docs/INTEROP.md).
 *
 * The cl_context is retained until gemmkit_context_destroy(). The blocking
 * calls of gemmkit.h work on it too, on a queue of gemmkit's own.
 * @par Blocks
 *   while the device is opened and the tuning lines are read (no kernel is
 *   built until a call needs it).
 * @par Threads
 *   safe from any thread.
 * @par Limits
 *   the device must be one of those gemmkit lists (`gemmkit devices`), and
 *   belong to the context.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  context, device or ctx is NULL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  the device is not one gemmkit
 *   lists, or not a device of the context.
 * @retval others  as gemmkit_context_create() (out of memory, a backend failure).
 */
GEMMKIT_API gemmkit_status gemmkit_context_create_cl(cl_context context, cl_device_id device,
                                                     gemmkit_context **ctx);

/**
 * @brief SGEMM on cl_mem buffers, enqueued on the caller's queue: returns as
 * soon as its kernels are enqueued, ordered after the wait list, with the
 * event of its last command (as CLBlast's calls do).
 *
 * The queue must belong to the context's cl_context and device
 * (gemmkit_context_create_cl()); in order or not, the call's own commands
 * run one after another, the first after `wait_list`. A write enqueued
 * before the call and a read after `*event` need no clFinish between. A
 * call that changes nothing (C = C) still gives an event (a marker after
 * the wait list).
 * @param num_events, wait_list  as OpenCL's: both 0/NULL or both given.
 * @param[out] event  the call's last command (retained for the caller:
 *   release it), when not NULL.
 * @par Blocks
 *   on nothing but enqueueing (clFlush, no clFinish); the first call of a
 *   shape may build a kernel, which blocks while it compiles.
 * @par Threads
 *   holds the context's mutex while enqueueing. Calls on one context share
 *   its scratch memory: issue them on one queue, or one context per queue,
 *   unless their kernels use none (no split-K, no packing).
 * @par Limits
 *   those of gemmkit_sgemm_buffers().
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or queue is NULL, or num_events
 *   without wait_list.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on OpenCL.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  the queue is of another context or
 *   device, wait_list without num_events, or a buffer is not a valid cl_mem.
 * @retval others  as gemmkit_sgemm_buffers(), all found before anything is
 *   enqueued (C untouched); an enqueue that fails midway returns the
 *   driver's error, commands already enqueued stay.
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_cl_enqueue(
    gemmkit_context *ctx, cl_command_queue queue, gemmkit_layout layout, gemmkit_transpose trans_a,
    gemmkit_transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha, cl_mem a, size_t offset_a, int64_t lda,
    cl_mem b, size_t offset_b, int64_t ldb, float beta, cl_mem c, size_t offset_c, int64_t ldc, cl_uint num_events,
    const cl_event *wait_list, cl_event *event);

#ifdef __cplusplus
}
#endif
#endif
