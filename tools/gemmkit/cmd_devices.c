/* `gemmkit devices`: every device of every backend with its key properties. */
#include <stdio.h>

#include "cli.h"

static void list_backend(gemmkit_backend backend, const char *name)
{
    int count = 0;
    gemmkit_status status = gemmkit_device_count(backend, &count);
    if (status != GEMMKIT_SUCCESS) {
        printf("%s: %s\n", name, gemmkit_last_error_message());
        return;
    }
    printf("%s: %d device(s)\n", name, count);
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        if (gemmkit_device_get_info(backend, i, &info) != GEMMKIT_SUCCESS) continue;
        printf("  [%d] %s | %s (%s)\n", i, info.platform, info.name, info.is_gpu ? "GPU" : "CPU/other");
        printf("      driver %s; %d compute units at %d MHz; local memory %zu KiB; work-groups up to %zu\n",
               info.driver_version, info.compute_units, info.clock_mhz, info.local_mem_bytes / 1024,
               info.max_work_group_size);
        printf("      global memory %.1f GiB (max buffer %.1f GiB); fp32 peak ~%.0f GFLOPS = %d units x %d lanes x 2 x %d MHz\n",
               info.global_mem_bytes / 1073741824.0, info.max_alloc_bytes / 1073741824.0, info.peak_gflops,
               info.compute_units, info.lanes_per_unit, info.clock_mhz);
    }
}

void gk_devices_usage(FILE *out)
{
    fprintf(out, "usage: gemmkit devices\n"
                 "  Every OpenCL and CUDA device: platform, name, compute units, clock, local and\n"
                 "  global memory, work-group limit and estimated fp32 peak. The index in brackets\n"
                 "  is what --device and GEMMKIT_DEVICE take. No options.\n");
}

int gk_cmd_devices(const gk_cli *cli)
{
    if (cli->argc) return gk_cli_usage_error("devices", "unexpected argument \"%s\" (it takes none)", cli->argv[0]);
    list_backend(GEMMKIT_BACKEND_OPENCL, "OpenCL");
    list_backend(GEMMKIT_BACKEND_CUDA, "CUDA");
    return GK_EXIT_OK;
}
