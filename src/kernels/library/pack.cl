// Post-processing around the tiled SGEMM kernels (tutorial kernel 10): writing
// a padded result back into C with alpha and beta, summing split-K's partial
// results into C, and scaling C alone. The pre-processing (packing an operand,
// transposed or not, into a zero-padded buffer) runs on the transpose and copy
// kernels (src/core/routine_omatcopy.c).
//
// Each work-item moves WPT rows of one column. With WPT = 4 and C's columns
// 16-byte aligned (VEC_C) they are consecutive: the padded results are read
// as float4 (their leading dimensions are tile multiples: whole float4) and C
// is read and written as float4, its last rows one float at a time. Where C's
// columns are not aligned, a work-item's four rows are TILE apart instead, so
// that consecutive work-items touch consecutive floats of C (with four
// consecutive rows each, every scalar store of a warp spanned four times the
// lines: the unpack of 4095^3 moved 1.6 TB/s on the H200). These steps are
// memory-bound.

#ifndef TILE
#define TILE 16 // work-group is TILE x TILE
#endif
#ifndef WPT
#define WPT 4 // rows of C per work-item: 1 or 4
#endif
#ifndef VEC_C
#define VEC_C 0
#endif
#if WPT == 4 && !VEC_C
#define ROW_STEP TILE // this work-item's rows: m, m + TILE, m + 2 TILE, m + 3 TILE
#else
#define ROW_STEP 1
#endif

// The first of this work-item's rows: each work-group covers TILE * WPT of them.
static inline int first_row(void)
{
    return ROW_STEP == 1 ? (int)get_global_id(0) * WPT : (int)get_group_id(0) * TILE * WPT + (int)get_local_id(0);
}

// c = v + beta * c for this work-item's rows of C from m on that are inside M (C not read when beta == 0).
static inline void store_rows(__global float* c, const float4 v, const float beta, const int m, const int M)
{
#if WPT == 4
    if (VEC_C && m + 4 <= M) {
        vstore4(beta == 0.0f ? v : v + beta * vload4(0, c), 0, c);
        return;
    }
    const float s[4] = {v.x, v.y, v.z, v.w};
    for (int i = 0; i < 4 && m + i * ROW_STEP < M; i++)
        c[i * ROW_STEP] = beta == 0.0f ? s[i] : s[i] + beta * c[i * ROW_STEP];
#else
    *c = beta == 0.0f ? v.x : v.x + beta * *c;
#endif
}

// This work-item's rows of a padded result from p on (float4 where its rows are whole float4 and consecutive).
static inline float4 load_rows(const __global float* p, const int ldp, const int m, const int M)
{
#if WPT == 4
    if (ROW_STEP == 1 && ldp % 4 == 0) return vload4(0, p);
    float s[4];
    for (int i = 0; i < 4; i++) s[i] = m + i * ROW_STEP < M ? p[i * ROW_STEP] : 0.0f;
    return (float4)(s[0], s[1], s[2], s[3]);
#else
    return (float4)(p[0], 0.0f, 0.0f, 0.0f);
#endif
}

// C = alpha * P + beta * C over the M x N part of the padded result P (ld ldp).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_unpack(const int M, const int N, const float alpha, const __global float* P, const int ldp,
               const float beta, __global float* C, const int offC, const int ldc)
{
    const int m = first_row();
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    store_rows(&C[offC + m + (size_t)n * ldc], alpha * load_rows(&P[m + (size_t)n * ldp], ldp, m, M), beta, m, M);
}

// The second step of split-K (src/core/routine_gemm.c): C = alpha * (P_0 +
// ... + P_{splits-1}) + beta * C, the partials (each padded, leading dimension
// ldp, the next one strideP floats further) summed in a fixed order, z = 0
// first, so that a result is the same on every run; alpha and beta applied
// once; the sum in float32, like the partials themselves.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_reduce(const int M, const int N, const int splits, const float alpha, const __global float* P,
               const int ldp, const int strideP, const float beta, __global float* C, const int offC,
               const int ldc)
{
    const int m = first_row();
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    const __global float* p = &P[m + (size_t)n * ldp];
    float4 sum = load_rows(p, ldp, m, M);
    for (int z = 1; z < splits; z++) sum += load_rows(p + (size_t)z * strideP, ldp, m, M);
    store_rows(&C[offC + m + (size_t)n * ldc], alpha * sum, beta, m, M);
}

// C = beta * C (C is not read when beta == 0): the alpha == 0 or K == 0 case.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gk_scale(const int M, const int N, const float beta, __global float* C, const int offC,
              const int ldc)
{
    const int m = first_row();
    const int n = get_global_id(1);
    if (m >= M || n >= N) return;
    __global float* c = &C[offC + m + (size_t)n * ldc];
    // beta * c exactly (not store_rows' 0 + beta * c, which would turn a -0.0 product into +0.0).
#if WPT == 4
    if (VEC_C && m + 4 <= M) {
        vstore4(beta == 0.0f ? (float4)(0.0f) : beta * vload4(0, c), 0, c);
        return;
    }
    for (int i = 0; i < 4 && m + i * ROW_STEP < M; i++) c[i * ROW_STEP] = beta == 0.0f ? 0.0f : beta * c[i * ROW_STEP];
#else
    *c = beta == 0.0f ? 0.0f : beta * *c;
#endif
}
