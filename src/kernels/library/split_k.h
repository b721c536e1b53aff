// The arguments and slice of a split-K build (contract GK_CONTRACT_GEMM_DIRECT_SPLIT: xgemm_wgmma.cl and
// xgemm_tc.cl built with SPLITK=1). Work-group z along the grid's third dimension multiplies
// the K-slice [z*kslice, min(K, (z+1)*kslice)) of op(A) and op(B), read in place, into partial z (C + z*strideC,
// leading dimension ldc) with alpha 1 and beta 0; the plan's reduction sums the partials in order and applies
// alpha and beta once. After SPLIT_K_SLICE(), K is the slice's length and A, B, C point at its start.
#ifndef GK_SPLIT_K_H
#define GK_SPLIT_K_H

#define SPLIT_K_ARGS                                                                                           \
    const int M, const int N, const int K_ALL, const int kslice, const __global float *A, const int offA,       \
        const int lda, const __global float *B, const int offB, const int ldb, __global float *C, const int ldc, \
        const int strideC

// This work-group's slice of K: K its length, A and B moved to its start (both split-K contracts).
#define SPLIT_K_SLICE_OPERANDS()                                                                               \
    const int kz = get_group_id(2) * kslice;                                                                   \
    const int K = min(K_ALL - kz, kslice);                                                                     \
    A += offA + (TRANS_A ? (size_t)kz : (size_t)kz * lda);                                                     \
    B += offB + (TRANS_B ? (size_t)kz * ldb : (size_t)kz)

#define SPLIT_K_SLICE()                                                                                        \
    SPLIT_K_SLICE_OPERANDS();                                                                                  \
    const float alpha = 1.0f, beta = 0.0f;                                                                     \
    C += get_group_id(2) * (size_t)strideC

// The same slices with the sum in the kernel (contract GK_CONTRACT_GEMM_DIRECT_SPLIT_SUM: xgemm_direct.cl,
// skinny.cl and skinny_dot.cl built with SPLITK=1): partial z is P + z*strideP (leading dimension ldp, a multiple
// of 4 floats); C, alpha and beta are the caller's. When sum_here, the last slice of each tile to arrive on its
// counter (tile_counts, one int per tile, zero between calls; tile_count.h) sums the partials and writes C; else
// the plan's reduction does. After SPLIT_K_SUM_SLICE(), K is the slice's length, A and B point at its start and C
// at the caller's C.
#define SPLIT_K_SUM_ARGS SPLIT_K_SUM_ARGS_AS(alpha, beta, C, ldc)
#define SPLIT_K_SUM_ARGS_AS(alpha_, beta_, C_, ldc_)                                                          \
    const int M, const int N, const int K_ALL, const int kslice, const __global float *A, const int offA,      \
        const int lda, const __global float *B, const int offB, const int ldb, __global float *P, const int ldp, \
        const int strideP, const float alpha_, const float beta_, __global float *C_, const int offC,          \
        const int ldc_, volatile __global int *tile_counts, const int sum_here

#define SPLIT_K_SUM_SLICE()                                                                                   \
    SPLIT_K_SLICE_OPERANDS();                                                                                 \
    C += offC

// For kernels whose store of a result writes through C, ldc, alpha and beta (skinny.cl, skinny_dot.cl), so that
// their text is the same in every build: the arguments SPLIT_K_SUM_ARGS_AS(sum_alpha, sum_beta, sum_C, sum_ldc)
// name the caller's C and scalars, which the sum writes with; after SPLIT_K_SUM_INTO_PARTIAL(), C and ldc are this
// slice's partial with alpha 1 and beta 0, and sum_C points at the caller's C.
#define SPLIT_K_SUM_INTO_PARTIAL()                                                                            \
    SPLIT_K_SLICE_OPERANDS();                                                                                 \
    sum_C += offC;                                                                                            \
    __global float* C = P + get_group_id(2) * (size_t)strideP;                                                \
    const int ldc = ldp;                                                                                      \
    const float alpha = 1.0f, beta = 0.0f

#endif
