// Hopper's warpgroup tensor-core instruction (wgmma, sm_90a) and the local
// memory it reads, for the kernels built on it (xgemm_wgmma.cl, the cp.async
// ring; xgemm_wgmma_tma.cl, the tensor memory accelerator's; igemm_wgmma.cl,
// its s8 form for math mode int8x). They define TSM,
// TSN (the work-group's tile of C) and NI (n8 tiles per warp: wgmma's N / 8)
// first. CUDA only.
#ifndef GK_WGMMA_H
#define GK_WGMMA_H

#define HELPER static inline __attribute__((always_inline))

// ---- PTX ----------------------------------------------------------------
// The 32-bit shared-window address (copies, mbarriers and matrix descriptors take it).
#define LOCAL_ADDRESS(p) ((uint)__cvta_generic_to_shared(p))
#define WGMMA_FENCE() asm volatile("wgmma.fence.sync.aligned;" ::: "memory")
#define WGMMA_COMMIT() asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory")
#define WGMMA_WAIT_(n) asm volatile("wgmma.wait_group.sync.aligned " #n ";" ::: "memory")
#define WGMMA_WAIT(n) WGMMA_WAIT_(n) // until at most n groups of this warpgroup run
// Local stores made visible to the tensor cores' (the async proxy's) reads.
#define FENCE_PROXY_ASYNC() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")

// mbarriers in local memory (PTX ISA, "Parallel Synchronization and
// Communication Instructions: mbarrier"): each of `count` work-items arrives
// once per phase (release), and waits for a phase by its parity (acquire).
HELPER void phase_init(__local ulong* bar, const int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(LOCAL_ADDRESS(bar)), "r"(count) : "memory");
}
HELPER void phase_arrive(__local ulong* bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(LOCAL_ADDRESS(bar)) : "memory");
}
HELPER int phase_done(__local ulong* bar, const int parity)
{
    uint done;
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(LOCAL_ADDRESS(bar)), "r"(parity)
                 : "memory");
    return done;
}
HELPER void phase_wait(__local ulong* bar, const int parity)
{
    while (!phase_done(bar, parity)) {
    }
}

// The accumulator operands: "%0, %1, ..." in tens, and a "+f" per register.
#define P10(t) "%" #t "0, %" #t "1, %" #t "2, %" #t "3, %" #t "4, %" #t "5, %" #t "6, %" #t "7, %" #t "8, %" #t "9, "
#define F4(d, j) "+f"((d)[j][0]), "+f"((d)[j][1]), "+f"((d)[j][2]), "+f"((d)[j][3])
#define F32(d, j) F4(d, j), F4(d, j + 1), F4(d, j + 2), F4(d, j + 3), F4(d, j + 4), F4(d, j + 5), F4(d, j + 6), F4(d, j + 7)
// The same for integer accumulators (s8 x s8 -> s32): a "+r" per register.
#define R4(d, j) "+r"((d)[j][0]), "+r"((d)[j][1]), "+r"((d)[j][2]), "+r"((d)[j][3])
#define R32(d, j) R4(d, j), R4(d, j + 1), R4(d, j + 2), R4(d, j + 3), R4(d, j + 4), R4(d, j + 5), R4(d, j + 6), R4(d, j + 7)
#if NI == 8
#define WG_N "64"
#define WG_OPERANDS "{" P10() P10(1) P10(2) "%30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1;\n"
#define WG_SCALE "%37"
#define WG_SS_OPERANDS "{" P10() P10(1) P10(2) "%30, %31}, %32, %33, p, 1, 1;\n"
#define WG_SS_SCALE "%34"
#define WG_S8_OPERANDS "{" P10() P10(1) P10(2) "%30, %31}, %32, %33, p;\n"
#define WG_S8_SCALE "%34"
#define WG_D(d) F32(d, 0)
#define WG_R(d) R32(d, 0)
#elif NI == 16
#define WG_N "128"
#define WG_OPERANDS "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) "%60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n"
#define WG_SCALE "%69"
#define WG_SS_OPERANDS "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) "%60, %61, %62, %63}, %64, %65, p, 1, 1;\n"
#define WG_SS_SCALE "%66"
#define WG_S8_OPERANDS "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) "%60, %61, %62, %63}, %64, %65, p;\n"
#define WG_S8_SCALE "%66"
#define WG_D(d) F32(d, 0), F32(d, 8)
#define WG_R(d) R32(d, 0), R32(d, 8)
#elif NI == 32
#define WG_N "256"
#define WG_OPERANDS                                                                                             \
    "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) P10(6) P10(7) P10(8) P10(9) P10(10) P10(11)                   \
    "%120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n"
#define WG_SCALE "%133"
#define WG_SS_OPERANDS                                                                                          \
    "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) P10(6) P10(7) P10(8) P10(9) P10(10) P10(11)                   \
    "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n"
#define WG_SS_SCALE "%130"
#define WG_S8_OPERANDS                                                                                          \
    "{" P10() P10(1) P10(2) P10(3) P10(4) P10(5) P10(6) P10(7) P10(8) P10(9) P10(10) P10(11)                   \
    "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p;\n"
