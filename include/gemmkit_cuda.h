/**
 * @file gemmkit_cuda.h
 * @brief gemmkit for CUDA programs: their CUcontext, device pointers and
 * streams, as cuBLAS takes them (docs/INTEROP.md).
 *
 * A context made on the program's CUcontext (gemmkit_context_create_cuda(),
 * or any context on the CUDA backend) enqueues SGEMM, strided and
 * pointer-array batched SGEMM and omatcopy on the program's stream and returns without waiting. Needs
 * no cuda.h: the three handle types are declared here as cuda.h declares
 * them (include cuda.h before or after this header; after needs C11 or C++,
 * which allow the same typedef twice). 64-bit platforms only.
 *
 * Rules for every call below (besides those of gemmkit.h):
 * - **Blocks** on nothing: every step of a call (copies of operands into
 *   the kernels' layout, split-K's partials, their reduction) is enqueued
 *   on the caller's stream, in order; no stream, event or context is
 *   synchronised. The exceptions: the first call needing a kernel compiles
 *   it (NVRTC; blocks while it does); without a workspace, a call needing
 *   more scratch than the context has cached allocates it (cuMemAlloc, and
 *   cuMemFree of the smaller block, which waits for the device); with
 *   `GEMMKIT_TRACE` set every step is timed and waited for.
 * - **Graph capture.** With a workspace set (gemmkit_cuda_set_workspace())
 *   a call allocates nothing, so it can be captured (cuStreamBeginCapture)
 *   once its kernels are built: make one call of each shape before
 *   capturing. Without one, a call that allocates cannot be captured.
 * - **Workspace and streams.** A context's scratch (its workspace, or the
 *   cache) serves one stream at a time, as a cuBLAS handle's does: calls on
 *   one context must be ordered (one stream, or events between streams),
 *   else give each stream its own context or workspace.
 * - **Memory.** Device pointers are the caller's, 4-byte aligned (a float);
 *   gemmkit neither checks their extent nor frees them. 0 is refused where
 *   the call reads or writes the matrix (BLAS: A and B are not read when
 *   alpha is 0 or k is 0, C is not read when beta is 0).
 * - **Errors.** Argument errors are returned before anything is enqueued
 *   (C untouched). A launch the driver refuses is returned by the call
 *   (commands enqueued before it stay). A fault while a kernel runs (a bad
 *   address) is asynchronous, as with cuBLAS: it appears at the caller's
 *   next synchronisation of the stream or context.
 * - **Threads.** A call holds its context's mutex while it enqueues. The
 *   thread's current CUDA context is pushed and popped around every driver
 *   call: it is the same after the call as before.
 */
#ifndef GEMMKIT_CUDA_H
#define GEMMKIT_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "gemmkit.h"

#ifndef __cuda_cuda_h__ /* cuda.h's guard: its own declarations are these */
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief A context on the caller's CUcontext and its device: gemmkit's
 * kernels are built for that device and kept with the context, and its
 * calls run in that CUcontext.
 *
 * The CUcontext is not retained and never destroyed by gemmkit: keep it
 * alive until gemmkit_context_destroy(), which waits until the CUcontext is
 * idle (as cublasDestroy) before freeing gemmkit's kernels and scratch. The
 * blocking calls of gemmkit.h work on the context too, on a stream gemmkit
 * makes in the CUcontext.
 * @param cu_ctx  the CUcontext; NULL: the calling thread's current one
 *   (the primary context after a CUDA runtime call such as cudaSetDevice).
 * @param[out] ctx  the new context (NULL on failure).
 * @par Blocks
 *   while the device is opened and the tuning lines are read (no kernel is
 *   built until a call needs it).
 * @par Threads
 *   safe from any thread; the thread's current CUDA context is unchanged.
 * @par Limits
 *   one device: the CUcontext's.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  gemmkit was built without
 *   CUDA, or the driver is older than the toolkit gemmkit was built with.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  cu_ctx is NULL and no context is
 *   current, or cu_ctx cannot be made current.
 * @retval GEMMKIT_ERROR_NO_DEVICE  no CUDA driver.
 * @retval others  as gemmkit_context_create() (out of memory, a driver failure).
 */
GEMMKIT_API gemmkit_status gemmkit_context_create_cuda(CUcontext cu_ctx, gemmkit_context **ctx);

