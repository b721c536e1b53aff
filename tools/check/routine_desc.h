/* One descriptor per routine (desc_gemm.c, desc_omatcopy.c), the tools'
 * mirror of src/core/routine_<name>.c: the problem (case), its operands'
 * extents, fresh inputs, the reference check, the work for a rate, one call,
 * and the cases `gemmkit verify` and `gemmkit tune` use. verify, tune, bench
 * and the tests drive every routine through this table, so a new routine
 * (batched GEMM) is one new descriptor file and a line in routine_desc.c. */
#ifndef GK_ROUTINE_DESC_H
#define GK_ROUTINE_DESC_H

#include "check.h"
#include "check_batched.h"
#include "check_transpose.h"
#include "registry.h"

enum {
    GK_ROUTINE_MAX_OPERANDS = 4, /* arrays of one call, the output last */
    GK_ROUTINE_MAX_CASES = 4     /* verify and tune cases per kernel */
};

/* A problem of any routine; each descriptor reads its own member. */
typedef union gk_case {
    gk_sgemm_case gemm;
    gk_omatcopy_case omatcopy;
    gk_batched_case batched;
} gk_case;

/* What the cases of a kernel depend on: its tile (1 where it has none) and
 * its operation (a transpose or a copy kernel of omatcopy). */
typedef struct gk_kernel_shape {
    int64_t tile_m, tile_n, k_multiple;
    gk_operation op;
} gk_kernel_shape;

/* How a case shows in reports: bench records, verify lines. */
typedef struct gk_case_label {
    char op[16];     /* "sgemm", "transpose", "copy" */
    char layout[4];  /* "row", "col" */
    char trans[4];   /* "NN".."TT", or "T"/"N" */
    int64_t size[3]; /* m, n, k; rows, cols, 0 */
    int64_t batch;   /* matrices per call (batched routines); 0 otherwise */
    double bytes;    /* batched: the least bytes a call moves (A, B read once, C written once); 0 otherwise */
} gk_case_label;

typedef struct gk_routine gk_routine;
struct gk_routine {
    const char *name;        /* "sgemm", "omatcopy" */
    const char *unit;        /* of the rate: "GFLOPS" (flops) or "GB/s" (bytes) */
    gk_operation ops[3];     /* the registry operations it serves; GK_OP_HELPER ends the list */
    int dims;                /* extents in the size text: 3 (MxNxK) or 2 (RxC) */
    int operands;            /* arrays a call takes; the last one is written */

    /* The problem of a bench size (m, n, k or rows, cols, 0) with the
     * benchmark's layout and transposes, alpha = 1 (beta = 0), tight. */
    void (*case_of)(const int64_t size[3], gemmkit_layout layout, gemmkit_transpose trans_a,
                    gemmkit_transpose trans_b, gk_case *out);
    /* Tight leading dimensions where the case has 0. */
    void (*complete)(gk_case *c);
    /* Floats in each operand's buffer (offsets included) of a completed case. */
    void (*extents)(const gk_case *c, size_t extent[GK_ROUTINE_MAX_OPERANDS]);
    /* Fresh random inputs in every buffer, the output's written elements
     * poisoned with NaN (never zeros), so that an unwritten element shows. */
    void (*fill)(const gk_case *c, gk_rng *rng, float *const *ops);
    /* Compares result (the output buffer after the call) with the reference
     * on the inputs ops: GEMM in float64 with float32 bounds (full up to
     * full_limit multiply-adds, else `samples` elements); transposes exactly. */
    void (*check)(const gk_case *c, float *const *ops, const float *result, double full_limit, int samples,
                  gk_rng *rng, gk_check_result *out);
    /* Flops (GEMM) or bytes read and written (transposes) per call. */
    double (*work)(const gk_case *c);
    void (*label)(const gk_case *c, gk_case_label *out);
    /* Every field on one line, for failure messages. */
    void (*describe)(const gk_case *c, char *text, size_t size);
    /* One call on device buffers (one per operand) with the options' kernel,
     * parameters and timing pointers. */
    gemmkit_status (*run)(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                          gemmkit_buffer *const *buffers);
    /* Fresh inputs, one call, the check (tools/check's one-call runners). */
    gemmkit_status (*check_run)(gemmkit_context *ctx, const gemmkit_options *options, const gk_case *c,
                                gk_rng *rng, gk_check_result *out);

    /* `gemmkit verify`: cases for a kernel, each with what it exercises. */
    int (*verify_cases)(const gk_kernel_shape *k, gk_case *cases, const char **what);
    /* `gemmkit tune`: the default n, the timed cases on n (their times add
     * up), and what a candidate is checked on: `tune_samples` elements of the
     * first timed case's output, then check_run of each tune_check_cases. */
    int64_t (*tune_size)(int is_gpu, int small);
    int (*tune_cases)(const gk_kernel_shape *k, int64_t n, gk_case *cases);
    void (*tune_shapes)(int64_t n, char *text, size_t size); /* the timed shapes, for the report */
    int tune_samples;
    int (*tune_check_cases)(const gk_kernel_shape *k, gk_case *cases);
};

extern const gk_routine gk_routine_gemm;
extern const gk_routine gk_routine_omatcopy;
extern const gk_routine gk_routine_gemm_batched;

/* The routine a registry operation belongs to; NULL for helpers. */
const gk_routine *gk_routine_of(gk_operation op);
/* "37x53x29" or "203x131": the label's size in the routine's dims. */
void gk_case_size_text(const gk_routine *r, const gk_case *c, char *text, size_t size);

#endif
