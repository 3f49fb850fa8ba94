#!/usr/bin/env python3
"""One call's GPU work as a Gantt chart per shape, from egemm_call_timeline's CSV.

    plot_call_timeline.py timeline.csv --out timeline.png [--title TEXT]

For each shape, EGEMM's calls of median GPU span are drawn: one lane per kernel
or memset, in order of start, x = microseconds after the host made the call.
Overlapping bars are dependent launches running together. cuBLAS SGEMM (the
baseline, often several times longer) is a dashed line where its call ends,
or a note when that lies off the axis.
"""
import argparse
import csv
import sys
from collections import defaultdict


def load(path):
    calls = defaultdict(list)  # (shape, method, call) -> activities
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["shape"], row["method"], int(row["call"]))
            calls[key].append((row["name"], float(row["start_us"]), float(row["end_us"])))
    return calls


def median_calls(calls):
    """(shape, method) -> the activities of the call with the median GPU span."""
    grouped = defaultdict(list)
    for (shape, method, _), work in calls.items():
        span = max(e for _, _, e in work) - min(s for _, s, _ in work)
        grouped[(shape, method)].append((span, sorted(work, key=lambda w: w[1])))
    return {key: sorted(v, key=lambda x: x[0])[len(v) // 2][1] for key, v in grouped.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", required=True)
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_call_timeline.py: needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3)")

    chosen = median_calls(load(args.csv))
    shapes = list(dict.fromkeys(shape for shape, _ in chosen))
    names = sorted({name for work in chosen.values() for name, _, _ in work})
    colours = {n: plt.cm.tab10(i % 10) for i, n in enumerate(names)}
    lanes = {s: sum(len(w) for (sh, m), w in chosen.items() if sh == s and not m.startswith("cuBLAS")) for s in shapes}
    fig, axes = plt.subplots(len(shapes), 1, figsize=(11, 1.2 + 0.32 * sum(lanes.values()) + 0.6 * len(shapes)),
                             squeeze=False)
    for ax, shape in zip(axes[:, 0], shapes):
        labels, y, right, baselines = [], 0, 0.0, []
        for (sh, method), work in chosen.items():
            if sh != shape:
                continue
            if method.startswith("cuBLAS"):
                baselines.append((method, max(e for _, _, e in work)))
                continue
            for name, start, end in work:
                ax.barh(y, end - start, left=start, color=colours[name], edgecolor="black", linewidth=0.4)
                ax.text(end, y, f" {end - start:.1f} us", va="center", fontsize=7)
                labels.append(f"{method}: {name}")
                right = max(right, end)
                y += 1
        ax.set_xlim(0, right * 1.12)
        for method, end in baselines:
            if end <= right * 1.12:
                ax.axvline(end, color="grey", linestyle="--", linewidth=0.8)
                ax.text(end, -0.6, f"{method} ends", fontsize=7, ha="right", color="grey")
            else:
                ax.text(0.99, 0.02, f"{method}: its call ends at {end:.0f} us, off the axis", fontsize=7,
                        ha="right", va="bottom", color="grey", transform=ax.transAxes)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_title(shape, fontsize=9, loc="left")
        ax.set_xlabel("us after the call was made")
        ax.grid(axis="x", alpha=0.3)
    if args.title:
        fig.suptitle(args.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=130)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
