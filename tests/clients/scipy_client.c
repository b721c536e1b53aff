/* A program built against scipy-openblas's SGEMM names (here the stand-in
 * libgemmkit_scipy_shim), run with the BLAS drop-in preloaded: the drop-in
 * must take every call to scipy_cblas_sgemm64_, scipy_sgemm_64_,
 * scipy_cblas_sgemm and scipy_sgemm_, send those at or above
 * GEMMKIT_BLAS_THRESHOLD to the device and the rest to the shim's Fortran
 * SGEMM of the same family (the library the program would have used, next
 * in the symbol chain), with results that agree with a float64 product, and
 * report illegal arguments as for its standard names, under the name called.
 * The settings are changed as the program runs (the drop-in reads them at
 * every call); its verbose log goes to a temporary file that is checked too.
 * Exit 0: pass; 1: fail. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* scipy-openblas's prototypes (its cblas.h and Fortran interface). */
void scipy_cblas_sgemm64_(int layout, int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                          int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
void scipy_cblas_sgemm(int layout, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                       const float *b, int ldb, float beta, float *c, int ldc);
void scipy_sgemm_64_(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
                     const float *alpha, const float *a, const int64_t *lda, const float *b, const int64_t *ldb,
                     const float *beta, float *c, const int64_t *ldc);
void scipy_sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const float *alpha,
                  const float *a, const int *lda, const float *b, const int *ldb, const float *beta, float *c,
                  const int *ldc);
unsigned long scipy_shim_calls(int which); /* the shim's counters */
enum { SHIM_F77_64, SHIM_CBLAS_64, SHIM_F77_32, SHIM_CBLAS_32, SHIM_NAMES };

enum { ROW = 101, COL = 102, NOTRANS = 111, TRANS = 112 };
typedef enum { VIA_CBLAS64, VIA_F77_64, VIA_CBLAS32, VIA_F77_32, VIAS } entry;
static const char *const names[VIAS] = {"scipy_cblas_sgemm64_", "scipy_sgemm_64_", "scipy_cblas_sgemm",
                                        "scipy_sgemm_"};
static const int shim_f77[VIAS] = {SHIM_F77_64, SHIM_F77_64, SHIM_F77_32, SHIM_F77_32};

static int failures;
#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            failures++;                                                                                              \
            fprintf(stdout, "FAIL (line %d): ", __LINE__);                                                           \
            fprintf(stdout, __VA_ARGS__);                                                                            \
            fputc('\n', stdout);                                                                                     \
        }                                                                                                            \
    } while (0)

/* ---- the program's own error handlers (exported: the drop-in finds them) */

static int xerbla_calls, xerbla_info;
static char xerbla_name[16];
static int cblas_xerbla_calls, cblas_xerbla_pos;
static char cblas_xerbla_rout[32];

static void keep_name(const char *srname, size_t len)
{
    size_t n = len < sizeof xerbla_name - 1 ? len : sizeof xerbla_name - 1;
    memcpy(xerbla_name, srname, n);
    while (n > 0 && xerbla_name[n - 1] == ' ') n--;
    xerbla_name[n] = '\0';
}

void xerbla_(const char *srname, const int *info, size_t len)
{
    keep_name(srname, len);
    xerbla_info = *info;
    xerbla_calls++;
}

void xerbla_64_(const char *srname, const int64_t *info, size_t len)
{
    keep_name(srname, len);
    xerbla_info = (int)*info + 1000; /* tells the 64-bit handler's calls apart */
    xerbla_calls++;
}

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    snprintf(cblas_xerbla_rout, sizeof cblas_xerbla_rout, "%s", rout);
    cblas_xerbla_pos = p;
    cblas_xerbla_calls++;
}

/* ---- one product */

