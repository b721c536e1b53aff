/* One measurement of the benchmark, for any routine (bench.h): input sets
 * made by the routine's descriptor and shared by every runner, each runner
 * timed on its own device copies (a warm-up, the output poisoned again, the
 * timed runs rotating over the sets) and every set's result checked. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void gk_bench_inputs_free(gk_bench_inputs *in)
{
    for (int s = 0; s < GK_BENCH_MAX_SETS; s++) {
        for (int i = 0; i < GK_ROUTINE_MAX_OPERANDS; i++) free(in->ops[s][i]);
        gk_bench_reference_free(&in->ref[s]);
    }
    free(in->result);
    memset(in, 0, sizeof *in);
}

/* splitmix64's finaliser: every input bit moves every output bit. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t gk_bench_set_seed(uint64_t seed, const int64_t size[3], int64_t batch, int set)
{
    const uint64_t parts[] = {(uint64_t)size[0], (uint64_t)size[1], (uint64_t)size[2], (uint64_t)batch, (uint64_t)set};
    uint64_t h = mix(seed);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) h = mix(h ^ parts[i]);
    return h;
}

/* --inputs wide: A's and B's rows and columns scaled by powers of two (plain SGEMM only: bench_args refuses
 * it elsewhere). Exact in float, so every runner gets the same scaled inputs. */
static int scale_wide(const gk_case *kase, gk_rng *rng, float *const *ops)
{
    const gk_sgemm_case *c = &kase->gemm;
    const int ta = c->trans_a != GEMMKIT_NO_TRANS, tb = c->trans_b != GEMMKIT_NO_TRANS;
    return gk_scale_wide(rng, ops[0], c->layout, ta ? c->k : c->m, ta ? c->m : c->k, c->lda) ||
           gk_scale_wide(rng, ops[1], c->layout, tb ? c->n : c->k, tb ? c->k : c->n, c->ldb) ? -1 : 0;
}

static int allocate(gk_bench_session *s, gk_bench_inputs *in)
{
    const gk_routine *routine = in->routine;
    double bytes = 0.0;
    for (int i = 0; i < routine->operands; i++) bytes += 4.0 * (double)in->extent[i];
    in->sets = gk_bench_input_sets(s->args, bytes);
    gk_case_label l;
    routine->label(&in->kase, &l);
    for (int k = 0; k < in->sets; k++) {
        for (int i = 0; i < routine->operands; i++)
            if (!(in->ops[k][i] = malloc((in->extent[i] ? in->extent[i] : 1) * sizeof(float)))) return -1;
        in->seed[k] = gk_bench_set_seed(s->report.seed, l.size, l.batch, k);
        gk_rng rng;
        gk_rng_seed(&rng, in->seed[k]);
        routine->fill(&in->kase, &rng, in->ops[k]);
        if (s->args->wide_inputs && routine == &gk_routine_gemm && scale_wide(&in->kase, &rng, in->ops[k])) return -1;
    }
    const size_t out = in->extent[routine->operands - 1];
    return (in->result = malloc((out ? out : 1) * sizeof(float))) ? 0 : -1;
}

int gk_bench_inputs_make(gk_bench_session *s, const gk_routine *routine, const gk_case *c, gk_bench_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->routine = routine;
    in->kase = *c;
    routine->extents(c, in->extent);
    gk_case_label l;
    routine->label(c, &l);
    char text[64];
    gk_bench_size_text(&(gk_bench_size){.m = l.size[0], .n = l.size[1], .k = l.size[2]}, text, sizeof text);
    /* SGEMM's shapes may each have their own transposes and layout. */
    if (strlen(l.trans) == 2) snprintf(text + strlen(text), sizeof text - strlen(text), " %s %s", l.trans, l.layout);
    if (allocate(s, in)) {
        gk_bench_progress(s, "size %s: out of host memory for the inputs; skipped", text);
        s->sizes_without_memory++;
        gk_bench_inputs_free(in);
        return -1;
    }
    gk_bench_progress(s, "size %s: %d input set%s of random values in [-1, 1)%s", text, in->sets,
                      in->sets == 1 ? "" : "s",
                      s->args->wide_inputs ? ", rows and columns scaled by 2^-20..2^20 (--inputs wide)" : "");
    return 0;
}

void gk_bench_record_fill(gk_bench_session *s, const gk_runner *r, const gk_bench_inputs *in, gk_bench_record *rec)
{
    (void)s;
    memset(rec, 0, sizeof *rec);
    gk_case_label l;
    in->routine->label(&in->kase, &l);
    snprintf(rec->op, sizeof rec->op, "%s", l.op);
    snprintf(rec->name, sizeof rec->name, "%s", r->name);
    snprintf(rec->kind, sizeof rec->kind, "%s", r->kind);
    snprintf(rec->label, sizeof rec->label, "%s", r->label);
    snprintf(rec->resolved, sizeof rec->resolved, "%s", r->name);
    rec->size = (gk_bench_size){.m = l.size[0], .n = l.size[1], .k = l.size[2]};
    rec->batch = l.batch;
    rec->bytes = l.bytes;
    snprintf(rec->layout, sizeof rec->layout, "%s", l.layout);
    snprintf(rec->trans, sizeof rec->trans, "%s", l.trans);
    rec->work = in->routine->work(&in->kase);
    rec->unit = in->routine->unit;
    rec->sets = in->sets;
    rec->wall_clock = r->wall_clock;
    rec->reads_c = in->routine == &gk_routine_gemm && in->kase.gemm.beta != 0.0f;
}

