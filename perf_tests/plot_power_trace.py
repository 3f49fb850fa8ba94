#!/usr/bin/env python3
"""Plots an nvidia-smi trace: SM clock and board power against time, with the
samples where the power cap held the clock down shaded.

The trace is what
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
             --format=csv,noheader -lms 100 > trace.csv
writes while a benchmark runs.

  plot_power_trace.py trace.csv --out trace.png [--limit 700] [--mark 'label@HH:MM:SS' ...]
"""
import argparse
import csv
import datetime as dt
import sys

SW_POWER_CAP = 0x4  # clocks_event_reasons bit: software power cap


def read_trace(path):
    rows = []
    with open(path, newline="") as f:
        for fields in csv.reader(f):
            if len(fields) < 5:
                continue
            stamp, clock, power, temp, reasons = (x.strip() for x in fields[:5])
            try:
                t = dt.datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f")
                rows.append((t, float(clock.split()[0]), float(power.split()[0]), int(reasons, 16)))
            except ValueError:
                continue  # a header or a field nvidia-smi could not read
    if not rows:
        sys.exit(f"{path}: no samples")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=float, default=700.0, help="the board's power limit, W")
    ap.add_argument("--mark", action="append", default=[], help="label@HH:MM:SS[.fff]: a phase starting then")
    ap.add_argument("--title", default="")
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_trace(args.trace)
    t0 = rows[0][0]
    t = [(r[0] - t0).total_seconds() for r in rows]
    clock = [r[1] for r in rows]
    power = [r[2] for r in rows]
    capped = [bool(r[3] & SW_POWER_CAP) for r in rows]

    fig, (ax_c, ax_p) = plt.subplots(2, 1, sharex=True, figsize=(10, 5.5))
    for ax in (ax_c, ax_p):
        for i in range(len(t) - 1):
            if capped[i]:
                ax.axvspan(t[i], t[i + 1], color="tab:red", alpha=0.08, lw=0)
    ax_c.plot(t, clock, color="tab:blue", lw=1)
    ax_c.set_ylabel("SM clock, MHz")
    busy = [c for c, p in zip(clock, power) if p > 0.9 * args.limit]
    if busy:
        mean = sum(busy) / len(busy)
        ax_c.axhline(mean, color="tab:blue", ls="--", lw=0.8)
        ax_c.text(t[-1], mean, f" mean {mean:.0f} MHz\n above {0.9 * args.limit:.0f} W", va="center", fontsize=8)
    ax_p.plot(t, power, color="tab:orange", lw=1)
    ax_p.axhline(args.limit, color="tab:red", ls="--", lw=0.8)
    ax_p.text(t[-1], args.limit, f" limit {args.limit:.0f} W", va="center", fontsize=8)
    ax_p.set_ylabel("board power, W")
    ax_p.set_xlabel("seconds (shaded: clock held down by the power cap)")
    for m in args.mark:
        label, _, when = m.rpartition("@")
        hms = dt.datetime.strptime(when, "%H:%M:%S.%f" if "." in when else "%H:%M:%S")
        at = (dt.datetime.combine(t0.date(), hms.time()) - t0).total_seconds()
        for ax in (ax_c, ax_p):
            ax.axvline(at, color="gray", lw=0.6)
        ax_c.text(at, max(clock) * 1.02, label, fontsize=8, rotation=0)
    if args.title:
        ax_c.set_title(args.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}: {len(rows)} samples, {sum(capped)} power-capped")


if __name__ == "__main__":
    main()
