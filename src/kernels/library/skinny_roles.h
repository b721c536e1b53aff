// The operands' roles in the skinny kernels (skinny.cl, skinny_dot.cl): S, the small operand (SMALL x K), and L,
// the large one (K x LONG), by SKINNY_N, each read through op() from A and B as stored (TRANS_A, TRANS_B; A, B and
// C point at the operands' first elements). "Rows" r are the small edge, "columns" c the long one.
//   SKINNY_N=0 (M small): S = op(A), L = op(B), C(r, c).
//   SKINNY_N=1 (N small): S = op(B)^T, L = op(A)^T; C^T = op(B)^T op(A)^T is the same product with the roles swapped.
// S_K_FASTEST and L_K_FASTEST say whether each is stored contiguous along K. Both write C(m, n) at m + n*ldc (OUT:
// C^T's element (r, c) is C's (c, r)), split-K's partials too.
#ifndef GK_SKINNY_ROLES_H
#define GK_SKINNY_ROLES_H

#if TRANS_A
#define A_AT(m, k) A[(k) + (m) * lda]
#else
#define A_AT(m, k) A[(m) + (k) * lda]
#endif
#if TRANS_B
#define B_AT(k, n) B[(n) + (k) * ldb]
#else
#define B_AT(k, n) B[(k) + (n) * ldb]
#endif

#if SKINNY_N
#define S_AT(r, k) B_AT(k, r)
#define L_AT(k, c) A_AT(c, k)
#define OUT(r, c) C[(c) + (r) * ldc]
#define S_K_FASTEST (!TRANS_B)
#define L_K_FASTEST TRANS_A
#define SMALL N
#define LONG M
// A tile's results as a block of C (tile_count.h's sum_partials: first row, rows, first column, columns).
#define C_BLOCK(r0, rows, c0, cols) (c0), (cols), (r0), (rows)
#else
#define S_AT(r, k) A_AT(r, k)
#define L_AT(k, c) B_AT(k, c)
#define OUT(r, c) C[(r) + (c) * ldc]
#define S_K_FASTEST TRANS_A
#define L_K_FASTEST (!TRANS_B)
#define SMALL M
#define LONG N
#define C_BLOCK(r0, rows, c0, cols) (r0), (rows), (c0), (cols)
#endif

#endif
