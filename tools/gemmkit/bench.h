/* `gemmkit bench`: shared pieces of the benchmark. Arguments, result records
 * and their writers (table, JSON, CSV, plot), the runner interface that
 * gemmkit's kernels and the peers (cuBLAS, CLBlast) share, and the timing
 * loop, and one measurement for any routine (bench_measure.c, through the
 * routine's descriptor, tools/check/routine_desc.h). The SGEMM benchmark
 * (bench_sgemm.c) and the transpose benchmark (bench_transpose.c) only choose
 * the runners: a transpose record only changes `op`, `work` (bytes) and
 * `unit` ("GB/s"). */
#ifndef GK_BENCH_H
#define GK_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "cli.h"
#include "gemmkit.h"
#include "routine_desc.h"

#define GK_BENCH_MAX_SIZES 1024 /* random:1000 and a few more */
#define GK_BENCH_MAX_PARAM_LINES 16 /* --params given more than once: lines timed side by side */
#define GK_BENCH_MAX_SETS 8
#define GK_BENCH_MAX_RUNNERS 8
#define GK_BENCH_ERR 256 /* size of every error-message buffer below */
#define GK_BENCH_PEER_NAMES "cublas, clblast, cpublas" /* --peers LIST */

/* Operands smaller than this (A + B + C bytes) get 3 input sets rotated, so
 * that timed runs do not just re-read what the previous run left in cache. */
#define GK_BENCH_ROTATE_BELOW_BYTES (256.0 * 1024 * 1024)

/* ---- arguments (bench_args.c) ---- */

typedef struct gk_bench_size {
    int64_t m, n, k; /* transposes: rows, cols, 0 */
    /* This shape's own op(A), op(B) and storage order ("96x80x72:TN:row", random:...);
     * 0: the run's --trans / --layout (gk_bench_size_resolve). */
    gemmkit_transpose trans_a, trans_b;
    gemmkit_layout layout;
    signed char drawn; /* random:...: 1 + the class it was drawn from (gk_bench_random_class_name); 0: named */
} gk_bench_size;

/* A size without its own transposes or layout, for tables (designated: the other fields 0). */
#define GK_BENCH_SIZE(m_, n_, k_) {.m = (m_), .n = (n_), .k = (k_)}

/* One random:COUNT[:SEED] item of --sizes: its shapes are sizes[first .. first + count). */
typedef struct gk_bench_draw {
    int first, count;
    uint64_t seed;
    int seed_from_clock; /* no SEED given: one drawn from the clock, printed so that the run can be repeated */
} gk_bench_draw;
#define GK_BENCH_MAX_DRAWS 8

typedef struct gk_bench_args {
    const char *kernel; /* registry name, "all" (the SGEMM ladder) or "best" (the public dispatch) */
    const char *params; /* "NAME=value,..." for the named kernel: the first --params */
    const char *param_lines[GK_BENCH_MAX_PARAM_LINES]; /* every --params given, one runner each (SGEMM) */
    int param_line_count;
    gk_bench_size sizes[GK_BENCH_MAX_SIZES];
    int size_count; /* 0: the device's defaults */
    gk_bench_draw draws[GK_BENCH_MAX_DRAWS]; /* the random:... items of --sizes */
    int draw_count;
    gemmkit_layout layout;
    gemmkit_transpose trans_a, trans_b;
    int repeat;         /* timed runs per measurement, after one warm-up */
    int sets;           /* input sets rotated; 0 = automatic (see above) */
    double max_seconds; /* skip a measurement predicted to take longer */
    const char *json_path, *csv_path, *plot_path;
    int peers;    /* run the peers (cuBLAS, CLBlast, the CPU BLAS) beside gemmkit */
    /* --peers LIST: exactly these peers, comma-separated names of
     * GK_BENCH_PEER_NAMES (cpublas on GPUs too); NULL: every peer, the CPU
     * BLAS on CPU devices only. */
    const char *peer_list;
    int baseline; /* time the host's sequential triple loop */
    int quiet;    /* no progress on stderr */
    int transpose; /* --transpose: the transpose benchmark instead of SGEMM */
    int64_t batch; /* --batch N: strided batched SGEMM of N matrices per call; 0: plain SGEMM */
    const struct gk_bench_preset *preset; /* a preset named in --sizes (a GPU-only one first), else NULL */
    gemmkit_math math; /* --math: the context's mode for the run; DEFAULT: as the context starts */
    int wide_inputs;   /* --inputs wide: A's and B's rows and columns scaled by 2^-20..2^20 (gk_scale_wide) */
    int roofline;      /* measure the copy bandwidth for the %roof column (--no-roofline: not) */
    int candidates;    /* --candidates: every candidate of the cost model timed per shape */
    const char *candidates_out; /* --candidates-out FILE.tsv: one row per candidate */
    int list_sizes;    /* --list-sizes: print the shapes --sizes names, one spec a line, and time nothing */
} gk_bench_args;

void gk_bench_args_default(gk_bench_args *args);
/* Parses `gemmkit bench` options. Returns 0 when the benchmark should run,
 * GK_EXIT_USAGE after printing a message (bad arguments), or -1 after
 * printing the help (--help). */
