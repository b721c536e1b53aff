/* See env_cache.h. */
#include "env_cache.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static int still_valid(const gk_env_cache *c)
{
    if (!c->environment || c->environment != environ || c->too_long) return 0;
    if (!c->entry) return environ[c->index] == NULL; /* absent: the array did not grow */
    return environ[c->index] == c->entry && strcmp(c->entry, c->copy) == 0;
}

const char *gk_env_cached(gk_env_cache *c, const char *name, int *changed)
{
    if (still_valid(c)) {
        *changed = 0;
        return c->value;
    }
    const size_t len = strlen(name);
    *changed = 1;
    c->environment = environ;
    c->entry = c->value = NULL;
    c->too_long = 0;
    size_t i = 0;
    for (; environ && environ[i]; i++)
        if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=') break;
    c->index = i;
    if (!environ || !environ[i]) return NULL;
    c->entry = environ[i];
    c->too_long = strlen(c->entry) >= sizeof c->copy;
    if (!c->too_long) strcpy(c->copy, c->entry);
    return c->value = c->entry + len + 1;
}
