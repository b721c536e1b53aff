// The second step of split-K (src/core/routine_gemm.c): the partial products
// P_z (z = 0 .. splits-1, each padded, leading dimension ldp, the next one
// strideP floats further) summed in a fixed order, z = 0 first, so a result
// is the same on every run, and written back into C with alpha and beta
// applied once. The sum stays in float32, like the partials themselves.

#ifndef TILE
#define TILE 16 // work-group is TILE x TILE; each work-item sums one element
#endif

// C = alpha * sum_z P_z + beta * C over the M x N part (C is not read when beta == 0).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_reduce(const int M, const int N, const int splits, const float alpha, const __global float* P,
               const int ldp, const int strideP, const float beta, __global float* C, const int offC,
               const int ldc)
{
    const int m = get_global_id(0);
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    const __global float* p = &P[m + (size_t)n * ldp];
    float sum = 0.0f;
    for (int z = 0; z < splits; z++) sum += p[(size_t)z * strideP];
    __global float* c = &C[offC + m + n * ldc];
    const float v = alpha * sum;
    *c = beta == 0.0f ? v : v + beta * *c;
}
