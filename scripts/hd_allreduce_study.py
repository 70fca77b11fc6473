#!/usr/bin/python3
"""Halving/doubling allreduce in cycles (document 004, issue 15 item 4).

Runs hd-allreduce against hd-allreduce-conventional, dim_order wxyz against
bandwidth and aggregation_units 1, 2, 4 with `collnet run --json`, and prints
the README table: cycles, flits on inter-board links (per_link flits =
utilization x cycles; a link is inter-board when its two endpoints lie on
different boards, board = endpoint id // 12 as numbered in
topology/boards.hpp), and the two ratios side by side. Then the per-unit phase
times (in-board scatter, inter-board steps, in-board broadcast) printed by
the test HdAllreduceCycles.DISABLED_PrintPhases (tests/systemc/hd_allreduce_cycle_test.cpp).
Draws docs/hd-allreduce.png. Runs one simulation at a time.

Usage: scripts/hd_allreduce_study.py [--build build] [--out docs/hd-allreduce.png]
"""
import argparse
import os
import re
import subprocess
import sys

import study_figure
from collnet_json import run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNITS_PER_BOARD = 12  # topology/boards.hpp: 8 main units + 4 aggregation units, endpoint = 12 * board + unit

# (label, topology, elements, baseline keys, variant keys): ratio = baseline / variant.
COMPARISONS = [
    ("conventional / hd", "boards:4x4x2x2", 4096, {"algorithm": "hd-allreduce-conventional"}, {}),
    ("conventional / hd", "boards:2x2x2x2", 16384, {"algorithm": "hd-allreduce-conventional"}, {}),
    ("conventional / hd", "boards:4x2x2x1", 16384, {"algorithm": "hd-allreduce-conventional"}, {}),
    ("wxyz / bandwidth", "boards:4x2x2x1", 16384, {}, {"dim_order": "bandwidth"}),  # wxyz, A=4: the defaults
    ("wxyz / bandwidth", "boards:4x4x2x2", 4096, {}, {"dim_order": "bandwidth"}),
    ("A=1 / A=2", "boards:2x2x2x2", 16384, {"aggregation_units": 1}, {"aggregation_units": 2}),
    ("A=2 / A=4", "boards:2x2x2x2", 16384, {"aggregation_units": 2}, {}),
]
LINK = re.compile(r"^[am](\d+):[^>]*->[am](\d+)$")
_cache = {}


def run(collnet, topology, elements, keys):
    keys = {"algorithm": "hd-allreduce", **keys}
    key = (topology, elements, tuple(sorted(keys.items())))
    if key in _cache:
        return _cache[key]
    j = run_json(collnet, [], {"topology": topology, "elements": elements, **keys})
    inter = 0
    for name, util in j["link_utilization"]["per_link"].items():
        m = LINK.match(name)
        if not m:
            sys.exit(f"unexpected link name {name}")
        if int(m.group(1)) // UNITS_PER_BOARD != int(m.group(2)) // UNITS_PER_BOARD:
            inter += round(util * j["cycles"])
    _cache[key] = (j["cycles"], inter)
    print(f"  {topology} L={elements} {keys}: {j['cycles']} cycles, {inter} inter-board flits", file=sys.stderr)
    return _cache[key]


def phases(build, topology, elements):
    env = dict(os.environ, HD_PHASES_TOPOLOGY=topology, HD_PHASES_ELEMENTS=str(elements))
    p = subprocess.run([os.path.join(build, "tests", "test_systemc"), "--gtest_also_run_disabled_tests",
                        "--gtest_filter=HdAllreduceCycles.DISABLED_PrintPhases"],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(p.stdout + p.stderr)
    out = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if f and f[0] == "units":
            out.setdefault(f[1], {}).update(scatter=float(f[3]), inter=float(f[5]), broadcast=float(f[7]))
        elif f and f[0] == "cycles":
            out.setdefault(f[1], {})["cycles"] = int(f[2])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "hd-allreduce.png"))
    a = ap.parse_args()
    collnet = os.path.join(a.build, "collnet")

    rows = []
    print("| comparison | topology | elements | cycles (baseline / variant) | inter-board flits (baseline / variant) | cycle ratio | flit ratio |")
    print("|---|---|---|---|---|---|---|")
    for label, topo, L, base, var in COMPARISONS:
        c0, f0 = run(collnet, topo, L, base)
        c1, f1 = run(collnet, topo, L, var)
        rows.append((label, topo, c0 / c1, f0 / f1))
        print(f"| {label} | {topo} | {L} | {c0} / {c1} | {f0} / {f1} | {c0 / c1:.3f} | {f0 / f1:.3f} |")

    print()
    print("Per aggregation unit, mean cycles (tests/systemc/hd_allreduce_cycle_test.cpp, DISABLED_PrintPhases):")
    print()
    print("| topology | elements | algorithm | S2 scatter receipt | inter-board steps | S10 broadcast | cycles |")
    print("|---|---|---|---|---|---|---|")
    ph = {}
    for topo, L in [("boards:2x2x2x2", 16384)]:
        ph = phases(a.build, topo, L)
        for alg, t in ph.items():
            print(f"| {topo} | {L} | {alg} | {t['scatter']:.0f} | {t['inter']:.0f} | {t['broadcast']:.0f} | {t['cycles']} |")

    plt = study_figure.pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
    labels = [f"{r[0]}\n{r[1].split(':')[1]}".replace(" / ", "/") for r in rows]
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [r[3] for r in rows], 0.4, label="inter-board flit ratio")
    ax.bar([i + 0.2 for i in x], [r[2] for r in rows], 0.4, label="cycle ratio")
    ax.axhline(1, color="grey", lw=0.5)
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylabel("baseline / variant")
    ax.set_title("Document 004: flits saved against cycles saved")
    ax.legend()
    algs = list(ph)
    parts = ["scatter", "inter", "broadcast"]
    bottom = [0.0] * len(algs)
    for part in parts:
        vals = [ph[g][part] for g in algs]
        bx.bar(algs, vals, bottom=bottom, label=f"per-unit {part}")
        bottom = [b + v for b, v in zip(bottom, vals)]
    rest = [ph[g]["cycles"] - b for g, b in zip(algs, bottom)]
    bx.bar(algs, rest, bottom=bottom, label="rest (waiting for earlier planes' scatters,\n7 B of local reduces)")
    bx.set_ylabel("cycles")
    bx.set_title("boards:2x2x2x2, 16384 elements, A=4")
    bx.legend(fontsize=7)
    study_figure.save(fig, a.out, dpi=100)


if __name__ == "__main__":
    main()
