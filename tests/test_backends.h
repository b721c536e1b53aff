/* Every backend built in and every device it sees: a test body run on each,
 * skipped where a backend is absent or sees no device (test_backend_semantics,
 * test_large_copies). A test's state is its backend_case (set_opencl, set_cuda). */
#ifndef GK_TEST_BACKENDS_H
#define GK_TEST_BACKENDS_H

#include "backend.h"
#include "gemmkit.h"

typedef struct backend_case {
    const char *name;
    const gk_backend_ops *(*ops)(void);
} backend_case;

static const backend_case backends[] = {{"opencl", gk_backend_opencl}, {"cuda", gk_backend_cuda}};

typedef void (*device_body)(const backend_case *b, int index, const gemmkit_device_info *info);

static void run_on_every_device(void **state, device_body body)
{
    const backend_case *b = *state;
    const gk_backend_ops *ops = b->ops();
    int count = 0;
    gemmkit_status status = ops ? ops->device_count(&count) : GEMMKIT_ERROR_UNSUPPORTED_BACKEND;
    if (status != GEMMKIT_SUCCESS || count == 0) {
        print_message("skipping %s: %s\n", b->name,
                      !ops ? "not built in" : status ? gemmkit_last_error_message() : "no device");
        skip();
    }
    for (int i = 0; i < count; i++) {
        gemmkit_device_info info;
        assert_int_equal(ops->device_info(i, &info), GEMMKIT_SUCCESS);
        print_message("%s device %d: %s\n", b->name, i, info.name);
        body(b, i, &info);
    }
}

static int set_opencl(void **state)
{
    *state = (void *)&backends[0];
    return 0;
}

static int set_cuda(void **state)
{
    *state = (void *)&backends[1];
    return 0;
}

#endif
