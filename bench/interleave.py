#!/usr/bin/env python3
"""Before/after in one run, interleaved: two gemmkit commands (two builds, or one build with two tuning databases)
time the same shapes in alternating chunks, A then B, then B then A, so that a drift of the device or of the peers
over the run (2-5% between the steps of one run on an H200, docs/PERFORMANCE.md) falls on both alike. Each side's
results are merged into one `bench --json` file (SIDE.json, its "summary" dropped: the report below replaces it),
and the report compares gemmkit's own call and wall times, B against A, and each against the peer.

usage: bench/interleave.py --a "CMD" --b "CMD" --out DIR [--chunk 8] [--budget SECONDS] [--runner best] -- BENCH_ARGS...
  CMD: a gemmkit command line before `bench` ("build-before/gemmkit --backend cuda",
       "env GEMMKIT_TUNING_DB=new.tsv build/gemmkit --backend cuda")
  BENCH_ARGS: gemmkit bench's options; --sizes is required (random:COUNT:SEED is expanded by A's --list-sizes);
       --json, --csv and --plot are the script's own.
A chunk is started only while --budget lasts; both sides of every started chunk are run. SIDE.json and report.txt
are rewritten after every chunk, so that a run cut short (a step's time limit) keeps the chunks it finished."""
import argparse, json, math, os, shlex, subprocess, sys, time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--a", required=True)
ap.add_argument("--b", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--chunk", type=int, default=8)
ap.add_argument("--budget", type=float, default=1e9)
ap.add_argument("--runner", default="best", help="the gemmkit runner compared (bench's name column; default best)")
ap.add_argument("bench", nargs=argparse.REMAINDER)
args = ap.parse_args()
bench = args.bench[1:] if args.bench[:1] == ["--"] else args.bench
if "--sizes" not in bench or bench.index("--sizes") + 1 >= len(bench):
    sys.exit("interleave: BENCH_ARGS need --sizes")
if any(o in bench for o in ("--json", "--csv", "--plot", "--list-sizes")):
    sys.exit("interleave: --json, --csv, --plot and --list-sizes are the script's own")
at = bench.index("--sizes")
spec, rest = bench[at + 1], bench[:at] + bench[at + 2:]
os.makedirs(args.out, exist_ok=True)
sides = {"A": shlex.split(args.a), "B": shlex.split(args.b)}

listed = subprocess.run(sides["A"] + ["bench", "--sizes", spec, "--list-sizes"], capture_output=True, text=True)
if listed.returncode != 0:
    sys.exit("interleave: %s" % listed.stderr.strip())
shapes = listed.stdout.split()
chunks = [shapes[i:i + max(args.chunk, 1)] for i in range(0, len(shapes), max(args.chunk, 1))]


def write_atomically(name, text):
    """DIR/name through a temporary file and a rename: a reader never sees half of it."""
    with open(os.path.join(args.out, name + ".tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(args.out, name + ".tmp"), os.path.join(args.out, name))


PEERS = ("cublas", "clblast", "cpublas")  # the pure fp32 peers, before cublas-tf32


def is_runner(name):
    """The runner's records; "best" also names the library's choice in another math mode (bench's best-int8x ...)."""
    if name == args.runner:
        return True
    return args.runner == "best" and name in ("best-3xtf32", "best-tf32", "best-int8x")


def by_shape(data):
    own, peer = {}, {}
    for r in data["results"]:
        if r.get("status") != "ok":
            continue
        key = (r["m"], r["n"], r["k"], r["trans"], r["layout"])
        if r["kind"] == "gemmkit":
            if is_runner(r["name"]):
                own[key] = r
        elif key not in peer or (r["name"] in PEERS and peer[key]["name"] not in PEERS):
            peer[key] = r
    return own, peer


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def ms(r, clock):
    return r[clock]["median"]


def report(merged):
    """Each side's merged JSON and the report from the chunks run so far: the report's lines, and the shapes both
    sides timed."""
    for side, data in merged.items():
        write_atomically(side + ".json", json.dumps(data, indent=1))
    own_a, peer_a = by_shape(merged.get("A", {"results": []}))
    own_b, peer_b = by_shape(merged.get("B", {"results": []}))
    common = [k for k in own_a if k in own_b]
    lines = ["interleaved: %d shapes of %d in chunks of %d (A: %s; B: %s)" % (len(common), len(shapes), args.chunk,
                                                                            args.a, args.b)]
    for clock, name in (("total_ms", "call"), ("host_ms", "wall")):
        lines.append("B's %s time against A's: %.3fx faster (geometric mean)" %
                     (name, geomean([ms(own_a[k], clock) / ms(own_b[k], clock) for k in common])))
    with_peer = [k for k in common if k in peer_a and k in peer_b]
    for side, own, peer in (("A", own_a, peer_a), ("B", own_b, peer_b)):
        ratios = [ms(peer[k], "total_ms") / ms(own[k], "total_ms") for k in with_peer]
        if ratios:
            lines.append("%s against %s: %.3fx call (wall %.3fx), %d under 0.90x, %d under 0.80x" % (
                side, peer[with_peer[0]]["name"], geomean(ratios),
                geomean([ms(peer[k], "host_ms") / ms(own[k], "host_ms") for k in with_peer]),
                sum(r < 0.9 for r in ratios), sum(r < 0.8 for r in ratios)))
    if with_peer:
        lines.append("the peer's own drift, A's run against B's: %.3fx" %
                     geomean([ms(peer_a[k], "total_ms") / ms(peer_b[k], "total_ms") for k in with_peer]))
    write_atomically("report.txt", "\n".join(lines) + "\n")
    return lines, common


started = time.time()
merged = {}
for c, chunk in enumerate(chunks):
    if time.time() - started > args.budget:
        print("interleave: budget spent after %d of %d chunks" % (c, len(chunks)), file=sys.stderr)
        break
    for side in ("A", "B") if c % 2 == 0 else ("B", "A"):
        path = os.path.join(args.out, "%s-%03d.json" % (side, c))
        run = subprocess.run(sides[side] + ["bench", "--sizes", ",".join(chunk), "--json", path] + rest,
                             stdout=open(os.path.join(args.out, "%s-%03d.log" % (side, c)), "w"),
                             stderr=subprocess.STDOUT)
        if not os.path.exists(path):
            sys.exit("interleave: side %s, chunk %d wrote no JSON (exit %d; %s-%03d.log)" % (side, c, run.returncode,
                                                                                           side, c))
        part = json.load(open(path))
        if side in merged:
            merged[side]["results"] += part["results"]
        else:
            merged[side] = dict(part, summary=None, interleave={"chunk": args.chunk, "command": sides[side]})
    report(merged)

lines, common = report(merged)
print("\n".join(lines))
if not common:
    print("interleave: no shape has runner %s's results on both sides" % args.runner, file=sys.stderr)
sys.exit(0 if common else 1)
