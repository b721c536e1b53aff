// OpenCL C -> CUDA C++: the header the CUDA backend puts in front of every
// kernel source before NVRTC compiles it (the SGEMM tutorial's kernel 8 idea).
// It is not an OpenCL file: gemmkit embeds it with the kernels and only the
// CUDA backend uses it (src/backend/cuda_translate.c).
//
// Supported (what typical SGEMM / transpose kernels use):
//  - qualifiers: __kernel, __global, __local, __constant (-> const; no
//    program-scope __constant arrays), __private, their unprefixed spellings
//    (renamed by the source pass), restrict;
//    __attribute__((reqd_work_group_size(X,Y,Z))) -> launch bounds of X*Y*Z
//    threads; work_group_size_hint/vec_type_hint are dropped; #pragma unroll.
//    A __local on a pointer (`__local float* p`, a cast, a parameter) is
//    dropped by the source pass in cuda_translate.c; on an array it is __shared__.
//  - work-item functions: get_local_id, get_group_id, get_global_id,
//    get_local_size, get_num_groups, get_global_size, get_global_offset (0),
//    get_work_dim (returns size_t/uint like OpenCL); barrier(), mem_fence().
//  - float2/float3/float4/float8/float16, int2/int4, uint2/uint4 as aggregates
//    aligned like OpenCL's (so `(__global float4*)` casts give 64/128-bit loads):
//    components .x .y .z .w (up to float4), .s0-.s9 .sa-.sf (lower case),
//    .lo/.hi, and .xy/.zw on float4; brace initialisers `float4 v = {a,b,c,d}`;
//    vector literals `(float4)(a, b, c, d)`, `(float4)(s)`, `(float8)(v4, v4)`
//    (rewritten to gk_vec<float4>(...) by the source pass, also through a
//    `typedef float4 floatX;`); + - * / and compound assignment, vector-vector
//    and vector-scalar; unary minus; fma/mad/dot/min/max/fabs on vectors.
//  - vload2/4/8/16 and vstore2/4/8/16 on float pointers (element-wise, so
//    any float-aligned address works as in OpenCL).
//  - math: fma, mad, mad24, mul24, clamp, mix, native_* and half_* functions,
//    as_float/as_int/as_uint, scalar select() and convert_float/int/uint();
//    every CUDA math function stays available.
// Not supported (compile errors, not silent): `(float4)x` casts of a bare
// scalar, multi-component swizzles other than .xy/.zw/.lo/.hi, .even/.odd,
// vector comparisons, vector select()/convert_*(), images, atomics, dynamic
// __local kernel arguments (clSetKernelArg with a size and NULL), double
// vectors, a __local hidden behind a macro on a pointer.
//
// CUDA extras for kernels that test `#ifdef __CUDACC__` (tutorial kernel 8):
// GK_CUDA is 1; gk_ldg(p)/__ldg(p) read through the read-only cache (also
// for float2/float4/float8 pointers); gk_shfl(v, lane, width) and the pre-Volta
// spellings __shfl/__shfl_up/__shfl_down/__shfl_xor (all 32 lanes active);
// make_float2/4 and make_int2/4 build the types above. Every other CUDA
// built-in (threadIdx, __syncwarp, atomics, ...) is available as usual. GK_TENSOR_MAP
// declares a tensor-map argument (CUDA-only kernels: below).

#ifndef GK_CL_TO_CUDA_H
#define GK_CL_TO_CUDA_H

#define GK_CUDA 1
// The compute capability as 10 * major + minor, as NVIDIA's OpenCL builds get it
// from the OpenCL backend (-DGK_NV_ARCH): kernels test it for inline PTX.
#define GK_NV_ARCH (__CUDA_ARCH__ / 10)

// ---- work-items and synchronisation --------------------------------------
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

__device__ __forceinline__ size_t get_local_id(uint d)
{
    return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : d == 2 ? threadIdx.z : 0;
}
__device__ __forceinline__ size_t get_group_id(uint d)
{
    return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : d == 2 ? blockIdx.z : 0;
}
__device__ __forceinline__ size_t get_local_size(uint d)
{
    return d == 0 ? blockDim.x : d == 1 ? blockDim.y : d == 2 ? blockDim.z : 1;
}
__device__ __forceinline__ size_t get_num_groups(uint d)
{
    return d == 0 ? gridDim.x : d == 1 ? gridDim.y : d == 2 ? gridDim.z : 1;
}
__device__ __forceinline__ size_t get_global_id(uint d)
{
    return get_group_id(d) * get_local_size(d) + get_local_id(d);
}
__device__ __forceinline__ size_t get_global_size(uint d) { return get_num_groups(d) * get_local_size(d); }
__device__ __forceinline__ size_t get_global_offset(uint d) { return 0; }
__device__ __forceinline__ uint get_work_dim(void) { return gridDim.z > 1 || blockDim.z > 1 ? 3 : 2; }

