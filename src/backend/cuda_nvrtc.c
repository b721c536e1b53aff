/* NVRTC, loaded with dlopen so gemmkit runs where it is absent: compiles a
 * translated OpenCL C kernel to CUBIN for the device's architecture (PTX for
 * a device newer than this NVRTC). Runs on the CPU; needs no GPU. */
#include <ctype.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "status.h"

#define GK_STR_(x) #x
#define GK_STR(x) GK_STR_(x)

#ifndef GK_CUDA_LIBDIR
#define GK_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif
#define GK_NVRTC_SONAME "libnvrtc.so." GK_STR(GK_CUDA_MAJOR)

/* The function table, typed from nvrtc.h. */
#define GK_NVRTC_FUNCTIONS(X)                                                                      \
    X(nvrtcVersion)                                                                                \
    X(nvrtcGetErrorString)                                                                         \
    X(nvrtcGetNumSupportedArchs)                                                                   \
    X(nvrtcGetSupportedArchs)                                                                      \
    X(nvrtcCreateProgram)                                                                          \
    X(nvrtcDestroyProgram)                                                                         \
    X(nvrtcCompileProgram)                                                                         \
    X(nvrtcGetProgramLogSize)                                                                      \
    X(nvrtcGetProgramLog)                                                                          \
    X(nvrtcGetPTXSize)                                                                             \
    X(nvrtcGetPTX)                                                                                 \
    X(nvrtcGetCUBINSize)                                                                           \
    X(nvrtcGetCUBIN)

static struct {
    pthread_once_t once;
    void *lib;
    char error[768];
    int major, minor;
    int archs[64];
    int arch_count;
#define GK_DECLARE(name) __typeof__(name) *name;
    GK_NVRTC_FUNCTIONS(GK_DECLARE)
#undef GK_DECLARE
} nv = {.once = PTHREAD_ONCE_INIT};

static void *open_nvrtc(void)
{
    const char *env = getenv("GEMMKIT_NVRTC");
    const char *candidates[] = {env && *env ? env : NULL, GK_NVRTC_SONAME, "libnvrtc.so",
                                GK_CUDA_LIBDIR "/" GK_NVRTC_SONAME,
                                "/usr/local/cuda/lib64/" GK_NVRTC_SONAME,
                                "/usr/local/cuda/lib64/libnvrtc.so"};
    char tried[512] = "";
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        if (!candidates[i]) continue;
        void *lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        if (lib) return lib;
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", candidates[i]);
    }
    snprintf(nv.error, sizeof nv.error,
             "NVRTC could not be loaded (tried %s); install the CUDA toolkit's NVRTC or set "
             "GEMMKIT_NVRTC to the library's path",
             tried);
    return NULL;
}

static void load(void)
{
    nv.lib = open_nvrtc();
    if (!nv.lib) return;
    const char *missing = NULL;
#define GK_LOAD(name)                                                                              \
    {                                                                                              \
        void *sym = dlsym(nv.lib, #name);                                                          \
        if (!sym && !missing) missing = #name;                                                     \
        memcpy(&nv.name, &sym, sizeof sym);                                                        \
    }
    GK_NVRTC_FUNCTIONS(GK_LOAD)
#undef GK_LOAD
    if (missing) {
        snprintf(nv.error, sizeof nv.error, "the NVRTC library lacks %s (too old?)", missing);
        dlclose(nv.lib);
        nv.lib = NULL;
        return;
    }
    nv.nvrtcVersion(&nv.major, &nv.minor);
    int count = 0;
    if (nv.nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0 &&
        count <= (int)(sizeof nv.archs / sizeof nv.archs[0]) &&
        nv.nvrtcGetSupportedArchs(nv.archs) == NVRTC_SUCCESS)
        nv.arch_count = count;
}

gemmkit_status gk_cuda_nvrtc_load(void)
{
    pthread_once(&nv.once, load);
    if (!nv.lib) return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BACKEND, "%s", nv.error);
    return GEMMKIT_SUCCESS;
}

void gk_cuda_nvrtc_version(int *major, int *minor)
{
    *major = nv.major;
    *minor = nv.minor;
}

/* sm_XY when NVRTC knows the architecture; otherwise PTX for the newest one
 * it knows below it, which the driver compiles for the device. sm_XYa (the
 * architecture-specific instructions, e.g. wgmma) when asked: exact only. */
static gemmkit_status pick_target(int arch, int specific, gk_cuda_image *image)
{
    int best = 0, exact = 0;
    for (int i = 0; i < nv.arch_count; i++) {
        if (nv.archs[i] == arch) exact = 1;
        if (nv.archs[i] <= arch && nv.archs[i] > best) best = nv.archs[i];
    }
    if (nv.arch_count == 0) exact = 1; /* no list: let NVRTC decide */
    if (!exact && best == 0)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "NVRTC %d.%d cannot compile for compute capability %d.%d (its oldest is %d.%d)",
                       nv.major, nv.minor, arch / 10, arch % 10, nv.archs[0] / 10, nv.archs[0] % 10);
    if (specific && !exact)
        return gk_fail(GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE,
                       "NVRTC %d.%d cannot compile sm_%da (architecture-specific instructions) for this device",
                       nv.major, nv.minor, arch);
    image->is_cubin = exact;
    snprintf(image->target, sizeof image->target, "%s_%d%s", exact ? "sm" : "compute", exact ? arch : best,
             specific ? "a" : "");
    return GEMMKIT_SUCCESS;
}

/* NVRTC's options; one block holds their text. */
typedef struct nvrtc_options {
    const char *argv[GK_MAX_DEFINES + 8];
    int argc;
    char storage[2048];
    size_t used;
} nvrtc_options;

