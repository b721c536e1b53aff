// Pre- and post-processing around the tiled SGEMM kernels (tutorial kernel 10):
// packing an operand into a zero-padded column-major buffer, optionally
// transposed, and writing a padded result back into C with alpha and beta.

#ifndef TILE
#define TILE 16 // work-group is TILE x TILE; each work-item moves one element
#endif
#ifndef TRANS
#define TRANS 0
#endif

// dst (rows_p x cols_p, ld rows_p) = X zero-padded, where
// X(r, c) = TRANS ? src[off + c + r*ld] : src[off + r + c*ld] for r < rows, c < cols.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_pack(const int rows, const int cols, const int rows_p, const int cols_p,
             const __global float* src, const int off, const int ld, __global float* dst)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int r0 = get_group_id(0) * TILE;
    const int c0 = get_group_id(1) * TILE;
#if TRANS
    // Read along src's contiguous dimension, write through a local tile so
    // both global accesses are coalesced.
    __local float tile[TILE][TILE + 1];
    const int sr = r0 + ty, sc = c0 + tx; // element X(sr, sc) = src[sc + sr*ld]
    tile[ty][tx] = (sr < rows && sc < cols) ? src[off + sc + sr * ld] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int r = r0 + tx, c = c0 + ty;
    if (r < rows_p && c < cols_p) dst[r + c * rows_p] = tile[tx][ty];
#else
    const int r = r0 + tx, c = c0 + ty;
    if (r < rows_p && c < cols_p)
        dst[r + c * rows_p] = (r < rows && c < cols) ? src[off + r + c * ld] : 0.0f;
#endif
}

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
