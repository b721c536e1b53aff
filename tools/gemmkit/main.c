/* gemmkit: command-line front end. main() takes the global options wherever
 * they stand, answers `help`, `--version` and `COMMAND --help` for every
 * command, and hands the remaining arguments to the command. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "context.h"

typedef struct command {
    const char *name;
    const char *synopsis; /* the arguments, for the overview */
    const char *summary;
    int (*run)(const gk_cli *);
    void (*usage)(FILE *);
} command;

static const command commands[] = {
    {"devices", "", "list devices with their properties", gk_cmd_devices, gk_devices_usage},
    {"list", "", "list every kernel, its parameters and constraints", gk_cmd_list, gk_list_usage},
    {"verify", "[--kernel K]", "check kernels against the reference (K: name or all)", gk_cmd_verify,
     gk_verify_usage},
    {"bench", "[options]", "time kernels on the device beside the peers", gk_cmd_bench, gk_bench_usage},
    {"tune", "[--kernel K]", "search K's parameters on this device and save the best (--calibrate: the cost model's constants)",
     gk_cmd_tune,
     gk_tune_usage},
    {"gemm", "A.npy B.npy -o C.npy", "multiply .npy matrices", gk_cmd_gemm, gk_gemm_usage},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: gemmkit [--device SEL] [--backend opencl|cuda] COMMAND [options]\n"
                 "       gemmkit help [COMMAND|env]\n"
                 "       gemmkit --version\n"
                 "\n"
                 "commands:\n");
    for (size_t c = 0; c < COMMAND_COUNT; c++) {
        char head[48];
        snprintf(head, sizeof head, "%s %s", commands[c].name, commands[c].synopsis);
        fprintf(out, "  %-28s %s\n", head, commands[c].summary);
    }
    fprintf(out, "\n"
                 "global options, before or after COMMAND:\n"
                 "  --device SEL      a device index from `gemmkit devices`, or part of \"platform device\"\n"
                 "                    (any case); default GEMMKIT_DEVICE, else the first GPU, else device 0\n"
                 "  --backend B       opencl or cuda (any case); default GEMMKIT_BACKEND, else opencl\n"
                 "\n"
                 "`gemmkit COMMAND --help` (or `gemmkit help COMMAND`) shows a command's options,\n"
                 "`gemmkit help env` the environment variables.\n"
                 "Exit status: 0 success, 1 a wrong result or a failure of the device, 2 bad usage.\n");
}

static const command *find_command(const char *name)
{
    for (size_t c = 0; c < COMMAND_COUNT; c++)
        if (strcmp(name, commands[c].name) == 0) return &commands[c];
    return NULL;
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

/* The value of global option `name` at argv[*i] ("--name V" or "--name=V"),
 * advancing *i past it; NULL when argv[*i] is not that option. *missing is
 * set when it is, without a value. */
static const char *global_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0) return NULL;
    if (arg[len] == '=') return arg[len + 1] ? arg + len + 1 : (*missing = 1, NULL);
    if (arg[len] != '\0') return NULL;
    /* A value never looks like an option (as in bench: "--device --backend cuda" is a mistake). */
    if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0) return (*missing = 1, NULL);
    return argv[++*i];
}

/* Takes --device and --backend out of argv wherever they stand, before or
 * after the command: no command has options of those names, so they are
 * never another option's value. Returns 0, or GK_EXIT_USAGE after a message. */
static int take_global_options(int *argc, char **argv, gk_cli *cli)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        int missing = 0;
        const char *device = global_value(*argc, argv, &i, "--device", &missing);
        const char *backend = device || missing ? NULL : global_value(*argc, argv, &i, "--backend", &missing);
        if (missing) {
            fprintf(stderr, "gemmkit: %.*s needs a value\n", (int)strcspn(argv[i], "="), argv[i]);
            return GK_EXIT_USAGE;
        }
        if (device) {
            cli->device = device;
        } else if (backend) {
            if (!gk_backend_parse(backend, &cli->backend)) {
                fprintf(stderr, "gemmkit: unknown backend \"%s\" (opencl or cuda)\n", backend);
                return GK_EXIT_USAGE;
            }
        } else {
            argv[kept++] = argv[i];
        }
    }
    *argc = kept;
    argv[kept] = NULL;
    return 0;
}

/* A bad GEMMKIT_BACKEND is a usage error, as a bad --backend is (which overrides it). */
static int check_backend_env(const gk_cli *cli)
{
    const char *env = getenv("GEMMKIT_BACKEND");
    gemmkit_backend ignored;
    if (cli->backend != GEMMKIT_BACKEND_DEFAULT || !env || !*env || gk_backend_parse(env, &ignored)) return 0;
    fprintf(stderr, "gemmkit: GEMMKIT_BACKEND=\"%s\": expected opencl or cuda (any case)\n", env);
    return GK_EXIT_USAGE;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* `gemmkit help [COMMAND|env]` (or --help / -h instead of help). */
static int help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return GK_EXIT_OK;
    }
    const command *c = argc == 1 ? find_command(argv[0]) : NULL;
    if (c) {
        c->usage(stdout);
        return GK_EXIT_OK;
    }
    if (argc == 1 && strcmp(argv[0], "env") == 0) {
        gk_env_help(stdout);
        return GK_EXIT_OK;
    }
    if (argc > 1) fprintf(stderr, "gemmkit help: one topic at a time\n");
    else fprintf(stderr, "gemmkit help: no help on \"%s\": a command or env\n", argv[0]);
    usage(stderr);
    return GK_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    gk_cli cli = {NULL, GEMMKIT_BACKEND_DEFAULT, 0, NULL};
    int rc = take_global_options(&argc, argv, &cli);
    if (rc) return rc;
    if (argc < 2) {
        usage(stderr);
        return GK_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (is_help(first) || strcmp(first, "help") == 0) return help(argc - 2, argv + 2);
    if (strcmp(first, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "gemmkit: --version takes no argument, not \"%s\"\n", argv[2]);
            return GK_EXIT_USAGE;
        }
        printf("gemmkit %s\n", gemmkit_version(NULL, NULL, NULL));
        return GK_EXIT_OK;
    }
    const command *c = find_command(first);
    if (!c) {
        fprintf(stderr, first[0] == '-' ? "gemmkit: unknown option %s\n" : "gemmkit: unknown command \"%s\"\n",
                first);
        usage(stderr);
        return GK_EXIT_USAGE;
    }
    cli.argc = argc - 2;
    cli.argv = argv + 2;
    for (int i = 0; i < cli.argc; i++)
        if (is_help(cli.argv[i])) {
            c->usage(stdout);
            return GK_EXIT_OK;
        }
    if ((rc = check_backend_env(&cli))) return rc;
    return c->run(&cli);
}
