/* A kernel's local memory as the device's OpenCL compiler reports it (CL_KERNEL_LOCAL_MEM_SIZE), against the
 * registry's local_mem_bytes: the figure the library checks a configuration against the device's local memory
 * with must be the kernel's own declaration (test_batched.c, test_xgemm_direct.c). */
#ifndef GK_TEST_LOCAL_MEMORY_H
#define GK_TEST_LOCAL_MEMORY_H

#include "gemmkit_cl.h"
#include "kernel_config.h"
#include "test_support.h"

/* What an implementation may add per kernel to the arrays it declares: PoCL none, NVIDIA's OpenCL 4 to 16 bytes. */
#define TEST_LOCAL_MEMORY_SLACK 64

/* Builds def's source on the test context's OpenCL device with `config`'s defines and `problem` (more -D options),
 * and asserts that the kernel takes the registry's local memory at m x n x k (exactly, up to the implementation's
 * own per-kernel bytes) and the registry's work-group size. Skips the test on another backend. */
static inline void assert_local_memory_is_registry(const gk_kernel_def *def, const gk_config *config,
                                                   const char *problem, int64_t m, int64_t n, int64_t k)
{
    cl_context cl = NULL;
    if (gemmkit_cl_handles(test_ctx, &cl, NULL) != GEMMKIT_SUCCESS) skip_because("not on the OpenCL backend");
    cl_device_id device;
    assert_int_equal(clGetContextInfo(cl, CL_CONTEXT_DEVICES, sizeof device, &device, NULL), CL_SUCCESS);
    gk_geometry g;
    assert_int_equal(gk_config_geometry(config, m, n, k, &g), GEMMKIT_SUCCESS);
    gk_define defines[GK_MAX_DEFINES];
    char built[512], options[sizeof built + 256];
    gk_defines_text(defines, gk_config_defines(config, defines), built, sizeof built); /* plan-only ones left out */
    snprintf(options, sizeof options, "%s %s", built, problem);
    const char *source = gk_kernel_source(def->source);
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(cl, 1, &source, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) print_error("%s: build with \"%s\": error %d\n", def->name, options, err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel kernel = clCreateKernel(program, def->function, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_ulong local = 0;
    size_t required[3] = {0};
    assert_int_equal(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof required,
                                              required, NULL),
                     CL_SUCCESS);
    if ((int64_t)local < g.local_mem_bytes || (int64_t)local > g.local_mem_bytes + TEST_LOCAL_MEMORY_SLACK)
        print_error("%s with \"%s\": the kernel takes %llu bytes, the registry says %lld\n", def->name, options,
                    (unsigned long long)local, (long long)g.local_mem_bytes);
    assert_true((int64_t)local >= g.local_mem_bytes && (int64_t)local <= g.local_mem_bytes + TEST_LOCAL_MEMORY_SLACK);
    assert_int_equal((int64_t)required[0], g.local_x);
    assert_int_equal((int64_t)required[1], g.local_y);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

#endif
