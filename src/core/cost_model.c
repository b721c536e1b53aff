/* The cost model's prediction and its fit (cost_model.h). Pure arithmetic on the constants and a kernel's
 * geometry: no text, no device. */
#include "cost_model.h"

#include <math.h>
#include <string.h>

#include "dispatch_model.h"
#include "registry.h"

const gk_cost_line *gk_cost_find(const gk_cost_constants *c, const char *name)
{
    for (int i = 0; c && i < c->count; i++)
        if (strcmp(c->lines[i].name, name) == 0) return &c->lines[i];
    return NULL;
}

static int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : a; }
static int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

/* What a prediction reads of a configuration: its geometry and whether the plan packs its operands. */
typedef struct shape_of_run {
    int64_t tile_m, tile_n, k_step;
    int64_t k_loop; /* the K granule its loop computes in full, the last short step too (0: 1) */
    int packed;
    int packs_b;       /* the packed kernel reads B as N x K: B is copied whatever its storage */
    int stores_vec_c;  /* it stores C as float4s where C allows (GK_DEFINE_VEC_C), reading the operands in place */
    int loads_vec_a, loads_vec_b; /* it loads A, B as float4s where their columns allow (GK_DEFINE_VEC_A, _B) */
    const gk_kernel_def *split_def; /* the kernel a split-K run launches: whether it sums in the kernel */
} shape_of_run;

/* Whether r's split-K run over `splits` slices sums its partials in the kernel: one launch, and SUM's tail. */
static int sums_in_kernel(const shape_of_run *r, const gk_cost_problem *p, int splits)
{
    const int64_t tiles =
        ceil_div(p->m, r->tile_m > 0 ? r->tile_m : 1) * ceil_div(p->n, r->tile_n > 0 ? r->tile_n : 1);
    return splits > 1 && !r->packed && r->split_def && gk_split_sums_in_kernel(r->split_def, splits, tiles);
}

