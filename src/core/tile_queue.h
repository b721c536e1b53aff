/* The shared queue of C's tiles in a tiled SGEMM (multi_gemm.c): every lane
 * takes its next tile from it, so faster devices take more tiles. A lane
 * keeps to one row of tiles while that row has tiles left, so the panel of
 * op(A) it has on its device serves the next tile too. */
#ifndef GK_TILE_QUEUE_H
#define GK_TILE_QUEUE_H

#include <pthread.h>
#include <stdint.h>

#include "gemmkit.h"

typedef struct gk_tile_queue {
    pthread_mutex_t lock;
    int64_t rows, cols;
    int64_t *next_col; /* per row: the next column to hand out */
    int64_t *takers;   /* per row: lanes that took a tile of it */
    int stopped;       /* a lane failed: hand out nothing more */
} gk_tile_queue;

gemmkit_status gk_tile_queue_init(gk_tile_queue *q, int64_t rows, int64_t cols);
void gk_tile_queue_destroy(gk_tile_queue *q);

/* The next tile: in row *row (the caller's last, or -1) while it has tiles
 * left, else in the row with the most tiles left, the fewest lanes at it
 * first. 0 when no tile is left or the queue is stopped. */
int gk_tile_queue_next(gk_tile_queue *q, int64_t *row, int64_t *col);

/* Hands out nothing more (after a failure). */
void gk_tile_queue_stop(gk_tile_queue *q);

#endif
