/* The BLAS error handlers the drop-in reports illegal arguments through (the
 * standard names, so an application can supply its own). */
#ifndef GK_BLAS_ERRORS_H
#define GK_BLAS_ERRORS_H

#include <stddef.h>

#include "gemmkit.h"

/* Fortran XERBLA(SRNAME, INFO): srname is a blank-padded Fortran string whose
 * length comes as gfortran's hidden trailing argument. */
GEMMKIT_API void xerbla_(const char *srname, const int *info, size_t srname_len);

/* CBLAS: p is the 1-based position of the bad argument in the cblas_ call. */
GEMMKIT_API void cblas_xerbla(int p, const char *rout, const char *form, ...);

#endif
