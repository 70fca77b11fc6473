#!/usr/bin/python3
"""Halving/doubling allreduce in cycles at the document's shape (document 004).

Runs hd-allreduce against hd-allreduce-conventional on boards:4x4x2x2 and
boards:4x4x4x4 with 4096, 16384 and 65536 elements per main unit, dimension order
wxyz against bandwidth, aggregation_units 1, 2, 4, each with three NICs:

  today     one controller per unit, one word reduced a cycle, the document's
            in-board order (the defaults)
  rotated   today's NIC with plane_order: rotated
  document  the document's aggregation unit: plane_order: rotated,
            link_controllers: per-link (one controller per in-board link,
            a size-2 ring's halves at once), reduce_words_per_cycle: 8

Every run is `collnet run --json --trace` (one simulation at a time; the
script stops if a data check fails). From the run's JSON: cycles and
inter_board_flits. From the message trace: where the time goes per
aggregation unit. For unit e and step g (tag g, its local combines tag
0x8000 + g), the step ends at the last delivery to e (the broadcast, which e
only sends: the last delivery of its SENDs); the step's time is its end minus
the previous step's end (the scatter's: from cycle 0, so it includes the wait
for pieces that come late). The steps' times are summed by kind (scatter
with its local reduces, halvings, doublings, broadcast) and averaged over the
units; per unit they add up to the cycle its broadcast ends.

Results are kept in a directory of the repository (docs/studies/data/hd-allreduce,
one JSON file per point: cycles, inter-board flits, data check, phases) so
that long points run once and the tables and plot are redrawn from them;
--shapes / --sizes pick a subset (run them in the background first). Prints the markdown tables of docs/studies/hd-allreduce.md
and draws docs/hd-allreduce.png.

Usage: scripts/hd_allreduce_study.py [--build build] [--cache DIR]
         [--shapes 4x4x2x2,4x4x4x4] [--sizes 16384,65536] [--run-only]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_figure  # noqa: E402

UNITS_PER_BOARD = 12  # topology/boards.hpp: endpoint 12 * board + unit, aggregation units 8..11
LOCAL_TAG = 0x8000    # collectives/algorithms/hd_allreduce.hpp: local combines of step g carry 0x8000 + g

NICS = {
    "today": {},
    "rotated": {"plane_order": "rotated"},
    "document": {"plane_order": "rotated", "link_controllers": "per-link", "reduce_words_per_cycle": 8},
}
HD, CONV = "hd-allreduce", "hd-allreduce-conventional"


def points(shapes, sizes):
    """(topology, elements, algorithm, dim_order, A, nic) of the study, the
    headline first. boards:4x4x4x4 takes minutes per point (more than three at
    65536 elements, 2.3 GB), so it runs the comparisons the claims need only;
    its bandwidth order is wxyz (no size-2 dimension)."""
    out = []
    for shape in shapes:
        for L in sizes:
            topo = "boards:" + shape
            small = shape != "4x4x4x4"
            both = ((topo, L, HD, "wxyz", 4), (topo, L, CONV, "wxyz", 4))
            bw = ((topo, L, HD, "bandwidth", 4),) if small else ()
            a2 = ((topo, L, HD, "wxyz", 2),)
            if not small and L > 16384:
                out += [(*q, "document") for q in both]
                continue
            out += [(*q, "document") for q in both + bw + a2]
            out += [(*q, "today") for q in both + bw + a2]
            if small and L <= 16384:
                out += [(*q, "rotated") for q in both]
                out += [(topo, L, HD, "wxyz", 1, nic) for nic in ("document", "today")]
    return out


def plan(topology, algorithm, dim_order):
    """Step kinds in global step order (hd_plan in hd_allreduce.cpp)."""
    sizes = [int(n) for n in topology.split(":")[1].split("x")]
    if dim_order == "wxyz":
        dims = [d for d in range(4) if sizes[d] > 1]
    else:
        dims = [d for want in (2, 4) for d in range(4) if sizes[d] == want]
    bits = {d: sizes[d].bit_length() - 1 for d in dims}
    steps = ["scatter"]
    if algorithm == HD:
        steps += ["halving"] * sum(bits.values()) + ["doubling"] * sum(bits.values())
    else:
        for d in dims:
            steps += ["halving"] * bits[d] + ["doubling"] * bits[d]
    return steps + ["broadcast"]


def phases(trace_csv, steps, A):
    """Mean per aggregation unit of the time spent in each kind of step."""
    last = len(steps) - 1
    start, end_in, end_out = {}, {}, {}
    with open(trace_csv, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            tag = int(r["tag"])
            g = tag - LOCAL_TAG if tag >= LOCAL_TAG else tag
            src, dst = int(r["src"]), int(r["dst"])
            inject, deliver = int(r["inject_cycle"]), int(r["deliver_cycle"])
            if g == 0 and r["kind"] == "network":
                start[dst] = min(start.get(dst, inject), inject)
            end_in[(dst, g)] = max(end_in.get((dst, g), 0), deliver)
            end_out[(src, g)] = max(end_out.get((src, g), 0), deliver)
    units = [e for e in start if e % UNITS_PER_BOARD - 8 in range(A)]
    total = {k: 0.0 for k in ("scatter", "halving", "doubling", "broadcast")}
    for e in units:
        prev = 0  # the scatter from the run's start: a plane whose pieces come late waits in it
        for g, kind in enumerate(steps):
            end = end_out[(e, g)] if g == last else end_in.get((e, g), prev)
            total[kind] += end - prev
            prev = end
    return {k: v / len(units) for k, v in total.items()}


def run_point(collnet, p):
    topo, L, alg, order, A, nic = p
    keys = {"topology": topo, "algorithm": alg, "elements": L, "dim_order": order, "aggregation_units": A,
            **NICS[nic]}
    with tempfile.TemporaryDirectory() as tmp:
        out, trace = os.path.join(tmp, "run.json"), os.path.join(tmp, "run.csv")
        cmd = [collnet, "run"]
        for k, v in keys.items():
            cmd += ["--set", f"{k}={v}"]
        cmd += ["--json", out, "--trace", trace]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            j = json.load(f)
        if j["data_check"] != "pass":
            sys.exit(f"{' '.join(cmd)}: data check failed")
        ph = phases(trace, plan(topo, alg, order), A)
    return {"cycles": j["cycles"], "inter_board_flits": j["inter_board_flits"], "data_check": j["data_check"],
            "phases": ph}


def key(p):
    return "|".join(map(str, p))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cache", default=os.path.join(ROOT, "docs", "studies", "data", "hd-allreduce"),
                    help="directory of the points' results (one JSON file each)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "hd-allreduce.png"))
    ap.add_argument("--shapes", default="4x4x4x4,4x4x2x2")
    ap.add_argument("--sizes", default="4096,16384,65536")
    ap.add_argument("--run-only", action="store_true", help="run the missing points, print no table")
    ap.add_argument("--print-only", action="store_true", help="run nothing: the tables and plot of the points done")
    a = ap.parse_args()
    collnet = os.path.join(a.build, "collnet")
    shapes = a.shapes.split(",")
    sizes = [int(s) for s in a.sizes.split(",")]

    os.makedirs(a.cache, exist_ok=True)

    def path(p):
        return os.path.join(a.cache, key(p).replace("|", "_").replace(":", "-") + ".json")

    for p in points(shapes, sizes):
        if a.print_only or os.path.exists(path(p)):
            continue
        try:  # another instance of the script runs this point (remove stale .running files by hand)
            os.close(os.open(path(p) + ".running", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
        r = run_point(collnet, p)
        print(f"  {p}: {r['cycles']} cycles, {r['inter_board_flits']} inter-board flits", file=sys.stderr, flush=True)
        with open(path(p) + ".tmp", "w", encoding="utf-8") as f:
            json.dump(r, f, indent=1, sort_keys=True)
        os.replace(path(p) + ".tmp", path(p))
        os.remove(path(p) + ".running")
    if a.run_only:
        return
    cache = {}
    for p in points(shapes, sizes):
        if os.path.exists(path(p)):
            with open(path(p), encoding="utf-8") as f:
                cache[key(p)] = json.load(f)

    def get(topo, L, alg, order, A, nic):
        return cache.get(key((topo, L, alg, order, A, nic)))

    def inter(r):
        return r["phases"]["halving"] + r["phases"]["doubling"]

    def inboard(r):
        return r["phases"]["scatter"] + r["phases"]["broadcast"]

    print("Conventional baseline / hd-allreduce (A = 4, wxyz):")
    print()
    print("| topology | elements | NIC | cycles (conv / hd) | inter-board flits (conv / hd) | flit ratio | "
          "cycle ratio | inter-board phases ratio | scatter + broadcast share (conv / hd) |")
    print("|---|---|---|---|---|---|---|---|---|")
    headline = []
    for shape in shapes:
        for L in sizes:
            for nic in ("today", "rotated", "document"):
                topo = "boards:" + shape
                c, h = get(topo, L, CONV, "wxyz", 4, nic), get(topo, L, HD, "wxyz", 4, nic)
                if not c or not h:
                    continue
                fr = c["inter_board_flits"] / h["inter_board_flits"]
                cr = c["cycles"] / h["cycles"]
                ir = inter(c) / inter(h)
                headline.append((shape, L, nic, fr, cr, ir))
                print(f"| {topo} | {L} | {nic} | {c['cycles']} / {h['cycles']} | {c['inter_board_flits']} / "
                      f"{h['inter_board_flits']} | {fr:.2f} | {cr:.2f} ({cr / fr:.2f} of it) | {ir:.2f} "
                      f"({ir / fr:.2f} of it) | {inboard(c) / c['cycles']:.2f} / {inboard(h) / h['cycles']:.2f} |")

    print()
    print("Where the time goes, mean cycles per aggregation unit (A = 4 unless said):")
    print()
    print("| topology | elements | NIC | algorithm | order | A | scatter + reduce | halvings | doublings | "
          "broadcast | cycles |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for p in points(shapes, sizes):
        r = cache.get(key(p))
        if not r:
            continue
        topo, L, alg, order, A, nic = p
        ph = r["phases"]
        print(f"| {topo} | {L} | {nic} | {'hd' if alg == HD else 'conventional'} | {order} | {A} | "
              f"{ph['scatter']:.0f} | {ph['halving']:.0f} | {ph['doubling']:.0f} | {ph['broadcast']:.0f} | "
              f"{r['cycles']} |")

    print()
    print("Dimension order (hd-allreduce, A = 4), wxyz / bandwidth:")
    print()
    print("| topology | elements | NIC | cycles (wxyz / bandwidth) | inter-board flits (wxyz / bandwidth) | "
          "halvings + doublings (wxyz / bandwidth) |")
    print("|---|---|---|---|---|---|")
    for shape in shapes:
        for L in sizes:
            for nic in ("today", "document"):
                topo = "boards:" + shape
                w, b = get(topo, L, HD, "wxyz", 4, nic), get(topo, L, HD, "bandwidth", 4, nic)
                if not w or not b:
                    continue
                print(f"| {topo} | {L} | {nic} | {w['cycles']} / {b['cycles']} | {w['inter_board_flits']} / "
                      f"{b['inter_board_flits']} | {inter(w):.0f} / {inter(b):.0f} |")

    print()
    print("Aggregation units (hd-allreduce, wxyz): measured against the formula (the part of the run that scales "
          "with B = L/A halves when A doubles; today's NIC: all but the 8 L of the sequential scatter; the "
          "document's aggregation unit: all of it):")
    print()
    print("| topology | elements | NIC | A -> 2A | halvings + doublings (A / 2A) | ratio | cycles (A / 2A) | "
          "predicted 2A cycles | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    arows = []
    for shape in shapes:
        for L in sizes:
            for nic in ("today", "document"):
                topo = "boards:" + shape
                for A in (1, 2):
                    r1, r2 = get(topo, L, HD, "wxyz", A, nic), get(topo, L, HD, "wxyz", 2 * A, nic)
                    if not r1 or not r2:
                        continue
                    fixed = 8 * L if nic == "today" else 0
                    predicted = fixed + (r1["cycles"] - fixed) / 2
                    arows.append((shape, L, nic, A, inter(r2) / inter(r1), r2["cycles"] / r1["cycles"]))
                    print(f"| {topo} | {L} | {nic} | {A} -> {2 * A} | {inter(r1):.0f} / {inter(r2):.0f} | "
                          f"{inter(r2) / inter(r1):.3f} | {r1['cycles']} / {r2['cycles']} | {predicted:.0f} | "
                          f"{r2['cycles'] / predicted:.3f} |")

    plt = study_figure.pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 4.8))
    labels = [f"{s}\nL={L}\n{nic}" for s, L, nic, *_ in headline]
    x = range(len(headline))
    ax.bar([i - 0.27 for i in x], [h[3] for h in headline], 0.27, label="inter-board flit ratio")
    ax.bar([i for i in x], [h[5] for h in headline], 0.27, label="inter-board phases cycle ratio")
    ax.bar([i + 0.27 for i in x], [h[4] for h in headline], 0.27, label="whole-run cycle ratio")
    ax.axhline(1, color="grey", lw=0.5)
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=6)
    ax.set_ylabel("conventional / hd-allreduce")
    ax.set_title("Document 004, A = 4: flits saved against cycles saved")
    ax.legend(fontsize=7)
    shown = [(s, L, nic) for s, L, nic, *_ in headline if nic != "rotated"]
    names, stacks = [], []
    for s, L, nic in shown:
        for alg in (CONV, HD):
            r = get("boards:" + s, L, alg, "wxyz", 4, nic)
            names.append(f"{s} L={L}\n{nic} {'conv' if alg == CONV else 'hd'}")
            stacks.append(r["phases"])
    totals = [sum(st.values()) for st in stacks]
    bottom = [0.0] * len(names)
    for part in ("scatter", "halving", "doubling", "broadcast"):
        vals = [st[part] / t for st, t in zip(stacks, totals)]
        bx.bar(range(len(names)), vals, bottom=bottom, label=part if part != "scatter" else "scatter + reduce")
        bottom = [b + v for b, v in zip(bottom, vals)]
    for i, t in enumerate(totals):
        bx.text(i, 1.01, f"{t:.0f}", ha="center", fontsize=6)
    bx.set_ylim(0, 1.08)
    bx.set_xticks(range(len(names)))
    bx.set_xticklabels(names, fontsize=6, rotation=60, ha="right")
    bx.set_ylabel("share of the cycles per aggregation unit")
    bx.set_title("Where the time goes (above: mean cycles per unit)")
    bx.legend(fontsize=7, loc="lower right")
    study_figure.save(fig, a.out, dpi=100)


if __name__ == "__main__":
    main()
