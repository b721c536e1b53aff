// Split-K that sums its partials in the kernel (the split-K builds of xgemm_direct.cl, skinny.cl and
// skinny_dot.cl, contract GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM): each work-group of a tile stores its partial and
// counts itself in on the tile's counter; the last of the tile's slices to arrive adds up all the partials, in
// slice order, and writes C. No work-group waits on another (no spinning: nothing assumes the slices run at once),
// and the sum is the same whichever slice comes last. The last one sets the counter back to 0 for the next call
// (the plan zeroes the counters once, when it allocates them). Not a kernel: the build inlines this text
// (cmake/embed_kernels.cmake), as async_copy.h's.
//
//   PARTIALS_FENCE()     orders this work-item's stores of its partial before the count (release), and the
//                        count before the other slices' partials are read (acquire), device-wide
//   ARRIVE(counter)      adds 1 to a __global int atomically; the value before
//   load_partial4(p)     a float4 of a partial (16-byte aligned) that another work-group stored
//   load_partial(p)      a float of one
//   COUNT_IN(tile_counts, lane, last)
//                        the whole work-group counts itself in on its tile's counter (its position in the grid's
//                        first two dimensions: the tile's slices differ only in the third): afterwards the __local int
//                        `last` says, to every work-item, whether it was the tile's last slice (which has set the
//                        counter back to 0)
//   sum_partials(...)    the last slice's sum for tiles of few results (the skinny kernels): every work-item sums
//                        results of its own
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
static inline __attribute__((always_inline)) float load_partial(const __global float* p)
{
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
    return v;
}
#else
#define PARTIALS_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
static inline __attribute__((always_inline)) float4 load_partial4(const __global float* p)
{
    return *(const volatile __global float4*)p;
}
static inline __attribute__((always_inline)) float load_partial(const __global float* p)
{
    return *(const volatile __global float*)p;
}
#endif

#ifdef GK_CUDA
#define ARRIVE(counter) atomicAdd((int*)(counter), 1)
#else
#define ARRIVE(counter) atomic_inc(counter)
#endif

// Work-item `lane` (0 for one of them) increments the tile's counter once this work-group's stores of its partial
// are fenced; the barriers make `last` the same for all (every work-item must reach this).
#define COUNT_IN(tile_counts, lane, last)                                                                 \
    {                                                                                                     \
        PARTIALS_FENCE();                                                                                 \
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                              \
        if ((lane) == 0) {                                                                                \
            volatile __global int* counter_ =                                                             \
                (tile_counts) + get_group_id(1) * get_num_groups(0) + get_group_id(0);                    \
            last = ARRIVE(counter_) == (int)get_num_groups(2) - 1;                                        \
            if (last) *counter_ = 0;                                                                      \
        }                                                                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                     \
    }

// The loads of a result's partials issued together before their adds: the tail is about S / SUM_AHEAD load
// latencies, not S.
#define SUM_AHEAD 16

// The last slice's sum over a block of C(m0 + i, n0 + j), i < mt, j < nt (column-major: partial z's result at
// P + z*strideP + m + n*ldp): C = alpha * (P_0 + ... + P_{S-1}) + beta * C, C not read when beta == 0. Each result
// is summed by one work-item (`lane` of `lanes`, consecutive ones on consecutive rows) in slice order: the same
// bits whichever slice is last (and as `reduce` adds them; `reduce-deep`, from 16 slices, adds in a tree). Call
// after COUNT_IN said `last`. Not inlined:
// inlined, its loads in flight raised the whole kernel's registers (CUDA: the skinny strip line's 32 to 40, a
// quarter of its work-groups per SM), which every run paid, summing or not.
static __attribute__((noinline)) void sum_partials(const __global float* P, const int ldp, const int strideP,
                                                   const int S, const int m0, const int mt, const int n0,
                                                   const int nt, const float alpha, const float beta,
                                                   __global float* C, const int ldc, const int lane, const int lanes)
{
    PARTIALS_FENCE();
    for (int t = lane; t < mt * nt; t += lanes) {
        const int m = m0 + t % mt, n = n0 + t / mt;
        // 32-bit offsets (the plan keeps all partials within 2^31 floats): one register per load in flight, not two.
        const int p = m + n * ldp;
        float v[SUM_AHEAD];
        float s = -0.0f; // -0 + x is x, signed zeros included: s is P_0 after the first add
        int z = 0;
        for (; z + SUM_AHEAD <= S; z += SUM_AHEAD) {
#pragma unroll
            for (int u = 0; u < SUM_AHEAD; u++) v[u] = load_partial(P + (p + (z + u) * strideP));
#pragma unroll
            for (int u = 0; u < SUM_AHEAD; u++) s += v[u];
        }
#pragma unroll
        for (int u = 0; u < SUM_AHEAD; u++)
            if (z + u < S) v[u] = load_partial(P + (p + (z + u) * strideP));
#pragma unroll
        for (int u = 0; u < SUM_AHEAD; u++)
            if (z + u < S) s += v[u];
        __global float* c = C + m + (size_t)n * ldc;
        const float r = alpha * s;
        *c = beta == 0.0f ? r : r + beta * *c;
    }
}

#endif
