#!/usr/bin/env python3
"""Turns Google Benchmark JSON from the EGEMM GEMM benchmarks into the paper's
figures 7-9 (PNG) and a Markdown table.

Each benchmark entry must carry the counters M, N, K and TFLOPs, and its
method in `label` (what perf_tests/bench_*.cu* set); error counters
(rel_fro_err, max_abs_err, max_err_vs_sgemm, nonfinite) are used when present,
and so are TFLOPs_rested and TFLOPs_sustained (the suite with
EGEMM_SUITE_REGIMES=1): the table then gives both regimes beside the median.
Benchmarks whose GPU was slowing down for heat or a hardware signal
(thermal_slowdown = 1, the suite's NVML check) are marked in the table, and
the table and stderr warn that their figures are not comparable.

  report.py results.json [more.json ...] --out DIR [--title TEXT]

writes DIR/table.md, DIR/fig7_error.png, DIR/fig8_square.png, DIR/fig9_skewed.png,
DIR/fig_wide.png (inputs spread over many binades: error and non-finite outputs)
and DIR/headline.png (EmulatedFP32 against cuBLAS: speed and error, square sizes).
Inputs come from the benchmark name's first part (`uniform/...`, `wide/...`).
Speed ratios are against cuBLAS SGEMM (`cublas_sgemm`) of the same file, or
for bench_kokkos (`kokkos/...`) against its stock KokkosBlas::gemm.
When several files hold the same (inputs, method, shape), the later file wins,
so a re-measured subset can be laid over an earlier full run.
"""
import argparse
import collections
import json
import math
import os
import sys


def is_fp32_baseline(name, method):
    """Whether a benchmark is the plain FP32 gemm its run's `x SGEMM` ratios are
    against: cuBLAS SGEMM (the suite, bench_cuda), or for bench_kokkos the
    stock KokkosBlas::gemm on the same float Views, unless
    EGEMM_KOKKOS_GEMM_TPL routed that to EGEMM (its label then says so)."""
    if method == "cublas_sgemm":
        return True
    return name.startswith("kokkos/stock/") and "routed to EGEMM" not in method


def load_rows(paths):
    rows = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            if "M" not in b or "TFLOPs" not in b:
                continue
            name_parts = b["name"].split("/")
            method = b.get("label") or name_parts[0]
            row = {
                "inputs": name_parts[0] if name_parts[0] in ("uniform", "wide") else "uniform",
                "method": method,
                "fp32_baseline": is_fp32_baseline(b["name"], method),
                "shape": (int(b["M"]), int(b["N"]), int(b["K"])),
                "tflops": float(b["TFLOPs"]),
                "tflops_rested": b.get("TFLOPs_rested"),
                "tflops_sustained": b.get("TFLOPs_sustained"),
                "rel_fro_err": b.get("rel_fro_err"),
                "max_abs_err": b.get("max_abs_err"),
                "max_err_vs_sgemm": b.get("max_err_vs_sgemm"),
                "nonfinite": b.get("nonfinite"),
                "thermal_slowdown": bool(b.get("thermal_slowdown")),
                "source": path,  # ratios only against the SGEMM of the same run (file)
            }
            rows[(row["inputs"], row["method"], row["shape"])] = row
    return list(rows.values())


def shape_kind(shape):
    m, n, k = shape
    if m == n == k:
        return "square"
    if m == n and k == 2 * n:
        return "(N,N,2N)"
    if m == 4 * n and n == k:
        return "(4N,N,N)"
    return "other"


def by_method(rows, kind, inputs="uniform"):
    series = collections.defaultdict(list)
    for r in rows:
        if shape_kind(r["shape"]) == kind and r["inputs"] == inputs:
            series[r["method"]].append(r)
    for v in series.values():
        v.sort(key=lambda r: r["shape"][1])
    return series


def fmt(x, spec):
    return "—" if x is None else format(x, spec)


INPUTS = {"uniform": "uniform [-1, 1] inputs", "wide": "wide inputs (exponents spread over 2^-16..2^16)"}


def regime_cell(r, key, sgemm_row):
    """'TFLOP/s (x SGEMM)' in one regime, or a dash where it was not timed."""
    if r.get(key) is None:
        return "—"
    base = sgemm_row.get(key) if sgemm_row else None
    return f"{r[key]:.3g} ({r[key] / base:.2f}x)" if base else f"{r[key]:.3g}"


