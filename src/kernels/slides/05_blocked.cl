// OpenCL memory-hierarchy slides, step 5: "Block oriented approach using
// local". One work-item per element of C, organised into BLOCK x BLOCK
// work-groups; for each block of the inner dimension the work-group copies a
// BLOCK x BLOCK block of A and of B into local memory (one element each per
// work-item), waits, and multiplies the two blocks out of local memory. The
// slides compare BLOCK = 8, 16, 32 (64 on the CPU only).
//
// Mapping to gemmkit (column-major C = A * B, packed, arguments M, N, K, A, B, C):
// the slides' kernels are row-major. Read row-major, gemmkit's buffers hold
// C^T (N x M), A^T (K x M) and B^T (N x K), and C^T = B^T * A^T. So the slides'
// code runs on the row-major operands Cr = Ar * Br with
//   Ar = B (N x K), Br = A (K x M), Cr = C (N x M),
// where the square N becomes K for Ar's row stride and M for Br's and Cr's.
// As in the slides, i = get_global_id(0) is the column of Cr and
// j = get_global_id(1) the row (C[j*N+i]), so the local index iloc walks along
// contiguous rows of A, B and C. M, N and K are multiples of BLOCK (the
// library pads).
//
// One correction: the slides take A's block row from get_group_id(0) and B's
// block column from get_group_id(1), but store to C[j*N+i], whose row comes
// from dimension 1. That writes the result for block (I, J) into block (J, I),
// which only goes unnoticed when the blocks of C are all equal (e.g. constant
// test matrices). Here A's block row comes from group 1 and B's block column
// from group 0, consistent with the store.

#ifndef BLOCK
#define BLOCK 16 // the slides' blksz: work-group and block edge
#endif

__kernel __attribute__((reqd_work_group_size(BLOCK, BLOCK, 1)))
void slides_blocked(const int M, const int N, const int K,
                    const __global float* A, const __global float* B, __global float* C)
{
    const __global float* Ar = B; // N x K, row-major
    const __global float* Br = A; // K x M, row-major
    __global float* Cr = C;       // N x M, row-major
    const int NC = M;             // columns of Cr (row stride of Br and Cr)

    __local float Awrk[BLOCK * BLOCK];
    __local float Bwrk[BLOCK * BLOCK];
    float Ctmp = 0.0f;

    // Compute element Cr(j, i): column i, row j.
    const int i = get_global_id(0);
    const int j = get_global_id(1);
    // Cr(j, i) is element (jloc, iloc) of block (Jblk, Iblk).
    const int Iblk = get_group_id(0);
    const int Jblk = get_group_id(1);
    const int iloc = get_local_id(0);
    const int jloc = get_local_id(1);
    const int Num_BLK = K / BLOCK;

    // Upper-left corner and increment of the current blocks of Ar and Br.
    int Abase = Jblk * K * BLOCK;
    const int Ainc = BLOCK;
    int Bbase = Iblk * BLOCK;
    const int Binc = BLOCK * NC;

    // Cr(Jblk, Iblk) = sum over Kblk of Ar(Jblk, Kblk) * Br(Kblk, Iblk)
    for (int Kblk = 0; Kblk < Num_BLK; Kblk++) {
        // Each work-item loads one element of both blocks.
        Awrk[jloc * BLOCK + iloc] = Ar[Abase + jloc * K + iloc];
        Bwrk[jloc * BLOCK + iloc] = Br[Bbase + jloc * NC + iloc];
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int kloc = 0; kloc < BLOCK; kloc++)
            Ctmp += Awrk[jloc * BLOCK + kloc] * Bwrk[kloc * BLOCK + iloc];
        // Everyone is done with these blocks before the next ones are loaded.
        barrier(CLK_LOCAL_MEM_FENCE);
        Abase += Ainc;
        Bbase += Binc;
    }
    Cr[j * NC + i] = Ctmp;
}