int gk_bench_parse_args(int argc, char **argv, gk_bench_args *args);
/* "1024,2048", "1000x3x77", "5001x3007" (k = 0: transposes), "1024:16384:x2",
 * "256:2048:+256", a preset's name ("sweep"), "random:COUNT[:SEED]", mixed with
 * commas; N and MxNxK may end in ":NN".."TT" and/or ":row"/":col" (that shape's
 * transposes and layout). Returns 0 or -1 with a message in err. draws (may be
 * NULL) receives the random items and their seeds; *draw_count is set when
 * draws is given. gk_bench_parse_args then checks that the kinds fit the benchmark. */
int gk_bench_parse_sizes(const char *text, gk_bench_size *sizes, int max, int *count, gk_bench_draw *draws,
                         int *draw_count, char *err);
/* The size with its transposes and layout filled in from the run's where it has none. */
gk_bench_size gk_bench_size_resolve(const gk_bench_args *args, const gk_bench_size *size);
/* 1 when some size has its own transposes or layout (the title then says "per shape"). */
int gk_bench_sizes_own_ops(const gk_bench_args *args);

/* ---- random shapes (bench_random.c) ---- */

#define GK_BENCH_RANDOM_MAX 1000   /* shapes per random:COUNT item */
#define GK_BENCH_RANDOM_CLASSES 6  /* square-ish, one-edge, small-c-long-k, large-c-short-k, transformer, odd-middle */
/* Draws count shapes (1..GK_BENCH_RANDOM_MAX) into out, the same for a seed on
 * every machine: per shape a class (uniformly), its sizes within the class's
 * ranges (redrawn until gk_bench_shape_fits), then op(A), op(B) and the layout
 * (each uniformly); out[i].drawn = 1 + class. Pure: no state, no I/O. 0, or -1
 * for a count out of range. */
int gk_bench_random_shapes(uint64_t seed, int count, gk_bench_size *out);
/* 1 when m, n, k and each operand's elements are within the API's 2^31-1 and A + B + C
 * take at most 8 GiB of floats (2^31 floats): a random shape fits a GPU. */
int gk_bench_shape_fits(const gk_bench_size *size);
const char *gk_bench_random_class_name(int cls); /* "square-ish", ...; "?" out of range */
uint64_t gk_bench_random_clock_seed(void);      /* for random:COUNT without a SEED */
void gk_bench_usage(FILE *out);
/* Named size lists (bench_presets.c): an item of --sizes ("sweep", "sweep-cpu"). */
typedef struct gk_bench_preset {
    const char *name;
    const char *summary;  /* one line for --help and messages */
    const char *cpu_twin; /* a GPU-only preset: the one to use on a CPU device; NULL: any device */
    const gk_bench_size *sizes;
    int count;
} gk_bench_preset;
/* The preset named by the len bytes at name, or NULL. */
const gk_bench_preset *gk_bench_preset_find(const char *name, size_t len);
/* The i-th preset (for --help and tests), NULL past the last. */
const gk_bench_preset *gk_bench_preset_at(int i);
/* The preset a comma-separated size list names (a GPU-only one first), or NULL. */
const gk_bench_preset *gk_bench_presets_named(const char *list);
/* 0 when the preset (may be NULL) suits the device; -1 with a message in err
 * when a GPU-only preset meets a CPU device (cmd_bench: exit 2). */
int gk_bench_preset_fits(const gk_bench_preset *preset, int is_gpu, char *err);
/* "1024" for a cube, "1000x3x77" otherwise, "4096x2048" for transposes (k == 0). */
void gk_bench_size_text(const gk_bench_size *s, char *text, size_t len);

/* ---- result records and the report (bench_report.c) ---- */

typedef enum gk_bench_status {
    GK_BENCH_OK,      /* timed and the result checked */
    GK_BENCH_WRONG,   /* ran, but the result failed the check: no speed reported */
    GK_BENCH_ERROR,   /* did not run (build failure, device error, ...) */
    GK_BENCH_SKIPPED, /* not run on purpose (too slow, unsupported here) */
} gk_bench_status;

typedef struct gk_bench_stats {
    double median, min, max;
} gk_bench_stats;

typedef struct gk_bench_record {
    char op[16];       /* "sgemm", "transpose", "copy" */
    char name[64];     /* kernel ("direct"), "best", peer ("cublas"), "host-seq" */
    char kind[16];     /* "gemmkit", "peer", "baseline" */
    char label[256];   /* one line for people */
    char resolved[64]; /* the kernel that actually ran ("best" -> "direct") */
    gk_bench_size size;
    int64_t batch;     /* matrices per call (--batch); 0: not batched */
    double bytes;      /* batched: the least bytes a call moves (A, B read once, C written once); else 0 */
    char layout[4];    /* "row", "col" */
    char trans[4];     /* "NN".."TT" (transposes: "T" or "N") */
    double work;       /* flops (SGEMM: 2 M N K) or bytes moved (transposes) per call */
    const char *unit;  /* "GFLOPS" or "GB/s" */
    int sets;          /* input sets rotated over the timed runs */
    int count;         /* timed samples in each array below */
    double *kernel_ms; /* device time of the main kernel */
    double *total_ms;  /* device time of every launch of the call (pack/unpack included) */
    double *host_ms;   /* wall time of the call on the host, waiting for the result */
    gk_bench_status status;
    int wall_clock;    /* 1: no device time (the CPU BLAS): kernel and call times are the call's wall time */
    int reads_c;       /* SGEMM with beta != 0: C is read as well as written (the roofline's bytes) */
    char check[16];    /* "full", "sampled", "slice", "exact", "" */
    /* Error statistics over the checked elements of every input set, each
     * element's |c - ref| relative to its scale (SGEMM: |alpha| sum |a||b|). */
    double max_error;      /* largest */
    double rms_error;      /* root mean square; valid when error_count > 0 */
    int64_t error_count;   /* elements in rms_error (0: only a max is known, e.g. batched) */
    char message[GK_BENCH_ERR]; /* the check's verdict or the error */
    char note[GK_BENCH_ERR];    /* how it was measured, when special (extrapolated, skipped, ...) */
} gk_bench_record;

