#!/usr/bin/python3
"""min, valiant and ugal on the balanced dragonfly with p = 2: runs
examples/booksim-dragonfly-p2.yaml (BookSim2's dragonflynew network and
router, docs/validation.md) with each routing function and 3 VCs x 256 flits
under uniform and group-shift traffic, ugal also with BookSim2's rule
(ugal_rule: booksim2, ugal_threshold: 30, as ugal_dragonflynew) and
ugal-booksim2 (BookSim2's paths, 4 VCs) with that rule, prints the
tables of docs/validation.md (Markdown, BookSim2's ugal_dragonflynew figures
beside group-shift's; then ugal's latency and saturation by ugal_threshold)
and writes docs/dragonfly-routing.png.

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
ROUTINGS = ["min", "valiant", "ugal", "ugal, rule booksim2", "ugal-booksim2"]
# The keys of each column: "ugal, rule booksim2" is ugal with BookSim2's
# decision rule; ugal-booksim2 the routing with BookSim2's paths too (a
# random intermediate router of the whole network; 4 VC classes).
BOOKSIM2_RULE = {"ugal_rule": "booksim2", "ugal_threshold": 30}
KEYS = {
    "min": {"routing": "min"},
    "valiant": {"routing": "valiant"},
    "ugal": {"routing": "ugal"},
    "ugal, rule booksim2": {"routing": "ugal", **BOOKSIM2_RULE},
    "ugal-booksim2": {"routing": "ugal-booksim2", "vcs": 4, **BOOKSIM2_RULE},
}
# BookSim2 (commit 28f43299), bad_dragon traffic (every packet to a random
# node of the next group, collnet's group-shift), ugal_dragonflynew with 3
# VCs: latency by offered load (None: unstable), accepted rate at 1.0.
BOOKSIM_UGAL_GROUP_SHIFT = ({0.05: 163.5, 0.10: 262.2, 0.20: None, 0.30: None, 0.40: None}, 0.150)
# The ugal_threshold table: ugal with each threshold at these points.
THRESHOLDS = [0, 30, 60]
THRESHOLD_POINTS = [("uniform", 0.05), ("uniform", 0.20), ("uniform", 1.0), ("group-shift", 0.20),
                    ("group-shift", 1.0)]
LOADS = {
    "uniform": [0.05, 0.10, 0.20, 0.30, 0.40, 0.50],
    "group-shift": [0.05, 0.10, 0.20, 0.30, 0.40],
}


def run(collnet, routing, traffic, load, extra=None):
    keys = {"vcs": 3, **KEYS[routing], "traffic": traffic, "injection_rate": load, **(extra or {})}
    doc = run_json(collnet, [EXAMPLE], keys)
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
        booksim = traffic == "group-shift"
        print(f"| {traffic} | " + " | ".join(ROUTINGS) + (" | BookSim2 ugal_dragonflynew |" if booksim else " |"))
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

    print("| ugal_threshold | " + " | ".join(
        f"{traffic} {'saturation' if load == 1.0 else f'{load:.2f}'}" for traffic, load in THRESHOLD_POINTS) + " |")
    print("|---" * (len(THRESHOLD_POINTS) + 1) + "|")
    for threshold in THRESHOLDS:
        row = [str(threshold)]
        for traffic, load in THRESHOLD_POINTS:
            point = (curves[(traffic, "ugal")][load] if threshold == 0 else
                     run(collnet, "ugal", traffic, load, {"ugal_threshold": threshold}))
            row.append(f"{point[1]:.3f}" if load == 1.0 else f"{point[0]:.1f}")
        print("| " + " | ".join(row) + " |")
    print()

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (traffic, loads) in zip(axes, LOADS.items()):
        for i, routing in enumerate(ROUTINGS):
            curve = curves[(traffic, routing)]
            xs = [x for x in loads if stable(x, curve[x])]
            ax.plot(xs, [curve[x][0] for x in xs], "o-", color=f"C{i}", label=routing)
            ax.axvline(curve[1.0][1], color=f"C{i}", lw=0.8, ls="--")
        if traffic == "group-shift":
            points = {x: y for x, y in BOOKSIM_UGAL_GROUP_SHIFT[0].items() if y is not None}
            ax.plot(list(points), list(points.values()), "kx--", label="BookSim2 ugal_dragonflynew")
            ax.axvline(BOOKSIM_UGAL_GROUP_SHIFT[1], color="k", lw=0.8, ls="--")
        ax.set_title(f"dragonfly p=2, {traffic}\n3 VCs (ugal-booksim2: 4) x 256 flits, 4-flit packets", fontsize=10)
        ax.set_xlabel("offered load (flits/node/cycle); dashed: accepted at 1.0")
        ax.set_ylabel("average packet latency (cycles)")
        ax.set_ylim(0, 600)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    study_figure.save(fig, ROOT / "docs" / "dragonfly-routing.png", dpi=110)


if __name__ == "__main__":
    main()