#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
// __syncthreads orders both shared and global memory within the block.
#define barrier(flags) __syncthreads()
#define work_group_barrier(flags) __syncthreads()
#define mem_fence(flags) __threadfence_block()
#define read_mem_fence(flags) __threadfence_block()
#define write_mem_fence(flags) __threadfence_block()

// ---- vector types ---------------------------------------------------------
// Aggregates (no constructors) so they can live in __shared__ arrays and take
// brace initialisers; the anonymous union gives OpenCL's component names.
struct __align__(8) gk_float2 {
    union {
        struct { float x, y; };
        struct { float s0, s1; };
        struct { float lo, hi; };
    };
};
struct __align__(16) gk_float3 { // 16 bytes like OpenCL's float3
    union {
        struct { float x, y, z; };
        struct { float s0, s1, s2; };
    };
};
struct __align__(16) gk_float4 {
    union {
        struct { float x, y, z, w; };
        struct { float s0, s1, s2, s3; };
        struct { gk_float2 lo, hi; };
        struct { gk_float2 xy, zw; };
    };
};
struct __align__(32) gk_float8 {
    union {
        struct { float s0, s1, s2, s3, s4, s5, s6, s7; };
        struct { gk_float4 lo, hi; };
    };
};
struct __align__(64) gk_float16 {
    union {
        struct { float s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, sa, sb, sc, sd, se, sf; };
        struct { gk_float8 lo, hi; };
    };
};
struct __align__(8) gk_int2 {
    union {
        struct { int x, y; };
        struct { int s0, s1; };
    };
};
struct __align__(16) gk_int4 {
    union {
        struct { int x, y, z, w; };
        struct { int s0, s1, s2, s3; };
        struct { gk_int2 lo, hi; };
    };
};
struct __align__(8) gk_uint2 {
    union {
        struct { uint x, y; };
        struct { uint s0, s1; };
    };
};
struct __align__(16) gk_uint4 {
    union {
        struct { uint x, y, z, w; };
        struct { uint s0, s1, s2, s3; };
        struct { gk_uint2 lo, hi; };
    };
};

// Component-wise operators for a vector type V of N scalar elements S: the
// elements are reached through an array view of the aggregate.
#define GK_ELEM(S, v, i) (reinterpret_cast<S *>(&(v))[i])
#define GK_CELEM(S, v, i) (reinterpret_cast<const S *>(&(v))[i])
#define GK_VECTOR_OPS(V, S, N)                                                                     \
    __device__ __forceinline__ V operator-(V a)                                                    \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(S, a, i) = -GK_ELEM(S, a, i);        \
        return a;                                                                                  \
    }                                                                                              \
    GK_VECTOR_BINARY(V, S, N, +, +=)                                                               \
    GK_VECTOR_BINARY(V, S, N, -, -=)                                                               \
    GK_VECTOR_BINARY(V, S, N, *, *=)                                                               \
    GK_VECTOR_BINARY(V, S, N, /, /=)
#define GK_VECTOR_BINARY(V, S, N, OP, OPEQ)                                                        \
    __device__ __forceinline__ V &operator OPEQ(V &a, const V &b)                                  \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(S, a, i) OPEQ GK_CELEM(S, b, i);     \
        return a;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V &operator OPEQ(V &a, S b)                                         \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(S, a, i) OPEQ b;                     \
        return a;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V operator OP(V a, const V &b) { return a OPEQ b; }                 \
    __device__ __forceinline__ V operator OP(V a, S b) { return a OPEQ b; }                        \
    __device__ __forceinline__ V operator OP(S a, const V &b)                                      \
    {                                                                                              \
        V r;                                                                                       \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(S, r, i) = a OP GK_CELEM(S, b, i);   \
        return r;                                                                                  \
    }

