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

/* Every family's names (host_blas.h). A new family is one more row here and
 * its entry points in the drop-in (src/blas). */
typedef struct gk_blas_family_names {
    const char *sgemm;   /* Fortran SGEMM with 32-bit INTEGERs, or NULL when the family has none */
    const char *sgemm64; /* with 64-bit INTEGERs, or NULL */
} gk_blas_family_names;

static const gk_blas_family_names family_names[GK_BLAS_FAMILIES] = {
    [GK_BLAS_PLAIN] = {"sgemm_", "sgemm_64_"},
    [GK_BLAS_SCIPY64] = {NULL, "scipy_sgemm_64_"},
    [GK_BLAS_SCIPY32] = {"scipy_sgemm_", NULL},
};

/* The symbol a library must have to serve the family: its 32-bit SGEMM, else its 64-bit one. */
static const char *key_symbol(gk_blas_family family)
{
    return family_names[family].sgemm ? family_names[family].sgemm : family_names[family].sgemm64;
}

static gk_host_blas found[GK_BLAS_FAMILIES];
static int have_found[GK_BLAS_FAMILIES];

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

/* The family's other SGEMM (`name`) when `handle`'s own library defines it. */
static void *same_library(void *handle, const char *name, const Dl_info *where)
{
    void *symbol = handle && name ? dlsym(handle, name) : NULL;
    Dl_info its;
    return symbol && dladdr(symbol, &its) && its.dli_fbase == where->dli_fbase ? symbol : NULL;
}

/* Takes `sgemm` (the family's key symbol, key_symbol(), of the library
 * `handle`) as the family's CPU BLAS unless that library is a gemmkit
 * drop-in, which would call back into gemmkit. */
static int take(gk_blas_family family, void *handle, void *sgemm, int named, const char *how)
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
    const char *kind = optimised_family(handle, real_path);
    const gk_blas_family_names *names = &family_names[family];
    gk_host_blas *out = &found[family];
    out->sgemm = names->sgemm ? (gk_sgemm32_fn *)sgemm : NULL;
    out->sgemm64 = names->sgemm ? (gk_sgemm64_fn *)same_library(handle, names->sgemm64, &where)
                                : (gk_sgemm64_fn *)sgemm;
    out->optimised = named || kind;
    /* The standard family's log line is as before; another names the symbol called. */
    char symbol[64] = "";
    if (family != GK_BLAS_PLAIN) snprintf(symbol, sizeof symbol, " %s", key_symbol(family));
    snprintf(out->name, sizeof out->name, "%s%s (%.400s, %s)", kind ? kind : "BLAS", symbol, real_path, how);
    return 1;
}

/* take() for a symbol found anywhere: its own library's handle. */
static int take_symbol(gk_blas_family family, void *sgemm, const char *how)
{
    Dl_info where;
    if (!sgemm || !dladdr(sgemm, &where) || !where.dli_fname) return 0;
    void *handle = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    return handle && take(family, handle, sgemm, 0, how);
}

/* dl_iterate_phdr's callback over the loaded objects, in load order: 1 on the
 * first whose own key symbol of the family (*data) is taken. */
