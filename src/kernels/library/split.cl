// The 3xTF32 operands of xgemm-wgmma-3xtf32-split (xgemm_wgmma.cl, PRESPLIT):
// over the rows x cols of X (column-major, leading dimension ldx), Y = the
// big parts tf32(x) and, cols * ldy floats further, the small parts
// tf32(x - tf32(x)), rounded as the tensor-core kernels round in place
// (tf32.h; x - tf32(x) is exact). In place when Y is X with ldy = ldx.
// Contract GK_CONTRACT_SPLIT: (rows, cols, X, offX, ldx, Y, ldy).
//
// A work-group covers TILE * WPT rows of TILE columns; a work-item's WPT rows
// are TILE apart, so that consecutive work-items read and write consecutive
// floats of each column whatever the leading dimensions (memory-bound).

#ifndef TILE
#define TILE 16 // work-group is TILE x TILE
#endif
#ifndef WPT
#define WPT 4 // rows per work-item
#endif

#define HELPER static inline
#define SPLIT 1
#include "tf32.h" // tf32_of

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_split(const int rows, const int cols, const __global float* X, const int offX, const int ldx,
              __global float* Y, const int ldy)
{
    const int r0 = (int)get_group_id(0) * TILE * WPT + (int)get_local_id(0);
    const int c = get_global_id(1);
    if (c >= cols) return;
    const __global float* x = X + offX + (size_t)c * ldx;
    __global float* big = Y + (size_t)c * ldy;
    __global float* small = big + (size_t)cols * ldy;
    #pragma unroll
    for (int i = 0; i < WPT; i++) {
        const int r = r0 + i * TILE;
        if (r < rows) {
            const float v = x[r], b = tf32_of(v);
            big[r] = b;
            small[r] = tf32_of(v - b);
        }
    }
}
