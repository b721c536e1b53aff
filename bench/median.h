/* The median of a few timings, for the standalone bench programs
 * (call_time.c, multi_gpu.c). Sorts v in place. */
#ifndef GK_BENCH_MEDIAN_H
#define GK_BENCH_MEDIAN_H

#include <stdlib.h>

static int gk_by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static inline double gk_median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, gk_by_value);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

#endif
