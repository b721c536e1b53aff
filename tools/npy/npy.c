/* The .npy reader and writer (see npy.h). Layout of a file: the magic
 * "\x93NUMPY", two version bytes, the header length (2 bytes little-endian in
 * version 1, 4 in versions 2 and 3), the header (a Python dict literal with
 * 'descr', 'fortran_order' and 'shape', ending in '\n'), then the data. */
#include "npy.h"
#include "output_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static gk_npy_status fail(char *err, size_t err_size, gk_npy_status status, const char *format, ...)
{
    if (err && err_size) {
        va_list args;
        va_start(args, format);
        vsnprintf(err, err_size, format, args);
        va_end(args);
    }
    return status;
}

static int host_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

/* Converts count floats between little-endian file order and the host's. */
static void swap_if_big_endian(float *x, size_t count)
{
    if (host_little_endian()) return;
    for (size_t i = 0; i < count; i++) {
        unsigned char b[4], t;
        memcpy(b, &x[i], 4);
        t = b[0], b[0] = b[3], b[3] = t;
        t = b[1], b[1] = b[2], b[2] = t;
        memcpy(&x[i], b, 4);
    }
}

void gk_npy_shape_string(int ndim, const uint64_t *shape, char *buf, size_t buf_size)
{
    if (!buf_size) return;
    size_t used = (size_t)snprintf(buf, buf_size, "(");
    for (int i = 0; i < ndim && used < buf_size; i++)
        used += (size_t)snprintf(buf + used, buf_size - used, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
    if (used < buf_size) snprintf(buf + used, buf_size - used, ndim == 1 ? ",)" : ")");
}

/* ---- the prelude: magic, version, header length */

/* Validates the first bytes; sets the prelude length (10 or 12) and the
 * header length. Needs only the prelude itself to be present. */
static gk_npy_status parse_prelude(const unsigned char *b, size_t size, gk_npy_header *h, size_t *prelude,
                                   size_t *header_len, char *err, size_t err_size)
{
    if (size == 0) return fail(err, err_size, GK_NPY_ERR_FORMAT, "empty file: not a .npy file");
    size_t check = size < sizeof npy_magic ? size : sizeof npy_magic;
    if (memcmp(b, npy_magic, check) != 0)
        return fail(err, err_size, GK_NPY_ERR_FORMAT,
                    "not a .npy file: it does not start with the magic string \"\\x93NUMPY\"");
    if (size < 10)
        return fail(err, err_size, GK_NPY_ERR_FORMAT, "truncated: %zu bytes, shorter than the .npy prelude", size);
    h->major = b[6];
    h->minor = b[7];
    if ((h->major != 1 && h->major != 2 && h->major != 3) || h->minor != 0)
        return fail(err, err_size, GK_NPY_ERR_FORMAT, "unsupported .npy format version %d.%d (1.0, 2.0 or 3.0 expected)",
                    h->major, h->minor);
    if (h->major == 1) {
        *prelude = 10;
        *header_len = (size_t)b[8] | (size_t)b[9] << 8;
    } else {
        if (size < 12)
            return fail(err, err_size, GK_NPY_ERR_FORMAT, "truncated: %zu bytes, shorter than the version %d prelude",
                        size, h->major);
        *prelude = 12;
        uint32_t len = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
        if (len > GK_NPY_MAX_HEADER)
            return fail(err, err_size, GK_NPY_ERR_FORMAT,
                        "header length %lu is implausibly large (more than %d bytes)", (unsigned long)len,
                        GK_NPY_MAX_HEADER);
        *header_len = len;
    }
    if (*header_len == 0) return fail(err, err_size, GK_NPY_ERR_FORMAT, "the header length is 0");
    return GK_NPY_OK;
}

/* ---- the header: a small parser for the dict literal numpy writes */

typedef struct cursor {
    const char *p, *end;
    char *err;
    size_t err_size;
} cursor;

static int at_end(const cursor *c) { return c->p >= c->end; }
static char peek(const cursor *c) { return at_end(c) ? '\0' : *c->p; }

static void skip_space(cursor *c)
{
    while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static gk_npy_status expect(cursor *c, char want, const char *where)
{
    skip_space(c);
    if (peek(c) != want)
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: expected '%c' %s", want, where);
    c->p++;
    return GK_NPY_OK;
}

/* A quoted string without escapes, into out (out_size bytes). */
static gk_npy_status parse_string(cursor *c, char *out, size_t out_size, const char *what)
{
    skip_space(c);
    char quote = peek(c);
    if (quote != '\'' && quote != '"')
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: expected a quoted string for %s", what);
    c->p++;
    size_t n = 0;
    while (!at_end(c) && *c->p != quote) {
        if (*c->p == '\\')
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: escapes in %s are not supported",
                        what);
        if (n + 1 >= out_size)
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: %s is too long", what);
        out[n++] = *c->p++;
    }
    if (at_end(c))
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: unterminated string in %s", what);
    c->p++;
    out[n] = '\0';
    return GK_NPY_OK;
}

static gk_npy_status parse_bool(cursor *c, int *value)
{
    skip_space(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
        *value = 1;
        c->p += 4;
    } else if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
        *value = 0;
        c->p += 5;
    } else {
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: 'fortran_order' must be True or False");
    }
    return GK_NPY_OK;
}

