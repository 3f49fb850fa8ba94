#!/usr/bin/env python3
"""Turns Google Benchmark JSON from the EGEMM GEMM benchmarks into figures
(PNG), a Markdown table, and the record folders under perf_tests/results.

Each benchmark entry must carry the counters M, N, K and TFLOPs, and its
method in `label` (what perf_tests/bench_*.cu* and the suite set); error
counters (rel_fro_err, max_abs_err, max_err_vs_sgemm, nonfinite) are used when
present, and so are TFLOPs_rested and TFLOPs_sustained (the suite with
EGEMM_SUITE_REGIMES=1): the table then gives both regimes beside the median.
Benchmarks whose GPU was slowing down for heat or a hardware signal
(thermal_slowdown = 1, the suite's NVML check) are marked in the table, and
the table and stderr warn that their figures are not comparable.

  report.py results.json [more.json ...] --out DIR [--title TEXT] [--no-plots]
      DIR/table.md and the figures below
  report.py merge results.json [more.json ...] --out suite.json
      one JSON holding, per (inputs, method, shape), the row of the last file
      that has it, plus the SGEMM rows those rows' ratios are against; each
      entry keeps its own measurement's date in `measured`
  report.py record DIR [--no-plots]
      DIR/README.md and the figures from DIR's raw files alone (what
      scripts/record_results.sh writes): suite.json, record.json (device,
      date, library commit, command, notes, and "refreshed": raw files
      measured again alone on a later library), and where present
      case_studies.csv, precision_profile.md, call_overhead.md
  report.py summary DIR [--shape MxNxK]
      a short table of a record folder: every method at one shape (8192^3)
      in the three regimes

Figures: fig7_error.png (error vs SGEMM, square), fig8_square.png,
fig9_skewed.png, fig_wide.png (inputs spread over many binades: error and
non-finite outputs) and headline.png (EmulatedFP32 and NormwiseFP32 against
cuBLAS SGEMM and the four-call emulation: speed and error, square sizes).
Inputs come from the benchmark name's first part (`uniform/...`, `wide/...`,
`outliers4/...` to `outliers6/...`: uniform with one entry in 10^4..10^6 times 2^20;
the suite's FP64 section: `fp64_uniform/...`, `fp64_normal/...`, `fp64_wide/...`,
whose ratios are against cuBLAS DGEMM (`cublas_dgemm`) and whose tables and
record section are their own: the FP32 tables and figures do not show them).
Speed ratios are against cuBLAS SGEMM (`cublas_sgemm`) of the same
measurement (file, or `measured` date in a merged file), or for bench_kokkos
(`kokkos/...`) against its stock KokkosBlas::gemm. When several files hold the
same (inputs, method, shape), the later file wins, so a re-measured subset can
be laid over an earlier full run.
"""
import argparse
import collections
import csv
import json
import os
import sys


FP64_INPUTS = ("fp64_uniform", "fp64_normal", "fp64_wide")


def is_fp64(inputs):
    return inputs in FP64_INPUTS


def is_fp32_baseline(name, method):
    """Whether a benchmark is the plain gemm its run's ratios are against:
    cuBLAS SGEMM (the suite, bench_cuda), or for bench_kokkos the stock
    KokkosBlas::gemm on the same float Views, unless EGEMM_KOKKOS_GEMM_TPL
    routed that to EGEMM (its label then says so); for the suite's FP64
    section, cuBLAS DGEMM (its rows' inputs keep the two apart)."""
    if method in ("cublas_sgemm", "cublas_dgemm"):
        return True
    return name.startswith("kokkos/stock/") and "routed to EGEMM" not in method


def suite_entries(path):
    """The benchmark entries of one file that report.py reads (medians of
    repeated runs, single runs), each with the measurement it belongs to."""
    with open(path) as f:
        doc = json.load(f)
    measured = doc.get("context", {}).get("date") or path
    out = []
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if "M" not in b or "TFLOPs" not in b:
            continue
        out.append((b.get("measured") or measured, b))
    return doc, out


def entry_key(b):
    name_parts = b["name"].split("/")
    method = b.get("label") or name_parts[0]
    inputs = name_parts[0] if name_parts[0] in INPUTS else "uniform"
    return inputs, method, (int(b["M"]), int(b["N"]), int(b["K"]))


