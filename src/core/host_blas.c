/* Finds the host's CPU BLAS at run time (host_blas.h): the user's choice,
 * else the program's own, else an optimised one installed on the machine. */
#define _GNU_SOURCE /* dladdr, RTLD_NEXT, strcasestr */
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_blas.h"

static pthread_once_t find_once = PTHREAD_ONCE_INIT;
static gk_host_blas found;
static int have_found;

/* The family of a BLAS library, from its file name (symbolic links
 * resolved: Debian's libblas.so.3 is an alternative that may be OpenBLAS) or
 * a symbol only that family has; NULL for anything else (the reference BLAS). */
static const char *optimised_family(void *handle, const char *real_path)
{
    static const struct {
        const char *word, *symbol, *family;
    } families[] = {
        {"openblas", "openblas_get_config", "OpenBLAS"},
        {"blis", "bli_info_get_version_str", "BLIS"},
        {"mkl", "mkl_get_version_string", "MKL"},
    };
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strcasestr(real_path, families[i].word) || (handle && dlsym(handle, families[i].symbol)))
            return families[i].family;
    return NULL;
}

/* Takes `sgemm` (a symbol of the library `handle`) unless that library is a
 * gemmkit drop-in, which would call back into gemmkit. */
static int take(void *handle, void *sgemm, int named, const char *how)
{
    Dl_info where, ours;
    if (!sgemm || !dladdr(sgemm, &where)) return 0;
    if (dladdr((void *)gk_host_blas_find, &ours) && ours.dli_fbase == where.dli_fbase) return 0;
    void *marker = handle ? dlsym(handle, GK_HOST_BLAS_DROPIN_MARKER) : NULL;
    Dl_info marker_where;
    if (marker && dladdr(marker, &marker_where) && marker_where.dli_fbase == where.dli_fbase) return 0;

    char real_path[PATH_MAX];
    if (!where.dli_fname || !realpath(where.dli_fname, real_path))
        snprintf(real_path, sizeof real_path, "%s", where.dli_fname ? where.dli_fname : "?");
    const char *family = optimised_family(handle, real_path);
    found.sgemm = (gk_sgemm32_fn *)sgemm;
    found.sgemm64 = NULL;
    void *sgemm64 = handle ? dlsym(handle, "sgemm_64_") : NULL;
    Dl_info where64;
    if (sgemm64 && dladdr(sgemm64, &where64) && where64.dli_fbase == where.dli_fbase)
        found.sgemm64 = (gk_sgemm64_fn *)sgemm64;
    found.optimised = named || family;
    snprintf(found.name, sizeof found.name, "%s (%.400s, %s)", family ? family : "BLAS", real_path, how);
    return 1;
}

/* take() for a symbol found anywhere: its own library's handle. */
static int take_symbol(void *sgemm, const char *how)
{
    Dl_info where;
    if (!sgemm || !dladdr(sgemm, &where) || !where.dli_fname) return 0;
    void *handle = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    return handle && take(handle, sgemm, 0, how);
}

/* dl_iterate_phdr's callback over the loaded objects, in load order: 1 on the
 * first whose own sgemm_ is taken. */
static int take_loaded(struct dl_phdr_info *object, size_t size, void *data)
{
    (void)size, (void)data;
    if (!object->dlpi_name || !object->dlpi_name[0]) return 0; /* the program itself */
    void *handle = dlopen(object->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return 0;
    void *sgemm = dlsym(handle, "sgemm_");
    Dl_info where;
    /* dlsym also searches the object's dependencies: only its own symbol counts. */
    int own = sgemm && dladdr(sgemm, &where) && where.dli_fbase == (void *)object->dlpi_addr;
    int taken = own && take(handle, sgemm, 0, "loaded by the program");
    if (!taken) dlclose(handle);
    return taken;
}

/* dlopen'ed locally: its symbols stay out of the program's lookup order. */
static int take_library(const char *file, int named, const char *how)
{
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return 0;
    if (take(handle, dlsym(handle, "sgemm_"), named, how)) return 1;
    dlclose(handle);
    return 0;
}

static void find(void)
{
    const char *named = getenv("GEMMKIT_CPU_BLAS_LIB");
    if (named && *named) {
        if (!strcmp(named, "builtin")) return;
        if ((have_found = take_library(named, 1, "GEMMKIT_CPU_BLAS_LIB"))) return;
        const char *why = dlerror();
        fprintf(stderr, "gemmkit: GEMMKIT_CPU_BLAS_LIB=\"%s\" is not a usable BLAS (%s); looking for another\n", named,
                why ? why : "no sgemm_, or a gemmkit drop-in");
    }
    /* What the program would call without gemmkit: the next sgemm_ in the
     * lookup order, else one a library of the program loaded privately
     * (numpy loads its BLAS with RTLD_LOCAL). */
    if ((have_found = take_symbol(dlsym(RTLD_NEXT, "sgemm_"), "next in the symbol chain"))) return;
    if ((have_found = dl_iterate_phdr(take_loaded, NULL))) return;
    static const char *const installed[] = {"libopenblas.so.0", "libblis.so.4", "libblas.so.3"};
    for (size_t i = 0; i < sizeof installed / sizeof installed[0]; i++) {
        char how[64];
        snprintf(how, sizeof how, "found as %s", installed[i]);
        if (take_library(installed[i], 0, how)) {
            if (found.optimised) {
                have_found = 1;
                return;
            }
            /* The reference BLAS: gemmkit's own threaded loop is faster. */
            found = (gk_host_blas){0};
        }
    }
}

static atomic_int searched; /* 1 once find() ran: no pthread_once per call */

const gk_host_blas *gk_host_blas_find(void)
{
    if (!atomic_load_explicit(&searched, memory_order_acquire)) {
        pthread_once(&find_once, find);
        atomic_store_explicit(&searched, 1, memory_order_release);
    }
    return have_found ? &found : NULL;
}