typedef struct gk_bench_peer_info {
    char name[32];   /* "cublas", "clblast", "cpublas" */
    char label[32];  /* "cuBLAS", "CLBlast", "CPU BLAS" */
    int found;       /* usable in this run */
    char detail[GK_BENCH_ERR]; /* library and version, or why it is not used */
} gk_bench_peer_info;

/* The copy bandwidth the roofline is drawn with, measured in the same run on the same device
 * (bench_bandwidth.c). */
typedef struct gk_bench_bandwidth {
    int measured;            /* 1: gbs holds a measurement */
    double gbs;              /* (bytes read + bytes written) / best device time, 1e9 bytes per second */
    double bytes;            /* bytes read by one copy (as many written) */
    int repeat;              /* timed copies, after one warm-up */
    char kernel[64];         /* the copy kernel the library ran */
    char note[GK_BENCH_ERR]; /* not measured: why (--no-roofline, a failure) */
} gk_bench_bandwidth;

struct gk_bench_candidates; /* --candidates' results (below) */

typedef struct gk_bench_report {
    gk_bench_record *records;
    size_t count, capacity;
    gemmkit_device_info device;
    char date[40];               /* ISO 8601, UTC */
    char command_line[2048];
    const gk_bench_args *args;
    uint64_t seed;
    char title[256];             /* "SGEMM C = alpha op(A) op(B) + beta C, ..." */
    char kernel_note[1024];       /* which kernel runs and why, one line ("" when none) */
    gk_bench_peer_info peers[GK_BENCH_MAX_RUNNERS];
    int peer_count;
    gk_bench_bandwidth bandwidth; /* the roofline's copy bandwidth (SGEMM runs) */
    const struct gk_bench_candidates *candidates; /* --candidates: per shape, each candidate timed; else NULL */
} gk_bench_report;

/* A zeroed record at the end of the report, or NULL when out of memory. */
gk_bench_record *gk_bench_report_add(gk_bench_report *report);
void gk_bench_report_free(gk_bench_report *report);
/* Allocates the three sample arrays (zeroed); 0 or -1. */
int gk_bench_record_samples(gk_bench_record *record, int count);
gk_bench_stats gk_bench_stats_of(const double *samples, int count);
/* work / median time, in GFLOPS or GB/s (1e9 units per second); 0 if none. */
double gk_bench_rate(const gk_bench_record *record, const double *samples);
/* A ladder kernel's rate over the previous step of its document on the same problem, or 0. */
double gk_bench_step_speedup(const gk_bench_report *report, const gk_bench_record *record);
/* The kernel rate of a GB/s record over the best gemmkit copy's at the same
 * size and layout (%copy); 0 when there is none. */
double gk_bench_copy_fraction(const gk_bench_report *report, const gk_bench_record *record);
/* This record's rate (whole call) over a peer's at the same size and shape;
 * 0 when the peer has no valid result there. */
/* The record of `peer` on record's problem, or NULL. */
const gk_bench_record *gk_bench_peer_record(const gk_bench_report *report, const gk_bench_record *record,
                                            const char *peer);
double gk_bench_ratio(const gk_bench_report *report, const gk_bench_record *record, const char *peer);
const char *gk_bench_status_name(gk_bench_status status);
/* The name shown in the table and progress: "best:direct" when the library's
 * dispatch picked a kernel; "cublas:copy" for a peer's transposes and copies
 * (the same runner does both). */
void gk_bench_display_name(const gk_bench_record *r, char *out, size_t len);
/* Names of peer runners with at least one result, in order; returns the count. */
int gk_bench_peer_columns(const gk_bench_report *report, const char **names, int max);
void gk_bench_print_header(const gk_bench_report *report, FILE *out);
/* The header's lines on --sizes random:... items: count, seed (said when from the clock), shapes per class. */
void gk_bench_print_draws(const gk_bench_args *args, FILE *out);
void gk_bench_print_table(const gk_bench_report *report, FILE *out);
/* The table's last line: how many results were verified, and against what. */
void gk_bench_print_verified(const gk_bench_report *report, FILE *out);

/* ---- the summary after the table (bench_summary.c) ---- */

#define GK_BENCH_SLOW_RATIO 0.90 /* shapes where gemmkit is slower than this times the peer are counted */
#define GK_BENCH_WORST 5         /* worst shapes shown */
#define GK_BENCH_MAX_PAIRS 64    /* gemmkit runner x peer summaries */

typedef struct gk_bench_summary {
    int shapes;                       /* ratios summarized */
    int host_shapes;                  /* of those, with a host wall-time ratio too */
    double geomean_device, geomean_host; /* geometric means of the ratios; NaN without any */
    int below_device, below_host;     /* ratios < GK_BENCH_SLOW_RATIO */
    int worst_count;
    int worst[GK_BENCH_WORST];        /* indexes of the smallest device ratios, smallest first (ties: first index) */
} gk_bench_summary;

