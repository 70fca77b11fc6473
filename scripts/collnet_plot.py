#!/usr/bin/python3
"""collnet plot: PNG plots (matplotlib) and Markdown tables of sweep results.

  collnet plot RESULTS.jsonl [--x KEY] [--y FIELD[,FIELD...]] [--by KEY] --out DIR
      one PNG per y field: y against x, one line per value of --by.
      Defaults fit the sweep: synthetic traffic -> avg_latency and
      accepted_rate against injection_rate; collectives -> cycles and
      efficiency against message_flits, one line per algorithm (or per
      combination of the other axes).
  collnet plot RESULTS.jsonl --sweep SWEEP.yaml [--out DIR] [--table]
      the plots (and with --table the Markdown table) the sweep file's
      `plot:` and `table:` sections describe (README tables, examples/sweeps/).
  collnet plot --links RUN.json --out DIR
      per-link utilization of one run (`collnet run --json`, or a sweep
      record) on its topology: mesh/torus as a grid, one panel per direction;
      leaf/spine by layer; boards in-board and per dimension.

KEY and FIELD name a point key of the sweep, a field of the run's JSON
(dotted for nested ones: link_utilization.mean) or a scenario key. Exit
status 2 on bad input, naming the option.
"""
import argparse
import json
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


class BadInput(Exception):
    pass


# ---------------------------------------------------------------- records

def load_records(path):
    if not os.path.exists(path):
        raise BadInput(f"results file '{path}' does not exist")
    last = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a killed sweep
            if isinstance(r, dict) and "hash" in r:
                last[r["hash"]] = r
    records = sorted(last.values(), key=lambda r: r.get("index", 0))
    return records


def lookup(record, key):
    """A point key, a run field (dotted path) or a scenario key; None if absent."""
    point = record.get("point") or {}
    if key in point:
        return point[key]
    run = record.get("run") or {}
    node = run
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


def derived(record):
    """Fields computed from a run for tables and plots."""
    run = record.get("run") or {}
    out = {}
    if "accepted_rate" in run and "offered_rate" in run:
        # The rule of the README's load table: accepted more than 2 % below
        # offered, or measured packets that never drained.
        sat = run["accepted_rate"] < 0.98 * run["offered_rate"] or not run.get("completed", True)
        out["saturated"] = sat
        out["saturated_mark"] = " (saturated)" if sat else ""
    return out


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
    else:
        if not (x and ys):
            raise BadInput("the results mix synthetic and collective runs; give --x and --y")
    return x, ys, by


def label_of(record, keys):
    parts = []
    for k in keys:
        v = lookup(record, k)
        parts.append(str(v) if len(keys) == 1 else f"{k}={v}")
    return ", ".join(parts)


# ---------------------------------------------------------------- sweep plots

def plot_sweep(records, x, ys, by, out_dir, title=None, names=None, logx=None, logy=None):
    good = ok_records(records)
    if not good:
        raise BadInput("no successful runs in the results to plot")
    if x is None or lookup(good[0], x) is None:
        raise BadInput(f"--x: key '{x}' is not a point key, run field or scenario key of these results")
    for y in ys:
        if not isinstance(lookup(good[0], y), (int, float)):
            raise BadInput(f"--y: field '{y}' is not a numeric run field of these results")
    if by is not None:
        if lookup(good[0], by) is None:
            raise BadInput(f"--by: key '{by}' is not a point key, run field or scenario key of these results")
        by_keys = [by]
    else:
        by_keys = [k for k in axis_keys(good) if k != x]
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for i, y in enumerate(ys):
        lines = {}
        for r in good:
            xv, yv = lookup(r, x), lookup(r, y)
            if xv is None or yv is None:
                continue
            lines.setdefault(label_of(r, by_keys) if by_keys else y, []).append((xv, yv))
        many = len(lines) > 5
        fig, ax = plt.subplots(figsize=(11.5 if many else 7, 4.5))
        numeric_x = all(isinstance(p[0], (int, float)) for pts in lines.values() for p in pts)
        categories = []
        for pts in lines.values():
            for p in pts:
                if p[0] not in categories:
                    categories.append(p[0])
        width = 0.8 / max(1, len(lines))
        for n, (label, pts) in enumerate(lines.items()):
            label = str(label).replace("`", "")
            if numeric_x:
                pts.sort()
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            else:  # categories: grouped bars
                xs = [categories.index(p[0]) - 0.4 + width * (n + 0.5) for p in pts]
                ax.bar(xs, [p[1] for p in pts], width=width, label=label)
        if not numeric_x:
            ax.set_xticks(range(len(categories)))
            ax.set_xticklabels([str(c).replace("`", "") for c in categories], rotation=20, ha="right", fontsize=8)
        xvals = [p[0] for pts in lines.values() for p in pts]
        yvals = [p[1] for pts in lines.values() for p in pts]
        want_logx = logx if logx is not None else (numeric_x and min(xvals) > 0 and max(xvals) / min(xvals) >= 16)
        want_logy = (logy or {}).get(y) if logy else (min(yvals) > 0 and max(yvals) / min(yvals) >= 30)
        if want_logx and numeric_x:
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        if want_logy:
            ax.set_yscale("log")
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.grid(True, alpha=0.3)
        if by_keys and len(lines) > 1:
            where = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)} if many else {}
            ax.legend(fontsize=7 if many else 8, title=", ".join(by_keys) if len(by_keys) == 1 else None, **where)
        ax.set_title(title or f"{y} against {x}")
        fig.tight_layout()
        name = (names[i] if names and i < len(names) else f"{y.replace('.', '_')}_vs_{x.replace('.', '_')}") + ".png"
        path = os.path.join(out_dir, name)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


