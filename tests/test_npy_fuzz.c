/* Deterministic mutation fuzzing of the .npy reader: valid files, mutated
 * (bit flips, syntax bytes, length-field lies, big numbers, cuts, splices),
 * must each be read or rejected cleanly, with the invariants of a successful
 * read holding. Fixed seed, so a failure replays; build with
 * -DGEMMKIT_SANITIZE=ON to catch memory errors too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "npy.h"

enum { MEMORY_ROUNDS = 20000, FILE_ROUNDS = 500, MAX_SIZE = 4096 };

static uint64_t state = 0x243F6A8885A308D3ull;

static uint32_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 16);
}

static uint32_t below(uint32_t n) { return n ? next() % n : 0; }

typedef struct buffer {
    unsigned char b[MAX_SIZE];
    size_t size;
} buffer;

static void make_seed(buffer *out, int major, const char *header, size_t data_bytes)
{
    size_t prelude = major >= 2 ? 12 : 10, hlen = strlen(header);
    memcpy(out->b, "\x93NUMPY", 6);
    out->b[6] = (unsigned char)major;
    out->b[7] = 0;
    for (size_t i = 0; i < prelude - 8; i++) out->b[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(out->b + prelude, header, hlen);
    for (size_t i = 0; i < data_bytes; i++) out->b[prelude + hlen + i] = (unsigned char)next();
    out->size = prelude + hlen + data_bytes;
}

static buffer seeds[8];
static int seed_count;

static void make_seeds(void)
{
    make_seed(&seeds[0], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }          \n", 24);
    make_seed(&seeds[1], 2, "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }\n", 24);
    make_seed(&seeds[2], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", 20);
    make_seed(&seeds[3], 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n", 4);
    make_seed(&seeds[4], 1, "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (1, 2, 2)}\n", 16);
    make_seed(&seeds[5], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 7), }\n", 0);
    make_seed(&seeds[6], 1, "{'shape': (2L, 1L), 'descr': '<f4', 'fortran_order': False}\n", 8);
    seed_count = 7;
}

static const char interesting[] = " '\"(),:{}[]0123456789-L\n\t\r\\TrueFals<>f4\x93\x00\xff";
static const char *numbers[] = {"0", "1", "18446744073709551615", "9223372036854775807", "4294967296",
                                "4611686018427387904", "99999999999999999999999", "-1", "65536", ""};

static void mutate(buffer *x)
{
    size_t prelude = x->size >= 8 && x->b[6] >= 2 ? 12 : 10;
    switch (below(9)) {
    case 0: /* flip a bit */
        if (x->size) x->b[below((uint32_t)x->size)] ^= (unsigned char)(1u << below(8));
        break;
    case 1: /* overwrite with a syntax byte */
        if (x->size) x->b[below((uint32_t)x->size)] = (unsigned char)interesting[below(sizeof interesting - 1)];
        break;
    case 2: /* insert a byte */
        if (x->size < MAX_SIZE) {
            size_t at = below((uint32_t)x->size + 1);
            memmove(x->b + at + 1, x->b + at, x->size - at);
            x->b[at] = (unsigned char)interesting[below(sizeof interesting - 1)];
            x->size++;
        }
        break;
    case 3: /* delete a byte */
        if (x->size) {
            size_t at = below((uint32_t)x->size);
            memmove(x->b + at, x->b + at + 1, x->size - at - 1);
            x->size--;
        }
        break;
    case 4: /* cut the file short */
        x->size = below((uint32_t)x->size + 1);
        break;
    case 5: { /* lie about the header length */
        static const uint32_t lies[] = {0, 1, 2, 9, 0xff, 0x100, 0xffff, 0x10000, 0x10001, 0x7fffffff, 0xffffffff};
        uint32_t v = below(2) ? lies[below(sizeof lies / sizeof lies[0])] : (uint32_t)(x->size - prelude + below(5) - 2);
        for (size_t i = 8; i < prelude && i < x->size; i++) x->b[i] = (unsigned char)(v >> (8 * (i - 8)));
        break;
    }
    case 6: { /* splice a number over a digit run */
        for (size_t i = prelude; i < x->size; i++) {
            if (x->b[i] < '0' || x->b[i] > '9' || below(3)) continue;
            size_t end = i;
            while (end < x->size && x->b[end] >= '0' && x->b[end] <= '9') end++;
            const char *num = numbers[below(sizeof numbers / sizeof numbers[0])];
            size_t len = strlen(num);
            if (x->size - (end - i) + len > MAX_SIZE) break;
            memmove(x->b + i + len, x->b + end, x->size - end);
            memcpy(x->b + i, num, len);
            x->size = x->size - (end - i) + len;
            break;
        }
        break;
    }
    case 7: /* append bytes */
        for (uint32_t n = below(9); n > 0 && x->size < MAX_SIZE; n--) x->b[x->size++] = (unsigned char)next();
        break;
    default: { /* copy a slice over another place */
        if (x->size < 2) break;
        size_t from = below((uint32_t)x->size), to = below((uint32_t)x->size);
        size_t len = below((uint32_t)(x->size - (from > to ? from : to)));
        memmove(x->b + to, x->b + from, len);
        break;
    }
    }
}

