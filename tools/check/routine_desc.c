/* The table of routine descriptors (routine_desc.h): a new routine adds its
 * descriptor here and nowhere else in the tools. */
#include <stdio.h>

#include "routine_desc.h"

static const gk_routine *const routines[] = {&gk_routine_gemm, &gk_routine_omatcopy, &gk_routine_gemm_batched};

const gk_routine *gk_routine_of(gk_operation op)
{
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++)
        for (int j = 0; j < 3 && routines[i]->ops[j] != GK_OP_HELPER; j++)
            if (routines[i]->ops[j] == op) return routines[i];
    return NULL;
}

void gk_case_size_text(const gk_routine *r, const gk_case *c, char *text, size_t size)
{
    gk_case_label l;
    r->label(c, &l);
    if (r->dims == 3)
        snprintf(text, size, "%lldx%lldx%lld", (long long)l.size[0], (long long)l.size[1], (long long)l.size[2]);
    else
        snprintf(text, size, "%lldx%lld", (long long)l.size[0], (long long)l.size[1]);
}
