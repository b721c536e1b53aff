# The largest K threshold T (of the candidates) such that fp32 (F.json) ran faster than the tensor-core mode (X.json)
# on every fit shape of K <= T; prints T (0 when none).
import json, sys
def times(f):
    d = json.load(open(f))
    return {(r['m'], r['n'], r['k'], r['trans'], r['layout']): r['total_ms']['median']
            for r in d['results'] if r['kind'] == 'gemmkit' and r['status'] == 'ok'}
f, x = times(sys.argv[1]), times(sys.argv[2])
both = sorted(k for k in f if k in x)
t = 0
for cand in (16, 24, 32, 48, 64, 96, 128):
    sel = [k for k in both if k[2] <= cand]
    if sel and all(f[k] < x[k] for k in sel): t = cand
    else: break
for k in both: print(f"{k[0]}x{k[1]}x{k[2]}:{k[3]}:{k[4]} fp32 {f[k]:.3f} ms  tensor-core {x[k]:.3f} ms  {x[k]/f[k]:.2f}x", file=sys.stderr)
print(t)
