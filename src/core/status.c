/* Status names and the per-thread record of the last failure. */
#include "status.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_message[1024];

/* The build log is heap memory of any size, so it hangs off a pthread key
 * whose destructor frees it when the thread exits (a _Thread_local pointer
 * would leak it with every thread that ever saw a failed build). */
static pthread_key_t build_log_key;
static pthread_once_t build_log_once = PTHREAD_ONCE_INIT;
static int build_log_key_ok;

static void create_build_log_key(void) { build_log_key_ok = pthread_key_create(&build_log_key, free) == 0; }

static char *current_build_log(void)
{
    pthread_once(&build_log_once, create_build_log_key);
    return build_log_key_ok ? pthread_getspecific(build_log_key) : NULL;
}

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
    case GEMMKIT_ERROR_UNSUPPORTED_MATH: return "math mode not supported by the device";
    }
    return "unknown status code";
}

const char *gemmkit_last_error_message(void) { return last_message; }

const char *gemmkit_last_build_log(void)
{
    const char *log = current_build_log();
    return log ? log : "";
}

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
    char *old = current_build_log();
    if (!build_log_key_ok) return;
    char *copy = NULL;
    if (log) {
        size_t len = strlen(log);
        copy = malloc(len + 1);
        if (copy) memcpy(copy, log, len + 1);
    }
    if (pthread_setspecific(build_log_key, copy) != 0) {
        free(copy);
        return; /* keep the old log rather than lose track of it */
    }
    free(old);
}

void gk_clear_error(void) { last_message[0] = '\0'; }
