// The library's fast transpose and copy (beyond the lecture): VW-wide accesses
// (float2/float4) where offsets and leading dimensions allow, coalesced scalar
// accesses where they do not; each work-group walks several tiles and loads the
// next tile while it writes the current one; a choice of work-group order.
//
// Convention (column-major, as every transpose/copy kernel):
//   (rows, cols, alpha, A, offA, lda, B, offB, ldb), A(r, c) = A[offA + r + c*lda];
//   transpose: B[offB + c + r*ldb] = alpha * A(r, c); copy: B[offB + r + c*ldb] = alpha * A(r, c).
// A launch covers ceil(rows / TILE) work-groups along dimension 0 and any
// number along dimension 1: the column tiles are shared out among those, so the
// TILES parameter (tiles per work-group) only shapes the launch.

#ifndef TILE
#define TILE 64 // tile edge (rows and columns of A)
#endif
#ifndef VW
#define VW 4 // vector width: 1, 2 or 4 floats per access
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16 // the work-group's second dimension
#endif
#ifndef ORDER
#define ORDER 0 // work-group order: 0 launch order, 1 diagonal, 2 bands of BAND tile rows
#endif
#ifndef BAND
#define BAND 8 // tile rows per band (ORDER 2)
#endif
#ifndef COPY_PREFETCH
#define COPY_PREFETCH 0 // copy: 1 loads the next tile before storing the current one
#endif

#ifndef MIN_GROUPS
#define MIN_GROUPS 0 // CUDA: work-groups an SM must hold at once (registers capped to fit); 0: the compiler's choice
#endif

// The work-group's size, and on CUDA with MIN_GROUPS > 0 also the work-groups
// per SM that the register allocation must leave room for: these kernels hold a
// tile or two in registers, and the compiler's own count can leave an SM fewer
// work-groups than its local memory allows. OpenCL has no such attribute.
#if defined(__CUDACC__) && MIN_GROUPS > 0
#define GROUP_SHAPE(x, y) __attribute__((launch_bounds((x) * (y), MIN_GROUPS)))
#else
#define GROUP_SHAPE(x, y) __attribute__((reqd_work_group_size(x, y, 1)))
#endif

#define LX (TILE / VW)          // the work-group's first dimension
#define CPW (TILE / BLOCK_ROWS) // columns of a tile per work-item

#if VW == 4
typedef float4 vec_t;
#define VEC_SPLIT(x, d) ((d)[0] = (x).x, (d)[1] = (x).y, (d)[2] = (x).z, (d)[3] = (x).w)
#define VEC_SCALED(d, s) ((float4)((s) * (d)[0], (s) * (d)[1], (s) * (d)[2], (s) * (d)[3]))
#elif VW == 2
typedef float2 vec_t;
#define VEC_SPLIT(x, d) ((d)[0] = (x).x, (d)[1] = (x).y)
#define VEC_SCALED(d, s) ((float2)((s) * (d)[0], (s) * (d)[1]))
#else
typedef float vec_t;
#define VEC_SPLIT(x, d) ((d)[0] = (x))
#define VEC_SCALED(d, s) ((s) * (d)[0])
#endif

// Row (within a tile) of a work-item's k-th element: VW consecutive rows for
// wide accesses, else every LX-th row so that scalar accesses stay coalesced.
#define SLOT(wide, k) ((wide) ? VW * (int)get_local_id(0) + (k) : (int)get_local_id(0) + (k) * LX)

// The tile block (row block gx, column group gy) this work-group works on.
static void block_of_group(int* gx, int* gy)
{
    const int ngx = get_num_groups(0), ngy = get_num_groups(1);
    const int bid = get_group_id(0) + get_group_id(1) * ngx; // launch order
#if ORDER == 1
    // Diagonal (the lecture's step 5, for any grid): a bijection.
    *gy = bid % ngy;
    *gx = (bid / ngy + *gy) % ngx;
#elif ORDER == 2
    // Bands of BAND row blocks, each walked column group by column group, so
    // the groups running together cover a compact region of A and of B.
    const int first = bid / (BAND * ngy) * BAND;
    const int height = min(BAND, ngx - first), i = bid - first * ngy;
    *gx = first + i % height;
    *gy = i / height;
#else
    *gx = get_group_id(0);
    *gy = get_group_id(1);
#endif
}

// v[j][k] = A(r0 + SLOT(k), c0 + ty + j*BLOCK_ROWS), or 0 outside A.
static void load_tile(float v[CPW][VW], const __global float* restrict A, const int lda, const int rows,
                      const int cols, const int r0, const int c0, const bool wide)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