/* Pure: the summary of count gemmkit/peer speed ratios in device time (each > 0)
 * and in host wall time (<= 0: none for that shape). */
void gk_bench_summarize(const double *device, const double *host, int count, gk_bench_summary *out);

/* One gemmkit runner against one peer over the report's shapes. */
typedef struct gk_bench_pair {
    char gemmkit[64], peer[32]; /* runner names ("best", "cpublas") */
    int unpaired;               /* gemmkit's shapes without a valid result from both */
    gk_bench_summary summary;
    size_t worst_record[GK_BENCH_WORST]; /* gemmkit's records of the worst shapes */
    double worst_device[GK_BENCH_WORST], worst_host[GK_BENCH_WORST];
} gk_bench_pair;

/* Every gemmkit runner x peer pair over at least 2 shapes with one or more
 * compared (at most max, in record order); returns the count. */
int gk_bench_summaries(const gk_bench_report *report, gk_bench_pair *out, int max);
/* "96x80x72 TN row": a record's size, transposes and layout. */
void gk_bench_shape_text(const gk_bench_record *r, char *text, size_t len);
/* The summary printed after the table (nothing without a pair). */
void gk_bench_print_summary(const gk_bench_report *report, FILE *out);

/* ---- the roofline (bench_roofline.c) ---- */

/* Shapes of at least this many multiply-adds (2^27, 512^3) make the roofline summary: below, launch
 * latency rather than the roofline bounds a call. */
#define GK_BENCH_ROOFLINE_MIN_MACS 134217728.0

/* Flops per byte of an SGEMM that moves each operand once: 2 M N K / (4 (M K + K N + M N c)), c = 2 when
 * C is read (beta != 0), else 1. 0 for an empty shape. Pure. */
double gk_bench_intensity(int64_t m, int64_t n, int64_t k, int reads_c);
/* The roofline bound in GFLOPS: min(peak, copy GB/s x intensity); 0 when the peak or the bandwidth is
 * unknown (<= 0). Pure. */
double gk_bench_roofline_bound(double peak_gflops, double copy_gbs, double intensity);
/* The bound of a record's problem on the report's device (batched: its least bytes moved); 0 where it
 * has none: transposes, the host baseline, wall-clock runners on a GPU, no bandwidth measured. */
double gk_bench_roofline_gflops(const gk_bench_report *report, const gk_bench_record *record);
/* A valid record's call rate over its bound (%roof), else 0. */
double gk_bench_roofline_fraction(const gk_bench_report *report, const gk_bench_record *record);

/* One runner's roofline summary: the geometric mean of its fraction over the shapes of at least
 * GK_BENCH_ROOFLINE_MIN_MACS multiply-adds where it has one. */
typedef struct gk_bench_roofline_summary {
    char name[64], kind[16]; /* the runner: "best", "cublas" */
    int shapes;
    double geomean;          /* NaN without shapes */
} gk_bench_roofline_summary;
/* Pure: the geometric mean of the fractions (each > 0) of count shapes whose multiply-adds are at least
 * GK_BENCH_ROOFLINE_MIN_MACS; *shapes gets how many those are. NaN when none. */
double gk_bench_roofline_geomean(const double *fractions, const double *macs, int count, int *shapes);
/* Every runner (gemmkit's, then the peers, in record order) with a fraction on a summary shape; returns
 * the count (at most max). */
int gk_bench_roofline_summaries(const gk_bench_report *report, gk_bench_roofline_summary *out, int max);
/* The header's line on the bandwidth (measured, or why not). */
void gk_bench_print_bandwidth(const gk_bench_report *report, FILE *out);
/* The roofline summary after the table (runs of 2 shapes or more with a bandwidth). */
void gk_bench_print_roofline_summary(const gk_bench_report *report, FILE *out);

/* ---- --candidates (bench_candidates.c, bench_candidates_report.c) ---- */

#define GK_BENCH_NEAR_FASTEST 1.10 /* the default counts as near the fastest candidate within 10% */

/* One candidate of one shape, timed as the normal gemmkit runner is (kernel and params named). */
typedef struct gk_bench_candidate_row {
    int rank;                   /* in the model's order, cheapest predicted first; 0: the library's default */
    char kernel[64], line[64];  /* the kernel run, its tuning line */
    char params[256];           /* as gemmkit_options.params took them ("" none) */
    int splits;                 /* slices of K (1: no split); 0: no candidate, the default alone (the model
                                   does not choose for this shape) */
    double predicted_ms;        /* the model's device time; NaN where it predicted none */
    double measured_ms;         /* median call time (device), NaN unless ok */
    double wall_ms;             /* median host wall time, NaN unless ok */
    gk_bench_status status;     /* ok, wrong, error (did not run, or refused by the device: not fatal), skipped
                                   (the shape not run on purpose: --max-time's prediction, no host memory) */
    char message[GK_BENCH_ERR]; /* why not ok */
} gk_bench_candidate_row;

typedef struct gk_bench_candidate_shape {
    gk_bench_size size;        /* with its own transposes and layout */
    int chooses;               /* 1: the model gave candidates; 0: it does not choose here (the default alone) */
    int skipped;               /* 1: nothing timed (--max-time's prediction, no host memory): one skipped row */
    char default_kernel[64];   /* what the call with no kernel named ran */
    double default_ms, default_wall_ms; /* its median call and wall time; NaN unless ok */
    char note[GK_BENCH_ERR];   /* why nothing was timed (skipped, no memory), else "" */
    size_t first;              /* its rows: rows[first .. first + count) */
    int count;
} gk_bench_candidate_shape;

