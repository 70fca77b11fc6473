#!/usr/bin/python3
"""What a workload's bookkeeping costs: writes Chakra traces of a ring
allreduce on RANKS ranks written as sends and receives (each step's send
after the previous step's receive, as the ring's programs do), repeated
REPEATS times one after another, so that every rank has
REPEATS x 2 x 2 (RANKS - 1) nodes; runs them as a workload, and runs
ring-allreduce REPEATS times on the same network with the same messages
(CHUNK words to the next rank per step). Prints the import time (reading
and checking the traces, then lowering them) and the simulation's CPU
seconds of both (the report's sim_cpu_seconds: process CPU time, machine
load aside), and their ratio.

Needs python3-protobuf (Debian's, for /usr/bin/python3) and protoc.

    /usr/bin/python3 scripts/workload_speed.py [--collnet build/collnet]
        [--topology torus:8x8] [--repeats 40] [--chunk 16] [--dir DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chakra_module(out_dir):
    """chakra_pb2 generated from workload/chakra.proto into out_dir."""
    subprocess.run(["protoc", "-I", REPO, "--python_out=" + out_dir, os.path.join(REPO, "workload", "chakra.proto")],
                   check=True)
    sys.path.insert(0, out_dir)
    from workload import chakra_pb2  # noqa: E402 (generated above)
    return chakra_pb2


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def write_traces(pb, prefix, ranks, repeats, chunk_bytes):
    for r in range(ranks):
        meta = pb.GlobalMetadata(version="0.0.4")
        parts = [meta.SerializeToString()]
        last = None
        node_id = 0
        for _ in range(repeats):
            for step in range(2 * (ranks - 1)):
                for kind in ("send", "recv"):
                    n = pb.Node(id=node_id, name=f"{kind}{step}", type=5 if kind == "send" else 6)
                    if last is not None:
                        n.data_deps.append(last)
                    n.attr.add(name="comm_size", int64_val=chunk_bytes)
                    if kind == "send":
                        n.attr.add(name="comm_dst", int32_val=(r + 1) % ranks)
                    else:
                        n.attr.add(name="comm_src", int32_val=(r - 1) % ranks)
                    n.attr.add(name="comm_tag", int32_val=0)
                    parts.append(n.SerializeToString())
                    last = node_id
                    node_id += 1
        with open(f"{prefix}.{r}.et", "wb") as f:
            for p in parts:
                f.write(varint(len(p)))
                f.write(p)
    return node_id


def run(collnet, sets, json_path):
    args = [collnet, "run", "--json", json_path]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    with open(json_path) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--collnet", default=os.path.join(REPO, "build", "collnet"))
    ap.add_argument("--topology", default="torus:8x8")
    ap.add_argument("--ranks", type=int, default=64, help="the topology's endpoints")
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--chunk", type=int, default=16, help="words a step sends (flit_bytes 8 each)")
    ap.add_argument("--dir", default=None, help="where the traces go (default: a temporary folder)")
    a = ap.parse_args()
    work = a.dir or tempfile.mkdtemp(prefix="collnet_workload_speed_")
    os.makedirs(work, exist_ok=True)
    pb = chakra_module(work)
    prefix = os.path.join(work, "ring")
    nodes = write_traces(pb, prefix, a.ranks, a.repeats, 8 * a.chunk)  # comm_size in bytes, 8 a word
    w = run(a.collnet, [f"workload=chakra:{prefix}", f"topology={a.topology}", "threads=1"],
            os.path.join(work, "workload.json"))
    c = run(a.collnet, ["algorithm=ring-allreduce", f"elements={a.ranks * a.chunk}", f"topology={a.topology}",
                        "compare=", "threads=1"], os.path.join(work, "collective.json"))
    assert w["data_check"] == "pass" and c["data_check"] == "pass"
    ww = w["workload"]
    print(f"traces: {a.ranks} ranks x {nodes} nodes ({a.repeats} ring allreduces of {a.ranks * a.chunk} words "
          f"written as sends and receives) in {work}")
    print(f"import: {ww['read_seconds']:.2f} s reading and checking, {ww['lower_seconds']:.2f} s lowering, "
          f"{ww['read_seconds'] + ww['lower_seconds']:.2f} s in all")
    print(f"workload: {w['cycles']} cycles, {w['messages']} network messages, {w['local_copies']} local copies "
          f"(done signals), {w['sim_cpu_seconds']:.3f} s simulation CPU")
    plain_cpu = a.repeats * c["sim_cpu_seconds"]
    print(f"ring-allreduce x {a.repeats}: {a.repeats * c['cycles']} cycles, {a.repeats * c['messages']} network "
          f"messages, {plain_cpu:.3f} s simulation CPU ({c['sim_cpu_seconds']:.4f} s a run)")
    print(f"bookkeeping: the workload takes {w['sim_cpu_seconds'] / plain_cpu:.3f}x the simulation CPU of the same "
          f"messages as plain collectives")


if __name__ == "__main__":
    main()
