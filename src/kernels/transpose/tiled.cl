// Transposition ladder, steps 3 to 5 (CUDA lecture), one kernel with switches:
//   step 3 (PAD=0, DIAGONAL=0): through a local-memory tile, so that both the
//     reads of A and the writes of B are coalesced; reading the tile by columns
//     hits one bank TILE_DIM times over (bank conflicts);
//   step 4 (PAD=1): the tile padded by one column, so a column spans all banks;
//   step 5 (DIAGONAL=1): work-groups take tiles in diagonal order, so that the
//     groups running together touch different memory partitions (partition
//     camping at sizes that are multiples of 512). Generalised to rectangular
//     grids; on a square grid it is the lecture's mapping.
//
// B = alpha * A^T: A is rows x cols, B is cols x rows, both column-major:
//   B[offB + c + r*ldb] = alpha * A[offA + r + c*lda].

#ifndef TILE_DIM
#define TILE_DIM 32 // tile edge; also the work-group's first dimension
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8 // the work-group's second dimension
#endif
#ifndef PAD
#define PAD 0 // extra columns in the local tile
#endif
#ifndef DIAGONAL
#define DIAGONAL 0 // diagonal work-group order
#endif

__kernel __attribute__((reqd_work_group_size(TILE_DIM, BLOCK_ROWS, 1)))
void gk_transpose_tiled(const int rows, const int cols, const float alpha,
                        const __global float* A, const int offA, const int lda,
                        __global float* B, const int offB, const int ldb)
{
    __local float tile[TILE_DIM][TILE_DIM + PAD]; // tile[column of A][row of A]
    int gx = get_group_id(0), gy = get_group_id(1);
#if DIAGONAL
    // Number the groups in launch order, then deal them out so that consecutive
    // groups walk down a diagonal of the tile grid: a bijection for any grid.
    const int bid = gx + gy * get_num_groups(0);
    gy = bid % get_num_groups(1);
    gx = (bid / get_num_groups(1) + gy) % get_num_groups(0);
#endif
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int r0 = gx * TILE_DIM, c0 = gy * TILE_DIM;

    // Read the block of A column by column: consecutive work-items, consecutive rows.
    const int r = r0 + tx;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        const int c = c0 + ty + i;
        if (r < rows && c < cols) tile[ty + i][tx] = A[offA + r + c * lda];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Write B column by column: B's column r holds A's row r, contiguous in c.
    const int c = c0 + tx;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
        const int rr = r0 + ty + i;
        if (c < cols && rr < rows) B[offB + c + rr * ldb] = alpha * tile[tx][ty + i];
    }
}
