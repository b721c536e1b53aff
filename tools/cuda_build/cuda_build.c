/* One registry kernel built for the CUDA backend without a GPU: the same
 * translation, defines and NVRTC call as a plan's step (src/core/plan.c), its
 * CUBIN (or PTX) written to a file, for reading the machine code on a machine
 * with no GPU (bench/sass-report.sh: registers, instruction mix, wgmma waits).
 * Usage: cuda_build --kernel NAME [--params P=V,...] [--arch 90] [--trans NN|NT|TN|TT]
 *                   [--unaligned] [--define NAME=V]... --out FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "gemmkit.h"
#include "kernel_config.h"
#include "output_file.h"
#include "registry.h"

#define MAX_EXTRA 8

typedef struct build_args {
    const char *kernel, *params, *out, *trans;
    int arch, unaligned, extra_count;
    char extra_names[MAX_EXTRA][64];
    int extra_values[MAX_EXTRA];
} build_args;

static int usage(void)
{
    fprintf(stderr, "usage: cuda_build --kernel NAME [--params P=V,...] [--arch 90] [--trans NN|NT|TN|TT]\n"
                    "                  [--unaligned] [--define NAME=V]... --out FILE\n"
                    "  Builds one registry kernel as the CUDA backend would (translation, the plan's defines,\n"
                    "  NVRTC) for compute capability --arch (default 90; sm_90a for wgmma kernels), and writes\n"
                    "  its CUBIN (PTX for an architecture NVRTC does not know) to FILE. --trans sets TRANS_A and\n"
                    "  TRANS_B, --unaligned clears VEC_A/B/C (kernels that take them); --define adds others\n"
                    "  (e.g. SIZE_M=64). Needs NVRTC, not a GPU. Exit status: 0 built, 1 failed, 2 bad usage.\n");
    return 2;
}

static int parse(int argc, char **argv, build_args *a)
{
    *a = (build_args){.arch = 90, .trans = "NN"};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--unaligned") == 0) {
            a->unaligned = 1;
            continue;
        }
        if (!value) {
            fprintf(stderr, "cuda_build: %s needs a value\n", arg);
            return -1;
        }
        i++;
        if (strcmp(arg, "--kernel") == 0) a->kernel = value;
        else if (strcmp(arg, "--params") == 0) a->params = value;
        else if (strcmp(arg, "--out") == 0) a->out = value;
        else if (strcmp(arg, "--arch") == 0) a->arch = atoi(value);
        else if (strcmp(arg, "--trans") == 0) a->trans = value;
        else if (strcmp(arg, "--define") == 0) {
            const char *eq = strchr(value, '=');
            const size_t length = eq ? (size_t)(eq - value) : 0;
            if (length == 0 || length >= sizeof a->extra_names[0] || a->extra_count == MAX_EXTRA) {
                fprintf(stderr, "cuda_build: --define wants NAME=VALUE (at most %d)\n", MAX_EXTRA);
                return -1;
            }
            memcpy(a->extra_names[a->extra_count], value, length);
            a->extra_names[a->extra_count][length] = '\0';
            a->extra_values[a->extra_count++] = atoi(eq + 1);
        } else {
            fprintf(stderr, "cuda_build: unknown argument \"%s\"\n", arg);
            return -1;
        }
    }
    const int trans_ok = strlen(a->trans) == 2 && strchr("NT", a->trans[0]) && strchr("NT", a->trans[1]);
    if (!a->kernel || !a->out || a->arch < 30 || !trans_ok) {
        fprintf(stderr, "cuda_build: --kernel and --out are needed; --arch a capability such as 90; --trans NN..TT\n");
        return -1;
    }
    return 0;
}

/* The step's defines: parameters, the problem defines the kernel takes, GK_ARCH_SPECIFIC, --define's. */
static unsigned step_defines(const build_args *a, const gk_config *config, gk_define *out)
{
    const gk_kernel_def *def = config->def;
    unsigned n = gk_config_defines(config, out);
    if (def->defines & GK_DEFINE_TRANS_A) out[n++] = (gk_define){"TRANS_A", a->trans[0] == 'T'};
    if (def->defines & GK_DEFINE_TRANS_B) out[n++] = (gk_define){"TRANS_B", a->trans[1] == 'T'};
    if (def->defines & GK_DEFINE_VEC_A) out[n++] = (gk_define){"VEC_A", !a->unaligned};
    if (def->defines & GK_DEFINE_VEC_B) out[n++] = (gk_define){"VEC_B", !a->unaligned};
    if (def->defines & GK_DEFINE_VEC_C) out[n++] = (gk_define){"VEC_C", !a->unaligned};
    if (def->arch_specific) out[n++] = (gk_define){"GK_ARCH_SPECIFIC", 1};
    for (int i = 0; i < a->extra_count && n < GK_MAX_DEFINES; i++)
        out[n++] = (gk_define){a->extra_names[i], a->extra_values[i]};
    return n;
}

static int write_image(gk_output_file *out, void *user, char *err, size_t err_size)
{
    const gk_cuda_image *image = user;
    if (fwrite(image->data, 1, image->size, out->stream) != image->size) {
        snprintf(err, err_size, "writing %zu bytes failed", image->size);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    build_args a;
    if (parse(argc, argv, &a) != 0) return usage();
    const gk_kernel_def *def = gk_kernel_find(a.kernel);
    if (!def) {
        fprintf(stderr, "cuda_build: no kernel \"%s\" (gemmkit list)\n", a.kernel);
        return 1;
    }
    if (!gk_kernel_runs_on(def, GK_BACKEND_BIT_CUDA)) {
        fprintf(stderr, "cuda_build: kernel %s does not run on the CUDA backend\n", def->name);
        return 1;
    }
    gk_config config;
    if (gk_config_resolve(def, a.params, &config) != GEMMKIT_SUCCESS) {
        fprintf(stderr, "cuda_build: %s\n", gemmkit_last_error_message());
        return 1;
    }
    const int arch = def->arch_specific ? def->arch_specific : a.arch;
    gk_define defines[GK_MAX_DEFINES];
    const unsigned count = step_defines(&a, &config, defines);
    gk_cuda_image image;
    char *log = NULL;
    gemmkit_status status = gk_cuda_compile_source(gk_kernel_source(def->source), defines, count, arch, &image, &log);
    if (log) fprintf(stderr, "%s\n", log);
    free(log);
    if (status != GEMMKIT_SUCCESS) {
        fprintf(stderr, "cuda_build: %s\n", gemmkit_last_error_message());
        return 1;
    }
    char err[512];
    const int written = gk_output_write(a.out, write_image, &image, err, sizeof err);
    free(image.data);
    if (written != 0) {
        fprintf(stderr, "cuda_build: %s: %s\n", a.out, err);
        return 1;
    }
    printf("%s: %s for %s (%zu bytes), defines:", a.out, image.is_cubin ? "CUBIN" : "PTX", image.target, image.size);
    for (unsigned i = 0; i < count; i++) printf(" %s=%lld", defines[i].name, (long long)defines[i].value);
    printf("\n");
    return 0;
}
