#!/usr/bin/env python3
"""A change against a baseline, kernel by kernel, from egemm_call_timeline's CSVs.

    compare_call_timelines.py --change a1.csv a2.csv ... --baseline b1.csv b2.csv ... [--out FILE]

Each CSV is one process's trace (plain launches, so that a kernel's time is its own);
take them alternating between the two libraries on one GPU, as
`run_device_checks.sh ab` does, so that both sides see the same board and the same
drift of its clock. For every shape and method, each kernel of a call (the n-th
launch of a name counted apart: NormwiseFP32 runs three gemm kernels) is the median
of its time over every call of every CSV on its side, and so is the GPU span. The
table gives both medians, the difference and the baseline's spread (its lowest and
highest per-CSV median), which a difference has to leave to mean something.
"""
import argparse
import csv
import statistics
import sys
from collections import defaultdict


def load_calls(path):
    """(shape, method) -> list of calls, each a list of (name, start_us, end_us) in start order."""
    calls = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            calls[(row["shape"], row["method"], row["call"])].append(
                (row["name"], float(row["start_us"]), float(row["end_us"])))
    by_method = defaultdict(list)
    for (shape, method, _), work in calls.items():
        by_method[(shape, method)].append(sorted(work, key=lambda w: w[1]))
    return by_method


def call_times(call):
    """A call's kernels keyed by (name, occurrence), each its own time in us; and the GPU span."""
    seen = defaultdict(int)
    times = {}
    for name, start, end in call:
        times[(name, seen[name])] = end - start
        seen[name] += 1
    span = max(e for _, _, e in call) - min(s for _, s, _ in call)
    return times, span


def medians_per_file(paths):
    """(shape, method) -> {kernel key or 'span': [median of each file]}, and the kernels' order."""
    per_file = defaultdict(lambda: defaultdict(list))
    order = defaultdict(list)
    for path in paths:
        for key, calls in load_calls(path).items():
            samples = defaultdict(list)
            for call in calls:
                times, span = call_times(call)
                for kernel, t in times.items():
                    samples[kernel].append(t)
                    if kernel not in order[key]:
                        order[key].append(kernel)
                samples["span"].append(span)
            for kernel, values in samples.items():
                per_file[key][kernel].append((statistics.median(values), values))
    return per_file, order


def compare(change_paths, baseline_paths):
    change, order = medians_per_file(change_paths)
    baseline, baseline_order = medians_per_file(baseline_paths)
    lines = []
    for key in sorted(set(change) & set(baseline)):
        shape, method = key
        lines += [f"### {shape}, {method}: {len(change_paths)} traces of the change, "
                  f"{len(baseline_paths)} of the baseline", "",
                  "| kernel | change us | baseline us | difference | baseline's spread us |",
                  "|---|---:|---:|---:|---:|"]
        kernels = order[key] + [k for k in baseline_order[key] if k not in order[key]] + ["span"]
        for kernel in kernels:
            label = "GPU span" if kernel == "span" else (
                kernel[0] if kernel[1] == 0 else f"{kernel[0]} ({kernel[1] + 1})")
            new, old = change[key].get(kernel), baseline[key].get(kernel)
            if not new or not old:
                side = "change" if new else "baseline"
                lines.append(f"| {label} | {'-' if not new else f'{pooled(new):.1f}'} | "
                             f"{'-' if not old else f'{pooled(old):.1f}'} | only in the {side} | |")
                continue
            a, b = pooled(new), pooled(old)
            spread = [m for m, _ in old]
            lines.append(f"| {label} | {a:.1f} | {b:.1f} | {a - b:+.1f} ({100 * (a - b) / b:+.1f}%) | "
                         f"{min(spread):.1f}-{max(spread):.1f} |")
        lines.append("")
    missing = sorted(set(change) ^ set(baseline))
    for shape, method in missing:
        lines.append(f"{shape}, {method}: traced on one side only")
    return "\n".join(lines) + "\n"


def pooled(per_file):
    """The median over every call of every file."""
    return statistics.median(v for _, values in per_file for v in values)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--change", nargs="+", required=True)
    parser.add_argument("--baseline", nargs="+", required=True)
    parser.add_argument("--out")
    args = parser.parse_args()
    table = compare(args.change, args.baseline)
    if args.out:
        with open(args.out, "w") as f:
            f.write(table)
    sys.stdout.write(table)


if __name__ == "__main__":
    main()