typedef struct gk_bench_candidates {
    gk_bench_candidate_shape *shapes;
    size_t shape_count, shape_capacity;
    gk_bench_candidate_row *rows;
    size_t row_count, row_capacity;
} gk_bench_candidates;

typedef struct gk_bench_candidates_summary {
    int shapes;        /* every shape */
    int chosen;        /* shapes where the model chose */
    int skipped;       /* shapes not measured (their one row skipped) */
    int compared;      /* of those, with the default and some candidate ok */
    int near;          /* of those, the default within GK_BENCH_NEAR_FASTEST of the fastest candidate */
    int mismatched;    /* shapes where the default ran another kernel than the model's first candidate */
    int candidates, ok, failed, wrong; /* the candidates' rows (not the default-alone rows) */
    int predicted;     /* ok candidates with a prediction > 0: the geometric mean's */
    double geomean_measured_over_predicted; /* NaN without any */
} gk_bench_candidates_summary;

/* A shape and a row of it, appended (zeroed; NaN times); NULL when out of memory. A row is the last
 * shape's: rows of a shape are contiguous. */
gk_bench_candidate_shape *gk_bench_candidates_add_shape(gk_bench_candidates *c);
gk_bench_candidate_row *gk_bench_candidates_add_row(gk_bench_candidates *c, gk_bench_candidate_shape *shape);
void gk_bench_candidates_free(gk_bench_candidates *c);
/* 1 when the call with no kernel named ran another kernel than the model's first candidate (which the
 * library says it runs): the model's ranking and the library's choice disagree. */
int gk_bench_candidates_mismatch(const gk_bench_candidates *c, const gk_bench_candidate_shape *shape);
/* The fastest ok candidate of a shape (its row), or NULL. */
const gk_bench_candidate_row *gk_bench_candidates_fastest(const gk_bench_candidates *c,
                                                          const gk_bench_candidate_shape *shape);
/* Pure: the counts and geometric mean above. */
void gk_bench_candidates_summarize(const gk_bench_candidates *c, gk_bench_candidates_summary *out);
/* Per shape one line (default, fastest, ratio) and the summary, after the table. */
void gk_bench_print_candidates(const gk_bench_candidates *c, FILE *out);
/* --candidates-out: one tab-separated row per candidate (and per default-alone shape) with a header;
 * written whole or not at all. 0, or -1 with a message in err. */
int gk_bench_write_candidates(const gk_bench_candidates *c, const char *path, char *err);
/* The TSV's header line (for the tests and the docs). */
extern const char gk_bench_candidates_columns[];

/* Writers (bench_json.c, bench_csv.c, bench_plot.c): 0, or -1 with a message in
 * err. Each file is written whole or not at all (tools/common/output_file.h). */
int gk_bench_write_json(const gk_bench_report *report, const char *path, char *err);
int gk_bench_write_csv(const gk_bench_report *report, const char *path, char *err);
int gk_bench_write_plot(const gk_bench_report *report, const char *path, char *err);
/* 1 when a plotter (gnuplot) is here, its path in path; else 0 with the reason in why. */
int gk_bench_plotter(char *path, size_t len, char *why);
/* The gnuplot script gk_bench_write_plot runs (for tests): 0, or -1 when out of memory. */
int gk_bench_plot_script(FILE *f, const gk_bench_report *report, const char *path, const char *terminal);

/* ---- runners: gemmkit itself and the peers, one interface ---- */

typedef struct gk_bench_timing {
    double kernel_ms; /* the main kernel (peers: the last kernel of the call) */
    double total_ms;  /* every launch of the call, device time */
    /* In: 1 for the wall-clock runs (gk_bench_time): the call asks for no device time, only waits for its result,
     * as a program calls it (gemmkit then records no profiling events); the times out are not read. */
    int wall_only;
} gk_bench_timing;

#define GK_RUNNER_SLOTS 32

/* Something that can run routines on device memory it owns, numbered in
 * slots. Every call returns 0, or -1 with a message in err (GK_BENCH_ERR
 * bytes). Calls wait for the device before returning. */
typedef struct gk_runner gk_runner;
struct gk_runner {
    char name[32];   /* short, used in files and ratio columns: "cublas-tf32" */
    char label[256]; /* "cuBLAS SGEMM, TF32 tensor cores (not fp32)" */
    char kind[16];   /* "gemmkit" or "peer" */
    /* Relative rounding of the inputs before multiplying (TF32: 2^-11); the
     * result check widens its bound by this. 0 for true fp32. */
    double input_rounding;
    gemmkit_math math; /* the mode it computes in: its batched results are checked with that mode's bound */
    int wall_clock; /* its times are wall-clock times on the host, not device times (the CPU BLAS) */
    void *state;
    int (*alloc)(gk_runner *r, int slot, size_t count, char *err);
    int (*write)(gk_runner *r, int slot, const float *src, size_t count, char *err);
    int (*read)(gk_runner *r, int slot, float *dst, size_t count, char *err);
    /* One call of the routine on the case, operand i in slot slots[i]. */
    int (*run)(gk_runner *r, const gk_routine *routine, const gk_case *c, const int *slots, gk_bench_timing *t,
               char *err);
    /* A peer's own entry points, per routine (NULL: the peer has none); its
     * run is gk_peer_run, which calls them. */
    int (*sgemm)(gk_runner *r, const gk_sgemm_case *c, int a, int b, int slot_c, gk_bench_timing *t,
                 char *err);
    int (*omatcopy)(gk_runner *r, const gk_omatcopy_case *o, int a, int b, gk_bench_timing *t, char *err);
    int (*sgemm_batched)(gk_runner *r, const gk_batched_case *c, int a, int b, int slot_c, gk_bench_timing *t,
                         char *err); /* strided batched SGEMM */
    void (*release)(gk_runner *r); /* frees every slot */
    void (*destroy)(gk_runner *r); /* releases, then frees the runner */
    /* gemmkit's runners: 1 when the last call failed as unsupported by this
     * device or backend (gk_runner_unsupported_here); NULL: never. */
    int (*unsupported)(const gk_runner *r);
};

