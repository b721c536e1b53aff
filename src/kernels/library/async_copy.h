// The copies of the ASYNC_STAGES rings of xgemm.cl, xgemm_direct.cl and igemm_tc.cl: global
// to local memory, asynchronously where the device can. Not a kernel: the
// build (cmake/embed_kernels.cmake) puts this text in place of their
// `#include "async_copy.h"`, so every embedded source is still one text that
// compiles on its own (a compiler given the .cl file itself needs
// -I src/kernels/library). Include it after ASYNC_STAGES has its value.
//
// On NVIDIA sm_80 and newer (GK_NV_ARCH: the OpenCL backend's -D, cl_to_cuda.h
// on CUDA) they are cp.async (PTX ISA, "Data Movement and Conversion
// Instructions: cp.async"): no registers in between, completed in groups.
// Elsewhere they are plain copies, done at once, and the group macros do
// nothing, so a ring built on them keeps its order of copies, barriers and
// reads on any device (PoCL in the tests).
//
//   COPY_ASYNC16(dst, src)           16 bytes; dst and src 16-byte aligned
//   COPY_ASYNC16_ZFILL(dst, src, n)  the first n bytes of those 16 (n = 0, 4, 8, 12 or 16;
//                                    src a float pointer), zeros after them
//   COPY_ASYNC4(dst, src)            one float
//   COPY_ASYNC4_ZFILL(dst, src, n)   one float (n = 4) or a zero (n = 0)
//   COMMIT_ASYNC()                   closes this work-item's group of copies
//   WAIT_ASYNC(n)                    until at most n of its groups are in flight (n a literal)
// A copy of n < 16 (or 4) bytes reads only those, but src must still be an
// address inside the buffer: callers point those past a matrix's edge at its
// first element.
//
// A ring of S = ASYNC_STAGES tiles keeps S - 1 of them in flight while one is
// multiplied: TILES_IN_LOCAL = S tiles of local memory (2 without a ring, for
// the register prefetch), and IN_FLIGHT = S - 2 groups left pending when the
// next tile must have landed.
#ifndef GK_ASYNC_COPY_H
#define GK_ASYNC_COPY_H

#if ASYNC_STAGES >= 2
#if defined(GK_NV_ARCH) && GK_NV_ARCH >= 80
// The local address is the 32-bit shared-window address. 16-byte copies go
// through the L2 only (.cg: each tile is read once per work-group); 4-byte
// ones through the L1 too (.ca, the only kind for 4 bytes), where the
// neighbouring floats that other copies take are then found.
#ifdef GK_CUDA
#define LOCAL_ADDRESS(p) ((uint)__cvta_generic_to_shared(p))
#else
#define LOCAL_ADDRESS(p) ((uint)(size_t)(p))
#endif
#define COPY_ASYNC16(dst, src)                                                                                         \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src) : "memory")
#define COPY_ASYNC16_ZFILL(dst, src, n)                                                                                \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src), "r"((int)(n))   \
                 : "memory")
#define COPY_ASYNC4(dst, src)                                                                                          \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src) : "memory")
#define COPY_ASYNC4_ZFILL(dst, src, n)                                                                                 \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(LOCAL_ADDRESS(dst)), "l"(src), "r"((int)(n))    \
                 : "memory")
#define COMMIT_ASYNC() asm volatile("cp.async.commit_group;" ::: "memory")
#define WAIT_ASYNC_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define WAIT_ASYNC(n) WAIT_ASYNC_(n)
#else
#define COPY_ASYNC16(dst, src) (*(dst) = *(const __global float4*)(src))
#define COPY_ASYNC16_ZFILL(dst, src, n)                                                                                \
    (*(dst) = (float4)((n) > 0 ? (src)[0] : 0.0f, (n) > 4 ? (src)[1] : 0.0f, (n) > 8 ? (src)[2] : 0.0f,              \
                       (n) > 12 ? (src)[3] : 0.0f))
#define COPY_ASYNC4(dst, src) (*(dst) = *(src))
#define COPY_ASYNC4_ZFILL(dst, src, n) (*(dst) = (n) ? *(src) : 0.0f)
#define COMMIT_ASYNC()
#define WAIT_ASYNC(n)
#endif
// cp.async.wait_group takes a literal: the groups allowed in flight.
#if ASYNC_STAGES == 2
#define IN_FLIGHT 0
#elif ASYNC_STAGES == 3
#define IN_FLIGHT 1
#elif ASYNC_STAGES == 4
#define IN_FLIGHT 2
#elif ASYNC_STAGES == 5
#define IN_FLIGHT 3
#elif ASYNC_STAGES == 6
#define IN_FLIGHT 4
#else
#error "ASYNC_STAGES must be 0 or 2 to 6"
#endif
#define TILES_IN_LOCAL ASYNC_STAGES
#else
#define TILES_IN_LOCAL 2
#endif

#endif
