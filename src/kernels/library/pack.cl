// Post-processing around the tiled SGEMM kernels (tutorial kernel 10): writing
// a padded result back into C with alpha and beta, and scaling C alone. The
// pre-processing (packing an operand, transposed or not, into a zero-padded
// buffer) runs on the transpose and copy kernels (src/core/routine_omatcopy.c).

#ifndef TILE
#define TILE 16 // work-group is TILE x TILE; each work-item moves one element
#endif

// C = alpha * P + beta * C over the M x N part of the padded result P (ld ldp).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_unpack(const int M, const int N, const float alpha, const __global float* P, const int ldp,
               const float beta, __global float* C, const int offC, const int ldc)
{
    const int m = get_global_id(0);
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    __global float* c = &C[offC + m + n * ldc];
    const float v = alpha * P[m + n * ldp];
    *c = beta == 0.0f ? v : v + beta * *c;
}

// C = beta * C (C is not read when beta == 0): the alpha == 0 or K == 0 case.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_scale(const int M, const int N, const float beta, __global float* C, const int offC,
              const int ldc)
{
    const int m = get_global_id(0);
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    __global float* c = &C[offC + m + n * ldc];
    *c = beta == 0.0f ? 0.0f : beta * *c;
}