/* Runners on host arrays (bench_host_memory.c): their state begins with a
 * gk_host_slots, and gk_runner_use_host_memory sets alloc, write, read and
 * release to malloc'ed arrays copied with memcpy. */
typedef struct gk_host_slots {
    float *data[GK_RUNNER_SLOTS];
    size_t count[GK_RUNNER_SLOTS];
} gk_host_slots;
void gk_runner_use_host_memory(gk_runner *r);
/* A slot's array (its length in *count if non-NULL), or NULL with err. */
float *gk_host_slot(gk_runner *r, int slot, size_t *count, char *err);

/* A peer's run: its entry point for the routine, or an error if it has none. */
int gk_peer_run(gk_runner *r, const gk_routine *routine, const gk_case *c, const int *slots, gk_bench_timing *t,
                char *err);
/* Whether the runner can run the routine (gemmkit: every routine). */
int gk_runner_runs(const gk_runner *r, const gk_routine *routine);

/* gemmkit on its own context with a registry kernel (NULL: the public dispatch). */
gk_runner *gk_runner_gemmkit(gemmkit_context *ctx, const char *kernel, const char *params);
/* gemmkit_sgemm_ex on host arrays with the library's choice, as a program
 * calls it (bench_gemmkit_host.c): on a CPU device the library routes it to
 * the CPU BLAS. Named "best-host"; SGEMM only. */
gk_runner *gk_runner_gemmkit_host(gemmkit_context *ctx);
/* Where the library sends that call for the case: "host-blas" when it routes
 * it to the CPU BLAS, else NULL (the device, through its staging buffers). */
const char *gk_host_call_route(gemmkit_context *ctx, const gk_sgemm_case *c);
/* The kernel the library's policy picks for the case (its shape, orientation and the context's math mode). */
const char *gk_case_default_kernel(gemmkit_context *ctx, const gk_sgemm_case *c);

/* Peers, found at run time with dlopen. Each appends its runners (at most
 * `max`) and fills `info`; returns how many it appended. */
int gk_peer_cublas_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners, int max,
                        gk_bench_peer_info *info);
int gk_peer_clblast_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners,
                         int max, gk_bench_peer_info *info);
/* The host's CPU BLAS (src/core/host_blas.h) on host arrays (peer_cpublas.c). */
int gk_peer_cpublas_open(gemmkit_context *ctx, const gemmkit_device_info *device, gk_runner **runners,
                         int max, gk_bench_peer_info *info);
/* Whether the peer `name` runs: in --peers LIST when given, else every peer
 * but cpublas on a GPU (bench_args' list is checked against GK_BENCH_PEER_NAMES). */
int gk_bench_peer_wanted(const gk_bench_args *args, const char *name, int device_is_gpu);

/* ---- timing and checking ---- */

/* One call on input set `set`; fills the device times. 0 or -1 with err. */
typedef int (*gk_bench_call)(void *user, int set, gk_bench_timing *t, char *err);

/* Warm-up (set 0, untimed: compiles kernels), `prepare` (may be NULL; e.g.
 * re-poisons outputs so that the timed runs must write them), then
 * rec->count timed calls rotating over `sets`, fewer when the next would end
 * past max_seconds from the start (at least one; rec->note says so), then as
 * many wall-clock runs (wall_only: no device timing asked for, the host time
 * around each call is what a program waits for). Fills the samples (device
 * times from the timed runs, host times from the wall-clock ones) and
 * rec->sets (the sets the runs used). 0, or -1 with the error in rec->message. */
int gk_bench_time(gk_bench_call call, void *user, int (*prepare)(void *user, char *err), int sets,
                  double max_seconds, gk_bench_record *rec);

double gk_bench_now_ms(void); /* monotonic clock */

/* Input sets to rotate for operands of `bytes` in all: --sets, else 3 below
 * GK_BENCH_ROTATE_BELOW_BYTES and 1 above, never more than the runs touch. */
int gk_bench_input_sets(const gk_bench_args *args, double bytes);

/* Reference of one SGEMM input set (bench_reference.c), computed on first
 * use and kept for the next runner: the elements of C it checks are every
 * one up to GK_BENCH_FULL_CHECK multiply-adds and GK_BENCH_FULL_ELEMENTS
 * elements (16 bytes each), else a grid of sampled rows x
 * sampled columns (the first and last of each among them, so the corners),
 * GK_BENCH_GRID_MIN to GK_BENCH_GRID_MAX of each, as many as
 * GK_BENCH_GRID_WORK multiply-adds allow (128 x 128 up to K = 16384).
 * Values and magnitudes in double, computed by every core. */
