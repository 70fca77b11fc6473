#!/usr/bin/python3
"""collnet plot: PNG plots (matplotlib) and Markdown tables of sweep results,
link-utilization maps of one run, and (scripts/collnet_timeline.py) timelines.

Run as `collnet plot ...` (cli/main.cpp hands every argument to this
script) or directly with Debian's /usr/bin/python3. `collnet plot --help`
prints the options; docs/guide/plot.md is the user guide.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys
import tempfile
import textwrap

PROG = "collnet plot"
REPORT_NAME = "plot-report.json"

DESCRIPTION = """\
Draws PNG plots of `collnet sweep` results (RESULTS.jsonl), Markdown tables
of them, and maps of one run's per-link utilization.

What it draws:
  RESULTS.jsonl --out DIR
      one PNG per --y field: the field against --x, one line per value of
      --by (numeric x) or grouped bars (text x such as an algorithm name).
      Defaults: synthetic-traffic sweeps plot avg_latency and accepted_rate
      against injection_rate; collective sweeps cycles and efficiency against
      message_flits, one line per algorithm (else per combination of the
      other axes that vary). Only records with status ok are drawn. --x may
      also be a measured rate (offered_rate, accepted_rate).
  --energy RUN.json --out DIR (or --energy RESULTS.jsonl --record N)
      DIR/energy.png: one run's energy by component (dynamic and static,
      JSON energy.by_component; the run needs key technology).
  RESULTS.jsonl --cdf --out DIR
      DIR/latency_cdf.png: per point the fraction of measured packets with
      a latency below each bin edge of the runs' latency_histogram.
  RESULTS.jsonl --sweep SWEEP.yaml [--table] [--out DIR]
      the plots of the sweep file's `plot:` list (into DIR) and, with
      --table, its `table:` section as Markdown on stdout.
  --links RUN.json --out DIR
      the link_utilization.per_link of one run (`collnet run --json FILE`) on
      its topology: meshes and tori as a grid per link direction (x+, x-, ...;
      3-D as z slices side by side, integer coordinates, every cell named by
      its router), leaf/spine fabrics by layer (up- and down-links, nodes
      named), fat trees, dragonflies and graph files with coordinates at
      their nodes' places, boards and other topologies as bars per link (by
      source node). Colours run from 0 to 1 (absolute: a link busy every
      cycle has the full colour); --relative: 0 to the run's busiest link.
  --links RESULTS.jsonl --record N --out DIR
      the same for one record of a sweep's results: N is the record's
      `index` field, the point's number in the sweep counted from 0 (the
      first point is 0; `collnet sweep --dry-run` lists them from 1). A
      results file with more than one record needs --record.
  --timeline FILE.csv --out DIR
      a timeline plot, drawn by scripts/collnet_timeline.py (its own options:
      collnet plot --timeline --help).
  --timeline FILE.json --out DIR
      a workload run's timeline (collnet run --timeline-json FILE.json):
      ranks as rows, each node a bar from start to finish, coloured by kind.

KEY and FIELD name a point key of the sweep (an axis), a field of the run's
JSON (nested ones with dots: link_utilization.max) or a scenario key.
Axis labels carry units (cycles, ns, GB/s, flits/node/cycle, fraction of
the bound, busy fraction); the title names the keys that are equal in every plotted
record.

Saturated points (the run's `saturated`: the measurement window did not
drain) have no latency drawn: an x at the top of the axes, off the line
(tables: "saturated"); their other fields (accepted_rate) are hollow
markers. A null field (nothing measured) is left out, never drawn as 0
(tables: "n/a").

Seeds: records that differ only in the scenario key `seed` (a sweep file's
`seeds: N`) are one point, drawn as the mean with its 95 % confidence
interval (Student t) as error bars; table cells give "mean ± half-width
(n=N)". Name seed in --x or --by to draw each seed apart.
"""

EPILOG = f"""\
report:
  Every run that draws writes DIR/{REPORT_NAME} (or --report FILE): per PNG
  the title, axis labels and scales, the keys fixed in every record, and what
  was drawn, read back from the figure: for sweep plots each series (label,
  the --by values, x values, y values, seeds n and confidence half-widths,
  the x of saturated and of null points); for CDF plots each curve; for link
  maps the colour scale and each panel's ticks and cells (link name, node
  name, coordinates, utilization).

examples:
  collnet sweep examples/sweeps/load_latency.yaml --out load.jsonl
  collnet plot load.jsonl --out plots
  collnet plot load.jsonl --y p99_latency,avg_latency --by topology --out plots
  collnet plot col.jsonl --x algorithm --y link_utilization.max --by message_flits --out plots
  collnet plot load.jsonl --sweep examples/sweeps/load_latency.yaml --table --out docs/plots
  collnet run --set topology=torus:4x4 --json run.json && collnet plot --links run.json --out plots
  collnet plot --links load.jsonl --record 3 --out plots
  collnet plot --links run.json --relative --out plots
  collnet plot load.jsonl --x offered_rate --y p99_latency --out plots
  collnet plot load.jsonl --cdf --out plots

exit status: 0 drawn, 2 bad input (an unknown option, a bad value, a missing
or unreadable input, an --out that is not a writable directory; one line
`collnet plot: error: ...` naming the option), 4 internal error.
"""

# Axis labels with units: field, point key or scenario key -> label.
LABELS = {
    # collective runs
    "cycles": "completion time (cycles)",
    "lower_bound_cycles": "bandwidth lower bound (cycles)",
    "efficiency": "efficiency (fraction of the bound)",
    "time_ns": "completion time (ns)",
    "lower_bound_ns": "bandwidth lower bound (ns)",
    "bytes_per_rank": "size S a rank (bytes)",
    "algorithm_bandwidth_gbps": "algorithm bandwidth (GB/s)",
    "bus_bandwidth_gbps": "bus bandwidth (GB/s)",
    "link_gbps": "link bandwidth (GB/s)",
    "injection_gbps": "injected bandwidth per endpoint (GB/s)",
    "clock_ghz": "clock (GHz)",
    "flit_bytes": "flit size (bytes)",
    "message_flits": "message size (flits)",
    "elements": "elements (words per node)",
    "packet_flits": "packet size (flits)",
    "endpoints": "endpoints (nodes)",
    "routers": "routers",
    "controllers": "NIC controllers per node",
    "nct": "concurrent sends per node (nct)",
    "barriers": "barriers completed",
    "barrier_wait_cycles": "barrier wait (cycles, summed over barriers)",
    "barrier_latency": "barrier latency (cycles)",
    "max_queue_flits": "largest VC buffer occupancy (flits)",
    "arbitration_conflicts": "arbitration conflicts (packets x routers)",
    "messages": "messages",
    "packets": "packets",
    "flits": "flits",
    "local_copies": "local copies",
    "flit_hops": "flit hops (flits x links)",
    "router_evaluations": "router evaluations (router-cycles)",
    "nic_evaluations": "NIC evaluations (NIC-cycles)",
    "reference_mismatch_words": "words differing from the reference",
    "link_flits_corrupted": "corrupted link traversals (flits)",
    "link_flits_retransmitted": "retransmitted flits",
    # synthetic runs
    "injection_rate": "injection rate (flits/node/cycle)",
    "offered_rate": "offered load (flits/node/cycle)",
    "accepted_rate": "accepted throughput (flits/node/cycle)",
    "offered_gbps": "offered load per endpoint (GB/s)",
    "accepted_gbps": "accepted throughput per endpoint (GB/s)",
    "window_ns": "measurement window (ns)",
    "latency_ns.avg": "average latency (ns)",
    "latency_ns.p99": "99th-percentile latency (ns)",
    "latency_ns.max": "maximum latency (ns)",
    "avg_latency": "average latency (cycles)",
    "p99_latency": "99th-percentile latency (cycles)",
    "max_latency": "maximum latency (cycles)",
    "window_cycles": "measurement window (cycles)",
    "measured_packets": "measured packets",
    "unfinished_packets": "unfinished packets",
    "integrity_errors": "integrity errors (packets)",
    "warmup_cycles": "warm-up (cycles)",
    "measure_cycles": "measurement window (cycles)",
    "drain_cycles": "drain limit (cycles)",
    "packets_per_node": "packets per node",
    "hotspot_fraction": "hotspot share (fraction of packets)",
    # link utilization
    "link_utilization.mean": "mean link utilization (busy fraction)",
    "link_utilization.max": "maximum link utilization (busy fraction)",
    "link_utilization.bisection_mean": "mean bisection-link utilization (busy fraction)",
    "link_utilization.bisection_links": "bisection links",
    "link_utilization.mean_gbps": "mean link bandwidth (GB/s)",
    "link_utilization.max_gbps": "maximum link bandwidth (GB/s)",
    # energy (key technology)
    "energy.total_pj": "energy (pJ)",
    "energy.dynamic_pj": "dynamic energy (pJ)",
    "energy.static_pj": "static energy (pJ)",
    "energy.per_flit_hop_pj": "energy per flit-hop (pJ)",
    "energy.per_bit_delivered_pj": "energy per bit delivered (pJ)",
    "energy.average_power_mw": "average power (mW)",
    "energy.pj_per_byte": "energy per byte of the collective (pJ/B)",
    "energy.area.router_mm2": "router area (mm2)",
    "energy.area.link_mm2": "link area (mm2)",
    "link_mm": "link length (mm)",
    "nic_link_mm": "NIC link length (mm)",
    # router and link keys
    "vcs": "virtual channels per port",
    "buffer_flits": "VC buffer depth (flits)",
    "router_delay": "router delay (cycles)",
    "routing_delay": "routing delay (cycles)",
    "allocation_delay": "allocation delay (cycles)",
    "traversal_delay": "traversal delay (cycles)",
    "link_latency": "link latency (cycles)",
    "credit_release_delay": "credit release delay (cycles)",
    "allocator_iterations": "switch allocation rounds per cycle",
    "age_width": "age counter width (bits)",
    "descriptor_queue": "descriptor queue (descriptors)",
    "link_error_rate": "link error rate (per flit traversal)",
    "link_replay_flits": "replay buffer (flits)",
    "watchdog_cycles": "deadlock watchdog (cycles)",
    "max_cycles": "cycle limit (cycles)",
    # speed and the sweep record
    "sim_seconds": "simulation time (s)",
    "sim_cpu_seconds": "simulation CPU time (s)",
    "elaboration_seconds": "elaboration time (s)",
    "router_cycles_per_second": "simulation speed (router-cycles/s)",
    "router_cycles_per_cpu_second": "simulation speed (router-cycles per CPU second)",
    "wall_seconds": "wall time of the point (s)",
}
UTILIZATION_LABEL = "link utilization (busy fraction)"


def label_for(key):
    """The axis label (with unit) of a field or key; the key itself where the
    table has none (text axes such as algorithm or topology)."""
    if key in LABELS:
        return LABELS[key]
    if key.startswith("router.") and key[len("router."):] in LABELS:
        return LABELS[key[len("router."):]]
    return key


def without_unit(label):
    return re.sub(r" \([^()]*\)$", "", label)


class BadInput(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(f"{message} (collnet plot --help lists the options)")


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# ---------------------------------------------------------------- input files

def read_text(path, option):
    if os.path.isdir(path):
        raise BadInput(f"{option}: '{path}' is a directory, not a file")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise BadInput(f"{option}: '{path}' does not exist")
    except UnicodeDecodeError:
        raise BadInput(f"{option}: '{path}' is not a text (JSON) file")
    except OSError as e:
        raise BadInput(f"{option}: cannot read '{path}': {e.strerror or e}")


def parse_jsonl(text):
    """(records, skipped line numbers): the JSON objects with a `hash` field,
    the last record of each point (a point run again replaces its record),
    ordered by the point's index."""
    last = {}
    skipped = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            skipped.append(number)  # e.g. a line cut short by a killed sweep
            continue
        if isinstance(r, dict) and "hash" in r:
            last[r["hash"]] = r
        else:
            skipped.append(number)
    records = sorted(last.values(), key=lambda r: r.get("index", 0) if isinstance(r.get("index"), int) else 0)
    return records, skipped


