/* A real LAPACK client: the reference LAPACK's blocked LU (SGETRF/SGETRS) and
 * Cholesky (SPOTRF), whose trailing updates call SGEMM, on fresh random
 * matrices; the residuals are checked in double against LAPACK's own test
 * threshold. Built against the reference LAPACK and run with the drop-in
 * preloaded (tests/dropin.cmake), so that its SGEMM calls go to gemmkit. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

void sgetrf_(const int *m, const int *n, float *a, const int *lda, int *ipiv, int *info);
void sgetrs_(const char *trans, const int *n, const int *nrhs, const float *a, const int *lda, const int *ipiv,
             float *b, const int *ldb, int *info, size_t trans_len);
void spotrf_(const char *uplo, const int *n, float *a, const int *lda, int *info, size_t uplo_len);

static unsigned long long state;
static float uniform(void) /* in [-1, 1), never all zeros */
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((state >> 40) / (double)(1ULL << 24)) * 2.0f - 1.0f;
}

/* LAPACK's test ratio: ||residual||_1 / (n ||scale||_1 eps); below 30 passes. */
enum { THRESHOLD = 30 };

static double norm1(const double *x, int rows, int cols)
{
    double best = 0.0;
    for (int j = 0; j < cols; j++) {
        double sum = 0.0;
        for (int i = 0; i < rows; i++) sum += fabs(x[i + (size_t)j * rows]);
        if (sum > best) best = sum;
    }
    return best;
}

static int lu(int n)
{
    const int nrhs = 3;
    float *a = malloc(sizeof(float) * n * n), *lu = malloc(sizeof(float) * n * n), *x = malloc(sizeof(float) * n * nrhs);
    double *r = malloc(sizeof(double) * n * nrhs), *ad = malloc(sizeof(double) * n * n), *xd = malloc(sizeof(double) * n * nrhs);
    int *ipiv = malloc(sizeof(int) * n), info = 0;
    for (int i = 0; i < n * n; i++) lu[i] = a[i] = uniform();
    for (int i = 0; i < n * nrhs; i++) x[i] = uniform();
    for (int i = 0; i < n * nrhs; i++) r[i] = x[i]; /* b */
    sgetrf_(&n, &n, lu, &n, ipiv, &info);
    if (info == 0) sgetrs_("N", &n, &nrhs, lu, &n, ipiv, x, &n, &info, 1);
    if (info != 0) {
        printf("sgetrf/sgetrs: info = %d\n", info);
        return 1;
    }
    for (int j = 0; j < nrhs; j++) /* r = b - A x */
        for (int p = 0; p < n; p++)
            for (int i = 0; i < n; i++) r[i + (size_t)j * n] -= (double)a[i + (size_t)p * n] * x[p + (size_t)j * n];
    for (int i = 0; i < n * n; i++) ad[i] = a[i];
    for (int i = 0; i < n * nrhs; i++) xd[i] = x[i];
    double ratio = norm1(r, n, nrhs) / (n * norm1(ad, n, n) * norm1(xd, n, nrhs) * FLT_EPSILON);
    printf("sgetrf+sgetrs n=%d: residual ratio %.3f (threshold %d)\n", n, ratio, THRESHOLD);
    free(a), free(lu), free(x), free(r), free(ad), free(xd), free(ipiv);
    return !(ratio < THRESHOLD);
}

static int cholesky(int n)
{
    float *g = malloc(sizeof(float) * n * n), *l = malloc(sizeof(float) * n * n);
    double *m = malloc(sizeof(double) * n * n);
    int info = 0;
    for (int i = 0; i < n * n; i++) g[i] = uniform();
    for (int j = 0; j < n; j++) /* M = G^T G + n I: symmetric positive definite */
        for (int i = 0; i < n; i++) {
            double sum = i == j ? n : 0.0;
            for (int p = 0; p < n; p++) sum += (double)g[p + (size_t)i * n] * g[p + (size_t)j * n];
            m[i + (size_t)j * n] = sum;
            l[i + (size_t)j * n] = (float)sum;
        }
    spotrf_("L", &n, l, &n, &info, 1);
    if (info != 0) {
        printf("spotrf: info = %d\n", info);
        return 1;
    }
    double *r = malloc(sizeof(double) * n * n);
    for (int j = 0; j < n; j++) /* r = L L^T - M, lower triangle of L only */
        for (int i = 0; i < n; i++) {
            double sum = -m[i + (size_t)j * n];
            for (int p = 0; p <= (i < j ? i : j); p++) sum += (double)l[i + (size_t)p * n] * l[j + (size_t)p * n];
            r[i + (size_t)j * n] = sum;
        }
    double ratio = norm1(r, n, n) / (n * norm1(m, n, n) * FLT_EPSILON);
    printf("spotrf n=%d: residual ratio %.3f (threshold %d)\n", n, ratio, THRESHOLD);
    free(g), free(l), free(m), free(r);
    return !(ratio < THRESHOLD);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    state = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
    printf("seed %llu\n", state);
    int failed = lu(n) + cholesky(n);
    return failed ? 1 : 0;
}