#pragma unroll
    for (int j = 0; j < CPW; j++) {
        const int c = c0 + ty + j * BLOCK_ROWS;
        if (c >= cols) {
#pragma unroll
            for (int k = 0; k < VW; k++) v[j][k] = 0.0f;
            continue;
        }
        const __global float* col = A + c * lda + r0;
        if (wide && r0 + VW * tx + VW <= rows) {
            const vec_t x = *(const __global vec_t*)(col + VW * tx);
            VEC_SPLIT(x, v[j]);
        } else {
#pragma unroll
            for (int k = 0; k < VW; k++) {
                const int r = SLOT(wide, k);
                v[j][k] = r0 + r < rows ? col[r] : 0.0f;
            }
        }
    }
}

__kernel GROUP_SHAPE(LX, BLOCK_ROWS)
void gk_transpose_vector(const int rows, const int cols, const float alpha,
                         const __global float* restrict A, const int offA, const int lda,
                         __global float* restrict B, const int offB, const int ldb)
{
    __local float tile[TILE][TILE + 1]; // tile[column of A][row of A]; +1: no bank conflicts
    const int tx = get_local_id(0), ty = get_local_id(1);
    int gx, gy;
    block_of_group(&gx, &gy);
    const int col_tiles = (cols + TILE - 1) / TILE;
    const int per = (col_tiles + get_num_groups(1) - 1) / get_num_groups(1);
    const int first = gy * per, last = min(col_tiles, first + per);
    const int r0 = gx * TILE;
    // Wide accesses need every column start aligned (tile origins are multiples of TILE).
    const bool a_wide = VW > 1 && ((offA | lda) & (VW - 1)) == 0;
    const bool b_wide = VW > 1 && ((offB | ldb) & (VW - 1)) == 0;
    A += offA;
    B += offB;

    float v[CPW][VW];
    if (first < last) load_tile(v, A, lda, rows, cols, r0, first * TILE, a_wide);
    for (int t = first; t < last; t++) {
        const int c0 = t * TILE;
        if (t > first) barrier(CLK_LOCAL_MEM_FENCE); // everyone has read the previous tile out
#pragma unroll
        for (int j = 0; j < CPW; j++)
#pragma unroll
            for (int k = 0; k < VW; k++) tile[ty + j * BLOCK_ROWS][SLOT(a_wide, k)] = v[j][k];
        barrier(CLK_LOCAL_MEM_FENCE);
        // The next tile's loads are in flight while this one is written.
        if (t + 1 < last) load_tile(v, A, lda, rows, cols, r0, c0 + TILE, a_wide);

        // B's column r0 + rr holds A's row r0 + rr; its rows c0.. are the tile's columns.
#pragma unroll
        for (int j = 0; j < CPW; j++) {
            const int rr = ty + j * BLOCK_ROWS;
            if (r0 + rr >= rows) continue;
            __global float* col = B + (r0 + rr) * ldb + c0;
            if (b_wide && c0 + VW * tx + VW <= cols) {
                float d[VW];
#pragma unroll
                for (int k = 0; k < VW; k++) d[k] = tile[VW * tx + k][rr];
                *(__global vec_t*)(col + VW * tx) = VEC_SCALED(d, alpha);
            } else {
#pragma unroll
                for (int k = 0; k < VW; k++) {
                    const int c = SLOT(b_wide, k);
                    if (c0 + c < cols) col[c] = alpha * tile[c][rr];
                }
            }
        }
    }
}

__kernel GROUP_SHAPE(LX, BLOCK_ROWS)
void gk_copy_vector(const int rows, const int cols, const float alpha,
                    const __global float* restrict A, const int offA, const int lda,
                    __global float* restrict B, const int offB, const int ldb)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col_tiles = (cols + TILE - 1) / TILE;
    const int per = (col_tiles + get_num_groups(1) - 1) / get_num_groups(1);
    const int first = get_group_id(1) * per, last = min(col_tiles, first + per);
    const int r0 = get_group_id(0) * TILE;
    const bool wide = VW > 1 && ((offA | lda | offB | ldb) & (VW - 1)) == 0;
    A += offA;
    B += offB;

    float v[CPW][VW];
#if COPY_PREFETCH
    if (first < last) load_tile(v, A, lda, rows, cols, r0, first * TILE, wide);
