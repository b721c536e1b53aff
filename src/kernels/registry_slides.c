/* Registry entries of the slides kernels. */
#include "registry.h"

const gk_kernel_def *const gk_slides_kernels = 0;
const size_t gk_slides_kernel_count = 0;
