/* The SGEMM cost model: the predicted device time of each way of running a call (a candidate: a kernel, one of its
 * tuned lines, a split count), from per-device constants, so that the selection picks the cheapest candidate
 * instead of following fitted thresholds (docs/ARCHITECTURE.md, "Choosing by cost").
 *
 * A candidate's time is its launches plus, per step, the larger of its arithmetic and its memory traffic:
 *   kernel:  (L + (OCC - 1) min(1, OCC / L)) * tile_m * tile_n * (kslice' + GOK) / (RATE / CUS)
 *            with L = ceil(groups * splits / CUS) work-groups on the busiest compute unit, kslice' a slice of K
 *            rounded up to the kernel's loop step (its k_loop: a K of 1 costs xgemm-direct a whole TSK),
 *            against the bytes it must move (each operand once, C, split-K's partials) at BWEFF * COPY, slowed by
 *            the same latency (L + (OCC - 1) min(1, OCC / L)) / L: a few work-groups per unit keep little in flight;
 *   copies:  packing, unpacking, split-K's partials (their stores beyond C's, the reduction's reads): their bytes
 *            at the copy bandwidth.
 * A kernel that reads the operands as stored runs at its own speed in each orientation of them (a K-contiguous
 * operand is turned in local memory, a column-contiguous one read straight): NT, TN and TT (column-major op(A)
 * and op(B) transposed or not) scale RATE and BWEFF from the NN figures, 1 where a line does not say; so does the
 * device's SCALAR_AB once per operand such a kernel loads by floats because its columns are not 16-byte aligned.
 * A split-K run adds a reduction launch unless its kernel sums the slices itself (gk_split_sums_in_kernel).
 * The policy's copy rows add their copies (gk_cost_copy_ms) to a kernel reading the operands as stored, which is
 * then predicted in the copies' orientation (dispatch_model.c).
 * RATE is a line's multiply-add rate with every compute unit busy, OCC how latency bounds it (a unit's few
 * work-groups run at RATE / CUS * L / (L + OCC - 1): one alone takes as long as OCC at the full rate; over many
 * waves only the first and last pay), GOK a work-group's fixed cost (its first loads' latency, storing its tile) as
 * so many more steps along K (GK_COST_GROUP_OVERHEAD_K where a line has none), BWEFF the
 * fraction of the copy bandwidth its loads reach where memory bounds it.
 *
 * The constants are tuning-database lines (tuning.h), matched device -> architecture -> vendor like kernel lines:
 *   "cost:device"       COPY=<GB/s>,LAUNCH=<us>[,SCALAR_C=<x>][,SCALAR_AB=<x>]  the copy bandwidth, a launch's
 *                                                    device time, the share of a kernel's bandwidth left to its
 *                                                    stores of C where C's columns are not whole float4s (a kernel
 *                                                    built to store float4s stores floats one by one then), and the
 *                                                    share of its rate left per operand it loads a float at a time
 *                                                    for the same reason (1 where not given);
 *   "cost:LINE"         RATE=<GFLOPS>,OCC=<x>,BWEFF=<x>[,GOK=<k>][,NT=<x>,TN=<x>,TT=<x>]  LINE a tuned line's name:
 *                                                    "xgemm-direct/small"; NT, TN, TT its orientations' factors.
 * `gemmkit tune --calibrate` measures and saves them (tools/gemmkit/tune_calibrate.c). A line without constants
 * takes its tuned line's score as RATE, OCC 2 and BWEFF 0.5; a device without "cost:device" takes
 * GK_COST_DEFAULT_COPY and GK_COST_DEFAULT_LAUNCH. */
#ifndef GK_COST_MODEL_H
#define GK_COST_MODEL_H

#include <string.h>

#include "gemmkit.h"
#include "kernel_config.h"

#define GK_COST_PREFIX "cost:"
#define GK_COST_DEVICE "cost:device"
#define GK_COST_MAX_LINES 48
#define GK_COST_DEFAULT_COPY 500.0  /* GB/s */
#define GK_COST_DEFAULT_LAUNCH 3.0  /* us */
#define GK_COST_DEFAULT_OCC 2.0
#define GK_COST_DEFAULT_BWEFF 0.5
/* A work-group's fixed cost (its first loads' latency, storing its tile) as so many more steps along K (a 128 x 128
 * tile at 50 TFLOPS: ~0.09 us a step; its ring's filling and its 64 KiB of C take some microseconds): what makes one
 * slice of K cheaper than two half-length ones of the same waves. A line's GOK, fitted by the calibration, replaces
 * it: without it a line's RATE rises to explain short calls and overshoots long ones. */
#define GK_COST_GROUP_OVERHEAD_K 64

/* Whether a tuning line's kernel field names a cost line ("cost:..."). */
static inline int gk_cost_is_line(const char *kernel)
{
    return strncmp(kernel, GK_COST_PREFIX, sizeof GK_COST_PREFIX - 1) == 0;
}

/* One line's constants. */
typedef struct gk_cost_line {
    char name[64]; /* "xgemm-direct/small", "skinny-m" */
    double rate_gflops, occupancy, bw_efficiency;
    double orientation[4]; /* by trans_a * 2 + trans_b: NN (unused), NT, TN, TT; 0 reads as 1 */
    double group_overhead_k; /* GOK; 0 reads as GK_COST_GROUP_OVERHEAD_K */
    /* SUM: microseconds per slice that a split-K run summing its partials in the kernel adds (each tile's last
     * slice reads the others' partials one slice after another once they are done); 0: none */
    double sum_slice_us;
} gk_cost_line;