def load_records(path, option="RESULTS"):
    text = read_text(path, option)
    records, skipped = parse_jsonl(text)
    if not records:
        try:
            whole = json.loads(text)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict) and "link_utilization" in whole:
            raise BadInput(f"{option}: '{path}' is one run's JSON, not sweep results "
                           "(draw its links with --links; sweep results come from collnet sweep --out)")
        raise BadInput(f"{option}: '{path}' holds no sweep records (one JSON object per line with a "
                       "'hash' field, as collnet sweep writes)")
    if skipped:
        print(f"{PROG}: warning: {option}: skipped {len(skipped)} line(s) that are not sweep records "
              f"(first: line {skipped[0]})", file=sys.stderr)
    return records


def lookup(record, key):
    """A point key, a run field (dotted path) or a scenario key; None if absent."""
    point = record.get("point") or {}
    if key in point:
        return point[key]
    node = record.get("run") or {}
    for part in key.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            node = None
            break
    if node is not None:
        return node
    scenario = record.get("scenario") or {}
    if key in scenario:
        return number_or_text(scenario[key])
    return None


def number_or_text(v):
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            try:
                return float(v)
            except ValueError:
                return v
    return v


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# ---------------------------------------------------------------- saturation and seeds

SEED_KEY = "seed"
CONFIDENCE = 0.95


def is_latency_field(field):
    """A latency statistic (avg_latency, p99_latency, max_latency, ...): a
    saturated point has none worth drawing, its measured packets being only
    those that got through."""
    return field.endswith("_latency")


def is_saturated(record):
    """The run's `saturated` field (true when the measurement window did not
    drain); for results without it, the rule of the README's load table:
    accepted more than 2 % below offered, or measured packets that never
    drained."""
    run = record.get("run") or {}
    if isinstance(run.get("saturated"), bool):
        return run["saturated"]
    if is_number(run.get("accepted_rate")) and is_number(run.get("offered_rate")):
        return run["accepted_rate"] < 0.98 * run["offered_rate"] or not run.get("completed", True)
    return False


def confidence_half_width(values):
    """The half-width of the 95 % confidence interval of the mean of
    `values` (Student t with n - 1 degrees of freedom: t * s / sqrt(n));
    None for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    from scipy.stats import t  # python3-scipy (scripts/setup.sh)
    return float(t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * statistics.stdev(values) / math.sqrt(n)


class Stat:
    """One field over the seeds of a point: the mean and the half-width of
    its confidence interval. In a table cell it shows as "mean ± half-width",
    the cell's format applied to both."""

    def __init__(self, values):
        self.values = [float(v) for v in values]
        self.n = len(self.values)
        self.mean = statistics.fmean(self.values)
        self.half = confidence_half_width(self.values)

    def __format__(self, spec):
        if self.half is None:
            return format(self.mean, spec)
        return f"{format(self.mean, spec)} ± {format(self.half, spec)}"


class Shown(str):
    """Text shown in a table cell in place of a value, whatever the cell's
    format ("saturated" for a latency of a saturated point)."""

    def __format__(self, spec):
        return str(self)


class Group:
    """The records of one point that differ only in their seed (a sweep file
    with `seeds: N` runs every point with seed 1..N); one record per point
    otherwise. A point is saturated when any of its seeds is."""

    def __init__(self, records):
        self.records = records
        self.first = records[0]
        self.saturated = any(is_saturated(r) for r in records)

    def value(self, key):
        """A key's value (x, --by): the records' common value, or the mean of
        a number that differs between seeds (offered_rate)."""
        values = [lookup(r, key) for r in self.records]
        if all(json.dumps(v, sort_keys=True) == json.dumps(values[0], sort_keys=True) for v in values):
            return values[0]
        if all(is_number(v) for v in values):
            return statistics.fmean(values)
        return values[0]

    def stat(self, key):
        """A Stat of the key's numbers over the seeds; None where no record
        has one (the field is null or absent)."""
        numbers = [v for v in (lookup(r, key) for r in self.records) if is_number(v)]
        return Stat(numbers) if numbers else None

    def has_null(self, key):
        return any(lookup(r, key) is None and key_present(r, key) for r in self.records)


def key_present(record, key):
    """Whether a run field is in the record (perhaps as null)."""
    node = record.get("run") or {}
    parts = key.split(".")
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    return isinstance(node, dict) and parts[-1] in node


def group_key(record, keep_seed):
    point = record.get("point") or {}
    scenario = record.get("scenario") or {}
    if not point and not scenario:
        return json.dumps(record.get("hash"))  # nothing to compare: its own point
    if not keep_seed:
        point = {k: v for k, v in point.items() if k != SEED_KEY}
        scenario = {k: v for k, v in scenario.items() if k != SEED_KEY}
    return json.dumps([point, scenario], sort_keys=True)


def group_records(records, keep_seed=False):
    """Groups of the records that differ only in the key `seed` (in the order
    of their first record); keep_seed: every seed its own point (seed on an
    axis of the plot)."""
    groups = {}
    for r in records:
        groups.setdefault(group_key(r, keep_seed), []).append(r)
    return [Group(rs) for rs in groups.values()]


def seeds_count(groups):
    """How many seeds the points have ("3", "2 to 3"); "" with one record per point."""
    counts = sorted({len(g.records) for g in groups})
    if not counts or counts[-1] < 2:
        return ""
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"


def seeds_text(groups):
    """The title's note on seeds ("" with one record per point)."""
    n = seeds_count(groups)
    return f"mean of {n} seeds per point, {CONFIDENCE * 100:g} % confidence interval (Student t)" if n else ""


def ok_records(records):
    return [r for r in records if r.get("status") == "ok" and r.get("run")]


def kind_of(records):
    runs = [r["run"] for r in records]
    if runs and all("accepted_rate" in j for j in runs):
        return "synthetic"
    if runs and all("algorithm" in j and "cycles" in j for j in runs):
        return "collective"
    return "mixed"


def axis_keys(records):
    keys = []
    for r in records:
        for k in (r.get("point") or {}):
            if k not in keys:
                keys.append(k)
    return keys


