/* Status names and the per-thread record of the last failure. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_message[1024];
static _Thread_local char *last_build_log;

const char *gemmkit_strerror(gemmkit_status status)
{
    switch (status) {
    case GEMMKIT_SUCCESS: return "success";
    case GEMMKIT_ERROR_NULL_POINTER: return "null pointer argument";
    case GEMMKIT_ERROR_INVALID_LAYOUT: return "invalid layout";
    case GEMMKIT_ERROR_INVALID_TRANSPOSE: return "invalid transpose flag";
    case GEMMKIT_ERROR_INVALID_SIZE: return "invalid matrix size";
    case GEMMKIT_ERROR_INVALID_LEADING_DIM: return "leading dimension too small";
    case GEMMKIT_ERROR_SIZE_OVERFLOW: return "size overflows the index or byte range";
    case GEMMKIT_ERROR_BUFFER_TOO_SMALL: return "device buffer too small";
    case GEMMKIT_ERROR_OUT_OF_DEVICE_MEMORY: return "out of device memory";
    case GEMMKIT_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    case GEMMKIT_ERROR_BUILD_FAILED: return "kernel build failed";
    case GEMMKIT_ERROR_NO_DEVICE: return "no matching device";
    case GEMMKIT_ERROR_UNKNOWN_KERNEL: return "unknown kernel";
    case GEMMKIT_ERROR_INVALID_KERNEL_PARAMS: return "invalid kernel parameters";
    case GEMMKIT_ERROR_UNSUPPORTED_BY_DEVICE: return "kernel not supported by the device";
    case GEMMKIT_ERROR_UNSUPPORTED_BACKEND: return "backend not available";
    case GEMMKIT_ERROR_BACKEND_FAILURE: return "device driver call failed";
    case GEMMKIT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    }
    return "unknown status code";
}

const char *gemmkit_last_error_message(void) { return last_message; }

const char *gemmkit_last_build_log(void) { return last_build_log ? last_build_log : ""; }

gemmkit_status gk_fail(gemmkit_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(last_message, sizeof last_message, format, args);
    va_end(args);
    return status;
}

void gk_set_build_log(const char *log)
{
    free(last_build_log);
    last_build_log = NULL;
    if (log) {
        size_t len = strlen(log);
        last_build_log = malloc(len + 1);
        if (last_build_log) memcpy(last_build_log, log, len + 1);
    }
}

void gk_clear_error(void) { last_message[0] = '\0'; }
