# nextpnr-ice40 post-route hook (`--post-route scripts/nextpnr_route_delays.py`):
# writes the routed design's timing graph to the JSON file named by the
# environment variable COLLNET_ROUTE_DELAYS, for scripts/timing_endpoints.py.
#
# nextpnr 0.4 reports only the worst path of a clock; a block that fails
# timing on many endpoints needs all of them. This dumps, for every cell, its
# type and the parameters that decide its timing arcs (an ICESTORM_LC's
# DFF_ENABLE, CARRY_ENABLE and LUT_INIT), and for every net its driver and
# the routed delay to each sink: the sum of the delays of the pips the router
# bound from the sink's wire back to the driver (iCE40 wires carry no delay
# of their own in nextpnr; the pips do). The same figure nextpnr's
# critical-path report prints for a routed net. `ctx` is nextpnr's.
import json
import os

out = os.environ.get("COLLNET_ROUTE_DELAYS", "route_delays.json")
cells = {}
for name, cell in ctx.cells:  # noqa: F821 (nextpnr's context)
    params = {str(k): str(v) for k, v in cell.params}
    cells[name] = {
        "type": str(cell.type),
        "params": {k: params[k] for k in ("DFF_ENABLE", "CARRY_ENABLE", "LUT_INIT") if k in params},
        "ports": {str(p): ("out" if "OUT" in str(info.type) else "in") for p, info in cell.ports},
    }
nets = []
for name, net in ctx.nets:  # noqa: F821
    driver = net.driver
    if driver.cell is None:
        continue
    wires = net.wires
    sinks = []
    for user in net.users:
        if user.cell is None:
            continue
        wire = ctx.getBelPinWire(user.cell.bel, user.port)  # noqa: F821
        delay = 0.0
        for _ in range(1000):  # a routed tree is acyclic; the bound only guards the walk
            pip = wires[wire].pip
            if pip is None or str(pip) == "":
                break
            delay += ctx.getDelayNS(ctx.getPipDelay(pip).maxDelay())  # noqa: F821
            wire = ctx.getPipSrcWire(pip)  # noqa: F821
        sinks.append([user.cell.name, str(user.port), round(delay, 4)])
    nets.append({"net": name, "driver": [driver.cell.name, str(driver.port)], "sinks": sinks})
with open(out, "w") as f:
    json.dump({"cells": cells, "nets": nets}, f)