static uint64_t state = 88172645463325252ull;
static float next_float(void) /* xorshift, in [-1, 1) */
{
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return (float)((double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* Element (i, j) of a matrix stored in `layout` with leading dimension ld. */
static double at(const float *x, int layout, int64_t ld, int64_t i, int64_t j)
{
    return layout == ROW ? x[i * ld + j] : x[i + j * ld];
}

/* Calls `via` on an m x n x k product (transposes ta, tb; CBLAS in `layout`,
 * Fortran always column-major) and checks C against float64. */
static void product(entry via, int layout, int ta, int tb, int64_t m, int64_t n, int64_t k)
{
    if (via == VIA_F77_64 || via == VIA_F77_32) layout = COL;
    const int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    const int64_t pad = 3;
    const int64_t lda = (layout == ROW ? ac : ar) + pad, ldb = (layout == ROW ? bc : br) + pad,
                  ldc = (layout == ROW ? n : m) + pad;
    const size_t asz = (size_t)lda * (size_t)(layout == ROW ? ar : ac);
    const size_t bsz = (size_t)ldb * (size_t)(layout == ROW ? br : bc);
    const size_t csz = (size_t)ldc * (size_t)(layout == ROW ? m : n);
    float *a = malloc(asz * sizeof *a), *b = malloc(bsz * sizeof *b), *c = malloc(csz * sizeof *c),
          *c0 = malloc(csz * sizeof *c0);
    for (size_t i = 0; i < asz; i++) a[i] = next_float();
    for (size_t i = 0; i < bsz; i++) b[i] = next_float();
    for (size_t i = 0; i < csz; i++) c[i] = c0[i] = next_float();
    const float alpha = 1.5f, beta = -0.5f;
    const char cta = ta ? 'T' : 'n', ctb = tb ? 't' : 'N';
    const int tA = ta ? TRANS : NOTRANS, tB = tb ? TRANS : NOTRANS;
    const int m32 = (int)m, n32 = (int)n, k32 = (int)k, lda32 = (int)lda, ldb32 = (int)ldb, ldc32 = (int)ldc;
    switch (via) {
    case VIA_CBLAS64: scipy_cblas_sgemm64_(layout, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); break;
    case VIA_F77_64: scipy_sgemm_64_(&cta, &ctb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc); break;
    case VIA_CBLAS32:
        scipy_cblas_sgemm(layout, tA, tB, m32, n32, k32, alpha, a, lda32, b, ldb32, beta, c, ldc32);
        break;
    default: scipy_sgemm_(&cta, &ctb, &m32, &n32, &k32, &alpha, a, &lda32, b, &ldb32, &beta, c, &ldc32); break;
    }
    double worst = 0.0;
    int bad = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double sum = 0.0, mag = 0.0;
            for (int64_t p = 0; p < k; p++) {
                double x = ta ? at(a, layout, lda, p, i) : at(a, layout, lda, i, p);
                double y = tb ? at(b, layout, ldb, j, p) : at(b, layout, ldb, p, j);
                sum += x * y, mag += fabs(x * y);
            }
            const double c0ij = at(c0, layout, ldc, i, j);
            const double want = alpha * sum + beta * c0ij;
            const double bound = 2.0 * (double)(k + 2) * 0x1p-23 * (fabs(alpha) * mag + fabs(beta * c0ij)) + 1e-30;
            const double err = fabs(at(c, layout, ldc, i, j) - want);
            if (!(err <= bound)) bad++;
            if (err / bound > worst) worst = err / bound;
        }
    CHECK(!bad, "%s(%s, %c, %c, %lld x %lld x %lld): %d elements off (worst %.2f x the bound)", names[via],
          layout == ROW ? "row" : "col", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m, (long long)n, (long long)k,
          bad, worst);
    free(a), free(b), free(c), free(c0);
}

/* Every entry point, transpose and layout at one size; returns the calls made. */
static int all_products(int64_t m, int64_t n, int64_t k, unsigned long expect_shim_per_call)
{
    int made = 0;
    for (int via = 0; via < VIAS; via++)
        for (int layout = ROW; layout <= COL; layout++) {
            if ((via == VIA_F77_64 || via == VIA_F77_32) && layout == ROW) continue;
            for (int t = 0; t < 4; t++) {
                unsigned long before[SHIM_NAMES];
                for (int s = 0; s < SHIM_NAMES; s++) before[s] = scipy_shim_calls(s);
                product((entry)via, layout, t & 1, t >> 1, m, n, k);
                made++;
                for (int s = 0; s < SHIM_NAMES; s++) {
                    unsigned long want = before[s] + (s == shim_f77[via] ? expect_shim_per_call : 0);
                    CHECK(scipy_shim_calls(s) == want, "%s: the shim's counter %d moved by %lu, expected %lu",
                          names[via], s, scipy_shim_calls(s) - before[s], want - before[s]);
                }
            }
        }
    return made;
}

/* ---- the log */

static char *read_all(FILE *f)
{
    fflush(f);
    long size = ftell(f);
    char *text = calloc((size_t)size + 1, 1);
    rewind(f);
    if (size > 0 && fread(text, 1, (size_t)size, f) != (size_t)size) text[0] = '\0';
    return text;
}

/* Lines of `log` that start with "gemmkit-blas: <name>(" and contain `where`. */
static int count_lines(const char *log, const char *name, const char *where)
{
    int count = 0;
    char head[64];
    snprintf(head, sizeof head, "gemmkit-blas: %s(", name);
    for (const char *line = log; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), line);
        if (!strncmp(buf, head, strlen(head)) && strstr(buf, where)) count++;
        line += len + (end ? 1 : 0);
    }
    return count;
}

