// Split-K that sums its partials in the kernel (xgemm_direct.cl's split-K build, contract
// GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM): each work-group of a tile stores its partial and counts itself in
// on the tile's counter; the last of the tile's slices to arrive adds up all the partials, in slice order,
// and writes C. No work-group waits on another (no spinning: nothing assumes the slices run at once), and
// the sum is the same whichever slice comes last. The last one sets the counter back to 0 for the next call
// (the plan zeroes the counters once, when it allocates them). Not a kernel: the build inlines this text
// (cmake/embed_kernels.cmake), as async_copy.h's.
//
//   PARTIALS_FENCE()     orders this work-item's stores of its partial before the count (release), and the
//                        count before the other slices' partials are read (acquire), device-wide
//   ARRIVE(counter)      adds 1 to a __global int atomically; the value before
//   load_partial4(p)     a float4 of a partial (16-byte aligned) that another work-group stored
//
// NVIDIA GPUs do not keep their L1 caches coherent between compute units: there the partials are read past
// the L1, from the L2 their stores went to (ld.global.cg), and the fence is membar.gl (CUDA's
// __threadfence()). Elsewhere OpenCL's global fence and volatile loads.
#ifndef GK_TILE_COUNT_H
#define GK_TILE_COUNT_H

#if defined(GK_NV_ARCH)
#define PARTIALS_FENCE() asm volatile("membar.gl;" ::: "memory")
static inline __attribute__((always_inline)) float4 load_partial4(const __global float* p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}
#else
#define PARTIALS_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
static inline __attribute__((always_inline)) float4 load_partial4(const __global float* p)
{
    return *(const volatile __global float4*)p;
}
#endif

#ifdef GK_CUDA
#define ARRIVE(counter) atomicAdd((int*)(counter), 1)
#else
#define ARRIVE(counter) atomic_inc(counter)
#endif

#endif
