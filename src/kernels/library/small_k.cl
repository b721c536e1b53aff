// SGEMM with a short K (e.g. K <= 16) and a large C: bound by writing C
// (8192 x 8192 x 2 writes 256 MB of C from 128 KB of A and B), so the kernel
// is built around C's stores. Contract GK_CONTRACT_GEMM_DIRECT: any sizes
// (K too: longer K runs in chunks), TRANS_A/TRANS_B, offsets, leading
// dimensions; column-major C = alpha * op(A) * op(B) + beta * C, C not read
// when beta == 0.
//
// A work-group of LX x LY work-items computes a (LX*WM) x (LY*WN) tile of C.
// Per chunk of up to KCH values of K, op(A)'s and op(B)'s few values for the
// tile are staged in local memory (read along each operand's contiguous
// dimension, chosen at compile time from TRANS_A/TRANS_B). Work-item (tx, ty)
// owns rows tx + LX*i (i < WM) and WN consecutive columns ty*WN + j: its
// values of op(A) come from consecutive addresses across lanes (no bank
// conflicts), its values of op(B) as float4s that a warp shares (broadcast).
// Every store (and every read of C when beta != 0) is LX consecutive floats
// of one column of C: coalesced at any ldc and offset. Each work-item issues
// WM*WN independent stores.

#ifndef LX
#define LX 32 // work-items along M
#endif
#ifndef LY
#define LY 8 // work-items along N
#endif
#ifndef WM
#define WM 4 // rows of C per work-item, LX apart
#endif
#ifndef WN
#define WN 8 // consecutive columns of C per work-item (a multiple of 4)
#endif
#ifndef KCH
#define KCH 8 // K per staged chunk
#endif
#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif

#define TM (LX * WM)
#define TN (LY * WN)
#define WG (LX * LY)

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

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void gk_sgemm_small_k(const int M, const int N, const int K, const float alpha,
                      const __global float* A, const int offA, const int lda,
                      const __global float* B, const int offB, const int ldb,
                      const float beta, __global float* C, const int offC, const int ldc)
{
    __local float As[KCH * TM];         // As[k][m]
    __local float4 Bs4[KCH * TN / 4];   // Bs[k][n], read as float4s
    __local float* Bs = (__local float*)Bs4;
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int lid = ty * LX + tx;
    const int m0 = get_group_id(0) * TM, n0 = get_group_id(1) * TN;

    float acc[WM][WN];
#pragma unroll
    for (int i = 0; i < WM; i++)
#pragma unroll
        for (int j = 0; j < WN; j++) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += KCH) {
        const int kn = min(KCH, K - k0);
        barrier(CLK_LOCAL_MEM_FENCE); // the previous chunk's reads are done
        for (int t = lid; t < TM * KCH; t += WG) {
#if TRANS_A
            const int kk = t % KCH, i = t / KCH; // A(m, k) at k + m*lda: along K
#else
            const int i = t % TM, kk = t / TM;   // along M
#endif
            if (kk < kn) As[kk * TM + i] = m0 + i < M ? A_AT(m0 + i, k0 + kk) : 0.0f;
        }
        for (int t = lid; t < TN * KCH; t += WG) {
#if TRANS_B
            const int j = t % TN, kk = t / TN;   // B(k, n) at n + k*ldb: along N
#else
            const int kk = t % KCH, j = t / KCH; // along K
#endif
            if (kk < kn) Bs[kk * TN + j] = n0 + j < N ? B_AT(k0 + kk, n0 + j) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int kk = 0; kk < kn; kk++) {
            float a[WM];
#pragma unroll
            for (int i = 0; i < WM; i++) a[i] = As[kk * TM + tx + LX * i];
#pragma unroll
            for (int q = 0; q < WN / 4; q++) {
                const float4 b = Bs4[(kk * TN + ty * WN) / 4 + q];
#pragma unroll
                for (int i = 0; i < WM; i++) {
                    acc[i][4 * q + 0] = fma(a[i], b.x, acc[i][4 * q + 0]);
                    acc[i][4 * q + 1] = fma(a[i], b.y, acc[i][4 * q + 1]);
                    acc[i][4 * q + 2] = fma(a[i], b.z, acc[i][4 * q + 2]);
                    acc[i][4 * q + 3] = fma(a[i], b.w, acc[i][4 * q + 3]);
                }
            }
        }
    }

#pragma unroll
    for (int j = 0; j < WN; j++) {
        const int n = n0 + ty * WN + j;
        if (n < N) {
#pragma unroll
            for (int i = 0; i < WM; i++) {
                const int m = m0 + tx + LX * i;
                if (m < M) {
                    __global float* c = &C[offC + m + n * ldc];
                    // BLAS: with beta == 0, C is not read (NaN in C must not leak).
                    *c = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *c;
                }
            }
        }
    }
}
