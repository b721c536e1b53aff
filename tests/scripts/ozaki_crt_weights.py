#!/usr/bin/env python3
"""The Garner weights compiled into library/ozaki_crt.cl (gk_crt_weight) against their definition over the moduli of
library/ozaki.h (gk_modulus): weight(u, z) = p_0 ... p_(u-1) mod p_z for u < z, weight(z, z) = (p_0 ... p_(z-1))^-1
mod p_z. With --print, writes the switch's cases from that definition (how the table was made; paste them into
gk_crt_weight when the moduli change).

usage: ozaki_crt_weights.py SOURCE_DIR [--print]
"""
import re
import sys


def moduli(header):
    """gk_modulus's cases in order, its default last."""
    body = header[header.index("static inline int gk_modulus"):]
    body = body[:body.index("\n}\n")]
    cases = {int(i): int(p) for i, p in re.findall(r"case (\d+): return (\d+);", body)}
    default = int(re.search(r"default: return (\d+);", body).group(1))
    return [cases[i] for i in range(len(cases))] + [default]


def definition(ps):
    """{(u, z): weight} for 0 <= u <= z < len(ps)."""
    table = {}
    for z, p in enumerate(ps):
        w = 1
        for u in range(z + 1):
            table[(u, z)] = w % p if u < z else pow(w, -1, p) if z else 1
            w = w * ps[u] % p if u < z else w
    return table


def compiled(source):
    """{(u, z): weight} as gk_crt_weight's nested switch has them (z = 0 is its default: 1 at u = 0)."""
    body = source[source.index("static inline int gk_crt_weight"):]
    body = body[:body.index("\n}\n")]
    table = {(0, 0): 1}
    for z, inner in re.findall(r"case (\d+): switch \(u\) \{(.*?)default", body):
        for u, w in re.findall(r"case (\d+): return (\d+);", inner):
            table[(int(u), int(z))] = int(w)
    return table


def main():
    root = sys.argv[1]
    with open(f"{root}/src/kernels/library/ozaki.h") as f:
        ps = moduli(f.read())
    want = definition(ps)
    if "--print" in sys.argv:
        for z in range(1, len(ps)):
            cases = " ".join(f"case {u}: return {want[(u, z)]};" for u in range(z + 1))
            print(f"    case {z}: switch (u) {{ {cases} default: return 0; }}")
        return 0
    with open(f"{root}/src/kernels/library/ozaki_crt.cl") as f:
        got = compiled(f.read())
    wrong = [(k, got.get(k), v) for k, v in sorted(want.items()) if got.get(k) != v]
    if len(ps) != 20 or wrong:
        print(f"FAIL: {len(ps)} moduli; weights differing from the definition (u, z), compiled, wanted: {wrong[:8]}")
        return 1
    print(f"ozaki_crt_weights: {len(want)} weights of {len(ps)} moduli as defined")
    return 0


if __name__ == "__main__":
    sys.exit(main())
