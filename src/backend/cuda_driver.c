/* Loads libcuda.so.1 at run time and calls cuInit once; without an NVIDIA
 * driver the CUDA backend reports that clearly instead of failing to link. */
#include "cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

#define GK_STR_(x) #x
#define GK_STR(x) GK_STR_(x)

static struct {
    pthread_once_t once;
    void *lib;
    gk_cu_api api;
    gemmkit_status status;
    char error[512];
} driver = {.once = PTHREAD_ONCE_INIT};

static void *load_symbol(void *lib, const char *versioned, const char *plain)
{
    void *sym = dlsym(lib, versioned);
    /* cuEventElapsedTime_v2 is recent; older drivers have the same call unversioned. */
    if (!sym && strcmp(plain, "cuEventElapsedTime") == 0) sym = dlsym(lib, plain);
    return sym;
}

static void load(void)
{
    const char *env = getenv("GEMMKIT_LIBCUDA");
    const char *path = env && *env ? env : "libcuda.so.1";
    driver.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!driver.lib) {
        const char *why = dlerror();
        snprintf(driver.error, sizeof driver.error,
                 "the NVIDIA driver library %s could not be loaded (%s): no CUDA devices here", path,
                 why ? why : "not found");
        driver.status = GEMMKIT_ERROR_NO_DEVICE;
        return;
    }
    const char *missing = NULL;
#define GK_CU_LOAD(name)                                                                           \
    {                                                                                              \
        void *sym = load_symbol(driver.lib, GK_STR(name), #name);                                  \
        if (!sym && !missing) missing = GK_STR(name);                                              \
        memcpy(&driver.api.name, &sym, sizeof sym);                                                \
    }
    GK_CU_FUNCTIONS(GK_CU_LOAD)
#undef GK_CU_LOAD
    if (missing) {
        snprintf(driver.error, sizeof driver.error,
                 "the NVIDIA driver library %s lacks %s: the driver is older than CUDA %d.%d", path,
                 missing, CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
        driver.status = GEMMKIT_ERROR_UNSUPPORTED_BACKEND;
        return;
    }
    CUresult r = driver.api.cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        driver.status = GEMMKIT_SUCCESS; /* a driver without devices: count 0 */
        return;
    }
    if (r != CUDA_SUCCESS) {
        const char *name = NULL, *text = NULL;
        driver.api.cuGetErrorName(r, &name);
        driver.api.cuGetErrorString(r, &text);
        snprintf(driver.error, sizeof driver.error, "cuInit failed: %s (%d): %s%s", name ? name : "?", (int)r,
                 text ? text : "",
                 r == CUDA_ERROR_STUB_LIBRARY ? " (a stub libcuda is on the library path, no real driver)" : "");
        driver.status = (r == CUDA_ERROR_STUB_LIBRARY || r == CUDA_ERROR_NO_DEVICE) ? GEMMKIT_ERROR_NO_DEVICE
                                                                                    : GEMMKIT_ERROR_BACKEND_FAILURE;
        return;
    }
    driver.status = GEMMKIT_SUCCESS;
}

gemmkit_status gk_cu_load(const gk_cu_api **api)
{
    pthread_once(&driver.once, load);
    if (driver.status != GEMMKIT_SUCCESS) return gk_fail(driver.status, "%s", driver.error);
    *api = &driver.api;
    return GEMMKIT_SUCCESS;
}

const char *gk_cu_error_name(CUresult result)
{
    static _Thread_local char text[160];
    const char *name = NULL, *description = NULL;
    if (driver.api.cuGetErrorName) driver.api.cuGetErrorName(result, &name);
    if (driver.api.cuGetErrorString) driver.api.cuGetErrorString(result, &description);
    snprintf(text, sizeof text, "%s (%d): %s", name ? name : "CUDA error", (int)result,
             description ? description : "");
    return text;
}

gemmkit_status gk_cu_fail(CUresult result, const char *what)
{
    gemmkit_status status = result == CUDA_ERROR_OUT_OF_MEMORY ? GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY
                                                               : GEMMKIT_ERROR_BACKEND_FAILURE;
    return gk_fail(status, "CUDA %s failed: %s", what, gk_cu_error_name(result));
}
