/* `gemmkit gemm` end to end: writes .npy inputs (C and Fortran order), runs
 * the command (its path comes in GEMMKIT_CLI), reads the result back and
 * checks it against the reference; and the exit status and message of each
 * kind of bad invocation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "check.h"
#include "npy.h"
#include "test_files.h"

static char dir[64];
static char captured[4096];
static gk_rng rng;
static uint64_t seed;

/* dir/name; the same stable string for the same name. */
static const char *path_in_dir(const char *name)
{
    static char paths[64][128];
    static int used;
    char want[128];
    snprintf(want, sizeof want, "%s/%s", dir, name);
    for (int i = 0; i < used; i++)
        if (strcmp(paths[i], want) == 0) return paths[i];
    assert_true(used < 64);
    memcpy(paths[used], want, sizeof want);
    return paths[used++];
}

/* Limits of the next run's process (a file-size limit as `ulimit -f` sets it). */
static struct {
    rlim_t file_size; /* 0: none */
} child_limits;

/* Runs `gemmkit gemm` with the NULL-terminated args and returns its exit
 * status; its stderr lands in `captured`. A run that hangs (e.g. opening a
 * FIFO nobody reads) is killed after 60 s, which fails the test. */
static int run_gemm_args(const char *const *args)
{
    const char *cli = getenv("GEMMKIT_CLI");
    assert_non_null(cli);
    const char *argv[32] = {cli, "gemm"};
    int argc = 2;
    for (int i = 0; args[i] && argc < 31; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    const char *err_path = path_in_dir("stderr.txt");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null_fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || null_fd < 0) _exit(127);
        dup2(fd, 2);
        dup2(null_fd, 1);
        struct rlimit limit = {child_limits.file_size, child_limits.file_size};
        if (child_limits.file_size && setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(127);
        alarm(60); /* survives exec */
        execv(cli, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    FILE *f = fopen(err_path, "r");
    assert_non_null(f);
    size_t n = fread(captured, 1, sizeof captured - 1, f);
    captured[n] = '\0';
    fclose(f);
    if (!WIFEXITED(status)) print_error("gemmkit gemm was killed by signal %d; stderr: %s\n", WTERMSIG(status), captured);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static int run_gemm(const char *first, ...)
{
    const char *args[32];
    int n = 0;
    va_list list;
    va_start(list, first);
    for (const char *a = first; a && n < 31; a = va_arg(list, const char *)) args[n++] = a;
    va_end(list);
    args[n] = NULL;
    return run_gemm_args(args);
}

/* Saves a rows x cols matrix given in C order, as C or Fortran order. */
static void save(const char *name, int64_t rows, int64_t cols, const float *c_order, int fortran)
{
    size_t count = (size_t)(rows * cols);
    float *data = malloc((count ? count : 1) * sizeof *data);
    assert_non_null(data);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            data[fortran ? j * rows + i : i * cols + j] = c_order[i * cols + j];
    uint64_t shape[2] = {(uint64_t)rows, (uint64_t)cols};
    char err[256];
    assert_int_equal(gk_npy_save_file(path_in_dir(name), 2, shape, fortran, data, err, sizeof err), GK_NPY_OK);
    free(data);
}

static float *random_matrix(int64_t rows, int64_t cols)
{
    size_t count = (size_t)(rows * cols);
    float *x = malloc((count ? count : 1) * sizeof *x);
    assert_non_null(x);
    gk_fill_random(&rng, x, count);
    return x;
}

/* One multiplication through the command, checked against the reference. */
static void check_product(int ta, int tb, int64_t m, int64_t n, int64_t k, float alpha, float beta, int with_c,
                          int fortran_a, int fortran_b, int fortran_c)
{
    int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    float *a = random_matrix(ar, ac), *b = random_matrix(br, bc), *c0 = random_matrix(m, n);
    save("a.npy", ar, ac, a, fortran_a);
    save("b.npy", br, bc, b, fortran_b);
    if (with_c) save("c0.npy", m, n, c0, fortran_c);
    char alpha_text[32], beta_text[32];
    snprintf(alpha_text, sizeof alpha_text, "%.9g", (double)alpha);
    snprintf(beta_text, sizeof beta_text, "%.9g", (double)beta);
    const char *out = path_in_dir("c.npy");
    unlink(out);
    const char *args[16];
    int na = 0;
    args[na++] = path_in_dir("a.npy");
    args[na++] = path_in_dir("b.npy");
    args[na++] = "-o";
    args[na++] = out;
    if (ta) args[na++] = "--transa";
    if (tb) args[na++] = "--transb";
    args[na++] = "--alpha";
    args[na++] = alpha_text;
    if (with_c) {
        args[na++] = "--beta";
        args[na++] = beta_text;
        args[na++] = "--c";
        args[na++] = path_in_dir("c0.npy");
    }
    args[na] = NULL;
    int code = run_gemm_args(args);
    if (code != 0)
        print_error("gemm %c%c m=%lld n=%lld k=%lld: exit %d: %s\n", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m,
                    (long long)n, (long long)k, code, captured);
    assert_int_equal(code, 0);
    gk_npy_array result;
    char err[256];
    assert_int_equal(gk_npy_load_file(out, &result, err, sizeof err), GK_NPY_OK);
    assert_int_equal(result.ndim, 2);
    assert_int_equal(result.shape[0], (uint64_t)m);
    assert_int_equal(result.shape[1], (uint64_t)n);
    assert_false(result.fortran_order);
    gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, ta ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, tb ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS,
                       m, n, k, alpha, with_c ? beta : 0.0f, 0, 0, 0};
    gk_case_complete(&c);
    gk_check_result check;
    gk_check_sgemm(&c, a, b, c0, result.data, &check);
    if (!check.passed)
        print_error("gemm %c%c m=%lld n=%lld k=%lld (GEMMKIT_SEED=%llu): %s\n", ta ? 'T' : 'N', tb ? 'T' : 'N',
                    (long long)m, (long long)n, (long long)k, (unsigned long long)seed, check.message);
    assert_true(check.passed);
    gk_npy_free(&result);
    free(a);
    free(b);
    free(c0);
}

static void test_every_transpose(void **state)
{
    (void)state;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            check_product(ta, tb, 37, 23, 51, 1.5f, -0.5f, 1, 0, 0, 0);
            check_product(ta, tb, 19, 40, 8, 0.75f, 0.0f, 0, 0, 0, 0);
        }
}

static void test_fortran_order_inputs(void **state)
{
    (void)state;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++) {
            check_product(ta, tb, 21, 17, 30, -1.25f, 2.0f, 1, 1, 0, 1);
            check_product(ta, tb, 13, 29, 11, 1.0f, 1.0f, 1, 0, 1, 0);
            check_product(ta, tb, 16, 16, 16, 2.0f, 0.5f, 1, 1, 1, 1);
        }
}

