/* `gemmkit gemm`: C := alpha op(A) op(B) + beta C0 on matrices stored in
 * NumPy .npy files (float32, C or Fortran order); the result is written in C
 * order, whole or not at all (a previous C.npy survives a failed write).
 * Exit status 2 for bad usage, 1 for bad files or a device failure. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "npy.h"
#include "output_file.h"

typedef struct gemm_args {
    const char *a_path, *b_path, *c_path, *out_path;
    int trans_a, trans_b;
    float alpha, beta;
    int beta_given;
    gemmkit_math math; /* --math; DEFAULT: the context's (GEMMKIT_MATH, else fp32) */
} gemm_args;

void gk_gemm_usage(FILE *out)
{
    fprintf(out, "usage: gemmkit gemm A.npy B.npy -o C.npy [--transa] [--transb] [--alpha X] [--beta Y --c C0.npy]\n"
                 "                    [--math MODE]\n"
                 "  C = alpha * op(A) * op(B) + beta * C0, op(X) = X or X^T (--transa/--transb).\n"
                 "  --math MODE: " GK_CLI_MATH_HELP ";\n"
                 "  a mode the device cannot run is an error (docs/MATH.md).\n"
                 "  Inputs: 2-D float32 ('<f4') .npy files, C or Fortran order. alpha defaults to 1;\n"
                 "  beta defaults to 1 with --c and 0 without. The output is written in C order.\n"
                 "  3-D inputs are stacks of matrices, as numpy's matmul: (b, m, k) @ (b, k, n) -> (b, m, n),\n"
                 "  a 2-D operand (or a stack of one) is used for every product; C0 is (b, m, n) or (m, n).\n"
                 "  One strided batched call (gemmkit_sgemm_strided_batched).\n");
}

static int usage_error(const char *format, const char *detail)
{
    fprintf(stderr, "gemmkit gemm: ");
    fprintf(stderr, format, detail);
    fprintf(stderr, "\n");
    gk_gemm_usage(stderr);
    return GK_EXIT_USAGE;
}

/* Half an ulp above FLT_MAX: doubles from here on round to infinity as floats. */
#define FLOAT_ROUNDS_TO_INF 0x1.ffffffp127

/* A number that is finite as float32. Tiny ones are accepted (underflow is
 * only a warning, see warn_rounding); strtod's ERANGE on them is not an error. */
static int parse_float(const char *text, float *value)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || fabs(v) >= FLOAT_ROUNDS_TO_INF) return 0;
    *value = (float)v;
    return 1;
}

/* alpha and beta are float32: say when the number given does not survive
 * the conversion (1e-50 would silently become 0). The run goes on. */
static void warn_rounding(const char *option, const char *text, float value)
{
    errno = 0;
    double given = strtod(text, NULL);
    const int nonzero = given != 0.0 || errno == ERANGE; /* 1e-400 underflows even a double */
    if (nonzero && value == 0.0f)
        fprintf(stderr, "gemmkit gemm: warning: %s %s is below float32's range and becomes 0\n", option, text);
    else if (value != 0.0f && fabsf(value) < FLT_MIN)
        fprintf(stderr, "gemmkit gemm: warning: %s %s is subnormal in float32 (%.9g): most of its precision is lost\n",
                option, text, (double)value);
}

/* Returns GK_EXIT_OK, or the exit status of a usage error (already printed). */
static int parse_args(const gk_cli *cli, gemm_args *g)
{
    memset(g, 0, sizeof *g);
    g->alpha = 1.0f;
    int positional = 0;
    for (int i = 0; i < cli->argc; i++) {
        const char *arg = cli->argv[i];
        const char *next = i + 1 < cli->argc ? cli->argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            gk_gemm_usage(stdout);
            return -1;
        } else if (strcmp(arg, "--transa") == 0) {
            g->trans_a = 1;
        } else if (strcmp(arg, "--transb") == 0) {
            g->trans_b = 1;
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 || strcmp(arg, "--c") == 0) {
            if (!next) return usage_error("%s needs a file name", arg);
            *(strcmp(arg, "--c") == 0 ? &g->c_path : &g->out_path) = next;
            i++;
        } else if (strcmp(arg, "--alpha") == 0 || strcmp(arg, "--beta") == 0) {
            if (!next) return usage_error("%s needs a number", arg);
            int is_alpha = strcmp(arg, "--alpha") == 0;
            if (!parse_float(next, is_alpha ? &g->alpha : &g->beta))
                return usage_error("not a finite float32 number: \"%s\"", next);
            warn_rounding(arg, next, is_alpha ? g->alpha : g->beta);
            if (!is_alpha) g->beta_given = 1;
            i++;
        } else if (strcmp(arg, "--math") == 0) {
            if (!next) return usage_error("%s needs a mode: fp32, 3xtf32, tf32 or int8x", arg);
            if (gk_cli_parse_math(next, &g->math)) return usage_error("--math \"%s\": expected fp32, 3xtf32, tf32 or int8x", next);
            i++;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option %s", arg);
        } else if (positional < 2) {
            *(positional++ == 0 ? &g->a_path : &g->b_path) = arg;
        } else {
            return usage_error("unexpected argument \"%s\" (two input files expected)", arg);
        }
    }
    if (positional < 2) return usage_error("%s", "two input files, A.npy and B.npy, are needed");
    if (!g->out_path) return usage_error("%s", "the output file is missing (-o C.npy)");
    if (!g->beta_given) g->beta = g->c_path ? 1.0f : 0.0f;
    if (g->beta != 0.0f && !g->c_path) return usage_error("%s", "--beta needs --c C0.npy (the matrix it scales)");
    return GK_EXIT_OK;
}