/* One dimension: decimal digits (an 'L' suffix, from Python 2 writers, is allowed). */
static gk_npy_status parse_dimension(cursor *c, uint64_t *value)
{
    skip_space(c);
    if (peek(c) == '-')
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: negative dimension in 'shape'");
    if (peek(c) < '0' || peek(c) > '9')
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: expected a dimension in 'shape'");
    uint64_t v = 0;
    while (peek(c) >= '0' && peek(c) <= '9') {
        unsigned d = (unsigned)(*c->p++ - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: a dimension in 'shape' is too large");
        v = v * 10 + d;
    }
    if (peek(c) == 'L' || peek(c) == 'l') c->p++;
    *value = v;
    return GK_NPY_OK;
}

/* A tuple of dimensions: "()", "(5,)", "(3, 4)", "(3, 4,)". */
static gk_npy_status parse_shape(cursor *c, gk_npy_header *h)
{
    gk_npy_status s;
    if ((s = expect(c, '(', "to open 'shape'")) != GK_NPY_OK) return s;
    h->ndim = 0;
    int commas = 0;
    skip_space(c);
    while (peek(c) != ')') {
        if (h->ndim == GK_NPY_MAX_DIMS)
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "'shape' has more than %d dimensions", GK_NPY_MAX_DIMS);
        if ((s = parse_dimension(c, &h->shape[h->ndim])) != GK_NPY_OK) return s;
        h->ndim++;
        skip_space(c);
        if (peek(c) == ',') {
            c->p++;
            commas++;
            skip_space(c);
        } else if (peek(c) != ')') {
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: expected ',' or ')' in 'shape'");
        }
    }
    c->p++;
    if (h->ndim == 1 && commas == 0) /* "(5)" is a number in Python, not a tuple */
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: 'shape' is not a tuple");
    return GK_NPY_OK;
}

static gk_npy_status parse_dict(cursor *c, gk_npy_header *h)
{
    gk_npy_status s;
    int have_descr = 0, have_order = 0, have_shape = 0;
    if ((s = expect(c, '{', "at the start of the header")) != GK_NPY_OK) return s;
    for (;;) {
        skip_space(c);
        if (peek(c) == '}') break;
        char key[32];
        if ((s = parse_string(c, key, sizeof key, "a key")) != GK_NPY_OK) return s;
        if ((s = expect(c, ':', "after a key")) != GK_NPY_OK) return s;
        skip_space(c);
        int *seen;
        if (strcmp(key, "descr") == 0) {
            seen = &have_descr;
            if (peek(c) == '[')
                return fail(c->err, c->err_size, GK_NPY_ERR_DTYPE,
                            "structured dtypes are not supported: gemmkit reads float32 ('<f4') arrays");
            s = parse_string(c, h->descr, sizeof h->descr, "'descr'");
        } else if (strcmp(key, "fortran_order") == 0) {
            seen = &have_order;
            s = parse_bool(c, &h->fortran_order);
        } else if (strcmp(key, "shape") == 0) {
            seen = &have_shape;
            s = parse_shape(c, h);
        } else {
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: unknown key '%s'", key);
        }
        if (s != GK_NPY_OK) return s;
        if (*seen) return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: key '%s' appears twice", key);
        *seen = 1;
        skip_space(c);
        if (peek(c) == ',') {
            c->p++;
            continue;
        }
        if (peek(c) != '}')
            return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: expected ',' or '}' after '%s'", key);
    }
    c->p++; /* the '}' */
    skip_space(c);
    if (!at_end(c))
        return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: text after the closing '}'");
    const char *missing = !have_descr ? "descr" : !have_order ? "fortran_order" : !have_shape ? "shape" : NULL;
    if (missing) return fail(c->err, c->err_size, GK_NPY_ERR_FORMAT, "malformed header: the key '%s' is missing", missing);
    return GK_NPY_OK;
}