#define WG_S8_SCALE "%130"
#define WG_D(d) F32(d, 0), F32(d, 8), F32(d, 16), F32(d, 24)
#define WG_R(d) R32(d, 0), R32(d, 8), R32(d, 16), R32(d, 24)
#else
#error "NI must be 8, 16 or 32 (wgmma N = 64, 128, 256)"
#endif
// d (this warp's NI m16n8 tiles) = a (a 16 x 8 fragment, 4 registers) * the
// 8 x TSN of B at descriptor desc, plus d unless scale_d is 0. Asynchronous
// until WGMMA_WAIT covers it.
#define WGMMA(d, a, desc, scale_d)                                                                             \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " WG_SCALE ", 0;\n"                                        \
                 "wgmma.mma_async.sync.aligned.m64n" WG_N "k8.f32.tf32.tf32 " WG_OPERANDS "}\n"               \
                 : WG_D(d)                                                                                    \
                 : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(desc), "r"(scale_d))
// The same with A's 64 x 8 from local memory too, at descriptor adesc (A_DESC).
#define WGMMA_SS(d, adesc, bdesc, scale_d)                                                                     \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " WG_SS_SCALE ", 0;\n"                                     \
                 "wgmma.mma_async.sync.aligned.m64n" WG_N "k8.f32.tf32.tf32 " WG_SS_OPERANDS "}\n"            \
                 : WG_D(d)                                                                                    \
                 : "l"(adesc), "l"(bdesc), "r"(scale_d))

// d (int) = the 64 x 32 bytes of A at adesc times the 32 x TSN bytes of B at
// bdesc, s8 x s8 -> s32 (exact; wrapping past 2^31), plus d unless scale_d is
// 0. Both operands K-major, as s8 requires: a k32 step is 32 bytes, the byte
// geometry of a TF32 k8 step, so the swizzled tiles, tile_descriptor and
// K_STEP below serve unchanged. Asynchronous until WGMMA_WAIT covers it.
#define WGMMA_S8_SS(d, adesc, bdesc, scale_d)                                                                  \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " WG_S8_SCALE ", 0;\n"                                     \
                 "wgmma.mma_async.sync.aligned.m64n" WG_N "k32.s32.s8.s8 " WG_S8_OPERANDS "}\n"              \
                 : WG_R(d)                                                                                    \
                 : "l"(adesc), "l"(bdesc), "r"(scale_d))

// Keeps the compiler from reading integer accumulators before WGMMA_WAIT.
HELPER void fence_registers_int(int (*d)[4])
{
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) asm volatile("" : "+r"(d[j][q])::"memory");
}

// Keeps the compiler from reading accumulators before WGMMA_WAIT.
HELPER void fence_registers(float (*d)[4])
{
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) asm volatile("" : "+f"(d[j][q])::"memory");
}

// acc += part, once the wgmmas that wrote part are waited for.
HELPER void add_partial(float (*acc)[4], float (*part)[4])
{
    fence_registers(part);
    #pragma unroll
    for (int j = 0; j < NI; j++)
        #pragma unroll
        for (int q = 0; q < 4; q++) acc[j][q] += part[j][q];
}

// Descriptor of a tile in the swizzled layout (xgemm_wgmma.cl's header): 128-byte swizzle
// (mode 1), SBO 1024 bytes, LBO unused there (1).
HELPER ulong tile_descriptor(const __local float* tile)
{
    return (ulong)((LOCAL_ADDRESS(tile) & 0x3FFFF) >> 4) | (1ul << 16) | ((ulong)(1024 >> 4) << 32) | (1ul << 62);
}
// The k8 step kk (TF32; the k32 step of s8: 32 bytes either way) of a tile of ROWS rows from its descriptor, in
// 16-byte units.
#define K_STEP(kk, ROWS) ((ulong)(((kk) / 4) * (ROWS) * 8 + ((kk) % 4) * 2))
#define B_STEP(kk) K_STEP(kk, TSN)
#define A_STEP(kk) K_STEP(kk, TSM)

// One K tile of TSK into d with both operands from local memory (descriptors of
// the swizzled K-major tiles): 3xTF32 (split) small x big, big x small and big x
// big per k8 step, TF32 big x big; the tile's first product adds to d where
// keep is 1 and starts d from zero where it is 0 (scale-d). Fenced and
// committed as one group.
HELPER void wgmma_tile_ss(float (*d)[4], const ulong a_big, const ulong a_small, const ulong b_big,
                          const ulong b_small, const int keep, const int split)
{
    WGMMA_FENCE();
    #pragma unroll
    for (int kk = 0; kk < TSK / 8; kk++) {
        if (split) {
            WGMMA_SS(d, a_small + A_STEP(kk), b_big + B_STEP(kk), keep + kk);
            WGMMA_SS(d, a_big + A_STEP(kk), b_small + B_STEP(kk), 1);
        }
        WGMMA_SS(d, a_big + A_STEP(kk), b_big + B_STEP(kk), split ? 1 : keep + kk);
    }
    WGMMA_COMMIT();
}

// 3xTF32 with two warpgroups: the second starts when the first has issued its
// first tile's products, so that out of step one's wgmmas run while the other
// drains and adds its partial (named barrier 1: the first arrives, the second
// waits). H200, 8192^3 (xgemm_wgmma.cl): 88.8 -> 91.6 TFLOPS; TF32 without it.
#define STAGGER_WAIT(tile, wg)                                                                                 \
    if ((tile) == 0 && (wg) == 1) asm volatile("bar.sync 1, 256;" ::: "memory")
#define STAGGER_ARRIVE(tile, wg)                                                                               \
    if ((tile) == 0 && (wg) == 0) asm volatile("bar.arrive 1, 256;" ::: "memory")

#endif