def default_spec(records, x, ys, by):
    kind = kind_of(records)
    axes = axis_keys(records)
    if kind == "synthetic":
        x = x or "injection_rate"
        ys = ys or ["avg_latency", "accepted_rate"]
    elif kind == "collective":
        x = x or "message_flits"
        ys = ys or ["cycles", "efficiency"]
        if by is None and "algorithm" in axes and x != "algorithm":
            by = "algorithm"
    elif not (x and ys):
        raise BadInput("the results mix synthetic and collective runs (or neither); give --x and --y")
    return x, ys, by


def fixed_keys(records, exclude):
    """Scenario keys (and point keys) whose value is the same in every record."""
    keys = []
    for r in records:
        for k in list((r.get("scenario") or {})) + list((r.get("point") or {})):
            if k not in keys and k not in exclude:
                keys.append(k)
    fixed = {}
    for k in keys:
        values = {json.dumps(lookup(r, k), sort_keys=True) for r in records}
        if len(values) == 1 and lookup(records[0], k) is not None:
            fixed[k] = lookup(records[0], k)
    return fixed


def fixed_text(fixed):
    return ", ".join(f"{k}={v}" for k, v in sorted(fixed.items()))


def wrapped_title(main, fixed):
    lines = textwrap.wrap(main, 90) or [""]
    if fixed:
        lines += textwrap.wrap(fixed_text(fixed), 95)
    return "\n".join(lines)


# ---------------------------------------------------------------- output files

def check_writable(directory, message):
    """BadInput `message`: the reason, unless a file can be made in `directory`."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as e:
        raise BadInput(f"{message}: {e.strerror or e}")


def prepare_out(path):
    if os.path.exists(path) and not os.path.isdir(path):
        raise BadInput(f"--out: '{path}' exists and is not a directory")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise BadInput(f"--out: cannot create the directory '{path}': {e.strerror or e}")
    check_writable(path, f"--out: cannot write in '{path}'")


def check_report_path(path):
    if os.path.isdir(path):
        raise BadInput(f"--report: '{path}' is a directory; give a file name")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"--report: the directory of '{path}' does not exist")
    check_writable(parent, f"--report: cannot write in the directory of '{path}'")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise BadInput(f"--report: cannot write '{path}'")


def plain(v):
    """A JSON-friendly Python value of a numpy scalar or array."""
    if hasattr(v, "tolist"):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return v


def cell_value(v):
    """A drawn cell: a float, or None where the cell is masked or NaN."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


# ---------------------------------------------------------------- sweep plots

def series_label(record, keys):
    parts = []
    for k in keys:
        v = lookup(record, k)
        parts.append(str(v) if len(keys) == 1 else f"{k}={v}")
    return ", ".join(parts).replace("`", "")


def check_plot_keys(good, x, ys, by, where):
    axes = ", ".join(axis_keys(good)) or "(none)"
    if x is None or all(lookup(r, x) is None for r in good):
        raise BadInput(f"{where('--x')}: key '{x}' is not a point key, run field or scenario key of these results "
                       f"(point keys: {axes})")
    for y in ys:
        if not y:
            raise BadInput(f"{where('--y')}: an empty field name")
        if not any(is_number(lookup(r, y)) for r in good):
            raise BadInput(f"{where('--y')}: field '{y}' is not a numeric run field of these results "
                           "(e.g. cycles, efficiency, avg_latency, accepted_rate, link_utilization.max)")
    if by is not None and all(lookup(r, by) is None for r in good):
        raise BadInput(f"{where('--by')}: key '{by}' is not a point key, run field or scenario key of these results "
                       f"(point keys: {axes})")


MEASURED_RATES = ("offered_rate", "accepted_rate")


class Point:
    """One point of a series: x, the Stat of y over its seeds (None: null),
    and how it is drawn: "value" (on the line), "hollow" (a saturated point's
    non-latency value: on the line, a hollow marker), "saturated" (a
    saturated point's latency: an x at the top of the axes, off the line) or
    "missing" (null: not drawn, the line broken)."""
    __slots__ = ("x", "stat", "kind")

    def __init__(self, x, stat, kind):
        self.x, self.stat, self.kind = x, stat, kind


def series_points(groups, x, y, by_keys):
    """label -> [Point], {label: its --by values}, for y against x."""
    latency = is_latency_field(y)
    lines, by_values = {}, {}
    for g in groups:
        xv = g.value(x)
        if xv is None:
            continue
        st = g.stat(y)
        if g.saturated and latency:
            kind = "saturated"
        elif st is None:
            if not g.has_null(y):
                continue  # a record without the field (another kind of run)
            kind = "missing"
        else:
            kind = "hollow" if g.saturated else "value"
        label = series_label(g.first, by_keys) if by_keys else label_for(y)
        lines.setdefault(label, []).append(Point(xv, st if kind in ("value", "hollow") else None, kind))
        by_values.setdefault(label, {k: g.value(k) for k in by_keys})
    return lines, by_values


def error_segments(container):
    """The (x, half-width) of an errorbar container's bars, read back."""
    out = []
    for collection in container.lines[2]:
        for seg in collection.get_segments():
            if len(seg) < 2:
                continue  # a NaN point's bar (none drawn)
            (x0, y0), (_, y1) = seg[0], seg[-1]
            if math.isfinite(y0) and math.isfinite(y1):
                out.append((float(x0), abs(float(y1) - float(y0)) / 2))
    return out