def load_rows(paths):
    """Rows per (inputs, method, shape), the one timed in the most regimes
    winning, of those the last file's; and every
    FP32 baseline row by (measurement, inputs, shape), so that a row keeps the
    SGEMM of its own measurement even where a later file's SGEMM is shown."""
    rows, baselines = {}, {}
    for path in paths:
        for source, b in suite_entries(path)[1]:
            inputs, method, shape = entry_key(b)
            row = {
                "inputs": inputs,
                "method": method,
                "fp32_baseline": is_fp32_baseline(b["name"], method),
                "shape": shape,
                "tflops": float(b["TFLOPs"]),
                "tflops_rested": b.get("TFLOPs_rested"),
                "tflops_sustained": b.get("TFLOPs_sustained"),
                "rel_fro_err": b.get("rel_fro_err"),
                "max_abs_err": b.get("max_abs_err"),
                "max_err_vs_sgemm": b.get("max_err_vs_sgemm", b.get("max_err_vs_dgemm")),  # FP64: vs DGEMM
                "nonfinite": b.get("nonfinite"),
                "thermal_slowdown": bool(b.get("thermal_slowdown")),
                "source": source,  # ratios only against the SGEMM of the same measurement
                "regimes": regimes_timed(b),
            }
            held = rows.get((inputs, method, shape))
            if held is None or row["regimes"] >= held["regimes"]:
                rows[(inputs, method, shape)] = row
            if row["fp32_baseline"]:
                baselines[(source, inputs, shape)] = row
    rows = list(rows.values())
    for r in rows:
        r["baseline"] = baselines.get((r["source"], r["inputs"], r["shape"]))
    return rows


def regimes_timed(b):
    """How many of the rested and sustained regimes an entry was timed in."""
    return sum(k in b for k in ("TFLOPs_rested", "TFLOPs_sustained"))


def merge(paths, out):
    """One suite JSON from several: per (inputs, method, shape) the entry
    timed in the most regimes, of those the last file's, and the FP32 baseline
    entries of the same measurements; entries in file order, so loading the
    result picks the same rows."""
    docs, entries = [], []
    for path in paths:
        doc, es = suite_entries(path)
        docs.append(doc)
        entries += es
    winner = {}
    for i, (source, b) in enumerate(entries):
        key = entry_key(b)
        if key not in winner or regimes_timed(b) >= regimes_timed(entries[winner[key]][1]):
            winner[key] = i
    needed = {(entries[i][0], k[0], k[2]) for k, i in winner.items()}
    kept = []
    for i, (source, b) in enumerate(entries):
        inputs, method, shape = entry_key(b)
        if winner[(inputs, method, shape)] == i or (
                is_fp32_baseline(b["name"], method) and (source, inputs, shape) in needed):
            kept.append(dict(b, measured=source))
    context = dict(docs[-1].get("context", {}))
    context.pop("date", None)  # each entry carries its own
    context["measured"] = sorted({e["measured"] for e in kept})
    with open(out, "w") as f:
        json.dump({"context": context, "benchmarks": kept}, f, indent=1)
        f.write("\n")
    return len(kept)


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


INPUTS = {"uniform": "uniform [-1, 1] inputs", "wide": "wide inputs (exponents spread over 2^-16..2^16)",
          "outliers4": "uniform inputs, one entry in 10^4 times 2^20",
          "outliers5": "uniform inputs, one entry in 10^5 times 2^20",
          "outliers6": "uniform inputs, one entry in 10^6 times 2^20",
          "fp64_uniform": "FP64, uniform [-1, 1] inputs", "fp64_normal": "FP64, standard normal inputs",
          "fp64_wide": "FP64, wide inputs (exponents spread over 2^-16..2^16)"}
OUTLIER_INPUTS = ("outliers4", "outliers5", "outliers6")


def regime_cell(r, key, sgemm_row):
    """'TFLOP/s (x SGEMM)' in one regime, or a dash where it was not timed."""
    if r.get(key) is None:
        return "—"
    base = sgemm_row.get(key) if sgemm_row else None
    return f"{r[key]:.3g} ({r[key] / base:.2f}x)" if base else f"{r[key]:.3g}"


def write_table(rows, path, title):
    with open(path, "w") as f:
        f.write(f"# {title}\n\n")
        write_shape_tables(rows, f)


