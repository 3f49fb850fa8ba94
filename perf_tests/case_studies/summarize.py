#!/usr/bin/env python3
"""Case-study CSVs (egemm_kmeans/egemm_knn --csv) -> a Markdown table and the
paper's Figure 12 (speedup over the FP32 run vs number of points).

  summarize.py cases.csv [more.csv ...] --out DIR
"""
import argparse
import csv
import os


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", nargs="+")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    rows = []
    for path in a.csv:
        with open(path) as f:
            rows += list(csv.DictReader(f))
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "case_studies.md"), "w") as f:
        f.write("| program | space | tag | points | queries | dims | k | total ms | gemm ms | FP32 total ms | "
                "FP32 gemm ms | speedup | gemm speedup | differences | first-step / neighbour differences |\n")
        f.write("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            ms = lambda key: f"{1e3 * float(r[key]):.2f}"
            f.write(f"| {r['program']} | {r['space']} | {r['tag']} | {r['points']} | {r['queries']} | {r['dims']} | "
                    f"{r['groups']} | {ms('total_s')} | {ms('gemm_s')} | {ms('fp32_total_s')} | {ms('fp32_gemm_s')} | "
                    f"{float(r['speedup']):.2f} | {float(r['gemm_speedup']):.2f} | {r['differences']} | "
                    f"{r['first_step_differences']} |\n")
    try:
        import matplotlib
    except ImportError:
        print("summarize.py: no matplotlib, table only")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, program in zip(axes, ["kmeans", "knn"]):
        for tag in sorted({r["tag"] for r in rows if r["program"] == program}):
            pts = sorted((int(r["points"]), float(r["speedup"])) for r in rows
                         if r["program"] == program and r["tag"] == tag)
            if pts:
                ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=tag)
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("points")
        ax.set_ylabel("end-to-end speedup over FP32")
        ax.set_title(program)
        ax.legend(fontsize=8)
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "fig12_case_studies.png"), dpi=120)
    print(f"summarize.py: {len(rows)} rows -> {a.out}")


if __name__ == "__main__":
    main()
