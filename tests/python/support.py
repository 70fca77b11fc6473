"""What the Python tests share: the built collnet executable the module is
compared with, and the report fields that differ between any two runs."""
import json
import os
import subprocess

import collnet

BINARY = os.path.abspath(os.environ.get("COLLNET_BINARY", collnet.binary_path()))
SOURCE = os.environ.get("COLLNET_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))

# Wall-clock measurements differ between any two runs.
TIMING = {"sim_seconds", "sim_cpu_seconds", "elaboration_seconds", "router_cycles_per_second",
          "router_cycles_per_cpu_second", "check_seconds", "wall_seconds", "finished_at", "write_seconds"}

SMALL_RUN = {"topology": "torus:4x4", "algorithm": "a2a-optimal", "message_flits": 8, "nct": 2,
             "group_barriers": False, "vcs": 4}


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def sets(scenario):
    return [a for k, v in scenario.items() for a in ("--set", f"{k}={text(v)}")]


def cli(args, tmp_path, expect=0, cwd=None):
    """Runs collnet with `args`; its --json report (written to tmp_path unless
    args name one) as a dict, None when it wrote none."""
    out = tmp_path / "cli.json"
    r = subprocess.run([BINARY, *args, "--json", str(out)] if "--json" not in args else [BINARY, *args],
                       capture_output=True, text=True, timeout=600, cwd=cwd)
    assert r.returncode == expect, r.stderr
    return json.loads(out.read_text()) if out.exists() else None
