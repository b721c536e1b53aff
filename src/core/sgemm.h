/* The GEMM routine (routine_gemm.c): a call in the caller's terms, prepared
 * once into a column-major problem, planned and run on device memory. */
#ifndef GK_SGEMM_H
#define GK_SGEMM_H

#include "policy.h"
#include "routine.h"
#include "cost_model.h"
#include "tuning.h"

/* A call as the caller made it: a, b, c are host arrays or gemmkit_buffers. */
typedef struct gk_gemm_call {
    gemmkit_layout layout;
    gemmkit_transpose trans_a, trans_b;
    int64_t m, n, k;
    float alpha, beta;
    const void *a, *b;
    void *c;
    size_t offset_a, offset_b, offset_c;
    int64_t lda, ldb, ldc;
} gk_gemm_call;

/* A column-major problem: C = alpha * op(A) * op(B) + beta * C. Row-major
 * calls become C^T = op(B)^T op(A)^T: a and b are then the caller's B and A,
 * which source_* and name_* keep (for staging and for messages). */
typedef struct gk_sgemm_problem {
    int trans_a, trans_b; /* 0 or 1 */
    int64_t m, n, k;
    float alpha, beta;
    gk_matrix a, b, c; /* mem set by the entry point (buffers or staging) */
    const void *source_a, *source_b;
    void *source_c;
    const char *name_a, *name_b;
    gk_math math; /* the call's arithmetic (gk_sgemm_math), set by the entry point; 0: fp32 */
} gk_sgemm_problem;

/* Checks everything but pointers, in the reference BLAS order, and fills the
 * column-major problem: the only place where row-major swaps operands. */
gemmkit_status gk_sgemm_prepare(const gk_gemm_call *call, gk_sgemm_problem *problem);
/* The two halves of gk_sgemm_prepare: every check but the spans of whole
 * matrices (m * n and each extent at most 2^31-1 elements), which only calls
 * running on whole matrices need (host arrays may go tiled: route_gemm.h). */
gemmkit_status gk_sgemm_prepare_dims(const gk_gemm_call *call, gk_sgemm_problem *problem);
gemmkit_status gk_sgemm_check_spans(const gk_sgemm_problem *problem);

/* True when the call reads A and B / changes C at all. */
static inline int gk_sgemm_writes_c(const gk_sgemm_problem *p)
{
    if (p->m == 0 || p->n == 0) return 0;
    return !((p->alpha == 0.0f || p->k == 0) && p->beta == 1.0f);
}
static inline int gk_sgemm_reads_ab(const gk_sgemm_problem *p)
{
    return gk_sgemm_writes_c(p) && p->alpha != 0.0f && p->k > 0;
}

/* The plan of a prepared problem whose operands are on the device (the
 * context is locked): the kernel (options->kernel, else the policy's), then
 * one direct step, or packing, the tiled kernel and unpacking; or scaling C
 * alone when A and B are not read. */
gemmkit_status gk_sgemm_plan(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *problem,
                             gk_plan *plan);

/* A call on gemmkit buffers checked (ctx, the arguments in BLAS order, the math mode, each buffer's extent) and
 * prepared into *problem; *writes_c 0 when there is nothing to run (C = C). Nothing is enqueued. */
gemmkit_status gk_sgemm_buffers_problem(gemmkit_context *ctx, const gemmkit_options *options, const gk_gemm_call *call,
                                        gk_sgemm_problem *problem, int *writes_c);

/* Plans and executes (the context is locked); fills options' timings. */
gemmkit_status gk_sgemm_run(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *problem);

/* The kernel the library picks for a shape when the caller names none, and
 * its configuration: the device policy (policy.tsv, dispatch.c). params is
 * the text of the tuned variant line chosen ("xgemm/small"), for display;
 * NULL when the kernel runs with its own tuned line or its defaults. def is
 * NULL only when not even "direct" resolves (a broken registry). */
