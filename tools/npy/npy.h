/* Reading and writing NumPy .npy files of float32 ('<f4') arrays, C or
 * Fortran order, format versions 1.0, 2.0 and 3.0. The reader treats its
 * input as hostile: every length, count and byte is checked before use. */
#ifndef GK_NPY_H
#define GK_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GK_NPY_MAX_DIMS 32
/* Longest header accepted; real float32 headers are well under 1 KiB. */
#define GK_NPY_MAX_HEADER 65536

typedef enum gk_npy_status {
    GK_NPY_OK = 0,
    GK_NPY_ERR_IO = -1,     /* the file could not be opened, read or written */
    GK_NPY_ERR_FORMAT = -2, /* not a well-formed .npy file */
    GK_NPY_ERR_DTYPE = -3,  /* well formed, but not float32 */
    GK_NPY_ERR_NOMEM = -4,  /* the data does not fit in memory */
    GK_NPY_ERR_ARGUMENT = -5 /* a bad argument to the writer */
} gk_npy_status;

/* What the header says. */
typedef struct gk_npy_header {
    int major, minor;      /* format version */
    char descr[64];        /* dtype as written, e.g. "<f4" */
    int fortran_order;
    int ndim;
    uint64_t shape[GK_NPY_MAX_DIMS];
    uint64_t count;        /* elements: product of the shape */
    size_t data_offset;    /* bytes before the data (prelude + header) */
} gk_npy_header;

/* A float32 array read from a file. */
typedef struct gk_npy_array {
    int ndim;
    uint64_t shape[GK_NPY_MAX_DIMS];
    int fortran_order; /* 1: data is column-major (first index fastest) */
    size_t count;
    float *data;       /* count floats (malloc'd), never NULL after a successful load */
} gk_npy_array;

/* Parses the prelude and header at the start of `bytes` (size bytes, which
 * may end right after the header). The dtype is recorded, not checked. On
 * failure writes a message into err (err_size bytes). */
gk_npy_status gk_npy_parse_header(const void *bytes, size_t size, gk_npy_header *header, char *err,
                                  size_t err_size);

/* A whole .npy file held in memory: header, float32 dtype, exact data size. */
gk_npy_status gk_npy_load_memory(const void *bytes, size_t size, gk_npy_array *out, char *err, size_t err_size);

/* Reads a .npy file; the data length must match the shape exactly. */
gk_npy_status gk_npy_load_file(const char *path, gk_npy_array *out, char *err, size_t err_size);

/* Writes a float32 array (data in C order unless fortran_order) to a stream. */
gk_npy_status gk_npy_write(FILE *f, int ndim, const uint64_t *shape, int fortran_order, const float *data, char *err,
                           size_t err_size);

/* Writes a float32 array to a file, whole or not at all (tools/common/output_file.h):
 * a previous file at path survives any failure. */
gk_npy_status gk_npy_save_file(const char *path, int ndim, const uint64_t *shape, int fortran_order,
                               const float *data, char *err, size_t err_size);

void gk_npy_free(gk_npy_array *array);

/* "(3, 4)", "(5,)", "()" into buf. */
void gk_npy_shape_string(int ndim, const uint64_t *shape, char *buf, size_t buf_size);

#endif
