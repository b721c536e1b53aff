// Transposition ladder, step 2 (CUDA lecture): the naive transpose. Reads of A
// are coalesced (consecutive work-items, consecutive rows), but the writes to B
// are interleaved: consecutive work-items write ldb floats apart.
//
// B = alpha * A^T: A is rows x cols, B is cols x rows, both column-major:
//   B[offB + c + r*ldb] = alpha * A[offA + r + c*lda].

#ifndef TILE_DIM
#define TILE_DIM 32 // block edge; also the work-group's first dimension
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8 // the work-group's second dimension
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void gk_transpose_naive(const int rows, const int cols, const float alpha,
                        const __global float* A, const int offA, const int lda,
                        __global float* B, const int offB, const int ldb)
{
    const int r = get_group_id(0) * TILE_DIM + get_local_id(0);
    const int c0 = get_group_id(1) * TILE_DIM + get_local_id(1);
    if (r >= rows) return;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        const int c = c0 + i;
        if (c < cols) B[offB + c + r * ldb] = alpha * A[offA + r + c * lda];
    }
}