#endif
    for (int t = first; t < last; t++) {
        const int c0 = t * TILE;
#if COPY_PREFETCH
        // The next tile's loads go out before this one's stores, so that a work-item
        // keeps loads in flight while it stores (twice the registers for the tile).
        float next[CPW][VW];
        if (t + 1 < last) load_tile(next, A, lda, rows, cols, r0, c0 + TILE, wide);
#else
        load_tile(v, A, lda, rows, cols, r0, c0, wide); // all loads first: CPW in flight
#endif
#pragma unroll
        for (int j = 0; j < CPW; j++) {
            const int c = c0 + ty + j * BLOCK_ROWS;
            if (c >= cols) continue;
            __global float* col = B + c * ldb + r0;
            if (wide && r0 + VW * tx + VW <= rows) {
                *(__global vec_t*)(col + VW * tx) = VEC_SCALED(v[j], alpha);
            } else {
#pragma unroll
                for (int k = 0; k < VW; k++) {
                    const int r = SLOT(wide, k);
                    if (r0 + r < rows) col[r] = alpha * v[j][k];
                }
            }
        }
#if COPY_PREFETCH
        if (t + 1 < last) {
#pragma unroll
            for (int j = 0; j < CPW; j++)
#pragma unroll
                for (int k = 0; k < VW; k++) v[j][k] = next[j][k];
        }
#endif
    }
}

// ---------------------------------------------------------------------------
// The transpose for any alignment. Writes that start in the middle of a 32-byte
// sector, or even of a 128-byte line, cost up to a quarter of the bandwidth
// (measured on the H200: docs/PERFORMANCE.md), and a column of B starts
// wherever offB + i * ldb falls. So each column of B is cut into chunks that
// start on ALIGN floats: chunk t of B's column i holds B's rows
// [TILE*t - s_i, TILE*t + TILE - s_i), s_i = (offB + i*ldb + TILE*t) mod ALIGN,
// and every store is a full float4 inside whole 32-byte sectors (ALIGN >= 8;
// whole 128-byte lines with ALIGN >= 32). A chunk needs A's
// columns TILE*t - s_i .. ; the work-group keeps the last RING columns it read
// in local memory (a ring), so the ALIGN - 1 columns before a chunk come from
// the previous one. Reads use the aligned float4 words that span each column's
// TILE rows (one more word where the column does not start on 16 bytes).

#ifndef ALIGN
#define ALIGN 16 // floats: chunks of B's columns start on 64 bytes
#endif
#define WPC (TILE / 4 + 1) // aligned words that cover TILE rows at any alignment
#define RING (2 * TILE)    // columns held: a chunk's TILE and the previous ones
#define GROUP_SIZE (TILE / 4 * BLOCK_ROWS)
#define LOADS ((TILE * WPC + GROUP_SIZE - 1) / GROUP_SIZE) // words per work-item and chunk

// Where word l of a work-item lies among the words of A's columns c0 .. c0 +
// n - 1: its column, its first row relative to r0, and its index in A.
static bool word_of(const int l, const int offA, const int lda, const int rows, const int cols, const int r0,
                    const int c0, const int n, int* c, int* rel, int* start)
{
    const int idx = get_local_id(0) + get_local_id(1) * (TILE / 4) + l * GROUP_SIZE;
    const int col = idx / WPC, w = idx - col * WPC;
    *c = c0 + col;
    if (col >= n || *c < 0 || *c >= cols) return false;
    const int base = offA + *c * lda + r0, mis = base & 3;
    *rel = 4 * w - mis;
    *start = base + *rel;
    // The last word is only needed by misaligned columns; none below the matrix.
    return !(w == WPC - 1 && mis == 0) && *rel < rows - r0;
}

static void load_words(float4 v[LOADS], const __global float* restrict A, const int offA, const int lda,
                       const int rows, const int cols, const int r0, const int c0, const int n, const int last)
{
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        int c, rel, start;
        v[l] = (float4)(0.0f);
        if (!word_of(l, offA, lda, rows, cols, r0, c0, n, &c, &rel, &start)) continue;
        if (start <= last - 3) {
            v[l] = *(const __global float4*)(A + start);
        } else { // the buffer may end inside the matrix's last word
            float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int k = 0; k < 4 && start + k <= last; k++) d[k] = A[start + k];
            v[l] = (float4)(d[0], d[1], d[2], d[3]);
        }
    }
}

