#!/usr/bin/env python3
"""Every endpoint of a routed iCE40 block that misses the clock period, grouped.

nextpnr-ice40 0.4 prints the worst path of a clock only. Closing timing on a
block that fails on many endpoints needs all of them: which registers start
the failing paths and which registers (and which pin: D, clock enable,
reset) they end at. This reads the timing graph that
scripts/nextpnr_route_delays.py dumped after routing (routed net delays from
nextpnr itself), adds the iCE40 HX cell delays, propagates arrival times
through the netlist and prints

  - the worst arrival (it equals the total of nextpnr's critical-path report),
  - the number of endpoints whose arrival exceeds the period,
  - the failing endpoints grouped by (start register, end register, pin),
    worst first, with the worst path of each group with --paths.

Registers are named by the net their flip-flops drive; with --rtl BLOCK.sv,
bits of the engine's register struct (r_q[i] of `typedef struct packed
{...} regs_t`) are named by struct field.

Cell delays (ns) are nextpnr-ice40's HX figures as its critical-path reports
print them: clock to output 0.54, LUT input to output I0 0.448, I1 0.400,
I2 0.378, I3 0.315, carry I1 0.259, I2 0.231, CIN 0.126, setup through the
LUT the input's delay + 0.020, clock-enable setup 0.1, a global buffer
0.617; the reset setup (0.2) and the block RAM's clock to output (2.1) are
this script's estimates.

usage: timing_endpoints.py ROUTE_DELAYS.json [--period NS] [--rtl BLOCK.sv] [--paths]
"""
import argparse
import collections
import json
import re
import signal
import sys

LUT = {"I0": 0.448, "I1": 0.400, "I2": 0.378, "I3": 0.315}
CARRY = {"I1": 0.259, "I2": 0.231, "CIN": 0.126}
SETUP = {**{p: d + 0.020 for p, d in LUT.items()}, "CEN": 0.1, "SR": 0.2}
CLK_TO_Q = 0.54
RAM_CLK_TO_Q = 2.1
RAM_SETUP = 0.2
GLOBAL_BUFFER = 0.617


def lut_inputs(init: str) -> set:
    """The LUT inputs the function depends on (LUT_INIT, 16 bits)."""
    bits = init.rjust(16, "0")
    return {f"I{k}" for k in range(4) if any(bits[i] != bits[i ^ (1 << k)] for i in range(16))}


