#!/usr/bin/python3
"""A2AT without barriers (document 001): efficiency against VCs,
message size and pacing on torus:8x8 (NCT 4) and mesh:8x8 (NCT 2).

Every run starts from examples/a2at-torus-8x8.yaml or examples/a2at-mesh-8x8.yaml
(group_pacing load, own controller for the self copy, 16 VCs x 32 flits,
atomic VC allocation, output-first allocator x4) and changes one thing:
`vcs` (2, 4, 8, 16), `message_flits` (64, 256) and `group_pacing` (off, load).
Prints a Markdown table and draws docs/a2at-pacing.png. Then the steps
tried on torus:8x8 with 256-flit messages (STEPS: each a change of the
torus example), as a second table.

Usage: scripts/a2at_pacing_study.py [--collnet build/collnet] [--jobs 2] [--out docs/a2at-pacing.png]
"""
import argparse
import concurrent.futures
import os

import study_figure
from collnet_json import run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = {"torus:8x8": "examples/a2at-torus-8x8.yaml", "mesh:8x8": "examples/a2at-mesh-8x8.yaml"}
VCS = [2, 4, 8, 16]
SIZES = [64, 256]
PACING = ["off", "load"]
# The default router and NIC, for the first steps.
PLAIN = {"group_pacing": "off", "self_copy": "last", "controllers": 4, "dispatch": "next-idle", "packet_flits": 4,
         "vcs": 2, "buffer_flits": 8, "vc_allocation": "non-atomic", "allocator": "input-first",
         "allocator_iterations": 1}
TUNED4 = {"packet_flits": 4}
STEPS = [
    ("default router (2 VCs x 8, input-first), unpaced, 4-flit packets", PLAIN),
    ("8 VCs, unpaced", {**PLAIN, "vcs": 8}),
    ("8 VCs, group_pacing hops", {**PLAIN, "vcs": 8, "group_pacing": "hops"}),
    ("16 VCs, output-first x4, group_pacing hops", {**PLAIN, "vcs": 16, "allocator": "output-first",
                                                    "allocator_iterations": 4, "group_pacing": "hops"}),
    ("+ 32-flit buffers, atomic VCs, group_pacing load, self_copy extra", TUNED4),
    ("same, gap_slack 2", {**TUNED4, "gap_slack": 2}),
    ("same, pacing_lead 1", {**TUNED4, "pacing_lead": 1}),
    ("same, pacing_lead 4", {**TUNED4, "pacing_lead": 4}),
    ("same, switching vct", {**TUNED4, "switching": "vct"}),
    ("same, group_barriers true", {**TUNED4, "group_barriers": "true"}),
    ("same, dateline false (no VC classes)", {**TUNED4, "dateline": "false"}),
    ("same, 2-flit packets", {"packet_flits": 2}),
    ("**1-flit packets (examples/a2at-torus-8x8.yaml)**", {}),
    ("1-flit packets, unpaced", {"group_pacing": "off"}),
    ("1-flit packets, 8 VCs", {"vcs": 8}),
    ("1-flit packets, output-first x1", {"allocator_iterations": 1}),
    ("1-flit packets, 8-flit buffers, non-atomic VCs", {"buffer_flits": 8, "vc_allocation": "non-atomic"}),
]


def run(collnet, example, keys):
    return run_json(collnet, [os.path.join(ROOT, example)], keys)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--collnet", default=os.path.join(ROOT, "build", "collnet"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "a2at-pacing.png"))
    a = ap.parse_args()

    points = [(t, vcs, m, pacing) for t in EXAMPLES for m in SIZES for vcs in VCS for pacing in PACING]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = {pt: pool.submit(run, a.collnet, EXAMPLES[pt[0]],
                                   {"vcs": pt[1], "message_flits": pt[2], "group_pacing": pt[3]})
                   for pt in points}
        steps = [pool.submit(run, a.collnet, EXAMPLES["torus:8x8"], keys) for _, keys in STEPS]
        res = {pt: f.result() for pt, f in futures.items()}
        steps = [f.result() for f in steps]

    print("| network | message flits | pacing | 2 VCs | 4 VCs | 8 VCs | 16 VCs |")
    print("|---|---|---|---|---|---|---|")
    for t in EXAMPLES:
        for m in SIZES:
            for pacing in PACING:
                cells = [f"{res[(t, v, m, pacing)]['cycles']} ({res[(t, v, m, pacing)]['efficiency']:.3f})"
                         for v in VCS]
                print(f"| {t} | {m} | `{pacing}` | " + " | ".join(cells) + " |")

    print("\n| torus:8x8, 256-flit messages, no barrier (unless said) | cycles | efficiency | max queue (flits) |")
    print("|---|---|---|---|")
    for (label, _), j in zip(STEPS, steps):
        print(f"| {label} | {j['cycles']} | {j['efficiency']:.3f} | {j['max_queue_flits']} |")

    plt = study_figure.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, t in zip(axes, EXAMPLES):
        for m, colour in zip(SIZES, ["tab:blue", "tab:orange"]):
            for pacing, style in zip(PACING, [":", "-"]):
                ax.plot(VCS, [res[(t, v, m, pacing)]["efficiency"] for v in VCS], style, marker="o", color=colour,
                        label=f"{m}-flit messages, group_pacing {pacing}")
        ax.axhline(0.97, color="grey", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xticks(VCS, [str(v) for v in VCS])
        ax.set_xlabel("VCs per input port")
        ax.set_title(f"A2AT without barriers, {t}")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("efficiency (bisection bound / cycles)")
    axes[0].set_ylim(0, 1)
    axes[1].legend(loc="lower right", fontsize=8)
    study_figure.save(fig, a.out, dpi=100)


if __name__ == "__main__":
    main()
