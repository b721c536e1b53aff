// The rate of mma.sync.m16n8k32 s8 (the instruction of library/igemm_tc.cl) on the GPU machine, with nothing
// else in the loop (mode 0: fragments in registers) and with the kernel's ldmatrix.x4 fragment loads from local
// memory beside it (mode 1: 16 loads per 32 mmas, double-buffered, conflict-free addresses): the ceilings that
// igemm_tc.cl's products are measured against in docs/PERFORMANCE.md. Each warp keeps igemm_tc.cl's default
// 64 x 64 warp tile (4 x 8 accumulator tiles, 128 registers).
// Build and run on the GPU machine (nvcc; not part of the CMake build):
//   nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o imma_rate bench/imma_rate.cu && ./imma_rate
#include <cstdio>
#include <cuda_runtime.h>

#define MMA(d, a, b)                                                                                          \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "                                          \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"                        \
                 : "=r"((d)[0]), "=r"((d)[1]), "=r"((d)[2]), "=r"((d)[3])                                      \
                 : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]),              \
                   "r"((d)[0]), "r"((d)[1]), "r"((d)[2]), "r"((d)[3]))
#define LDSM(r0, r1, r2, r3, a)                                                                               \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"                           \
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a))

template <int MODE, int THREADS>
__global__ void __launch_bounds__(THREADS) rate(int iters, int *out)
{
    __shared__ uint4 smem[(128 + 256) * 32 / 16];
    for (int i = threadIdx.x; i < (128 + 256) * 2; i += THREADS) smem[i] = make_uint4(i, i + 1, i + 2, i + 3);
    __syncthreads();
    const unsigned base = (unsigned)__cvta_generic_to_shared(smem);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row_a = (warp % 2) * 64 + lane % 8 + 8 * ((lane / 8) % 2);
    const int row_b = 128 + (warp / 2 % 4) * 64 + lane % 8 + 8 * (lane / 16);
    const int swz = (lane % 8) / 4;
    const unsigned aa = base + row_a * 32 + (((lane / 16) ^ swz) * 16);
    const unsigned ab = base + row_b * 32 + ((((lane / 8) % 2) ^ swz) * 16);
    int acc[4][8][4] = {};
    unsigned a[2][4][4], b[2][8][2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 4; j++) a[h][i][j] = threadIdx.x * 7 + i * 3 + j + h;
#pragma unroll
        for (int i = 0; i < 8; i++) b[h][i][0] = threadIdx.x + i, b[h][i][1] = threadIdx.x * 5 + i + h;
    }
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            if (MODE == 1) {
#pragma unroll
                for (int mi = 0; mi < 4; mi++)
                    LDSM(a[h ^ 1][mi][0], a[h ^ 1][mi][1], a[h ^ 1][mi][2], a[h ^ 1][mi][3], aa + mi * 16 * 32);
#pragma unroll
                for (int ni = 0; ni < 8; ni += 2)
                    LDSM(b[h ^ 1][ni][0], b[h ^ 1][ni][1], b[h ^ 1][ni + 1][0], b[h ^ 1][ni + 1][1], ab + ni * 8 * 32);
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 8; ni++) MMA(acc[mi][ni], a[h][mi], b[h][ni]);
        }
    }
    int s = 0;
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int ni = 0; ni < 8; ni++) s += acc[mi][ni][0] ^ acc[mi][ni][1] ^ acc[mi][ni][2] ^ acc[mi][ni][3];
    out[blockIdx.x * THREADS + threadIdx.x] = s;
}

template <int MODE, int THREADS>
static void run(int sms, int blocks_per_sm)
{
    const int blocks = sms * blocks_per_sm * 2, iters = 1024;
    int *out;
    cudaMalloc(&out, sizeof(int) * blocks * THREADS);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    rate<MODE, THREADS><<<blocks, THREADS>>>(16, out);
    cudaEventRecord(start);
    rate<MODE, THREADS><<<blocks, THREADS>>>(iters, out);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    // Per warp and iteration: 2 x 32 mmas of 16 x 8 x 32 multiply-adds.
    const double ops = 2.0 * 4096 * 64 * iters * (THREADS / 32) * (double)blocks;
    printf("mode %d (%s), %d work-items a block, %d blocks: %.3f ms, %.0f TOPS (%s)\n", MODE,
           MODE ? "ldmatrix + mma" : "mma only", THREADS, blocks, ms, ops / ms / 1e9,
           cudaGetErrorString(cudaGetLastError()));
    cudaFree(out);
}

int main()
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
    run<0, 256>(prop.multiProcessorCount, 1);
    run<0, 128>(prop.multiProcessorCount, 2);
    run<1, 256>(prop.multiProcessorCount, 1);
    run<1, 128>(prop.multiProcessorCount, 2);
    return 0;
}