static int add_option(nvrtc_options *o, const char *text)
{
    size_t n = strlen(text);
    if (o->argc >= (int)(sizeof o->argv / sizeof o->argv[0]) || o->used + n + 1 > sizeof o->storage) return 0;
    char *dst = o->storage + o->used;
    memcpy(dst, text, n + 1);
    o->used += n + 1;
    o->argv[o->argc++] = dst;
    return 1;
}

static int is_identifier(const char *name)
{
    if (!name || !(isalpha((unsigned char)*name) || *name == '_')) return 0;
    for (const char *c = name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_')) return 0;
    return 1;
}

/* The target, C++17, helper functions as device functions, then one -D per define. */
static gemmkit_status nvrtc_arguments(const gk_define *defines, unsigned count, const gk_cuda_image *image,
                                      nvrtc_options *o)
{
    char option[160];
    snprintf(option, sizeof option, "--gpu-architecture=%s", image->target);
    int ok = add_option(o, option) && add_option(o, "-default-device") && add_option(o, "--std=c++17");
    for (unsigned i = 0; ok && i < count; i++) {
        if (!is_identifier(defines[i].name))
            return gk_fail(GEMMKIT_ERROR_BUILD_FAILED, "the define name \"%s\" is not an identifier",
                           defines[i].name ? defines[i].name : "(null)");
        snprintf(option, sizeof option, "-D%s=%lld", defines[i].name, (long long)defines[i].value);
        ok = add_option(o, option);
    }
    if (!ok) return gk_fail(GEMMKIT_ERROR_BUILD_FAILED, "too many or too long defines (%u)", count);
    return GEMMKIT_SUCCESS;
}

static char *program_log(nvrtcProgram program)
{
    size_t size = 0;
    if (nv.nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS) size = 0;
    char *log = malloc(size + 1);
    if (!log) return NULL;
    log[0] = '\0';
    if (size > 0 && nv.nvrtcGetProgramLog(program, log) != NVRTC_SUCCESS) log[0] = '\0';
    log[size] = '\0';
    return log;
}

static gemmkit_status take_output(nvrtcProgram program, gk_cuda_image *image)
{
    size_t size = 0;
    nvrtcResult r = image->is_cubin ? nv.nvrtcGetCUBINSize(program, &size) : nv.nvrtcGetPTXSize(program, &size);
    if (r != NVRTC_SUCCESS || size == 0)
        return gk_fail(GEMMKIT_ERROR_BACKEND_FAILURE, "NVRTC returned no %s: %s",
                       image->is_cubin ? "CUBIN" : "PTX", nv.nvrtcGetErrorString(r));
    image->data = malloc(size + 1);
    if (!image->data) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating %zu bytes of CUBIN/PTX", size);
    r = image->is_cubin ? nv.nvrtcGetCUBIN(program, image->data) : nv.nvrtcGetPTX(program, image->data);
    if (r != NVRTC_SUCCESS) {
        free(image->data);
        image->data = NULL;
        return gk_fail(GEMMKIT_ERROR_BACKEND_FAILURE, "reading NVRTC's output: %s", nv.nvrtcGetErrorString(r));
    }
    image->data[size] = '\0';
    image->size = size;
    return GEMMKIT_SUCCESS;
}

gemmkit_status gk_cuda_compile_source(const char *source, const gk_define *defines, unsigned define_count, int arch,
                                      gk_cuda_image *image, char **log)
{
    if (log) *log = NULL;
    memset(image, 0, sizeof *image);
    GK_TRY(gk_cuda_nvrtc_load());
    int specific = 0;
    for (unsigned i = 0; i < define_count; i++)
        if (strcmp(defines[i].name, "GK_ARCH_SPECIFIC") == 0) specific = defines[i].value != 0;
    GK_TRY(pick_target(arch, specific, image));
    nvrtc_options opts = {.argc = 0, .used = 0};
    GK_TRY(nvrtc_arguments(defines, define_count, image, &opts));
    char *text = gk_cuda_translate(source);
    if (!text) return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "translating the kernel source for CUDA");

    nvrtcProgram program = NULL;
    nvrtcResult r = nv.nvrtcCreateProgram(&program, text, "gemmkit_kernel.cu", 0, NULL, NULL);
    free(text);
    if (r != NVRTC_SUCCESS)
        return gk_fail(r == NVRTC_ERROR_OUT_OF_MEMORY ? GEMMKIT_ERROR_OUT_OF_HOST_MEMORY : GEMMKIT_ERROR_BACKEND_FAILURE,
                       "nvrtcCreateProgram: %s", nv.nvrtcGetErrorString(r));
    r = nv.nvrtcCompileProgram(program, opts.argc, opts.argv);
    char *text_log = program_log(program);
    gemmkit_status status = GEMMKIT_SUCCESS;
    if (r == NVRTC_ERROR_COMPILATION || r == NVRTC_ERROR_INVALID_OPTION) {
        status = gk_fail(GEMMKIT_ERROR_BUILD_FAILED, "NVRTC (%s) failed: %s", image->target, nv.nvrtcGetErrorString(r));
    } else if (r != NVRTC_SUCCESS) {
        status = gk_fail(GEMMKIT_ERROR_BACKEND_FAILURE, "nvrtcCompileProgram: %s", nv.nvrtcGetErrorString(r));
    } else {
        status = take_output(program, image);
    }
    nv.nvrtcDestroyProgram(&program);
    if (log && text_log && text_log[0]) *log = text_log;
    else free(text_log);
    return status;
}