// Vector math (fma, mad, min, max, fabs, dot) for float vectors.
#define GK_FLOAT_VECTOR_MATH(V, N)                                                                 \
    __device__ __forceinline__ V fma(const V &a, const V &b, const V &c)                           \
    {                                                                                              \
        V r;                                                                                       \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, r, i) =                       \
            fmaf(GK_CELEM(float, a, i), GK_CELEM(float, b, i), GK_CELEM(float, c, i));             \
        return r;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V fma(const V &a, float b, const V &c)                              \
    {                                                                                              \
        V r;                                                                                       \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, r, i) =                       \
            fmaf(GK_CELEM(float, a, i), b, GK_CELEM(float, c, i));                                 \
        return r;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V mad(const V &a, const V &b, const V &c) { return fma(a, b, c); }  \
    __device__ __forceinline__ V mad(const V &a, float b, const V &c) { return fma(a, b, c); }     \
    __device__ __forceinline__ V fmin(V a, const V &b)                                             \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, a, i) =                       \
            fminf(GK_ELEM(float, a, i), GK_CELEM(float, b, i));                                    \
        return a;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V fmax(V a, const V &b)                                             \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, a, i) =                       \
            fmaxf(GK_ELEM(float, a, i), GK_CELEM(float, b, i));                                    \
        return a;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ V min(const V &a, const V &b) { return fmin(a, b); }                \
    __device__ __forceinline__ V max(const V &a, const V &b) { return fmax(a, b); }                \
    __device__ __forceinline__ V fabs(V a)                                                         \
    {                                                                                              \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, a, i) = fabsf(GK_ELEM(float, a, i)); \
        return a;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ float dot(const V &a, const V &b)                                   \
    {                                                                                              \
        float r = 0.0f;                                                                            \
        _Pragma("unroll") for (int i = 0; i < N; i++) r = fmaf(GK_CELEM(float, a, i), GK_CELEM(float, b, i), r); \
        return r;                                                                                  \
    }

GK_VECTOR_OPS(gk_float2, float, 2)
GK_VECTOR_OPS(gk_float3, float, 3)
GK_VECTOR_OPS(gk_float4, float, 4)
GK_VECTOR_OPS(gk_float8, float, 8)
GK_VECTOR_OPS(gk_float16, float, 16)
GK_VECTOR_OPS(gk_int2, int, 2)
GK_VECTOR_OPS(gk_int4, int, 4)
GK_VECTOR_OPS(gk_uint2, uint, 2)
GK_VECTOR_OPS(gk_uint4, uint, 4)
GK_FLOAT_VECTOR_MATH(gk_float2, 2)
GK_FLOAT_VECTOR_MATH(gk_float3, 3)
GK_FLOAT_VECTOR_MATH(gk_float4, 4)
GK_FLOAT_VECTOR_MATH(gk_float8, 8)
GK_FLOAT_VECTOR_MATH(gk_float16, 16)

// ---- vector literals: (float4)(a, b, c, d) -> gk_vec<float4>(a, b, c, d) ----
// Each vector type lists the argument shapes OpenCL allows that kernels use:
// one scalar (broadcast), all scalars, or halves.
template <typename T> struct gk_vec_maker {
    // Scalars (a typedef such as floatX may name float): a plain conversion.
    template <typename A> __device__ static __forceinline__ T make(A a) { return (T)a; }
};
#define GK_BROADCAST(V, S, N)                                                                      \
    __device__ static __forceinline__ V make(S s)                                                  \
    {                                                                                              \
        V r;                                                                                       \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(S, r, i) = s;                        \
        return r;                                                                                  \
    }
