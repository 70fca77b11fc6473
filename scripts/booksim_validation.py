#!/usr/bin/python3
"""Validation against BookSim2: runs examples/booksim-iq-{mesh,torus}-8x8.yaml
at the offered loads of shared/validation/booksim2.md (plus a few more for the
curves), prints the README table (Markdown) and writes
docs/booksim-validation.png. The torus is also run with collnet's default
routing (ties +, dateline class from the wrap link) to show what made the gap.

Usage: scripts/booksim_validation.py [BUILD_DIR]
"""
import pathlib
import sys

import study_figure
from collnet_json import run_json

plt = study_figure.pyplot()

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOKSIM = {  # shared/validation/booksim2.md: latency by offered load, accepted rate at 1.0
    "mesh": ({0.02: 36.5, 0.10: 37.5, 0.20: 40.4, 0.30: 47.6, 0.35: 68.5}, 0.360),
    "torus": ({0.02: 33.8, 0.10: 36.0, 0.20: 38.3, 0.30: 45.0, 0.35: 92.9}, 0.324),
}
TABLE_LOADS = [0.02, 0.10, 0.20, 0.30, 0.35]
CURVE_LOADS = [0.02, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.32, 0.34, 0.35, 0.36]
DEFAULT_ROUTING = ["--set", "route_direction=minimal", "--set", "dateline_class=from-wrap"]
# The router options of the examples, switched back step by step (cumulative).
STEPS = [
    ("VA and SA as one decision cycle for every flit (routing 1, allocation 2), lowest VC bids",
     {"routing_delay": 1, "allocation_delay": 2, "vc_allocator_stage": "separate", "vc_bid": "all"}),
    ("body flits skip VA (routing 2 = RC + VA, allocation 1 = SA)",
     {"vc_allocator_stage": "separate", "vc_bid": "all"}),
    ("+ round-robin VC bids (vc_bid)", {"vc_allocator_stage": "separate"}),
    ("+ own VC allocator: heads hold their VC while they bid for the switch (the examples)", {}),
]
STEP_LOADS = [0.30, 0.35, 1.0]


def run(collnet, kind, load, extra=(), keys=None):
    example = ROOT / "examples" / f"booksim-iq-{kind}-8x8.yaml"
    doc = run_json(collnet, [example, *extra], {**(keys or {}), "injection_rate": load})
    return doc["avg_latency"], doc["accepted_rate"]


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build"
    collnet = str(build / "collnet")
    curves = {}
    before = STEPS[0][1]
    for kind, extra, keys in (("mesh", (), None), ("torus", (), None), ("torus-default", DEFAULT_ROUTING, None),
                              ("mesh-before", (), before), ("torus-before", (), before)):
        base = kind.split("-")[0]
        curves[kind] = {load: run(collnet, base, load, extra, keys)
                        for load in sorted(set(CURVE_LOADS + TABLE_LOADS + [1.0]))}

    print("| offered | mesh BookSim2 | mesh collnet | torus BookSim2 | torus collnet | torus collnet, default routing |")
    print("|---|---|---|---|---|---|")
    for load in TABLE_LOADS:
        row = [f"{load:.2f}"]
        for kind in ("mesh", "torus"):
            b = BOOKSIM[kind][0][load]
            c = curves[kind][load][0]
            row += [f"{b:.1f}", f"{c:.1f} ({100 * (c - b) / b:+.1f} %)"]
        row.append(f"{curves['torus-default'][load][0]:.1f}")
        print("| " + " | ".join(row) + " |")
    row = ["saturation (accepted at 1.0)"]
    for kind in ("mesh", "torus"):
        b = BOOKSIM[kind][1]
        c = curves[kind][1.0][1]
        row += [f"{b:.3f}", f"{c:.3f} ({100 * (c - b) / b:+.1f} %)"]
    row.append(f"{curves['torus-default'][1.0][1]:.3f}")
    print("| " + " | ".join(row) + " |")

    print("\n| router options (cumulative) | mesh 0.30 | mesh 0.35 | mesh saturation | torus 0.30 | torus 0.35 | torus saturation |")
    print("|---|---|---|---|---|---|---|")
    print("| BookSim2 | " + " | ".join(
        f"{BOOKSIM[k][0][x]:.1f}" if x < 1 else f"{BOOKSIM[k][1]:.3f}" for k in ("mesh", "torus") for x in STEP_LOADS) + " |")
    for label, keys in STEPS:
        cells = []
        for kind in ("mesh", "torus"):
            for load in STEP_LOADS:
                lat, acc = run(collnet, kind, load, keys=keys)
                cells.append(f"{acc:.3f}" if load == 1.0 else f"{lat:.1f}")
        print(f"| {label} | " + " | ".join(cells) + " |")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, kind in zip(axes, ("mesh", "torus")):
        loads = [x for x in CURVE_LOADS]
        ax.plot(loads, [curves[kind][x][0] for x in loads], "o-", label="collnet (examples/booksim-iq-%s-8x8.yaml)" % kind)
        ax.plot(loads, [curves[kind + "-before"][x][0] for x in loads], "^-.", color="C1", alpha=0.7,
                label="collnet, VA + SA as one stage for every flit (before)")
        if kind == "torus":
            ax.plot(loads, [curves["torus-default"][x][0] for x in loads], "s:", color="grey",
                    label="collnet, default routing (ties +, class from wrap)")
        bx = sorted(BOOKSIM[kind][0])
        ax.plot(bx, [BOOKSIM[kind][0][x] for x in bx], "x--", color="black", label="BookSim2")
        ax.axvline(BOOKSIM[kind][1], color="black", lw=0.8, ls="--")
        ax.axvline(curves[kind][1.0][1], color="C0", lw=0.8)
        ax.set_title(f"8x8 {kind}, uniform, 2 VCs x 8, 4-flit packets")
        ax.set_xlabel("offered load (flits/node/cycle); vertical lines: saturation")
        ax.set_ylim(30, 120)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    axes[0].set_ylabel("average packet latency (cycles)")
    study_figure.save(fig, ROOT / "docs" / "booksim-validation.png", dpi=110)


if __name__ == "__main__":
    main()