int main(void)
{
    if (!dlsym(RTLD_DEFAULT, "gemmkit_blas_dropin")) {
        printf("FAIL: the drop-in is not loaded (run with LD_PRELOAD=libgemmkit_blas.so)\n");
        return 1;
    }
    /* The verbose log into a file, from here to the end. */
    FILE *log = tmpfile();
    const int saved_stderr = dup(2);
    if (!log || saved_stderr < 0 || dup2(fileno(log), 2) < 0) {
        printf("FAIL: cannot redirect stderr\n");
        return 1;
    }
    setenv("GEMMKIT_BLAS_VERBOSE", "1", 1);
    unsetenv("GEMMKIT_CPU_BLAS_LIB");

    /* Below the threshold: the shim's Fortran SGEMM of the family, once a call. */
    setenv("GEMMKIT_BLAS_THRESHOLD", "inf", 1);
    const int cpu_calls = all_products(37, 23, 29, 1);
    /* At the threshold (0: everything, PoCL included): the device; the shim is not called. */
    setenv("GEMMKIT_BLAS_THRESHOLD", "0", 1);
    const int device_calls = all_products(37, 23, 29, 0);
    for (int s = 0; s < SHIM_NAMES; s += 2)
        CHECK(scipy_shim_calls(s + 1) == 0, "the shim's CBLAS entry %d was called: the drop-in missed a call", s + 1);

    /* Illegal arguments: the program's handlers, under the name called; C untouched, the shim not called. */
    unsigned long shim_before = scipy_shim_calls(SHIM_F77_64) + scipy_shim_calls(SHIM_F77_32);
    float a[16] = {0}, b[16] = {0}, c[16] = {0}, one = 1.0f;
    c[0] = 42.0f;
    scipy_cblas_sgemm64_(99, NOTRANS, NOTRANS, 2, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2);
    CHECK(cblas_xerbla_calls == 1 && cblas_xerbla_pos == 1 && !strcmp(cblas_xerbla_rout, "scipy_cblas_sgemm64_"),
          "bad layout: cblas_xerbla calls %d, position %d, routine \"%s\"", cblas_xerbla_calls, cblas_xerbla_pos,
          cblas_xerbla_rout);
    scipy_cblas_sgemm(ROW, NOTRANS, NOTRANS, 2, 3, 2, 1.0f, a, 1, b, 3, 0.0f, c, 3); /* lda < k */
    CHECK(cblas_xerbla_calls == 2 && cblas_xerbla_pos == 9 && !strcmp(cblas_xerbla_rout, "scipy_cblas_sgemm"),
          "bad lda: cblas_xerbla calls %d, position %d, routine \"%s\"", cblas_xerbla_calls, cblas_xerbla_pos,
          cblas_xerbla_rout);
    const int64_t m64 = -1, two64 = 2;
    scipy_sgemm_64_("N", "N", &m64, &two64, &two64, &one, a, &two64, b, &two64, &one, c, &two64);
    CHECK(xerbla_calls == 1 && xerbla_info == 1003 && !strcmp(xerbla_name, "SGEMM"),
          "bad M (64-bit): xerbla calls %d, info %d, name \"%s\"", xerbla_calls, xerbla_info, xerbla_name);
    const int two = 2, one32 = 1;
    scipy_sgemm_("N", "X", &two, &two, &two, &one, a, &two, b, &two, &one, c, &one32);
    CHECK(xerbla_calls == 2 && xerbla_info == 2 && !strcmp(xerbla_name, "SGEMM"),
          "bad TRANSB (32-bit): xerbla calls %d, info %d, name \"%s\"", xerbla_calls, xerbla_info, xerbla_name);
    CHECK(c[0] == 42.0f, "C was touched by an illegal call");
    CHECK(scipy_shim_calls(SHIM_F77_64) + scipy_shim_calls(SHIM_F77_32) == shim_before,
          "an illegal call reached the shim");

    fflush(stderr);
    dup2(saved_stderr, 2);
    char *text = read_all(log);
    /* Each CPU call names the shim's SGEMM of its family as the code that served it. */
    int on_device = 0, by_shim = 0;
    for (int via = 0; via < VIAS; via++) {
        on_device += count_lines(text, names[via], "): device ");
        by_shim += count_lines(text, names[via], via < VIA_CBLAS32 ? "by BLAS scipy_sgemm_64_ (" : "by BLAS scipy_sgemm_ (");
    }
    CHECK(on_device == device_calls, "%d of %d calls reached the device", on_device, device_calls);
    CHECK(by_shim == cpu_calls, "%d of %d CPU calls logged as served by the shim", by_shim, cpu_calls);
    CHECK(strstr(text, "scipy_shim") && strstr(text, "next in the symbol chain"),
          "the log does not name the shim library as next in the symbol chain");
    CHECK(!strstr(text, "device failed"), "the device failed");
    if (failures) {
        printf("the drop-in's log:\n%s", text);
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS: %d CPU calls served by the shim's own SGEMM, %d on the device, 4 illegal calls reported\n",
           cpu_calls, device_calls);
    free(text);
    return 0;
}
