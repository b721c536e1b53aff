/* ScaLAPACK's PSGEMM over MPI, with gemmkit's BLAS drop-in as each rank's
 * sgemm_: C = alpha A B on N x N matrices spread block-cyclically (NB x NB
 * blocks) over a pr x pc process grid, one GPU per rank.
 *
 *   mpirun -np P [env LD_PRELOAD=.../libgemmkit_blas.so] ./psgemm_example N NB [KB [SEED]]
 *
 * Every rank builds its own blocks of A and B from a formula of the element's
 * global position (no scatter), times one psgemm_ after a warm-up call, and
 * checks its blocks of C against float64 sums of the same formula: all of
 * them for N <= 512, else 1000 sampled elements per rank. Rank 0 prints the
 * rate over all ranks and the largest error. Exit status 0 when every checked
 * element is within float32 rounding, 1 when one is not, 2 for bad usage.
 *
 * KB is the K of each local sgemm_ call (PBLAS's logical block size, below);
 * default N: one sgemm_ per rank. docs/SCALE.md, "Many hosts: ScaLAPACK". */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* BLACS, PBLAS and ScaLAPACK's tools have no C header in Debian. */
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int keep_mpi);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ictxt, const int *lld, int *info);
void psgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k, const float *alpha,
             const float *a, const int *ia, const int *ja, const int *desca, const float *b, const int *ib,
             const int *jb, const int *descb, const float *beta, float *c, const int *ic, const int *jc,
             const int *descc);

/* PBLAS's logical block size (PBLAS/SRC/pilaenv.f, which asks users to
 * replace it for their machine). When A and B span several processes,
 * PSGEMM's loop over K steps by it, each step one sgemm_ on the rank's whole
 * block of C: the stock 32 means C travels to the GPU and back every 32
 * columns of K. This definition replaces the library's (PBLAS calls it
 * through the dynamic linker), so that a step is KB wide. */
static int logical_block = 32;
int pilaenv_(const int *context, const char *precision)
{
    (void)context, (void)precision;
    return logical_block;
}

/* ---- the inputs: a formula every rank can evaluate anywhere */

/* A value in [-1, 1) on a 2^-23 grid (exact in float32) from the seed, the
 * matrix (0: A, 1: B) and the element's global position (splitmix64's mix). */
static float element(uint64_t seed, int matrix, int64_t row, int64_t col)
{
    uint64_t x = seed ^ ((uint64_t)matrix << 62) ^ ((uint64_t)row << 31) ^ (uint64_t)col;
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (float)((double)(x >> 40) / 8388608.0 - 1.0);
}

/* The global index of local row (or column) `local` of process `proc` among
 * `procs`, blocks of `nb` dealt round-robin from process 0. */
static int64_t global_index(int64_t local, int nb, int proc, int procs)
{
    return (local / nb * procs + proc) * nb + local % nb;
}

/* A local block (rows x cols, leading dimension ld) of matrix `which`. */
static void fill(float *x, int rows, int cols, int ld, int nb, const int grid[4], uint64_t seed, int which)
{
    for (int j = 0; j < cols; j++) {
        const int64_t gj = global_index(j, nb, grid[3], grid[1]);
        for (int i = 0; i < rows; i++)
            x[i + (size_t)j * ld] = element(seed, which, global_index(i, nb, grid[2], grid[0]), gj);
    }
}

/* ---- one GPU per rank */

/* The drop-in opens the device GEMMKIT_DEVICE names at its first device call,
 * so each rank sets it, before any BLAS call, to the device of its rank among
 * the ranks of its host (0, 1, ...: one GPU each). A GEMMKIT_DEVICE the user
 * set is a list of devices to share out instead ("2,3"; one entry: every rank
 * on that device): entry local rank modulo its length. Returns the local rank. */
static int pick_device(void)
{
    MPI_Comm host;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &local);
    MPI_Comm_free(&host);
    char device[256];
    const char *list = getenv("GEMMKIT_DEVICE");
    if (list && *list) {
        int entries = 1, wanted = 0;
        for (const char *p = list; *p; p++) entries += *p == ',';
        wanted = local % entries;
        while (wanted-- > 0) list = strchr(list, ',') + 1;
        snprintf(device, sizeof device, "%.*s", (int)strcspn(list, ","), list);
    } else {
        snprintf(device, sizeof device, "%d", local);
    }
    setenv("GEMMKIT_DEVICE", device, 1);
    return local;
}

/* ---- the check */

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* |C - alpha A B| / (|alpha| sum |A||B|) for local element (i, j), the sums in
 * float64; NaN (a poisoned element left unwritten) stays NaN. */
static double relative_error(const float *c, int ld, int i, int j, int n, int nb, const int grid[4], uint64_t seed,
                             float alpha)
{
    const int64_t gi = global_index(i, nb, grid[2], grid[0]), gj = global_index(j, nb, grid[3], grid[1]);
    double sum = 0.0, magnitude = 0.0;
    for (int64_t k = 0; k < n; k++) {
        const double product = (double)element(seed, 0, gi, k) * element(seed, 1, k, gj);
        sum += product;
        magnitude += fabs(product);
    }
    const double error = fabs((double)c[i + (size_t)j * ld] - alpha * sum);
    return magnitude > 0.0 ? error / (fabs(alpha) * magnitude) : error;
}

/* Checks all local elements (n <= 512) or 1000 sampled ones: the largest
 * relative error and how many exceed `bound` (or are not numbers). */