static void check_result(const buffer *x, gk_npy_status s, const gk_npy_array *a, const char *err, int from_memory)
{
    if (s != GK_NPY_OK) {
        assert_true(err[0] != '\0');
        assert_null(a->data);
        return;
    }
    uint64_t count = 1;
    for (int d = 0; d < a->ndim; d++) count *= a->shape[d];
    assert_true(a->ndim >= 0 && a->ndim <= GK_NPY_MAX_DIMS);
    assert_int_equal(a->count, count);
    assert_non_null(a->data);
    if (from_memory) {
        gk_npy_header h;
        char herr[256];
        assert_int_equal(gk_npy_parse_header(x->b, x->size, &h, herr, sizeof herr), GK_NPY_OK);
        assert_int_equal(h.data_offset + count * 4, x->size);
        assert_memory_equal(a->data, x->b + h.data_offset, count * 4);
    }
}

static void test_mutated_in_memory(void **arg)
{
    (void)arg;
    make_seeds();
    unsigned accepted = 0;
    for (int round = 0; round < MEMORY_ROUNDS; round++) {
        buffer x = seeds[below((uint32_t)seed_count)];
        for (uint32_t m = 1 + below(4); m > 0; m--) mutate(&x);
        gk_npy_header h;
        char err[512] = "";
        gk_npy_status hs = gk_npy_parse_header(x.b, x.size, &h, err, sizeof err);
        if (hs == GK_NPY_OK) assert_true(h.data_offset <= x.size);
        else assert_true(err[0] != '\0');
        gk_npy_array a;
        err[0] = '\0';
        gk_npy_status s = gk_npy_load_memory(x.b, x.size, &a, err, sizeof err);
        check_result(&x, s, &a, err, 1);
        accepted += s == GK_NPY_OK;
        gk_npy_free(&a);
    }
    /* Some mutations are harmless (a padding byte, a digit): both outcomes must occur. */
    assert_true(accepted > 0 && accepted < MEMORY_ROUNDS);
}

/* The file reader has its own paths (prelude first, then the rest). */
static void test_mutated_files(void **arg)
{
    (void)arg;
    make_seeds();
    char path[] = "npy_fuzz_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int round = 0; round < FILE_ROUNDS; round++) {
        buffer x = seeds[below((uint32_t)seed_count)];
        for (uint32_t m = 1 + below(4); m > 0; m--) mutate(&x);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(x.b, 1, x.size, f), x.size);
        fclose(f);
        gk_npy_array a, b;
        char err[512] = "", err_memory[512] = "";
        gk_npy_status s = gk_npy_load_file(path, &a, err, sizeof err);
        gk_npy_status sm = gk_npy_load_memory(x.b, x.size, &b, err_memory, sizeof err_memory);
        check_result(&x, s, &a, err, 0);
        /* Same verdict either way. */
        assert_int_equal(s == GK_NPY_OK, sm == GK_NPY_OK);
        if (s == GK_NPY_OK) assert_memory_equal(a.data, b.data, a.count * 4);
        gk_npy_free(&a);
        gk_npy_free(&b);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutated_in_memory),
        cmocka_unit_test(test_mutated_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