def struct_fields(sv_path: str) -> list:
    """(lsb, width, name) of every field of regs_t in the block's source."""
    src = open(sv_path).read()
    params = {k: int(v) for k, v in re.findall(r"localparam int unsigned (\w+) = (\d+);", src)}
    params.setdefault("TagWidth", 16)  # collnet_descriptor_pkg::TagWidth
    body = re.search(r"typedef struct packed \{(.*?)\} regs_t;", src, re.S)
    safe = {"__builtins__": {}}
    enums = {m.group(2): int(eval(m.group(1), safe, params)) + 1
             for m in re.finditer(r"typedef enum logic \[(.*?):0\].*?\}\s*(\w+);", src, re.S)}
    if body is None:
        return []
    fields = []
    for line in body.group(1).splitlines():
        line = line.split("//")[0].strip()
        m = re.match(r"(\w+)\s*(\[(.*?):0\])?\s*(.*);", line)
        if not m:
            continue
        kind, rng, names = m.group(1), m.group(3), m.group(4)
        try:
            width = int(eval(rng, safe, params)) + 1 if rng else enums.get(kind, 1)
        except Exception:
            return []  # a width this parser cannot evaluate: keep the nets' own names
        fields += [(n.strip(), width) for n in names.split(",")]
    layout, lsb = [], sum(w for _, w in fields)
    for name, width in fields:
        lsb -= width
        layout.append((lsb, width, name))
    return layout


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (head) is not an error
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("delays")
    ap.add_argument("--period", type=float, default=10.0, help="clock period in ns (default 10: 100 MHz)")
    ap.add_argument("--rtl", help="the block's SystemVerilog, to name register-struct bits by field")
    ap.add_argument("--paths", action="store_true", help="print the worst path of every group")
    args = ap.parse_args()
    try:
        with open(args.delays) as f:
            graph = json.load(f)
        cells, nets = graph["cells"], graph["nets"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"timing_endpoints: {args.delays}: not a route-delay dump of scripts/nextpnr_route_delays.py ({e})",
              file=sys.stderr)
        sys.exit(2)
    try:
        layout = struct_fields(args.rtl) if args.rtl else []
    except OSError as e:
        print(f"timing_endpoints: --rtl {args.rtl}: {e.strerror}", file=sys.stderr)
        sys.exit(2)

    driver_of = {}   # (cell, input port) -> (driver cell, driver port, net, delay)
    net_of = {}      # (cell, output port) -> net name
    for n in nets:
        dc, dp = n["driver"]
        net_of[(dc, dp)] = n["net"]
        for c, p, d in n["sinks"]:
            driver_of[(c, p)] = (dc, dp, n["net"], d)

    def sequential(name: str) -> bool:
        c = cells[name]
        return c["type"] == "ICESTORM_RAM" or (c["type"] == "ICESTORM_LC" and c["params"].get("DFF_ENABLE") == "1")

    arrival, came_from = {}, {}

    def out_arrival(cell: str, port: str) -> float:
        """Arrival at an output port (iterative: carry chains are long)."""
        stack = [(cell, port)]
        on_stack = {(cell, port)}
        while stack:
            key = stack[-1]
            if key in arrival:
                stack.pop()
                on_stack.discard(key)
                continue
            c = cells[key[0]]
            if c["type"] == "ICESTORM_LC" and key[1] in ("O", "LO") and sequential(key[0]):
                arcs = {}
                base = CLK_TO_Q
            elif c["type"] == "ICESTORM_LC":
                base = 0.0
                if key[1] == "COUT":
                    arcs = CARRY
                else:
                    deps = lut_inputs(c["params"].get("LUT_INIT", "0"))
                    arcs = {p: d for p, d in LUT.items() if p in deps}
            elif c["type"] == "ICESTORM_RAM":
                arcs, base = {}, RAM_CLK_TO_Q
            elif c["type"] == "SB_GB":
                arcs, base = {p: GLOBAL_BUFFER for p, kind in c["ports"].items() if kind == "in"}, 0.0
            else:
                arcs, base = {}, 0.0
            pending = [driver_of[(key[0], p)][:2] for p in arcs
                       if (key[0], p) in driver_of and driver_of[(key[0], p)][:2] not in arrival]
            if pending:  # depth first, one input at a time: the stack is the path
                nxt = pending[0]
                if nxt in on_stack:
                    sys.exit(f"timing_endpoints: combinational loop through {nxt[0]}.{nxt[1]}")
                on_stack.add(nxt)
                stack.append(nxt)
                continue
            best, prev = base, None
            for p, d in arcs.items():
                if (key[0], p) not in driver_of:
                    continue
                dc, dp, _, nd = driver_of[(key[0], p)]
                a = arrival[(dc, dp)] + nd + d
                if a > best:
                    best, prev = a, (dc, dp)
            arrival[key], came_from[key] = best, prev
            stack.pop()
            on_stack.discard(key)
        return arrival[(cell, port)]

    def field(net: str) -> str:
        m = re.search(r"\br_q\[(\d+)\]$", net)
        if m and layout:
            i = int(m.group(1))
            for lsb, width, name in layout:
                if lsb <= i < lsb + width:
                    return f"{name}[{i - lsb}]"
        return net

    endpoints = []
    for name, c in cells.items():
        if not sequential(name):
            continue
        for port, kind in c["ports"].items():
            if kind != "in" or (name, port) not in driver_of:
                continue
            if c["type"] == "ICESTORM_LC":
                if port not in SETUP:
                    continue
                if port in LUT and port not in lut_inputs(c["params"].get("LUT_INIT", "0")):
                    continue
                setup = SETUP[port]
            else:
                if "CLK" in port:
                    continue
                setup = RAM_SETUP
            dc, dp, _, nd = driver_of[(name, port)]
            endpoints.append((out_arrival(dc, dp) + nd + setup, name, port))
    endpoints.sort(reverse=True)
    if not endpoints:
        sys.exit("timing_endpoints: no register endpoints in " + args.delays)

    def path_to(name: str, port: str) -> list:
        dc, dp, net, _ = driver_of[(name, port)]
        path = [(dc, dp, net)]
        while came_from.get((dc, dp)) is not None:
            dc, dp = came_from[(dc, dp)]
            path.append((dc, dp, net_of.get((dc, dp), "?")))
        return path[::-1]

    def register(name: str) -> str:
        c = cells[name]
        if c["type"] == "ICESTORM_LC":
            return field(net_of.get((name, "O"), name))
        return name

    failing = [e for e in endpoints if e[0] > args.period]
    print(f"worst arrival {endpoints[0][0]:.2f} ns; {len(failing)} of {len(endpoints)} register endpoints "
          f"over {args.period:g} ns")
    groups = collections.OrderedDict()
    for a, name, port in failing:
        path = path_to(name, port)
        start = re.sub(r"\[\d+\]$", "", field(path[0][2]))
        end = re.sub(r"\[\d+\]$", "", register(name))
        pin = port if port in ("CEN", "SR") else "D"
        g = groups.setdefault((start, end, pin), {"count": 0, "worst": a, "path": path})
        g["count"] += 1
    if groups:
        print(f"{'endpoints':>9} {'worst ns':>8}  start register -> end register (pin)")
    for (start, end, pin), g in sorted(groups.items(), key=lambda kv: -kv[1]["worst"]):
        print(f"{g['count']:9d} {g['worst']:8.2f}  {start} -> {end} ({pin})")
        if args.paths:
            for dc, dp, net in g["path"]:
                print(f"{'':20}{out_arrival(dc, dp):6.2f}  {dc}.{dp}  -> {field(net)}")


if __name__ == "__main__":
    main()
