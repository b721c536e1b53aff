/* The device descriptions the dispatch tests choose kernels for without
 * opening a device: an H200 as NVIDIA's OpenCL reports it (the built-in tuning
 * lines' device), or a 2-core CPU. */
#ifndef GK_TEST_FAKE_DEVICE_H
#define GK_TEST_FAKE_DEVICE_H

#include <stdio.h>

#include "gemmkit.h"

static inline gemmkit_device_info device(int is_gpu)
{
    gemmkit_device_info info = {0};
    snprintf(info.backend, sizeof info.backend, "opencl");
    snprintf(info.name, sizeof info.name, is_gpu ? "NVIDIA H200" : "cpu-test-device");
    snprintf(info.vendor, sizeof info.vendor, is_gpu ? "NVIDIA Corporation" : "GenuineIntel");
    info.is_gpu = is_gpu;
    info.compute_units = is_gpu ? 132 : 2;
    info.local_mem_bytes = is_gpu ? 49152 : 65536;
    info.max_work_group_size = is_gpu ? 1024 : 4096;
    return info;
}

#endif