static void test_tiny_and_empty(void **state)
{
    (void)state;
    check_product(0, 0, 1, 1, 1, 1.0f, 0.0f, 0, 0, 0, 0);
    check_product(1, 1, 2, 1, 3, 1.0f, 3.0f, 1, 1, 0, 0);
    check_product(0, 0, 3, 4, 0, 1.0f, 2.0f, 1, 0, 0, 0); /* k = 0: C = beta C0 */
    check_product(0, 1, 0, 5, 4, 1.0f, 0.0f, 0, 0, 0, 0); /* an empty result */
}

/* ---- bad invocations */

static void expect_failure(int code, int expected, const char *message)
{
    if (code != expected || !strstr(captured, message))
        print_error("exit %d (expected %d), stderr \"%s\" (expected to contain \"%s\")\n", code, expected, captured,
                    message);
    assert_int_equal(code, expected);
    assert_non_null(strstr(captured, message));
    assert_int_not_equal(access(path_in_dir("out.npy"), F_OK), 0); /* nothing written */
}

static void write_raw(const char *name, const char *header, size_t data_bytes)
{
    FILE *f = fopen(path_in_dir(name), "wb");
    assert_non_null(f);
    size_t len = strlen(header);
    unsigned char prelude[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)len, (unsigned char)(len >> 8)};
    fwrite(prelude, 1, 10, f);
    fwrite(header, 1, len, f);
    for (size_t i = 0; i < data_bytes; i++) fputc((int)(i & 0x7f), f);
    fclose(f);
}

