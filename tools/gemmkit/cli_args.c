/* Argument checks shared by the subcommands: whole integers in a range, items of
 * comma-separated lists, and the one format of a usage error (exit status 2). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int gk_cli_parse_int(const char *text, long lo, long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int gk_cli_listed(const char *list, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const size_t item = strcspn(p, ",");
        if (item == len && strncmp(p, name, len) == 0) return 1;
        p += item + (p[item] == ',');
    }
    return 0;
}

int gk_cli_parse_math(const char *text, gemmkit_math *out)
{
    gemmkit_math math;
    if (!text || gemmkit_math_parse(text, &math) != GEMMKIT_SUCCESS || math == GEMMKIT_MATH_DEFAULT) return -1;
    *out = math;
    return 0;
}

int gk_cli_usage_errorv(const char *command, const char *format, va_list args)
{
    fprintf(stderr, "gemmkit %s: ", command);
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n(see gemmkit %s --help)\n", command);
    return GK_EXIT_USAGE;
}

int gk_cli_usage_error(const char *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    gk_cli_usage_errorv(command, format, args);
    va_end(args);
    return GK_EXIT_USAGE;
}