def plot_sweep(good, x, ys, by, out_dir, title=None, names=None, logx=None, logy=None):
    """One PNG per y field; returns the report entries (what was drawn, read
    back from the figure's artists). Records that differ only in their seed
    are one point, drawn as the mean with its confidence interval."""
    plt = pyplot()
    import matplotlib.ticker
    from matplotlib.lines import Line2D
    keep_seed = SEED_KEY in (x, by)
    groups = group_records(good, keep_seed)
    seeded = seeds_text(groups)
    # Default series: the other axes that vary in these records (one fixed
    # by a `where:` goes to the title instead); not injection_rate against
    # the rate measured from it (offered_rate, accepted_rate).
    measures = {"injection_rate"} if x in MEASURED_RATES else set()
    by_keys = [by] if by is not None else [
        k for k in axis_keys(good) if k != x and k not in measures and (keep_seed or k != SEED_KEY)
        and len({json.dumps(g.value(k), sort_keys=True) for g in groups}) > 1]
    fixed = fixed_keys(good, set([x] + by_keys + list(ys) + ([SEED_KEY] if seeded else [])))
    entries = []
    for i, y in enumerate(ys):
        lines, by_values = series_points(groups, x, y, by_keys)
        if not any(p.kind != "missing" for pts in lines.values() for p in pts):
            raise BadInput(f"--y: field '{y}' has no numeric value against '{x}' in these results")
        many = len(lines) > 5
        fig, ax = plt.subplots(figsize=(11.5 if many else 7, 4.8))
        top = ax.get_xaxis_transform()  # x in data, y in axes: 1 is the top of the axes
        numeric_x = all(is_number(p.x) for pts in lines.values() for p in pts)
        categories = []
        for pts in lines.values():
            for p in pts:
                if p.x not in categories:
                    categories.append(p.x)
        width = 0.8 / max(1, len(lines))
        series = []
        shown = set()
        for n, (label, pts) in enumerate(lines.items()):
            colour = f"C{n % 10}"  # given, so that the markers added below keep the series' colour
            if numeric_x:
                pts.sort(key=lambda p: p.x)
                where = [p.x for p in pts]
            else:  # categories: grouped bars
                where = [categories.index(p.x) - 0.4 + width * (n + 0.5) for p in pts]
            drawn = [(w, p) for w, p in zip(where, pts) if p.stat is not None]
            means = [p.stat.mean for _, p in drawn]
            halves = [p.stat.half or 0.0 for _, p in drawn]
            if numeric_x:
                # Saturated and null points are NaN: not drawn, the line broken there.
                line_y = [p.stat.mean if p.stat is not None else float("nan") for p in pts]
                line_err = [(p.stat.half or 0.0) if p.stat is not None else 0.0 for p in pts]
                if seeded:
                    container = ax.errorbar(where, line_y, yerr=line_err, marker="o", capsize=3, label=label,
                                            color=colour)
                    line = container.lines[0]
                    errors = error_segments(container)
                else:
                    (line,) = ax.plot(where, line_y, marker="o", label=label, color=colour)
                    errors = []
                xs_drawn = plain(line.get_xdata())
                ys_drawn = plain(line.get_ydata())
                keep = [k for k, v in enumerate(ys_drawn) if v is not None and math.isfinite(v)]
                xs_drawn = [xs_drawn[k] for k in keep]
                ys_drawn = [ys_drawn[k] for k in keep]
            else:
                bars = ax.bar([w for w, _ in drawn], means, width=width, label=label, color=colour,
                              yerr=halves if seeded else None, capsize=3 if seeded else 0)
                errors = error_segments(bars.errorbar) if seeded and bars.errorbar is not None else []
                for (_, p), b in zip(drawn, bars.patches):
                    if p.kind == "hollow":
                        b.set_facecolor("none")
                        b.set_edgecolor(colour)
                        b.set_hatch("//")
                xs_drawn = [p.x for _, p in drawn]
                ys_drawn = [plain(b.get_height()) for b in bars.patches]
            # Half-widths by drawn position (error bars of single-seed points are 0 long).
            half_at = {}
            for xe, h in errors:
                half_at.setdefault(xe, h)
            ci = [half_at.get(float(w)) if p.stat.half is not None else None for w, p in drawn]
            hollow = [(w, p.stat.mean) for w, p in drawn if p.kind == "hollow"]
            saturated_x = []
            if hollow and numeric_x:
                (h,) = ax.plot([w for w, _ in hollow], [v for _, v in hollow], linestyle="none", marker="o",
                               markersize=9, markerfacecolor="white", markeredgecolor=colour, zorder=3)
                saturated_x += plain(h.get_xdata())
                shown.add("hollow")
            elif hollow:
                saturated_x += [p.x for _, p in drawn if p.kind == "hollow"]
                shown.add("hollow-bar")
            sat = [(w, p) for w, p in zip(where, pts) if p.kind == "saturated"]
            if sat:
                (m,) = ax.plot([w for w, _ in sat], [1.0] * len(sat), transform=top, linestyle="none", marker="x",
                               markersize=9, markeredgewidth=2, color=colour, clip_on=False, zorder=4)
                drawn_at = plain(m.get_xdata())
                saturated_x += drawn_at if numeric_x else [p.x for _, p in sat]
                shown.add("saturated")
            series.append({"label": label, "by": by_values[label], "x": xs_drawn, "y": ys_drawn,
                           "n": [p.stat.n for _, p in drawn], "ci": ci, "saturated": saturated_x,
                           "missing": [p.x for p in pts if p.kind == "missing"]})
        if not numeric_x:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels([str(c).replace("`", "") for c in categories], rotation=20, ha="right", fontsize=8)
        xvals = [p.x for pts in lines.values() for p in pts]
        yvals = [p.stat.mean for pts in lines.values() for p in pts if p.stat is not None]
        want_logx = logx if logx is not None else (numeric_x and min(xvals) > 0 and max(xvals) / min(xvals) >= 16)
        want_logy = (logy or {}).get(y) if logy else (bool(yvals) and min(yvals) > 0 and max(yvals) / min(yvals) >= 30)
        if want_logx and numeric_x:
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        if want_logy:
            ax.set_yscale("log")
        ax.set_xlabel(label_for(x))
        ax.set_ylabel(label_for(y))
        ax.grid(True, alpha=0.3)
        handles, labels = ax.get_legend_handles_labels()
        if not (by_keys and len(lines) > 1):
            handles, labels = [], []
        marks = []
        if "saturated" in shown:
            marks.append(Line2D([], [], linestyle="none", marker="x", markersize=8, markeredgewidth=2, color="0.2",
                                label="saturated (no latency drawn)"))
        if "hollow" in shown:
            marks.append(Line2D([], [], linestyle="none", marker="o", markersize=8, markerfacecolor="white",
                                markeredgecolor="0.2", label="saturated"))
        if "hollow-bar" in shown:
            from matplotlib.patches import Patch
            marks.append(Patch(facecolor="none", edgecolor="0.2", hatch="//", label="saturated"))
        handles += marks
        labels += [h.get_label() for h in marks]
        if handles:
            placement = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)} if many else {}
            ax.legend(handles, labels, fontsize=7 if many else 8,
                      title=", ".join(by_keys) if len(by_keys) == 1 and len(lines) > 1 else None, **placement)
        main = title or f"{without_unit(label_for(y))} against {without_unit(label_for(x))}"
        ax.set_title(wrapped_title(main + (f"; {seeded}" if seeded else ""), fixed), fontsize=9)
        fig.tight_layout()
        name = (names[i] if names and i < len(names) else f"{y.replace('.', '_')}_vs_{x.replace('.', '_')}") + ".png"
        path = os.path.join(out_dir, name)
        fig.savefig(path, dpi=110)
        legend = ax.get_legend()
        entries.append({
            "file": name, "path": path, "kind": "lines" if numeric_x else "bars",
            "title": ax.get_title(), "x": x, "y": y, "by": by_keys,
            "x_label": ax.get_xlabel(), "y_label": ax.get_ylabel(),
            "x_scale": ax.get_xscale(), "y_scale": ax.get_yscale(),
            "fixed": fixed, "seeds": max(len(g.records) for g in groups),
            "legend": [t.get_text() for t in legend.get_texts()] if legend else [],
            "series": series,
        })
        plt.close(fig)
    return entries


# ---------------------------------------------------------------- latency CDF

CDF_FILE = "latency_cdf.png"


def latency_histogram(record):
    """(bin width, counts) of a run's latency_histogram; None where it is
    null or absent."""
    h = (record.get("run") or {}).get("latency_histogram")
    if h is None:
        return None
    where = f"--cdf: record {record.get('index')}: latency_histogram"
    if not isinstance(h, dict) or "bin_width" not in h or "counts" not in h:
        raise BadInput(f"{where} must be {{\"bin_width\": W, \"counts\": [...]}} or null")
    w, counts = h["bin_width"], h["counts"]
    if not is_number(w) or w <= 0:
        raise BadInput(f"{where}: bin_width {w!r} is not a positive number")
    if not isinstance(counts, list) or not all(is_number(c) and c >= 0 for c in counts):
        raise BadInput(f"{where}: counts must be a list of packet counts (numbers, 0 or more)")
    return w, counts


def pooled_cdf(histograms):
    """(latencies, fractions, packets): the cumulative distribution of the
    packets of several histograms together at every bin edge. Bin i holds
    the latencies in [i W, (i + 1) W), so the fraction at an edge e is exact:
    the packets below e over all packets; with equal bin widths this is the
    distribution of the summed counts."""
    import numpy
    edges = sorted({k * w for w, counts in histograms for k in range(len(counts) + 1)})
    below = numpy.zeros(len(edges))
    total = 0.0
    for w, counts in histograms:
        own = [k * w for k in range(len(counts) + 1)]
        cum = numpy.concatenate(([0.0], numpy.cumsum(counts)))
        # Between its own edges a histogram's count is interpolated (only
        # where the widths differ); past its last edge it has every packet.
        below += numpy.interp(edges, own, cum, right=cum[-1])
        total += cum[-1]
    return edges, [float(b / total) for b in below] if total else [], total


def cdf_curves(good):
    """What --cdf draws: one curve per point (the seeds of a point pooled) of
    the latency distribution in the runs' latency_histogram; saturated
    points and points without packets are listed, not drawn. Checked before
    anything is drawn."""
    groups = group_records(good)
    by_keys = [k for k in axis_keys(good) if k != SEED_KEY
               and len({json.dumps(g.value(k), sort_keys=True) for g in groups}) > 1]
    seeded = seeds_count(groups)
    fixed = fixed_keys(good, set(by_keys + ([SEED_KEY] if seeded else [])))
    curves, saturated, missing = [], [], []
    for g in groups:
        label = series_label(g.first, by_keys) if by_keys else "all measured packets"
        histograms = [h for h in (latency_histogram(r) for r in g.records) if h is not None]
        if g.saturated:
            saturated.append(label)
            continue
        edges, fractions, packets = pooled_cdf(histograms) if histograms else ([], [], 0)
        if not packets:
            missing.append(label)
            continue
        curves.append((label, g, edges, fractions, packets, len(histograms)))
    if not curves:
        raise BadInput("--cdf: no unsaturated point of these results has a latency_histogram with packets "
                       f"({len(saturated)} saturated, {len(missing)} without one)")
    return by_keys, seeded, fixed, curves, saturated, missing


def plot_cdf(data, out_dir):
    plt = pyplot()
    by_keys, seeded, fixed, curves, saturated, missing = data
    many = len(curves) > 5
    fig, ax = plt.subplots(figsize=(11.5 if many else 7, 4.8))
    series = []
    for label, g, edges, fractions, packets, runs in curves:
        (line,) = ax.plot(edges, fractions, label=label)
        series.append({"label": label, "by": {k: g.value(k) for k in by_keys}, "x": plain(line.get_xdata()),
                       "y": plain(line.get_ydata()), "packets": int(packets) if packets == int(packets) else packets,
                       "runs": runs})
    ax.set_xlabel("latency (cycles)")
    ax.set_ylabel("fraction of measured packets (cumulative)")
    ax.set_ylim(0, 1.02)
    ax.grid(True, alpha=0.3)
    if len(curves) > 1:
        placement = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)} if many else {"loc": "lower right"}
        ax.legend(fontsize=7 if many else 8, title=", ".join(by_keys) if len(by_keys) == 1 else None, **placement)
    main = "latency distribution (cumulative, at the histogram's bin edges)"
    if seeded:
        main += f"; the packets of the {seeded} seeds of a point together"
    if saturated:
        main += f"; saturated, not drawn: {'; '.join(saturated)}"
    ax.set_title(wrapped_title(main, fixed), fontsize=9)
    fig.tight_layout()
    path = os.path.join(out_dir, CDF_FILE)
    fig.savefig(path, dpi=110)
    legend = ax.get_legend()
    entry = {"file": CDF_FILE, "path": path, "kind": "cdf", "title": ax.get_title(), "by": by_keys,
             "x_label": ax.get_xlabel(), "y_label": ax.get_ylabel(), "fixed": fixed,
             "legend": [t.get_text() for t in legend.get_texts()] if legend else [],
             "series": series, "saturated": saturated, "missing": missing}
    plt.close(fig)
    return [entry]