static double predict(const gk_cost_constants *c, int compute_units, const shape_of_run *r, const gk_cost_line *line,
                      const gk_cost_problem *p, int splits, gk_cost_parts *parts)
{
    const double cus = compute_units > 0 ? compute_units : 1;
    const double copy_bytes_per_ms = (c->copy_gbs > 0 ? c->copy_gbs : GK_COST_DEFAULT_COPY) * 1e6;
    const int64_t tm = r->tile_m > 0 ? r->tile_m : 1, tn = r->tile_n > 0 ? r->tile_n : 1;
    const int64_t tk = r->k_step > 0 ? r->k_step : 1;
    if (splits < 1) splits = 1;
    const int64_t kslice = round_up(ceil_div(p->k, splits), tk);
    splits = (int)ceil_div(p->k, kslice > 0 ? kslice : 1);
    if (splits < 1) splits = 1;
    const double mp = (double)round_up(p->m, tm), np = (double)round_up(p->n, tn), kp = (double)kslice * splits;
    const double m = (double)p->m, n = (double)p->n, k = (double)p->k;
    const double groups = (double)ceil_div(p->m, tm) * (double)ceil_div(p->n, tn) * splits;

    /* The kernel: its waves of tiles, or the bytes it must move, whichever is longer. */
    /* The operands' orientation, for a kernel that reads them as stored (a packing plan copies them first). */
    const double orient = r->packed ? 1.0 : gk_cost_orientation(line, p->trans_a, p->trans_b);
    /* Operands it loads a float at a time where float4s would do, were their columns aligned. */
    const int scalar_operands = (r->loads_vec_a && (p->storage & GK_COST_SCALAR_A)) +
                                (r->loads_vec_b && (p->storage & GK_COST_SCALAR_B));
    const double scalar_ab = c->scalar_ab > 0 && scalar_operands ? pow(c->scalar_ab, scalar_operands) : 1.0;
    const double per_unit_rate = line->rate_gflops * orient * scalar_ab * 1e6 / 2.0 / cus; /* multiply-adds per ms */
    /* The busiest compute unit's L work-groups at a throughput that grows with how many run at once (latency
     * hidden by more of them): a few take as long as L + OCC - 1 would at the full rate; many waves of them
     * hide it but for the first wave's and the last's, OCC / L of it. */
    const double per_unit = ceil(groups / cus), occupancy = fmax(line->occupancy, 1.0);
    const double per_unit_groups = per_unit + (occupancy - 1.0) * fmin(1.0, occupancy / per_unit);
    const double group_overhead_k = line->group_overhead_k > 0 ? line->group_overhead_k : GK_COST_GROUP_OVERHEAD_K;
    const double k_computed = (double)round_up(kslice, r->k_loop > 0 ? r->k_loop : 1);
    const double compute_ms = per_unit_groups * (double)tm * (double)tn * (k_computed + group_overhead_k) /
                              (per_unit_rate > 0 ? per_unit_rate : 1.0);
    const double c_passes = splits > 1 ? splits : (p->beta_nonzero && !r->packed ? 2.0 : 1.0);
    const double operand_bytes = r->packed ? 4.0 * (mp * kp + kp * np) : 4.0 * (m * k + k * n);
    const double c_kernel_bytes =
        r->packed ? 4.0 * mp * np * splits : 4.0 * (splits > 1 ? round_up(p->m, 4) : m) * n * c_passes;
    /* Floats stored one by one where a float4 kernel meets a C it cannot store in float4s. */
    const double scalar_c = r->stores_vec_c && (p->storage & GK_COST_SCALAR_C) && c->scalar_c > 0 ? c->scalar_c : 1.0;
    const double kernel_bytes_per_ms =
        copy_bytes_per_ms * fmin(1.0, (line->bw_efficiency > 0 ? line->bw_efficiency : 1) * orient * scalar_ab);
    /* Loads wait on the same latency: a unit's L work-groups keep L / (L + OCC - 1) of its share of the bandwidth
     * in flight while few (a split over K into one work-group per unit draws half of what four do). */
    const double memory_latency = per_unit_groups / per_unit;
    const double memory_ms = (operand_bytes + c_kernel_bytes / scalar_c) / kernel_bytes_per_ms * memory_latency;
    const int sums_here = sums_in_kernel(r, p, splits);
    /* The tiles' last slices add up the partials after the others are done: a tail as long as the slices. */
    const double sum_tail_ms = sums_here ? splits * line->sum_slice_us * 1e-3 : 0.0;
    const double kernel_ms = fmax(compute_ms, memory_ms) + sum_tail_ms;

    /* The steps around it: packing A and B (read as stored, written padded), then unpacking or reducing into C. */
    double copy_bytes = 0;
    int launches = 1;
    const double c_bytes = 4.0 * m * n * (p->beta_nonzero ? 2 : 1);
    if (r->packed) {
        /* As plan_packed: an operand already in the packed form (its tiles divide it, stored tightly) is not
         * copied, nor C unpacked where the kernel can write it. */
        const int copy_a = !(p->storage & GK_COST_IN_PLACE_A) || mp != m || kp != k;
        const int copy_b = r->packs_b || !(p->storage & GK_COST_IN_PLACE_B) || np != n || kp != k;
        const int copy_c = splits > 1 || !(p->storage & GK_COST_IN_PLACE_C) || mp != m || np != n;
        copy_bytes += copy_a * 4.0 * (m * k + mp * kp) + copy_b * 4.0 * (k * n + kp * np) +
                      copy_c * (4.0 * mp * np * splits + c_bytes);
        launches += copy_a + copy_b + copy_c;
    } else if (splits > 1) {
        /* The partials' stores beyond one C's, and the reduction's reads of them: in a step of its own, or by the
         * tiles' last slices in the same launch. */
        copy_bytes += 4.0 * round_up(p->m, 4) * n * (2 * splits - 1) + c_bytes;
        launches += !sums_here;
    }
    const double copies_ms = copy_bytes / copy_bytes_per_ms;
    const double launch_ms = launches * (c->launch_us > 0 ? c->launch_us : GK_COST_DEFAULT_LAUNCH) * 1e-3;
    if (parts) *parts = (gk_cost_parts){kernel_ms, copies_ms, launch_ms, launches};
    return kernel_ms + copies_ms + launch_ms;
}