def write_shape_tables(rows, f, level="##"):
    """One table per (inputs, shape): every method's speed, ratios and errors."""
    kokkos_baseline = any(r["fp32_baseline"] and r["method"] != "cublas_sgemm" for r in rows)
    regimes = any(r.get("tflops_rested") is not None for r in rows)
    methods = sorted({r["method"] for r in rows})
    cases = sorted({(r["inputs"], r["shape"]) for r in rows},
                   key=lambda c: (is_fp64(c[0]), c[0] != "uniform", c[0], shape_kind(c[1]) != "square", shape_kind(c[1]), c[1][1]))
    index = {(r["inputs"], r["method"], r["shape"]): r for r in rows}
    f.write("TFLOP/s (x cuBLAS SGEMM of the same measurement) and relative Frobenius error vs float64; "
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
    if any(is_fp64(r["inputs"]) for r in rows):
        f.write("FP64 tables (`FP64, ...` inputs): x cuBLAS DGEMM of the same measurement, errors over 16384 "
                "sampled entries against exact dot products, max error vs DGEMM's entries.\n\n")
    for inputs, shape in cases:
        f.write(f"{level} M={shape[0]} N={shape[1]} K={shape[2]} {shape_kind(shape)}, {INPUTS.get(inputs, inputs)}\n\n")
        base = "DGEMM" if is_fp64(inputs) else "SGEMM"
        extra_head = f" rested TFLOP/s (x {base}) | sustained TFLOP/s (x {base}) |" if regimes else ""
        extra_rule = "---:|---:|" if regimes else ""
        f.write(f"| method | TFLOP/s | x {base} |" + extra_head +
                f" rel. Frobenius error | max abs error | max error vs {base} | nonfinite |\n")
        f.write("|---|---:|---:|" + extra_rule + "---:|---:|---:|---:|\n")
        for m in methods:
            r = index.get((inputs, m, shape))
            if r is None:
                continue
            base = r["baseline"]
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
        fig.suptitle(f"FP32 GEMM, square N^3, {INPUTS['uniform']}, median of calls — {title}")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "headline.png"), dpi=120)


HEADLINE = {
    "egemm_EmulatedFP32": "EGEMM EmulatedFP32 (entry-wise FP32)",
    "egemm_NormwiseFP32": "EGEMM NormwiseFP32 (FP32 in norm)",
    "cublas_sgemm": "cuBLAS SGEMM (FP32)",
    "cublas_tc_emulation": "cuBLAS four-call FP16 emulation",
}

# The summary table's columns: the shapes the README and docs quote.
SUMMARY_SHAPES = ([(n, n, n) for n in (1024, 2048, 4096, 8192, 16384)]
                  + [(32768, 8192, 8192), (8192, 8192, 16384), (16384, 4096, 4096), (4096, 4096, 8192)])


def shape_label(shape):
    m, n, k = shape
    return f"{n}^3" if m == n == k else f"{m}x{n}x{k}"