# ---------------------------------------------------------------- tables

class Cell(dict):
    """The values a table cell's format reads; remembers whether it read a
    value that differs between seeds (the cell then gives n)."""

    def __init__(self):
        super().__init__()
        self.read_stat = False

    def __getitem__(self, key):
        v = super().__getitem__(key)
        if isinstance(v, Stat):
            self.read_stat = True
        return v

    def __missing__(self, key):
        return ""


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "_"))
        out[prefix + k] = v
    return out


NO_VALUE = Shown("n/a")  # a null field: nothing measured
SATURATED = Shown("saturated")


def cell_values(record):
    values = {k: number_or_text(v) for k, v in (record.get("scenario") or {}).items()}
    values.update(flatten(record.get("run") or {}))
    values.update(record.get("point") or {})
    return values


def format_cell(template, group):
    """A table cell: the format over the scenario keys, the run's fields and
    the point keys of the group's successful records. A field that differs
    between seeds is their Stat (mean ± half-width) and the cell ends with
    (n=N); a null field shows as n/a, a latency of a saturated point as
    saturated."""
    ok = [r for r in group.records if r.get("status") == "ok"] or group.records[:1]
    each = [cell_values(r) for r in ok]
    values = Cell()
    for key in dict.fromkeys(k for v in each for k in v):
        column = [v.get(key) for v in each]
        numbers = [c for c in column if is_number(c)]
        if is_latency_field(key) and group.saturated:
            values[key] = SATURATED
        elif all(json.dumps(c, sort_keys=True) == json.dumps(column[0], sort_keys=True) for c in column):
            values[key] = NO_VALUE if column[0] is None else column[0]
        elif numbers:
            values[key] = Stat(numbers)
        else:
            values[key] = column[0]
    if any(is_number((r.get("run") or {}).get(f)) for r in ok for f in ("accepted_rate", "offered_rate")) or \
            any("saturated" in (r.get("run") or {}) for r in ok):
        values["saturated"] = group.saturated
        values["saturated_mark"] = " (saturated)" if group.saturated else ""
    try:
        text = template.format_map(values)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise BadInput(f"--sweep: table cell '{template}': {e}")
    return text + (f" (n={len(ok)})" if values.read_stat else "")


def print_table(records, spec):
    """spec: rows (keys), columns (a key), cell (format), row_cells {header: format},
    optional row_header {key: header}, column_header (format with {value}).
    Records that differ only in their seed fill one cell."""
    row_format = spec.get("row_format", {}) or {}
    rows_keys = spec.get("rows", [])
    if isinstance(rows_keys, str):
        rows_keys = [rows_keys]
    col_key = spec.get("columns")
    col_keys = col_key if isinstance(col_key, list) else [col_key] if col_key else []
    cell = spec.get("cell", "{cycles}")
    row_cells = spec.get("row_cells", {}) or {}
    headers = spec.get("row_header", {}) or {}
    col_header = spec.get("column_header", "{value}")
    by_row = {}
    row_order = []
    col_order = []
    try:
        for g in group_records(records, SEED_KEY in list(rows_keys) + list(col_keys)):
            r = g.first
            rk = tuple(row_format[k].format(lookup(r, k)) if k in row_format else str(lookup(r, k))
                       for k in rows_keys)
            if rk not in by_row:
                by_row[rk] = {}
                row_order.append(rk)
            ck = " ".join(str(lookup(r, k)) for k in col_keys)
            if ck not in col_order:
                col_order.append(ck)
            by_row[rk][ck] = g
        cols = [headers.get(k, k) for k in rows_keys] + list(row_cells.keys())
        names = {str(k): v for k, v in (spec.get("column_names", {}) or {}).items()}
        cols += ([names.get(c, col_header.format(value=c)) for c in col_order] if col_key
                 else [spec.get("cell_header", "value")])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise BadInput(f"--sweep: table section: {e}")
    header = " | ".join(cols)
    # A label or header may hold " | " (two table columns in one): count them all.
    lines = ["| " + header + " |", "|" + "---|" * len(header.split(" | "))]
    for rk in row_order:
        cells = list(rk)
        any_group = next(iter(by_row[rk].values()))
        cells += [format_cell(t, any_group) for t in row_cells.values()]
        for c in col_order:
            g = by_row[rk].get(c)
            if g is None:
                cells.append("")
            elif not any(r.get("status") == "ok" for r in g.records):
                cells.append(g.first.get("status", "failed"))
            else:
                cells.append(format_cell(cell, g))
        lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))


PLOT_SPEC_KEYS = ("x", "y", "by", "file", "title", "logx", "logy", "where")


def read_sweep(path):
    text = read_text(path, "--sweep")
    import yaml  # python3-yaml (scripts/setup.sh)
    try:
        sweep = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise BadInput(f"--sweep: '{path}' is not valid YAML: {str(e).splitlines()[0]}")
    if not isinstance(sweep, dict):
        raise BadInput(f"--sweep: '{path}' is not a sweep file (a mapping with base, axes, table, plot)")
    plots = sweep.get("plot") or []
    if not isinstance(plots, list):
        raise BadInput(f"--sweep: '{path}': plot: must be a list of plots")
    for n, spec in enumerate(plots, 1):
        if not isinstance(spec, dict):
            raise BadInput(f"--sweep: '{path}': plot entry {n} is not a mapping")
        for k in spec:
            if k not in PLOT_SPEC_KEYS:
                raise BadInput(f"--sweep: '{path}': plot entry {n}: unknown key '{k}'; accepted keys: "
                               + ", ".join(PLOT_SPEC_KEYS))
        for k in ("x", "y"):
            if k not in spec:
                raise BadInput(f"--sweep: '{path}': plot entry {n} has no '{k}'")
    if "table" in sweep and not isinstance(sweep["table"], dict):
        raise BadInput(f"--sweep: '{path}': table: must be a mapping")
    return sweep


# ---------------------------------------------------------------- per-link plots

# A link's name is <node>:<port>-><node> (topology/graph.cpp, link_name):
# the port is a direction (x+, y-: grids and boards) or a port number. Node
# names never hold ':' or '>' (unnamed nodes are r0, t0, ... and a graph
# file's names are letters, digits, '_', '.' and '-': topology/graph_file.cpp,
# valid_name), so the source ends at the first ':' and the destination starts
# after the last '->', whatever else a name holds ("core-1:2->rack.a").
PORT = re.compile(r"^(?:[a-z][+-]|\d+)$")
NUMBERED = re.compile(r"^[A-Za-z]*(\d+)$")


def split_link_name(name):
    """(source, port, destination) of a link name, or None if it is not one."""
    src, colon, rest = name.partition(":")
    port, arrow, dst = rest.rpartition("->")
    if not (colon and arrow and src and dst and PORT.match(port)) or ">" in src or ":" in dst:
        return None
    return src, port, dst