/**
 * @brief SGEMM on device pointers, enqueued on the caller's stream: C =
 * alpha * op(A) * op(B) + beta * C with the arguments of gemmkit_sgemm()
 * (layouts, transposes; beta = 0 does not read C). Returns once enqueued.
 *
 * The kernel is the one the library chooses for the shape (the cost model,
 * as for every call); its steps (copies, split-K) run in order on `stream`.
 * A call that changes nothing (alpha = 0 and beta = 1, or an empty C)
 * enqueues nothing.
 * @param stream  a stream of the context's CUcontext; 0 (and
 *   CU_STREAM_LEGACY, CU_STREAM_PER_THREAD): that context's default stream.
 * @par Blocks
 *   on nothing (see the file's rules for the first call of a shape and for
 *   scratch without a workspace).
 * @par Threads
 *   holds the context's mutex while enqueueing; its scratch serves one
 *   stream at a time (the file's rules).
 * @par Limits
 *   those of gemmkit_sgemm_buffers(): each matrix spans at most 2^31-1
 *   floats.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL, or a 0 pointer for a
 *   matrix the call reads or writes.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on CUDA.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  a pointer not 4-byte aligned, or
 *   a stream of another CUcontext.
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  the workspace set is smaller than
 *   the call needs (gemmkit_cuda_workspace_size()); nothing enqueued.
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  the driver refused a launch.
 * @retval others  the argument errors of gemmkit_sgemm_buffers() (layout,
 *   transposes, sizes, leading dimensions), all before anything is enqueued.
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_cuda_enqueue(gemmkit_context *ctx, CUstream stream, gemmkit_layout layout,
                                                      gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m,
                                                      int64_t n, int64_t k, float alpha, CUdeviceptr a, int64_t lda,
                                                      CUdeviceptr b, int64_t ldb, float beta, CUdeviceptr c,
                                                      int64_t ldc);

/**
 * @brief Strided batched SGEMM on device pointers, enqueued on the caller's
 * stream: gemmkit_sgemm_strided_batched()'s arguments (matrix z of each
 * operand z * stride floats after the pointer). Returns once enqueued.
 * @par Blocks
 *   on nothing (the file's rules).
 * @par Threads
 *   as gemmkit_sgemm_cuda_enqueue().
 * @par Limits
 *   those of gemmkit_sgemm_strided_batched_buffers(): each operand's batch
 *   spans at most 2^31-1 floats from its pointer.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_BUFFER_TOO_SMALL  the workspace set is too small
 *   (gemmkit_cuda_strided_batched_workspace_size()); nothing enqueued.
 * @retval others  as gemmkit_sgemm_cuda_enqueue(), and the batch's errors
 *   of gemmkit_sgemm_strided_batched() (negative strides or count, C's
 *   matrices overlapping), all before anything is enqueued.
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_strided_batched_cuda_enqueue(
    gemmkit_context *ctx, CUstream stream, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, CUdeviceptr a, int64_t lda, int64_t stride_a, CUdeviceptr b,
    int64_t ldb, int64_t stride_b, float beta, CUdeviceptr c, int64_t ldc, int64_t stride_c, int64_t batch_count);

/**
 * @brief Batched SGEMM on arrays of device pointers (cublasSgemmBatched's
 * form): C_i = alpha op(A_i) op(B_i) + beta C_i for i < batch_count, every
 * matrix of one shape and leading dimensions, enqueued on the caller's
 * stream in order. Returns once enqueued.
 *
 * The arrays are host memory (the pointers in them are device pointers),
 * read during the call only. Each matrix runs as gemmkit_sgemm_cuda_enqueue()
 * would run it (one plan a matrix, its steps one after another on the
 * stream); the C_i must not overlap one another.
 * @param a_array, b_array, c_array  batch_count device pointers each.
 * @par Blocks
 *   on nothing (the file's rules).
 * @par Threads
 *   as gemmkit_sgemm_cuda_enqueue(); the context's mutex is taken once a
 *   matrix.
 * @par Limits
 *   those of gemmkit_sgemm_cuda_enqueue() for each matrix; the workspace one
 *   matrix needs (gemmkit_cuda_workspace_size() on any of them) serves all.
 * @retval GEMMKIT_SUCCESS  (batch_count 0: nothing to do).
 * @retval GEMMKIT_ERROR_NULL_POINTER  an array is NULL, or a pointer in it
 *   is 0 where its matrix is read or written.
 * @retval GEMMKIT_ERROR_INVALID_SIZE  batch_count is negative.
 * @retval GEMMKIT_ERROR_BACKEND_FAILURE  the driver refused a launch (the
 *   earlier matrices stay enqueued).
 * @retval others  each matrix's argument errors of
 *   gemmkit_sgemm_cuda_enqueue(), the message naming the matrix, all found
 *   before anything is enqueued.
 */
GEMMKIT_API gemmkit_status gemmkit_sgemm_batched_cuda_enqueue(
    gemmkit_context *ctx, CUstream stream, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b,
    int64_t m, int64_t n, int64_t k, float alpha, const CUdeviceptr *a_array, int64_t lda, const CUdeviceptr *b_array,
    int64_t ldb, float beta, const CUdeviceptr *c_array, int64_t ldc, int64_t batch_count);

