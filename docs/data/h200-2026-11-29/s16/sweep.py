import gzip,json,sys,math,collections
for f in sys.argv[1:]:
    d=json.load(gzip.open(f))
    bw=d.get("bandwidth",{})
    res=[r for r in d["results"] if r["kind"]!="baseline"]
    names=sorted(set(r["name"] for r in res), key=lambda s:(len(s),s))
    lab={r["name"]:r.get("label","") for r in res}
    shapes=[]
    for r in res:
        k="%dx%dx%d %s %s"%(r["m"],r["n"],r["k"],r["trans"],r["layout"])
        if k not in shapes: shapes.append(k)
    t={}
    for r in res:
        k="%dx%dx%d %s %s"%(r["m"],r["n"],r["k"],r["trans"],r["layout"])
        if r["status"]=="ok": t[(r["name"],k)]=(r["kernel_ms"]["median"],r["fraction_of_roofline"],r["total_ms"]["median"])
    print("==",f, "bandwidth", bw.get("gbs"))
    for n in names: print("  ",n, [r for r in d["results"] if r["name"]==n][0].get("note","")[:90])
    print("%-26s"%"shape"+"".join("%7s"%n.split("#")[-1][:6] for n in names))
    for s in shapes:
        best=min(t[(n,s)][0] for n in names if (n,s) in t)
        print("%-26s"%s[:26]+"".join("%7.2f"%(t[(n,s)][1]) if (n,s) in t else "      -" for n in names), " best %.3f"%best)
    for n in names:
        v=[t[(n,s)][1] for s in shapes if (n,s) in t]
        print("geomean roof %-20s %.3f  (%d)"%(n, math.exp(sum(map(math.log,v))/len(v)) if v else 0, len(v)))
