#!/usr/bin/python3
"""collnet plot --timeline: the timeline of one run's message trace, or of
a workload run's nodes.

  collnet plot --timeline TRACE.csv --out DIR [--links LINKS.csv] [--bins N]
  collnet plot --timeline TIMELINE.json --out DIR

TRACE.csv is written by `collnet run --trace TRACE.csv` (docs/guide/traces.md).
Draws DIR/timeline.png: one row per node, a bar per message it sent from the
cycle its first flit left (inject_cycle) to the cycle its last word was
written at the destination (deliver_cycle), coloured by tag (or by the
`phase` column where the trace has one); a node with several controllers
has one lane per controller. When the links file of --trace-links
(TRACE.links.csv, or --links) exists, a second panel shows link utilization
over time as a heat map: one row per link, the fraction of each time bin
(N bins, default 100) in which a flit left on it.

TIMELINE.json is the Chrome trace-event JSON of a workload run
(`collnet run --set workload=... --timeline-json TIMELINE.json`,
docs/guide/workloads.md). Draws DIR/timeline.png: one row per rank (its
"process_name"), a lane per thread of the rank, a bar per node from its
start to its finish (each complete event, "ph": "X"), coloured by the
node's kind (its "cat": COMP_NODE, COMM_COLL_NODE, ...).

Also writes DIR/timeline.json, the description of what was drawn: the files,
per node (rank) the number of bars, per link the busy cycles in each bin (a
workload timeline: per kind its bars and colour). Exit status 2 on bad
input, with one line naming the option.
"""
import csv
import json
import math
import os
import re
import sys

TRACE_COLUMNS = ["message", "src", "dst", "controller", "tag", "words", "inject_cycle", "first_arrival_cycle",
                 "deliver_cycle", "hops"]
LINK_COLUMNS = ["link", "from", "to", "start_cycle", "end_cycle", "flits"]
DEFAULT_BINS = 100
MAX_BINS = 10000
# Link rows: every row named up to this many links; beyond, every k-th row
# (the figure would be too tall to open).
MAX_NAMED_LINKS = 400
# Tag colours: the qualitative tab20 palette without its two greys (grey is
# "not delivered"), the ten darker shades first; beyond 18 tags each colour
# again with a hatch, so that 180 tags have each its own look.
PALETTE = (0, 2, 4, 6, 8, 10, 12, 16, 18, 1, 3, 5, 7, 9, 11, 13, 17, 19)
HATCHES = ("", "////", "\\\\\\\\", "xxxx", "....", "++++", "oooo", "----", "||||", "****")
UNDELIVERED = (0.6, 0.6, 0.6, 1.0)


class BadInput(Exception):
    pass


def links_path_for(trace_csv):
    """FILE.csv -> FILE.links.csv (as collnet run --trace-links names it)."""
    if trace_csv.endswith(".csv") and len(trace_csv) > 4:
        return trace_csv[:-4] + ".links.csv"
    return trace_csv + ".links.csv"


def _open_csv(path, option, columns, what):
    if not os.path.exists(path):
        raise BadInput(f"{option}: '{path}' does not exist")
    if os.path.isdir(path):
        raise BadInput(f"{option}: '{path}' is a directory, not a {what}")
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise BadInput(f"{option}: cannot read '{path}': {e.strerror}")
    reader = csv.reader(f)
    try:
        header = next(reader, None)
    except (csv.Error, UnicodeDecodeError) as e:
        f.close()
        raise BadInput(f"{option}: '{path}' is not a CSV file ({e})")
    if header is None or header[:len(columns)] != columns:
        f.close()
        got = ", ".join(header) if header else "nothing"
        raise BadInput(f"{option}: '{path}' is not a {what}: its first columns must be {', '.join(columns)}; "
                       f"got {got}")
    return f, reader, header


def _integer(value, path, line, column, option, empty_ok=False):
    if value == "" and empty_ok:
        return None
    try:
        v = int(value)
    except ValueError:
        raise BadInput(f"{option}: '{path}' line {line}: column {column} is '{value}', expected a whole number")
    if v < 0:
        raise BadInput(f"{option}: '{path}' line {line}: column {column} is {v}, expected 0 or more")
    return v