// ring[c mod RING][r] = A(r0 + r, c) for the rows each word covers. Inlined:
// PoCL 3.1 stored into a copy of the ring when this was a call from two sites.
static inline __attribute__((always_inline)) void store_words(__local float (*ring)[TILE + 1],
                                                              const float4 v[LOADS], const int offA,
                                                              const int lda, const int rows, const int cols,
                                                              const int r0, const int c0, const int n)
{
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        int c, rel, start;
        if (!word_of(l, offA, lda, rows, cols, r0, c0, n, &c, &rel, &start)) continue;
        const float d[4] = {v[l].x, v[l].y, v[l].z, v[l].w};
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (rel + k >= 0 && rel + k < TILE) ring[c & (RING - 1)][rel + k] = d[k];
    }
}

__kernel GROUP_SHAPE(TILE / 4, BLOCK_ROWS)
void gk_transpose_aligned(const int rows, const int cols, const float alpha,
                          const __global float* restrict A, const int offA, const int lda,
                          __global float* restrict B, const int offB, const int ldb)
{
    __local float ring[RING][TILE + 1]; // ring[column of A mod RING][row of A - r0]; +1: fewer bank conflicts
    const int tx = get_local_id(0), ty = get_local_id(1);
    int gx, gy;
    block_of_group(&gx, &gy);
    const bool skewed = ((offB | ldb) & (ALIGN - 1)) != 0; // else every s_i is 0
    // Chunk t reaches B's row TILE*t + TILE - 1 - s_i: one more chunk when skewed.
    const int chunks = skewed ? (cols + ALIGN - 2) / TILE + 1 : (cols + TILE - 1) / TILE;
    // Shared out evenly: a ceil(chunks / groups) share would leave groups idle.
    const int ngy = get_num_groups(1);
    const int first = (int)((long)gy * chunks / ngy), last_chunk = (int)((long)(gy + 1) * chunks / ngy);
    const int r0 = gx * TILE;
    const int last = offA + (cols - 1) * lda + rows - 1; // A's last element

    float4 v[LOADS];
    if (skewed && first < last_chunk) { // the first chunk reaches back into the previous one
        load_words(v, A, offA, lda, rows, cols, r0, first * TILE - ALIGN, ALIGN, last);
        store_words(ring, v, offA, lda, rows, cols, r0, first * TILE - ALIGN, ALIGN);
    }
    load_words(v, A, offA, lda, rows, cols, r0, first * TILE, TILE, last);
    for (int t = first; t < last_chunk; t++) {
        if (t > first) barrier(CLK_LOCAL_MEM_FENCE); // everyone has read out the columns chunk t replaces
        store_words(ring, v, offA, lda, rows, cols, r0, t * TILE, TILE);
        barrier(CLK_LOCAL_MEM_FENCE);
        // The next chunk's loads are in flight while this one is written.
        if (t + 1 < last_chunk) load_words(v, A, offA, lda, rows, cols, r0, (t + 1) * TILE, TILE, last);

#pragma unroll
        for (int j = 0; j < TILE / BLOCK_ROWS; j++) {
            const int rr = ty + j * BLOCK_ROWS;
            if (r0 + rr >= rows) continue;
            const int base = offB + (r0 + rr) * ldb + t * TILE, s = base & (ALIGN - 1);
            const int c = t * TILE - s + 4 * tx; // B's row (A's column) of the word's first float
            // The lanes of a warp (TILE 64: 16 tx by 2 ty) read their 4 floats in rotated
            // orders so that, whatever s is, its 4 groups of 8 lanes sit in the 4 bank
            // classes mod 4.
            const int rot = ((tx >> 3) + 2 * (ty & 1) + s - rr) & 3;
            float x[4];
#pragma unroll
            for (int k = 0; k < 4; k++) x[k] = ring[(c + ((k + rot) & 3)) & (RING - 1)][rr];
            // x[k] is the word's float (k + rot) mod 4: rotate back (selects, no indexing).
            if (rot & 1) {
                const float w = x[3];
                x[3] = x[2], x[2] = x[1], x[1] = x[0], x[0] = w;
            }
            if (rot & 2) {
                float w = x[0];
                x[0] = x[2], x[2] = w;
                w = x[1], x[1] = x[3], x[3] = w;
            }
            const float4 d = alpha * (float4)(x[0], x[1], x[2], x[3]);
            __global float* out = B + (base - s + 4 * tx);
            if (c >= 0 && c + 4 <= cols) {
                *(__global float4*)out = d;
            } else {
                const float e[4] = {d.x, d.y, d.z, d.w};
#pragma unroll
                for (int k = 0; k < 4; k++)
                    if (c + k >= 0 && c + k < cols) out[k] = e[k];
            }
        }
    }
}
