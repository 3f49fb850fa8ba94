#!/usr/bin/env python3
"""Plots egemm_sm90_tile_sweep's CSV: per shape, every tile's kernel time on a
rested GPU and sustained, next to the analytic model's prediction (the model's
pick marked), and all predictions against the sustained times (the power cap
holding, as the model assumes) on one scatter. Reads the older CSVs too
(measured_ms: synchronised calls in a row; stream_ms: queued).

    plot_tile_sweep.py tile_sweep.csv --out fig_tile_model.png
"""
import argparse
import csv
import sys
from collections import OrderedDict


def read(path):
    shapes = OrderedDict()
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["fits"] != "1":
                continue
            shapes.setdefault(row["shape"], []).append(row)
    if not shapes:
        sys.exit(f"{path}: no tile that fits")
    return shapes


def ms(row, name, older):
    return float(row[name] if name in row else row[older])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", default="fig_tile_model.png")
    args = parser.parse_args()
    shapes = read(args.csv)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(shapes) + 1, figsize=(4.2 * (len(shapes) + 1), 4.2))
    for ax, (shape, rows) in zip(axes, shapes.items()):
        names = [r["tile"] for r in rows]
        rested = [ms(r, "rested_ms", "measured_ms") for r in rows]
        sustained = [ms(r, "sustained_ms", "stream_ms") for r in rows]
        predicted = [float(r["predicted_ms"]) for r in rows]
        x = range(len(rows))
        ax.bar([i - 0.27 for i in x], rested, 0.27, label="rested", color="#8fb0e0")
        ax.bar([i for i in x], sustained, 0.27, label="sustained", color="#4c72b0")
        ax.bar([i + 0.27 for i in x], predicted, 0.27, label="model", color="#dd8452")
        for i, r in enumerate(rows):
            if r["model_pick"] == "1":
                ax.annotate("pick", (i, sustained[i]), ha="center", va="bottom", fontsize=8)
        ax.axhline(min(sustained) * 1.05, color="gray", lw=0.8, ls="--", label="best sustained + 5%")
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=8)
        ax.set_title(shape)
        ax.set_ylabel("kernel ms")
    axes[0].legend(fontsize=8)

    ax = axes[-1]
    for shape, rows in shapes.items():
        ax.scatter([ms(r, "sustained_ms", "stream_ms") for r in rows], [float(r["predicted_ms"]) for r in rows],
                   label=shape, s=14)
    points = [(ms(r, "sustained_ms", "stream_ms"), float(r["predicted_ms"])) for rows in shapes.values() for r in rows]
    lo = min(min(p) for p in points)
    hi = max(max(p) for p in points)
    ax.plot([lo, hi], [lo, hi], color="gray", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("sustained ms")
    ax.set_ylabel("predicted ms")
    ax.set_title("model vs measurement")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
