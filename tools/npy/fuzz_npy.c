/* libFuzzer entry point for the .npy reader: any bytes must be read or
 * rejected cleanly (run under AddressSanitizer/UBSan by the fuzz build). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    gk_npy_header h;
    if (gk_npy_parse_header(data, size, &h, err, sizeof err) == GK_NPY_OK && h.data_offset > size) abort();
    gk_npy_array a;
    if (gk_npy_load_memory(data, size, &a, err, sizeof err) == GK_NPY_OK) {
        uint64_t count = 1;
        for (int d = 0; d < a.ndim; d++) count *= a.shape[d];
        if (count != a.count || !a.data) abort();
        if (a.count && memcmp(a.data, data + size - a.count * 4, a.count * 4) != 0) abort();
    }
    gk_npy_free(&a);
    return 0;
}
