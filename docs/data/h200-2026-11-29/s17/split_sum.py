#!/usr/bin/env python3
"""Run b's table: per shape and line, xgemm-direct-splitk at 4 slices summed in the kernel before (HEAD) and after
(a block's loads in flight), and at 8-32 slices through the reduction step (HEAD) and summed in the kernel (cap 32);
geometric means at the end. usage: split_sum.py [DIR (default b)]"""
import json,gzip,collections,sys,os
os.chdir(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'b'))
LC=['tiny','narrow-m','narrow-n','small','small48','tiny-ring']
LO=['tiny','narrow-m','narrow-n','small','small88']
def load(f):
    d=json.load(gzip.open(f)); out={}
    for r in d['results']:
        key=f"{r['m']}x{r['n']}x{r['k']} {r['trans']} {r['layout']}"
        if r['status']!='ok': continue
        out[(key,r['name'])]=r['total_ms']['median']*1000
    return out
P=load('peers.json.gz'); cub={k[0]:v for k,v in P.items() if k[1]=='cublas'}
o4=load('old4-cuda.json.gz'); n4=load('new4-cuda.json.gz')
oo=load('old4-opencl.json.gz'); no=load('new4-opencl.json.gz')
red={}; s32={}
for part,ls in (('a',LC[:3]),('b',LC[3:])):
    for src,dst in ((load(f'reduce-{part}.json.gz'),red),(load(f'sum32-{part}.json.gz'),s32)):
        for (key,name),v in src.items():
            i=int(name.split('#')[1])-1; dst[(key,ls[i//3],[8,16,32][i%3])]=v
import math
shapes=list(cub)
g=collections.defaultdict(list)
for key in shapes:
    print(f"{key:24s} cuBLAS {cub[key]:6.1f}")
    for i,l in enumerate(LC):
        a=o4.get((key,f'xgemm-direct-splitk#{i+1}')); b=n4.get((key,f'xgemm-direct-splitk#{i+1}'))
        r=' '.join(f"{red.get((key,l,s),0):6.1f}" for s in (8,16,32)); q=' '.join(f"{s32.get((key,l,s),0):6.1f}" for s in (8,16,32))
        print(f"   {l:9s} x4 old {a:6.1f} new {b:6.1f} ({a/b:.2f}x) | reduce {r} | sum {q}")
        g['cuda4'].append(math.log(a/b))
        for s in (8,16,32):
            if (key,l,s) in red and (key,l,s) in s32: g[f'sum{s}'].append(math.log(red[(key,l,s)]/s32[(key,l,s)]))
    for i,l in enumerate(LO):
        a=oo.get((key,f'xgemm-direct-splitk#{i+1}')); b=no.get((key,f'xgemm-direct-splitk#{i+1}'))
        if a and b: g['opencl4'].append(math.log(a/b))
for k,v in g.items(): print(k, f"geomean {math.exp(sum(v)/len(v)):.3f}x  min {math.exp(min(v)):.2f} max {math.exp(max(v)):.2f} n={len(v)}")
