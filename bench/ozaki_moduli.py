#!/usr/bin/env python3
"""int8x's error without a GPU: an emulation of the Ozaki scheme's rounding (each row of op(A) and column of op(B)
scaled by the power of two that keeps its 2-norm within the norm bound of N moduli, rounded to integers, the exact
product, C rounded to fp32: the scheme's only errors), beside fp32's naive k-order loop on the same inputs
((u - 0.5) exp(phi n), test_ozaki's generator). docs/MATH.md, "Choosing the moduli".

  ozaki_moduli.py draws M N K PHI DRAWS SEED   one line per draw: phi, K, s (bits), qA, qB, the rule's count, then
                                               per 8, 9, 10, 11 moduli: max / (|A||B|)ij and max relative error,
                                               each over fp32's
  ozaki_moduli.py rules FILE...                per FREE (the rule's spread in bits that 8 moduli hold): the average
                                               count and the draws above fp32's, by phi
  ozaki_moduli.py library SEED DRAWS           the library's int8x (GEMMKIT_LIBRARY, PoCL or any device) at 8
                                               moduli against the emulation: the largest difference (0: the same)
Needs numpy."""
import math, os, sys
import numpy as np

MODULI = [256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 217, 211, 199, 197, 193, 191, 181, 179, 173]


def norm_bound(moduli, k):  # library/ozaki.h's gk_ozaki_norm_bound
    p = math.prod(MODULI[:moduli])
    return math.sqrt(0.5 * p) * (1 - 9.5367431640625e-07) - 0.5 * math.sqrt(k) - 1


def rounded_rows(x, moduli):
    """Each row scaled to the norm bound by a power of two, rounded, scaled back (exact in fp64)."""
    b = norm_bound(moduli, x.shape[1])
    x = x.astype(np.float64)
    norm = np.sqrt((x * x).sum(1))
    e = np.floor(np.log2(b / norm)).astype(int)
    e = np.where(np.ldexp(norm, e + 1) <= b, e + 1, e)
    e = np.where(np.ldexp(norm, e) > b, e - 1, e)
    return np.ldexp(np.rint(np.ldexp(x, e[:, None])), -e[:, None])


def int8x(a, b, moduli):
    return (rounded_rows(a, moduli) @ rounded_rows(b.T, moduli).T).astype(np.float32)


def quarter_bits(x):  # ozaki_norms.cl's spread: the largest ceil(2 log2(K |x|_2^2 / |x|_1^2)) over the rows
    x = x.astype(np.float64)
    squares, magnitudes = (x * x).sum(1), np.abs(x).sum(1)
    return int(np.clip(np.ceil(2 * np.log2(x.shape[1] * squares / (magnitudes * magnitudes))), 0, 255).max())


def rule(qa, qb, k, free_bits):  # plan_ozaki.c's gk_ozaki_moduli_for_spread with GK_OZAKI_FREE_SPREAD_BITS = free
    beyond = qa + qb - int(4 * free_bits)
    count = 8 + ((beyond + 7) // 8 if beyond > 0 else 0)
    cap = math.ceil(2 * math.log2(k)) if k > 1 else 0
    if k >= 16 and (qa >= cap or qb >= cap): count = max(count, 12)
    return min(count, 20)


def draw(rng, m, n, k, phi):
    a = ((rng.random((m, k)) - 0.5) * np.exp(phi * rng.standard_normal((m, k)))).astype(np.float32)
    b = ((rng.random((k, n)) - 0.5) * np.exp(phi * rng.standard_normal((k, n)))).astype(np.float32)
    return a, b


def fp32_naive(a, b):
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for t in range(a.shape[1]): c = (c + np.outer(a[:, t], b[t, :]).astype(np.float32)).astype(np.float32)
    return c


def measures(c, a, b):
    """Max relative error and max |c - ref| / (|A||B|)ij against float64."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref, abab = a64 @ b64, np.abs(a64) @ np.abs(b64)
    d = np.abs(c.astype(np.float64) - ref)
    return (d / np.abs(ref)).max(), (d / abab).max()


def draws(m, n, k, phi, count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        a, b = draw(rng, m, n, k, phi)
        f = measures(fp32_naive(a, b), a, b)
        qa, qb = quarter_bits(a), quarter_bits(b.T)
        cols = [f"{phi} {k} {(qa + qb) / 4:.2f} {qa} {qb} {rule(qa, qb, k, 7)}"]
        for moduli in (8, 9, 10, 11):
            e = measures(int8x(a, b, moduli), a, b)
            cols.append(f"{e[1] / f[1]:.3f} {e[0] / f[0]:.3f}")
        print(" ".join(cols), flush=True)


def rules(files):
    rows = []
    for path in files:
        for line in open(path):
            c = line.split()
            rows.append((float(c[0]), int(c[1]), int(c[3]), int(c[4]),
                         {8 + i: (float(c[6 + 2 * i]), float(c[7 + 2 * i])) for i in range(4)}))
    for free in (9, 8, 7.5, 7, 6.5, 6):
        by = {}
        for phi, k, qa, qb, ratios in rows:
            count = min(rule(qa, qb, k, free), 11)  # the draws time 8-11 moduli
            b = by.setdefault(phi, [0, 0, 0.0])
            b[0] += 1
            b[1] += ratios[count][0] > 1 or ratios[count][1] > 1
            b[2] += count
        print(f"free {free}: " + "; ".join(f"phi {p}: {b[2] / b[0]:.2f} moduli, {b[1]} of {b[0]} above fp32's"
                                           for p, b in sorted(by.items())))


def library(seed, count):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    os.environ["GEMMKIT_OZAKI_MODULI"] = "8"
    import gemmkit
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(count):
        a, b = draw(rng, 96, 80, 1024, 2.0)
        worst = max(worst, float(np.abs(gemmkit.sgemm(a, b, math="int8x").astype(np.float64) -
                                        int8x(a, b, 8).astype(np.float64)).max()))
    print(f"largest difference between the library and the emulation over {count} draws: {worst:.3g}")


if __name__ == "__main__":
    if len(sys.argv) >= 8 and sys.argv[1] == "draws":
        draws(*map(int, sys.argv[2:5]), float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "rules":
        rules(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "library":
        library(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)
