/* The gemmkit command: shared declarations of its subcommands. */
#ifndef GK_CLI_H
#define GK_CLI_H

#include <stdarg.h>
#include <stdio.h>

#include "gemmkit.h"

/* Options every subcommand understands. */
typedef struct gk_cli {
    const char *device;      /* --device, else GEMMKIT_DEVICE */
    gemmkit_backend backend; /* --backend */
    int argc;                /* the subcommand's own arguments */
    char **argv;
} gk_cli;

/* Exit codes: 0 ok, 1 a check failed or the device failed, 2 bad usage. */
enum { GK_EXIT_OK = 0, GK_EXIT_FAILED = 1, GK_EXIT_USAGE = 2 };

int gk_cmd_devices(const gk_cli *cli);
int gk_cmd_list(const gk_cli *cli);
int gk_cmd_verify(const gk_cli *cli);
int gk_cmd_bench(const gk_cli *cli);
int gk_cmd_tune(const gk_cli *cli);
int gk_cmd_gemm(const gk_cli *cli);

/* Each command's usage text (`gemmkit COMMAND --help`, `gemmkit help COMMAND`:
 * main.c answers --help for every command); bench's is in bench.h. */
void gk_devices_usage(FILE *out);
void gk_list_usage(FILE *out);
void gk_verify_usage(FILE *out);
void gk_tune_usage(FILE *out);
void gk_gemm_usage(FILE *out);

/* The environment variables gemmkit reads, with their defaults (`gemmkit help
 * env`; README.md has the same table, checked by tests/scripts/cli_env_table.sh). */
void gk_env_help(FILE *out);

/* Opens the chosen device, printing the reason on failure. */
gemmkit_context *gk_cli_open(const gk_cli *cli);
/* Prints "gemmkit: <what>: <status>: <details>" to stderr. */
void gk_cli_report(const char *what, gemmkit_status status);

/* Argument checks (cli_args.c). A whole decimal integer in [lo, hi]: 0 and
 * *out, or -1 ("abc", "64x64", "1.5", "2abc" and out-of-range values). */
int gk_cli_parse_int(const char *text, long lo, long hi, long *out);
/* Whether name is a whole item of the comma-separated list ("a,b": "a" and "b", not "" or "a,b"). */
int gk_cli_listed(const char *list, const char *name);
/* A math mode for --math: fp32, 3xtf32, tf32 or int8x (any case); -1 otherwise. */
int gk_cli_parse_math(const char *text, gemmkit_math *out);
#define GK_CLI_MATH_HELP                                                                                          \
    "fp32 (default), 3xtf32 (fp32 accuracy on tensor cores), tf32 (faster, less accurate) or int8x (the Ozaki "  \
    "scheme: INT8 products of integer slices, GEMMKIT_OZAKI_MODULI)"
/* Prints "gemmkit COMMAND: <message>" and where help is; returns GK_EXIT_USAGE. */
int gk_cli_usage_error(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));
int gk_cli_usage_errorv(const char *command, const char *format, va_list args);

#endif
