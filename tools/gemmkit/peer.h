/* Helpers shared by the peer modules (peer_cublas.c, peer_clblast.c). */
#ifndef GK_PEER_H
#define GK_PEER_H

#include "bench.h"

/* dlopen the library named by the environment variable `env` if set, else
 * the first of `names` (NULL-terminated) that loads. Fills `path` with the
 * name that loaded, or `why` (GK_BENCH_ERR bytes) with what was tried. */
void *gk_peer_dlopen(const char *env, const char *const *names, char *path, size_t len, char *why);
/* The file a loaded symbol lives in, symbolic links resolved (its version suffix shows). */
void gk_peer_real_path(void *symbol, char *path, size_t len);
/* Whether gemmkit's device is an NVIDIA GPU (cuBLAS ratios compare the same chip only then). */
int gk_peer_is_nvidia(const gemmkit_device_info *device);

#endif