def node_order(name):
    """A node name's sort key: its text and numbers in turn, so that r2 comes
    before r10 and free names (graph files) in their natural order."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|\D+", name)]


class Link:
    __slots__ = ("name", "src", "src_number", "port", "dst", "value")

    def __init__(self, name, src, port, dst, value):
        self.name, self.src, self.port, self.dst, self.value = name, src, port, dst, value
        # The number of a numbered node (r5: 5), which places it on a grid;
        # None for a free name.
        m = NUMBERED.match(src)
        self.src_number = int(m.group(1)) if m else None


def parse_links(per_link, source):
    links = []
    for name, u in per_link.items():
        parts = split_link_name(name)
        if parts is None:
            raise BadInput(f"--links: {source}: link name '{name}' is not <node>:<port>-><node> (port: a "
                           "direction such as x+ or a port number)")
        if not is_number(u):
            raise BadInput(f"--links: {source}: link '{name}' has utilization {u!r}, not a number")
        links.append(Link(name, parts[0], parts[1], parts[2], float(u)))
    return links


class ColourScale:
    """The utilization scale of a link map. Absolute (the default): 0 to 1,
    so that a link busy every cycle has the full colour and maps of different
    runs compare; relative (--relative): 0 to the busiest link of this run."""

    def __init__(self, links, relative):
        busiest = max([l.value for l in links], default=0.0)
        self.relative = relative
        if relative:
            self.top = busiest if busiest > 0 else 1.0
            self.label = f"link utilization (busy fraction; relative scale: 0 to the busiest link, {self.top:.3g})"
        else:
            self.top = 1.0
            self.label = "link utilization (busy fraction; absolute scale: 0 to 1)"
        self.drawn = None

    def read_back(self, colour_bar):
        """What the colour bar shows: its label and the ends of its norm."""
        self.drawn = {"label": colour_bar.ax.get_ylabel(), "min": plain(colour_bar.norm.vmin),
                      "max": plain(colour_bar.norm.vmax)}

    def report(self):
        return {"relative": self.relative, "min": 0.0, "max": self.top, "colour_bar": self.drawn}


def grid_dims(topology):
    m = re.match(r"^(mesh|torus):(\d+(?:x\d+)*)$", topology)
    return [int(d) for d in m.group(2).split("x")] if m else None


def direction_order(d):
    return ("xyzwvu".index(d[0]) if d[0] in "xyzwvu" else 9, d[1] == "-")


def draw_grid(links, dims, title, path, plt, colours):
    dirs = sorted({l.port for l in links}, key=direction_order)
    nx = dims[0]
    ny = dims[1] if len(dims) > 1 else 1
    slices = 1
    for d in dims[2:]:
        slices *= d
    width = nx * slices
    vmax = colours.top
    cols = min(len(dirs), 2)
    rows = math.ceil(len(dirs) / cols)
    named = width * ny <= 256  # node names in the cells where they fit
    scale = max(1.0, width / 8) ** 0.5
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols * scale * (1.6 if slices > 1 else 1), 4.0 * rows * scale),
                             squeeze=False)
    image = None
    panels = []
    for i, d in enumerate(dirs):
        ax = axes[i // cols][i % cols]
        grid = [[float("nan")] * width for _ in range(ny)]
        where = {}
        for l in links:
            if l.port != d:
                continue
            x = l.src_number % nx
            y = (l.src_number // nx) % ny
            s = l.src_number // (nx * ny)
            grid[y][s * nx + x] = l.value
            where[(y, s * nx + x)] = l
        image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=vmax, aspect="equal")
        for s in range(1, slices):
            ax.axvline(s * nx - 0.5, color="0.25", linewidth=2.5)
        step_x = 1 if nx <= 32 else math.ceil(nx / 16)  # integer ticks, every one where they fit
        step_y = 1 if ny <= 32 else math.ceil(ny / 16)
        xt = [s * nx + c for s in range(slices) for c in range(0, nx, step_x)]
        ax.set_xticks(xt)
        ax.set_xticklabels([str(c % nx) for c in xt], fontsize=7 if len(xt) <= 32 else 5)
        ax.set_yticks(range(0, ny, step_y))
        ax.set_yticklabels([str(r) for r in range(0, ny, step_y)], fontsize=7)
        if named:
            for (row, col), l in where.items():
                shade = l.value / vmax
                ax.text(col, row, l.src, ha="center", va="center", fontsize=6 if width <= 8 else 4.5,
                        color="black" if shade > 0.6 else "white")
        zs = " (z = 0, 1, ... left to right)" if slices > 1 else ""
        ax.set_title(f"links {d}: from the router at (x, y){zs}", fontsize=9)
        ax.set_xlabel("x" if slices == 1 else "x within each z slice")
        ax.set_ylabel("y")
        drawn = image.get_array()
        cells = []
        for (row, col), l in sorted(where.items(), key=lambda kv: kv[1].src_number):
            cells.append({"link": l.name, "node": l.src, "x": col % nx, "y": row, "z": col // nx,
                          "value": cell_value(drawn[row][col])})
        panels.append({"name": d, "x_label": ax.get_xlabel(), "y_label": ax.get_ylabel(),
                       "x_ticks": plain(ax.get_xticks()), "y_ticks": plain(ax.get_yticks()),
                       "x_tick_labels": [t.get_text() for t in ax.get_xticklabels()],
                       "node_names": named, "cells": cells})
    for j in range(len(dirs), rows * cols):
        axes[j // cols][j % cols].axis("off")
    colours.read_back(fig.colorbar(image, ax=axes, shrink=0.8, label=colours.label))
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return "grid", panels


def draw_leafspine(links, title, path, plt, scale):
    out_deg = {}
    for l in links:
        out_deg.setdefault(l.src, set()).add(l.dst)
    servers = {n for n, d in out_deg.items()
               if len(d) == 1 and all(n not in ds or len(out_deg[m]) > 1 for m, ds in out_deg.items())}
    leaves = {l.dst for l in links if l.src in servers}
    spines = set(out_deg) - servers - leaves
    layer = {**{n: 0 for n in servers}, **{n: 1 for n in leaves}, **{n: 2 for n in spines}}
    layer_names = ("server", "leaf", "spine")
    pos = {}
    for lvl in (0, 1, 2):
        nodes = sorted((n for n, lv in layer.items() if lv == lvl), key=node_order)
        for i, n in enumerate(nodes):
            pos[n] = ((i + 0.5) / max(1, len(nodes)), lvl)
    vmax = scale.top
    cmap = plt.get_cmap("viridis")
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
    named = len(pos) <= 96
    panels = []
    for ax, up, name in ((axes[0], True, "up"), (axes[1], False, "down")):
        cells = []
        for l in sorted(links, key=lambda l: l.value):
            if (layer[l.dst] > layer[l.src]) != up:
                continue
            (x0, y0), (x1, y1) = pos[l.src], pos[l.dst]
            (line,) = ax.plot([x0, x1], [y0, y1], color=cmap(l.value / vmax), linewidth=0.6 + 3 * l.value / vmax)
            cells.append({"link": l.name, "node": l.src, "to": l.dst, "value": l.value,
                          "color": [round(c, 4) for c in line.get_color()]})
        for n, (x, y) in pos.items():
            ax.plot(x, y, "o", color=("tab:gray", "tab:blue", "tab:red")[layer[n]], markersize=4)
            if named:
                if layer[n] == 0:  # servers: names below, vertical
                    ax.annotate(n, (x, y), textcoords="offset points", xytext=(0, -5), ha="center", va="top",
                                rotation=90, fontsize=5.5)
                else:
                    ax.annotate(n, (x, y), textcoords="offset points", xytext=(0, 6), ha="center", va="bottom",
                                fontsize=6, bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                                                  "alpha": 0.7})
        ax.set_yticks([0, 1, 2])
        ax.set_yticklabels(["servers", "leaves", "spines"])
        ax.set_xticks([])
        ax.set_ylim(-0.45, 2.25)
        ax.set_title(f"links {name} ({'towards the spines' if up else 'towards the servers'})", fontsize=9)
        cells.sort(key=lambda c: c["link"])
        panels.append({"name": name, "y_ticks": plain(ax.get_yticks()),
                       "y_tick_labels": [t.get_text() for t in ax.get_yticklabels()],
                       "node_names": named, "cells": cells})
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, vmax))
    scale.read_back(fig.colorbar(sm, ax=axes, shrink=0.8, label=scale.label))
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    nodes = [{"node": n, "layer": layer_names[layer[n]]} for n in sorted(pos, key=lambda n: (layer[n], node_order(n)))]
    return "leafspine", panels, nodes


def draw_positions(links, positions, title, path, plt, scale):
    """Nodes at the coordinates the run gives (link_utilization.node_positions:
    fat trees, dragonflies, graph files with coordinates), every directed
    link a segment from its source to its destination coloured and
    thickened by its utilization; the two directions of a cable drawn side
    by side (each shifted to its right), the busiest on top."""
    missing = sorted({n for l in links for n in (l.src, l.dst) if n not in positions})
    if missing:
        raise BadInput(f"--links: node_positions has no position for node(s) {', '.join(missing[:5])}")
    vmax = scale.top
    cmap = plt.get_cmap("viridis")
    lengths = sorted(math.dist(positions[l.src], positions[l.dst]) for l in links)
    shift = 0.06 * (lengths[len(lengths) // 2] if lengths else 1.0)
    degree = {}
    for l in links:
        degree.setdefault(l.src, set()).add(l.dst)
    endpoint = {n for n, d in degree.items() if len(d) == 1}
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    span_x, span_y = max(xs) - min(xs) or 1.0, max(ys) - min(ys) or 1.0
    width = min(16.0, max(8.0, 8.0 * span_x / span_y))
    height = min(12.0, max(5.0, width * span_y / span_x))
    fig, ax = plt.subplots(figsize=(width, height))
    cells = []
    for l in sorted(links, key=lambda l: (l.value, l.name)):
        (x0, y0), (x1, y1) = positions[l.src], positions[l.dst]
        length = math.dist((x0, y0), (x1, y1)) or 1.0
        dx, dy = (y1 - y0) / length * shift, -(x1 - x0) / length * shift  # to the right of the direction
        (line,) = ax.plot([x0 + dx, x1 + dx], [y0 + dy, y1 + dy], color=cmap(l.value / vmax),
                          linewidth=0.5 + 3 * l.value / vmax, solid_capstyle="butt")
        cells.append({"link": l.name, "node": l.src, "to": l.dst, "value": l.value,
                      "from_xy": [x0, y0], "to_xy": [x1, y1], "color": [round(c, 4) for c in line.get_color()]})
    named = len(positions) <= 96
    for n, (x, y) in positions.items():
        is_endpoint = n in endpoint
        ax.plot(x, y, "o", color="tab:gray" if is_endpoint else "tab:blue", markersize=3 if is_endpoint else 5,
                zorder=3)
        if named:
            ax.annotate(n, (x, y), textcoords="offset points", xytext=(0, 5), ha="center", va="bottom",
                        fontsize=5.5, zorder=4)
    if 1 / 3 <= span_x / span_y <= 3:  # true shapes (a dragonfly's circle); rows of a tree fill the width
        ax.set_aspect("equal", adjustable="datalim")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("each directed link from its source to its destination, drawn to the right of its direction; "
                 "grey: endpoints, blue: routers", fontsize=8)
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, vmax))
    scale.read_back(fig.colorbar(sm, ax=ax, shrink=0.8, label=scale.label))
    fig.suptitle("\n".join(textwrap.wrap(title, 110)), fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    cells.sort(key=lambda c: c["link"])
    nodes = [{"node": n, "x": x, "y": y, "kind": "endpoint" if n in endpoint else "router"}
             for n, (x, y) in sorted(positions.items())]
    return "positions", [{"name": "links", "node_names": named, "cells": cells}], nodes


def draw_panels(groups, title, path, plt, scale):
    import matplotlib.ticker
    """Bars per link, one panel per group; x: the links ordered by source
    node (integer positions, labelled with the source node's name where they
    fit)."""
    names = list(groups)
    cols = min(4, len(names))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(max(7.0, 4.2 * cols), 3.6 * rows), squeeze=False)
    vmax = scale.top
    panels = []
    for i, n in enumerate(names):
        ax = axes[i // cols][i % cols]
        ordered = sorted(groups[n], key=lambda l: (node_order(l.src), l.name))
        bars = ax.bar(range(len(ordered)), [l.value for l in ordered], width=0.9, color="tab:blue")
        ax.set_ylim(0, vmax * 1.05)  # the scale's top (1 unless --relative) and a margin
        ax.set_title(f"{n} ({len(ordered)} links)", fontsize=9)
        named = len(ordered) <= 32
        if named:  # every link named
            ax.set_xticks(range(len(ordered)))
            ax.set_xticklabels([l.name for l in ordered], rotation=90, fontsize=6)
            ax.set_xlabel("link")
        else:  # integer link numbers, labelled with their source node
            ax.set_xlim(-0.6, len(ordered) - 0.4)
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=8, integer=True))
            ticks = [int(t) for t in ax.get_xticks() if 0 <= t < len(ordered) and t == int(t)]
            ax.set_xticks(ticks)
            ax.set_xticklabels([f"{t}\n{ordered[t].src}" for t in ticks], fontsize=7)
            ax.set_xlabel("link number (by source node; its name below)", fontsize=8)
        ax.set_xlim(-0.6, len(ordered) - 0.4)
        ax.set_ylabel(UTILIZATION_LABEL, fontsize=8)
        cells = [{"link": l.name, "node": l.src, "position": k, "value": plain(b.get_height())}
                 for k, (l, b) in enumerate(zip(ordered, bars))]
        panels.append({"name": n, "x_label": ax.get_xlabel(), "x_ticks": plain(ax.get_xticks()),
                       "x_tick_labels": [t.get_text() for t in ax.get_xticklabels()],
                       "y_limits": plain(list(ax.get_ylim())), "cells": cells})
    for j in range(len(names), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle("\n".join(textwrap.wrap(title, 70 if cols == 1 else 110)), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return "bars", panels


def links_source(path, record, option="--links"):
    """(run JSON, description, index) of the run --links (--energy) draws."""
    text = read_text(path, option)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and not ("hash" in whole and "run" in whole):
        if record is not None:
            raise BadInput(f"--record: '{path}' is one run's JSON, not sweep results; drop --record")
        return whole, f"'{path}'", None
    if isinstance(whole, dict):
        records, skipped = [whole], []
    else:
        records, skipped = parse_jsonl(text)
        if not records:
            raise BadInput(f"{option}: '{path}' is neither a run's JSON (collnet run --json) nor sweep results "
                           "(collnet sweep --out)")
    indices = [r.get("index") for r in records]
    span = f"{min(indices)}..{max(indices)}" if all(isinstance(i, int) for i in indices) else "?"
    if record is None:
        if len(records) > 1:
            raise BadInput(f"{option}: '{path}' holds {len(records)} sweep records (points {span}); pick one with "
                           "--record N (the point's index, 0-based)")
        chosen = records[0]
    else:
        matching = [r for r in records if r.get("index") == record]
        if not matching:
            raise BadInput(f"--record: no record with index {record} in '{path}' ({len(records)} records, "
                           f"points {span}; N is 0-based)")
        if len(matching) > 1:
            raise BadInput(f"--record: {len(matching)} records of '{path}' have index {record} (results of "
                           "several sweeps in one file)")
        chosen = matching[0]
    where = f"record {chosen.get('index')} of '{path}'"
    if not isinstance(chosen.get("run"), dict):
        raise BadInput(f"{option}: {where} has no run (status {chosen.get('status')}: "
                       f"{(chosen.get('message') or '').strip()[:120]})")
    return chosen["run"], where, chosen.get("index")


def run_links(run, where):
    """The links of a run's link_utilization.per_link, checked."""
    lu = run.get("link_utilization") if isinstance(run, dict) else None
    per_link = lu.get("per_link") if isinstance(lu, dict) else None
    if not per_link or not isinstance(per_link, dict):
        raise BadInput(f"--links: {where} has no link_utilization.per_link (write it with collnet run --json)")
    return parse_links(per_link, where)


