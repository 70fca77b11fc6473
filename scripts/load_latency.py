#!/usr/bin/python3
"""Latency-versus-load curve and saturation throughput of synthetic traffic.

Runs `collnet run --json` (open loop: warm-up, measurement window, drain) for
each topology at a sweep of offered loads and prints a Markdown table of
average and 99th-percentile packet latency and accepted throughput
(flits/node/cycle). Saturation is reported as the highest accepted rate seen
in the sweep; a load is marked saturated when its accepted rate falls more
than 2 % below the offered rate or its packets do not drain.

Usage: scripts/load_latency.py [--collnet build/collnet]
                               [--topologies mesh:8x8,torus:8x8]
                               [--traffic uniform] [--loads 0.05,0.1,...]
                               [--set key=value ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

DEFAULT_LOADS = "0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5,0.6"


def run(collnet, topology, traffic, load, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        cmd = [collnet, "run", "--json", out, "--set", f"topology={topology}",
               "--set", f"traffic={traffic}", "--set", f"injection_rate={load}"]
        for kv in extra:
            cmd += ["--set", kv]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        if done.returncode not in (0, 1):
            sys.exit(f"load_latency: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collnet", default="build/collnet")
    ap.add_argument("--topologies", default="mesh:8x8,torus:8x8")
    ap.add_argument("--traffic", default="uniform")
    ap.add_argument("--loads", default=DEFAULT_LOADS)
    ap.add_argument("--set", action="append", default=[], dest="extra", metavar="KEY=VALUE")
    args = ap.parse_args()
    loads = [float(x) for x in args.loads.split(",")]
    print(f"{args.traffic} traffic, offered load in flits/node/cycle "
          f"({' '.join(args.extra) if args.extra else 'default router and traffic keys'})\n")
    print("| topology | offered | accepted | avg latency | p99 latency | |")
    print("|---|---|---|---|---|---|")
    for topology in args.topologies.split(","):
        best = 0.0
        for load in loads:
            j = run(args.collnet, topology, args.traffic, load, args.extra)
            accepted = j["accepted_rate"]
            best = max(best, accepted)
            saturated = accepted < 0.98 * j["offered_rate"] or not j["completed"]
            print(f"| {topology} | {j['offered_rate']:.3f} | {accepted:.3f} | {j['avg_latency']:.1f} | "
                  f"{j['p99_latency']:.0f} | {'saturated' if saturated else ''} |")
        print(f"| {topology} | **saturation** | **{best:.3f}** | | | |")


if __name__ == "__main__":
    main()