/* line's factor for op(A), op(B) transposed or not (1 for NN and where it has none). */
static inline double gk_cost_orientation(const gk_cost_line *line, int trans_a, int trans_b)
{
    const double f = line->orientation[(trans_a ? 2 : 0) + (trans_b ? 1 : 0)];
    return f > 0 ? f : 1.0;
}

/* A device's constants: resolved once per context from its tuning lines (gk_cost_load). */
typedef struct gk_cost_constants {
    double copy_gbs, launch_us;
    double scalar_c; /* SCALAR_C; 0 reads as 1 */
    double scalar_ab; /* SCALAR_AB; 0 reads as 1 */
    int calibrated; /* 1: a "cost:device" line was found */
    int count;
    gk_cost_line lines[GK_COST_MAX_LINES];
} gk_cost_constants;

/* What the model knows of the operands' storage. Which a packing kernel's plan can use as they are when its tiles
 * divide them (plan_gemm.c's plan_packed): A (NN-stored, no offset, leading dimension its rows), B (the same, for
 * kernels that read B K x N), C (the same, alpha 1 and beta 0, one slice); where one of these bits is clear the
 * model counts the copy. SCALAR_C: C's columns are not whole float4s (its offset or leading dimension no multiple
 * of 4), so that a kernel built to store float4s stores floats (SCALAR_C of the device constants). SCALAR_A,
 * SCALAR_B: the same for A's and B's columns, so that a kernel built to load them as float4s (GK_DEFINE_VEC_A,
 * GK_DEFINE_VEC_B) loads floats (SCALAR_AB per such operand). */
enum {
    GK_COST_IN_PLACE_A = 1,
    GK_COST_IN_PLACE_B = 2,
    GK_COST_IN_PLACE_C = 4,
    GK_COST_SCALAR_C = 8,
    GK_COST_SCALAR_A = 16,
    GK_COST_SCALAR_B = 32
};

/* What the model needs of a call, column-major. */
typedef struct gk_cost_problem {
    int64_t m, n, k;
    int beta_nonzero;
    unsigned storage; /* GK_COST_IN_PLACE_*, GK_COST_SCALAR_* */
    int trans_a, trans_b; /* op(A), op(B) of the column-major call */
} gk_cost_problem;

/* A prediction, split by what costs. */
typedef struct gk_cost_parts {
    double kernel_ms, copies_ms, launch_ms;
    int launches;
} gk_cost_parts;

/* The constants of line `name` ("xgemm/small"), or NULL. */
const gk_cost_line *gk_cost_find(const gk_cost_constants *c, const char *name);

/* Device time (ms) of `launches` copies moving `bytes` in all (read and written), at the copy bandwidth. */
double gk_cost_copy_ms(const gk_cost_constants *c, double bytes, int launches);

/* Predicted device time (ms) of `config` (its geometry g for this problem) run as tuning line `line` over
 * `splits` slices of K (1: none); parts (may be NULL) gets the breakdown. rate_fallback (GFLOPS) serves a line
 * with no constants. */
double gk_cost_predict(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_config *config,
                       const gk_geometry *g, const char *line, double rate_fallback, const gk_cost_problem *p,
                       int splits, gk_cost_parts *parts);

/* Applies one database line (its kernel field "cost:...", its params) to c: 0, or -1 and why it cannot be used
 * (an unknown or missing constant, a value that is no positive number, BWEFF above 1). */
int gk_cost_apply(const char *kernel, const char *params, gk_cost_constants *c, char *why, size_t why_size);

/* One timed run for the fit: a problem, its split count, its geometry, its measured device time. */
typedef struct gk_cost_sample {
    gk_cost_problem problem;
    int splits;
    gk_geometry geometry;
    int packed;  /* the kernel packs its operands (gk_kernel_packs_operands) */
    int packs_b; /* and B whatever its storage (gk_cost_packs_b) */
    const gk_kernel_def *split_def; /* the split-K build that ran (splits > 1): whether it summed in the kernel */
    int loads_vec_a, loads_vec_b;   /* the kernel loads A, B as float4s where their columns allow */
    double measured_ms;
} gk_cost_sample;

/* Fits line's SUM to the samples that summed in the kernel, its other constants held; returns their RMS log error,
 * or -1 when there are none. */
double gk_cost_fit_sum(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_cost_sample *samples,
                       int count, gk_cost_line *line);
/* Fits line's factor for one orientation (1 NT, 2 TN, 3 TT: gk_cost_orientation's index) to samples of that
 * orientation, its other constants held; returns the samples' RMS log error, or -1 when there are none. */
double gk_cost_fit_orientation(const gk_cost_constants *c, const gemmkit_device_info *info,
                               const gk_cost_sample *samples, int count, int orientation, gk_cost_line *line);

/* Whether def, a packing kernel, copies B whatever B's storage (it reads B as N x K). */
int gk_cost_packs_b(const gk_kernel_def *def);

/* Fits line's RATE, OCC, BWEFF and GOK to the samples (least squares on log time, the device's copy and launch
 * constants held); returns the root-mean-square log error, or -1 when there are no samples. */
double gk_cost_fit_line(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_cost_sample *samples,
                        int count, gk_cost_line *line);

#endif
