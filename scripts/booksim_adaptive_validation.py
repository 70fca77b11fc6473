#!/usr/bin/python3
"""Validation of adaptive routing against BookSim2: transpose traffic on the
8x8 torus, dim_order (examples/booksim-iq-torus-8x8.yaml with transpose and
BookSim2's self packets) and min_adapt (examples/booksim-torus-8x8-adaptive.yaml,
routing dor-vc-adaptive: what BookSim2's min_adapt_torus routes), at the offered
loads of shared/validation/booksim2.md plus a few more for the curves, and
collnet's min-adaptive (every productive dimension) on the same router for
comparison. Table latencies are the mean of seeds 1 to 3 (test
tests/cli/booksim_adaptive_test.cpp checks the same); curves and saturation
are seed 1. Prints the Markdown table of docs/validation.md and writes
docs/booksim-adaptive-validation.png.

Usage: scripts/booksim_adaptive_validation.py [BUILD_DIR]
"""
import pathlib
import sys

import study_figure
from collnet_json import run_json

plt = study_figure.pyplot()

ROOT = pathlib.Path(__file__).resolve().parent.parent
# shared/validation/booksim2.md, "Adaptive routing on a torus": latency by
# offered load (None: BookSim2 reported the run unstable), accepted rate at 1.0.
BOOKSIM = {
    "dim_order": ({0.05: 35.5, 0.10: 37.4, 0.20: None, 0.30: None}, 0.303),
    "min_adapt": ({0.05: 35.2, 0.10: 36.1, 0.20: 47.9, 0.30: None}, 0.352),
}
FILES = {
    "dim_order": ("booksim-iq-torus-8x8", {"traffic": "transpose", "self_packets": "inject"}),
    "min_adapt": ("booksim-torus-8x8-adaptive", {}),
    "min-adaptive": ("booksim-torus-8x8-adaptive", {"routing": "min-adaptive", "output_selection": "most-credits"}),
}
TABLE_LOADS = [0.05, 0.10, 0.20, 0.30]
CURVE_LOADS = [0.05, 0.10, 0.15, 0.20, 0.25, 0.28, 0.30, 0.32, 0.34, 0.38, 0.42, 0.46]


def run(kind, load, collnet, seed=1):
    example, keys = FILES[kind]
    doc = run_json(collnet, [ROOT / "examples" / f"{example}.yaml"], {**keys, "injection_rate": load, "seed": seed})
    return doc["avg_latency"], doc["accepted_rate"]


def mean_of_seeds(kind, load, collnet):
    """Latency and accepted rate, each the mean of seeds 1, 2 and 3 (BookSim2's
    figures are one run each; collnet's latency moves by about 1 % with the seed)."""
    runs = [run(kind, load, collnet, seed) for seed in (1, 2, 3)]
    return sum(r[0] for r in runs) / 3, sum(r[1] for r in runs) / 3


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build"
    collnet = str(build / "collnet")
    curves = {kind: {load: run(kind, load, collnet) for load in sorted(set(CURVE_LOADS + TABLE_LOADS + [1.0]))}
              for kind in FILES}
    table = {kind: {load: mean_of_seeds(kind, load, collnet) for load in TABLE_LOADS} for kind in FILES}

    print("| offered | dim_order BookSim2 | dim_order collnet | min_adapt BookSim2 | min_adapt collnet "
          "(dor-vc-adaptive) | collnet min-adaptive |")
    print("|---|---|---|---|---|---|")

    def cell(kind, load):
        lat, acc = table[kind][load]
        unstable = acc < 0.95 * load
        c = f"{lat:.1f}" + (" (accepts %.3f: unstable)" % acc if unstable else "")
        if kind not in BOOKSIM:
            return [c]
        b = BOOKSIM[kind][0][load]
        if b is None:
            return ["unstable", c]
        return [f"{b:.1f}", c + ("" if unstable else f" ({100 * (lat - b) / b:+.1f} %)")]

    for load in TABLE_LOADS:
        print("| " + " | ".join([f"{load:.2f}"] + cell("dim_order", load) + cell("min_adapt", load) +
                                cell("min-adaptive", load)) + " |")
    row = ["saturation (accepted at 1.0)"]
    for kind in BOOKSIM:
        b = BOOKSIM[kind][1]
        c = curves[kind][1.0][1]
        row += [f"{b:.3f}", f"{c:.3f} ({100 * (c - b) / b:+.1f} %)"]
    row.append(f"{curves['min-adaptive'][1.0][1]:.3f}")
    print("| " + " | ".join(row) + " |")

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for i, kind in enumerate(FILES):
        stable = [x for x in CURVE_LOADS if curves[kind][x][1] >= 0.95 * x]
        name = {"min_adapt": "min_adapt (dor-vc-adaptive)", "min-adaptive": "min-adaptive"}.get(kind, kind)
        ax.plot(stable, [curves[kind][x][0] for x in stable], "o-", color=f"C{i}", label=f"collnet, {name}")
        ax.axvline(curves[kind][1.0][1], color=f"C{i}", lw=0.8)
        if kind not in BOOKSIM:
            continue
        bx = [x for x, v in sorted(BOOKSIM[kind][0].items()) if v is not None]
        ax.plot(bx, [BOOKSIM[kind][0][x] for x in bx], "x--", color=f"C{i}", alpha=0.7, label=f"BookSim2, {kind}")
        ax.axvline(BOOKSIM[kind][1], color=f"C{i}", lw=0.8, ls="--")
    ax.set_title("8x8 torus, transpose, 4-flit packets, 8-flit VCs")
    ax.set_xlabel("offered load (flits/node/cycle); vertical lines: saturation (dashed: BookSim2)")
    ax.set_ylabel("average packet latency (cycles)")
    ax.set_ylim(30, 120)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    study_figure.save(fig, ROOT / "docs" / "booksim-adaptive-validation.png", dpi=110)


if __name__ == "__main__":
    main()
