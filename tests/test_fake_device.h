/* The device descriptions the dispatch tests choose kernels for without
 * opening a device: an H200 as NVIDIA's OpenCL reports it (the built-in tuning
 * lines' device; its peak rate is what the cost model gives a line with neither
 * constants nor a tuned score, cost_model.h), or a 2-core CPU. */
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
    if (is_gpu) {
        /* 132 SMs x 128 fp32 lanes x 2 (FMA) x 1980 MHz: 66.9 TFLOPS, as gk_peak_gflops computes it. */
        info.lanes_per_unit = 128;
        info.clock_mhz = 1980;
        info.peak_gflops = (double)info.compute_units * info.lanes_per_unit * 2.0 * info.clock_mhz / 1000.0;
    }
    return info;
}

#endif