def plot_links(run, links, out_dir, relative=False):
    plt = pyplot()
    scale = ColourScale(links, relative)
    lu = run["link_utilization"]
    topology = str(run.get("topology", ""))
    if run.get("algorithm"):
        what = str(run["algorithm"])
    else:
        what = f"{run.get('traffic', '')} traffic at {run.get('injection_rate', '')} flits/node/cycle"
    mean = lu.get("mean") if is_number(lu.get("mean")) else 0
    mx = lu.get("max") if is_number(lu.get("max")) else 0
    title = f"{what} on {topology}: link utilization (mean {mean:.3f}, max {mx:.3f})"
    name = "links_" + (re.sub(r"[^A-Za-z0-9]+", "_", topology).strip("_") or "run") + ".png"
    path = os.path.join(out_dir, name)
    dims = grid_dims(topology)
    nodes = None
    positions = lu.get("node_positions")
    if isinstance(positions, dict) and positions:
        try:
            positions = {str(n): (float(p[0]), float(p[1])) for n, p in positions.items()}
        except (TypeError, ValueError, IndexError, KeyError):
            raise BadInput("--links: link_utilization.node_positions must map node names to [x, y]") from None
        layout, panels, nodes = draw_positions(links, positions, title, path, plt, scale)
    elif dims and all(l.src_number is not None for l in links):
        layout, panels = draw_grid(links, dims, title, path, plt, scale)
    elif topology.startswith("leafspine"):
        layout, panels, nodes = draw_leafspine(links, title, path, plt, scale)
    elif topology.startswith("boards"):
        groups = {}
        for l in links:
            key = "in-board" if l.port.isdigit() else f"dimension {l.port[0]}"
            groups.setdefault(key, []).append(l)
        order = {"in-board": -1, **{f"dimension {d}": i for i, d in enumerate("xyzwvu")}}
        layout, panels = draw_panels(dict(sorted(groups.items(), key=lambda kv: (order.get(kv[0], 9), kv[0]))),
                                     title, path, plt, scale)
    else:
        layout, panels = draw_panels({"links": links}, title, path, plt, scale)
    entry = {"file": name, "path": path, "kind": "link-map", "layout": layout, "topology": topology,
             "title": title, "value_label": UTILIZATION_LABEL, "colour_scale": scale.report(), "panels": panels}
    if nodes is not None:
        entry["nodes"] = nodes
    return [entry]


# ---------------------------------------------------------------- energy

ENERGY_FILE = "energy.png"


def run_energy(run, where):
    """The run's JSON energy object, checked."""
    energy = run.get("energy")
    if not isinstance(energy, dict) or not isinstance(energy.get("by_component"), dict):
        raise BadInput(f"--energy: {where} has no energy (run it with --set technology=FILE, "
                       "docs/guide/energy.md)")
    return energy


def plot_energy(run, energy, out_dir):
    """A horizontal bar per component: dynamic and static energy stacked."""
    plt = pyplot()
    parts = sorted(energy["by_component"].items(), key=lambda kv: -(kv[1].get("total_pj") or 0))
    names = [n for n, _ in parts]
    dynamic = [p.get("dynamic_pj") or 0 for _, p in parts]
    static = [p.get("static_pj") or 0 for _, p in parts]
    total = energy.get("total_pj") or 0
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.6))
    ax.barh(names, dynamic, label="dynamic", color="tab:blue")
    ax.barh(names, static, left=dynamic, label="static", color="tab:orange")
    ax.invert_yaxis()
    widest = max([d + st for d, st in zip(dynamic, static)] + [0])
    if widest > 0:
        ax.set_xlim(0, widest * 1.18)  # room for the shares
    ax.set_xlabel("energy (pJ)")
    tech = energy.get("technology") or {}
    title = (f"{run.get('algorithm') or run.get('traffic') or 'run'} on {run.get('topology')}: "
             f"{total:.4g} pJ ({tech.get('name')})")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right")
    for y, (d, st) in enumerate(zip(dynamic, static)):
        share = 100.0 * (d + st) / total if total > 0 else 0.0
        ax.text(d + st, y, f" {share:.1f} %", va="center", fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, ENERGY_FILE)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return [{"file": ENERGY_FILE, "path": path, "kind": "energy-breakdown", "title": title,
             "components": names, "total_pj": total}]


# ---------------------------------------------------------------- main

