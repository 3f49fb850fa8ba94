#!/usr/bin/env python3
"""Plots egemm_int8_accuracy_study's CSV: Int8Slices' error against the rows'
median R = 2^e / mean|x|, one colour per k, beside FP32's error (summed in k
order) on the same inputs, which depends on k and hardly on R. Where the CSV
has NormwiseFP32's route, the calls it runs in digits are filled, the others
(EmulatedFP32's) hollow. Where it has the cross statistic Q, a second panel
sets (Int8Slices' error / FP32's)^2 against Q, with the rule's bound Q = 0.2.

  plot_study.py study.csv --out study.png
"""
import argparse
import csv
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def finish_log_axes(ax, xlabel, ylabel, title, x_base=10, legend_columns=1):
    """Log-log axes with the study's labels, grid and legend."""
    ax.set_xscale("log", base=x_base)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=legend_columns)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    by_k = defaultdict(list)
    cross = []  # (Q, (Int8Slices / FP32)^2, digits)
    with open(args.csv, newline="") as f:
        for row in csv.DictReader(f):
            k = int(row["shape"].split("x")[2])
            digits = row.get("normwise_route", "int8_digits") == "int8_digits"
            by_k[k].append((float(row["r_median"]), float(row["int8_slices"]), float(row["fp32_k_order"]), digits))
            if row.get("cross_q") not in (None, "", "inf", "nan"):
                ratio = float(row["int8_slices"]) / float(row["fp32_k_order"])
                cross.append((float(row["cross_q"]), ratio * ratio, digits))
    if not by_k:
        raise SystemExit(f"{args.csv}: no rows")

    fig, axes = plt.subplots(1, 2 if cross else 1, figsize=(14 if cross else 8, 5), squeeze=False)
    ax = axes[0][0]
    for k, points in sorted(by_k.items()):
        points.sort()
        r = [p[0] for p in points]
        line = ax.plot(r, [p[1] for p in points], "o", label=f"Int8Slices, k = {k}")[0]
        hollow = [p for p in points if not p[3]]
        if hollow:  # NormwiseFP32 runs EmulatedFP32 there
            ax.plot([p[0] for p in hollow], [p[1] for p in hollow], "o", color="white", markersize=3)
        ax.plot(r, [p[2] for p in points], "x", color=line.get_color(), alpha=0.6, label=f"FP32 (k order), k = {k}")
    finish_log_axes(ax, "median over rows of R = 2^e / mean|x|", "relative Frobenius error vs float64",
                    "Int8Slices' error grows with its rows' spread; FP32's with k\n"
                    "(hollow: NormwiseFP32 runs EmulatedFP32 there)", x_base=2, legend_columns=2)
    if cross:
        bx = axes[0][1]
        for digits, style, label in ((True, "o", "NormwiseFP32 runs the digits"), (False, "s", "it runs EmulatedFP32")):
            pts = [c for c in cross if c[2] == digits]
            if pts:
                bx.plot([c[0] for c in pts], [c[1] for c in pts], style, fillstyle="full" if digits else "none",
                        label=label)
        lo = min(c[0] for c in cross)
        hi = max(c[0] for c in cross)
        for kappa in (1.0, 3.0):
            bx.plot([lo, hi], [kappa * lo, kappa * hi], "--", color="grey", alpha=0.6, linewidth=1)
        bx.axvline(0.2, color="red", alpha=0.6, linewidth=1, label="cross rule's bound, Q = 0.2")
        bx.axhline(1.0, color="black", alpha=0.4, linewidth=1, label="FP32's error")
        finish_log_axes(bx, "cross statistic Q = m n digits / (pairs fp32) (dashed: 1x and 3x Q)",
                        "(Int8Slices' error / FP32's)^2",
                        "(Int8Slices' error / FP32's)^2 is at most ~3x the column sums' Q on every family,\n"
                        "structured operands included (below 1x: the model is cautious)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)


if __name__ == "__main__":
    main()
