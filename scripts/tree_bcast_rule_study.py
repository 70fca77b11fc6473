#!/usr/bin/python3
"""Tree broadcast driven by the forwarding-rule block in the NIC (document
003).

Runs tree-bcast with `collnet run --json` on trees given as parent lists
(the random ones drawn here with Python's seeded generator, so that this
script computes the closed form from the same shape), three ways: the
reference programs (schedule_engine reference), the rule block with one
controller (schedule_engine hls) and the rule block with one controller per
tree link of the busiest node (controllers k, dispatch next-idle: the spec's
"at once"). Prints the README table: N, depth (the logical root's
eccentricity), messages and link transmissions (flit_hops / message), the
three cycle counts and the closed form of each rule run:

  a(logical root) = 0
  a(j-th target of u) = a(u) + H + (j + 1) L     one controller
  a(j-th target of u) = a(u) + H + L + j         k controllers
  cycles = max a(v) + 2,  H = 2 router_delay + link_latency + 2 nic_latency = 5

(targets in port order: parent first, then the children ascending). Then the
message-size sweep of one tree for docs/tree-bcast-rule.png. Runs one
simulation at a time.

Usage: scripts/tree_bcast_rule_study.py [--build build] [--out docs/tree-bcast-rule.png]
"""
import argparse
import os
import random
import sys

import study_figure
from collnet_json import run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOP = 2 * 1 + 1 + 2 * 1  # default router_delay 1, link_latency 1, nic_latency 1


def random_parents(n, seed):
    rng = random.Random(seed)
    return [-1] + [rng.randrange(i) for i in range(1, n)]


