// Transposition ladder, steps 1 and 2 (CUDA lecture): one element at a time,
// no tile. A work-group of TILE_DIM x BLOCK_ROWS work-items covers a TILE_DIM x
// TILE_DIM block, TILE_DIM / BLOCK_ROWS elements per work-item; consecutive
// work-items read consecutive rows of A (coalesced).
//   step 1 (TRANSPOSE=0): the plain copy, the bandwidth a transpose should reach;
//   step 2 (TRANSPOSE=1): the naive transpose: its writes are interleaved,
//     consecutive work-items write ldb floats apart.
//
// Argument convention of every transpose/copy kernel (column-major):
//   (rows, cols, alpha, A, offA, lda, B, offB, ldb), A(r, c) = A[offA + r + c*lda];
//   copy: B[offB + r + c*ldb] = alpha * A(r, c); transpose: B[offB + c + r*ldb] = alpha * A(r, c).

#ifndef TILE_DIM
#define TILE_DIM 32 // block edge; also the work-group's first dimension
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8 // the work-group's second dimension
#endif
#ifndef TRANSPOSE
#define TRANSPOSE 1 // 0: copy
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void gk_untiled(const int rows, const int cols, const float alpha,
                const __global float* A, const int offA, const int lda,
                __global float* B, const int offB, const int ldb)
{
    const int r = get_group_id(0) * TILE_DIM + get_local_id(0);
    const int c0 = get_group_id(1) * TILE_DIM + get_local_id(1);
    if (r >= rows) return;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        const int c = c0 + i;
#if TRANSPOSE
        if (c < cols) B[offB + c + r * ldb] = alpha * A[offA + r + c * lda];
#else
        if (c < cols) B[offB + r + c * ldb] = alpha * A[offA + r + c * lda];
#endif
    }
}
