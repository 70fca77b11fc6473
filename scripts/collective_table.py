#!/usr/bin/python3
"""Cycles and efficiency of every all-to-all on the cycle-accurate model.

Runs `collnet run --json` for each algorithm variant of documents 000 and
001 on torus:8x8, mesh:8x8 and torus:4x4x4, at two message sizes, under age
and round-robin arbitration (issue 5, closing table), and prints a Markdown
table. Everything else is the scenario keys' defaults (2 VCs x 8 flits,
wormhole, router delay 1, link latency 1, 4-flit packets, ideal barrier of 10
cycles, descriptors from the HLS schedule engines where they exist).

Usage: scripts/collective_table.py [--collnet build/collnet] [--sizes 16,64]
                                   [--topologies torus:8x8,mesh:8x8,torus:4x4x4]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

VARIANTS_2D = [
    ("a2a-hopgroup", {}),
    ("a2a-hopgroup", {"directions": "both"}),
    ("a2a-hopgroup", {"pacing": "false"}),
    ("a2a-hopgroup-direct", {}),
    ("a2a-hopgroup-direct", {"barriers": "false", "pacing": "false"}),
    ("a2a-optimal", {"nct": "1"}),
    ("a2a-optimal", {"nct": "2"}),
    ("a2a-optimal", {"nct": "4"}),
    ("a2a-spread", {}),
    ("a2a-nd", {}),
]
VARIANTS_3D = [
    ("a2a-hopgroup", {"mode3d": "literal"}),
    ("a2a-hopgroup", {"mode3d": "concurrent"}),
    ("a2a-hopgroup", {"mode3d": "concurrent", "directions": "both"}),
    ("a2a-hopgroup-direct", {}),
    ("a2a-hopgroup-direct", {"barriers": "false", "pacing": "false"}),
    ("a2a-spread", {}),
    ("a2a-nd", {}),
]


def run(collnet, keys):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    args = [collnet, "run", "--json", path]
    for k, v in keys.items():
        args += ["--set", f"{k}={v}"]
    proc = subprocess.run(args, capture_output=True, text=True)
    try:
        if proc.returncode not in (0, 1, 3):
            sys.exit(f"collnet failed ({proc.returncode}): {' '.join(args)}\n{proc.stderr}")
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def label(algorithm, extra):
    options = ", ".join(f"{k}={v}" for k, v in extra.items())
    return f"{algorithm} ({options})" if options else algorithm


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--collnet", default="build/collnet")
    parser.add_argument("--sizes", default="16,64")
    parser.add_argument("--topologies", default="torus:8x8,mesh:8x8,torus:4x4x4")
    parser.add_argument("--arbitrations", default="age,round-robin")
    opts = parser.parse_args()
    sizes = opts.sizes.split(",")
    arbitrations = opts.arbitrations.split(",")

    for topology in opts.topologies.split(","):
        variants = VARIANTS_3D if topology.count("x") == 2 else VARIANTS_2D
        print(f"\n### {topology}\n")
        header = ["algorithm", "controllers", "barriers"]
        for m in sizes:
            for a in arbitrations:
                header.append(f"m={m} {a}: cycles (efficiency)")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for algorithm, extra in variants:
            cells = []
            controllers = barriers = None
            for m in sizes:
                for a in arbitrations:
                    keys = {"topology": topology, "algorithm": algorithm, "message_flits": m, "arbitration": a}
                    keys.update(extra)
                    j = run(opts.collnet, keys)
                    controllers, barriers = j["controllers"], j["barriers"]
                    if j["data_check"] != "pass" or j["deadlock"] is not None:
                        cells.append("FAIL" if j["deadlock"] is None else "deadlock")
                    else:
                        cells.append(f"{j['cycles']} ({j['efficiency']:.3f})")
            print(f"| {label(algorithm, extra)} | {controllers} | {barriers} | " + " | ".join(cells) + " |",
                  flush=True)


if __name__ == "__main__":
    main()
