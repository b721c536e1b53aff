/* gemmkit: command-line front end (devices, list, verify, bench, gemm). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gemmkit [--device SEL] [--backend opencl|cuda] COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  devices               list devices with their properties\n"
            "  list                  list every kernel, its parameters and constraints\n"
            "  verify [--kernel K]   check kernels against the reference (K: name or all)\n"
            "  bench [options]       time kernels on the device (see gemmkit bench --help)\n"
            "  tune [--kernel K]     search K's parameters on this device and save the best\n"
            "  gemm A.npy B.npy -o C.npy  multiply .npy matrices (see gemmkit gemm --help)\n"
            "\n"
            "SEL is a device index or part of its name; GEMMKIT_DEVICE does the same.\n");
}

gemmkit_context *gk_cli_open(const gk_cli *cli)
{
    gemmkit_context *ctx = NULL;
    gemmkit_status status = gemmkit_context_create_ex(&ctx, cli->backend, cli->device);
    if (status != GEMMKIT_SUCCESS) {
        gk_cli_report("opening the device", status);
        return NULL;
    }
    return ctx;
}

void gk_cli_report(const char *what, gemmkit_status status)
{
    fprintf(stderr, "gemmkit: %s: %s: %s\n", what, gemmkit_strerror(status), gemmkit_last_error_message());
    const char *log = gemmkit_last_build_log();
    if (status == GEMMKIT_ERROR_BUILD_FAILED && log[0]) fprintf(stderr, "build log:\n%s\n", log);
}

int main(int argc, char **argv)
{
    gk_cli cli = {NULL, GEMMKIT_BACKEND_DEFAULT, 0, NULL};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            cli.device = argv[++i];
        } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            const char *b = argv[++i];
            if (strcmp(b, "opencl") == 0) cli.backend = GEMMKIT_BACKEND_OPENCL;
            else if (strcmp(b, "cuda") == 0) cli.backend = GEMMKIT_BACKEND_CUDA;
            else {
                fprintf(stderr, "gemmkit: unknown backend \"%s\" (opencl or cuda)\n", b);
                return GK_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return GK_EXIT_OK;
        } else {
            fprintf(stderr, "gemmkit: unknown option %s\n", argv[i]);
            usage(stderr);
            return GK_EXIT_USAGE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return GK_EXIT_USAGE;
    }
    const char *command = argv[i];
    cli.argc = argc - i - 1;
    cli.argv = argv + i + 1;
    static const struct {
        const char *name;
        int (*run)(const gk_cli *);
    } commands[] = {
        {"devices", gk_cmd_devices}, {"list", gk_cmd_list}, {"verify", gk_cmd_verify}, {"bench", gk_cmd_bench},
        {"tune", gk_cmd_tune}, {"gemm", gk_cmd_gemm}};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
        if (strcmp(command, commands[c].name) == 0) return commands[c].run(&cli);
    fprintf(stderr, "gemmkit: unknown command \"%s\"\n", command);
    usage(stderr);
    return GK_EXIT_USAGE;
}