double gk_cost_copy_ms(const gk_cost_constants *c, double bytes, int launches)
{
    const double copy_bytes_per_ms = (c->copy_gbs > 0 ? c->copy_gbs : GK_COST_DEFAULT_COPY) * 1e6;
    return bytes / copy_bytes_per_ms + launches * (c->launch_us > 0 ? c->launch_us : GK_COST_DEFAULT_LAUNCH) * 1e-3;
}

int gk_cost_packs_b(const gk_kernel_def *def)
{
    return def->contract == GK_CONTRACT_GEMM_PACKED_BT || def->contract == GK_CONTRACT_GEMM_PACKED_BT_STRIDED;
}

double gk_cost_predict(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_config *config,
                       const gk_geometry *g, const char *line, double rate_fallback, const gk_cost_problem *p,
                       int splits, gk_cost_parts *parts)
{
    const gk_cost_line *found = gk_cost_find(c, line);
    gk_cost_line fallback = {"", rate_fallback > 0 ? rate_fallback : fmax(info->peak_gflops * 0.25, 1.0),
                             GK_COST_DEFAULT_OCC, GK_COST_DEFAULT_BWEFF, {0}, 0, 0};
    const int packed = gk_kernel_packs_operands(config->def);
    const shape_of_run r = {g->tile_m, g->tile_n, g->k_multiple, g->k_loop, packed, gk_cost_packs_b(config->def),
                            !packed && (config->def->defines & GK_DEFINE_VEC_C),
                            !packed && (config->def->defines & GK_DEFINE_VEC_A),
                            !packed && (config->def->defines & GK_DEFINE_VEC_B),
                            splits > 1 ? gk_model_split_build(config->def) : NULL};
    return predict(c, info->compute_units, &r, found ? found : &fallback, p, splits, parts);
}

/* A sample's run as a prediction reads it. */
static shape_of_run run_of_sample(const gk_cost_sample *s)
{
    return (shape_of_run){s->geometry.tile_m, s->geometry.tile_n, s->geometry.k_multiple, s->geometry.k_loop,
                          s->packed, s->packs_b, 0, s->loads_vec_a, s->loads_vec_b, s->split_def};
}

/* The samples' root-mean-square log error under line's constants. */
static double log_error(const gk_cost_constants *c, int compute_units, const gk_cost_sample *s, int count,
                        const gk_cost_line *line)
{
    double sum = 0;
    for (int i = 0; i < count; i++) {
        const shape_of_run r = run_of_sample(&s[i]);
        const double predicted = predict(c, compute_units, &r, line, &s[i].problem, s[i].splits, NULL);
        const double e = log(predicted / s[i].measured_ms);
        sum += e * e;
    }
    return sqrt(sum / count);
}

double gk_cost_fit_sum(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_cost_sample *samples,
                       int count, gk_cost_line *line)
{
    gk_cost_sample summed[64]; /* the first 64 (a calibration times 4 split counts a line) */
    int used = 0;
    for (int i = 0; i < count && used < (int)(sizeof summed / sizeof summed[0]); i++) {
        const shape_of_run r = run_of_sample(&samples[i]);
        if (sums_in_kernel(&r, &samples[i].problem, samples[i].splits)) summed[used++] = samples[i];
    }
    if (used == 0) return -1;
    gk_cost_line trial = *line;
    double best = INFINITY, best_us = 0;
    /* None, then 0.01 us to a tenth of a second a slice (a GPU's tail is microseconds, a CPU's more), 2% apart. */
    for (double us = 0; us <= 1e5; us = us > 0 ? us * 1.02 : 0.01) {
        trial.sum_slice_us = us;
        const double error = log_error(c, info->compute_units, summed, used, &trial);
        if (error < best) best = error, best_us = us;
    }
    line->sum_slice_us = best_us;
    return best;
}