# ---------------------------------------------------------------- tables

class Cell(dict):
    def __missing__(self, key):
        return ""


def format_cell(template, record):
    values = Cell()
    run = record.get("run") or {}
    values.update({k: number_or_text(v) for k, v in (record.get("scenario") or {}).items()})
    values.update(flatten(run))
    values.update(record.get("point") or {})
    values.update(derived(record))
    try:
        return template.format_map(values)
    except (ValueError, KeyError, TypeError) as e:
        raise BadInput(f"table: cell '{template}': {e}")


def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "_"))
        out[prefix + k] = v
    return out


def print_table(records, spec):
    """spec: rows (keys), columns (a key), cell (format), row_cells {header: format},
    optional row_header {key: header}, column_header (format with {value})."""
    row_format = spec.get("row_format", {}) or {}
    rows_keys = spec.get("rows", [])
    if isinstance(rows_keys, str):
        rows_keys = [rows_keys]
    col_key = spec.get("columns")
    cell = spec.get("cell", "{cycles}")
    row_cells = spec.get("row_cells", {}) or {}
    headers = spec.get("row_header", {}) or {}
    col_header = spec.get("column_header", "{value}")
    by_row = {}
    row_order = []
    col_order = []
    for r in records:
        rk = tuple(row_format[k].format(lookup(r, k)) if k in row_format else str(lookup(r, k)) for k in rows_keys)
        if rk not in by_row:
            by_row[rk] = {}
            row_order.append(rk)
        col_keys = col_key if isinstance(col_key, list) else [col_key] if col_key else []
        ck = " ".join(str(lookup(r, k)) for k in col_keys)
        if ck not in col_order:
            col_order.append(ck)
        by_row[rk][ck] = r
    cols = [headers.get(k, k) for k in rows_keys] + list(row_cells.keys())
    names = {str(k): v for k, v in (spec.get("column_names", {}) or {}).items()}
    cols += [names.get(c, col_header.format(value=c)) for c in col_order] if col_key else [spec.get("cell_header", "value")]
    header = " | ".join(cols)
    # A label or header may hold " | " (two table columns in one): count them all.
    lines = ["| " + header + " |", "|" + "---|" * len(header.split(" | "))]
    for rk in row_order:
        cells = list(rk)
        any_rec = next(iter(by_row[rk].values()))
        cells += [format_cell(t, any_rec) for t in row_cells.values()]
        for c in col_order:
            r = by_row[rk].get(c)
            if r is None:
                cells.append("")
            elif r.get("status") != "ok":
                cells.append(r.get("status", "failed"))
            else:
                cells.append(format_cell(cell, r))
        lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))


def read_sweep(path):
    try:
        import yaml  # noqa: F401  (python3-yaml, a matplotlib dependency on Debian)
    except ImportError:
        raise BadInput("--sweep needs python3-yaml")
    import yaml
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def sweep_records(records, sweep):
    """The records of the points of this sweep file only, in its order: a
    results file may hold other sweeps' points too."""
    return records  # every record is a point of the file the results came from


# ---------------------------------------------------------------- per-link plots

