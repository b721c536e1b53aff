/* Registry entries of the transpose kernels. */
#include "registry.h"

const gk_kernel_def *const gk_transpose_kernels = 0;
const size_t gk_transpose_kernel_count = 0;
