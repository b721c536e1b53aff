// SGEMM tutorial, kernel 4: wider data types. The extra work per work-item
// now lies along M, as the WIDTH lanes of a vector type (float2/4/8): global
// loads, local-memory accesses and C stores move WIDTH floats per
// instruction. The work-group is TS/WIDTH x TS for a TS x TS tile.
// Column-major C = A * B; M, N and K are multiples of TS (and so of WIDTH).

#ifndef TS
#define TS 32 // tile edge and K step
#endif
#ifndef WIDTH
#define WIDTH 4 // floats per vector: 1, 2, 4 or 8
#endif

#if WIDTH == 1
typedef float floatX;
#elif WIDTH == 2
typedef float2 floatX;
#elif WIDTH == 4
typedef float4 floatX;
#elif WIDTH == 8
typedef float8 floatX;
#else
#error "WIDTH must be 1, 2, 4 or 8"
#endif

// acc += Asub[WIDTH*k + w][row] * (lane w of vecB): one k step per lane of B.
#define STEP(w, lane) acc += Asub[WIDTH * k + (w)][row] * vecB.lane

__kernel __attribute__((reqd_work_group_size(TS / WIDTH, TS, 1)))
void tutorial_gemm4(const int M, const int N, const int K,
                    const __global floatX* A,
                    const __global floatX* B,
                    __global floatX* C)
{
    const int row = get_local_id(0); // local row of vectors (0..TS/WIDTH)
    const int col = get_local_id(1); // local column (0..TS)
    const int globalRow = (TS / WIDTH) * get_group_id(0) + row; // vector row of C (0..M/WIDTH)
    const int globalCol = TS * get_group_id(1) + col;           // column of C (0..N)

    __local floatX Asub[TS][TS / WIDTH]; // Asub[k][m / WIDTH]
    __local floatX Bsub[TS][TS / WIDTH]; // Bsub[n][k / WIDTH]

    floatX acc = (floatX)(0.0f);

    const int numTiles = K / TS;
    for (int t = 0; t < numTiles; t++) {
        const int tiledRow = (TS / WIDTH) * t + row; // vector index along K (for B)
        const int tiledCol = TS * t + col;           // column index along K (for A)
        Asub[col][row] = A[tiledCol * (M / WIDTH) + globalRow];
        Bsub[col][row] = B[globalCol * (K / WIDTH) + tiledRow];
        barrier(CLK_LOCAL_MEM_FENCE);

        // A vector of B holds WIDTH consecutive k values of one column: each
        // lane multiplies a whole vector of A (WIDTH rows of C).
        for (int k = 0; k < TS / WIDTH; k++) {
            const floatX vecB = Bsub[col][k];
#if WIDTH == 1
            acc += Asub[k][row] * vecB;
#else
            STEP(0, s0);
            STEP(1, s1);
#if WIDTH >= 4
            STEP(2, s2);
            STEP(3, s3);
#endif
#if WIDTH == 8
            STEP(4, s4);
            STEP(5, s5);
            STEP(6, s6);
            STEP(7, s7);
#endif
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[globalCol * (M / WIDTH) + globalRow] = acc;
}
