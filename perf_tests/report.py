#!/usr/bin/env python3
"""Turns Google Benchmark JSON from the EGEMM GEMM benchmarks into the paper's
figures 7-9 (PNG) and a Markdown table.

Each benchmark entry must carry the counters M, N, K and TFLOPs, and its
method in `label` (what perf_tests/bench_*.cu* set); error counters
(rel_fro_err, max_abs_err, max_err_vs_sgemm, nonfinite) are used when present.

  report.py results.json [more.json ...] --out DIR [--title TEXT]

writes DIR/table.md, DIR/fig7_error.png, DIR/fig8_square.png, DIR/fig9_skewed.png.
"""
import argparse
import collections
import json
import math
import os
import sys


def load_rows(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            if "M" not in b or "TFLOPs" not in b:
                continue
            rows.append({
                "method": b.get("label") or b["name"].split("/")[0],
                "shape": (int(b["M"]), int(b["N"]), int(b["K"])),
                "tflops": float(b["TFLOPs"]),
                "rel_fro_err": b.get("rel_fro_err"),
                "max_abs_err": b.get("max_abs_err"),
                "max_err_vs_sgemm": b.get("max_err_vs_sgemm"),
                "nonfinite": b.get("nonfinite"),
            })
    return rows


def shape_kind(shape):
    m, n, k = shape
    if m == n == k:
        return "square"
    if m == n and k == 2 * n:
        return "(N,N,2N)"
    if m == 4 * n and n == k:
        return "(4N,N,N)"
    return "other"


def by_method(rows, kind):
    series = collections.defaultdict(list)
    for r in rows:
        if shape_kind(r["shape"]) == kind:
            series[r["method"]].append(r)
    for v in series.values():
        v.sort(key=lambda r: r["shape"][1])
    return series


def fmt(x, spec):
    return "—" if x is None else format(x, spec)


def write_table(rows, path, title):
    sgemm = {r["shape"]: r["tflops"] for r in rows if r["method"] == "cublas_sgemm"}
    methods = sorted({r["method"] for r in rows})
    shapes = sorted({r["shape"] for r in rows}, key=lambda s: (shape_kind(s), s[1]))
    index = {(r["method"], r["shape"]): r for r in rows}
    with open(path, "w") as f:
        f.write(f"# {title}\n\n")
        f.write("TFLOP/s (x cuBLAS SGEMM in the same run) and relative Frobenius error vs float64; "
                "`nonfinite` counts Inf/NaN outputs.\n\n")
        for shape in shapes:
            f.write(f"## M={shape[0]} N={shape[1]} K={shape[2]} {shape_kind(shape)}\n\n")
            f.write("| method | TFLOP/s | x SGEMM | rel. Frobenius error | max abs error | max error vs SGEMM | nonfinite |\n")
            f.write("|---|---:|---:|---:|---:|---:|---:|\n")
            for m in methods:
                r = index.get((m, shape))
                if r is None:
                    continue
                ratio = r["tflops"] / sgemm[shape] if shape in sgemm else None
                f.write(f"| {m} | {r['tflops']:.3g} | {fmt(ratio, '.2f')} | {fmt(r['rel_fro_err'], '.2e')} | "
                        f"{fmt(r['max_abs_err'], '.2e')} | {fmt(r['max_err_vs_sgemm'], '.2e')} | "
                        f"{fmt(r['nonfinite'], '.0f')} |\n")
            f.write("\n")


def plot(rows, out, title):
    try:
        import matplotlib
    except ImportError:
        sys.exit("report.py: plots need matplotlib (Debian: apt-get install python3-matplotlib; "
                 "run with /usr/bin/python3), or pass --no-plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def line_plot(ax, series, key, ylabel, log):
        for method, rs in sorted(series.items()):
            xs = [r["shape"][1] for r in rs if r[key] is not None and (not log or r[key] > 0)]
            ys = [r[key] for r in rs if r[key] is not None and (not log or r[key] > 0)]
            if xs:
                ax.plot(xs, ys, marker="o", label=method)
        ax.set_xscale("log", base=2)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel("N")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)

    def single_plot(series, key, ylabel, log, heading, filename):
        fig, ax = plt.subplots(figsize=(8, 5))
        line_plot(ax, series, key, ylabel, log)
        ax.set_title(f"{heading} — {title}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(out, filename), dpi=120)

    square = by_method(rows, "square")
    single_plot(square, "max_err_vs_sgemm", "max |C - C_SGEMM| (paper eq. 10)", True, "Emulation precision, square N^3",
                "fig7_error.png")
    single_plot(square, "tflops", "TFLOP/s", False, "Square N x N x N", "fig8_square.png")

    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    for ax, kind in zip(axes, ["(N,N,2N)", "(4N,N,N)"]):
        line_plot(ax, by_method(rows, kind), "tflops", "TFLOP/s", False)
        ax.set_title(f"(M,N,K) = {kind}")
        ax.legend(fontsize=7)
    fig.suptitle(f"Skewed shapes — {title}")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig9_skewed.png"), dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--title", default="EGEMM")
    p.add_argument("--no-plots", action="store_true")
    a = p.parse_args()
    rows = load_rows(a.json)
    if not rows:
        sys.exit("report.py: no benchmark entries with M, N, K and TFLOPs counters")
    os.makedirs(a.out, exist_ok=True)
    write_table(rows, os.path.join(a.out, "table.md"), a.title)
    if not a.no_plots:
        plot(rows, a.out, a.title)
    print(f"report.py: {len(rows)} rows -> {a.out}")


if __name__ == "__main__":
    main()
