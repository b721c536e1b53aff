/* A temporary folder per command-line test program (the bench tests): made in
 * a group setup, removed whole in its teardown, and files read back whole; the
 * gemmkit under test run with its output there (GEMMKIT_CLI_PATH: the build's,
 * defined by tests/CMakeLists.txt for these tests). */
#ifndef GK_TEST_WORKDIR_H
#define GK_TEST_WORKDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static char workdir[256];

/* A fresh /tmp/gemmkit-NAME-XXXXXX (NAME: the program's). */
static inline int workdir_make(const char *name)
{
    snprintf(workdir, sizeof workdir, "/tmp/gemmkit-%s-XXXXXX", name);
    return mkdtemp(workdir) ? 0 : -1;
}

static inline int workdir_remove(void)
{
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", workdir);
    return system(command) == 0 ? 0 : -1;
}

/* The whole file workdir/NAME (malloc'd, NUL-terminated), or NULL. */
static inline char *slurp(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)size + 1, 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) text[0] = 0;
    fclose(f);
    return text;
}

/* The gemmkit under test: $GEMMKIT_CLI (e.g. another build), else this build's. */
static inline const char *cli_path(void)
{
    const char *env = getenv("GEMMKIT_CLI");
    return env && *env ? env : GEMMKIT_CLI_PATH;
}

/* Runs gemmkit with arguments (a shell fragment) after `prefix` (shell
 * commands and variables, e.g. "ulimit -f 4;"); stdout goes to out.txt
 * (or /dev/null) and stderr to err.txt in workdir. Returns the exit status. */
static inline int run_cli_after(const char *prefix, const char *args, int keep_stdout)
{
    char command[4096], out[300];
    snprintf(out, sizeof out, keep_stdout ? "%s/out.txt" : "/dev/null", workdir);
    snprintf(command, sizeof command, "%s '%s' %s >'%s' 2>'%s/err.txt'", prefix, cli_path(), args, out, workdir);
    const int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline int run_cli(const char *args) { return run_cli_after("", args, 1); }

#endif
