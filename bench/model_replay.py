#!/usr/bin/env python3
"""Replays the cost model's choice on timed candidates: for each shape of `gemmkit bench --candidates-out` tables
(every candidate timed on the GPU), the current build's model predicts every candidate (the fake-device dump of
tests/test_cost_model, on the built-in lines of the device named), and the replay picks the cheapest predicted among
those that were timed. It reports how often that choice is within 10% of the fastest timed candidate, beside the
choice recorded when the table was made, and the model's error, log(measured / predicted), by line and orientation.

usage: bench/model_replay.py [--backend cuda] [--device NAME] [--build build] [--db TUNING.tsv] TABLE.tsv...
--db: a tuning database read over the built-in one (e.g. `tune --calibrate`'s cost: lines for the device named).
A table timed with other lines than the build's is replayed over the candidates both have."""
import argparse, collections, csv, math, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("tables", nargs="+")
ap.add_argument("--backend", default="cuda")
ap.add_argument("--device", default="NVIDIA H100 80GB HBM3")
ap.add_argument("--build", default="build")
ap.add_argument("--db", default="/nonexistent/gemmkit-model-replay.tsv")
ap.add_argument("--within", type=float, default=1.10)
args = ap.parse_args()


def key_of(r):
    return (r["shape"], r["trans"], r["layout"])


def predictions(shapes):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for s in shapes:
            f.write(" ".join(s) + "\n")
    env = dict(os.environ, GK_DUMP_FILE=f.name, GK_DUMP_BACKEND=args.backend, GK_DUMP_DEVICE=args.device,
               GEMMKIT_TUNING_DB=args.db, GEMMKIT_QUIET="1")
    out = subprocess.run([os.path.join(args.build, "tests", "test_cost_model")], env=env, capture_output=True,
                         text=True).stdout
    os.unlink(f.name)
    pred = {}
    for line in out.splitlines():
        cols = line.split("\t")
        if len(cols) == 7:
            pred[(cols[0], cols[1], cols[2], cols[3], cols[4], int(cols[5]))] = float(cols[6])
    return pred


total = collections.Counter()
errors = collections.defaultdict(list)
for table in args.tables:
    rows = [r for r in csv.DictReader(open(table), delimiter="\t") if r["status"] == "ok"]
    by = collections.OrderedDict()
    for r in rows:
        by.setdefault(key_of(r), []).append(r)
    pred = predictions(by.keys())
    now_ok = then_ok = n = 0
    misses = []
    for k, rs in by.items():
        timed = {}
        for r in rs:
            timed[(r["kernel"], r["line"], int(r["splits"]))] = float(r["measured_ms"])
        fastest = min(timed.values())
        both = {c: ms for c, ms in timed.items() if k + c in pred}
        if not both:
            continue
        choice = min(both, key=lambda c: pred[k + c])
        default = float(rs[0]["default_ms"])
        n += 1
        now_ok += both[choice] <= args.within * fastest
        then_ok += default <= args.within * fastest
        if both[choice] > args.within * fastest:
            best = min(both, key=both.get)
            misses.append(f"  {' '.join(k)}: {choice[1]} s{choice[2]} {both[choice]:.4f} ms (predicted "
                          f"{pred[k + choice]:.4f}) against {best[1]} s{best[2]} {both[best]:.4f} (predicted "
                          f"{pred[k + best]:.4f}): {both[choice] / fastest:.2f}x")
        for c, ms in both.items():
            kind = "split" if c[2] > 1 else "unsplit"
            errors[(c[1], k[1] + " " + k[2], kind)].append(math.log(ms / pred[k + c]))
    total["n"] += n
    total["now"] += now_ok
    total["then"] += then_ok
    print(f"{table}: {n} shapes; the model now within {args.within:.2f}x of the fastest on {now_ok}, the recorded "
          f"choice on {then_ok}")
    print("\n".join(misses))
print(f"all: {total['n']} shapes; now {total['now']}, recorded {total['then']}")
print("\nlog(measured / predicted) by line, orientation and layout, splits (mean, count), |mean| >= 0.15:")
for key, v in sorted(errors.items(), key=lambda kv: -abs(sum(kv[1]) / len(kv[1]))):
    mean = sum(v) / len(v)
    if abs(mean) >= 0.15 and len(v) >= 3:
        print(f"  {key[0]:26s} {key[1]:7s} {key[2]:7s} {mean:+.2f} ({len(v)})")