def build_parser():
    ap = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, allow_abbrev=False,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", metavar="RESULTS.jsonl", help="the results of collnet sweep (--out)")
    ap.add_argument("--x", metavar="KEY", help="the key on the x axis (default: injection_rate or message_flits; "
                    "a run field such as offered_rate or accepted_rate also)")
    ap.add_argument("--y", metavar="FIELD[,FIELD...]",
                    help="numeric run field(s) on the y axis, one PNG each (default: avg_latency,accepted_rate or "
                         "cycles,efficiency)")
    ap.add_argument("--by", metavar="KEY",
                    help="one line per value of KEY (default: algorithm, else the other point keys that vary)")
    ap.add_argument("--out", metavar="DIR", help="directory for the PNG files and the report (made if missing)")
    ap.add_argument("--links", metavar="RUN.json",
                    help="draw the per-link utilization of one run: a run's JSON, or sweep results with --record")
    ap.add_argument("--energy", metavar="RUN.json",
                    help=f"draw one run's energy by component into DIR/{ENERGY_FILE}: a run's JSON (key "
                         "technology set), or sweep results with --record")
    ap.add_argument("--record", metavar="N", type=record_number,
                    help="with --links or --energy on sweep results: the record of point N (its index field, "
                         "0-based)")
    ap.add_argument("--relative", action="store_true",
                    help="with --links: colour scale from 0 to the run's busiest link (default: absolute, 0 to 1)")
    ap.add_argument("--cdf", action="store_true",
                    help=f"draw the latency distribution of every point (cumulative, from the runs' "
                         f"latency_histogram) into DIR/{CDF_FILE}")
    ap.add_argument("--sweep", metavar="SWEEP.yaml", help="draw the plots of the sweep file's plot: list")
    ap.add_argument("--table", action="store_true", help="with --sweep: print its table: section as Markdown")
    ap.add_argument("--report", metavar="FILE.json",
                    help=f"write the report of what was drawn here (default: DIR/{REPORT_NAME})")
    ap.add_argument("--timeline", metavar="FILE.csv",
                    help="draw a timeline (scripts/collnet_timeline.py; collnet plot --timeline --help)")
    return ap


def record_number(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a record number (0, 1, 2, ...)")
    if n < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is negative; records are numbered from 0")
    return n


def run_timeline(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if not os.path.exists(os.path.join(here, "collnet_timeline.py")):
        raise BadInput("--timeline: timeline plots need scripts/collnet_timeline.py, which is missing")
    if here not in sys.path:
        sys.path.insert(0, here)
    import collnet_timeline
    return collnet_timeline.main(argv)


def strict_json(v):
    """NaN and infinities (not JSON) as null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: strict_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [strict_json(x) for x in v]
    return v


def write_report(path, argv, entries, extra):
    report = {"command": ["collnet", "plot"] + list(argv), **extra,
              "plots": [{k: v for k, v in e.items() if k != "path"} for e in entries]}
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(strict_json(report), f, indent=1, allow_nan=False)
            f.write("\n")
    except OSError as e:
        raise BadInput(f"--report: cannot write '{path}': {e.strerror or e}")


def plot(argv):
    if any(a == "--timeline" or a.startswith("--timeline=") for a in argv):
        return run_timeline(argv)
    args = build_parser().parse_args(argv)

    # Every check before anything is drawn.
    if args.relative and args.links is None:
        raise BadInput("--relative goes with --links (the colour scale of a link map)")
    if args.energy is not None:
        for option, value in (("--links", args.links), ("--x", args.x), ("--y", args.y), ("--by", args.by),
                              ("--sweep", args.sweep), ("--cdf", args.cdf or None), ("RESULTS.jsonl", args.results)):
            if value is not None:
                raise BadInput(f"{option} does not apply to --energy (it draws one run's energy by component)")
        if args.out is None:
            raise BadInput("--energy needs --out DIR")
    elif args.links is not None:
        for option, value in (("--x", args.x), ("--y", args.y), ("--by", args.by), ("--sweep", args.sweep),
                              ("--cdf", args.cdf or None)):
            if value is not None:
                raise BadInput(f"{option} does not apply to --links (a link map draws every link of one run)")
        if args.table:
            raise BadInput("--table does not apply to --links (it prints a sweep file's table)")
        if args.results is not None:
            raise BadInput(f"give either RESULTS.jsonl ('{args.results}') or --links, not both "
                           "(--links RESULTS.jsonl --record N draws one record's links)")
        if args.out is None:
            raise BadInput("--links needs --out DIR")
    else:
        if args.record is not None:
            raise BadInput("--record goes with --links (the record whose link utilization to draw)")
        if args.results is None:
            raise BadInput("give RESULTS.jsonl (sweep results), --links RUN.json or --timeline FILE.csv "
                           "(collnet plot --help lists the options)")
        if args.cdf:
            for option, value in (("--x", args.x), ("--y", args.y), ("--by", args.by), ("--sweep", args.sweep)):
                if value is not None:
                    raise BadInput(f"{option} does not apply to --cdf (it draws one latency distribution per point, "
                                   "latency against the fraction of packets)")
        if args.sweep is not None:
            for option, value in (("--x", args.x), ("--y", args.y), ("--by", args.by)):
                if value is not None:
                    raise BadInput(f"{option} does not apply with --sweep (the sweep file's plot: list sets x, y "
                                   "and by)")
            if args.out is None and not args.table:
                raise BadInput("--sweep: give --out DIR (its plots) and/or --table (its table)")
        else:
            if args.table:
                raise BadInput("--table needs --sweep SWEEP.yaml (the table: section it prints)")
            if args.out is None:
                raise BadInput("--out DIR is required (the directory for the PNG files)")
    if args.report is not None and args.out is None:
        raise BadInput("--report goes with --out (it reports the PNG files drawn there)")

    # The inputs, read and checked: `draws` are what will be drawn.
    draws = []
    extra = {}
    if args.energy is not None:
        run, where, index = links_source(args.energy, args.record, "--energy")
        energy = run_energy(run, where)
        extra = {"input": args.energy, "record": index}
        draws.append(lambda: plot_energy(run, energy, args.out))
    elif args.links is not None:
        run, where, index = links_source(args.links, args.record)
        links = run_links(run, where)
        extra = {"input": args.links, "record": index}
        draws.append(lambda: plot_links(run, links, args.out, args.relative))
    else:
        records = load_records(args.results)
        extra = {"input": args.results, "records": len(records)}
        good = ok_records(records)
        if args.sweep is not None:
            sweep = read_sweep(args.sweep)
            extra["sweep"] = args.sweep
            if args.table and "table" not in sweep:
                raise BadInput(f"--table: '{args.sweep}' has no table: section")
            for n, spec in enumerate(sweep.get("plot") or [], 1):
                ys = spec["y"] if isinstance(spec["y"], list) else [spec["y"]]
                subset = good
                for k, v in (spec.get("where") or {}).items():
                    subset = [r for r in subset if str(lookup(r, k)) == str(v)]
                if args.out is None:
                    continue
                if not subset:
                    raise BadInput(f"--sweep: plot entry {n}: no successful run in the results matches it")
                check_plot_keys(subset, spec["x"], ys, spec.get("by"),
                                lambda o, n=n: f"--sweep: plot entry {n}: {o[2:]}")
                draws.append(lambda spec=spec, ys=ys, subset=subset: plot_sweep(
                    subset, spec["x"], ys, spec.get("by"), args.out, spec.get("title"),
                    [spec["file"]] if "file" in spec else None, spec.get("logx"),
                    {y: spec.get("logy") for y in ys} if "logy" in spec else None))
        else:
            if not good:
                statuses = sorted({str(r.get("status")) for r in records})
                raise BadInput(f"RESULTS: '{args.results}' has no successful run to plot "
                               f"({len(records)} records, status {', '.join(statuses)})")
        if args.cdf:
            curves = cdf_curves(good)
            draws.append(lambda: plot_cdf(curves, args.out))
        elif args.sweep is None:
            x, ys, by = default_spec(good, args.x, [f.strip() for f in args.y.split(",")] if args.y is not None else None, args.by)
            check_plot_keys(good, x, ys, by, lambda o: o)
            draws.append(lambda: plot_sweep(good, x, ys, by, args.out))

    # The outputs: a writable report file and directory (made last).
    if args.report is not None:
        check_report_path(args.report)
    if args.out is not None:
        prepare_out(args.out)
    report_path = args.report if args.report is not None else (
        os.path.join(args.out, REPORT_NAME) if args.out is not None else None)
    if args.report is None and report_path is not None:
        check_report_path(report_path)

    if args.sweep is not None and args.table:
        print_table(records, sweep["table"])
    entries = []
    for draw in draws:
        entries += draw()
    if report_path is not None:
        write_report(report_path, argv, entries, extra)
    for e in entries:
        print(f"plot: wrote {e['path']}", file=sys.stderr)
    if report_path is not None:
        print(f"plot: wrote {report_path}", file=sys.stderr)
    return 0


def main(argv):
    try:
        return plot(argv)
    except BadInput as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # --help (0)
        return e.code if isinstance(e.code, int) else 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except ImportError as e:
        print(f"{PROG}: error: {e.name or e} is not installed (scripts/setup.sh installs python3-matplotlib "
              "and python3-yaml)", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{PROG}: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug: one line, not a traceback
        print(f"{PROG}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
