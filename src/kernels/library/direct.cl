// The library's general SGEMM: any size, both transposes, offsets, leading
// dimensions, alpha and beta in one kernel (bounds-checked tiles in local
// memory). Column-major: C = alpha * op(A) * op(B) + beta * C.
// A work-group of TS x TS work-items computes a (TS*WPT) x (TS*WPT) tile of C.

#ifndef TS
#define TS 16 // work-items per dimension of the work-group, and the K step
#endif
#ifndef WPT
#define WPT 2 // C elements per work-item in each dimension
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#define TILE (TS * WPT)

#if TRANS_A
#define A_AT(m, k) A[offA + (k) + (m) * lda]
#else
#define A_AT(m, k) A[offA + (m) + (k) * lda]
#endif
#if TRANS_B
#define B_AT(k, n) B[offB + (n) + (k) * ldb]
#else
#define B_AT(k, n) B[offB + (k) + (n) * ldb]
#endif

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void gk_sgemm_direct(const int M, const int N, const int K, const float alpha,
                     const __global float* A, const int offA, const int lda,
                     const __global float* B, const int offB, const int ldb,
                     const float beta, __global float* C, const int offC, const int ldc)
{
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int row0 = get_group_id(0) * TILE;
    const int col0 = get_group_id(1) * TILE;

    // +1 column of padding keeps the transposed-input stores free of bank conflicts
    __local float Asub[TS][TILE + 1]; // Asub[k][m]
    __local float Bsub[TS][TILE + 1]; // Bsub[k][n]

    float acc[WPT][WPT];
    for (int wm = 0; wm < WPT; wm++)
        for (int wn = 0; wn < WPT; wn++)
            acc[wm][wn] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += TS) {
        for (int w = 0; w < WPT; w++) {
            // Lanes along M (tx) read consecutive addresses of a plain A.
            const int m = row0 + tx + w * TS;
            const int ka = k0 + ty;
            Asub[ty][tx + w * TS] = (m < M && ka < K) ? A_AT(m, ka) : 0.0f;
            // Lanes along K (tx) read consecutive addresses of a plain B.
            const int n = col0 + ty + w * TS;
            const int kb = k0 + tx;
            Bsub[tx][ty + w * TS] = (n < N && kb < K) ? B_AT(kb, n) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < TS; kk++) {
            float a[WPT], b[WPT];
            for (int w = 0; w < WPT; w++) {
                a[w] = Asub[kk][tx + w * TS];
                b[w] = Bsub[kk][ty + w * TS];
            }
            for (int wm = 0; wm < WPT; wm++)
                for (int wn = 0; wn < WPT; wn++)
                    acc[wm][wn] = fma(a[wm], b[wn], acc[wm][wn]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int wn = 0; wn < WPT; wn++) {
        const int n = col0 + ty + wn * TS;
        for (int wm = 0; wm < WPT; wm++) {
            const int m = row0 + tx + wm * TS;
            if (m < M && n < N) {
                __global float* c = &C[offC + m + n * ldc];
                // BLAS: with beta == 0, C is not read (NaN in C must not leak).
                *c = beta == 0.0f ? alpha * acc[wm][wn] : alpha * acc[wm][wn] + beta * *c;
            }
        }
    }
}
