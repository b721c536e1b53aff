/* The CUDA runtime, cuBLAS and cuBLASXt functions the multi-GPU benchmark
 * uses, loaded with dlopen (no CUDA headers or libraries at build time);
 * values from cuda_runtime_api.h, cublas_api.h and cublasXt.h. */
#ifndef GK_MULTI_GPU_CUDA_API_H
#define GK_MULTI_GPU_CUDA_API_H

#include <stddef.h>

#include "multi_gpu.h"

enum { MG_CUDA_HOST_TO_DEVICE = 1, MG_CUDA_DEVICE_TO_HOST = 2, MG_CUDA_HOST_ALLOC_PORTABLE = 1 };
enum { MG_CUBLAS_OP_N = 0, MG_CUBLAS_PEDANTIC_MATH = 2 };

struct mg_cuda {
    void *cudart, *cublas;
    int devices;
    char version[256];
    char cublas_why[MG_ERR]; /* why cuBLAS is absent ("" when loaded) */
    int (*get_device_count)(int *);
    int (*set_device)(int);
    const char *(*error_string)(int);
    int (*runtime_version)(int *);
    int (*host_alloc)(void **, size_t, unsigned);
    int (*free_host)(void *);
    int (*malloc_)(void **, size_t);
    int (*free_)(void *);
    int (*memcpy_)(void *, const void *, size_t, int);
    int (*synchronize)(void);
    int (*mem_get_info)(size_t *, size_t *);
    /* cuBLAS (NULL when cublas_why says why) */
    int (*create)(void **);
    int (*destroy)(void *);
    int (*get_version)(void *, int *);
    int (*set_math_mode)(void *, int);
    int (*sgemm)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                 const float *, float *, int);
    int (*xt_create)(void **);
    int (*xt_destroy)(void *);
    int (*xt_device_select)(void *, int, int *);
    int (*xt_set_block_dim)(void *, int);
    int (*xt_sgemm)(void *, int, int, size_t, size_t, size_t, const float *, const float *, size_t, const float *,
                    size_t, const float *, float *, size_t);
};

/* "what failed: CUDA error N (text)" into err. Returns -1. */
int mg_cuda_fail(const mg_cuda *cu, char *err, const char *what, int code);

#endif
