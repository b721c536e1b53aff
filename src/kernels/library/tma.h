// The tensor memory accelerator (PTX ISA: cp.async.bulk.tensor, sm_90) for the
// kernels whose tiles it copies under a producer warpgroup (xgemm_wgmma_tma.cl,
// igemm_wgmma.cl): a tensor map argument's address, the copy of one box into
// local memory completing on an mbarrier, and the producer's arrival that
// announces the bytes to come. CUDA only; include after wgmma.h (HELPER,
// LOCAL_ADDRESS).
#ifndef GK_TMA_H
#define GK_TMA_H

// The generic address of a tensor map kernel argument (param space, read by
// the copy engine in place: GK_TENSOR_MAP is __grid_constant__).
#define MAP_ADDRESS(map) ((ulong)&(map))
HELPER void prefetch_map(const ulong map) { asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory"); }
// The box of the map at (inner, row, part) into dst; its bytes counted on bar.
HELPER void copy_box(__local float* dst, const ulong map, const int inner, const int row, const int part,
                     __local ulong* bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
                 "%4}], [%5];" ::"r"(LOCAL_ADDRESS(dst)),
                 "l"(map), "r"(inner), "r"(row), "r"(part), "r"(LOCAL_ADDRESS(bar))
                 : "memory");
}
// The producer's arrival on bar, announcing `bytes` to come from the copies.
HELPER void phase_expect(__local ulong* bar, const int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(LOCAL_ADDRESS(bar)), "r"(bytes)
                 : "memory");
}

#endif
