#!/usr/bin/env python3
"""Batched judge (runs r3, r5): BACKEND-A-J-BATCH.json.gz (4ca4bfc / the tree before) against BACKEND-B-J-BATCH.json.gz
(this tree), each beside cuBLAS of its own run: per shape the ratio to cuBLAS of each side and B's speed over A's, then the
geomeans over the fresh draw (groups 1-3) and bench/batched.sh's rows (4-9). usage: python3 judge_batched.py rN"""
import gzip,json,glob,math,sys
d=sys.argv[1]
def gm(x): return math.exp(sum(map(math.log,x))/len(x))
for be in ("cuda","opencl"):
    rows=[]
    for f in sorted(glob.glob(f"{d}/{be}-A-*.json.gz")):
        base=f.split("/")[-1]
        j=int(base.split("-")[2]); batch=base.split("-")[3].split(".")[0]
        fb=f.replace(f"{be}-A-",f"{be}-B-")
        for side,ff in (("A",f),("B",fb)):
            for r in json.load(gzip.open(ff))["results"]:
                if r["status"]!="ok": continue
                key=(j,int(batch),r["m"],r["n"],r["k"])
                rows.append((key,side,r["name"],r["total_ms"]["median"],r.get("resolved","")))
    t={}
    for key,side,name,ms,res in rows:
        t.setdefault(key,{})[(side,name)]=(ms,res)
    fresh={"A":[],"B":[]}; fixed={"A":[],"B":[]}
    print(be)
    for key in sorted(t):
        v=t[key]
        ra=v[("A","cublas")][0]/v[("A","best")][0]; rb=v[("B","cublas")][0]/v[("B","best")][0]
        (fresh if key[0]<=3 else fixed)["A"].append(ra); (fresh if key[0]<=3 else fixed)["B"].append(rb)
        print("  %6d x %4dx%4dx%4d  A %.2fx  B %.2fx  B/A %.2f  %s -> %s"%(key[1],key[2],key[3],key[4],ra,rb,v[("A","best")][0]/v[("B","best")][0],v[("A","best")][1][-50:],v[("B","best")][1][-50:]))
    for nm,s in (("fresh",fresh),("rows",fixed)):
        print(" %s: A %.3fx (min %.2f, under 1.0: %d)  B %.3fx (min %.2f, under 1.0: %d) of %d"%(nm,gm(s["A"]),min(s["A"]),sum(x<1 for x in s["A"]),gm(s["B"]),min(s["B"]),sum(x<1 for x in s["B"]),len(s["A"])))
