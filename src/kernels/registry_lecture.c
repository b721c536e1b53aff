/* Registry entries of the lecture kernels. */
#include "registry.h"

const gk_kernel_def *const gk_lecture_kernels = 0;
const size_t gk_lecture_kernel_count = 0;
