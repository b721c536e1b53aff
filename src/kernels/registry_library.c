/* Registry entries of the library's own kernels: the general direct SGEMM
 * and the unpacking/scaling helpers used around the tiled kernels (the
 * packing runs on the transpose kernels, registry_transpose.c). */
#include "registry.h"

static const gk_kernel_def kernels[] = {
    {
        .name = "direct",
        .op = GK_OP_SGEMM,
        .family = GK_FAMILY_LIBRARY,
        .step = 1,
        .source = "library/direct.cl",
        .function = "gk_sgemm_direct",
        .summary = "general bounds-checked tiled SGEMM: any size, transposes, offsets, alpha/beta in one pass",
        .params = {{"TS", 16, "8,16", "work-group edge and K step"},
                   {"WPT", 2, "1,2,4", "C elements per work-item per dimension"}},
        .constraints = {"TS * TS <= 1024", "WPT >= 1 && WPT <= 8"},
        .local_x = "TS", .local_y = "TS",
        .tile_m = "TS*WPT", .tile_n = "TS*WPT",
        .k_multiple = "1",
        .local_mem_bytes = "2 * TS * (TS*WPT + 1) * 4",
        .flags = GK_FLAG_DIRECT,
    },
    {
        .name = "unpack",
        .op = GK_OP_COPY,
        .family = GK_FAMILY_LIBRARY,
        .step = 91,
        .source = "library/pack.cl",
        .function = "gk_unpack",
        .summary = "C = alpha * P + beta * C from a padded result (post-processing, tutorial kernel 10)",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}},
        .local_x = "TILE", .local_y = "TILE",
        .tile_m = "TILE", .tile_n = "TILE",
        .k_multiple = "1",
        .flags = GK_FLAG_HELPER,
    },
    {
        .name = "scale",
        .op = GK_OP_COPY,
        .family = GK_FAMILY_LIBRARY,
        .step = 92,
        .source = "library/pack.cl",
        .function = "gk_scale",
        .summary = "C = beta * C, the alpha == 0 / K == 0 case",
        .params = {{"TILE", 16, "8,16,32", "work-group edge"}},
        .local_x = "TILE", .local_y = "TILE",
        .tile_m = "TILE", .tile_n = "TILE",
        .k_multiple = "1",
        .flags = GK_FLAG_HELPER,
    },
};

const gk_kernel_def *const gk_library_kernels = kernels;
const size_t gk_library_kernel_count = sizeof kernels / sizeof kernels[0];
