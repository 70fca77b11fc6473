#!/usr/bin/python3
"""Fixed cost of a short collnet process: runs each command N times and
prints the median wall time and the mean CPU time (user + system, from
wait4) per run. The commands separate the phases of a small run: process
start and static initialisation (--version), the huge-page restart
(GLIBC_TUNABLES unset against glibc.malloc.hugetlb=0), and a tiny
synthetic run (mesh:2x2, one measured cycle: scenario, elaboration,
report). CPU time is the robust figure on a loaded machine.

usage: bench/startup_cost.py [--collnet build/collnet] [--runs 20]
"""
import argparse
import os
import statistics
import subprocess
import time


def measure(cmd, env, runs):
    walls, cpus = [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(cmd)} failed")
    return statistics.median(walls), statistics.mean(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collnet", default="build/collnet")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    c = args.collnet
    tiny = [c, "run", "--set", "traffic=uniform", "--set", "topology=mesh:2x2", "--set", "warmup_cycles=0",
            "--set", "measure_cycles=1"]
    mesh8 = [c, "run", "--set", "traffic=uniform", "--set", "topology=mesh:8x8", "--set", "injection_rate=0.1"]
    base = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    off = dict(base, GLIBC_TUNABLES="glibc.malloc.hugetlb=0")
    rows = [
        ("--version, tunable unset", [c, "--version"], base),
        ("--version, hugetlb=0 set", [c, "--version"], off),
        ("tiny run (mesh:2x2, 1 cycle), tunable unset", tiny, base),
        ("tiny run, hugetlb=0 set", tiny, off),
        ("mesh:8x8 at 0.1, tunable unset", mesh8, base),
    ]
    print(f"load average {os.getloadavg()[0]:.1f}, {args.runs} runs each")
    print("| command | median wall ms | mean CPU ms |")
    print("|---|---|---|")
    for label, cmd, env in rows:
        wall, cpu = measure(cmd, env, args.runs)
        print(f"| {label} | {1e3 * wall:.1f} | {1e3 * cpu:.1f} |")


if __name__ == "__main__":
    main()
