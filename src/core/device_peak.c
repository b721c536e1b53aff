/* Device figures both backends derive the same way: NVIDIA's fp32 lanes per
 * multiprocessor and the peak rate. */
#include "backend.h"

int gk_nvidia_lanes_per_unit(int major, int minor)
{
    if (major == 3) return 192;
    if (major == 6 && minor == 0) return 64;
    if (major == 7 || (major == 8 && minor == 0)) return 64;
    return 128; /* Maxwell, Pascal 6.1+, Ampere 8.6+, Ada, Hopper, Blackwell */
}

double gk_peak_gflops(const gemmkit_device_info *info)
{
    return (double)info->compute_units * info->lanes_per_unit * 2.0 * info->clock_mhz / 1000.0;
}
