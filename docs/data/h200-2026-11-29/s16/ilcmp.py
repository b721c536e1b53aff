import gzip,json,sys
d=sys.argv[1]
A=json.load(gzip.open(d+"/A.json.gz")); B=json.load(gzip.open(d+"/B.json.gz"))
def tab(x):
    t={}
    for r in x["results"]:
        k="%dx%dx%d %s %s"%(r["m"],r["n"],r["k"],r["trans"],r["layout"])
        if r["status"]=="ok": t.setdefault(k,{})[r["name"]]=r
    return t
a=tab(A); b=tab(B)
rows=[]
for k in a:
    if k not in b or "best" not in a[k] or "best" not in b[k]: continue
    ra=a[k]["best"]; rb=b[k]["best"]; ca=a[k].get("cublas"); cb=b[k].get("cublas")
    ta=ra["total_ms"]["median"]; tb=rb["total_ms"]["median"]
    rows.append((ta/tb,k,ra["resolved"][:24],rb["resolved"][:24],ta,tb,ca["total_ms"]["median"]/ta if ca else 0,cb["total_ms"]["median"]/tb if cb else 0, ra["host_ms"]["median"]/rb["host_ms"]["median"]))
for x in sorted(rows):
    print("%.2fx %-26s %-24s -> %-24s %.3f -> %.3f  cublas %.2f -> %.2f  wall %.2fx"%x)
