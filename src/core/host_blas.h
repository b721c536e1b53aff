/* The CPU BLAS of the host, found at run time (host_blas.c): where CPU work
 * goes, the BLAS drop-in's CPU calls and the native API's calls on a CPU
 * device. gemmkit never links a BLAS; it takes the one the process has. */
#ifndef GK_HOST_BLAS_H
#define GK_HOST_BLAS_H

#include <stddef.h>
#include <stdint.h>

/* Fortran SGEMM with 32-bit and 64-bit INTEGERs; the trailing lengths are
 * gfortran's hidden string-length arguments of TRANSA and TRANSB. */
typedef void gk_sgemm32_fn(const char *ta, const char *tb, const int32_t *m, const int32_t *n, const int32_t *k,
                           const float *alpha, const float *a, const int32_t *lda, const float *b,
                           const int32_t *ldb, const float *beta, float *c, const int32_t *ldc, size_t ta_len,
                           size_t tb_len);
typedef void gk_sgemm64_fn(const char *ta, const char *tb, const int64_t *m, const int64_t *n, const int64_t *k,
                           const float *alpha, const float *a, const int64_t *lda, const float *b,
                           const int64_t *ldb, const float *beta, float *c, const int64_t *ldc, size_t ta_len,
                           size_t tb_len);

/* The names a BLAS exports SGEMM under (a family of symbols): the standard
 * ones, and the prefixed and suffixed ones of scipy-openblas, the OpenBLAS
 * that NumPy (>= 2.0) and SciPy wheels from PyPI bundle. The BLAS drop-in
 * exports every family's entry points, and a call's CPU work goes to the
 * next definition of its own family's SGEMM (the library the program would
 * have called), so that a call to scipy_cblas_sgemm64_ ends in
 * scipy-openblas's scipy_sgemm_64_. */
typedef enum gk_blas_family {
    GK_BLAS_PLAIN,   /* sgemm_, sgemm_64_; cblas_sgemm, cblas_sgemm_64 */
    GK_BLAS_SCIPY64, /* scipy_sgemm_64_; scipy_cblas_sgemm64_ (scipy-openblas64, ILP64 only) */
    GK_BLAS_SCIPY32, /* scipy_sgemm_; scipy_cblas_sgemm (scipy-openblas32, LP64 only) */
    GK_BLAS_FAMILIES
} gk_blas_family;

typedef struct gk_host_blas {
    gk_sgemm32_fn *sgemm;   /* the family's 32-bit SGEMM (sgemm_); never NULL for GK_BLAS_PLAIN, NULL for
                               GK_BLAS_SCIPY64 */
    gk_sgemm64_fn *sgemm64; /* its 64-bit SGEMM (sgemm_64_) in the same library, or NULL */
    /* 1 when the library is a known optimised BLAS (OpenBLAS, BLIS, MKL) or
     * the one the user named; the native API uses no other. */
    int optimised;
    char name[512]; /* "OpenBLAS (/usr/lib/.../libblas.so.3, next in the symbol chain)", for logs */
} gk_host_blas;

/* The CPU BLAS, looked for once per process (thread-safe), in this order:
 * the library GEMMKIT_CPU_BLAS_LIB names ("builtin": none), the next sgemm_
 * after this library in the symbol lookup order (the BLAS the program would
 * use without gemmkit), a BLAS already loaded privately (numpy's, loaded
 * RTLD_LOCAL), then libopenblas.so.0, libblis.so.4 and libblas.so.3 when the
 * last is an optimised BLAS (on Debian an alternative). A library that is a
 * gemmkit drop-in itself is never taken. NULL when there is none. */
const gk_host_blas *gk_host_blas_find(void);

/* The CPU BLAS for a call made through `family`'s names. GK_BLAS_PLAIN:
 * gk_host_blas_find(). Another family: the library GEMMKIT_CPU_BLAS_LIB
 * names when it has the family's SGEMM ("builtin": none); else the next
 * definition of the family's SGEMM in the lookup order (dlsym(RTLD_NEXT)),
 * else one in a library the program loaded privately (numpy's
 * scipy-openblas, loaded RTLD_LOCAL); else the standard search's result.
 * Drop-ins are refused as above. Looked for once per family. */
const gk_host_blas *gk_host_blas_find_family(gk_blas_family family);

/* Column-major C := alpha op(A) op(B) + beta C through the library (trans:
 * 0 or 1): its 32-bit SGEMM when every size fits, else (or when it has none)
 * its 64-bit one. Returns 0 when done; -1 when a size needs 64-bit integers
 * and the library has no 64-bit SGEMM (nothing is touched then). Inline:
 * every host-routed call makes it. */
static inline int gk_host_blas_sgemm(const gk_host_blas *blas, int trans_a, int trans_b, int64_t m, int64_t n,
                                     int64_t k, float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                                     float beta, float *c, int64_t ldc)
{
    const char *ta = trans_a ? "T" : "N", *tb = trans_b ? "T" : "N";
    /* Sizes and leading dimensions are >= 0: one test that all fit 32 bits. */
    if (blas->sgemm && (uint64_t)(m | n | k | lda | ldb | ldc) <= INT32_MAX) {
        const int32_t m32 = (int32_t)m, n32 = (int32_t)n, k32 = (int32_t)k, lda32 = (int32_t)lda,
                      ldb32 = (int32_t)ldb, ldc32 = (int32_t)ldc;
        blas->sgemm(ta, tb, &m32, &n32, &k32, &alpha, a, &lda32, b, &ldb32, &beta, c, &ldc32, 1, 1);
        return 0;
    }
    if (!blas->sgemm64) return -1;
    blas->sgemm64(ta, tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
    return 0;
}

/* The symbol a gemmkit BLAS drop-in exports so that the search above can
 * tell it from a real BLAS (and never call itself). */
#define GK_HOST_BLAS_DROPIN_MARKER "gemmkit_blas_dropin"

#endif
