/* Illegal arguments go to the error handler the program already has: its
 * XERBLA (xerbla_, or xerbla_64_ for the 64-bit entry point) or
 * cblas_xerbla, found at run time. The drop-in defines none itself, so it
 * never replaces a handler (numpy's LAPACK raises ValueError through its
 * own). With no handler anywhere, the reference message is printed on stderr
 * and the call returns: unlike the reference handlers the fallback does not
 * stop the program, a library never exits. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

#include "blas_dropin.h"

typedef void xerbla_fn(const char *srname, const int *info, size_t srname_len);
typedef void xerbla64_fn(const char *srname, const int64_t *info, size_t srname_len);
typedef void cblas_xerbla_fn(int p, const char *rout, const char *form, ...);

/* Weak references: never definitions, so nothing is exported, but a program
 * that defines a handler and links this library exports it (the linker sees
 * a shared library refer to it), and a statically linked program's handler
 * is bound here directly. */
extern xerbla_fn xerbla_ __attribute__((weak));
extern xerbla64_fn xerbla_64_ __attribute__((weak));
extern cblas_xerbla_fn cblas_xerbla __attribute__((weak));
extern int RowMajorStrg __attribute__((weak));

/* The handler bound at load time, else one a library loaded since then
 * made global. */
static void *handler(void *bound, const char *name) { return bound ? bound : dlsym(RTLD_DEFAULT, name); }

void gk_blas_report_f77(const char *routine, int info, int ilp64)
{
    char name[8];
    snprintf(name, sizeof name, "%-6.6s", routine); /* blank-padded, as Fortran passes it */
    xerbla64_fn *h64 = ilp64 ? (xerbla64_fn *)handler((void *)xerbla_64_, "xerbla_64_") : NULL;
    if (h64) {
        const int64_t info64 = info;
        h64(name, &info64, 6);
        return;
    }
    xerbla_fn *h = (xerbla_fn *)handler((void *)xerbla_, "xerbla_");
    if (h) {
        h(name, &info, 6);
        return;
    }
    fprintf(stderr, " ** On entry to %-6s parameter number %2d had an illegal value\n", name, info);
}

int *gk_blas_row_major_flag(void) { return (int *)handler((void *)&RowMajorStrg, "RowMajorStrg"); }

void gk_blas_report_cblas(int position, const char *routine, const char *form, ...)
{
    char details[128];
    va_list args;
    va_start(args, form);
    vsnprintf(details, sizeof details, form, args);
    va_end(args);
    cblas_xerbla_fn *h = (cblas_xerbla_fn *)handler((void *)cblas_xerbla, "cblas_xerbla");
    if (h) {
        h(position, routine, "%s", details);
        return;
    }
    fprintf(stderr, "Parameter %d to routine %s was incorrect\n%s", position, routine, details);
}