def write_table(rows, path, title):
    sgemm_rows = {(r["source"], r["inputs"], r["shape"]): r for r in rows if r["fp32_baseline"]}
    kokkos_baseline = any(r["fp32_baseline"] and r["method"] != "cublas_sgemm" for r in rows)
    regimes = any(r.get("tflops_rested") is not None for r in rows)
    methods = sorted({r["method"] for r in rows})
    cases = sorted({(r["inputs"], r["shape"]) for r in rows}, key=lambda c: (c[0] != "uniform", shape_kind(c[1]) != "square", shape_kind(c[1]), c[1][1]))
    index = {(r["inputs"], r["method"], r["shape"]): r for r in rows}
    with open(path, "w") as f:
        f.write(f"# {title}\n\n")
        f.write("TFLOP/s (x cuBLAS SGEMM in the same run) and relative Frobenius error vs float64; "
                "`nonfinite` counts Inf/NaN outputs.")
        if regimes:
            f.write(" TFLOP/s is the median of synchronised calls after a 50 ms warm-up; *rested* is one call "
                    "after 0.25 s idle (median of 5), *sustained* ~1 s of calls queued back to back after ~1 s of "
                    "them (the power limit holding), each against SGEMM timed the same way.")
        if kokkos_baseline:
            f.write(" For bench_kokkos runs, x SGEMM is against the stock KokkosBlas::gemm on the same float "
                    "Views (its row says which gemm that is).")
        f.write("\n\n")
        hot = [r for r in rows if r["thermal_slowdown"]]
        if hot:
            warning = (f"the GPU was slowing down for heat or a hardware signal during {len(hot)} of these "
                       f"{len(rows)} benchmarks (marked \"thermal slowdown\"): their figures, and ratios "
                       "against them, are not comparable with other methods' or other runs'")
            f.write(f"**Warning: {warning}.**\n\n")
            print(f"report.py: warning: {warning}", file=sys.stderr)
        for inputs, shape in cases:
            f.write(f"## M={shape[0]} N={shape[1]} K={shape[2]} {shape_kind(shape)}, {INPUTS.get(inputs, inputs)}\n\n")
            extra_head = " rested TFLOP/s (x SGEMM) | sustained TFLOP/s (x SGEMM) |" if regimes else ""
            extra_rule = "---:|---:|" if regimes else ""
            f.write("| method | TFLOP/s | x SGEMM |" + extra_head +
                    " rel. Frobenius error | max abs error | max error vs SGEMM | nonfinite |\n")
            f.write("|---|---:|---:|" + extra_rule + "---:|---:|---:|---:|\n")
            for m in methods:
                r = index.get((inputs, m, shape))
                if r is None:
                    continue
                base = sgemm_rows.get((r["source"], inputs, shape))
                ratio = r["tflops"] / base["tflops"] if base else None
                extra = ""
                if regimes:
                    extra = (f" {regime_cell(r, 'tflops_rested', base)} |"
                             f" {regime_cell(r, 'tflops_sustained', base)} |")
                # Errors are measured over the finite entries: with Inf/NaN in C they say so.
                over = " (finite entries)" if (r["nonfinite"] or 0) > 0 else ""
                name = f"{m} (thermal slowdown)" if r["thermal_slowdown"] else m
                f.write(f"| {name} | {r['tflops']:.3g} | {fmt(ratio, '.2f')} |{extra} {fmt(r['rel_fro_err'], '.2e')}{over} | "
                        f"{fmt(r['max_abs_err'], '.2e')}{over} | {fmt(r['max_err_vs_sgemm'], '.2e')}{over} | "
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
        # An error measured over the finite entries of a C that holds Inf/NaN
        # would look clean: such points are left out of the error plots.
        def shown(r):
            if r[key] is None or (log and r[key] <= 0):
                return False
            return key == "tflops" or not (r["nonfinite"] or 0) > 0
        for method, rs in sorted(series.items()):
            xs = [r["shape"][1] for r in rs if shown(r)]
            ys = [r[key] for r in rs if shown(r)]
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

    # Wide inputs at the largest size measured: one bar per method; a method
    # that returned Inf/NaN gets its count instead of an error it cannot have.
    wide = [r for r in rows if r["inputs"] == "wide" and shape_kind(r["shape"]) == "square"]
    if wide:
        n = max(r["shape"][1] for r in wide)
        at_n = sorted((r for r in wide if r["shape"][1] == n), key=lambda r: r["method"], reverse=True)
        fig, ax = plt.subplots(figsize=(9, 0.45 * len(at_n) + 1.5))
        for y, r in enumerate(at_n):
            bad = (r["nonfinite"] or 0) > 0
            err = r["rel_fro_err"] if r["rel_fro_err"] and r["rel_fro_err"] > 0 else None
            if err is not None and not bad:
                ax.barh(y, err, color="tab:blue" if r["method"].startswith("egemm") else "tab:gray")
                ax.text(err * 1.1, y, f"{err:.2e}", va="center", fontsize=8)
            else:
                ax.text(1e-7, y, f"{r['nonfinite']:.0f} Inf/NaN outputs" if bad else "no error reported",
                        va="center", fontsize=8, color="tab:red")
        ax.set_yticks(range(len(at_n)), [r["method"] for r in at_n], fontsize=8)
        ax.set_xscale("log")
        ax.set_xlim(1e-7, 1e-2)
        ax.set_xlabel("relative Frobenius error vs float64 (blue: EGEMM)")
        ax.set_title(f"{INPUTS['wide']}, {n}^3 — {title}", fontsize=10)
        ax.grid(True, axis="x", which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "fig_wide.png"), dpi=120)

    # The README's picture: the product against what a user has today.
    headline = {m: v for m, v in square.items() if m in HEADLINE}
    if headline:
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.8))
        line_plot(axes[0], headline, "tflops", "TFLOP/s", False)
        axes[0].set_title("speed")
        line_plot(axes[1], headline, "rel_fro_err", "relative Frobenius error vs float64", True)
        axes[1].set_title("accuracy (lower is better)")
        for ax in axes:
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles, [HEADLINE[l] for l in labels], fontsize=8)
        fig.suptitle(f"FP32 GEMM, square N^3, {INPUTS['uniform']} — {title}")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "headline.png"), dpi=120)


HEADLINE = {
    "egemm_EmulatedFP32": "EGEMM EmulatedFP32",
    "cublas_sgemm": "cuBLAS SGEMM (FP32)",
    "cublas_tc_emulation": "cuBLAS-TC-Emulation (4 FP16 calls)",
    "cublas_bf16x9": "cuBLAS BF16x9 emulation",
}


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