static int take_loaded(struct dl_phdr_info *object, size_t size, void *data)
{
    (void)size;
    const gk_blas_family family = *(const gk_blas_family *)data;
    if (!object->dlpi_name || !object->dlpi_name[0]) return 0; /* the program itself */
    void *handle = dlopen(object->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return 0;
    void *sgemm = dlsym(handle, key_symbol(family));
    Dl_info where;
    /* dlsym also searches the object's dependencies: only its own symbol counts. */
    int own = sgemm && dladdr(sgemm, &where) && where.dli_fbase == (void *)object->dlpi_addr;
    int taken = own && take(family, handle, sgemm, 0, "loaded by the program");
    if (!taken) dlclose(handle);
    return taken;
}

/* dlopen'ed locally: its symbols stay out of the program's lookup order. */
static int take_library(gk_blas_family family, const char *file, int named, const char *how)
{
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return 0;
    if (take(family, handle, dlsym(handle, key_symbol(family)), named, how)) return 1;
    dlclose(handle);
    return 0;
}

/* What the program would call without gemmkit: the next definition of the
 * family's SGEMM in the lookup order, else one a library of the program
 * loaded privately (numpy loads its BLAS with RTLD_LOCAL). */
static int take_programs(gk_blas_family family)
{
    if (take_symbol(family, dlsym(RTLD_NEXT, key_symbol(family)), "next in the symbol chain")) return 1;
    return dl_iterate_phdr(take_loaded, &family);
}

static void find_plain(void)
{
    gk_host_blas *const out = &found[GK_BLAS_PLAIN];
    int *const have = &have_found[GK_BLAS_PLAIN];
    const char *named = getenv("GEMMKIT_CPU_BLAS_LIB");
    if (named && *named) {
        if (!strcmp(named, "builtin")) return;
        if ((*have = take_library(GK_BLAS_PLAIN, named, 1, "GEMMKIT_CPU_BLAS_LIB"))) return;
        const char *why = dlerror();
        fprintf(stderr, "gemmkit: GEMMKIT_CPU_BLAS_LIB=\"%s\" is not a usable BLAS (%s); looking for another\n", named,
                why ? why : "no sgemm_, or a gemmkit drop-in");
    }
    if ((*have = take_programs(GK_BLAS_PLAIN))) return;
    static const char *const installed[] = {"libopenblas.so.0", "libblis.so.4", "libblas.so.3"};
    for (size_t i = 0; i < sizeof installed / sizeof installed[0]; i++) {
        char how[64];
        snprintf(how, sizeof how, "found as %s", installed[i]);
        if (take_library(GK_BLAS_PLAIN, installed[i], 0, how)) {
            if (out->optimised) {
                *have = 1;
                return;
            }
            /* The reference BLAS: gemmkit's own threaded loop is faster. */
            *out = (gk_host_blas){0};
        }
    }
}

/* Another family: its own SGEMM where the user's library or the program has
 * it; otherwise the standard search decides (the library that the user
 * named, the program's BLAS or an installed one), so that a family's call
 * never lands in gemmkit's own loop while the process has a CPU BLAS. */
static void find_other(gk_blas_family family)
{
    const char *named = getenv("GEMMKIT_CPU_BLAS_LIB");
    const int user = named && *named;
    if (user && !strcmp(named, "builtin")) return;
    if (user && (have_found[family] = take_library(family, named, 1, "GEMMKIT_CPU_BLAS_LIB"))) return;
    /* The program's own library first: the standard search may load another
     * BLAS (libopenblas.so.0 ...), whose thread pool would then compete with
     * the program's for the cores. The user's library serves every family,
     * through its standard names when it lacks this family's. */
    if (!user && (have_found[family] = take_programs(family))) return;
    const gk_host_blas *standard = gk_host_blas_find();
    if (standard) found[family] = *standard, have_found[family] = 1;
}

static void find_scipy64(void) { find_other(GK_BLAS_SCIPY64); }
static void find_scipy32(void) { find_other(GK_BLAS_SCIPY32); }

static pthread_once_t find_once[GK_BLAS_FAMILIES] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static void (*const finders[GK_BLAS_FAMILIES])(void) = {
    [GK_BLAS_PLAIN] = find_plain, [GK_BLAS_SCIPY64] = find_scipy64, [GK_BLAS_SCIPY32] = find_scipy32};

static atomic_int searched[GK_BLAS_FAMILIES]; /* 1 once a family's search ran: no pthread_once per call */

const gk_host_blas *gk_host_blas_find_family(gk_blas_family family)
{
    if ((unsigned)family >= GK_BLAS_FAMILIES) return NULL;
    if (!atomic_load_explicit(&searched[family], memory_order_acquire)) {
        pthread_once(&find_once[family], finders[family]);
        atomic_store_explicit(&searched[family], 1, memory_order_release);
    }
    return have_found[family] ? &found[family] : NULL;
}

const gk_host_blas *gk_host_blas_find(void) { return gk_host_blas_find_family(GK_BLAS_PLAIN); }