gk_npy_status gk_npy_parse_header(const void *bytes, size_t size, gk_npy_header *h, char *err, size_t err_size)
{
    memset(h, 0, sizeof *h);
    if (!bytes && size) return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "no data");
    const unsigned char *b = bytes;
    size_t prelude = 0, header_len = 0;
    gk_npy_status s = parse_prelude(b, size, h, &prelude, &header_len, err, err_size);
    if (s != GK_NPY_OK) return s;
    if (header_len > size - prelude)
        return fail(err, err_size, GK_NPY_ERR_FORMAT,
                    "truncated header: the header length says %zu bytes but only %zu follow the prelude", header_len,
                    size - prelude);
    const char *text = (const char *)b + prelude;
    for (size_t i = 0; i < header_len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if ((ch < 0x20 || ch > 0x7e) && ch != '\n' && ch != '\t' && ch != '\r')
            return fail(err, err_size, GK_NPY_ERR_FORMAT,
                        "malformed header: byte %zu of the header (0x%02x) is not printable ASCII", i, ch);
    }
    if (text[header_len - 1] != '\n')
        return fail(err, err_size, GK_NPY_ERR_FORMAT,
                    "malformed header: it does not end with a newline (is the header length right?)");
    cursor c = {text, text + header_len, err, err_size};
    if ((s = parse_dict(&c, h)) != GK_NPY_OK) return s;
    h->count = 1;
    for (int i = 0; i < h->ndim; i++) {
        if (h->count && h->shape[i] > UINT64_MAX / 4 / h->count) {
            char shape[GK_NPY_MAX_DIMS * 24];
            gk_npy_shape_string(h->ndim, h->shape, shape, sizeof shape);
            return fail(err, err_size, GK_NPY_ERR_FORMAT, "shape %s has more elements than can be addressed", shape);
        }
        h->count *= h->shape[i];
    }
    h->data_offset = prelude + header_len;
    return GK_NPY_OK;
}

/* ---- loading */

/* A readable name for a dtype string: "float64", "int32", "bool", ... */
static void dtype_name(const char *descr, char *buf, size_t buf_size)
{
    const char *p = strchr("<>|=", descr[0]) && descr[0] ? descr + 1 : descr;
    char kind = p[0];
    char *end = NULL;
    long bytes = kind ? strtol(p + 1, &end, 10) : 0;
    int sized = end && end != p + 1 && *end == '\0' && bytes > 0 && bytes <= 64;
    const char *name = kind == 'f' ? "float" : kind == 'i' ? "int" : kind == 'u' ? "uint" : kind == 'c' ? "complex" : NULL;
    if (name && sized)
        snprintf(buf, buf_size, "%s%ld", name, bytes * 8);
    else if (kind == 'b')
        snprintf(buf, buf_size, "bool");
    else if (kind == 'O')
        snprintf(buf, buf_size, "Python objects");
    else if (kind == 'U' || kind == 'S' || kind == 'a')
        snprintf(buf, buf_size, "strings");
    else
        snprintf(buf, buf_size, "not a numeric type");
}

static gk_npy_status check_dtype(const gk_npy_header *h, char *err, size_t err_size)
{
    if (strcmp(h->descr, "<f4") == 0) return GK_NPY_OK;
    if (strcmp(h->descr, ">f4") == 0)
        return fail(err, err_size, GK_NPY_ERR_DTYPE,
                    "dtype '>f4' (big-endian float32) is not supported: gemmkit reads little-endian float32 ('<f4'); "
                    "convert with a.astype('<f4')");
    char name[32];
    dtype_name(h->descr, name, sizeof name);
    return fail(err, err_size, GK_NPY_ERR_DTYPE,
                "dtype '%s' (%s) is not supported: gemmkit reads float32 ('<f4') only; convert with "
                "a.astype(numpy.float32)",
                h->descr, name);
}

