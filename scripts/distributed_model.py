#!/usr/bin/env python3
"""The partitioning model of docs/distributed.md: predicted speedup of one run
split over P MPI ranks, from the measured per-window exchange
(bench/mpi_exchange.cpp -> docs/mpi-exchange.json) and the measured serial
cost per simulated cycle of each point (docs/performance.md's bench).

Per simulated cycle a rank spends T1 / P on its own modules (the serial
cost, perfectly balanced: an upper bound on the speedup) and, every
lookahead window of L cycles, one exchange per neighbour of the flits and
credits that crossed its cuts (at most one of each per cut link and cycle):

    T_P = T1 / P + neighbours * exchange(L * cut_links) / L

exchange(n link-cycles) interpolates the measured medians (log-log) on this
machine (shared memory between two processes). The second network model,
between machines, is an assumption stated here, not a measurement:
alpha + bytes / beta with alpha = 1.5 us and beta = 12 GB/s (an HDR
InfiniBand MPI ping-pong's order of magnitude).

Usage: scripts/distributed_model.py docs/mpi-exchange.json --out docs/distributed.png
"""
import argparse
import json
import math
import sys

# Serial cost per simulated cycle, microseconds of CPU (docs/performance.md,
# `collnet bench --collectives`: simulation CPU s / cycles), and the cut of a
# partition into P slabs along one dimension.
POINTS = [
    # name, T1 us per cycle, routers, cut links per boundary (each way), lookahead L (cycles)
    ("A2AT torus:16x16", 1.23e6 / 13115, 256, lambda p: 16, 1),
    ("A2AT torus:32x32", 60.20e6 / 108997, 1024, lambda p: 32, 1),
    # Slabs along Z: a boundary crosses the Z+ cable of each of the 8 main
    # units of the 64 boards of a Z plane (topology/boards.hpp).
    ("hd-allreduce boards:4x4x4x4", 209.92e6 / 818325, 3072, lambda p: 64 * 8, 1),
    ("A2AT torus:32x32, links of 8 cycles", 60.20e6 / 108997, 1024, lambda p: 32, 8),
]
RANKS = [1, 2, 4, 8, 16, 32]
# boards:4x4x4x4 has 4 Z planes: at most 4 slabs along Z.
MAX_RANKS = {"hd-allreduce boards:4x4x4x4": 4}
ALPHA_US = 1.5
BETA_BYTES_PER_US = 12e3


def interpolate(points, n):
    """Median exchange time (us) for n link-cycles, log-log between measurements."""
    if n <= 0:
        return points[0][1]
    xs = [(lc, t) for lc, t in points if lc > 0]
    if n <= xs[0][0]:
        return xs[0][1]
    for (x0, y0), (x1, y1) in zip(xs, xs[1:]):
        if n <= x1:
            f = (math.log(n) - math.log(x0)) / (math.log(x1) - math.log(x0))
            return math.exp(math.log(y0) + f * (math.log(y1) - math.log(y0)))
    (x0, y0), (x1, y1) = xs[-2], xs[-1]
    return y1 * n / x1  # past the last measurement: bandwidth-bound, linear


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("exchange", help="docs/mpi-exchange.json from bench_mpi_exchange")
    ap.add_argument("--out", help="PNG plot of the predicted speedups")
    args = ap.parse_args()
    try:
        with open(args.exchange) as f:
            doc = json.load(f)
        per = doc["link_cycle_bytes"]
        measured = [(e["bytes"] // per if per else 0, e["p50_us"]) for e in doc["exchanges"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"distributed_model: cannot read {args.exchange}: {e}", file=sys.stderr)
        return 2

    def shared(n):
        return interpolate(measured, n)

    def between_machines(n):
        return ALPHA_US + n * per / BETA_BYTES_PER_US

    print("| point | T1 us/cycle | L | exchange | " + " | ".join(f"P={p}" for p in RANKS) + " |")
    print("|---|---|---|---|" + "---|" * len(RANKS))
    curves = []
    for name, t1, routers, cut, lookahead in POINTS:
        for label, model in (("this machine (measured)", shared), ("between machines (assumed)", between_machines)):
            speedups = []
            for p in RANKS:
                if p > MAX_RANKS.get(name, 10**9):
                    speedups.append(float("nan"))
                    continue
                if p == 1:
                    speedups.append(1.0)
                    continue
                neighbours = 1 if p == 2 else 2
                links = cut(p) * (2 if p == 2 else 1)  # two boundaries with the same neighbour when P = 2
                tp = t1 / p + neighbours * model(lookahead * links) / lookahead
                speedups.append(t1 / tp)
            curves.append((f"{name}, {label}", speedups))
            print(f"| {name} | {t1:.1f} | {lookahead} | {label} | " + " | ".join("-" if math.isnan(s) else f"{s:.2f}" for s in speedups) + " |")
    if args.out:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 5))
        for label, s in curves:
            ax.plot(RANKS, s, marker="o", linestyle="-" if "measured" in label else "--", label=label)
        ax.plot(RANKS, RANKS, color="grey", linewidth=0.8, label="ideal")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("MPI ranks P")
        ax.set_ylabel("predicted speedup over one process")
        ax.set_title("One run split over MPI ranks (conservative windows of L cycles)")
        ax.legend(fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