static void check(const float *c, int rows, int cols, int ld, int n, int nb, const int grid[4], uint64_t seed,
                  float alpha, double bound, double *worst, long *checked, long *bad)
{
    *worst = 0.0, *checked = 0, *bad = 0;
    if (rows == 0 || cols == 0) return;
    const long all = (long)rows * cols, samples = n <= 512 ? all : 1000;
    uint64_t state = seed ^ (uint64_t)(grid[2] * 7919 + grid[3]);
    for (long s = 0; s < samples; s++) {
        const long at = samples == all ? s : (long)(next_random(&state) % (uint64_t)all);
        const double e = relative_error(c, ld, (int)(at % rows), (int)(at / rows), n, nb, grid, seed, alpha);
        if (!(e <= bound)) (*bad)++;
        if (!(e <= *worst)) *worst = e; /* NaN sticks */
    }
    *checked = samples;
}

/* ---- main */

static int positive(const char *text, int *value)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || v < 1 || v > 1000000000) return 0;
    *value = (int)v;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1, n = 0, nb = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (argc < 3 || argc > 5 || !positive(argv[1], &n) || !positive(argv[2], &nb) ||
        (argc > 3 && !positive(argv[3], &logical_block))) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np P %s N NB [KB [SEED]]  (N, NB, KB >= 1)\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    if (argc <= 3) logical_block = n;
    /* A fresh seed per run unless one is given, the same on every rank. */
    unsigned long long seed = argc > 4 ? strtoull(argv[4], NULL, 10) : (unsigned long long)time(NULL);
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    const int local_rank = pick_device();

    /* The squarest grid: pr the largest divisor of P with pr <= sqrt(P). */
    int pr = 1;
    for (int d = 1; d * d <= ranks; d++)
        if (ranks % d == 0) pr = d;
    const int pc = ranks / pr;
    int context = 0, grid[4]; /* nprow, npcol, myrow, mycol */
    Cblacs_get(-1, 0, &context);
    Cblacs_gridinit(&context, "Row", pr, pc);
    Cblacs_gridinfo(context, &grid[0], &grid[1], &grid[2], &grid[3]);

    const int zero = 0, one = 1;
    const int rows = numroc_(&n, &nb, &grid[2], &zero, &grid[0]), cols = numroc_(&n, &nb, &grid[3], &zero, &grid[1]);
    const int ld = rows > 1 ? rows : 1;
    int desc[9], info = 0;
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &context, &ld, &info);
    const size_t count = (size_t)ld * (size_t)(cols > 0 ? cols : 1);
    float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
    if (info != 0 || !a || !b || !c) {
        fprintf(stderr, "rank %d: %s\n", rank, info ? "descinit_ refused the descriptor" : "out of memory");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fill(a, rows, cols, ld, nb, grid, seed, 0);
    fill(b, rows, cols, ld, nb, grid, seed, 1);

    char host[MPI_MAX_PROCESSOR_NAME] = "", line[256];
    int host_length = 0;
    MPI_Get_processor_name(host, &host_length);
    snprintf(line, sizeof line, "rank %d (%s, local rank %d): grid (%d, %d), %d x %d local, GEMMKIT_DEVICE=%s", rank,
             host, local_rank, grid[2], grid[3], rows, cols, getenv("GEMMKIT_DEVICE"));
    char *lines = rank == 0 ? malloc(sizeof line * (size_t)ranks) : NULL;
    MPI_Gather(line, sizeof line, MPI_CHAR, lines, sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("psgemm_example: N=%d NB=%d KB=%d, %d rank(s) on a %d x %d grid, seed %llu\n", n, nb, logical_block,
               ranks, pr, pc, seed);
        for (int r = 0; r < ranks; r++) printf("%s\n", lines + sizeof line * (size_t)r);
        fflush(stdout);
        free(lines);
    }

    /* beta = 0 on a C full of NaN: every element must be written. The first
     * call builds the kernels and opens the devices; the second is timed. */
    const float alpha = 0.5f, beta = 0.0f;
    double seconds = 0.0;
    for (int call = 0; call < 2; call++) {
        for (size_t i = 0; i < count; i++) c[i] = NAN;
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        psgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c, &one, &one, desc);
        seconds = MPI_Wtime() - start;
    }
    double slowest = 0.0;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* The float32 bound of docs/DROPIN.md: 2 (K + 2) eps of the magnitudes. */
    const double bound = 2.0 * (n + 2.0) * FLT_EPSILON;
    double worst = 0.0, worst_all = 0.0;
    long checked = 0, bad = 0, totals[2] = {0, 0};
    check(c, rows, cols, ld, n, nb, grid, seed, alpha, bound, &worst, &checked, &bad);
    const long mine[2] = {checked, bad};
    if (isnan(worst)) worst = INFINITY; /* MPI_MAX with NaN is unspecified */
    MPI_Reduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(mine, totals, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        const double tflops = 2.0 * n * (double)n * n / slowest / 1e12;
        printf("psgemm_: %.4f s, %.4g TFLOPS over %d rank(s) (%.4g per rank)\n", slowest, tflops, ranks,
               tflops / ranks);
        printf("check: %ld elements of C (%s) against float64: max relative error %.3g (bound %.3g): %s\n",
               totals[0], n <= 512 ? "all" : "sampled", worst_all, bound,
               totals[1] == 0 ? "ok" : "FAILED");
        if (totals[1] != 0) printf("check: %ld element(s) off or not written\n", totals[1]);
    }
    free(a), free(b), free(c);
    Cblacs_gridexit(context);
    Cblacs_exit(1); /* keep MPI for MPI_Finalize */
    MPI_Finalize();
    return totals[1] == 0 ? 0 : 1;
}