/* The data size of a header, checked against the bytes actually present. */
static gk_npy_status data_bytes(const gk_npy_header *h, uint64_t present, size_t *bytes, char *err, size_t err_size)
{
    uint64_t need = h->count * 4; /* cannot overflow: checked while parsing */
    char shape[GK_NPY_MAX_DIMS * 24];
    gk_npy_shape_string(h->ndim, h->shape, shape, sizeof shape);
    if (present < need)
        return fail(err, err_size, GK_NPY_ERR_FORMAT, "truncated data: shape %s needs %llu bytes, the file has %llu",
                    shape, (unsigned long long)need, (unsigned long long)present);
    if (present > need)
        return fail(err, err_size, GK_NPY_ERR_FORMAT,
                    "%llu unexpected bytes after the data of shape %s (is the shape right?)",
                    (unsigned long long)(present - need), shape);
    if (need > (uint64_t)SIZE_MAX) return fail(err, err_size, GK_NPY_ERR_NOMEM, "shape %s is too large for memory", shape);
    *bytes = (size_t)need;
    return GK_NPY_OK;
}

static gk_npy_status fill_array(const gk_npy_header *h, size_t bytes, gk_npy_array *out, char *err, size_t err_size)
{
    out->data = malloc(bytes ? bytes : 1);
    if (!out->data) return fail(err, err_size, GK_NPY_ERR_NOMEM, "cannot allocate %zu bytes for the data", bytes);
    out->ndim = h->ndim;
    memcpy(out->shape, h->shape, sizeof out->shape);
    out->fortran_order = h->fortran_order;
    out->count = (size_t)h->count;
    return GK_NPY_OK;
}

gk_npy_status gk_npy_load_memory(const void *bytes, size_t size, gk_npy_array *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    gk_npy_header h;
    gk_npy_status s = gk_npy_parse_header(bytes, size, &h, err, err_size);
    if (s == GK_NPY_OK) s = check_dtype(&h, err, err_size);
    size_t need = 0;
    if (s == GK_NPY_OK) s = data_bytes(&h, size - h.data_offset, &need, err, err_size);
    if (s == GK_NPY_OK) s = fill_array(&h, need, out, err, err_size);
    if (s != GK_NPY_OK) return s;
    if (need) memcpy(out->data, (const unsigned char *)bytes + h.data_offset, need);
    swap_if_big_endian(out->data, out->count);
    return GK_NPY_OK;
}

/* Reads exactly n bytes. */
static int read_exact(FILE *f, void *dst, size_t n) { return fread(dst, 1, n, f) == n; }

gk_npy_status gk_npy_load_file(const char *path, gk_npy_array *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, err_size, GK_NPY_ERR_IO, "cannot open: %s", strerror(errno));
    gk_npy_status s = GK_NPY_OK;
    unsigned char *head = NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        s = fail(err, err_size, GK_NPY_ERR_IO, "not a regular file");
        goto done;
    }
    /* The prelude first, to learn the header length (bounded by the parser). */
    unsigned char prelude_bytes[12];
    size_t got = fread(prelude_bytes, 1, sizeof prelude_bytes, f);
    gk_npy_header h;
    size_t prelude = 0, header_len = 0;
    if ((s = parse_prelude(prelude_bytes, got, &h, &prelude, &header_len, err, err_size)) != GK_NPY_OK) goto done;
    if ((uint64_t)st.st_size < prelude + header_len) {
        s = fail(err, err_size, GK_NPY_ERR_FORMAT,
                 "truncated header: the header length says %zu bytes but only %llu follow the prelude", header_len,
                 (unsigned long long)((uint64_t)st.st_size - prelude));
        goto done;
    }
    head = malloc(prelude + header_len);
    if (!head) {
        s = fail(err, err_size, GK_NPY_ERR_NOMEM, "cannot allocate the header");
        goto done;
    }
    /* A tiny header may end inside the 12 bytes read so far. */
    size_t total = prelude + header_len, have = got < total ? got : total;
    memcpy(head, prelude_bytes, have);
    if (!read_exact(f, head + have, total - have)) {
        s = fail(err, err_size, GK_NPY_ERR_IO, "reading the header failed");
        goto done;
    }
    size_t need = 0;
    if ((s = gk_npy_parse_header(head, total, &h, err, err_size)) != GK_NPY_OK ||
        (s = check_dtype(&h, err, err_size)) != GK_NPY_OK ||
        (s = data_bytes(&h, (uint64_t)st.st_size - h.data_offset, &need, err, err_size)) != GK_NPY_OK ||
        (s = fill_array(&h, need, out, err, err_size)) != GK_NPY_OK)
        goto done;
    if (fseek(f, (long)h.data_offset, SEEK_SET) != 0) {
        s = fail(err, err_size, GK_NPY_ERR_IO, "seeking to the data failed: %s", strerror(errno));
        goto done;
    }
    /* The size was checked against the file's; a short read means it changed. */
    if (!read_exact(f, out->data, need) || fgetc(f) != EOF) {
        s = fail(err, err_size, GK_NPY_ERR_IO, "the file changed size while being read");
        goto done;
    }
    swap_if_big_endian(out->data, out->count);
