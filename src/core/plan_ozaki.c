/* The plan of math mode int8x, the Ozaki scheme II (GK_CONTRACT_GEMM_OZAKI, docs/MATH.md): slice op(A)'s rows
 * and op(B)'s columns into scaled integer residues (ozaki_norms.cl then ozaki_slice.cl, once per operand), one
 * exact INT8 product per modulus (the chosen kernel, moduli along its grid's third dimension), and their
 * recombination into C with alpha and beta (ozaki_crt.cl). The number of moduli: GEMMKIT_OZAKI_MODULI, read by each call. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plan_gemm.h"
#include "status.h"

#define GK_OZAKI_DEFAULT_MODULI 8
#define GK_OZAKI_MIN_MODULI 2
#define GK_OZAKI_MAX_MODULI 20 /* ozaki.h's table */

/* The moduli of ozaki.h, in order: their product bounds the integers a call may reach. */
static const int moduli_table[GK_OZAKI_MAX_MODULI] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227,
                                                      223, 217, 211, 199, 197, 193, 191, 181, 179, 173};

/* ozaki.h's gk_ozaki_norm_bound on the host: the largest norm a scaled row may have. */
static double norm_bound(int moduli, int64_t k)
{
    double p = 1.0;
    for (int i = 0; i < moduli; i++) p *= moduli_table[i];
    return sqrt(0.5 * p) * (1.0 - 9.5367431640625e-07) - 0.5 * sqrt((double)k) - 1.0;
}

gemmkit_status gk_ozaki_moduli(int64_t k, int *moduli)
{
    int count = GK_OZAKI_DEFAULT_MODULI;
    const char *env = getenv("GEMMKIT_OZAKI_MODULI");
    if (env && *env) {
        char *end = NULL;
        const long value = strtol(env, &end, 10);
        if (*end || value < GK_OZAKI_MIN_MODULI || value > GK_OZAKI_MAX_MODULI)
            return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                           "GEMMKIT_OZAKI_MODULI=\"%s\": expected an integer from %d to %d (math mode int8x)", env,
                           GK_OZAKI_MIN_MODULI, GK_OZAKI_MAX_MODULI);
        count = (int)value;
    }
    /* Each element keeps about log2(bound) bits of its row's norm: fewer than 4 leave nothing worth computing. */
    if (norm_bound(count, k) < 16.0)
        return gk_fail(GEMMKIT_ERROR_INVALID_ARGUMENT,
                       "math mode int8x: %d moduli are too few for K = %lld (their product bounds the integer "
                       "products; set GEMMKIT_OZAKI_MODULI higher)",
                       count, (long long)k);
    *moduli = count;
    return GEMMKIT_SUCCESS;
}

/* rows x Kp residues per modulus after the rows' exponents, in bytes; 0 past what 64-bit sizes hold. */
static size_t sliced_bytes(int64_t rows, int64_t kp, int moduli)
{
    if (rows > INT64_MAX / 4 / kp / moduli) return 0;
    return (size_t)(4 * rows + (int64_t)moduli * rows * kp);
}

/* One operand's slicing: the rows' exponents (a 1-D grid over the rows), then the residues (rows x Kp). */
static gemmkit_status add_slicing(gemmkit_context *ctx, gk_plan *plan, gk_operands *slice)
{
    slice->n = 1;
    GK_TRY(gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_NORMS, slice, 0));
    slice->n = slice->ozaki.kp;
    return gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_SLICE, slice, 0);
}

gemmkit_status gk_sgemm_plan_ozaki(const gk_sgemm_planning *s, gk_plan *plan)
{
    const gk_sgemm_problem *p = s->p;
    gemmkit_context *ctx = s->ctx;
    int moduli = 0;
    GK_TRY(gk_ozaki_moduli(p->k, &moduli));
    /* The product kernel's tiles and K step, as padding: zero residues there, no bounds checks in its loops. */
    const int64_t mp = gk_round_up(p->m, s->g->tile_m), np = gk_round_up(p->n, s->g->tile_n),
                  kp = gk_round_up(p->k, s->g->k_multiple);
    const size_t bytes_a = sliced_bytes(mp, kp, moduli), bytes_b = sliced_bytes(np, kp, moduli),
                 bytes_s = sliced_bytes(mp, np, moduli);
    if (!bytes_a || !bytes_b || !bytes_s || mp > INT32_MAX || np > INT32_MAX || kp > INT32_MAX)
        return gk_fail(GEMMKIT_ERROR_SIZE_OVERFLOW, "math mode int8x: %lld x %lld x %lld with %d moduli is too large",
                       (long long)p->m, (long long)p->n, (long long)p->k, moduli);
    gk_mem *ra = NULL, *rb = NULL, *res = NULL;
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_A, bytes_a, &ra));
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_B, bytes_b, &rb));
    GK_TRY(gk_context_scratch(ctx, GK_SCRATCH_C, bytes_s, &res));
    /* op(A)'s rows: strided by lda (K contiguous) where A is stored transposed; op(B)'s columns: where B is not. */
    gk_operands slice = {.m = mp, .n = 1, .k = p->k, .a = p->a,
                         .ozaki = {.moduli = moduli, .rows_strided = p->trans_a, .rows = p->m, .kp = kp, .ra = ra}};
    GK_TRY(add_slicing(ctx, plan, &slice));
    slice.m = np;
    slice.a = p->b;
    slice.ozaki.rows_strided = !p->trans_b;
    slice.ozaki.rows = p->n;
    slice.ozaki.ra = rb;
    GK_TRY(add_slicing(ctx, plan, &slice));
    const gk_operands products = {.m = mp, .n = np, .k = kp, .batch = moduli,
                                  .ozaki = {.moduli = moduli, .mp = mp, .np = np, .kp = kp, .ra = ra, .rb = rb, .s = res}};
    GK_TRY(gk_plan_add(ctx, plan, s->config, s->g, &products, 1));
    const gk_operands crt = {.m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                             .alpha = p->alpha, .beta = p->beta, .a = p->a, .b = p->b, .c = p->c,
                             .ozaki = {.moduli = moduli, .mp = mp, .np = np, .kp = kp, .ra = ra, .rb = rb, .s = res}};
    return gk_plan_add_helper(ctx, plan, GK_HELPER_OZAKI_CRT, &crt, 0);
}
