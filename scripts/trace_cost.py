#!/usr/bin/python3
"""What a message trace and a links file cost (docs/guide/traces.md).

Runs one collective scenario without a trace, with `--trace` and with
`--trace --trace-links`, `--repeat` times each, one run at a time, and
prints the scenario's figures (cycles, messages, flit-hops) and a Markdown
table: the simulation's CPU time (`sim_cpu_seconds` of each run), the time
writing the files (the report's `trace.write_seconds`), the largest peak
memory (the process's maximum resident set), and the files: bytes, rows,
bytes a row. Every run must pass its data check and report the same cycles.

Usage: scripts/trace_cost.py [--collnet build/collnet] [--repeat 3] [--set key=value ...]
(default scenario: topology=torus:16x16, compare= (A2AT alone), message_flits=64)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

DEFAULT_KEYS = ["topology=torus:16x16", "compare=", "message_flits=64"]

VARIANTS = [("no trace", []), ("`--trace`", ["--trace"]), ("`--trace --trace-links`", ["--trace", "--trace-links"])]


def one_run(collnet, keys, options, tmp):
    """One run: (its JSON, peak resident memory in bytes, trace file sizes)."""
    report = os.path.join(tmp, "run.json")
    trace = os.path.join(tmp, "run.csv")
    links = os.path.join(tmp, "run.links.csv")
    cmd = [collnet, "run"]
    for kv in keys:
        cmd += ["--set", kv]
    cmd += ["--json", report]
    if "--trace" in options:
        cmd += ["--trace", trace]
    if "--trace-links" in options:
        cmd += ["--trace-links"]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read().decode()
    child.stderr.close()
    if child.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {child.returncode}: {err.strip()}")
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("data_check") != "pass":
        sys.exit(f"{' '.join(cmd)}: data check {doc.get('data_check')}")
    sizes = {name: os.path.getsize(path) for name, path in (("trace", trace), ("links", links)) if os.path.exists(path)}
    for path in (report, trace, links):
        if os.path.exists(path):
            os.remove(path)
    return doc, usage.ru_maxrss * 1024, sizes


def mb(n):
    return f"{n / 1e6:.1f} MB" if n < 1e9 else f"{n / 1e9:.2f} GB"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--collnet", default="build/collnet")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--set", dest="keys", action="append", metavar="KEY=VALUE",
                    help="the scenario's keys (default: " + " ".join(DEFAULT_KEYS) + ")")
    args = ap.parse_args()
    keys = args.keys or DEFAULT_KEYS
    collnet = os.path.abspath(args.collnet)
    rows, cycles = [], set()
    with tempfile.TemporaryDirectory(prefix="collnet_trace_cost_") as tmp:
        for label, options in VARIANTS:
            runs = [one_run(collnet, keys, options, tmp) for _ in range(args.repeat)]
            cycles |= {doc["cycles"] for doc, _, _ in runs}
            rows.append((label, options, runs))
    if len(cycles) != 1:
        sys.exit(f"trace_cost: the runs report different cycles: {sorted(cycles)}")
    doc = rows[0][2][0][0]
    print(f"collnet run --set {' --set '.join(keys)}")
    print(f"{doc['algorithm']} on {doc['topology']}: {doc['cycles']} cycles, {doc['messages']} network messages, "
          f"{doc['local_copies']} local copies, {doc['flit_hops']} flit-hops")
    print()
    print(f"| run | simulation CPU ({args.repeat} runs) | writing the files | peak memory | files |")
    print("|---|---|---|---|---|")
    for label, options, runs in rows:
        cpu = ", ".join(f"{d['sim_cpu_seconds']:.1f}" for d, _, _ in runs) + " s"
        peak = mb(max(p for _, p, _ in runs))
        if not options:
            print(f"| {label} | {cpu} | - | {peak} | - |")
            continue
        writes = [d["trace"]["write_seconds"] for d, _, _ in runs]
        trace = runs[0][0]["trace"]
        sizes = runs[0][2]
        files = (f"{mb(sizes['trace'])} ({trace['messages']} rows, "
                 f"{sizes['trace'] / trace['messages']:.0f} bytes a row)")
        if "links" in sizes:
            files += (f" + {mb(sizes['links'])} ({trace['link_intervals']} intervals, "
                      f"{sizes['links'] / trace['link_intervals']:.0f} bytes each)")
        print(f"| {label} | {cpu} | {min(writes):.2f} to {max(writes):.2f} s | {peak} | {files} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
