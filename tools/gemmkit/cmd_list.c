/* `gemmkit list`: the kernel registry in ladder order. */
#include <stdio.h>

#include "cli.h"
#include "registry.h"

static const char *family_name(gk_family family)
{
    switch (family) {
    case GK_FAMILY_TUTORIAL: return "SGEMM tutorial";
    case GK_FAMILY_SLIDES: return "OpenCL memory-hierarchy slides";
    case GK_FAMILY_LECTURE: return "CUDA transpose & matmul lecture";
    default: return "library";
    }
}

void gk_list_usage(FILE *out)
{
    fprintf(out, "usage: gemmkit list\n"
                 "  Every kernel of the registry in ladder order: its operation, family, parameters\n"
                 "  with their defaults, the sizes it handles and its constraints. No options.\n");
}

int gk_cmd_list(const gk_cli *cli)
{
    if (cli->argc) return gk_cli_usage_error("list", "unexpected argument \"%s\" (it takes none)", cli->argv[0]);
    for (size_t i = 0; i < gk_kernel_count(); i++) {
        const gk_kernel_def *d = gk_kernel_at(i);
        const char *op = gk_kernel_op(d) == GK_OP_SGEMM ? "sgemm" : gk_kernel_op(d) == GK_OP_TRANSPOSE ? "transpose" : "copy";
        printf("%-28s %-9s [%s] %s\n", d->name, op, family_name(d->family), d->summary);
        printf("%-28s   params:", "");
        for (int p = 0; p < GK_MAX_PARAMS && d->params[p].name; p++)
            printf(" %s=%d", d->params[p].name, d->params[p].default_value);
        if (gk_kernel_op(d) == GK_OP_SGEMM)
            printf("\n%-28s   sizes: tile %s x %s, K multiple of %s%s%s%s\n", "", d->tile_m, d->tile_n,
                   d->k_multiple, !gk_kernel_packs_operands(d) ? "; any size directly" : "; any size via padding",
                   (d->flags & GK_FLAG_SQUARE_ONLY) ? "; square kernel" : "",
                   !gk_kernel_runs_on(d, GK_BACKEND_BIT_OPENCL) ? "; CUDA backend only" : "");
        else
            printf("\n%-28s   sizes: tile %s x %s of A per work-group; any size (bounds-checked)\n", "",
                   d->tile_m, d->tile_n);
        for (int c = 0; c < GK_MAX_CONSTRAINTS && d->constraints[c]; c++)
            printf("%-28s   requires %s\n", "", d->constraints[c]);
    }
    return GK_EXIT_OK;
}