#define GK_BENCH_FULL_CHECK (134217728.0) /* 512^3 */
#define GK_BENCH_FULL_ELEMENTS (16777216.0) /* 4096^2 */
#define GK_BENCH_GRID_MIN 64
#define GK_BENCH_GRID_MAX 128
#define GK_BENCH_GRID_WORK (268435456.0) /* 2^28 */
#define GK_BENCH_SAMPLES 256 /* elements the other checks sample (batched, the host baseline) */
typedef struct gk_bench_reference {
    int ready, full;
    int64_t row_count, col_count; /* the checked rows and columns of C */
    int64_t *rows, *cols;         /* ascending */
    double *ref, *mag; /* element (rows[r], cols[q]) at [r * col_count + q]: value and |alpha| sum |a||b| */
} gk_bench_reference;

/* Computes the reference of the case on inputs a, b (beta = 0: C is not
 * read); rng picks the sampled rows and columns. 0, or -1 when out of memory
 * (ref left empty). */
int gk_bench_reference_make(const gk_sgemm_case *c, const float *a, const float *b, gk_rng *rng,
                            gk_bench_reference *ref);
void gk_bench_reference_free(gk_bench_reference *ref);

/* Checks `result` against the reference (made on first use with rng): every
 * element must be finite (catches unwritten, NaN-poisoned elements), and the
 * checked elements within 2 (K + 2) eps + 2 input_rounding of their
 * magnitude (the bound of tools/check, widened for TF32). Fills rec->check
 * and message, and adds the checked elements' errors to rec's statistics
 * (max_error, rms_error, error_count: zero them before the first set);
 * returns 1 when it passed. */
int gk_bench_check_sgemm(const gk_sgemm_case *c, const float *a, const float *b, gk_bench_reference *ref,
                         const float *result, double input_rounding, gk_rng *rng, gk_bench_record *rec);
/* B must equal alpha * op(A) exactly (alpha = 1: a pure copy). Returns 1 when it does. */
int gk_bench_check_omatcopy(const gk_omatcopy_case *o, const float *a, const float *b, gk_bench_record *rec);
/* The check of a routine's result: the two above for SGEMM and omatcopy,
 * else the routine's descriptor check (full up to GK_BENCH_FULL_CHECK,
 * GK_BENCH_SAMPLES elements beyond). ops: the inputs as uploaded. */
int gk_bench_check(const gk_routine *routine, const gk_case *c, float *const *ops, gk_bench_reference *ref,
                   const float *result, const gk_runner *runner, gk_rng *rng, gk_bench_record *rec);

/* ---- the whole run ---- */

typedef struct gk_bench_session {
    const gk_cli *cli;
    const gk_bench_args *args;
    gemmkit_context *ctx;
    gemmkit_device_info info;
    gk_runner *peers[GK_BENCH_MAX_RUNNERS];
    int peer_count;
    gk_bench_report report;
    gk_rng rng;
    FILE *progress; /* stderr, or NULL with --quiet */
    /* Each result once, wherever both streams go (gk_bench_progress_setup): */
    int progress_in_place; /* stdout and stderr on one terminal: a status line rewritten, then erased */
    int progress_no_results; /* stderr into stdout's file (2>&1): results only in the table */
    double started_ms;
    int sizes_without_memory; /* sizes skipped: no host memory for their inputs */
    /* Last finished measurement per runner: predicts the next size's time (--max-time). */
    struct {
        char name[64];
        double work, ms;
    } pace[64];
    int pace_count;
    gk_bench_candidates candidates; /* --candidates' results (report.candidates points here) */
} gk_bench_session;

/* Skips a measurement (fills rec as SKIPPED, returns 1) when the runner's
 * last rate predicts more than --max-time for a warm-up and the timed runs. */
int gk_bench_too_slow(const gk_bench_session *s, gk_bench_record *rec);
/* Remembers a finished measurement's median host time for gk_bench_too_slow. */
void gk_bench_pace(gk_bench_session *s, const gk_bench_record *rec);

/* Host side of one problem (bench_measure.c): the routine's operands for
 * each input set (fresh inputs, the output poisoned), the reference per set
 * (computed on first use, shared by the runners), a buffer to read results into. */
typedef struct gk_bench_inputs {
    const gk_routine *routine;
    gk_case kase;
    int sets;
    size_t extent[GK_ROUTINE_MAX_OPERANDS];
    float *ops[GK_BENCH_MAX_SETS][GK_ROUTINE_MAX_OPERANDS];
    gk_bench_reference ref[GK_BENCH_MAX_SETS];
    uint64_t seed[GK_BENCH_MAX_SETS]; /* per set: its inputs and its sampled elements (gk_bench_set_seed) */
    float *result;
} gk_bench_inputs;

/* The seed of input set `set` of a problem (sizes m, n, k, batch): a hash of
 * the run's seed and these alone, so that every runner, and every run with
 * the same seed (GEMMKIT_SEED) whatever it measures, gets the same inputs. */
uint64_t gk_bench_set_seed(uint64_t seed, const int64_t size[3], int64_t batch, int set);

/* The input sets of a case, with the progress line for its size; 0, or -1
 * (said on the progress line, counted in sizes_without_memory; nothing to free). */
