import sys,re,statistics
c=[];k=[];st=[]
for l in open(sys.argv[2]):
    m=re.search(r"side-copy (\d+) MB in ([\d.]+) us \(from kernel start \+([-\d.]+)\); kernel consumers end at ([\d.]+)",l)
    if m and float(m.group(4))>0: c.append(float(m.group(2))); st.append(float(m.group(3))); k.append(float(m.group(4)))
if k: print(f"{sys.argv[1]:45s} calls {len(k):3d} kernel median {statistics.median(k):8.1f} us  copy median {statistics.median(c):8.1f} us")
else: print(sys.argv[1], "no lines")