typedef struct gk_sgemm_choice {
    const gk_kernel_def *def;
    const char *params;
    gk_config config;
} gk_sgemm_choice;
gk_sgemm_choice gk_sgemm_default_kernel(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k);
/* The copy-a (operand_b 0) or copy-b rows' choice for the chosen configuration
 * and the problem's operands as stored (routine_gemm.c copies them so before
 * a kernel that reads the operands in place): GK_COPY_NONE when no row holds. */
gk_policy_copy gk_sgemm_copy_choose(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_config *config, const gk_sgemm_problem *p, int operand_b);

/* The peel rows' choice for a call (its shape, mode and operands' orientation): the multiple M and N are cut
 * down to, their edges past it, where at most GK_PEEL_MAX_EDGE wide, planned apart as strips
 * (routine_gemm.c); 0 when no row holds. Sixteen: the skinny kernels' edge (policy.tsv), which read the
 * strips in place, where padding them into the main kernel's tiles would add a whole row of tiles (2049^3
 * in 128 x 128 tiles: 17 x 17 of them, 2.2 waves on 132 SMs). */
#define GK_PEEL_MAX_EDGE 16
int64_t gk_sgemm_peel_choose(const gk_policy *policy, const gemmkit_device_info *info, const gk_sgemm_problem *p);

/* The same for any policy, device and tuning lines (what the tests compare). */
gk_sgemm_choice gk_sgemm_choose(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                                int64_t m, int64_t n, int64_t k);
/* Both for a math mode (the forms above are fp32): only kernels of that mode;
 * def NULL when no row gives one. */
gk_sgemm_choice gk_sgemm_default_kernel_math(const gemmkit_context *ctx, int64_t m, int64_t n, int64_t k, gk_math math);
gk_sgemm_choice gk_sgemm_choose_math(const gk_policy *policy, const gemmkit_device_info *info,
                                     const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k, gk_math math);
/* The operands a packing plan could use as they are (GK_COST_IN_PLACE_*), and GK_COST_SCALAR_C where C's columns
 * are not whole float4s (cost_model.h): what the model's prediction reads of a call's storage beyond the shape. */
unsigned gk_sgemm_storage(const gk_sgemm_problem *p);
/* Both for a call: its shape, mode and the operands' orientation as stored (TRANS_A and TRANS_B of the kernel,
 * variant, split and fallback rows; the forms above choose for an NN call). What the public SGEMM runs. */
gk_sgemm_choice gk_sgemm_default_kernel_for(const gemmkit_context *ctx, const gk_sgemm_problem *p);
gk_sgemm_choice gk_sgemm_choose_for(const gk_policy *policy, const gemmkit_device_info *info,
                                    const gk_tuning_set *tuned, const gk_sgemm_problem *p);
/* Split-K's slice count for a shape whose tiles give `groups` work-groups:
 * enough slices for GK_SPLITK_WAVES work-groups per compute unit,
 * ceil(GK_SPLITK_WAVES * compute_units / groups), at most GK_SPLITK_MAX_SPLITS
 * and no more than leave GK_SPLITK_MIN_SLICE of K per slice, nor a slice
 * shorter than half the longer edge of C (the partials' traffic then stays
 * under the operands'), rounded down to a power of two; 1 means no split. The policy's split rows (which take at
 * least 2 where K allows) and xgemm-splitk's SPLITS=0 use it. Four per unit:
 * on the H200, 256 x 256 x 65536 in 64 x 64 tiles ran its main kernel in
 * 0.401 ms with 9 slices (one work-group per SM) and 0.216 ms with 32
 * (docs/PERFORMANCE.md, "Split-K"); powers of two: 999^3 on 64 x 64 tiles
 * (256 work-groups) ran 2 slices 17% faster than 3, and 128 x 128 x 131072
 * 128 slices 7% faster than 64; 16384 x 32 x 16384 on 128 x 32 tiles: 2
 * slices +12%, 4 slices -24%. */