int gk_bench_inputs_make(gk_bench_session *s, const gk_routine *routine, const gk_case *c, gk_bench_inputs *in);
void gk_bench_inputs_free(gk_bench_inputs *in);
/* A record for the case and runner (op, size, layout, work, unit, ...), not yet run. */
gk_bench_record *gk_bench_record_add(gk_bench_session *s, const gk_runner *r, const gk_bench_inputs *in);
/* Times one runner on the inputs and checks every set's result; `resolved`
 * names the kernel the library picked (NULL: the runner's name). */
void gk_bench_measure(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, const char *resolved);

/* The pieces of gk_bench_measure, for runners timed on inputs uploaded once (--candidates): */
/* rec filled for the case and runner (not added to the report). */
void gk_bench_record_fill(gk_bench_session *s, const gk_runner *r, const gk_bench_inputs *in, gk_bench_record *rec);
/* Every set's operands into the runner's slots; 0, or -1 with err. */
int gk_bench_upload(gk_runner *r, const gk_bench_inputs *in, char *err);
/* Every set's output poisoned again (its fresh NaN-poisoned copy); 0, or -1 with err. */
int gk_bench_poison_outputs(gk_runner *r, const gk_bench_inputs *in, char *err);
/* Timed and checked on the uploaded inputs (samples allocated: free with the record's arrays). */
void gk_bench_measure_uploaded(gk_bench_session *s, gk_runner *r, gk_bench_inputs *in, gk_bench_record *rec);

/* The case as the library prepares it (column-major, its transposes, the context's math mode), with
 * placeholder pointers: for the decisions that read the shape and orientation. 1, or 0 when it does not
 * prepare (a message in gemmkit_last_error_message). */
struct gk_sgemm_problem;
int gk_bench_case_problem(gemmkit_context *ctx, const gk_sgemm_case *c, struct gk_sgemm_problem *p);
/* A gemmkit runner's kernel and parameters changed (NULL: the library's choice); its name, math mode and
 * input rounding follow. */
void gk_runner_gemmkit_set(gk_runner *r, const char *kernel, const char *params);

/* --candidates for one shape after its gemmkit runner `best` was measured: the cost model's candidates
 * (gk_sgemm_candidates_for) each timed and checked on the same inputs, kept in *c with the default's
 * times from best's record. */
void gk_bench_candidates_measure(gk_bench_session *s, gk_bench_candidates *c, gk_bench_inputs *in,
                                 const gk_runner *best);
/* A shape with nothing timed (every runner skipped it, or no host memory): said so in its one row, skipped. */
void gk_bench_candidates_skip(gk_bench_candidates *c, const gk_bench_size *size, const char *why);

/* The SGEMM benchmark over args->sizes (bench_sgemm.c). */
void gk_bench_sgemm(gk_bench_session *s);
/* 1 when a gemmkit runner's last call failed as unsupported by this device or
 * backend (not a failure: the record is "skipped"). */
int gk_runner_unsupported_here(const gk_runner *r);

/* Finds the peers (unless --no-peers) and records what was found and why not. */
void gk_bench_open_peers(gk_bench_session *s);
void gk_bench_close_peers(gk_bench_session *s);
/* Chooses how progress shows (above) from where stdout and stderr go. */
void gk_bench_progress_setup(gk_bench_session *s);
/* Erases the status line of a terminal before the table is printed. */
void gk_bench_progress_done(gk_bench_session *s);
/* Progress line on stderr ("[ 12.3 s] ..."), unless --quiet. */
void gk_bench_progress(const gk_bench_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "[ 12.3 s] name size: 123.4 GFLOPS (...)" for a finished record. */
void gk_bench_progress_record(const gk_bench_session *s, const gk_bench_record *rec);
/* Prints the table, writes --json/--csv/--plot; returns the exit status
 * (GK_EXIT_FAILED when a result was wrong, nothing of gemmkit's was
 * measured, or a file could not be written). */
int gk_bench_finish(gk_bench_session *s);

/* The device-to-device copy bandwidth for the roofline (bench_bandwidth.c): gemmkit_somatcopy_buffers
 * (no transpose, the library's copy kernel) of GK_BENCH_COPY_BYTES_GPU (CPU devices: _CPU, PoCL's copies
 * being slow) or less where the device's allocations are smaller, one warm-up, then
 * GK_BENCH_COPY_REPEAT copies; the best device time counts. Fills *out (measured, or the reason in note);
 * 0, or -1 when it could not measure. */
#define GK_BENCH_COPY_BYTES_GPU (256.0 * 1024 * 1024)
#define GK_BENCH_COPY_BYTES_CPU (16.0 * 1024 * 1024)
#define GK_BENCH_COPY_REPEAT 5
int gk_bench_copy_bandwidth(gemmkit_context *ctx, const gemmkit_device_info *info, gk_bench_bandwidth *out);

/* The baseline of the OpenCL slides: the sequential C triple loop on the
 * host, one thread (bench_host.c). Times a slice when the whole would take
 * longer than `budget_s` and extrapolates (said in rec->note). */
void gk_bench_host_baseline(const gk_bench_size *size, int repeat, double budget_s, gk_rng *rng,
                            gk_bench_record *rec);

/* The transpose benchmark over args->sizes (rows x cols, k = 0) (bench_transpose.c):
 * every transpose and copy variant and each peer's omatcopy, in GB/s. Sets the
 * report's title; returns GK_EXIT_OK (failures are in the records). */
int gk_bench_transpose(gk_bench_session *session);

#endif
