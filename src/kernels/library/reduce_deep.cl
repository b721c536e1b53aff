// Split-K's reduction where the partials are many and C is small (a long K
// over few tiles): C = alpha * (P_0 + ... + P_{s-1}) + beta * C, the same
// arguments as pack.cl's gk_reduce (contract GK_CONTRACT_REDUCE). One work-item
// per result would wait on its partials one after another; here a work-group of
// RW x LZ work-items takes RW consecutive rows of one column of C, lane y sums
// the partials y, y + LZ, y + 2 LZ, ... in order (consecutive work-items read
// consecutive floats of one partial), and the LZ sums are added pairwise through
// local memory in a fixed order: the same result on every run and every device.

#ifndef RW
#define RW 32 // rows of C per work-group, one per work-item along x
#endif
#ifndef LZ
#define LZ 32 // lanes along the partials (a power of two)
#endif

__kernel __attribute__((reqd_work_group_size(RW, LZ, 1)))
void gk_reduce_deep(const int M, const int N, const int splits, const float alpha, const __global float* P,
                    const int ldp, const int strideP, const float beta, __global float* C, const int offC,
                    const int ldc)
{
    __local float sums[LZ][RW + 1];
    const int x = get_local_id(0), y = get_local_id(1);
    const int m = get_group_id(0) * RW + x, n = get_group_id(1);
    float sum = 0.0f;
    if (m < M && n < N) {
        const __global float* p = P + m + (size_t)n * ldp;
#pragma unroll 8
        for (int z = y; z < splits; z += LZ) sum += p[(size_t)z * strideP];
    }
    sums[y][x] = sum;
    for (int step = LZ / 2; step > 0; step /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (y < step) sums[y][x] += sums[y + step][x];
    }
    if (y == 0 && m < M && n < N) {
        __global float* c = &C[offC + m + (size_t)n * ldc];
        // BLAS: with beta == 0, C is not read (NaN in C must not leak).
        *c = beta == 0.0f ? alpha * sums[0][x] : alpha * sums[0][x] + beta * *c;
    }
}
