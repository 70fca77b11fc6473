#!/usr/bin/python3
"""Cycles of a collective against the link error rate (go-back-n retry).

Runs `collnet run --json` for A2AT (a2a-optimal on torus:8x8, 64-flit
messages, 8 VCs, group barriers: the README's A2AT scenario) and an allreduce
(twotree-hier on leafspine:p=6, 32 processes, 4096 elements, 16 blocks) at a
sweep of link error rates, two fault seeds each, and prints a Markdown
table (mean cycles, slowdown against rate 0, corrupted and retransmitted
flits per run) and writes the plot docs/link_errors.png. Every run must pass
its data check (go-back-n delivers every flit intact).

Usage: scripts/link_errors.py [--collnet build/collnet] [--png docs/link_errors.png]
                              [--rates 0,1e-4,...] [--seeds 1,2]
"""
import argparse

import study_figure
from collnet_json import run_json

plt = study_figure.pyplot()

SCENARIOS = [
    ("A2AT torus:8x8, m=64", ["algorithm=a2a-optimal", "topology=torus:8x8", "message_flits=64", "vcs=8",
                              "group_barriers=true"]),
    ("allreduce twotree-hier leafspine:p=6", ["algorithm=twotree-hier", "topology=leafspine:p=6", "processes=32",
                                              "elements=4096", "blocks=16"]),
]


def run(collnet, keys):
    return run_json(collnet, [], keys)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collnet", default="build/collnet")
    ap.add_argument("--png", default="docs/link_errors.png")
    ap.add_argument("--rates", default="0,1e-4,1e-3,3e-3,1e-2")
    ap.add_argument("--seeds", default="1,2")
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    seeds = args.seeds.split(",")
    print("| collective | link error rate | cycles (mean of seeds) | vs rate 0 | corrupted flits | retransmitted flits |")
    print("|---|---|---|---|---|---|")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, keys in SCENARIOS:
        xs, ys = [], []
        base = None
        for rate in rates:
            runs = [run(args.collnet, keys + [f"link_error_rate={rate:g}", f"fault_seed={s}"])
                    for s in (seeds if rate > 0 else seeds[:1])]
            cycles = sum(j["cycles"] for j in runs) / len(runs)
            corrupted = sum(j["link_flits_corrupted"] for j in runs) / len(runs)
            retrans = sum(j["link_flits_retransmitted"] for j in runs) / len(runs)
            base = base or cycles
            print(f"| {label} | {rate:g} | {cycles:.0f} | {cycles / base:.3f} | {corrupted:.1f} | {retrans:.1f} |")
            xs.append(rate)
            ys.append(cycles / base)
        ax.plot([x if x > 0 else rates[1] / 10 for x in xs], ys, marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("link error rate (per flit and link traversal; leftmost point: 0)")
    ax.set_ylabel("cycles / cycles at rate 0")
    ax.set_title("Go-back-n link retry: cost of link errors (link latency 1)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    study_figure.save(fig, args.png, dpi=120)


if __name__ == "__main__":
    main()
