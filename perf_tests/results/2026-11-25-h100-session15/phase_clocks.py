#!/usr/bin/env python3
"""Mean SM clock, board power and temperature over the second half of each
timed phase (the half whose median the programs report), from an nvidia-smi
trace (timestamp,clocks.sm,power.draw,temperature.gpu) and the programs' CSV
rows (start_unix, end_unix).

  phase_clocks.py run1-smi.csv run1-wgmma.csv run1-cublas.csv
"""
import csv
import datetime as dt
import sys


def samples(path):
    out = []
    for row in csv.reader(open(path)):
        t = dt.datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f").replace(tzinfo=dt.timezone.utc)
        out.append((t.timestamp(), float(row[1].split()[0]), float(row[2].split()[0]), float(row[3])))
    return out


def main():
    trace = samples(sys.argv[1])
    print("| program | round | configuration | TFLOP/s | SM clock (MHz) | power (W) | temperature (C) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for path in sys.argv[2:]:
        for r in csv.DictReader(open(path)):
            start, end = float(r["start_unix"]), float(r["end_unix"])
            held = [s for s in trace if (start + end) / 2 <= s[0] <= end]
            mean = lambda i: sum(s[i] for s in held) / len(held)
            name = r.get("accumulator") or r.get("config") or r.get("pattern")
            print(f"| {path} | {r['round']} | {name} | {r['tflops']} | {mean(1):.0f} | {mean(2):.0f} | {mean(3):.0f} |")


main()