static void test_usage_errors(void **state)
{
    (void)state;
    float *x = random_matrix(4, 4);
    save("sq.npy", 4, 4, x, 0);
    free(x);
    const char *sq = path_in_dir("sq.npy"), *out = path_in_dir("out.npy");
    unlink(out);
    expect_failure(run_gemm(sq, NULL), 2, "two input files");
    expect_failure(run_gemm(sq, sq, NULL), 2, "output file is missing");
    expect_failure(run_gemm(sq, sq, sq, "-o", out, NULL), 2, "unexpected argument");
    expect_failure(run_gemm(sq, sq, "-o", out, "--frobnicate", NULL), 2, "unknown option --frobnicate");
    expect_failure(run_gemm(sq, sq, "-o", out, "--alpha", NULL), 2, "--alpha needs a number");
    expect_failure(run_gemm(sq, sq, "-o", out, "--alpha", "two", NULL), 2, "not a finite float32 number");
    expect_failure(run_gemm(sq, sq, "-o", out, "--alpha", "1e39", NULL), 2, "not a finite float32 number");
    expect_failure(run_gemm(sq, sq, "-o", out, "--beta", "nan", "--c", sq, NULL), 2, "not a finite float32 number");
    expect_failure(run_gemm(sq, sq, "-o", out, "--beta", "2", NULL), 2, "--beta needs --c");
    expect_failure(run_gemm(sq, sq, "-o", NULL), 2, "-o needs a file name");
    expect_failure(run_gemm(sq, sq, "-o", out, "--c", NULL), 2, "--c needs a file name");
}

static void test_data_errors(void **state)
{
    (void)state;
    const char *out = path_in_dir("out.npy");
    unlink(out);
    float *x = random_matrix(6, 5);
    save("a65.npy", 6, 5, x, 0);
    save("a56.npy", 5, 6, x, 0);
    free(x);
    const char *a65 = path_in_dir("a65.npy"), *a56 = path_in_dir("a56.npy");
    write_raw("f64.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (5, 6), }\n", 240);
    write_raw("i32.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (5, 6), }\n", 120);
    write_raw("vec.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", 20);
    write_raw("cube.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 1, 1), }\n", 20);
    write_raw("four.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 1, 1, 1), }\n", 20);
    write_raw("short.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 6), }\n", 100);
    write_raw("badhdr.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 6) \n", 120);
    write_raw("nokey.npy", "{'descr': '<f4', 'shape': (5, 6), }\n", 120);
    write_raw("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3037000499, 3037000499), }\n", 120);
    write_raw("big.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }\n", 120);
    FILE *f = fopen(path_in_dir("text.npy"), "w");
    assert_non_null(f);
    fputs("1 2 3\n4 5 6\n", f);
    fclose(f);
    expect_failure(run_gemm(a65, a65, "-o", out, NULL), 1, "shapes do not match");
    expect_failure(run_gemm(a65, a56, "-o", out, "--transa", NULL), 1, "inner dimensions 6 and 5 differ");
    expect_failure(run_gemm(a65, a56, "-o", out, "--c", a65, NULL), 1, "does not match the result's (6, 6)");
    expect_failure(run_gemm(path_in_dir("f64.npy"), a65, "-o", out, NULL), 1, "float64");
    expect_failure(run_gemm(a65, path_in_dir("i32.npy"), "-o", out, NULL), 1, "int32");
    expect_failure(run_gemm(path_in_dir("vec.npy"), a65, "-o", out, NULL), 1,
                   "expected a 2-D matrix or a 3-D stack of matrices, found shape (5,)");
    expect_failure(run_gemm(path_in_dir("four.npy"), a65, "-o", out, NULL), 1, "found shape (5, 1, 1, 1)");
    expect_failure(run_gemm(path_in_dir("cube.npy"), a65, "-o", out, NULL), 1, "shapes do not match"); /* 1x1 @ 6x5 */
    expect_failure(run_gemm(a65, path_in_dir("short.npy"), "-o", out, NULL), 1, "truncated data");
    expect_failure(run_gemm(a65, path_in_dir("badhdr.npy"), "-o", out, NULL), 1, "expected ',' or '}'");
    expect_failure(run_gemm(a65, path_in_dir("nokey.npy"), "-o", out, NULL), 1, "'fortran_order' is missing");
    expect_failure(run_gemm(path_in_dir("huge.npy"), a65, "-o", out, NULL), 1, "more elements than can be addressed");
    expect_failure(run_gemm(path_in_dir("big.npy"), a65, "-o", out, NULL), 1, "truncated data");
    expect_failure(run_gemm(path_in_dir("text.npy"), a65, "-o", out, NULL), 1, "not a .npy file");
    expect_failure(run_gemm(path_in_dir("missing.npy"), a65, "-o", out, NULL), 1, "cannot open");
    expect_failure(run_gemm(a65, a56, "-o", path_in_dir("no/such/dir/c.npy"), NULL), 1, "cannot create");
}

