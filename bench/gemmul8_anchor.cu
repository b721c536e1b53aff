// Issue 38's anchor: GEMMul8 (RIKEN-RCCS, the Ozaki scheme II's authors' library) timed and measured on the GPU
// machine beside cuBLAS fp32, for comparison only: it is built from its public source outside this project and
// linked here; nothing of it is part of gemmkit. Prints, per size, the call time of GEMMul8's SGEMM emulation
// (INT8, MODULI moduli, fast and accurate modes) and of cuBLAS SGEMM (pure fp32) as the median of REPEAT calls
// after a warm-up, and at ACC_N the max / median componentwise relative error against cuBLAS DGEMM on inputs
// (rand - 0.5) * exp(phi * randn), phi in {0, 0.5, 1, 2, 4} (the generator of bench/ozaki_accuracy.py).
//
// build: nvcc -std=c++20 -O3 -arch=sm_90 -I GEMMUL8/include bench/gemmul8_anchor.cu GEMMUL8/lib/libgemmul8.a
//        -lcublas -lcublasLt -lcudart -o gemmul8_anchor          (GEMMUL8: its GEMMul8/ directory, built)
// usage: gemmul8_anchor [SIZES (4096,8192,16384)] [MODULI (8)] [ACC_N (4096)] [REPEAT (5)]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "gemmul8.hpp"

#define CHECK_CUDA(x)                                                                                        \
    do {                                                                                                     \
        cudaError_t e_ = (x);                                                                                \
        if (e_ != cudaSuccess) {                                                                             \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                 \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)
#define CHECK_BLAS(x)                                                                                        \
    do {                                                                                                     \
        cublasStatus_t s_ = (x);                                                                             \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                   \
            std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_);                  \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

static std::vector<float> inputs(std::mt19937_64 &rng, size_t count, double phi)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::normal_distribution<double> g(0.0, 1.0);
    std::vector<float> x(count);
    for (auto &v : x) v = (float)((u(rng) - 0.5) * std::exp(phi * g(rng)));
    return x;
}

// Median milliseconds of `repeat` calls of f after one warm-up call.
template <typename F> static double time_ms(F f, int repeat)
{
    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    f();
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> ms;
    for (int r = 0; r < repeat; r++) {
        CHECK_CUDA(cudaEventRecord(start));
        f();
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaEventSynchronize(stop));
        float t = 0;
        CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms[ms.size() / 2];
}

struct device_gemm {
    cublasHandle_t handle;
    size_t n;
    float *a, *b, *c;
    void *work;
    unsigned moduli;
    void emulated(bool fast)
    {
        const float one = 1.0f, zero = 0.0f;
        gemmul8::gemm<float>(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n, moduli, fast,
                             work);
    }
    void fp32()
    {
        const float one = 1.0f, zero = 0.0f;
        CHECK_BLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, a, (int)n, b, (int)n,
                               &zero, c, (int)n));
    }
};

static std::vector<size_t> parse_sizes(const char *text)
{
    std::vector<size_t> sizes;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) sizes.push_back(std::stoul(item));
    return sizes;
}

int main(int argc, char **argv)
{
    const std::vector<size_t> sizes = parse_sizes(argc > 1 ? argv[1] : "4096,8192,16384");
    const unsigned moduli = argc > 2 ? (unsigned)std::atoi(argv[2]) : 8;
    const size_t acc_n = argc > 3 ? std::stoul(argv[3]) : 4096;
    const int repeat = argc > 4 ? std::atoi(argv[4]) : 5;
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s; GEMMul8 SGEMM emulation, INT8, %u moduli; cuBLAS SGEMM pure fp32; median of %d calls\n",
                prop.name, moduli, repeat);
    cublasHandle_t handle;
    CHECK_BLAS(cublasCreate(&handle));
    CHECK_BLAS(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
    std::mt19937_64 rng(38);
    size_t largest = acc_n;
    for (size_t n : sizes) largest = std::max(largest, n);
    device_gemm g{handle, 0, nullptr, nullptr, nullptr, nullptr, moduli};
    CHECK_CUDA(cudaMalloc(&g.a, largest * largest * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&g.b, largest * largest * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&g.c, largest * largest * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&g.work, gemmul8::workSize(largest, largest, largest, moduli)));

    std::printf("\n| n | cuBLAS fp32 ms | GEMMul8 fast ms | vs cuBLAS | GEMMul8 accurate ms | vs cuBLAS |\n");
    std::printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t n : sizes) {
        g.n = n;
        const std::vector<float> a = inputs(rng, n * n, 0.0), b = inputs(rng, n * n, 0.0);
        CHECK_CUDA(cudaMemcpy(g.a, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(g.b, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
        const double blas = time_ms([&] { g.fp32(); }, repeat);
        const double fast = time_ms([&] { g.emulated(true); }, repeat);
        const double accurate = time_ms([&] { g.emulated(false); }, repeat);
        std::printf("| %zu | %.3f | %.3f | %.2fx | %.3f | %.2fx |\n", n, blas, fast, blas / fast, accurate,
                    blas / accurate);
        std::fflush(stdout);
    }

    // Accuracy at acc_n against cuBLAS DGEMM of the same (fp32) inputs.
    const size_t n = acc_n;
    g.n = n;
    double *da, *db, *dc;
    CHECK_CUDA(cudaMalloc(&da, n * n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&db, n * n * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&dc, n * n * sizeof(double)));
    std::printf("\n%zu x %zu x %zu, reference cuBLAS DGEMM: max / median componentwise relative error\n\n", n, n, n);
    std::printf("| phi | cuBLAS fp32 | GEMMul8 fast | GEMMul8 accurate |\n| --- | --- | --- | --- |\n");
    for (double phi : {0.0, 0.5, 1.0, 2.0, 4.0}) {
        const std::vector<float> a = inputs(rng, n * n, phi), b = inputs(rng, n * n, phi);
        std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end()), ref(n * n);
        CHECK_CUDA(cudaMemcpy(g.a, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(g.b, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(da, a64.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(db, b64.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
        const double one = 1.0, zero = 0.0;
        CHECK_BLAS(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, da, (int)n, db, (int)n,
                               &zero, dc, (int)n));
        CHECK_CUDA(cudaMemcpy(ref.data(), dc, n * n * sizeof(double), cudaMemcpyDeviceToHost));
        std::printf("| %g |", phi);
        for (int method = 0; method < 3; method++) {
            if (method == 0) g.fp32();
            else g.emulated(method == 1);
            CHECK_CUDA(cudaDeviceSynchronize());
            std::vector<float> c(n * n);
            CHECK_CUDA(cudaMemcpy(c.data(), g.c, n * n * sizeof(float), cudaMemcpyDeviceToHost));
            std::vector<double> rel;
            rel.reserve(n * n);
            for (size_t i = 0; i < n * n; i++)
                if (ref[i] != 0.0) rel.push_back(std::fabs((double)c[i] - ref[i]) / std::fabs(ref[i]));
            std::sort(rel.begin(), rel.end());
            std::printf(" %.2e / %.2e |", rel.back(), rel[rel.size() / 2]);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
