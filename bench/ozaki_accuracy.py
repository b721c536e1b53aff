#!/usr/bin/env python3
"""Math mode int8x's accuracy table (issue 38, docs/MATH.md): on inputs whose exponents spread by phi
(GEMMul8's generator idea, (rand - 0.5) * exp(phi * randn), reimplemented), the max and median componentwise
relative error |c - ref| / |ref| (over ref != 0), the max error relative to (|A||B|)ij and the L2 relative error
||c - ref||_F / ||ref||_F against a float64 reference, for gemmkit's int8x at several moduli
(GEMMKIT_OZAKI_MODULI) and at its default (the variable unset: moduli from the operands' spread) beside gemmkit's
fp32 and 3xtf32 and, where PyTorch sees a CUDA device, cuBLAS fp32 (TF32 off) on the same inputs. Markdown on
stdout; then the issue's accuracy targets for the default.

usage: ozaki_accuracy.py [--backend cuda|opencl] [--device SEL] [--n 2048] [--k K] [--phis 0,0.5,1,2,4]
                         [--moduli 6,7,8,9,10,12,14] [--seed 38]
Needs numpy and the gemmkit package (PYTHONPATH=python GEMMKIT_LIBRARY=build/libgemmkit.so); PyTorch optional.
"""
import argparse
import os
import sys

import numpy as np

import gemmkit

try:
    import torch

    HAVE_CUDA = torch.cuda.is_available()
except ImportError:  # the reference on the CPU, no cuBLAS column
    torch = None
    HAVE_CUDA = False


def inputs(rng, shape, phi):
    return ((rng.random(shape) - 0.5) * np.exp(phi * rng.standard_normal(shape))).astype(np.float32)


def reference(a, b):
    """float64 A B and |A||B| (on the GPU where PyTorch has one)."""
    if HAVE_CUDA:
        ta, tb = torch.from_numpy(a).cuda().double(), torch.from_numpy(b).cuda().double()
        return (ta @ tb).cpu().numpy(), (ta.abs() @ tb.abs()).cpu().numpy()
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return a64 @ b64, np.abs(a64) @ np.abs(b64)


def cublas_fp32(a, b):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).cpu().numpy()


def errors(c, ref, abab):
    d = np.abs(c.astype(np.float64) - ref)
    nz = ref != 0
    rel = d[nz] / np.abs(ref[nz])
    with np.errstate(divide="ignore", invalid="ignore"):
        ab = np.where(abab > 0, d / abab, 0.0)
    return {"max": float(rel.max()), "median": float(np.median(rel)), "abab": float(ab.max()),
            "l2": float(np.linalg.norm(d) / np.linalg.norm(ref))}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--backend", default=None)
    p.add_argument("--device", default=None)
    p.add_argument("--n", type=int, default=2048)
    p.add_argument("--k", type=int, default=0, help="K (default n)")
    p.add_argument("--phis", default="0,0.5,1,2,4")
    p.add_argument("--moduli", default="6,7,8,9,10,12,14")
    p.add_argument("--seed", type=int, default=38)
    args = p.parse_args()
    n, k = args.n, args.k or args.n
    ctx = gemmkit.Context(device=args.device, backend=args.backend)
    print("device: %s (%s); %d x %d x %d; seed %d; reference float64 on %s" %
          (ctx.device.name, ctx.device.backend, n, n, k, args.seed, "the GPU (PyTorch)" if HAVE_CUDA else "the CPU"))
    print()
    print("| phi | method | max rel | median rel | max err / (|A||B|)ij | L2 rel |")
    print("| --- | --- | --- | --- | --- | --- |")
    moduli = [int(m) for m in args.moduli.split(",") if m]
    verdicts = []
    rng = np.random.default_rng(args.seed)
    for phi in [float(x) for x in args.phis.split(",")]:
        a, b = inputs(rng, (n, k), phi), inputs(rng, (k, n), phi)
        ref, abab = reference(a, b)
        rows = []
        if HAVE_CUDA:
            rows.append(("cuBLAS fp32", errors(cublas_fp32(a, b), ref, abab)))
        for mode in ("fp32", "3xtf32"):
            try:
                rows.append(("gemmkit " + mode, errors(gemmkit.sgemm(a, b, math=mode, context=ctx), ref, abab)))
            except gemmkit.GemmkitError as error:
                print("| %g | gemmkit %s | refused: %s | | | |" % (phi, mode, str(error).replace("|", "/")))
        for m in moduli:
            os.environ["GEMMKIT_OZAKI_MODULI"] = str(m)
            rows.append(("gemmkit int8x, %d moduli" % m, errors(gemmkit.sgemm(a, b, math="int8x", context=ctx), ref,
                                                                 abab)))
        os.environ.pop("GEMMKIT_OZAKI_MODULI", None)
        rows.append(("gemmkit int8x, default", errors(gemmkit.sgemm(a, b, math="int8x", context=ctx), ref, abab)))
        for name, e in rows:
            print("| %g | %s | %.2e | %.2e | %.2e | %.2e |" % (phi, name, e["max"], e["median"], e["abab"], e["l2"]))
        by = dict(rows)
        ours = by.get("gemmkit int8x, default")
        bar_name = ("cuBLAS fp32" if HAVE_CUDA else "gemmkit fp32") if phi <= 1 else "gemmkit 3xtf32"
        bar = by.get(bar_name)
        if ours and bar:
            ok = ours["max"] <= bar["max"] and ours["median"] <= bar["median"]
            verdicts.append("phi %g: int8x (default) max %.2e / median %.2e against %s's %.2e / %.2e: %s" %
                            (phi, ours["max"], ours["median"], bar_name, bar["max"], bar["median"],
                             "met" if ok else "NOT met"))
        sys.stdout.flush()
    print()
    print("Targets (issue 38: max and median at or below cuBLAS fp32's on phi <= 1, 3xTF32's on phi 2 and 4):")
    for v in verdicts:
        print("- " + v)
    ctx.close()


if __name__ == "__main__":
    main()
