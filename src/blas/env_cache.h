/* getenv at the cost of a few comparisons when nothing changed. The drop-in
 * reads its settings at every call (a program may change them as it runs), and
 * two getenv calls cost about 120 ns (a scan of the environment each): as much
 * as OpenBLAS's whole 16 x 16 SGEMM. A cache remembers where in `environ` the
 * variable was found (or that it was absent) and revalidates that in O(1):
 * setenv replaces an entry's pointer or the array, unsetenv shifts the entries,
 * a putenv'ed buffer changed in place no longer matches the copy. Per thread,
 * so that concurrent calls share nothing. */
#ifndef GK_ENV_CACHE_H
#define GK_ENV_CACHE_H

#include <stddef.h>

typedef struct gk_env_cache {
    char **environment; /* `environ` when last scanned; NULL: never scanned */
    size_t index;       /* the variable's entry, or the terminating NULL's when absent */
    const char *entry;  /* environ[index] ("NAME=value"), NULL when absent */
    const char *value;  /* the text after '=' in entry, NULL when absent */
    char copy[128];     /* that entry's text, to notice a buffer changed in place */
    int too_long;       /* the entry did not fit the copy: no caching */
} gk_env_cache;

/* The value of `name` (as getenv), and *changed = 1 when it may differ from
 * the previous call's with this cache (always on the first call). */
const char *gk_env_cached(gk_env_cache *cache, const char *name, int *changed);

#endif
