/* Registry entries of the tutorial kernels. */
#include "registry.h"

const gk_kernel_def *const gk_tutorial_kernels = 0;
const size_t gk_tutorial_kernel_count = 0;
