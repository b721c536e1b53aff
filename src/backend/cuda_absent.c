/* Stands in for the CUDA backend when gemmkit is built without CUDA. */
#include "backend.h"
#include "cuda_interop.h"
#include "cuda_internal.h"
#include "status.h"

const gk_backend_ops *gk_backend_cuda(void) { return 0; }

gemmkit_status gk_cuda_nvrtc_load(void)
{
    return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "gemmkit was built without the CUDA backend");
}

void gk_cuda_nvrtc_version(int *major, int *minor)
{
    *major = 0;
    *minor = 0;
}

gemmkit_status gk_cuda_compile_source(const char *source, const gk_define *defines, unsigned define_count, int arch,
                                      gk_cuda_image *image, char **log)
{
    (void)source;
    (void)defines;
    (void)define_count;
    (void)arch;
    (void)image;
    if (log) *log = 0;
    return gk_cuda_nvrtc_load();
}

gemmkit_status gk_cuda_open_on_context(void *context, int *index, gk_device **device)
{
    (void)context;
    (void)index;
    (void)device;
    return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "gemmkit was built without the CUDA backend");
}

gemmkit_status gk_cuda_check_stream(gk_device *device, void *stream)
{
    (void)device;
    (void)stream;
    return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "gemmkit was built without the CUDA backend");
}
