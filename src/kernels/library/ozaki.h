// The Ozaki scheme II's moduli and integer helpers (GK_MATH_INT8X, docs/MATH.md), shared by ozaki_norms.cl,
// ozaki_slice.cl, igemm.cl, igemm_tc.cl and ozaki_crt.cl. The moduli: pairwise coprime and at most 256, so that every symmetric residue fits
// an int8 (-128..127 for 256, -(p-1)/2..(p-1)/2 for the odd ones), taken greedily from 256 down; their product
// P bounds the integers the products may reach (|c| < P/2 recovers c exactly). A function rather than a table:
// the CUDA translation has no program-scope __constant arrays.

#ifndef GK_CUDA
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef char gk_s8;
#else
typedef signed char gk_s8;
#endif

#define GK_OZAKI_MAX_MODULI 20
// The exponent of a row or column holding Inf or NaN: the recombination computes its elements in fp32.
#define GK_OZAKI_NONFINITE (-0x40000000)

static inline int gk_modulus(const int i)
{
    switch (i) {
    case 0: return 256; case 1: return 255; case 2: return 253; case 3: return 251; case 4: return 247;
    case 5: return 241; case 6: return 239; case 7: return 233; case 8: return 229; case 9: return 227;
    case 10: return 223; case 11: return 217; case 12: return 211; case 13: return 199; case 14: return 197;
    case 15: return 193; case 16: return 191; case 17: return 181; case 18: return 179; default: return 173;
    }
}

// x (|x| < 2^31) reduced to its symmetric residue mod p: -128..127 for 256, |r| <= (p-1)/2 for odd p.
static inline int gk_symmetric(int x, const int p)
{
    x %= p; // C's remainder: the sign of x, |x| < p
    if (2 * x >= p) x -= p;
    else if (2 * x < -p) x += p;
    return x;
}

// The low 32 bits of a double's representation (little-endian devices: NVIDIA's, PoCL's).
#ifdef GK_CUDA
#define gk_low_word(d) __double2loint(d)
#else
#define gk_low_word(d) as_int2(d).x
#endif

// The symmetric residue of an integer-valued double v, |v| < 2^80. q need not be v / p rounded: any integer q
// within 2^22 of v / p leaves v - q p an integer below 2^30, exact in the fma, and gk_symmetric's result is the
// same for every such q. So q comes from a multiplication by 1/p (relative error 2^-53: within 2^21 of v / p at
// |v| < 2^80) rather than a division, which costs an fp64 iteration; with p a compile-time constant (unrolled
// loops over MODULI), 1/p is one too.
static inline int gk_residue(const double v, const int p)
{
#if defined(MODULI) && MODULI <= 14
    // Up to 14 moduli |v| <= sqrt(P/2) < 2^55, so |v / p| < 2^48: adding and subtracting 1.5 * 2^52 rounds
    // v * (1/p) to an integer q (within 1 of v / p) on the fp64 pipe, and v - q p (|x| < 1.5 p) comes out of
    // the same trick as the low word of x + 1.5 * 2^52 (two's complement): no conversion instructions, whose
    // rate is a quarter of fp64's, and no remainder (gk_symmetric's folds suffice below 1.5 p). It needs IEEE
    // arithmetic as written (no fast-math reassociation, which would fold (y + magic) - magic to y): the library
    // builds every program without such options.
    const double magic = 6755399441055744.0;
    const double q = (v * (1.0 / (double)p) + magic) - magic;
    int x = gk_low_word(fma(-(double)p, q, v) + magic);
    if (2 * x >= p) x -= p;
    else if (2 * x < -p) x += p;
    return x;
#else
    const double q = rint(v * (1.0 / (double)p));
    return gk_symmetric((int)fma(-(double)p, q, v), p);
#endif
}

// The largest 2-norm a scaled row (or column) may have after rounding to integers: sqrt(P/2), less the rounding
// (each element moves by at most 1/2: sqrt(k)/2 in norm) and a margin for the norm's own rounding, so that by
// Cauchy-Schwarz every product |a_i . b_j| <= |a_i| |b_j| stays below P/2.
static inline double gk_ozaki_norm_bound(const int moduli, const int k)
{
    double p = 1.0;
    for (int i = 0; i < moduli; i++) p *= (double)gk_modulus(i);
    return sqrt(0.5 * p) * (1.0 - 9.5367431640625e-07) - 0.5 * sqrt((double)k) - 1.0;
}

// The largest e with norm * 2^e <= bound (norm > 0 and finite, bound > 0).
static inline int gk_ozaki_exponent(const double norm, const double bound)
{
    int e = ilogb(bound) - ilogb(norm) - 1; // norm 2^e < 2^ilogb(bound) <= bound
    if (ldexp(norm, e + 1) <= bound) e++;
    return e;
}