#define GK_SPLITK_WAVES 4
#define GK_SPLITK_MAX_SPLITS 128
#define GK_SPLITK_MIN_SLICE 256
int gk_sgemm_splits(int64_t compute_units, int64_t groups, int64_t m, int64_t n, int64_t k);
/* The slice count, 1 to GK_SPLITK_WAVE_MAX (and no slice under GK_SPLITK_MIN_SLICE of K), whose waves cost the
 * least: S slices of `groups` tiles run ceil(groups * S / compute_units) waves, each as long as a slice
 * (kslice: K / S rounded up to k_step) plus a fixed GK_SPLITK_UNIT_OVERHEAD_K (the ring's filling and draining,
 * the stores), in multiply-adds along K; ties go to fewer slices. For kernels flagged GK_FLAG_SPLIT_BY_WAVES
 * (gk_sgemm_splits_for). Measured on the H200 with 3xTF32's 128 x 128 tiles (2026-11-24,
 * docs/PERFORMANCE.md): 1024^3 (64 tiles) 2 slices 1.12x faster than 4; 1500^3 (144 tiles: 2 waves, the
 * second of 12) 3 slices 1.04x faster than 2 and 1.01x than 4, 1.26x than 1; 2048^3 (256 tiles) 2 slices
 * 0.95x of 1. The model gives the same order at each (overhead 150: 1500's 2 : 3 : 4 at 1.040 : 1 : 1.008). */
#define GK_SPLITK_UNIT_OVERHEAD_K 150
#define GK_SPLITK_WAVE_MAX 16
int gk_sgemm_splits_by_waves(int64_t compute_units, int64_t groups, int64_t k, int64_t k_step);
/* The slice count for def's split-K build: gk_sgemm_splits_by_waves where def is so flagged, else
 * gk_sgemm_splits. */
int gk_sgemm_splits_for(const gk_kernel_def *def, int64_t k_step, int64_t compute_units, int64_t groups, int64_t m,
                        int64_t n, int64_t k);

/* The kernel the policy's kernel rows give an n x n x n problem on this device
 * (before variants, split-K and fallbacks): what `gemmkit tune --size n`
 * tunes by default. gk_sgemm_fast_kernel_scope describes in words the shapes
 * the fallback rows send elsewhere ("direct"). */
const gk_kernel_def *gk_sgemm_fast_kernel(const gemmkit_context *ctx, int64_t n);
/* The same at any shape, for any policy, device and tuning lines: the kernel
 * whose variant lines serve that shape (what `gemmkit tune --variant` tunes
 * at the variant's representative shapes); NULL when no kernel row holds. */
const gk_kernel_def *gk_sgemm_choose_kernel(const gk_policy *policy, const gemmkit_device_info *info,
                                           const gk_tuning_set *tuned, int64_t m, int64_t n, int64_t k);
const char *gk_sgemm_fast_kernel_scope(void);

/* The cost model's candidates for a call (cost_model.h): every way the policy's "candidate" rows allow of running
 * it (a kernel row whose structural condition holds, each of its tuned lines, each split count of its split-K
 * build), with the model's predicted device time, cheapest first; out[0] is what the library runs. 0 when the
 * model does not choose for this call (no candidate rows for the device class and math mode: the step rows
 * decide). */
#define GK_SGEMM_MAX_CANDIDATES 320
typedef struct gk_sgemm_candidate {
    gk_sgemm_choice choice; /* def: the kernel run (the split-K build where splits > 1); config: SPLITS set */
    char line[64];          /* the tuning line it runs ("xgemm-direct/small"; the kernel's name for its own line) */
    char params[256];       /* its parameters as gemmkit_options.params takes them ("TSM=64,...,SPLITS=4") */
    int splits;             /* 1: no split */
    double predicted_ms;
    gk_cost_parts parts;
} gk_sgemm_candidate;
int gk_sgemm_candidates(const gk_policy *policy, const gemmkit_device_info *info, const gk_tuning_set *tuned,
                        const gk_sgemm_problem *p, gk_sgemm_candidate *out, int max);
/* The same on a context's device (kernels it cannot run left out). */
int gk_sgemm_candidates_for(const gemmkit_context *ctx, const gk_sgemm_problem *p, gk_sgemm_candidate *out, int max);

#endif