/* ---- stacks of matrices (3-D .npy), as numpy's matmul */

/* Saves `count` rows x cols matrices (C order each) as a (count, rows, cols) stack, C or Fortran order. */
static void save_stack(const char *name, int64_t count, int64_t rows, int64_t cols, const float *c_order, int fortran)
{
    const size_t total = (size_t)(count * rows * cols);
    float *data = malloc(total * sizeof *data);
    assert_non_null(data);
    for (int64_t z = 0; z < count; z++)
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                data[fortran ? z + i * count + j * count * rows : (z * rows + i) * cols + j] =
                    c_order[(z * rows + i) * cols + j];
    uint64_t shape[3] = {(uint64_t)count, (uint64_t)rows, (uint64_t)cols};
    char err[256];
    assert_int_equal(gk_npy_save_file(path_in_dir(name), 3, shape, fortran, data, err, sizeof err), GK_NPY_OK);
    free(data);
}

/* (3, 7, 6) @ (3, 6, 4) in both orders; a 2-D B broadcast; op(A) per matrix; C0 a stack with beta. */
static void test_stacks_of_matrices(void **state)
{
    (void)state;
    enum { COUNT = 3, M = 7, N = 4, K = 6 };
    float *a = random_matrix(COUNT * M, K), *b = random_matrix(COUNT * K, N), *c0 = random_matrix(COUNT * M, N);
    const char *out = path_in_dir("stack.npy");
    for (int variant = 0; variant < 4; variant++) {
        const int fortran = variant & 1, broadcast = variant == 2, ta = variant == 3;
        /* with --transa each stored A is K x M: the same floats read as the transposes */
        save_stack("sa.npy", COUNT, ta ? K : M, ta ? M : K, a, fortran);
        if (broadcast) save("sb.npy", K, N, b, 1);
        else save_stack("sb.npy", COUNT, K, N, b, fortran);
        save_stack("sc.npy", COUNT, M, N, c0, !fortran);
        unlink(out);
        const int code = ta ? run_gemm(path_in_dir("sa.npy"), path_in_dir("sb.npy"), "-o", out, "--transa", "--alpha",
                                       "0.5", "--beta", "2", "--c", path_in_dir("sc.npy"), NULL)
                            : run_gemm(path_in_dir("sa.npy"), path_in_dir("sb.npy"), "-o", out, NULL);
        if (code != 0) print_error("stack variant %d: exit %d: %s\n", variant, code, captured);
        assert_int_equal(code, 0);
        gk_npy_array result;
        char err[256];
        assert_int_equal(gk_npy_load_file(out, &result, err, sizeof err), GK_NPY_OK);
        assert_int_equal(result.ndim, 3);
        assert_int_equal(result.shape[0], COUNT);
        assert_int_equal(result.shape[1], M);
        assert_int_equal(result.shape[2], N);
        for (int z = 0; z < COUNT; z++) {
            gk_sgemm_case c = {GEMMKIT_ROW_MAJOR, ta ? GEMMKIT_TRANS : GEMMKIT_NO_TRANS, GEMMKIT_NO_TRANS, M, N, K,
                               ta ? 0.5f : 1.0f, ta ? 2.0f : 0.0f, 0, 0, 0};
            gk_case_complete(&c);
            gk_check_result check;
            gk_check_sgemm(&c, a + z * M * K, b + (broadcast ? 0 : z * K * N), c0 + z * M * N,
                           result.data + z * M * N, &check);
            if (!check.passed)
                print_error("stack variant %d, matrix %d (GEMMKIT_SEED=%llu): %s\n", variant, z,
                            (unsigned long long)seed, check.message);
            assert_true(check.passed);
        }
        gk_npy_free(&result);
    }
    save_stack("sb2.npy", 2, K, N, b, 0);
    expect_failure(run_gemm(path_in_dir("sa.npy"), path_in_dir("sb2.npy"), "-o", out, NULL), 1,
                   "stacks of 3 and 2 matrices do not broadcast");
    free(a);
    free(b);
    free(c0);
}

