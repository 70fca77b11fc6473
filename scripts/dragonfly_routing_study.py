#!/usr/bin/python3
"""min, valiant and ugal on the balanced dragonfly with p = 2: runs
examples/booksim-dragonfly-p2.yaml (BookSim2's dragonflynew network and
router, docs/validation.md) with each routing function and 3 VCs x 256 flits
under uniform and group-shift traffic, ugal also with BookSim2's rule
(ugal_rule: booksim2, ugal_threshold: 30, as ugal_dragonflynew), prints the
tables of docs/validation.md (Markdown, BookSim2's ugal_dragonflynew figures
beside group-shift's) and writes docs/dragonfly-routing.png.

A load whose accepted rate falls more than 5 % below the offered one is
past saturation: the table says so instead of giving a latency (the average
then grows with the run's length).

Usage: scripts/dragonfly_routing_study.py [BUILD_DIR]
"""
import pathlib
import sys

import study_figure
from collnet_json import run_json

plt = study_figure.pyplot()

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "booksim-dragonfly-p2.yaml"
ROUTINGS = ["min", "valiant", "ugal", "ugal-booksim2"]
# The keys of each column: ugal-booksim2 is ugal with BookSim2's rule.
KEYS = {
    "min": {"routing": "min"},
    "valiant": {"routing": "valiant"},
    "ugal": {"routing": "ugal"},
    "ugal-booksim2": {"routing": "ugal", "ugal_rule": "booksim2", "ugal_threshold": 30},
}
# BookSim2 (commit 28f43299), bad_dragon traffic (every packet to a random
# node of the next group, collnet's group-shift), ugal_dragonflynew with 3
# VCs: latency by offered load (None: unstable), accepted rate at 1.0.
BOOKSIM_UGAL_GROUP_SHIFT = ({0.05: 163.5, 0.10: 262.2, 0.20: None, 0.30: None, 0.40: None}, 0.150)
LOADS = {
    "uniform": [0.05, 0.10, 0.20, 0.30, 0.40, 0.50],
    "group-shift": [0.05, 0.10, 0.20, 0.30, 0.40],
}


def run(collnet, routing, traffic, load):
    doc = run_json(collnet, [EXAMPLE], {**KEYS[routing], "vcs": 3, "traffic": traffic, "injection_rate": load})
    return doc["avg_latency"], doc["accepted_rate"]


def stable(load, point):
    return point[1] >= 0.95 * load


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build"
    collnet = str(build / "collnet")
    curves = {
        (traffic, routing): {load: run(collnet, routing, traffic, load) for load in loads + [1.0]}
        for traffic, loads in LOADS.items()
        for routing in ROUTINGS
    }

    for traffic, loads in LOADS.items():
        print(f"{traffic}:\n")
        booksim = traffic == "group-shift"
        print("| offered | " + " | ".join(ROUTINGS) + (" | BookSim2 ugal_dragonflynew |" if booksim else " |"))
        print("|---" * (len(ROUTINGS) + 1 + booksim) + "|")
        for load in loads:
            row = [f"{load:.2f}"]
            for routing in ROUTINGS:
                point = curves[(traffic, routing)][load]
                row.append(f"{point[0]:.1f}" if stable(load, point) else f"unstable (accepts {point[1]:.3f})")
            if booksim:
                b = BOOKSIM_UGAL_GROUP_SHIFT[0][load]
                row.append("unstable" if b is None else f"{b:.1f}")
            print("| " + " | ".join(row) + " |")
        print("| saturation (accepted at 1.0) | " +
              " | ".join(f"{curves[(traffic, r)][1.0][1]:.3f}" for r in ROUTINGS) +
              (f" | {BOOKSIM_UGAL_GROUP_SHIFT[1]:.3f} |\n" if booksim else " |\n"))

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (traffic, loads) in zip(axes, LOADS.items()):
        for i, routing in enumerate(ROUTINGS):
            curve = curves[(traffic, routing)]
            xs = [x for x in loads if stable(x, curve[x])]
            ax.plot(xs, [curve[x][0] for x in xs], "o-", color=f"C{i}", label=routing)
            ax.axvline(curve[1.0][1], color=f"C{i}", lw=0.8, ls="--")
        ax.set_title(f"dragonfly p=2, {traffic}, 3 VCs x 256, 4-flit packets")
        ax.set_xlabel("offered load (flits/node/cycle); dashed: accepted at 1.0")
        ax.set_ylabel("average packet latency (cycles)")
        ax.set_ylim(0, 600)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    study_figure.save(fig, ROOT / "docs" / "dragonfly-routing.png", dpi=110)


if __name__ == "__main__":
    main()
