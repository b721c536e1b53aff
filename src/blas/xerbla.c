/* Default BLAS error handlers, weak so that an application's own xerbla_ or
 * cblas_xerbla replaces them as with any BLAS. Unlike the reference (which
 * stops the program), they only print: the library never exits. */
#include <stdarg.h>
#include <stdio.h>

#include "blas_errors.h"

/* The reference XERBLA's message, on stderr rather than stdout (a library's
 * diagnostics must not mix into the program's output). srname is a Fortran
 * string of srname_len characters, not NUL-terminated. */
GEMMKIT_API __attribute__((weak)) void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    int len = srname_len > 32 ? 32 : (int)srname_len;
    fprintf(stderr, " ** On entry to %-6.*s parameter number %2d had an illegal value\n", len, srname, *info);
}

/* The reference CBLAS message; `form` adds the details. */
GEMMKIT_API __attribute__((weak)) void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    va_list args;
    va_start(args, form);
    if (p) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
    vfprintf(stderr, form, args);
    va_end(args);
}
