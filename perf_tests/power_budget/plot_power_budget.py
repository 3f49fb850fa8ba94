#!/usr/bin/env python3
"""Plots egemm_power_budget's Markdown output: per shape, the energy of one
call's pieces in a sustained stream (joules a call): the split beside a plain
copy of its bytes (what moving them costs at the least), the gemm kernel
beside three cuBLAS HGEMMs on the same pieces (what three FP16 products cost
the vendor), and the whole call; the time each takes at the power limit on a
second axis.

    plot_power_budget.py power.md --out fig_power_budget.png
"""
import argparse
import re
import sys

PIECES = [  # (label in the plot, start of the row's label in the table, calls a bar stands for)
    ("split", "EmulatedFP32's split", 1),
    ("copy of\nits bytes", "a plain copy", 1),
    ("gemm\nkernel", "gemm kernel alone", 1),
    ("3 x\nHGEMM", "cuBLAS HGEMM", 3),
    ("whole\ncall", "whole EmulatedFP32 call", 1),
]


def read(path):
    """{shape: {row label: (ms, W, J)}} and the power limit (W)."""
    shapes, shape, limit = {}, None, None
    with open(path) as f:
        for line in f:
            m = re.search(r"power limit (\d+) W", line)
            if m:
                limit = float(m.group(1))
            m = re.match(r"### (\d+x\d+x\d+)", line)
            if m:
                shape = m.group(1)
                shapes[shape] = {}
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if shape and len(cells) == 5 and cells[1] and cells[3]:
                try:
                    shapes[shape][cells[0]] = (float(cells[1]), float(cells[2]), float(cells[3]))
                except ValueError:
                    pass
    if not shapes or limit is None:
        sys.exit(f"{path}: not egemm_power_budget's output")
    return shapes, limit


def joules(rows, start, calls):
    for label, (_, _, j) in rows.items():
        if label.startswith(start):
            return j * calls
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("markdown")
    parser.add_argument("--out", default="fig_power_budget.png")
    args = parser.parse_args()
    shapes, limit = read(args.markdown)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = ["#dd8452", "#b0b0b0", "#4c72b0", "#8172b2", "#55a868"]
    fig, axes = plt.subplots(1, len(shapes), figsize=(4.6 * len(shapes), 4.2), squeeze=False)
    for ax, (shape, rows) in zip(axes[0], shapes.items()):
        values = [joules(rows, start, calls) for _, start, calls in PIECES]
        kept = [(label, v, c) for (label, _, _), v, c in zip(PIECES, values, colors) if v is not None]
        ax.bar(range(len(kept)), [v for _, v, _ in kept], color=[c for _, _, c in kept])
        for i, (_, v, _) in enumerate(kept):
            ax.annotate(f"{v:.3g} J", (i, v), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(kept)))
        ax.set_xticklabels([label for label, _, _ in kept], fontsize=8)
        ax.set_ylabel("joules a call (sustained stream)")
        ax.set_title(shape)
        ms_axis = ax.secondary_yaxis("right", functions=(lambda j: j / limit * 1e3, lambda ms: ms * limit / 1e3))
        ms_axis.set_ylabel(f"ms at the {limit:.0f} W limit")
    fig.suptitle("Where an EmulatedFP32 call's energy goes (the limit turns joules into time)", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