/* Loads a 2-D float32 matrix or a 3-D stack of them, printing the reason on failure. */
static int load_matrix(const char *path, gk_npy_array *m)
{
    char err[512];
    if (gk_npy_load_file(path, m, err, sizeof err) != GK_NPY_OK) {
        fprintf(stderr, "gemmkit gemm: %s: %s\n", path, err);
        return 0;
    }
    if (m->ndim != 2 && m->ndim != 3) {
        char shape[GK_NPY_MAX_DIMS * 24];
        gk_npy_shape_string(m->ndim, m->shape, shape, sizeof shape);
        fprintf(stderr, "gemmkit gemm: %s: expected a 2-D matrix or a 3-D stack of matrices, found shape %s\n", path,
                shape);
        gk_npy_free(m);
        return 0;
    }
    return 1;
}

static int64_t at_least_one(uint64_t x) { return x > 1 ? (int64_t)x : 1; }

/* An operand as gemmkit sees it in row-major terms. A Fortran-order r x c
 * matrix is, in memory, the C-order c x r matrix X^T, so it enters with the
 * transpose flag flipped and its row count as leading dimension. */
static void operand(const gk_npy_array *x, int trans, gemmkit_transpose *flag, int64_t *ld)
{
    int flipped = x->fortran_order ? !trans : trans;
    *flag = flipped ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
    *ld = at_least_one(x->fortran_order ? x->shape[0] : x->shape[1]);
}

static int run_gemm(const gk_cli *cli, const gemm_args *g, gk_npy_array *a, gk_npy_array *b, gk_npy_array *c0)
{
    uint64_t m = g->trans_a ? a->shape[1] : a->shape[0], ka = g->trans_a ? a->shape[0] : a->shape[1];
    uint64_t kb = g->trans_b ? b->shape[1] : b->shape[0], n = g->trans_b ? b->shape[0] : b->shape[1];
    if (ka != kb) {
        fprintf(stderr,
                "gemmkit gemm: shapes do not match: op(A) is %llu x %llu but op(B) is %llu x %llu "
                "(inner dimensions %llu and %llu differ)\n",
                (unsigned long long)m, (unsigned long long)ka, (unsigned long long)kb, (unsigned long long)n,
                (unsigned long long)ka, (unsigned long long)kb);
        return GK_EXIT_FAILED;
    }
    if (c0->data && (c0->shape[0] != m || c0->shape[1] != n)) {
        fprintf(stderr, "gemmkit gemm: %s: shape (%llu, %llu) does not match the result's (%llu, %llu)\n", g->c_path,
                (unsigned long long)c0->shape[0], (unsigned long long)c0->shape[1], (unsigned long long)m,
                (unsigned long long)n);
        return GK_EXIT_FAILED;
    }
    if (n && m > SIZE_MAX / sizeof(float) / n) {
        fprintf(stderr, "gemmkit gemm: the result (%llu x %llu) is too large\n", (unsigned long long)m,
                (unsigned long long)n);
        return GK_EXIT_FAILED;
    }
    size_t count = (size_t)(m * n);
    float *c = calloc(count ? count : 1, sizeof *c);
    if (!c) {
        fprintf(stderr, "gemmkit gemm: out of memory for the %llu x %llu result\n", (unsigned long long)m,
                (unsigned long long)n);
        return GK_EXIT_FAILED;
    }
    if (c0->data && g->beta != 0.0f) /* C0 into C order */
        for (uint64_t i = 0; i < m; i++)
            for (uint64_t j = 0; j < n; j++)
                c[i * n + j] = c0->fortran_order ? c0->data[j * m + i] : c0->data[i * n + j];
    int status = GK_EXIT_FAILED;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (ctx) {
        gemmkit_transpose ta, tb;
        int64_t lda, ldb;
        operand(a, g->trans_a, &ta, &lda);
        operand(b, g->trans_b, &tb, &ldb);
        const gemmkit_options options = {.math = g->math};
        gemmkit_status s = gemmkit_sgemm_ex(ctx, &options, GEMMKIT_ROW_MAJOR, ta, tb, (int64_t)m, (int64_t)n,
                                            (int64_t)ka, g->alpha, a->data, lda, b->data, ldb, g->beta, c,
                                            at_least_one(n));
        gemmkit_device_info info;
        gemmkit_context_device_info(ctx, &info);
        gemmkit_context_destroy(ctx);
        if (s != GEMMKIT_SUCCESS) {
            gk_cli_report("multiplying", s);
        } else {
            char err[512];
            uint64_t shape[2] = {m, n};
            if (gk_npy_save_file(g->out_path, 2, shape, 0, c, err, sizeof err) != GK_NPY_OK) {
                fprintf(stderr, "gemmkit gemm: %s\n", err);
            } else {
                printf("%s: (%llu, %llu) = %g * op(A) (%llu x %llu) * op(B) (%llu x %llu) + %g * C0, on %s\n",
                       g->out_path, (unsigned long long)m, (unsigned long long)n, (double)g->alpha,
                       (unsigned long long)m, (unsigned long long)ka, (unsigned long long)kb, (unsigned long long)n,
                       (double)g->beta, info.name);
                status = GK_EXIT_OK;
            }
        }
    }
    free(c);
    return status;
}

