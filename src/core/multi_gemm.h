/* Host-array SGEMM tiled over devices (multi_gemm.c): the path of a context
 * over several devices, and of one device whose memory (or memory limit) the
 * operands do not fit (out-of-core). route_gemm.c decides when it serves. */
#ifndef GK_MULTI_GEMM_H
#define GK_MULTI_GEMM_H

#include "sgemm.h"

/* Lanes (worker threads, each with its own queue or stream) per device: while
 * one copies panels, the other computes. */
#define GK_LANES_PER_DEVICE 2
/* The largest tile side unless GEMMKIT_TILE_SIZE says otherwise: at n = 8192
 * a tile's panels take 2 * 8192 * K floats to compute 2 * 8192^2 * K flops,
 * 2048 flops per byte moved, which keeps a GPU's copies behind its kernels. */
#define GK_TILE_DEFAULT 8192
/* Tiles are split to give every lane work only down to this side. */
#define GK_TILE_MIN_SPLIT 1024

/* Device memory a tiled call may use on each device: the context's limit,
 * else three quarters of the smallest device's memory; 0 when unknown. */
int64_t gk_tiled_budget(const gemmkit_context *ctx);

/* How a tiled call cuts the problem. */
typedef struct gk_tiling {
    int64_t tm, tn, kc;         /* tile rows, tile columns, K chunk (0: A and B not read) */
    int64_t rows, cols, chunks; /* how many of each */
} gk_tiling;

/* The tiling of a prepared problem on ctx: tiles of at most the context's
 * tile size, split (down to GK_TILE_MIN_SPLIT) until every lane has one,
 * then K chunks and smaller tiles until a lane's panels, C tile and their
 * padded copies fit half the device budget, every buffer the largest a
 * device allows and every panel 2^31-1 elements. */
gemmkit_status gk_sgemm_tiling(gemmkit_context *ctx, const gk_sgemm_problem *p, gk_tiling *t);

/* Runs a prepared host-array problem (checked, pointers included) tile by
 * tile on every device of ctx; locks the context. */
gemmkit_status gk_sgemm_tiled(gemmkit_context *ctx, const gemmkit_options *options, const gk_sgemm_problem *p);

#endif