/* ---- the output file: whole or not at all */

static unsigned char *read_all(const char *path, size_t *size)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *bytes = malloc((size_t)st.st_size + 1);
    assert_non_null(bytes);
    *size = fread(bytes, 1, (size_t)st.st_size + 1, f);
    fclose(f);
    return bytes;
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static const char *square_input(int64_t n)
{
    float *x = random_matrix(n, n);
    save("w.npy", n, n, x, 0);
    free(x);
    return path_in_dir("w.npy");
}

static void test_failed_write_keeps_previous_file(void **state)
{
    (void)state;
    /* A 4 MiB result under a 2 MiB file-size limit: the device compiler's own
     * temporary files (PoCL: under 1 MiB) still fit, the result does not. */
    const char *w = square_input(1024), *kept = path_in_dir("kept.npy"), *link = path_in_dir("link.npy");
    unlink(kept);
    unlink(link);
    assert_int_equal(run_gemm(w, w, "-o", kept, NULL), 0);
    /* A new file gets what fopen would give it (not a temporary file's 0600). */
    mode_t mask = umask(022);
    umask(mask);
    assert_int_equal(mode_of(kept), 0666 & ~mask);
    assert_int_equal(chmod(kept, 0640), 0);
    size_t before_size, after_size;
    unsigned char *before = read_all(kept, &before_size);
    assert_true(before_size > 1024 * 1024 * 4);
    child_limits.file_size = 2 << 20;
    int code = run_gemm(w, w, "-o", kept, "--alpha", "2", NULL);
    child_limits.file_size = 0;
    /* The write of the result must be what failed (not the device compiler's). */
    if (code != 1 || !strstr(captured, "kept.npy: writing failed: File too large"))
        print_error("exit %d, stderr: %s\n", code, captured);
    assert_int_equal(code, 1);
    assert_non_null(strstr(captured, "kept.npy: writing failed: File too large"));
    unsigned char *after = read_all(kept, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(after);
    assert_int_equal(mode_of(kept), 0640);
    expect_no_temp_files(dir);
    /* A write that succeeds replaces the file, keeps its permissions, and
     * writes through a symbolic link (the link stays a link). */
    assert_int_equal(symlink("kept.npy", link), 0);
    assert_int_equal(run_gemm(w, w, "-o", link, "--alpha", "2", NULL), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    after = read_all(kept, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_not_equal(after, before, before_size);
    assert_int_equal(mode_of(kept), 0640);
    free(after);
    free(before);
    expect_no_temp_files(dir);
}

static void test_special_targets_refused(void **state)
{
    (void)state;
    const char *w = square_input(64), *folder = path_in_dir("folder"), *inside = path_in_dir("folder/inside.txt"),
               *fifo = path_in_dir("fifo");
    mkdir(folder, 0755);
    FILE *f = fopen(inside, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(run_gemm(w, w, "-o", folder, NULL), 1);
    assert_non_null(strstr(captured, "is a directory"));
    struct stat st;
    assert_int_equal(stat(folder, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(access(inside, F_OK), 0);
    /* A pipe (nobody reads it: writing into it would hang) stands for any special file. */
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(run_gemm(w, w, "-o", fifo, NULL), 1);
    assert_non_null(strstr(captured, "not a regular file"));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    /* A device node: only when not root, where no gemmkit (old or new) could remove it. */
    if (geteuid() != 0 && stat("/dev/full", &st) == 0) {
        assert_int_equal(run_gemm(w, w, "-o", "/dev/full", NULL), 1);
        assert_non_null(strstr(captured, "not a regular file"));
        assert_int_equal(stat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
    expect_no_temp_files(dir);
}

/* ---- alpha and beta are float32 */

static void test_scalar_rounding_warns(void **state)
{
    (void)state;
    const char *w = square_input(8), *out = path_in_dir("scaled.npy");
    /* Below float32's range: still runs, with a warning, and C = 0 * A B. */
    assert_int_equal(run_gemm(w, w, "-o", out, "--alpha", "1e-50", NULL), 0);
    if (!strstr(captured, "warning: --alpha 1e-50") || !strstr(captured, "becomes 0"))
        fail_msg("no warning for --alpha 1e-50: \"%s\"", captured);
    gk_npy_array c;
    char err[256];
    assert_int_equal(gk_npy_load_file(out, &c, err, sizeof err), GK_NPY_OK);
    for (size_t i = 0; i < c.count; i++) assert_true(c.data[i] == 0.0f);
    gk_npy_free(&c);
    /* Subnormal: precision lost. */
    assert_int_equal(run_gemm(w, w, "-o", out, "--beta", "1e-40", "--c", w, NULL), 0);
    if (!strstr(captured, "warning: --beta 1e-40") || !strstr(captured, "subnormal"))
        fail_msg("no warning for --beta 1e-40: \"%s\"", captured);
    /* Ordinary values, zero, and float32's largest (as printed, 3.4028235e38) pass quietly. */
    static const char *const quiet[] = {"0.5", "0", "-0.0", "1.17549435e-38", "3.4028235e38"};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        int code = run_gemm(w, w, "-o", out, "--alpha", quiet[i], NULL);
        if (code != 0 || strstr(captured, "warning")) fail_msg("--alpha %s: exit %d, \"%s\"", quiet[i], code, captured);
    }
}

static int setup(void **state)
{
    (void)state;
    seed = gk_rng_fresh_seed();
    gk_rng_seed(&rng, seed);
    snprintf(dir, sizeof dir, "cli_gemm_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    /* Only the files this test wrote. */
    static const char *names[] = {"a.npy", "b.npy", "c0.npy", "c.npy", "sq.npy", "out.npy", "a65.npy", "a56.npy",
                                  "f64.npy", "i32.npy", "vec.npy", "cube.npy", "short.npy", "badhdr.npy",
                                  "nokey.npy", "huge.npy", "big.npy", "text.npy", "stderr.txt", "w.npy",
                                  "kept.npy", "link.npy", "fifo", "folder/inside.txt", "scaled.npy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(path_in_dir(names[i]));
    rmdir(path_in_dir("folder"));
    rmdir(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_transpose),  cmocka_unit_test(test_fortran_order_inputs),
        cmocka_unit_test(test_tiny_and_empty),   cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_data_errors),      cmocka_unit_test(test_failed_write_keeps_previous_file),
        cmocka_unit_test(test_special_targets_refused), cmocka_unit_test(test_scalar_rounding_warns),
        cmocka_unit_test(test_stacks_of_matrices),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
