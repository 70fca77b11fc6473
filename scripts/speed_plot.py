#!/usr/bin/env python3
"""The speed figures as a picture: CPU per flit-hop and whole-run time
of every point in `collnet bench --json` reports, against the targets.

    ./build/collnet bench --repeat 2 --json synthetic.json
    ./build/collnet bench --collectives --no-synthetic --json collectives.json
    /usr/bin/python3 scripts/speed_plot.py synthetic.json collectives.json --out docs/speed.png
"""
import argparse
import json

import study_figure

# The targets: CPU per flit-hop for the A2AT points, whole-run time
# for the points with a time limit (the 32x32 A2AT's limit is wall time).
NS_PER_HOP_TARGET = 100.0
RUN_SECONDS_TARGET = {"a2at-torus:32x32": 30.0, "hd-allreduce-boards:4x4x4x4": 60.0,
                      "twotree-hier-leafspine:p=16": 60.0,
                      "twotree-hier-leafspine:p=36": 30.0}


def points(reports):
    """(label, ns per flit-hop, whole-run CPU seconds or None) per point."""
    rows = []
    for report in reports:
        for run in report.get("runs", []):
            label = f'{run["topology"]} {run["injection_rate"]:g}'
            rows.append((label, run["ns_per_flit_hop"], None))
        for run in report.get("collective_runs", []):
            rows.append((run["point"], run["ns_per_flit_hop"], run["run_cpu_seconds"]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", help="JSON files written by collnet bench --json")
    ap.add_argument("--out", default="docs/speed.png")
    args = ap.parse_args()
    reports = []
    for path in args.reports:
        with open(path) as f:
            reports.append(json.load(f))
    rows = points(reports)
    if not rows:
        raise SystemExit("speed_plot.py: the reports hold no runs")

    plt = study_figure.pyplot()
    timed = [r for r in rows if r[2] is not None]
    fig, axes = plt.subplots(1, 2 if timed else 1, figsize=(12, 4.5), squeeze=False,
                             gridspec_kw={"width_ratios": [len(rows), max(len(timed), 1)]} if timed else None)
    ax = axes[0][0]
    ax.bar(range(len(rows)), [r[1] for r in rows], color="tab:blue")
    ax.axhline(NS_PER_HOP_TARGET, color="tab:red", linestyle="--", label="target (A2AT points)")
    ax.set_xticks(range(len(rows)), [r[0] for r in rows], rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("ns of CPU per flit-hop (simulation)")
    ax.legend(fontsize=8)
    ax.set_title("CPU time per flit moved over one link")
    if timed:
        ax = axes[0][1]
        ax.bar(range(len(timed)), [r[2] for r in timed], color="tab:green", label="whole run, CPU s")
        for i, r in enumerate(timed):
            if r[0] in RUN_SECONDS_TARGET:
                ax.hlines(RUN_SECONDS_TARGET[r[0]], i - 0.4, i + 0.4, color="tab:red", linestyle="--")
        ax.set_xticks(range(len(timed)), [r[0] for r in timed], rotation=35, ha="right", fontsize=8)
        ax.set_ylabel("whole run, CPU seconds (red: target)")
        ax.set_yscale("log")
        ax.set_title("collective points: whole run")
    study_figure.save(fig, args.out, dpi=110)


if __name__ == "__main__":
    main()
