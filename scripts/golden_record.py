#!/usr/bin/env python3
"""Records tests/golden/figures.json: runs every scenario of
tests/golden/scenarios.txt with `collnet run --json` and keeps the figures
that say what was simulated (cycles, data, barriers, traffic counts, latency).

Run it only on a build whose behaviour is the reference (before a speed or
refactoring change); tests/cli/golden_figures_test.cpp compares later builds
with the file. Usage: scripts/golden_record.py [BUILD_DIR] [NAME ...]
(names: re-record only those scenarios, keep the others).
"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests/golden/scenarios.txt"
FIGURES = ROOT / "tests/golden/figures.json"

COLLECTIVE = ["cycles", "completed", "data_check", "data_mismatches", "reference_mismatch_words", "barriers",
              "barrier_wait_cycles", "messages", "packets", "flits", "local_copies", "max_queue_flits",
              "arbitration_conflicts", "schedule_engine", "link_utilization.mean", "link_utilization.max"]
COMPARED = ["algorithm", "cycles", "data_check", "barriers", "flits", "arbitration_conflicts"]
SYNTHETIC = ["cycles", "completed", "measured_packets", "avg_latency", "p99_latency", "max_latency",
             "accepted_rate", "offered_rate", "unfinished_packets", "integrity_errors",
             "link_utilization.mean", "link_utilization.max"]


def scenarios():
    for line in SCENARIOS.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, args = line.split(":", 1)
        # "{source}" stands for the source tree (files a scenario reads, e.g. an imported schedule).
        yield name.strip(), [a.replace("{source}", str(ROOT)) for a in args.split()]


def field(doc, path):
    for part in path.split("."):
        doc = doc[part]
    return doc


def record(collnet, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "run.json"
        proc = subprocess.run([collnet, "run", *args, "--json", str(out)], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"collnet run {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
        doc = json.loads(out.read_text())
    kind = SYNTHETIC if "traffic" in doc else COLLECTIVE
    figures = {path: field(doc, path) for path in kind}
    if "compare" in doc and doc["compare"]:
        figures["compare"] = [{k: c[k] for k in COMPARED} for c in doc["compare"]]
    return figures


def main():
    build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build"
    only = set(sys.argv[2:])
    collnet = str(build / "collnet")
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() and only else {}
    for name, args in scenarios():
        if only and name not in only:
            continue
        figures[name] = record(collnet, args)
        print(f"{name}: {figures[name]['cycles']} cycles", flush=True)
    FIGURES.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
