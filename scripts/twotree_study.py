#!/usr/bin/python3
"""Two-trees on leaf/spine fabrics in cycles (document 002).

Allreduce with every server a process (P = all servers) on leafspine:p=6, 8,
10, 12, 16: twotree-hier with its stages one after another (the document),
twotree-hier with stage_pipelining, twotree-flat and tree-single, each
data-driven and in lock step (phase_barriers). Beside the cycles, the static
checker's figures of the same schedule (`collnet check`): phases, static time
(flit times) and the contention count (most messages on one directed link in
a phase, and how many phases put more than one message on a link). Then
message size and blocks at p=8 and p=16 (data-driven). Prints the README
tables and draws docs/twotree-study.png. Runs one simulation at a time; the
results are kept in a cache file (--cache) so that a second run only redraws.

Usage: scripts/twotree_study.py [--build build] [--out docs/twotree-study.png] [--cache FILE]
"""
import argparse
import json
import os
import sys

import study_figure
from collnet_json import check_json, run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FABRICS = [6, 8, 10, 12, 16]
SERVERS = {}  # p -> P, filled from the runs
VARIANTS = [  # (label, keys)
    ("hier", {"algorithm": "twotree-hier"}),
    ("hier pipelined", {"algorithm": "twotree-hier", "stage_pipelining": "true"}),
    ("flat", {"algorithm": "twotree-flat"}),
    ("single", {"algorithm": "tree-single"}),
    ("flat pipelined", {"algorithm": "twotree-flat", "stage_pipelining": "true"}),
]
LABELS = {"hier": "`twotree-hier`", "hier pipelined": "`twotree-hier` + `stage_pipelining`",
          "flat": "`twotree-flat`", "single": "`tree-single`",
          "flat pipelined": "`twotree-flat` + `stage_pipelining`"}
TWO_CONTROLLERS = {"controllers": 2, "dispatch": "next-idle"}
SIZES = [1024, 4096, 16384]  # elements (words per rank)
BLOCKS = [4, 16, 64]


def point(collnet, cache, p, keys, elements, blocks, barriers):
    scenario = {"topology": f"leafspine:p={p}", "elements": elements, "blocks": blocks, **keys}
    name = json.dumps([scenario, barriers], sort_keys=True)
    if name not in cache:
        j = run_json(collnet, [], {**scenario, "phase_barriers": "true" if barriers else "false"})
        c = check_json(collnet, [], scenario)
        loads = c["phase_max_link_load"]
        cache[name] = {"cycles": j["cycles"], "queue": j["max_queue_flits"], "conflicts": j["arbitration_conflicts"],
                       "endpoints": j["endpoints"], "phases": c["phases"], "static": c["static_time"],
                       "max_load": max(loads), "collided": sum(1 for x in loads if x > 1),
                       "cpu": j.get("sim_cpu_seconds", 0)}
        print(f"  p={p} {keys} L={elements} B={blocks} barriers={barriers}: {cache[name]['cycles']} cycles "
              f"({cache[name]['cpu']:.1f} s CPU)", file=sys.stderr)
    return cache[name]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "twotree-study.png"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "build", "twotree_study_cache.json"))
    a = ap.parse_args()
    collnet = os.path.join(a.build, "collnet")
    cache = {}
    if os.path.exists(a.cache):
        with open(a.cache, encoding="utf-8") as f:
            cache = json.load(f)

    def get(*args):
        r = point(collnet, cache, *args)
        with open(a.cache, "w", encoding="utf-8") as f:
            json.dump(cache, f)
        return r

    print("Allreduce, 4096 elements, 16 blocks per tree, P = all servers; cycles (max queue in flits); "
          "static: phases, static time in flit times, contention = most messages on one directed link "
          "in a phase / phases with more than one:")
    print()
    print("| fabric | algorithm | data-driven | lock step | phases | static time | contention |")
    print("|---|---|---|---|---|---|---|")
    fig_rows = {}
    for p in FABRICS:
        for label, keys in VARIANTS:
            d = get(p, keys, 4096, 16, False)
            s = get(p, keys, 4096, 16, True)
            SERVERS[p] = d["endpoints"]
            fig_rows[(p, label)] = (d, s)
            print(f"| p={p}, P={d['endpoints']} | {LABELS[label]} | {d['cycles']} ({d['queue']}) | "
                  f"{s['cycles']} ({s['queue']}) | {d['phases']} | {d['static']} | {d['max_load']} / {d['collided']} |")

    print()
    print("Data-driven cycles over message size and blocks (ratios above 1: the hierarchical scheme, "
          "pipelined, wins):")
    print()
    print("| fabric | elements | blocks | `twotree-hier` | + `stage_pipelining` | `twotree-flat` | + `stage_pipelining` "
          "| static (hier pipelined / flat) | flat / hier pipelined | flat pipelined / hier pipelined |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    size_rows = []
    for p, sizes, blocks in [(8, SIZES, BLOCKS), (16, [1024, 16384], [16])]:
        for L in sizes:
            for B in blocks:
                h, hp, f, fp = (get(p, VARIANTS[i][1], L, B, False) for i in (0, 1, 2, 4))
                size_rows.append((p, L, B, h, hp, f, fp))
                print(f"| p={p}, P={SERVERS.get(p, h['endpoints'])} | {L} | {B} | {h['cycles']} | {hp['cycles']} | "
                      f"{f['cycles']} | {fp['cycles']} | {hp['static']} / {f['static']} | "
                      f"{f['cycles'] / hp['cycles']:.3f} | {fp['cycles'] / hp['cycles']:.3f} |")

    print()
    print("Data-driven, 4096 elements, 16 blocks, 2 controllers per NIC with dispatch next-idle (a SEND may "
          "start while the other controller still sends or combines; 1 controller: the first table):")
    print()
    print("| fabric | `twotree-hier` + `stage_pipelining` | `twotree-flat` | `twotree-flat` + `stage_pipelining` | flat / hier pipelined |")
    print("|---|---|---|---|---|")
    for p in [8, 12, 16]:
        hp, f, fp = (get(p, {**VARIANTS[i][1], **TWO_CONTROLLERS}, 4096, 16, False) for i in (1, 2, 4))
        print(f"| p={p}, P={SERVERS[p]} | {hp['cycles']} | {f['cycles']} | {fp['cycles']} | "
              f"{f['cycles'] / hp['cycles']:.3f} |")

    plt = study_figure.pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 6))
    styles = {"hier": "C0", "hier pipelined": "C3", "flat": "C1", "single": "C2", "flat pipelined": "C4"}
    for label, _ in VARIANTS:
        ax.plot(FABRICS, [fig_rows[(p, label)][0]["cycles"] for p in FABRICS], "o-", color=styles[label],
                label=f"{label}, data-driven")
        ax.plot(FABRICS, [fig_rows[(p, label)][1]["cycles"] for p in FABRICS], "s--", color=styles[label],
                label=f"{label}, lock step", alpha=0.6)
        ax.plot(FABRICS, [fig_rows[(p, label)][0]["static"] for p in FABRICS], ":", color=styles[label], lw=1)
    ax.set_xticks(FABRICS)
    ax.set_xticklabels([f"p={p}\nP={SERVERS[p]}" for p in FABRICS])
    ax.set_ylabel("cycles (dotted: static time, flit times)")
    ax.set_title("allreduce, 4096 elements, 16 blocks, P = all servers")
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    names = [f"p={r[0]}\nL={r[1]}\nB={r[2]}" for r in size_rows]
    x = range(len(size_rows))
    bx.bar(list(x), [r[5]["cycles"] / r[4]["cycles"] for r in size_rows], 0.4, color="C3",
           label="flat / hier pipelined")
    bx.plot(list(x), [r[5]["cycles"] / r[3]["cycles"] for r in size_rows], "o", color="C0", label="flat / hier")
    bx.plot(list(x), [r[6]["cycles"] / r[4]["cycles"] for r in size_rows], "^", color="C4",
            label="flat pipelined / hier pipelined")
    bx.axhline(1, color="grey", lw=0.5)
    bx.set_xticks(list(x))
    bx.set_xticklabels(names, fontsize=6)
    bx.set_ylabel("cycle ratio (above 1: hierarchical wins)")
    bx.set_title("data-driven, over message size and blocks")
    bx.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    study_figure.save(fig, a.out, dpi=100)


if __name__ == "__main__":
    main()