def kary_parents(k, n):
    return [-1] + [(i - 1) // k for i in range(1, n)]


def children(parents):
    kids = [[] for _ in parents]
    for v, p in enumerate(parents):
        if p >= 0:
            kids[p].append(v)
    return kids


def targets(parents, kids, v, sender):
    """The spec's rule: every tree neighbour but the sender, parent first."""
    out = [] if parents[v] < 0 or parents[v] == sender else [parents[v]]
    return out + [c for c in kids[v] if c != sender]


def closed_form(parents, logical, words, concurrent):
    kids = children(parents)
    last, pending = 0, [(logical, None, 0)]
    while pending:
        v, sender, a = pending.pop()
        last = max(last, a)
        for j, t in enumerate(targets(parents, kids, v, sender)):
            pending.append((t, v, a + HOP + words + j if concurrent else a + HOP + (j + 1) * words))
    return last + 2


def eccentricity(parents, v):
    kids = children(parents)
    far, pending = 0, [(v, None, 0)]
    while pending:
        u, sender, d = pending.pop()
        far = max(far, d)
        pending += [(t, u, d + 1) for t in targets(parents, kids, u, sender)]
    return far


def controllers_for(parents):
    """One controller per tree link of the busiest node (the NIC has at most 8)."""
    kids = children(parents)
    degree = max(len(kids[v]) + (parents[v] >= 0) for v in range(len(parents)))
    if degree > 8:
        sys.exit(f"a node has {degree} tree links; the concurrent closed form needs controllers >= fanout (<= 8)")
    return degree


def leaf(parents, which):
    kids = children(parents)
    leaves = [v for v in range(len(parents)) if not kids[v] and parents[v] >= 0]
    return leaves[which]


TREES = [  # (name, parents, logical root, what the logical root is)
    ("worked example (spec fact 3)", [-1, 0, 0, 1, 1, 2, 2], 4, "leaf"),
    ("path of 16", [-1] + list(range(15)), 15, "leaf (end)"),
    ("path of 16", [-1] + list(range(15)), 7, "interior"),
    ("binary, 63 nodes", kary_parents(2, 63), 0, "physical root"),
    ("binary, 63 nodes", kary_parents(2, 63), 62, "leaf"),
    ("4-ary, 85 nodes", kary_parents(4, 85), 84, "leaf"),
    ("random, 64 nodes (seed 2)", random_parents(64, 2), None, "deepest leaf"),
    ("random, 64 nodes (seed 2)", random_parents(64, 2), 5, "interior"),
]
WORDS = 64


def runs(collnet, parents, logical, words):
    base = {"topology": "tree:parents=" + ",".join(map(str, parents)), "algorithm": "tree-bcast",
            "logical_root": logical, "message_flits": words}
    k = controllers_for(parents)
    ref = run_json(collnet, [], {**base, "schedule_engine": "reference"})
    one = run_json(collnet, [], {**base, "schedule_engine": "hls"})
    many = run_json(collnet, [], {**base, "schedule_engine": "hls", "controllers": k, "dispatch": "next-idle"})
    for j in (one, many):
        if j["schedule_engine"] != "hls-tree_bcast_rule":
            sys.exit(f"expected the rule block, got {j['schedule_engine']}")
    return ref, one, many, k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "tree-bcast-rule.png"))
    args = ap.parse_args()
    collnet = os.path.join(args.build, "collnet")

    print("| tree | N | logical root | depth D | messages | link transmissions | D x (H + L) + 2 | reference programs"
          " | rule, 1 controller (closed form) | rule, k controllers (closed form) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, parents, logical, kind in TREES:
        n = len(parents)
        if logical is None:
            logical = max((v for v in range(n) if not children(parents)[v]), key=lambda v: eccentricity(parents, v))
        ref, one, many, k = runs(collnet, parents, logical, WORDS)
        depth = eccentricity(parents, logical)
        f1 = closed_form(parents, logical, WORDS, False)
        fk = closed_form(parents, logical, WORDS, True)
        for j in (ref, one, many):
            if j["messages"] != n - 1 or j["flit_hops"] != (n - 1) * WORDS:
                sys.exit(f"{name}: {j['messages']} messages, {j['flit_hops']} flit hops; expected {n - 1}")
        print(f"| {name} | {n} | {logical} ({kind}) | {depth} | {one['messages']} | {one['flit_hops'] // WORDS} "
              f"| {depth * (HOP + WORDS) + 2} | {ref['cycles']} | {one['cycles']} ({f1}) | {many['cycles']} ({fk}), k={k} |")

    # Message-size sweep on the random tree, deepest leaf as logical root.
    parents = random_parents(64, 2)
    logical = max((v for v in range(64) if not children(parents)[v]), key=lambda v: eccentricity(parents, v))
    sizes = [1, 4, 16, 64, 256]
    sim = {"reference": [], "one": [], "many": []}
    form = {"one": [], "many": []}
    for words in sizes:
        ref, one, many, _ = runs(collnet, parents, logical, words)
        sim["reference"].append(ref["cycles"])
        sim["one"].append(one["cycles"])
        sim["many"].append(many["cycles"])
        form["one"].append(closed_form(parents, logical, words, False))
        form["many"].append(closed_form(parents, logical, words, True))
        print(f"  L={words}: reference {ref['cycles']}, rule {one['cycles']} ({form['one'][-1]}), "
              f"rule k {many['cycles']} ({form['many'][-1]})", file=sys.stderr)

    plt = study_figure.pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.plot(sizes, form["one"], "-", color="tab:blue", label="closed form, 1 controller")
    ax.plot(sizes, sim["one"], "o", color="tab:blue", label="rule block in the NIC, 1 controller")
    ax.plot(sizes, sim["reference"], "x", color="black", label="reference programs, 1 controller")
    ax.plot(sizes, form["many"], "-", color="tab:orange", label=f"closed form, {controllers_for(parents)} controllers")
    ax.plot(sizes, sim["many"], "s", color="tab:orange", mfc="none",
            label=f"rule block, {controllers_for(parents)} controllers")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message (flits)")
    ax.set_ylabel("cycles to complete")
    ax.set_title(f"tree-bcast, random tree of 64 nodes, logical root {logical} (depth "
                 f"{eccentricity(parents, logical)})", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    study_figure.save(fig, args.out, dpi=110)


if __name__ == "__main__":
    main()