done:
    free(head);
    fclose(f);
    if (s != GK_NPY_OK) gk_npy_free(out);
    return s;
}

void gk_npy_free(gk_npy_array *array)
{
    if (!array) return;
    free(array->data);
    memset(array, 0, sizeof *array);
}

/* ---- writing */

gk_npy_status gk_npy_write(FILE *f, int ndim, const uint64_t *shape, int fortran_order, const float *data, char *err,
                           size_t err_size)
{
    if (!f || ndim < 0 || ndim > GK_NPY_MAX_DIMS || (ndim && !shape))
        return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "bad arguments to the .npy writer");
    uint64_t count = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] > (uint64_t)INT64_MAX || (count && shape[i] > UINT64_MAX / 4 / count))
            return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "the shape is too large");
        count *= shape[i];
    }
    if (count && !data) return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "no data to write");
    if (count > SIZE_MAX / 4) return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "the shape is too large");
    /* Header padded with spaces so that the data starts on a 64-byte boundary. */
    char header[GK_NPY_MAX_DIMS * 24 + 128], shape_text[GK_NPY_MAX_DIMS * 24];
    gk_npy_shape_string(ndim, shape, shape_text, sizeof shape_text);
    int len = snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': %s, 'shape': %s, }",
                       fortran_order ? "True" : "False", shape_text);
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t header_len = padded - 10;
    unsigned char prelude[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(header_len & 0xff),
                                 (unsigned char)(header_len >> 8)};
    memset(header + len, ' ', header_len - 1 - (size_t)len);
    header[header_len - 1] = '\n';
    int ok = fwrite(prelude, 1, sizeof prelude, f) == sizeof prelude && fwrite(header, 1, header_len, f) == header_len;
    if (host_little_endian()) {
        ok = ok && fwrite(data, sizeof(float), (size_t)count, f) == (size_t)count;
    } else {
        for (size_t i = 0; ok && i < (size_t)count; i++) {
            float v = data[i];
            swap_if_big_endian(&v, 1);
            ok = fwrite(&v, sizeof v, 1, f) == 1;
        }
    }
    if (!ok) return fail(err, err_size, GK_NPY_ERR_IO, "writing failed: %s", strerror(errno));
    return GK_NPY_OK;
}

typedef struct npy_content {
    int ndim, fortran_order;
    const uint64_t *shape;
    const float *data;
    gk_npy_status status;
} npy_content;

static int write_content(gk_output_file *out, void *user, char *err, size_t err_size)
{
    npy_content *c = user;
    c->status = gk_npy_write(out->stream, c->ndim, c->shape, c->fortran_order, c->data, err, err_size);
    return c->status == GK_NPY_OK ? 0 : -1;
}

gk_npy_status gk_npy_save_file(const char *path, int ndim, const uint64_t *shape, int fortran_order,
                               const float *data, char *err, size_t err_size)
{
    if (!path) return fail(err, err_size, GK_NPY_ERR_ARGUMENT, "bad arguments to the .npy writer");
    npy_content content = {ndim, fortran_order, shape, data, GK_NPY_ERR_IO};
    if (gk_output_write(path, write_content, &content, err, err_size) == 0) return GK_NPY_OK;
    /* Argument errors keep their status; everything else is the file's. */
    return content.status == GK_NPY_ERR_ARGUMENT ? GK_NPY_ERR_ARGUMENT : GK_NPY_ERR_IO;
}