/**
 * @brief B = alpha * op(A) on device pointers (gemmkit_somatcopy()'s
 * arguments), enqueued on the caller's stream. Uses no scratch.
 * @par Blocks
 *   on nothing (the file's rules).
 * @par Threads
 *   holds the context's mutex while enqueueing.
 * @par Limits
 *   those of gemmkit_somatcopy_buffers().
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  A and B overlap (out-of-place
 *   only), a pointer not 4-byte aligned, a stream of another CUcontext.
 * @retval others  as gemmkit_sgemm_cuda_enqueue() and gemmkit_somatcopy(),
 *   all before anything is enqueued.
 */
GEMMKIT_API gemmkit_status gemmkit_somatcopy_cuda_enqueue(gemmkit_context *ctx, CUstream stream, gemmkit_layout layout,
                                                          gemmkit_transpose trans, int64_t rows, int64_t cols,
                                                          float alpha, CUdeviceptr a, int64_t lda, CUdeviceptr b,
                                                          int64_t ldb);

/**
 * @brief The workspace bytes gemmkit_sgemm_cuda_enqueue() needs for these
 * arguments (0 when its kernel uses no scratch), for
 * gemmkit_cuda_set_workspace(); the largest over a program's calls serves
 * them all.
 *
 * The arguments are the call's: alpha and beta too (alpha = 1, beta = 0 may
 * write C directly), and the pointers, whose alignment may ask for a copy
 * into the kernels' layout. A 0 pointer counts as aligned as cuMemAlloc's.
 * @param[out] bytes  the size.
 * @par Blocks
 *   never (plans without building or enqueueing anything).
 * @par Threads
 *   holds the context's mutex.
 * @par Limits
 *   those of the call.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or bytes is NULL.
 * @retval others  the argument errors of gemmkit_sgemm_cuda_enqueue().
 */
GEMMKIT_API gemmkit_status gemmkit_cuda_workspace_size(gemmkit_context *ctx, gemmkit_layout layout,
                                                       gemmkit_transpose trans_a, gemmkit_transpose trans_b,
                                                       int64_t m, int64_t n, int64_t k, float alpha, CUdeviceptr a,
                                                       int64_t lda, CUdeviceptr b, int64_t ldb, float beta,
                                                       CUdeviceptr c, int64_t ldc, size_t *bytes);

/**
 * @brief The same for gemmkit_sgemm_strided_batched_cuda_enqueue().
 * @par Blocks
 *   never.
 * @par Threads
 *   holds the context's mutex.
 * @par Limits
 *   those of the call.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx or bytes is NULL.
 * @retval others  the argument errors of the call.
 */
GEMMKIT_API gemmkit_status gemmkit_cuda_strided_batched_workspace_size(
    gemmkit_context *ctx, gemmkit_layout layout, gemmkit_transpose trans_a, gemmkit_transpose trans_b, int64_t m,
    int64_t n, int64_t k, float alpha, CUdeviceptr a, int64_t lda, int64_t stride_a, CUdeviceptr b, int64_t ldb,
    int64_t stride_b, float beta, CUdeviceptr c, int64_t ldc, int64_t stride_c, int64_t batch_count,
    size_t *bytes);

/**
 * @brief Gives the context the caller's device memory as the scratch of
 * its calls on caller streams, as cublasSetWorkspace: from then on those
 * calls use only it and never allocate (graph-capturable); a call needing
 * more fails with ::GEMMKIT_ERROR_BUFFER_TOO_SMALL before enqueueing
 * anything.
 *
 * The memory stays the caller's: keep it alive while calls that use it
 * may run, and free it yourself. Calls ordered on one stream reuse it; the
 * calls of two streams must not run at once on one workspace. workspace 0
 * with bytes 0 goes back to scratch allocated and cached by the context.
 * The blocking calls of gemmkit.h keep their own cached scratch.
 * @param workspace  256-byte aligned (cuMemAlloc's alignment).
 * @par Blocks
 *   never.
 * @par Threads
 *   holds the context's mutex; calls already enqueued keep using the old
 *   workspace until they run.
 * @par Limits
 *   none.
 * @retval GEMMKIT_SUCCESS
 * @retval GEMMKIT_ERROR_NULL_POINTER  ctx is NULL, or workspace is 0 with
 *   bytes not 0.
 * @retval GEMMKIT_ERROR_UNSUPPORTED_BACKEND  the context is not on CUDA.
 * @retval GEMMKIT_ERROR_INVALID_ARGUMENT  workspace not 256-byte aligned.
 */
GEMMKIT_API gemmkit_status gemmkit_cuda_set_workspace(gemmkit_context *ctx, CUdeviceptr workspace, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif
