/* The .npy reader and writer: a table of broken files (each rejected with
 * the right status and message, from memory and from disk alike), the header
 * variants real writers produce, and write/read round trips. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "check.h"
#include "npy.h"

/* How to build one test file. */
typedef struct file_spec {
    const char *name;
    const char *magic;   /* NULL: the real one */
    int major, minor;
    const char *header;  /* exact header text (the test writes its own '\n') */
    long len_delta;      /* added to the header length written in the prelude */
    long long len_exact; /* >= 0: this header length instead */
    size_t data_bytes;   /* bytes of data after the header */
    long truncate;       /* >= 0: cut the file to this many bytes */
} file_spec;

static size_t build(const file_spec *s, unsigned char **out)
{
    size_t hlen = strlen(s->header);
    size_t prelude = s->major >= 2 ? 12 : 10;
    size_t size = prelude + hlen + s->data_bytes;
    unsigned char *b = malloc(size + 1);
    assert_non_null(b);
    memcpy(b, s->magic ? s->magic : "\x93NUMPY", 6);
    b[6] = (unsigned char)s->major;
    b[7] = (unsigned char)s->minor;
    unsigned long long len = s->len_exact >= 0 ? (unsigned long long)s->len_exact : (unsigned long long)((long)hlen + s->len_delta);
    for (size_t i = 0; i < prelude - 8; i++) b[8 + i] = (unsigned char)(len >> (8 * i));
    memcpy(b + prelude, s->header, hlen);
    for (size_t i = 0; i < s->data_bytes; i++) b[prelude + hlen + i] = (unsigned char)(i * 37 + 11);
    if (s->truncate >= 0 && (size_t)s->truncate < size) size = (size_t)s->truncate;
    *out = b;
    return size;
}

static char temp_path[64];

static void write_temp(const unsigned char *bytes, size_t size)
{
    snprintf(temp_path, sizeof temp_path, "npy_test_XXXXXX");
    int fd = mkstemp(temp_path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, size), (ssize_t)size);
    close(fd);
}

/* Parses the bytes through the file reader or the in-memory one. */
static gk_npy_status load(const unsigned char *bytes, size_t size, int from_file, gk_npy_array *array, char *err,
                          size_t err_size)
{
    if (!from_file) return gk_npy_load_memory(bytes, size, array, err, err_size);
    write_temp(bytes, size);
    gk_npy_status s = gk_npy_load_file(temp_path, array, err, err_size);
    unlink(temp_path);
    return s;
}

#define GOOD "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n"
#define SPEC(name, header, data) {name, NULL, 1, 0, header, 0, -1, data, -1}

typedef struct broken_case {
    file_spec spec;
    gk_npy_status status;
    const char *message; /* a part of the expected message */
} broken_case;

