"""One `collnet run` for the study scripts: the run's JSON, or the script
stops with the command, its exit status and its error message. Collective
runs must also pass their data check (synthetic runs have none)."""
import json
import os
import subprocess
import sys
import tempfile


def _collnet_json(collnet, subcommand, args, keys):
    """`collnet SUBCOMMAND ARGS --set K=V ... --json FILE`: its JSON, or stop."""
    sets = [f"{k}={v}" for k, v in keys.items()] if isinstance(keys, dict) else list(keys)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, f"{subcommand}.json")
        cmd = [str(collnet), subcommand, *map(str, args)]
        for kv in sets:
            cmd += ["--set", kv]
        cmd += ["--json", out]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
    if doc.get("data_check", "pass") != "pass":
        sys.exit(f"{' '.join(cmd)}: data check failed")
    return doc


def run_json(collnet, args, keys=()):
    """`collnet run ARGS --set K=V ... --json FILE`; keys: a dict or "k=v" strings."""
    return _collnet_json(collnet, "run", args, keys)


def check_json(collnet, args, keys=()):
    """`collnet check ARGS --set K=V ... --json FILE` (software reference and
    static checker, no cycle simulation); stops on an error or a failed data check."""
    return _collnet_json(collnet, "check", args, keys)