def _rows(f, reader, header, path, option):
    """(line, row) of every row after the header that is not empty; the file
    is closed when they are read. A row whose field count is not the
    header's, or a file the csv module cannot read, is BadInput naming
    `option`, the path and the line."""
    with f:
        try:
            for line, row in enumerate(reader, start=2):
                if not row:
                    continue
                if len(row) != len(header):
                    raise BadInput(f"{option}: '{path}' line {line}: {len(row)} fields, the header has {len(header)}")
                yield line, row
        except csv.Error as e:
            raise BadInput(f"{option}: '{path}': {e}")


def read_trace(path):
    """The messages of a trace: dicts with the contract columns as numbers
    (cycles None where the message was not delivered) and 'colour_key'."""
    f, reader, header = _open_csv(path, "--timeline", TRACE_COLUMNS, "collnet message trace (collnet run --trace)")
    phase = header.index("phase") if "phase" in header else None
    messages = []
    for line, row in _rows(f, reader, header, path, "--timeline"):
        m = {}
        for i, name in enumerate(TRACE_COLUMNS):
            m[name] = _integer(row[i], path, line, name, "--timeline", empty_ok=name.endswith("_cycle"))
        if m["inject_cycle"] is not None and m["deliver_cycle"] is not None and \
                m["deliver_cycle"] < m["inject_cycle"]:
            raise BadInput(f"--timeline: '{path}' line {line}: deliver_cycle {m['deliver_cycle']} is before "
                           f"inject_cycle {m['inject_cycle']}")
        m["colour_key"] = row[phase] if phase is not None else m["tag"]
        messages.append(m)
    if not messages:
        raise BadInput(f"--timeline: '{path}' holds no messages")
    return messages


def read_links(path):
    """Busy intervals per link, in the file's order of links."""
    f, reader, header = _open_csv(path, "--links", LINK_COLUMNS, "collnet links file (collnet run --trace-links)")
    links = {}
    for line, row in _rows(f, reader, header, path, "--links"):
        start = _integer(row[3], path, line, "start_cycle", "--links")
        end = _integer(row[4], path, line, "end_cycle", "--links")
        if end < start:
            raise BadInput(f"--links: '{path}' line {line}: end_cycle {end} is before start_cycle {start}")
        links.setdefault(row[0], []).append((start, end))
    return links


def busy_per_bin(intervals, bin_cycles, bins):
    """Busy cycles of each bin [b * bin_cycles, (b + 1) * bin_cycles)."""
    busy = [0] * bins
    for start, end in intervals:
        b = start // bin_cycles
        while b < bins and b * bin_cycles <= end:
            lo = max(start, b * bin_cycles)
            hi = min(end, (b + 1) * bin_cycles - 1)
            busy[b] += hi - lo + 1
            b += 1
    return busy


def _prepare_out(out_dir):
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise BadInput(f"--out: '{out_dir}' is a file, not a directory")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise BadInput(f"--out: cannot create directory '{out_dir}': {e.strerror}")
    if not os.access(out_dir, os.W_OK | os.X_OK):
        raise BadInput(f"--out: cannot write to directory '{out_dir}': permission denied")


def _save(fig, out_dir):
    """Writes the figure as OUT/timeline.png and closes it; returns the PNG's
    path and that of the description beside it (OUT/timeline.json)."""
    import matplotlib.pyplot as plt

    png = os.path.join(out_dir, "timeline.png")
    try:
        fig.savefig(png, dpi=110)
    except OSError as e:
        raise BadInput(f"--out: cannot write '{png}': {e.strerror}")
    finally:
        plt.close(fig)
    return png, os.path.join(out_dir, "timeline.json")