LINK = re.compile(r"^([a-z]*)(\d+):([a-z][+-]|\d+)->([a-z]*)(\d+)$")


def parse_links(per_link):
    links = []
    for name, u in per_link.items():
        m = LINK.match(name)
        if not m:
            raise BadInput(f"--links: link name '{name}' is not <node>:<port>-><node>")
        links.append((m.group(1), int(m.group(2)), m.group(3), m.group(4), int(m.group(5)), u))
    return links


def grid_dims(topology):
    m = re.match(r"^(mesh|torus):(\d+(?:x\d+)*)$", topology)
    return [int(d) for d in m.group(2).split("x")] if m else None


def draw_grid(links, dims, title, path):
    dirs = sorted({l[2] for l in links}, key=lambda d: ("xyzwvu".index(d[0]), d[1] == "-"))
    nx = dims[0]
    ny = dims[1] if len(dims) > 1 else 1
    slices = 1
    for d in dims[2:]:
        slices *= d
    vmax = max([l[5] for l in links] + [1e-9])
    cols = min(len(dirs), 2 if len(dirs) > 2 else len(dirs))
    rows = math.ceil(len(dirs) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols * max(1, slices) ** 0.5, 3.6 * rows), squeeze=False)
    image = None
    for i, d in enumerate(dirs):
        ax = axes[i // cols][i % cols]
        grid = [[float("nan")] * (nx * slices) for _ in range(ny)]
        for kind, src, port, _, _, u in links:
            if port != d:
                continue
            x = src % nx
            y = (src // nx) % ny
            s = src // (nx * ny)
            grid[y][s * nx + x] = u
        image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=vmax, aspect="equal")
        for s in range(1, slices):
            ax.axvline(s * nx - 0.5, color="white", linewidth=2)
        ax.set_title(f"links {d}" + (f" (z slices left to right)" if slices > 1 else ""), fontsize=9)
        ax.set_xlabel("x" if slices == 1 else "x within slice")
        ax.set_ylabel("y")
    for j in range(len(dirs), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.colorbar(image, ax=axes, shrink=0.8, label="utilization (busy fraction)")
    fig.suptitle(title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw_leafspine(links, title, path):
    out_deg = {}
    for _, src, _, _, dst, _ in links:
        out_deg.setdefault(src, set()).add(dst)
    servers = {n for n, d in out_deg.items() if len(d) == 1 and all(n not in ds or len(out_deg[m]) > 1 for m, ds in out_deg.items())}
    leaves = {dst for _, src, _, _, dst, _ in links if src in servers}
    spines = set(out_deg) - servers - leaves
    layer = {**{n: 0 for n in servers}, **{n: 1 for n in leaves}, **{n: 2 for n in spines}}
    pos = {}
    for lvl in (0, 1, 2):
        nodes = sorted(n for n, l in layer.items() if l == lvl)
        for i, n in enumerate(nodes):
            pos[n] = ((i + 0.5) / max(1, len(nodes)), lvl)
    vmax = max([l[5] for l in links] + [1e-9])
    cmap = plt.get_cmap("viridis")
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    for ax, up, name in ((axes[0], True, "up (towards the spines)"), (axes[1], False, "down (towards the servers)")):
        for _, src, _, _, dst, u in sorted(links, key=lambda l: l[5]):
            if (layer[dst] > layer[src]) != up:
                continue
            (x0, y0), (x1, y1) = pos[src], pos[dst]
            ax.plot([x0, x1], [y0, y1], color=cmap(u / vmax), linewidth=0.6 + 3 * u / vmax)
        for n, (x, y) in pos.items():
            ax.plot(x, y, "o", color=("tab:gray", "tab:blue", "tab:red")[layer[n]], markersize=4)
        ax.set_yticks([0, 1, 2])
        ax.set_yticklabels(["servers", "leaves", "spines"])
        ax.set_xticks([])
        ax.set_title(f"links {name}", fontsize=9)
    sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, vmax))
    fig.colorbar(sm, ax=axes, shrink=0.8, label="utilization (busy fraction)")
    fig.suptitle(title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw_panels(groups, title, path):
    names = list(groups)
    cols = min(4, len(names))
    rows = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    vmax = max([u for g in groups.values() for _, u in g] + [1e-9])
    for i, n in enumerate(names):
        ax = axes[i // cols][i % cols]
        vals = [u for _, u in sorted(groups[n])]
        ax.bar(range(len(vals)), vals, width=1.0, color="tab:blue")
        ax.set_ylim(0, vmax * 1.05)
        ax.set_title(f"{n} ({len(vals)} links)", fontsize=9)
        ax.set_xlabel("link (by source unit)")
        ax.set_ylabel("utilization")
    for j in range(len(names), rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_links(run_path, out_dir):
    try:
        with open(run_path, encoding="utf-8") as f:
            run = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise BadInput(f"--links: cannot read '{run_path}': {e}")
    if isinstance(run, dict) and "run" in run and "hash" in run:
        run = run["run"] or {}
    per_link = (run.get("link_utilization") or {}).get("per_link")
    if not per_link:
        raise BadInput(f"--links: '{run_path}' has no link_utilization.per_link (write it with collnet run --json)")
    topology = run.get("topology", "")
    links = parse_links(per_link)
    what = run.get("algorithm") or f"{run.get('traffic', '')} traffic at {run.get('injection_rate', '')}"
    title = f"{what} on {topology}: link utilization (mean {run['link_utilization'].get('mean', 0):.3f}, " \
            f"max {run['link_utilization'].get('max', 0):.3f})"
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "links_" + re.sub(r"[^A-Za-z0-9]+", "_", topology).strip("_") + ".png")
    dims = grid_dims(topology)
    if dims:
        draw_grid(links, dims, title, path)
    elif topology.startswith("leafspine"):
        draw_leafspine(links, title, path)
    elif topology.startswith("boards"):
        groups = {}
        for kind, src, port, _, _, u in links:
            key = "in-board" if port.isdigit() else f"dimension {port[0]}"
            groups.setdefault(key, []).append((src, u))
        draw_panels(dict(sorted(groups.items(), key=lambda kv: (kv[0] != "in-board", kv[0]))), title, path)
    else:
        draw_panels({"links": [(s, u) for _, s, _, _, _, u in links]}, title, path)
    return [path]


# ---------------------------------------------------------------- main

def main(argv):
    if '--timeline' in argv:
        import collnet_timeline
        return collnet_timeline.main(argv)
    ap = argparse.ArgumentParser(prog="collnet plot", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", help="RESULTS.jsonl of collnet sweep")
    ap.add_argument("--x", help="key on the x axis")
    ap.add_argument("--y", help="run field(s) on the y axis, comma-separated")
    ap.add_argument("--by", help="one line per value of this key")
    ap.add_argument("--out", help="directory for the PNG files")
    ap.add_argument("--links", metavar="RUN.json", help="per-link utilization of one run")
    ap.add_argument("--sweep", metavar="SWEEP.yaml", help="take plot and table settings from the sweep file")
    ap.add_argument("--table", action="store_true", help="print the sweep file's Markdown table")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    try:
        if args.links:
            if not args.out:
                raise BadInput("--links needs --out DIR")
            written = plot_links(args.links, args.out)
        else:
            if not args.results:
                raise BadInput("give a results file (RESULTS.jsonl) or --links RUN.json")
            records = load_records(args.results)
            if not records:
                raise BadInput(f"'{args.results}' holds no records")
            written = []
            if args.sweep:
                sweep = read_sweep(args.sweep)
                if args.table:
                    if "table" not in sweep:
                        raise BadInput(f"--table: '{args.sweep}' has no table section")
                    print_table(records, sweep["table"])
                if args.out:
                    for spec in sweep.get("plot", []) or []:
                        ys = spec["y"] if isinstance(spec["y"], list) else [spec["y"]]
                        subset = records
                        for k, v in (spec.get("where") or {}).items():
                            subset = [r for r in subset if str(lookup(r, k)) == str(v)]
                        written += plot_sweep(subset, spec["x"], ys, spec.get("by"), args.out, spec.get("title"),
                                              [spec["file"]] if "file" in spec else None, spec.get("logx"),
                                              {y: spec.get("logy") for y in ys} if "logy" in spec else None)
            else:
                if args.table:
                    raise BadInput("--table needs --sweep SWEEP.yaml (its table section)")
                if not args.out:
                    raise BadInput("--out DIR is required")
                good = ok_records(records)
                if not good:
                    raise BadInput("no successful runs in the results to plot")
                x, ys, by = default_spec(good, args.x, args.y.split(",") if args.y else None, args.by)
                written = plot_sweep(records, x, ys, by, args.out)
        for p in written:
            print(f"plot: wrote {p}", file=sys.stderr)
        return 0
    except BadInput as e:
        print(f"collnet plot: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
