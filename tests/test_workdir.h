/* A temporary folder per command-line test program (the bench tests): made in
 * a group setup, removed whole in its teardown, and files read back whole. */
#ifndef GK_TEST_WORKDIR_H
#define GK_TEST_WORKDIR_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
