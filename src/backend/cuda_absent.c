/* Stands in for the CUDA backend when gemmkit is built without CUDA. */
#include "backend.h"

const gk_backend_ops *gk_backend_cuda(void) { return 0; }
