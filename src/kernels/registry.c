/* The registry as one list: the family tables in ladder order. */
#include "registry.h"

#include <string.h>

#define GK_FAMILY_TABLE(family)                                                                    \
    extern const gk_kernel_def *const gk_##family##_kernels;                                       \
    extern const size_t gk_##family##_kernel_count;
GK_FAMILY_TABLE(library)
GK_FAMILY_TABLE(tutorial)
GK_FAMILY_TABLE(slides)
GK_FAMILY_TABLE(lecture)
GK_FAMILY_TABLE(transpose)
GK_FAMILY_TABLE(batched)
GK_FAMILY_TABLE(tensor)
GK_FAMILY_TABLE(ozaki)

typedef struct table {
    const gk_kernel_def *const *kernels;
    const size_t *count;
} table;

static const table tables[] = {
    {&gk_tutorial_kernels, &gk_tutorial_kernel_count},
    {&gk_slides_kernels, &gk_slides_kernel_count},
    {&gk_lecture_kernels, &gk_lecture_kernel_count},
    {&gk_transpose_kernels, &gk_transpose_kernel_count},
    {&gk_library_kernels, &gk_library_kernel_count},
    {&gk_batched_kernels, &gk_batched_kernel_count},
    {&gk_tensor_kernels, &gk_tensor_kernel_count},
    {&gk_ozaki_kernels, &gk_ozaki_kernel_count},
};

size_t gk_kernel_count(void)
{
    size_t total = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) total += *tables[t].count;
    return total;
}

const gk_kernel_def *gk_kernel_at(size_t index)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        if (index < *tables[t].count) return &(*tables[t].kernels)[index];
        index -= *tables[t].count;
    }
    return NULL;
}

const gk_kernel_def *gk_kernel_find(const char *name)
{
    if (!name) return NULL;
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *def = gk_kernel_at(i);
        if (strcmp(def->name, name) == 0) return def;
    }
    return NULL;
}