def summary_table(rows, key, inputs="uniform"):
    """Methods x shapes: TFLOP/s in one regime (x SGEMM in that regime)."""
    index = {(r["method"], r["shape"]): r for r in rows if r["inputs"] == inputs}
    shapes = [s for s in SUMMARY_SHAPES if any(sh == s and r.get(key) is not None for (_, sh), r in index.items())]
    methods = sorted({m for (m, s) in index if s in shapes and index[(m, s)].get(key) is not None},
                     key=lambda m: (not m.startswith("egemm"), m))
    if not shapes:
        return ""
    out = ["| method | " + " | ".join(shape_label(s) for s in shapes) + " |",
           "|---|" + "---:|" * len(shapes)]
    for m in methods:
        cells = []
        for s in shapes:
            r = index.get((m, s))
            cells.append(regime_cell(r, key, r["baseline"]) if r else "—")
        out.append(f"| {m} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def error_table(rows, inputs="uniform"):
    """Methods x square sizes: relative Frobenius error vs float64."""
    index = {(r["method"], r["shape"]): r for r in rows if r["inputs"] == inputs}
    shapes = [s for s in SUMMARY_SHAPES if s[0] == s[1] == s[2] and any(sh == s for (_, sh) in index)]
    methods = sorted({m for (m, s) in index if s in shapes}, key=lambda m: (not m.startswith("egemm"), m))
    out = ["| method | " + " | ".join(shape_label(s) for s in shapes) + " |", "|---|" + "---:|" * len(shapes)]
    for m in methods:
        out.append(f"| {m} | " + " | ".join(fmt(index[(m, s)]["rel_fro_err"], ".2e") if (m, s) in index else "—"
                                           for s in shapes) + " |")
    return "\n".join(out) + "\n"


def wide_table(rows):
    """Wide inputs: each method's error and Inf/NaN count at the shapes measured."""
    wide = sorted((r for r in rows if r["inputs"] == "wide"), key=lambda r: (r["shape"], not r["method"].startswith("egemm"), r["method"]))
    if not wide:
        return ""
    out = ["| shape | method | TFLOP/s (x SGEMM) | rel. Frobenius error | Inf/NaN outputs |", "|---|---|---:|---:|---:|"]
    for r in wide:
        bad = (r["nonfinite"] or 0) > 0
        out.append(f"| {shape_label(r['shape'])} | {r['method']} | {regime_cell(r, 'tflops', r['baseline'])} | "
                   f"{fmt(r['rel_fro_err'], '.2e')}{' (finite entries)' if bad else ''} | {fmt(r['nonfinite'], '.0f')} |")
    return "\n".join(out) + "\n"


def outlier_table(rows):
    """Sparse-outlier inputs: each method's speed (x SGEMM) in every regime timed, and its errors
    against SGEMM's of the same measurement (relative Frobenius and largest entry error vs float64)."""
    picked = sorted((r for r in rows if r["inputs"] in OUTLIER_INPUTS),
                    key=lambda r: (r["shape"], r["inputs"], not r["method"].startswith("egemm"), r["method"]))
    if not picked:
        return ""
    index = {(r["inputs"], r["method"], r["shape"]): r for r in rows}
    out = ["| shape | inputs | method | median | rested | sustained | rel. Frobenius error (x SGEMM's) | "
           "max error (x SGEMM's) | Inf/NaN outputs |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in picked:
        sgemm = index.get((r["inputs"], "cublas_sgemm", r["shape"]))
        def vs(key):
            mine, base = r.get(key), sgemm.get(key) if sgemm else None
            if mine is None:
                return "—"
            return f"{mine:.2e} ({mine / base:.2f}x)" if base else f"{mine:.2e}"
        cells = [regime_cell(r, k, r["baseline"]) for k in ("tflops", "tflops_rested", "tflops_sustained")]
        out.append(f"| {shape_label(r['shape'])} | {r['inputs']} | {r['method']} | " + " | ".join(cells) +
                   f" | {vs('rel_fro_err')} | {vs('max_abs_err')} | {fmt(r['nonfinite'], '.0f')} |")
    return "\n".join(out) + "\n"


def case_study_table(path):
    """egemm_kmeans / egemm_knn --csv: one row per program and size."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    out = ["| program | tag | points | queries | dims | clusters / k | total ms | FP32 total ms | speedup | "
           "gemm ms | FP32 gemm ms | gemm speedup | differences | first-step / neighbour differences |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ms = lambda key: f"{1e3 * float(r[key]):.3f}"
        out.append(f"| {r['program']} ({r['space']}) | {r['tag']} | {r['points']} | {r['queries']} | {r['dims']} | "
                   f"{r['groups']} | {ms('total_s')} | {ms('fp32_total_s')} | {float(r['speedup']):.2f} | "
                   f"{ms('gemm_s')} | {ms('fp32_gemm_s')} | {float(r['gemm_speedup']):.2f} | {r['differences']} | "
                   f"{r['first_step_differences']} |")
    return "\n".join(out) + "\n"


def precision_summary(path):
    """egemm_precision_profile's tables, summed up: per instruction, the
    accumulation models that reproduce every output of every design, and the
    fewest correct bits any output had against the exact sum."""
    with open(path) as f:
        text = f.read().splitlines()
    heading = next((l.lstrip("# ").strip() for l in text if l.startswith("# ")), "")
    out, section, models, shares, bits = [], None, [], [], []

    def flush():
        if section and shares:
            exact = [m for i, m in enumerate(models) if all(s[i] >= 100.0 for s in shares)]
            best = max(range(len(models)), key=lambda i: min(s[i] for s in shares))
            reproduced = ", ".join(exact) if exact else f"none (best: {models[best]}, {min(s[best] for s in shares):.2f}%)"
            out.append(f"| {section} | {reproduced} | {min(bits):.1f} |")

    for line in text:
        if line.startswith("### "):
            flush()
            section, models, shares, bits = line[4:].strip(), [], [], []
        elif section and line.startswith("| design |"):
            cols = [c.strip() for c in line.strip().strip("|").split("|")]
            models = cols[3:-1]  # after design, outputs, half arithmetic; before the bits column
        elif section and line.startswith("| ") and not line.startswith("|---") and models:
            cols = [c.strip() for c in line.strip().strip("|").split("|")]
            try:
                shares.append([float(c.rstrip("%")) for c in cols[3:3 + len(models)]])
                bits.append(float(cols[-1].split("/")[0]))
            except ValueError:
                continue
    flush()
    if not out:
        return ""
    return (f"{heading}.\n\n| instruction | models reproducing every output of every design | fewest correct bits "
            "(vs the exact sum) |\n|---|---|---:|\n" + "\n".join(out) + "\n")


def write_record(d, no_plots):
    """DIR/README.md (and the figures) from the raw files of a record folder."""
    meta_path = os.path.join(d, "record.json")
    meta = {}
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    rows = load_rows([os.path.join(d, "suite.json")])
    if not rows:
        sys.exit(f"report.py: {d}/suite.json holds no benchmark entries with M, N, K and TFLOPs counters")
    device = meta.get("device", "GPU")
    title = device
    if not no_plots:
        plot(rows, d, title)
    figures = [f for f in ("headline.png", "fig8_square.png", "fig9_skewed.png", "fig7_error.png", "fig_wide.png")
               if os.path.exists(os.path.join(d, f))]
    measured = sorted({r["source"] for r in rows})
    w = []
    w.append(f"# EGEMM performance record: {device}\n")
    facts = [("device", device), ("driver", meta.get("driver")), ("measured", meta.get("date") or
             (measured[0] if len(measured) == 1 else f"{measured[0][:10]} to {measured[-1][:10]}")),
             ("library commit", meta.get("commit")), ("command", f"`{meta['command']}`" if meta.get("command") else None)]
    for k, v in facts:
        if v:
            w.append(f"- {k}: {v}")
    # A raw file measured again on a later library, alone (record.json's
    # "refreshed": file, commit, date, command), says so beside the rest.
    for r in meta.get("refreshed", []):
        w.append(f"- {r['file']}: measured again on library commit {r['commit']}, {r['date']}"
                 + (f" (`{r['command']}`)" if r.get("command") else ""))
    w.append("")
    if meta.get("notes"):
        w.append(meta["notes"].strip() + "\n")
    w.append("`scripts/record_results.sh` regenerates this folder on a GPU machine (its `--help` says how); "
             "rebuild this README and the figures from the raw files here (`suite.json`, `record.json` and the other "
             "outputs) with `python3 perf_tests/report.py record DIR`.\n")
    if "headline.png" in figures:
        w.append("![EmulatedFP32 and NormwiseFP32 against cuBLAS SGEMM and the four-call emulation](headline.png)\n")
    w.append("## GEMM suite, uniform [-1, 1] inputs\n")
    w.append("TFLOP/s (x cuBLAS SGEMM of the same measurement). *median*: the median of synchronised calls after "
             "a 50 ms warm-up; *rested*: one call after 0.25 s idle (median of 5); *sustained*: ~1 s of calls "
             "queued back to back after ~1 s of them, the board at its power limit. A dash: not timed in that "
             "regime.\n")
    for key, name in (("tflops", "median"), ("tflops_rested", "rested"), ("tflops_sustained", "sustained")):
        t = summary_table(rows, key)
        if t:
            w.append(f"### {name.capitalize()}\n\n{t}")
    w.append("### Relative Frobenius error vs float64\n\n" + error_table(rows))
    t = wide_table(rows)
    if t:
        w.append("## Wide inputs (exponents spread over 2^-16..2^16)\n\n" + t)
    t = outlier_table(rows)
    if t:
        w.append("## Sparse outliers (uniform inputs, one entry in 10^4..10^6 times 2^20)\n\n"
                 "TFLOP/s (x cuBLAS SGEMM) in each regime; errors against float64, each with its ratio to "
                 "SGEMM's on the same inputs.\n\n" + t)
    for inputs in FP64_INPUTS:
        fp64_rows = [r for r in rows if r["inputs"] == inputs]
        if not fp64_rows:
            continue
        w.append(f"## GEMM suite FP64 section, {INPUTS[inputs][6:]}\n")
        w.append("TFLOP/s (x cuBLAS DGEMM of the same measurement), as above; errors over 16384 sampled entries "
                 "against exact dot products.\n")
        for key, name in (("tflops", "median"), ("tflops_rested", "rested"), ("tflops_sustained", "sustained")):
            t = summary_table(rows, key, inputs)
            if t:
                w.append(f"### {name.capitalize()}\n\n{t}")
        w.append("### Relative Frobenius error vs exact\n\n" + error_table(rows, inputs))
    cases = os.path.join(d, "case_studies.csv")
    if os.path.exists(cases):
        w.append("## Case studies: kMeans and kNN through KokkosBlas::gemm (perf_tests/case_studies)\n\n"
                 "The tagged run against the same program with NativeFP32, which through the Kokkos call is "
                 "the stock `KokkosBlas::gemm` of the Kokkos Kernels the programs were built with (its own "
                 "kernel where that Kokkos Kernels has no cuBLAS TPL, as EGEMM's routing requires); "
                 "*differences*: points whose final cluster (kMeans) or queries whose neighbour set (kNN) "
                 "differs from the FP32 run.\n\n"
                 + case_study_table(cases))
    profile = os.path.join(d, "precision_profile.md")
    if os.path.exists(profile):
        t = precision_summary(profile)
        if t:
            w.append("## Precision profile of the tensor cores (perf_tests/precision_profile)\n\n" + t +
                     "\nEvery design's shares: [precision_profile.md](precision_profile.md).\n")
    overhead = os.path.join(d, "call_overhead.md")
    if os.path.exists(overhead):
        with open(overhead) as f:
            w.append("## Call overhead (perf_tests/call_overhead)\n\n" + f.read().strip() + "\n")
    figs = [f for f in figures if f != "headline.png"]
    if figs:
        w.append("## Figures\n\n" + "\n".join(f"![{f}]({f})" for f in figs) + "\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("\n".join(w))
        f.write("\n## Every shape and method\n\n")
        write_shape_tables(rows, f, level="###")
    print(f"report.py: {len(rows)} rows -> {d}/README.md")


def print_summary(d, shape):
    """Every method at one shape: TFLOP/s (x SGEMM) in the three regimes."""
    rows = [r for r in load_rows([os.path.join(d, "suite.json")])
            if r["inputs"] == "uniform" and "x".join(map(str, r["shape"])) == shape]
    rows.sort(key=lambda r: (not r["method"].startswith("egemm"), r["method"]))
    print(f"{'uniform ' + shape:<26} {'median':>15} {'rested':>15} {'sustained':>15}")
    for r in rows:
        cells = [regime_cell(r, k, r["baseline"]) for k in ("tflops", "tflops_rested", "tflops_sustained")]
        print(f"{r['method']:<26} " + " ".join(f"{c:>15}" for c in cells))
    if not rows:
        print(f"(no uniform-input benchmark at {shape})")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "summary":
        p = argparse.ArgumentParser(prog="report.py summary", description="A record folder's methods at one shape.")
        p.add_argument("dir")
        p.add_argument("--shape", default="8192x8192x8192")
        a = p.parse_args(sys.argv[2:])
        print_summary(a.dir, a.shape)
        return
    if len(sys.argv) > 1 and sys.argv[1] == "merge":
        p = argparse.ArgumentParser(prog="report.py merge", description="One suite JSON from several (later files win).")
        p.add_argument("json", nargs="+")
        p.add_argument("--out", required=True)
        a = p.parse_args(sys.argv[2:])
        kept = merge(a.json, a.out)
        if not kept:
            sys.exit("report.py: no benchmark entries with M, N, K and TFLOPs counters")
        print(f"report.py: {kept} entries -> {a.out}")
        return
    if len(sys.argv) > 1 and sys.argv[1] == "record":
        p = argparse.ArgumentParser(prog="report.py record", description="A record folder's README.md and figures from its raw files.")
        p.add_argument("dir")
        p.add_argument("--no-plots", action="store_true")
        a = p.parse_args(sys.argv[2:])
        write_record(a.dir, a.no_plots)
        return
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
