#!/usr/bin/python3
"""Validation of the fat tree and the dragonfly against BookSim2: runs
examples/booksim-fattree-k4n3.yaml and examples/booksim-dragonfly-p2.yaml at
the offered loads of shared/validation/booksim2.md, prints the table of
docs/validation.md (Markdown) and writes docs/booksim-fabrics-validation.png.

Both examples attach their endpoints as BookSim2 does (endpoint_attach:
direct: each NIC sends straight into its router's terminal port), so the
table compares the latency the examples print with BookSim2's.

Usage: scripts/booksim_fabrics_validation.py [BUILD_DIR]
"""
import pathlib
import sys

import study_figure
from collnet_json import run_json

plt = study_figure.pyplot()

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOADS = [0.05, 0.10, 0.20, 0.30, 0.40, 0.50]
BOOKSIM = {  # shared/validation/booksim2.md: latency by offered load, accepted rate at 1.0
    "fattree-k4n3": (dict(zip(LOADS, [27.3, 27.8, 29.5, 31.4, 34.8, 40.6])), 0.665),
    "dragonfly-p2": (dict(zip(LOADS, [123.5, 122.3, 125.6, 130.6, 139.4, 206.7])), 0.514),
}


def run(collnet, name, load):
    doc = run_json(collnet, [ROOT / "examples" / f"booksim-{name}.yaml"], {"injection_rate": load})
    return doc["avg_latency"], doc["accepted_rate"]


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build"
    collnet = str(build / "collnet")
    curves = {name: {load: run(collnet, name, load) for load in LOADS + [1.0]} for name in BOOKSIM}

    print("| offered | fat tree BookSim2 | fat tree collnet | dragonfly BookSim2 | dragonfly collnet |")
    print("|---|---|---|---|---|")
    for load in LOADS:
        row = [f"{load:.2f}"]
        for name in BOOKSIM:
            b = BOOKSIM[name][0][load]
            c = curves[name][load][0]
            row += [f"{b:.1f}", f"{c:.1f} ({100 * (c - b) / b:+.1f} %)"]
        print("| " + " | ".join(row) + " |")
    row = ["saturation (accepted at 1.0)"]
    for name in BOOKSIM:
        b = BOOKSIM[name][1]
        c = curves[name][1.0][1]
        row += [f"{b:.3f}", f"{c:.3f} ({100 * (c - b) / b:+.1f} %)"]
    print("| " + " | ".join(row) + " |")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    titles = {"fattree-k4n3": "4-ary 3-tree, nca, 4 VCs x 8", "dragonfly-p2": "dragonfly p=2, min, 2 VCs x 256"}
    for ax, name in zip(axes, BOOKSIM):
        ax.plot(LOADS, [curves[name][x][0] for x in LOADS], "o-", label=f"collnet (examples/booksim-{name}.yaml)")
        ax.plot(LOADS, [BOOKSIM[name][0][x] for x in LOADS], "x--", color="black", label="BookSim2")
        ax.axvline(BOOKSIM[name][1], color="black", lw=0.8, ls="--")
        ax.axvline(curves[name][1.0][1], color="C0", lw=0.8)
        ax.set_title(f"{titles[name]}, uniform, 4-flit packets")
        ax.set_xlabel("offered load (flits/node/cycle); vertical lines: saturation")
        ax.set_ylabel("average packet latency (cycles)")
        top = max(BOOKSIM[name][0][x] for x in LOADS)
        ax.set_ylim(0.8 * BOOKSIM[name][0][0.05], 1.6 * top)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    study_figure.save(fig, ROOT / "docs" / "booksim-fabrics-validation.png", dpi=110)


if __name__ == "__main__":
    main()