def _describe(path, description):
    """Writes what was drawn as JSON beside the picture."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(description, f, indent=1)
            f.write("\n")
    except OSError as e:
        raise BadInput(f"--out: cannot write '{path}': {e.strerror}")


def draw(trace_csv, out_dir, links_csv=None, bins=DEFAULT_BINS):
    """Draws DIR/timeline.png and writes DIR/timeline.json; returns the
    description (also the JSON's content). links_csv None: the links file
    beside the trace when it exists."""
    messages = read_trace(trace_csv)
    if links_csv is None:
        beside = links_path_for(trace_csv)
        links_csv = beside if os.path.exists(beside) else None
    links = read_links(links_csv) if links_csv is not None else None
    if not isinstance(bins, int) or bins < 1 or bins > MAX_BINS:
        raise BadInput(f"--bins: {bins} is out of range; accepted values: 1..{MAX_BINS}")
    _prepare_out(out_dir)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Patch

    # Time range: cycle 0 to the last event of the trace and the links file.
    end = 0
    for m in messages:
        for c in ("inject_cycle", "first_arrival_cycle", "deliver_cycle"):
            if m[c] is not None:
                end = max(end, m[c])
    if links:
        end = max([end] + [e for ivs in links.values() for _, e in ivs])
    span = end + 1
    bin_cycles = max(1, math.ceil(span / bins))
    bins = math.ceil(span / bin_cycles)

    nodes = sorted({m["src"] for m in messages} | {m["dst"] for m in messages})
    row = {n: i for i, n in enumerate(nodes)}
    lanes = max(m["controller"] for m in messages) + 1
    keys = sorted({m["colour_key"] for m in messages}, key=lambda k: (isinstance(k, str), k))
    tab20 = plt.get_cmap("tab20")
    style = {}  # colour key -> (face colour, hatch)
    for i, k in enumerate(keys):
        style[k] = (tab20(PALETTE[i % len(PALETTE)]), HATCHES[(i // len(PALETTE)) % len(HATCHES)])
    repeats = len(keys) > len(PALETTE) * len(HATCHES)

    bars = {n: 0 for n in nodes}
    undelivered = 0
    boxes = {}  # colour key (None: not delivered) -> its bars
    lane_height = 0.8 / lanes
    for m in messages:
        if m["inject_cycle"] is None:
            continue  # never left its node: nothing to draw
        stop = m["deliver_cycle"]
        if stop is None:
            undelivered += 1
            stop = end
        x0, x1 = m["inject_cycle"], stop + 1  # the deliver cycle is part of the bar
        y0 = row[m["src"]] - 0.4 + m["controller"] * lane_height
        key = m["colour_key"] if m["deliver_cycle"] is not None else None
        boxes.setdefault(key, []).append([(x0, y0), (x1, y0), (x1, y0 + lane_height), (x0, y0 + lane_height)])
        bars[m["src"]] += 1

    link_names = list(links.keys()) if links else []
    link_busy = {name: busy_per_bin(links[name], bin_cycles, bins) for name in link_names}

    panels = 2 if links else 1
    what = "phase" if isinstance(keys[0], str) else "tag"
    handles = [Patch(facecolor=style[k][0], hatch=style[k][1], edgecolor="black", linewidth=0,
                     label=f"{what} {k}") for k in keys]
    if undelivered:
        handles.append(Patch(facecolor=UNDELIVERED, linewidth=0, label="not delivered"))
    # The legend beside the node panel, in as many columns as its height needs.
    node_height = max(min(12.0, 1.0 + 0.22 * len(nodes)), 0.19 * min(len(handles), 40) + 0.4)
    per_column = max(1, int((node_height - 0.4) / 0.19))
    legend_columns = math.ceil(len(handles) / per_column)
    # Every link row named (MAX_NAMED_LINKS) at a font size its height holds.
    step = max(1, math.ceil(len(link_names) / MAX_NAMED_LINKS))
    named_rows = math.ceil(len(link_names) / step)
    row_inches = 0.16 if named_rows <= 48 else 0.11
    link_height = 1.0 + row_inches * named_rows if links else 0
    # A right column beside each panel holds its legend or colour bar, so
    # that both panels have the same time axis.
    fig, axes = plt.subplots(panels, 2, figsize=(12 + 1.3 * (legend_columns - 1), 1.2 + node_height + link_height),
                             squeeze=False,
                             gridspec_kw={"height_ratios": [node_height] + ([link_height] if links else []),
                                          "width_ratios": [1, 0.12 * legend_columns]})
    ax = axes[0][0]
    key_ax = axes[0][1]
    drawn_styles = {}
    for k, polygons in boxes.items():
        face, hatch = style[k] if k is not None else (UNDELIVERED, "")
        collection = PolyCollection(polygons, facecolors=[face], edgecolors="black", linewidths=0, hatch=hatch or None)
        ax.add_collection(collection)
        if k is not None:
            drawn_styles[str(k)] = {"colour": [round(float(c), 4) for c in collection.get_facecolor()[0]],
                                    "hatch": collection.get_hatch() or "", "bars": len(polygons)}
    ax.set_xlim(0, span)
    ax.set_ylim(len(nodes) - 0.5, -0.5)
    if len(nodes) <= 48:
        ax.set_yticks(range(len(nodes)))
        ax.set_yticklabels([str(n) for n in nodes], fontsize=7 if len(nodes) > 24 else 9)
    ax.set_ylabel("node (sender)" + (f", {lanes} controller lanes" if lanes > 1 else ""))
    drawn_bars = sum(len(p) for p in boxes.values())
    ax.set_title(f"{os.path.basename(trace_csv)}: {drawn_bars} messages, inject to deliver, coloured by {what}"
                 + (f" (the {len(PALETTE) * len(HATCHES)} looks repeat)" if repeats else ""))
    key_ax.axis("off")
    legend = key_ax.legend(handles=handles, loc="upper left", fontsize=7 if len(handles) > 20 else 8, frameon=False,
                           borderaxespad=0, ncol=legend_columns, columnspacing=0.8, handlelength=1.6)
    if links:
        lax = axes[1][0]
        grid = [[link_busy[name][b] / bin_cycles for b in range(bins)] for name in link_names]
        image = lax.imshow(grid, aspect="auto", interpolation="nearest", cmap="magma", vmin=0, vmax=1,
                           extent=(0, bins * bin_cycles, len(link_names) - 0.5, -0.5))
        rows = list(range(0, len(link_names), step))
        lax.set_yticks(rows)
        lax.set_yticklabels([link_names[r] for r in rows],
                            fontsize=8 if named_rows <= 24 else 6 if named_rows <= 48 else 5)
        lax.set_ylabel("link" if step == 1 else f"link (one row in {step} named; rows in the links file's order)")
        lax.set_title(f"link utilization: busy fraction of each {bin_cycles}-cycle bin")
        # The colour bar as narrow as one legend column's share allows.
        axes[1][1].axis("off")
        cb = fig.colorbar(image, cax=axes[1][1].inset_axes([0, 0, min(1.0, 0.75 / legend_columns), 1]))
        cb.set_label("busy fraction")
        lax.set_xlim(0, span)
        ax.sharex(lax)
        ax.tick_params(labelbottom=False)
    axes[-1][0].set_xlabel("cycle")
    fig.tight_layout()

    png, description_path = _save(fig, out_dir)
    description = {
        "trace": trace_csv,
        "links_file": links_csv,
        "files": [png, description_path],
        "messages": len(messages),
        "bars": drawn_bars,
        "undelivered": undelivered,
        "end_cycle": end,
        "colour_by": what,
        "colours": [str(k) for k in keys],
        "styles": drawn_styles,
        "legend": [t.get_text() for t in legend.get_texts()],
        "link_rows": ({str(int(t)): label.get_text() for t, label in zip(lax.get_yticks(), lax.get_yticklabels())}
                      if links else None),
        "nodes": {str(n): bars[n] for n in nodes},
        "bin_cycles": bin_cycles,
        "bins": bins,
        "links": link_busy if links else None,
    }
    _describe(description_path, description)
    return description


def read_chrome_trace(path):
    """The complete events ("ph": "X") of a Chrome trace-event JSON file and
    the ranks' names; BadInput naming --timeline on anything else."""
    if not os.path.exists(path):
        raise BadInput(f"--timeline: '{path}' does not exist")
    if os.path.isdir(path):
        raise BadInput(f"--timeline: '{path}' is a directory, not a timeline")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadInput(f"--timeline: '{path}' is not Chrome trace-event JSON ({e})")
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc if isinstance(doc, list) else None
    if not isinstance(events, list):
        raise BadInput(f"--timeline: '{path}' is not Chrome trace-event JSON: no list 'traceEvents' "
                       "(collnet run --timeline-json writes one)")
    names = {}
    bars = []
    counters = {}  # link name -> [(ts, busy)]
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise BadInput(f"--timeline: '{path}': event {i} is not an object")
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[e.get("pid")] = str((e.get("args") or {}).get("name", e.get("pid")))
            continue
        if e.get("ph") == "C":
            busy = (e.get("args") or {}).get("busy")
            if isinstance(busy, (int, float)) and isinstance(e.get("ts"), (int, float)):
                counters.setdefault(str(e.get("name")), []).append((float(e["ts"]), float(busy)))
            continue
        if e.get("ph") != "X":
            continue
        for field in ("pid", "ts", "dur"):
            if not isinstance(e.get(field), (int, float)) or isinstance(e.get(field), bool):
                raise BadInput(f"--timeline: '{path}': event {i} ({e.get('name', '?')}) has no number '{field}'")
        if e["dur"] < 0:
            raise BadInput(f"--timeline: '{path}': event {i} ({e.get('name', '?')}) has a negative 'dur'")
        tid = e.get("tid", 0)
        bars.append({"pid": e["pid"], "tid": tid if isinstance(tid, (int, float)) else 0,
                     "kind": str(e.get("cat", "node")), "ts": float(e["ts"]), "dur": float(e["dur"])})
    if not bars:
        raise BadInput(f"--timeline: '{path}' has no complete event (\"ph\": \"X\") to draw")
    return bars, names, counters


def draw_chrome(path, out_dir):
    """Draws a workload timeline (Chrome trace-event JSON) into
    DIR/timeline.png and writes DIR/timeline.json; returns the description."""
    bars, names, counters = read_chrome_trace(path)
    _prepare_out(out_dir)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Patch

    ranks = sorted({b["pid"] for b in bars})
    row = {r: i for i, r in enumerate(ranks)}
    lanes_of = {r: sorted({b["tid"] for b in bars if b["pid"] == r}) for r in ranks}
    kinds = sorted({b["kind"] for b in bars})
    tab20 = plt.get_cmap("tab20")
    colour = {k: tab20(PALETTE[i % len(PALETTE)]) for i, k in enumerate(kinds)}
    boxes = {k: [] for k in kinds}
    end = 0.0
    for b in bars:
        lanes = lanes_of[b["pid"]]
        height = 0.8 / len(lanes)
        y0 = row[b["pid"]] - 0.4 + lanes.index(b["tid"]) * height
        # A node of no duration (a signal) still shows: at least a hair's width.
        x0, x1 = b["ts"], b["ts"] + b["dur"]
        end = max(end, x1)
        boxes[b["kind"]].append([(x0, y0), (x1, y0), (x1, y0 + height), (x0, y0 + height)])
    height = min(14.0, 1.6 + 0.3 * len(ranks))
    # The links' load (the counters of the process "links"), when the file has it: a heat map below.
    link_names = sorted(counters, key=node_order_key)
    link_height = min(10.0, 1.0 + 0.12 * len(link_names)) if link_names else 0
    fig, axes = plt.subplots(2 if link_names else 1, 2, figsize=(12, height + link_height), squeeze=False,
                             gridspec_kw={"width_ratios": [1, 0.18],
                                          "height_ratios": [height] + ([link_height] if link_names else [])})
    ax, key_ax = axes[0]
    styles = {}
    for k in kinds:
        c = PolyCollection(boxes[k], facecolors=[colour[k]], edgecolors=[colour[k]], linewidths=0.3)
        ax.add_collection(c)
        styles[k] = {"colour": [round(float(v), 4) for v in c.get_facecolor()[0]], "bars": len(boxes[k])}
    ax.set_xlim(0, end if end > 0 else 1)
    ax.set_ylim(len(ranks) - 0.5, -0.5)
    if len(ranks) <= 64:
        ax.set_yticks(range(len(ranks)))
        ax.set_yticklabels([names.get(r, f"rank {r}") for r in ranks], fontsize=7 if len(ranks) > 24 else 9)
    ax.set_ylabel("rank (a lane per thread)")
    ax.set_xlabel("time (us)")
    ax.set_title(f"{os.path.basename(path)}: {len(bars)} nodes on {len(ranks)} ranks, start to finish, "
                 "coloured by kind")
    key_ax.axis("off")
    legend = key_ax.legend(handles=[Patch(facecolor=colour[k], label=k) for k in kinds], loc="upper left",
                           fontsize=8, frameon=False, borderaxespad=0)
    link_rows = {}
    if link_names:
        lax = axes[1][0]
        starts = sorted({t for name in link_names for t, _ in counters[name]})
        column = {t: i for i, t in enumerate(starts)}
        grid = [[0.0] * len(starts) for _ in link_names]
        for r, name in enumerate(link_names):
            for t, busy in counters[name]:
                grid[r][column[t]] = busy
        right = end if end > starts[-1] else starts[-1] + (starts[-1] - starts[0]) / max(1, len(starts) - 1)
        image = lax.imshow(grid, aspect="auto", interpolation="nearest", cmap="magma", vmin=0, vmax=1,
                           extent=(starts[0], right, len(link_names) - 0.5, -0.5))
        step = max(1, math.ceil(len(link_names) / 48))
        lax.set_yticks(range(0, len(link_names), step))
        lax.set_yticklabels([link_names[r] for r in range(0, len(link_names), step)], fontsize=6)
        lax.set_ylabel("link")
        lax.set_xlabel("time (us)")
        lax.set_title("links' load: busy fraction of each bin")
        lax.set_xlim(ax.get_xlim())
        axes[1][1].axis("off")
        fig.colorbar(image, cax=axes[1][1].inset_axes([0, 0, 0.25, 1])).set_label("busy fraction")
        link_rows = {name: len(counters[name]) for name in link_names}
    fig.tight_layout()
    png, description_path = _save(fig, out_dir)
    description = {
        "timeline": path,
        "files": [png, description_path],
        "bars": len(bars),
        "end_us": end,
        "colour_by": "kind",
        "kinds": styles,
        "legend": [t.get_text() for t in legend.get_texts()],
        "ranks": {names.get(r, f"rank {r}"): {"bars": sum(1 for b in bars if b["pid"] == r),
                                               "lanes": len(lanes_of[r])} for r in ranks},
        "links": link_rows,
    }
    _describe(description_path, description)
    return description


def node_order_key(name):
    """Link names in the order of their numbers (r2:... before r10:...)."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def is_chrome_trace(path):
    """A .json timeline is a workload's Chrome trace; anything else a message trace."""
    return path.lower().endswith(".json")


def parse(argv):
    """--timeline TRACE.csv --out DIR [--links LINKS.csv] [--bins N]."""
    options = {"--timeline": None, "--out": None, "--links": None, "--bins": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        if name in ("-h", "--help"):
            return None
        if name not in options:
            raise BadInput(f"--timeline: unknown argument '{a}'; accepted: --timeline TRACE.csv, --out DIR, "
                           "--links LINKS.csv, --bins N")
        if not eq:
            if i + 1 >= len(argv) or argv[i + 1].startswith("--"):
                raise BadInput(f"{name}: needs a value")
            value = argv[i + 1]
            i += 1
        if options[name] is not None:
            raise BadInput(f"{name}: given twice")
        options[name] = value
        i += 1
    if not options["--timeline"]:
        raise BadInput("--timeline: needs a trace file (collnet run --trace FILE.csv) or a workload's timeline "
                       "(collnet run --timeline-json FILE.json)")
    if not options["--out"]:
        raise BadInput("--out: --timeline needs --out DIR (where timeline.png goes)")
    bins = DEFAULT_BINS
    if options["--bins"] is not None:
        try:
            bins = int(options["--bins"])
        except ValueError:
            raise BadInput(f"--bins: '{options['--bins']}' is not a whole number; accepted values: 1..{MAX_BINS}")
    return options["--timeline"], options["--out"], options["--links"], bins


def main(argv):
    try:
        parsed = parse(argv)
        if parsed is None:
            print(__doc__)
            return 0
        trace, out, links, bins = parsed
        if is_chrome_trace(trace):
            for option, value in (("--links", links), ("--bins", bins if bins != DEFAULT_BINS else None)):
                if value is not None:
                    raise BadInput(f"{option}: goes with a message trace (--timeline TRACE.csv), not a workload's "
                                   "timeline (TIMELINE.json)")
            d = draw_chrome(trace, out)
            print(f"timeline: {d['bars']} nodes on {len(d['ranks'])} ranks, 0..{d['end_us']:g} us, "
                  f"{len(d['kinds'])} kinds")
            for p in d["files"]:
                print(f"plot: wrote {p}", file=sys.stderr)
            return 0
        d = draw(trace, out, links, bins)
    except BadInput as e:
        print(f"collnet plot: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # never a traceback: one line, the internal-error status
        print(f"collnet plot: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 4
    print(f"timeline: {d['bars']} messages on {len(d['nodes'])} nodes, cycles 0..{d['end_cycle']}"
          + (f", {len(d['links'])} links in {d['bins']} bins of {d['bin_cycles']} cycles" if d["links"] else ""))
    for p in d["files"]:
        print(f"plot: wrote {p}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