template <> struct gk_vec_maker<gk_float2> {
    GK_BROADCAST(gk_float2, float, 2)
    __device__ static __forceinline__ gk_float2 make(float a, float b) { return {a, b}; }
};
template <> struct gk_vec_maker<gk_float3> {
    GK_BROADCAST(gk_float3, float, 3)
    __device__ static __forceinline__ gk_float3 make(float a, float b, float c) { return {a, b, c}; }
    __device__ static __forceinline__ gk_float3 make(gk_float2 a, float c) { return {a.x, a.y, c}; }
    __device__ static __forceinline__ gk_float3 make(float a, gk_float2 b) { return {a, b.x, b.y}; }
};
template <> struct gk_vec_maker<gk_float4> {
    GK_BROADCAST(gk_float4, float, 4)
    __device__ static __forceinline__ gk_float4 make(float a, float b, float c, float d) { return {a, b, c, d}; }
    __device__ static __forceinline__ gk_float4 make(gk_float2 a, gk_float2 b) { return {a.x, a.y, b.x, b.y}; }
    __device__ static __forceinline__ gk_float4 make(gk_float2 a, float c, float d) { return {a.x, a.y, c, d}; }
    __device__ static __forceinline__ gk_float4 make(float a, float b, gk_float2 c) { return {a, b, c.x, c.y}; }
    __device__ static __forceinline__ gk_float4 make(gk_float3 a, float d) { return {a.x, a.y, a.z, d}; }
    __device__ static __forceinline__ gk_float4 make(float a, gk_float3 b) { return {a, b.x, b.y, b.z}; }
};
template <> struct gk_vec_maker<gk_float8> {
    GK_BROADCAST(gk_float8, float, 8)
    __device__ static __forceinline__ gk_float8 make(float a, float b, float c, float d, float e, float f,
                                                     float g, float h)
    {
        return {a, b, c, d, e, f, g, h};
    }
    __device__ static __forceinline__ gk_float8 make(gk_float4 a, gk_float4 b)
    {
        return {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    }
};
template <> struct gk_vec_maker<gk_float16> {
    GK_BROADCAST(gk_float16, float, 16)
    __device__ static __forceinline__ gk_float16 make(gk_float8 a, gk_float8 b)
    {
        gk_float16 r;
        r.lo = a;
        r.hi = b;
        return r;
    }
};
template <> struct gk_vec_maker<gk_int2> {
    GK_BROADCAST(gk_int2, int, 2)
    __device__ static __forceinline__ gk_int2 make(int a, int b) { return {a, b}; }
};
template <> struct gk_vec_maker<gk_int4> {
    GK_BROADCAST(gk_int4, int, 4)
    __device__ static __forceinline__ gk_int4 make(int a, int b, int c, int d) { return {a, b, c, d}; }
};
template <> struct gk_vec_maker<gk_uint2> {
    GK_BROADCAST(gk_uint2, uint, 2)
    __device__ static __forceinline__ gk_uint2 make(uint a, uint b) { return {a, b}; }
};
template <> struct gk_vec_maker<gk_uint4> {
    GK_BROADCAST(gk_uint4, uint, 4)
    __device__ static __forceinline__ gk_uint4 make(uint a, uint b, uint c, uint d) { return {a, b, c, d}; }
};
template <typename T, typename... A> __device__ __forceinline__ T gk_vec(A... a)
{
    return gk_vec_maker<T>::make(a...);
}

// ---- vload / vstore: element-wise, so only float alignment is needed -------
#define GK_VLOAD_VSTORE(V, N)                                                                      \
    __device__ __forceinline__ V vload##N(size_t offset, const float *p)                           \
    {                                                                                              \
        V r;                                                                                       \
        p += offset * N;                                                                           \
        _Pragma("unroll") for (int i = 0; i < N; i++) GK_ELEM(float, r, i) = p[i];                 \
        return r;                                                                                  \
    }                                                                                              \
    __device__ __forceinline__ void vstore##N(const V &v, size_t offset, float *p)                 \
    {                                                                                              \
        p += offset * N;                                                                           \
        _Pragma("unroll") for (int i = 0; i < N; i++) p[i] = GK_CELEM(float, v, i);                \
    }
GK_VLOAD_VSTORE(gk_float2, 2)
GK_VLOAD_VSTORE(gk_float4, 4)
GK_VLOAD_VSTORE(gk_float8, 8)
GK_VLOAD_VSTORE(gk_float16, 16)

// ---- scalar math that OpenCL has and CUDA spells differently ---------------
__device__ __forceinline__ float mad(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ int mad24(int a, int b, int c) { return __mul24(a, b) + c; }
__device__ __forceinline__ int mul24(int a, int b) { return __mul24(a, b); }
__device__ __forceinline__ uint mad24(uint a, uint b, uint c) { return __umul24(a, b) + c; }
__device__ __forceinline__ uint mul24(uint a, uint b) { return __umul24(a, b); }
__device__ __forceinline__ float clamp(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }
__device__ __forceinline__ int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
__device__ __forceinline__ float mix(float a, float b, float t) { return a + (b - a) * t; }
__device__ __forceinline__ float native_recip(float x) { return __fdividef(1.0f, x); }
__device__ __forceinline__ float native_divide(float a, float b) { return __fdividef(a, b); }
__device__ __forceinline__ float native_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ float native_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ float native_exp(float x) { return __expf(x); }
__device__ __forceinline__ float native_log(float x) { return __logf(x); }
__device__ __forceinline__ float native_sin(float x) { return __sinf(x); }
__device__ __forceinline__ float native_cos(float x) { return __cosf(x); }
__device__ __forceinline__ float native_powr(float a, float b) { return __powf(a, b); }
#define half_recip native_recip
#define half_divide native_divide
#define half_sqrt native_sqrt
#define half_rsqrt native_rsqrt
#define half_exp native_exp
#define half_log native_log
__device__ __forceinline__ float select(float a, float b, int c) { return c ? b : a; }
__device__ __forceinline__ int select(int a, int b, int c) { return c ? b : a; }
#define convert_float(x) ((float)(x))
#define convert_int(x) ((int)(x))
#define convert_uint(x) ((uint)(x))
__device__ __forceinline__ float as_float(int x) { return __int_as_float(x); }
__device__ __forceinline__ float as_float(uint x) { return __uint_as_float(x); }
__device__ __forceinline__ int as_int(float x) { return __float_as_int(x); }
__device__ __forceinline__ uint as_uint(float x) { return __float_as_uint(x); }

// ---- CUDA extras: read-only loads and warp shuffles -----------------------
template <typename T> __device__ __forceinline__ T gk_ldg(const T *p) { return __ldg(p); }
__device__ __forceinline__ gk_float2 gk_ldg(const gk_float2 *p)
{
    float2 v = __ldg(reinterpret_cast<const float2 *>(p));
    return {v.x, v.y};
}
__device__ __forceinline__ gk_float4 gk_ldg(const gk_float4 *p)
{
    float4 v = __ldg(reinterpret_cast<const float4 *>(p));
    return {v.x, v.y, v.z, v.w};
}
__device__ __forceinline__ gk_float8 gk_ldg(const gk_float8 *p)
{
    gk_float8 r;
    r.lo = gk_ldg(reinterpret_cast<const gk_float4 *>(p));
    r.hi = gk_ldg(reinterpret_cast<const gk_float4 *>(p) + 1);
    return r;
}
__device__ __forceinline__ gk_float2 __ldg(const gk_float2 *p) { return gk_ldg(p); }
__device__ __forceinline__ gk_float4 __ldg(const gk_float4 *p) { return gk_ldg(p); }
__device__ __forceinline__ gk_float8 __ldg(const gk_float8 *p) { return gk_ldg(p); }

#define GK_FULL_WARP 0xffffffffu
template <typename T> __device__ __forceinline__ T gk_shfl(T v, int lane, int width = 32)
{
    return __shfl_sync(GK_FULL_WARP, v, lane, width);
}
#if __CUDA_ARCH__ >= 700
// Volta removed the mask-less shuffles; these keep the tutorial's spelling.
template <typename T> __device__ __forceinline__ T __shfl(T v, int lane, int width = 32)
{
    return __shfl_sync(GK_FULL_WARP, v, lane, width);
}
template <typename T> __device__ __forceinline__ T __shfl_up(T v, unsigned delta, int width = 32)
{
    return __shfl_up_sync(GK_FULL_WARP, v, delta, width);
}
template <typename T> __device__ __forceinline__ T __shfl_down(T v, unsigned delta, int width = 32)
{
    return __shfl_down_sync(GK_FULL_WARP, v, delta, width);
}
template <typename T> __device__ __forceinline__ T __shfl_xor(T v, int mask, int width = 32)
{
    return __shfl_xor_sync(GK_FULL_WARP, v, mask, width);
}
#endif

// ---- OpenCL spellings (last, so the code above still sees CUDA's names) -----
// The unprefixed spellings (kernel, global, local, constant, private) are
// turned into these by the source pass: as macros they would break CUDA's
// own __global__/__shared__/__constant__, which expand to those words.
#define __kernel extern "C" __global__
// A tensor map (CUDA's CUtensorMap: 128 opaque bytes, 64-byte aligned) as a
// kernel argument, by value, read in place by cp.async.bulk.tensor: CUDA-only
// kernels (xgemm_wgmma_tma.cl; the argument kind GK_ARG_TENSOR_MAP).
struct __align__(64) gk_tensor_map {
    unsigned long long opaque[16];
};
#define GK_TENSOR_MAP const __grid_constant__ gk_tensor_map
#define __global
#define __local __shared__
#define __constant const
#define __private
#define restrict __restrict__
#define reqd_work_group_size(x, y, z) launch_bounds((x) * (y) * (z))
#define work_group_size_hint(x, y, z)
#define vec_type_hint(t)
// CUDA's constructors give the gemmkit types too (kernel code under __CUDACC__).
#define make_float2(...) gk_vec<gk_float2>(__VA_ARGS__)
#define make_float4(...) gk_vec<gk_float4>(__VA_ARGS__)
#define make_int2(...) gk_vec<gk_int2>(__VA_ARGS__)
#define make_int4(...) gk_vec<gk_int4>(__VA_ARGS__)
#define float2 gk_float2
#define float3 gk_float3
#define float4 gk_float4
#define float8 gk_float8
#define float16 gk_float16
#define int2 gk_int2
#define int4 gk_int4
#define uint2 gk_uint2
#define uint4 gk_uint4

#endif
