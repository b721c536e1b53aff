/* The tile queue of the tiled SGEMM (tile_queue.h). */
#include "tile_queue.h"

#include <stdlib.h>

#include "status.h"

gemmkit_status gk_tile_queue_init(gk_tile_queue *q, int64_t rows, int64_t cols)
{
    q->rows = rows;
    q->cols = cols;
    q->stopped = 0;
    q->next_col = calloc((size_t)rows, sizeof *q->next_col);
    q->takers = calloc((size_t)rows, sizeof *q->takers);
    if (!q->next_col || !q->takers) {
        free(q->next_col);
        free(q->takers);
        return gk_fail(GEMMKIT_ERROR_OUT_OF_HOST_MEMORY, "allocating a queue of %lld rows of tiles", (long long)rows);
    }
    pthread_mutex_init(&q->lock, NULL);
    return GEMMKIT_SUCCESS;
}

void gk_tile_queue_destroy(gk_tile_queue *q)
{
    pthread_mutex_destroy(&q->lock);
    free(q->next_col);
    free(q->takers);
}

/* The row a lane starts: fewest lanes at it first (an untouched row keeps
 * lanes apart), then the most tiles left; -1 when every row is done. */
static int64_t pick_row(const gk_tile_queue *q)
{
    int64_t best = -1;
    for (int64_t r = 0; r < q->rows; r++) {
        if (q->next_col[r] == q->cols) continue;
        if (best < 0 || q->takers[r] < q->takers[best] ||
            (q->takers[r] == q->takers[best] && q->next_col[r] < q->next_col[best]))
            best = r;
    }
    return best;
}

int gk_tile_queue_next(gk_tile_queue *q, int64_t *row, int64_t *col)
{
    pthread_mutex_lock(&q->lock);
    int64_t r = *row;
    if (q->stopped) r = -1;
    else if (r < 0 || r >= q->rows || q->next_col[r] == q->cols) {
        r = pick_row(q);
        if (r >= 0) q->takers[r]++;
    }
    if (r >= 0) {
        *row = r;
        *col = q->next_col[r]++;
    }
    pthread_mutex_unlock(&q->lock);
    return r >= 0;
}

void gk_tile_queue_stop(gk_tile_queue *q)
{
    pthread_mutex_lock(&q->lock);
    q->stopped = 1;
    pthread_mutex_unlock(&q->lock);
}