gk_bench_record *gk_bench_record_add(gk_bench_session *s, const gk_runner *r, const gk_bench_inputs *in)
{
    gk_bench_record *rec = gk_bench_report_add(&s->report);
    if (rec) gk_bench_record_fill(s, r, in, rec);
    return rec;
}

typedef struct job {
    gk_runner *r;
    gk_bench_inputs *in;
} job;

/* Set k's operand i lives in slot k * operands + i. */
static void slots_of(const gk_bench_inputs *in, int set, int *slots)
{
    for (int i = 0; i < in->routine->operands; i++) slots[i] = set * in->routine->operands + i;
}

static int job_call(void *user, int set, gk_bench_timing *t, char *err)
{
    job *j = user;
    int slots[GK_ROUTINE_MAX_OPERANDS];
    slots_of(j->in, set, slots);
    return j->r->run(j->r, j->in->routine, &j->in->kase, slots, t, err);
}

/* After the warm-up: poison set 0's output again, so the timed runs must write it. */
static int job_prepare(void *user, char *err)
{
    job *j = user;
    const int out = j->in->routine->operands - 1;
    return j->r->write(j->r, out, j->in->ops[0][out], j->in->extent[out], err);
}

int gk_bench_upload(gk_runner *r, const gk_bench_inputs *in, char *err)
{
    for (int s = 0; s < in->sets; s++) {
        int slots[GK_ROUTINE_MAX_OPERANDS];
        slots_of(in, s, slots);
        for (int i = 0; i < in->routine->operands; i++)
            if (r->alloc(r, slots[i], in->extent[i], err) || r->write(r, slots[i], in->ops[s][i], in->extent[i], err))
                return -1;
    }
    return 0;
}

int gk_bench_poison_outputs(gk_runner *r, const gk_bench_inputs *in, char *err)
{
    const int out = in->routine->operands - 1;
    for (int s = 0; s < in->sets; s++) {
        int slots[GK_ROUTINE_MAX_OPERANDS];
        slots_of(in, s, slots);
        if (r->write(r, slots[out], in->ops[s][out], in->extent[out], err)) return -1;
    }
    return 0;
}

/* Reads back and checks every set's output; the record says what was found. */
static void check_sets(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, gk_bench_record *rec)
{
    const int out = in->routine->operands - 1;
    char err[GK_BENCH_ERR] = "";
    rec->status = GK_BENCH_OK;
    rec->max_error = rec->rms_error = 0.0;
    rec->error_count = 0;
    for (int set = 0; set < rec->sets && rec->status == GK_BENCH_OK; set++) {
        int slots[GK_ROUTINE_MAX_OPERANDS];
        slots_of(in, set, slots);
        /* The elements sampled depend on the set alone: the same for every runner. */
        gk_rng pick;
        gk_rng_seed(&pick, ~in->seed[set]);
        if (r->read(r, slots[out], in->result, in->extent[out], err)) {
            rec->status = GK_BENCH_ERROR;
            snprintf(rec->message, sizeof rec->message, "reading the result: %.220s", err);
        } else if (!gk_bench_check(in->routine, &in->kase, in->ops[set], &in->ref[set], in->result, r, &pick,
                                   rec)) {
            rec->status = GK_BENCH_WRONG;
            char first[GK_BENCH_ERR];
            snprintf(first, sizeof first, "%s", rec->message);
            snprintf(rec->message, sizeof rec->message, "input set %d: %.230s", set + 1, first);
        }
    }
}

void gk_bench_measure_uploaded(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, gk_bench_record *rec)
{
    if (gk_bench_record_samples(rec, s->args->repeat)) {
        rec->status = GK_BENCH_ERROR;
        snprintf(rec->message, sizeof rec->message, "out of host memory");
        return;
    }
    job j = {r, in};
    rec->status = GK_BENCH_ERROR;
    if (gk_bench_time(job_call, &j, job_prepare, in->sets, s->args->max_seconds, rec) == 0) check_sets(s, r, in, rec);
    if (rec->status == GK_BENCH_ERROR && gk_runner_unsupported_here(r)) rec->status = GK_BENCH_SKIPPED;
}

void gk_bench_measure(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, const char *resolved)
{
    gk_bench_record *rec = gk_bench_record_add(s, r, in);
    if (!rec) return;
    if (resolved) snprintf(rec->resolved, sizeof rec->resolved, "%s", resolved);
    if (gk_bench_too_slow(s, rec)) {
        gk_bench_progress_record(s, rec);
        return;
    }
    char err[GK_BENCH_ERR] = "";
    if (gk_bench_upload(r, in, err)) {
        rec->status = GK_BENCH_ERROR;
        snprintf(rec->message, sizeof rec->message, "%s", err);
        if (gk_runner_unsupported_here(r)) rec->status = GK_BENCH_SKIPPED;
    } else {
        gk_bench_measure_uploaded(s, r, in, rec);
    }
    /* A runner may add how it timed; a peer's label names its SGEMM, so say what ran here. */
    if (strcmp(r->kind, "peer") == 0 && in->routine != &gk_routine_gemm)
        snprintf(rec->label, sizeof rec->label, "%.200s; here its %s", r->label, in->routine->name);
    else
        snprintf(rec->label, sizeof rec->label, "%s", r->label);
    r->release(r);
    if (rec->status == GK_BENCH_OK) gk_bench_pace(s, rec);
    gk_bench_progress_record(s, rec);
}
