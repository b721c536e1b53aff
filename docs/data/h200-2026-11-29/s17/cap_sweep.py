#!/usr/bin/env python3
"""Run a's table: per shape and line, xgemm-direct-splitk at 4-32 slices with the in-kernel sum capped at 4 (base:
past 4 the reduction step) and at 32 (cap), device us, cuBLAS beside. usage: cap_sweep.py [DIR (default a)]"""
import json,gzip,sys,collections,os
os.chdir(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'a'))
lines=['tiny','narrow-m','narrow-n','small','small48','tiny-ring']
T=collections.defaultdict(dict); cub={}
for tree in ['base','cap']:
  for part in [1,2]:
    d=json.load(gzip.open(f'{tree}-{part}.json.gz'))
    for r in d['results']:
      key=f"{r['m']}x{r['n']}x{r['k']} {r['trans']} {r['layout']}"
      if r['kind']!='gemmkit':
        if r['status']=='ok' and r['name']=='cublas': cub[key]=r['total_ms']['median']
        continue
      i=int(r['name'].split('#')[1])-1
      line=lines[(part-1)*3+i//4]; s=[4,8,16,32][i%4]
      T[key][(tree,line,s)]=r['total_ms']['median'] if r['status']=='ok' else None
for key in T:
  print(f"{key}  cuBLAS {cub.get(key,0)*1000:.1f} us")
  for l in lines:
    row=[]
    for tree in ['base','cap']:
      row.append(' '.join(f"{(T[key].get((tree,l,s)) or 0)*1000:6.1f}" for s in [4,8,16,32]))
    print(f"   {l:10s} base {row[0]} | cap {row[1]}")