static const broken_case broken[] = {
    {{"empty file", NULL, 1, 0, GOOD, 0, -1, 24, 0}, GK_NPY_ERR_FORMAT, "empty file"},
    {{"wrong magic", "\x93NUMPZ", 1, 0, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "magic"},
    {{"a PNG", "\x89PNG\r\n", 1, 0, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "magic"},
    {{"text file", "descr:", 1, 0, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "magic"},
    {{"magic only", NULL, 1, 0, GOOD, 0, -1, 24, 6}, GK_NPY_ERR_FORMAT, "truncated"},
    {{"prelude cut", NULL, 1, 0, GOOD, 0, -1, 24, 9}, GK_NPY_ERR_FORMAT, "truncated"},
    {{"version 2 prelude cut", NULL, 2, 0, GOOD, 0, -1, 24, 11}, GK_NPY_ERR_FORMAT, "truncated"},
    {{"version 4.0", NULL, 4, 0, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "version 4.0"},
    {{"version 1.1", NULL, 1, 1, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "version 1.1"},
    {{"version 0.0", NULL, 0, 0, GOOD, 0, -1, 24, -1}, GK_NPY_ERR_FORMAT, "version 0.0"},
    {{"header length too long", NULL, 1, 0, GOOD, 100, -1, 24, -1}, GK_NPY_ERR_FORMAT, "truncated header"},
    {{"header length max", NULL, 1, 0, GOOD, 0, 65535, 24, -1}, GK_NPY_ERR_FORMAT, "truncated header"},
    {{"header length short", NULL, 1, 0, GOOD, -5, -1, 24, -1}, GK_NPY_ERR_FORMAT, "newline"},
    {{"header length zero", NULL, 1, 0, GOOD, 0, 0, 24, -1}, GK_NPY_ERR_FORMAT, "length is 0"},
    {{"v2 header length huge", NULL, 2, 0, GOOD, 0, 0xFFFFFFFFll, 24, -1}, GK_NPY_ERR_FORMAT, "implausibly large"},
    {{"v2 header length 2^31", NULL, 2, 0, GOOD, 0, 0x80000000ll, 24, -1}, GK_NPY_ERR_FORMAT, "implausibly large"},
    {{"header cut in the file", NULL, 1, 0, GOOD, 0, -1, 24, 40}, GK_NPY_ERR_FORMAT, "truncated header"},
    {SPEC("no newline", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24), GK_NPY_ERR_FORMAT, "newline"},
    {SPEC("control byte", "{'descr': '<f4', 'fortran_order': False,\x01'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "not printable"},
    {SPEC("high byte", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\xff\n", 24), GK_NPY_ERR_FORMAT,
     "not printable"},
    {SPEC("missing shape", "{'descr': '<f4', 'fortran_order': False, }\n", 24), GK_NPY_ERR_FORMAT, "'shape' is missing"},
    {SPEC("missing descr", "{'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT, "'descr' is missing"},
    {SPEC("missing order", "{'descr': '<f4', 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "'fortran_order' is missing"},
    {SPEC("empty dict", "{}\n", 24), GK_NPY_ERR_FORMAT, "is missing"},
    {SPEC("unknown key", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}\n", 24),
     GK_NPY_ERR_FORMAT, "unknown key 'extra'"},
    {SPEC("duplicate key", "{'descr': '<f4', 'shape': (2, 3), 'fortran_order': False, 'shape': (2, 3)}\n", 24),
     GK_NPY_ERR_FORMAT, "twice"},
    {SPEC("shape not a tuple", "{'descr': '<f4', 'fortran_order': False, 'shape': (6), }\n", 24), GK_NPY_ERR_FORMAT,
     "not a tuple"},
    {SPEC("shape a list", "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }\n", 24), GK_NPY_ERR_FORMAT,
     "expected '('"},
    {SPEC("negative dimension", "{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }\n", 24),
     GK_NPY_ERR_FORMAT, "negative"},
    {SPEC("dimension overflows", "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 1), }\n", 24),
     GK_NPY_ERR_FORMAT, "too large"},
    {SPEC("product overflows", "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n", 24),
     GK_NPY_ERR_FORMAT, "more elements than can be addressed"},
    {SPEC("product overflows x4", "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 1), }\n", 24),
     GK_NPY_ERR_FORMAT, "more elements than can be addressed"},
    {SPEC("huge shape, little data", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }\n", 24),
     GK_NPY_ERR_FORMAT, "truncated data"},
    {SPEC("33 dimensions",
          "{'descr': '<f4', 'fortran_order': False, 'shape': "
          "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }\n",
          4),
     GK_NPY_ERR_FORMAT, "more than 32"},
    {SPEC("dimension not a number", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }\n", 24),
     GK_NPY_ERR_FORMAT, "expected a dimension"},
    {SPEC("empty tuple item", "{'descr': '<f4', 'fortran_order': False, 'shape': (,), }\n", 24), GK_NPY_ERR_FORMAT,
     "expected a dimension"},
    {SPEC("double comma", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "expected a dimension"},
    {SPEC("unclosed tuple", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3 }\n", 24), GK_NPY_ERR_FORMAT,
     "expected ',' or ')'"},
    {SPEC("float64", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n", 48), GK_NPY_ERR_DTYPE, "float64"},
    {SPEC("int32", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_DTYPE, "int32"},
    {SPEC("float16", "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }\n", 12), GK_NPY_ERR_DTYPE, "float16"},
    {SPEC("bool", "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 3), }\n", 6), GK_NPY_ERR_DTYPE, "bool"},
    {SPEC("complex64", "{'descr': '<c8', 'fortran_order': False, 'shape': (2, 3), }\n", 48), GK_NPY_ERR_DTYPE,
     "complex64"},
    {SPEC("objects", "{'descr': '|O', 'fortran_order': False, 'shape': (2, 3), }\n", 48), GK_NPY_ERR_DTYPE, "objects"},
    {SPEC("big-endian float32", "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_DTYPE,
     "big-endian"},
    {SPEC("structured", "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2, 3), }\n", 24),
     GK_NPY_ERR_DTYPE, "structured"},
    {SPEC("descr not a string", "{'descr': 4, 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "quoted string"},
    {SPEC("descr too long",
          "{'descr': '<f4444444444444444444444444444444444444444444444444444444444444444444', 'fortran_order': False, "
          "'shape': (2, 3), }\n",
          24),
     GK_NPY_ERR_FORMAT, "too long"},
    {SPEC("fortran_order yes", "{'descr': '<f4', 'fortran_order': yes, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "True or False"},
    {SPEC("unterminated string", "{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "expected ',' or '}' after 'descr'"},
    {SPEC("unterminated key", "{'descr\n", 24), GK_NPY_ERR_FORMAT, "unterminated"},
    {SPEC("escape", "{'descr': '<\\f4', 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "escapes"},
    {SPEC("text after the dict", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } x\n", 24),
     GK_NPY_ERR_FORMAT, "after the closing"},
    {SPEC("no braces", "'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)\n", 24), GK_NPY_ERR_FORMAT,
     "expected '{'"},
    {SPEC("unclosed dict", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),\n", 24), GK_NPY_ERR_FORMAT,
     "quoted string"},
    {SPEC("missing colon", "{'descr' '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "expected ':'"},
    {SPEC("missing comma", "{'descr': '<f4' 'fortran_order': False, 'shape': (2, 3), }\n", 24), GK_NPY_ERR_FORMAT,
     "expected ',' or '}'"},
    {SPEC("data cut", GOOD, 20), GK_NPY_ERR_FORMAT, "truncated data: shape (2, 3) needs 24 bytes, the file has 20"},
    {SPEC("no data", GOOD, 0), GK_NPY_ERR_FORMAT, "truncated data"},
    {SPEC("data too long", GOOD, 44), GK_NPY_ERR_FORMAT, "20 unexpected bytes"},
    {SPEC("data not whole floats", GOOD, 25), GK_NPY_ERR_FORMAT, "1 unexpected bytes"},
};

static void test_broken_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        const broken_case *bc = &broken[i];
        unsigned char *bytes = NULL;
        size_t size = build(&bc->spec, &bytes);
        for (int from_file = 0; from_file < 2; from_file++) {
            gk_npy_array array;
            char err[512] = "";
            gk_npy_status s = load(bytes, size, from_file, &array, err, sizeof err);
            if (s != bc->status || !strstr(err, bc->message))
                print_error("case \"%s\" (%s): status %d, message \"%s\"; expected %d with \"%s\"\n", bc->spec.name,
                            from_file ? "file" : "memory", (int)s, err, (int)bc->status, bc->message);
            assert_int_equal(s, bc->status);
            assert_non_null(strstr(err, bc->message));
            assert_null(array.data);
        }
        free(bytes);
    }
}

/* Header spellings other writers (and older numpy) produce. */
typedef struct good_case {
    file_spec spec;
    int ndim;
    uint64_t shape[3];
    int fortran_order;
} good_case;

static const good_case good[] = {
    {SPEC("numpy's own", GOOD, 24), 2, {2, 3}, 0},
    {{"version 2.0", NULL, 2, 0, GOOD, 0, -1, 24, -1}, 2, {2, 3}, 0},
    {{"version 3.0", NULL, 3, 0, GOOD, 0, -1, 24, -1}, 2, {2, 3}, 0},
    {SPEC("Fortran order", "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }\n", 24), 2, {3, 2}, 1},
    {SPEC("double quotes, no trailing comma", "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2, 3)}\n", 24),
     2, {2, 3}, 0},
    {SPEC("other key order, spaces", "{ 'shape' : ( 2 , 3 ) , 'fortran_order':False,'descr':'<f4' }   \n", 24), 2,
     {2, 3}, 0},
    {SPEC("python 2 longs", "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }\n", 24), 2, {2, 3}, 0},
    {SPEC("trailing tuple comma", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3,), }\n", 24), 2, {2, 3}, 0},
    {SPEC("1-D", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }\n", 24), 1, {6}, 0},
    {SPEC("0-D", "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", 4), 0, {0}, 0},
    {SPEC("empty", "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }\n", 0), 2, {0, 3}, 0},
    {SPEC("3-D", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3), }\n", 24), 3, {1, 2, 3}, 0},
    {SPEC("padded with spaces",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }                                           \n",
          24),
     2, {2, 3}, 0},
};

static void test_header_variants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const good_case *gc = &good[i];
        unsigned char *bytes = NULL;
        size_t size = build(&gc->spec, &bytes);
        for (int from_file = 0; from_file < 2; from_file++) {
            gk_npy_array array;
            char err[512] = "";
            gk_npy_status s = load(bytes, size, from_file, &array, err, sizeof err);
            if (s != GK_NPY_OK) print_error("case \"%s\": %s\n", gc->spec.name, err);
            assert_int_equal(s, GK_NPY_OK);
            assert_int_equal(array.ndim, gc->ndim);
            for (int d = 0; d < gc->ndim; d++) assert_int_equal(array.shape[d], gc->shape[d]);
            assert_int_equal(array.fortran_order, gc->fortran_order);
            assert_int_equal(array.count * 4, gc->spec.data_bytes);
            assert_non_null(array.data);
            assert_memory_equal(array.data, bytes + size - gc->spec.data_bytes, gc->spec.data_bytes);
            gk_npy_free(&array);
        }
        free(bytes);
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    gk_rng rng;
    gk_rng_seed(&rng, gk_rng_fresh_seed());
    static const struct {
        int ndim;
        uint64_t shape[3];
        int fortran;
    } shapes[] = {{2, {3, 4}, 0}, {2, {4, 3}, 1}, {2, {0, 5}, 0}, {1, {7}, 0}, {0, {0}, 0}, {3, {2, 3, 5}, 1}, {2, {1, 1}, 0}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        size_t count = 1;
        for (int d = 0; d < shapes[i].ndim; d++) count *= (size_t)shapes[i].shape[d];
        float data[64];
        gk_fill_random(&rng, data, count);
        if (count > 2) data[2] = NAN; /* bits survive, NaN included */
        snprintf(temp_path, sizeof temp_path, "npy_roundtrip_%zu.npy", i);
        char err[256];
        assert_int_equal(gk_npy_save_file(temp_path, shapes[i].ndim, shapes[i].shape, shapes[i].fortran, data, err,
                                          sizeof err),
                         GK_NPY_OK);
        /* The data starts on a 64-byte boundary, as numpy writes it. */
        FILE *f = fopen(temp_path, "rb");
        assert_non_null(f);
        unsigned char head[10];
        assert_int_equal(fread(head, 1, 10, f), 10);
        fclose(f);
        assert_int_equal((10 + (head[8] | head[9] << 8)) % 64, 0);
        gk_npy_array back;
        assert_int_equal(gk_npy_load_file(temp_path, &back, err, sizeof err), GK_NPY_OK);
        assert_int_equal(back.ndim, shapes[i].ndim);
        for (int d = 0; d < back.ndim; d++) assert_int_equal(back.shape[d], shapes[i].shape[d]);
        assert_int_equal(back.fortran_order, shapes[i].fortran);
        assert_int_equal(back.count, count);
        assert_memory_equal(back.data, data, count * sizeof(float));
        gk_npy_free(&back);
        unlink(temp_path);
    }
}

static void test_io_errors(void **state)
{
    (void)state;
    gk_npy_array array;
    char err[256];
    assert_int_equal(gk_npy_load_file("no/such/file.npy", &array, err, sizeof err), GK_NPY_ERR_IO);
    assert_non_null(strstr(err, "cannot open"));
    assert_int_equal(gk_npy_load_file(".", &array, err, sizeof err), GK_NPY_ERR_IO);
    assert_non_null(strstr(err, "not a regular file"));
    uint64_t shape[2] = {1, 1};
    float one = 1.0f;
    assert_int_equal(gk_npy_save_file("no/such/dir/x.npy", 2, shape, 0, &one, err, sizeof err), GK_NPY_ERR_IO);
    assert_int_equal(gk_npy_save_file("x.npy", 2, shape, 0, NULL, err, sizeof err), GK_NPY_ERR_ARGUMENT);
    assert_int_equal(gk_npy_save_file("x.npy", 40, shape, 0, &one, err, sizeof err), GK_NPY_ERR_ARGUMENT);
    char shape_text[64];
    gk_npy_shape_string(1, shape, shape_text, sizeof shape_text);
    assert_string_equal(shape_text, "(1,)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broken_files),
        cmocka_unit_test(test_header_variants),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_io_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