/* A Fortran-order stack keeps the batch index fastest, which no stride describes: into C order. */
static int stack_to_c_order(gk_npy_array *x)
{
    if (x->ndim != 3 || !x->fortran_order) return 1;
    const uint64_t b = x->shape[0], r = x->shape[1], c = x->shape[2];
    float *y = malloc((b * r * c != 0 ? b * r * c : 1) * sizeof *y);
    if (!y) return 0;
    for (uint64_t z = 0; z < b; z++)
        for (uint64_t i = 0; i < r; i++)
            for (uint64_t j = 0; j < c; j++) y[(z * r + i) * c + j] = x->data[z + i * b + j * b * r];
    free(x->data);
    x->data = y;
    x->fortran_order = 0;
    return 1;
}

/* Matrices in a 2-D array (1) or stack; rows and columns of each. */
static uint64_t stack_count(const gk_npy_array *x) { return x->ndim == 3 ? x->shape[0] : 1; }
static uint64_t rows_of(const gk_npy_array *x) { return x->shape[x->ndim - 2]; }
static uint64_t cols_of(const gk_npy_array *x) { return x->shape[x->ndim - 1]; }

/* Stacks of matrices (numpy's matmul): one strided batched call; a stack of one or a 2-D operand has stride 0. */
static int run_batched(const gk_cli *cli, const gemm_args *g, gk_npy_array *a, gk_npy_array *b, gk_npy_array *c0)
{
    if (!stack_to_c_order(a) || !stack_to_c_order(b) || !stack_to_c_order(c0)) {
        fprintf(stderr, "gemmkit gemm: out of memory reordering a Fortran-order stack\n");
        return GK_EXIT_FAILED;
    }
    const uint64_t na = stack_count(a), nb = stack_count(b);
    if (na != nb && na != 1 && nb != 1) {
        fprintf(stderr, "gemmkit gemm: stacks of %llu and %llu matrices do not broadcast\n", (unsigned long long)na,
                (unsigned long long)nb);
        return GK_EXIT_FAILED;
    }
    const uint64_t batch = na > nb ? na : nb;
    const uint64_t m = g->trans_a ? cols_of(a) : rows_of(a), ka = g->trans_a ? rows_of(a) : cols_of(a);
    const uint64_t kb = g->trans_b ? cols_of(b) : rows_of(b), n = g->trans_b ? rows_of(b) : cols_of(b);
    if (ka != kb) {
        fprintf(stderr, "gemmkit gemm: shapes do not match: op(A) is %llu x %llu but op(B) is %llu x %llu\n",
                (unsigned long long)m, (unsigned long long)ka, (unsigned long long)kb, (unsigned long long)n);
        return GK_EXIT_FAILED;
    }
    if (c0->data && (rows_of(c0) != m || cols_of(c0) != n || (c0->ndim == 3 && c0->shape[0] != batch))) {
        fprintf(stderr, "gemmkit gemm: %s does not match the result's shape (%llu, %llu, %llu)\n", g->c_path,
                (unsigned long long)batch, (unsigned long long)m, (unsigned long long)n);
        return GK_EXIT_FAILED;
    }
    const uint64_t per = m * n;
    if (n && (m > SIZE_MAX / sizeof(float) / n || (per && batch > SIZE_MAX / sizeof(float) / per))) {
        fprintf(stderr, "gemmkit gemm: the result is too large\n");
        return GK_EXIT_FAILED;
    }
    float *c = calloc(batch * per != 0 ? batch * per : 1, sizeof *c);
    if (!c) {
        fprintf(stderr, "gemmkit gemm: out of memory for the result\n");
        return GK_EXIT_FAILED;
    }
    if (c0->data && g->beta != 0.0f) /* C0 into C order, a 2-D C0 in every matrix */
        for (uint64_t z = 0; z < batch; z++)
            for (uint64_t i = 0; i < m; i++)
                for (uint64_t j = 0; j < n; j++) {
                    const uint64_t base = c0->ndim == 3 ? z * per : 0;
                    c[z * per + i * n + j] = c0->fortran_order ? c0->data[j * m + i] : c0->data[base + i * n + j];
                }
    int status = GK_EXIT_FAILED;
    gemmkit_context *ctx = gk_cli_open(cli);
    if (ctx) {
        const gemmkit_transpose ta = g->trans_a ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
        const gemmkit_transpose tb = g->trans_b ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS;
        /* a 2-D Fortran-order operand enters transposed, as in run_gemm */
        gemmkit_transpose fa = ta, fb = tb;
        int64_t lda = at_least_one(cols_of(a)), ldb = at_least_one(cols_of(b));
        if (a->ndim == 2) operand(a, g->trans_a, &fa, &lda);
        if (b->ndim == 2) operand(b, g->trans_b, &fb, &ldb);
        const int64_t stride_a = na > 1 ? (int64_t)(rows_of(a) * cols_of(a)) : 0;
        const int64_t stride_b = nb > 1 ? (int64_t)(rows_of(b) * cols_of(b)) : 0;
        gemmkit_status s = gemmkit_sgemm_strided_batched(ctx, NULL, GEMMKIT_ROW_MAJOR, fa, fb, (int64_t)m, (int64_t)n,
                                                         (int64_t)ka, g->alpha, a->data, lda, stride_a, b->data, ldb,
                                                         stride_b, g->beta, c, at_least_one(n), (int64_t)per,
                                                         (int64_t)batch);
        gemmkit_device_info info;
        gemmkit_context_device_info(ctx, &info);
        gemmkit_context_destroy(ctx);
        char err[512];
        const uint64_t shape[3] = {batch, m, n};
        if (s != GEMMKIT_SUCCESS) gk_cli_report("multiplying", s);
        else if (gk_npy_save_file(g->out_path, 3, shape, 0, c, err, sizeof err) != GK_NPY_OK)
            fprintf(stderr, "gemmkit gemm: %s\n", err);
        else {
            printf("%s: (%llu, %llu, %llu) = %g * op(A) * op(B) + %g * C0, %llu products of %llu x %llu x %llu, on %s\n",
                   g->out_path, (unsigned long long)batch, (unsigned long long)m, (unsigned long long)n,
                   (double)g->alpha, (double)g->beta, (unsigned long long)batch, (unsigned long long)m,
                   (unsigned long long)n, (unsigned long long)ka, info.name);
            status = GK_EXIT_OK;
        }
    }
    free(c);
    return status;
}

int gk_cmd_gemm(const gk_cli *cli)
{
    gemm_args g;
    int usage = parse_args(cli, &g);
    if (usage != GK_EXIT_OK) return usage < 0 ? GK_EXIT_OK : usage;
    /* A bad output path fails now, not after the multiplication. */
    char err[512];
    if (gk_output_check(g.out_path, err, sizeof err)) {
        fprintf(stderr, "gemmkit gemm: %s\n", err);
        return GK_EXIT_FAILED;
    }
    gk_npy_array a = {0}, b = {0}, c0 = {0};
    int status = GK_EXIT_FAILED;
    if (load_matrix(g.a_path, &a) && load_matrix(g.b_path, &b) && (!g.c_path || load_matrix(g.c_path, &c0)))
        status = a.ndim == 3 || b.ndim == 3 || c0.ndim == 3 ? run_batched(cli, &g, &a, &b, &c0)
                                                           : run_gemm(cli, &g, &a, &b, &c0);
    gk_npy_free(&a);
    gk_npy_free(&b);
    gk_npy_free(&c0);
    return status;
}