double gk_cost_fit_orientation(const gk_cost_constants *c, const gemmkit_device_info *info,
                               const gk_cost_sample *samples, int count, int orientation, gk_cost_line *line)
{
    if (count < 1 || orientation < 1 || orientation > 3) return -1;
    gk_cost_line trial = *line;
    double best = INFINITY, best_factor = 1.0;
    /* Factors from 1/8 to 4, 2% apart: one constant, no gradient needed. */
    for (double f = 0.125; f <= 4.0; f *= 1.02) {
        trial.orientation[orientation] = f;
        const double error = log_error(c, info->compute_units, samples, count, &trial);
        if (error < best) best = error, best_factor = f;
    }
    line->orientation[orientation] = best_factor;
    return best;
}

/* RATE, OCC and BWEFF for one GOK: a grid over the three, then a finer one around the best (the error is piecewise
 * smooth, the max of compute and memory, with no gradient to follow across the pieces). */
static double fit_at(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_cost_sample *samples,
                     int count, gk_cost_line *line)
{
    const double peak = info->peak_gflops > 0 ? info->peak_gflops : 1000.0;
    double best = INFINITY;
    gk_cost_line trial = *line, best_line = *line;
    double rate_lo = log(peak * 1e-4), rate_hi = log(peak * 1.5);
    double occ_lo = 1.0, occ_hi = 16.0, eff_lo = 0.02, eff_hi = 1.0;
    for (int round = 0; round < 3; round++) {
        const int steps = 24;
        for (int a = 0; a <= steps; a++) {
            trial.rate_gflops = exp(rate_lo + (rate_hi - rate_lo) * a / steps);
            for (int b = 0; b <= steps; b++) {
                trial.occupancy = occ_lo + (occ_hi - occ_lo) * b / steps;
                for (int e = 0; e <= steps / 2; e++) {
                    trial.bw_efficiency = eff_lo + (eff_hi - eff_lo) * e / (steps / 2);
                    const double error = log_error(c, info->compute_units, samples, count, &trial);
                    if (error < best) best = error, best_line = trial;
                }
            }
        }
        /* Narrow each range to a few steps around the best. */
        const double rate_step = (rate_hi - rate_lo) / steps * 2, occ_step = (occ_hi - occ_lo) / steps * 2;
        const double eff_step = (eff_hi - eff_lo) / (steps / 2) * 2;
        rate_lo = log(best_line.rate_gflops) - rate_step, rate_hi = log(best_line.rate_gflops) + rate_step;
        occ_lo = fmax(1.0, best_line.occupancy - occ_step), occ_hi = best_line.occupancy + occ_step;
        eff_lo = fmax(0.01, best_line.bw_efficiency - eff_step), eff_hi = fmin(1.0, best_line.bw_efficiency + eff_step);
    }
    *line = best_line;
    return best;
}

/* GOK's candidates: from none to a long K's worth (0 is stored as a tiny positive value, GK_COST_GROUP_OVERHEAD_K
 * being what 0 means). */
static const double group_overheads_k[] = {0.5, 8, 16, 32, 64, 128, 256, 512};

double gk_cost_fit_line(const gk_cost_constants *c, const gemmkit_device_info *info, const gk_cost_sample *samples,
                        int count, gk_cost_line *line)
{
    int usable = 0;
    for (int i = 0; i < count; i++) usable += samples[i].measured_ms > 0;
    if (usable == 0 || usable != count) return -1;
    double best = INFINITY;
    gk_cost_line best_line = *line;
    for (size_t g = 0; g < sizeof group_overheads_k / sizeof group_overheads_k[0]; g++) {
        gk_cost_line trial = *line;
        trial.group_overhead_k = group_overheads_k[g];
        const double error = fit_at(c, info, samples, count, &trial);
        if (error < best) best = error, best_line = trial;
    }
    line->rate_gflops = best_line.rate_gflops;
    line->occupancy = best_line.occupancy;
    line->bw_efficiency = best_line.bw_efficiency;
    line->group_overhead_k = best_line.group_overhead_k;
    return best;
}
