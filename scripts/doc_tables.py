#!/usr/bin/env python3
"""Regenerates the measured tables of docs/performance.md and
docs/synthesis.md: runs the commands a table comes from and rewrites the
table between its marker comments in the page,

    <!-- table: NAME -->
    ...what this script wrote...
    <!-- end table -->

Everything between the two markers is the script's: the line naming the
command that regenerates the table (and, for wall times, the machine, the
load average and the date of the measurement), then the table. Text outside
the markers is left as it is.

Tables (NAME: page, what runs):

  synthesis-blocks  docs/synthesis.md: scripts/synth.sh --markdown (Yosys and
                    nextpnr-ice40, five seeds a block: minutes per block, an
                    hour or more for all). With --block only those blocks'
                    rows are measured and replaced, the other rows kept.
  callgrind         docs/performance.md: Callgrind instruction counts of
                    collnet bench points (whole process), per flit-hop
                    (machine-independent for a given build and compiler).
  whole-process     docs/performance.md: wall time of collnet run on the
                    synthetic points, three runs on 1 and on 2 threads.
  synthetic         docs/performance.md: collnet bench --repeat 2.
  collectives       docs/performance.md: collnet bench --collectives
                    --no-synthetic (about 10 minutes on a quiet 2-core
                    machine), its report written to docs/speed-collectives.json
                    (the report docs/speed.png is drawn from); --from-report
                    renders a report that exists instead of running.
  threads           docs/performance.md: collnet bench on 1 and 2 threads.
  startup           docs/performance.md: bench/startup_cost.py.
  long-runs         docs/performance.md: twotree-hier on leafspine:p=36 with
                    65536 elements on 1 and 2 threads (an hour or more).

Without --table every table of the pages is regenerated. --dry-run prints
the new page text of each table instead of writing the page. A page whose
markers are missing, unpaired or repeated, an unknown table or block, or a
failing command is an error naming it (exit 2 for bad input, 1 for a failed
command); nothing is written then.

    python3 scripts/doc_tables.py --table NAME [--block BLOCK] [--collnet build/collnet] [--dry-run]
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = re.compile(r"^<!--\s*table:\s*([\w-]+)\s*-->\s*$")
END = re.compile(r"^<!--\s*end table\s*-->\s*$")


class InputError(Exception):
    """Bad input: exit status 2."""


class CommandError(Exception):
    """A command the table comes from failed: exit status 1."""


# --- markers -----------------------------------------------------------------

def find_tables(text, page):
    """The tables of a page: {name: (first line, last line)}, the lines of the
    begin and end markers (0-based). Unpaired, nested or repeated markers are
    an InputError naming the page and line."""
    tables, open_name, open_line = {}, None, None
    for i, line in enumerate(text.split("\n")):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if open_name is not None:
                raise InputError(f"{page}:{i + 1}: table '{begin.group(1)}' begins inside table "
                                 f"'{open_name}' (begun at line {open_line + 1}, no '<!-- end table -->')")
            if begin.group(1) in tables:
                raise InputError(f"{page}:{i + 1}: table '{begin.group(1)}' appears twice "
                                 f"(first at line {tables[begin.group(1)][0] + 1})")
            open_name, open_line = begin.group(1), i
        elif end:
            if open_name is None:
                raise InputError(f"{page}:{i + 1}: '<!-- end table -->' without a '<!-- table: NAME -->' before it")
            tables[open_name] = (open_line, i)
            open_name = None
    if open_name is not None:
        raise InputError(f"{page}:{open_line + 1}: table '{open_name}' has no '<!-- end table -->'")
    return tables


def table_body(text, page, name):
    """The lines between a table's markers."""
    tables = find_tables(text, page)
    if name not in tables:
        raise InputError(f"{page}: no table '{name}' (no line '<!-- table: {name} -->'; "
                         f"the page has: {', '.join(sorted(tables)) or 'none'})")
    first, last = tables[name]
    return text.split("\n")[first + 1:last]


def replace_table(text, page, name, body):
    """The page text with the lines between table NAME's markers replaced by
    BODY (a list of lines)."""
    tables = find_tables(text, page)
    if name not in tables:
        raise InputError(f"{page}: no table '{name}' (no line '<!-- table: {name} -->'; "
                         f"the page has: {', '.join(sorted(tables)) or 'none'})")
    first, last = tables[name]
    lines = text.split("\n")
    return "\n".join(lines[:first + 1] + body + lines[last:])


# --- Markdown tables ------------------------------------------------------------

def markdown_rows(lines):
    """The cells of a Markdown table's rows (header and separator excluded)."""
    rows = [line for line in lines if line.startswith("|")]
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows[2:]]


def markdown_table(header, align, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def figures_table(header, rows):
    """A table of a label column, then columns of figures (right-aligned)."""
    return markdown_table(header, ["---"] + ["---:"] * (len(header) - 1), rows)


def merge_synth_rows(old_lines, new_lines):
    """The synthesis table with the rows of NEW_LINES (synth.sh --markdown
    output) in place of the old rows of the same block and target; rows of
    blocks not measured again stay as they were, new blocks are appended.
    The header is the new one (it names the seed count)."""
    old_table = [line for line in old_lines if line.startswith("|")]
    new_table = [line for line in new_lines if line.startswith("|")]
    if len(new_table) < 3:
        raise CommandError("scripts/synth.sh printed no table rows")
    if old_table and old_table[0] != new_table[0]:
        raise InputError(f"the page's table header '{old_table[0]}' differs from synth.sh's "
                         f"'{new_table[0]}' (another seed count?): regenerate every block")
    fresh = {tuple(cells[:2]): line for cells, line in zip(markdown_rows(new_table), new_table[2:])}
    rows, seen = [], set()
    for cells, line in zip(markdown_rows(old_table), old_table[2:]):
        key = tuple(cells[:2])
        rows.append(fresh.get(key, line))
        seen.add(key)
    rows += [line for key, line in fresh.items() if key not in seen]
    return new_table[:2] + rows


# --- running commands -----------------------------------------------------------

def run(cmd, env=None, capture=True):
    """Runs CMD; its standard output (and standard error) on success."""
    try:
        proc = subprocess.run(cmd, env=env, cwd=ROOT, text=True,
                              stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE)
    except FileNotFoundError as e:
        raise CommandError(f"{cmd[0]}: not found ({e})")
    if proc.returncode != 0:
        raise CommandError(f"'{' '.join(cmd)}' ended with exit status {proc.returncode}:\n{proc.stderr[-2000:]}")
    return proc.stdout, proc.stderr


def machine():
    """The machine a wall time was taken on: CPU model, CPUs, caches."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    caches = []
    base = "/sys/devices/system/cpu/cpu0/cache"
    for index in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        try:
            with open(f"{base}/{index}/level") as f:
                level = f.read().strip()
            with open(f"{base}/{index}/type") as f:
                kind = f.read().strip()
            with open(f"{base}/{index}/size") as f:
                size = f.read().strip()
        except OSError:
            continue
        if kind != "Instruction":
            caches.append(f"L{level}{'d' if kind == 'Data' else ''} {size.replace('K', ' KiB')}")
    cpus = len(os.sched_getaffinity(0))
    return f"{model}, {cpus} CPUs" + (f" ({', '.join(caches)})" if caches else "")


def today():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def load():
    return f"{os.getloadavg()[0]:.1f}"


def measured_line(command, where):
    return [f"*Regenerated by `{command}`, {where}.*", ""]


def bench_json(collnet, args):
    """Runs collnet bench with ARGS and returns its JSON report."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.json")
        run([collnet, "bench", *args, "--json", path])
        with open(path) as f:
            return json.load(f)


def fmt(x, digits=2):
    return f"{x:,.{digits}f}"


def verdict(value, target):
    """Whether VALUE meets TARGET (both lower is better), and by how much not."""
    if value <= target:
        return "met"
    ratio = value / target
    return f"{100 * (ratio - 1):.0f} % over" if ratio < 1.5 else f"{ratio:.1f}x"


# --- the tables ---------------------------------------------------------------

def synthesis_blocks(args, old_body):
    blocks = args.block or []
    out, _ = run(["bash", "scripts/synth.sh", "--markdown", *blocks])
    new_lines = out.splitlines()
    command = "python3 scripts/doc_tables.py --table synthesis-blocks"
    note = ("which runs `bash scripts/synth.sh --markdown`; one block's rows: add `--block BLOCK` "
            "(`scripts/synth.sh --markdown BLOCK`)")
    table = merge_synth_rows(old_body, new_lines) if blocks else [
        line for line in new_lines if line.startswith("|")]
    return measured_line(command, note) + table


SYNTHETIC_KEYS = ("--set traffic=uniform --set vcs=2 --set buffer_flits=8 --set packet_flits=4 "
                  "--set warmup_cycles=1000 --set measure_cycles=10000 --set drain_cycles=0")
# (topology, injection rate, target whole-process wall seconds: 1/15 of BookSim2's time)
WHOLE_PROCESS_POINTS = [("mesh:8x8", 0.1, 0.047), ("mesh:16x16", 0.05, 0.244),
                        ("mesh:32x32", 0.025, 1.78), ("mesh:8x8", 1.0, 0.058)]


def whole_process(args, old_body):
    rows = []
    before = load()
    for topology, rate, target in WHOLE_PROCESS_POINTS:
        cells = [f"{topology} at {rate}", f"{target * 1e3:.0f} ms"]
        for threads in (1, 2):
            cmd = [args.collnet, "run", "--set", f"topology={topology}", "--set", f"injection_rate={rate}",
                   *SYNTHETIC_KEYS.split(),
                   "--set", f"threads={threads}"]
            walls = []
            for _ in range(3):
                start = time.perf_counter()
                run(cmd)
                walls.append(time.perf_counter() - start)
            cells.append(f"{min(walls):.2f}-{max(walls):.2f} s ({verdict(min(walls), target)})")
        rows.append(cells)
    command = "python3 scripts/doc_tables.py --table whole-process"
    where = (f"which times `collnet run --set topology=T --set injection_rate=R {SYNTHETIC_KEYS} "
             f"--set threads=N` three times; measured on {machine()}, load average {before} to {load()}, {today()}")
    return measured_line(command, where) + markdown_table(
        ["point", "target", "1 thread (fastest-slowest of 3)", "2 threads"], ["---"] * 4, rows)


def synthetic(args, old_body):
    report = bench_json(args.collnet, ["--repeat", "2"])
    rows = []
    for r in report["runs"]:
        hops = r["router_traversals"] / (r["routers"] * r["cycles"])
        rows.append([r["topology"], r["injection_rate"], r["routers"], r["cycles"],
                     fmt(r["router_cycles_per_cpu_second"] / 1e6), fmt(r["per_router_speed_vs_8x8"]),
                     fmt(hops, 3), fmt(r["ns_per_flit_hop"], 1), fmt(r["peak_rss_kib"] / 1024, 1)])
    command = "python3 scripts/doc_tables.py --table synthetic"
    where = (f"which runs `collnet bench --repeat 2`; measured on {machine()}, load average "
             f"{report['load_average_before'].split()[0]} to {report['load_average_after'].split()[0]}, {today()}")
    header = ["network", "offered", "routers", "cycles", "M router-cycles per CPU s", "per-router speed vs 8x8",
              "flit-hops per router-cycle", "CPU ns per flit-hop", "peak MiB"]
    return measured_line(command, where) + figures_table(header, rows)


# point -> (whole-run target s, ns per flit-hop target, peak memory target MB)
COLLECTIVE_TARGETS = {
    "a2at-torus:16x16": (None, 100, None),
    "a2at-torus:32x32": (30, None, 400),
    "hd-allreduce-boards:4x4x4x4": (60, None, None),
    "twotree-hier-leafspine:p=16": (60, None, None),
    "twotree-hier-leafspine:p=36": (30, None, 550),
}


def render_collectives(report, source):
    rows = []
    for r in report["collective_runs"]:
        whole_t, ns_t, mem_t = COLLECTIVE_TARGETS.get(r["point"], (None, None, None))
        whole = fmt(r["run_seconds"])
        if whole_t:
            whole += f" (target {whole_t} s: {verdict(r['run_seconds'], whole_t)})"
        ns = fmt(r["ns_per_flit_hop"], 1)
        if ns_t:
            ns += f" (target {ns_t}: {verdict(r['ns_per_flit_hop'], ns_t)})"
        mem = fmt(r["peak_rss_kib"] / 1024, 1)
        if mem_t:
            mem += f" (target {mem_t} MB: {verdict(r['peak_rss_kib'] * 1024 / 1e6, mem_t)})"
        rows.append([r["point"], f"{r['cycles']:,}", f"{r['flit_hops']:,}", whole, fmt(r["sim_cpu_seconds"]), ns,
                     fmt(r["router_evaluations"] / r["flit_hops"]), fmt(r["nic_evaluations"] / r["flit_hops"]), mem])
    where = "machine not recorded in the report"
    if "machine" in report:
        where = f"measured on {report['machine']}"
    if "date" in report:
        where += f", {report['date']}"
    where += (f", load average {report['load_average_before'].split()[0]} to "
              f"{report['load_average_after'].split()[0]}")
    command = "python3 scripts/doc_tables.py --table collectives"
    note = (f"which runs `collnet bench --collectives --no-synthetic --threads 1 --json {source}`; "
            f"`--from-report {source}` renders the committed report; {where}")
    return measured_line(command, note) + figures_table(
        ["point", "cycles", "flit-hops", "whole run s", "simulation CPU s", "CPU ns per flit-hop",
         "router evaluations per flit-hop", "NIC evaluations per flit-hop", "peak MiB"], rows)


def collectives(args, old_body):
    source = "docs/speed-collectives.json"
    if args.from_report:
        try:
            with open(args.from_report) as f:
                report = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise InputError(f"--from-report {args.from_report}: {e}")
        missing = [k for k in ("collective_runs", "load_average_before", "load_average_after") if k not in report]
        if missing:
            raise InputError(f"--from-report {args.from_report}: not a collnet bench --collectives report "
                             f"(no {', '.join(missing)})")
        return render_collectives(report, source)
    report = bench_json(args.collnet, ["--collectives", "--no-synthetic", "--threads", "1"])
    report["machine"], report["date"] = machine(), today()
    if not args.dry_run:
        with open(os.path.join(ROOT, source), "w") as f:
            json.dump(report, f, indent=2, sort_keys=True)
            f.write("\n")
    return render_collectives(report, source)


# (label, collnet bench arguments)
CALLGRIND_POINTS = [
    ("mesh:8x8 at 0.1", ["--topology", "mesh:8x8", "--repeat", "1"]),
    ("mesh:8x8 at 1.0 (saturated)", ["--topology", "mesh:8x8", "--injection-rate", "1.0", "--repeat", "1"]),
    ("A2AT torus:16x16",
     ["--collectives", "--no-synthetic", "--point", "a2at-torus:16x16", "--threads", "1"]),
]


def callgrind(args, old_body):
    rows = []
    # the tunable set, collnet does not restart itself (the restart would
    # leave Callgrind); --threads 1: one thread's instructions
    env = dict(os.environ, GLIBC_TUNABLES="glibc.malloc.hugetlb=0")
    for label, bench_args in CALLGRIND_POINTS:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bench.json")
            extra = [] if "--threads" in bench_args else ["--threads", "1"]
            _, err = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", args.collnet, "bench",
                          *bench_args, *extra, "--json", path], env=env)
            with open(path) as f:
                report = json.load(f)
        # the bench runs each point in a child process (fork): the whole
        # process is the parent and the child, each with its 'Collected' line
        found = re.findall(r"Collected\s*:\s*(\d+)", err)
        if len(found) < 2:
            raise CommandError(f"valgrind printed {len(found)} 'Collected :' lines for {label} "
                               "(expected the bench's and its point's child's)")
        instructions = sum(int(n) for n in found)
        point = (report.get("collective_runs") or report["runs"])[0]
        hops = point.get("flit_hops", point.get("router_traversals"))
        rows.append([label, f"`{' '.join(bench_args)}`", f"{instructions:,}", f"{hops:,}",
                     f"{instructions / hops:,.0f}"])
    command = "python3 scripts/doc_tables.py --table callgrind"
    where = ("which runs `GLIBC_TUNABLES=glibc.malloc.hugetlb=0 valgrind --tool=callgrind collnet bench ARGS "
             f"--threads 1` for each point (the bench's own scenarios; whole process: the bench and the child "
             f"process that runs the point); {today()}")
    return measured_line(command, where) + markdown_table(
        ["point", "ARGS", "instructions, whole process", "flit-hops", "instructions per flit-hop"],
        ["---", "---", "---:", "---:", "---:"], rows)


THREAD_POINTS = [
    ("mesh:32x32 at 0.025", ["--topology", "mesh:32x32", "--injection-rate", "0.025", "--repeat", "2"]),
    ("mesh:16x16 at 0.05", ["--topology", "mesh:16x16", "--injection-rate", "0.05", "--repeat", "2"]),
    ("a2at-torus:16x16", ["--collectives", "--no-synthetic", "--point", "a2at-torus:16x16"]),
]


def threads(args, old_body):
    rows = []
    before = load()
    for label, bench_args in THREAD_POINTS:
        sims = {}
        for n in (1, 2):
            report = bench_json(args.collnet, [*bench_args, "--threads", str(n)])
            point = (report.get("collective_runs") or report["runs"])[0]
            sims[n] = point
        one, two = sims[1]["sim_seconds"], sims[2]["sim_seconds"]
        rows.append([label, fmt(one, 3), fmt(two, 3), f"{one / two:.2f}x",
                     fmt(sims[2].get("wait_share", 0.0), 3), f"{sims[2].get('solo_cycles', 0):,}"])
    command = "python3 scripts/doc_tables.py --table threads"
    where = (f"which runs `collnet bench ARGS --threads N`; measured on {machine()}, "
             f"load average {before} to {load()}, {today()}")
    return measured_line(command, where) + figures_table(
        ["point", "1 thread, simulation wall s", "2 threads", "speedup", "2 threads: main thread's wait share",
         "solo cycles"], rows)


def startup(args, old_body):
    out, _ = run([sys.executable, "bench/startup_cost.py", "--collnet", args.collnet, "--runs", "15"])
    lines = out.splitlines()
    table = [line for line in lines if line.startswith("|")]
    command = "python3 scripts/doc_tables.py --table startup"
    where = (f"which runs `bench/startup_cost.py --runs 15`; measured on {machine()}, "
             f"{lines[0] if lines else ''}, {today()}")
    return measured_line(command, where) + table


LONG_RUN = ["run", "examples/twotree-p16.yaml", "--set", "topology=leafspine:p=36", "--set", "compare=",
            "--set", "elements=65536"]


def long_runs(args, old_body):
    rows = []
    before = load()
    for n in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            start = time.perf_counter()
            proc = subprocess.Popen([args.collnet, *LONG_RUN, "--set", f"threads={n}", "--json", path], cwd=ROOT,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                raise CommandError(f"collnet {' '.join(LONG_RUN)} --set threads={n} failed: {proc.stderr.read()[-2000:]}")
            with open(path) as f:
                report = json.load(f)
        minutes, seconds = divmod(round(wall), 60)
        rows.append([n, f"{report['cycles']:,}", f"{minutes} min {seconds} s ({verdict(wall, 480)} of 8 min)"
                     if n == 2 else f"{minutes} min {seconds} s", fmt(usage.ru_maxrss / 1024, 0)])
    command = "python3 scripts/doc_tables.py --table long-runs"
    where = (f"which runs `collnet {' '.join(LONG_RUN)} --set threads=N`; measured on {machine()}, "
             f"load average {before} to {load()}, {today()}")
    return measured_line(command, where) + markdown_table(
        ["threads", "cycles", "whole run", "peak MiB"], ["---:", "---:", "---", "---:"], rows)


TABLES = {
    "synthesis-blocks": ("docs/synthesis.md", synthesis_blocks),
    "callgrind": ("docs/performance.md", callgrind),
    "whole-process": ("docs/performance.md", whole_process),
    "synthetic": ("docs/performance.md", synthetic),
    "collectives": ("docs/performance.md", collectives),
    "threads": ("docs/performance.md", threads),
    "startup": ("docs/performance.md", startup),
    "long-runs": ("docs/performance.md", long_runs),
}


def known_blocks():
    names = [f[:-3] for f in os.listdir(os.path.join(ROOT, "rtl")) if f.endswith(".sv") and not f.endswith("_pkg.sv")]
    return sorted(names)


def main():
    global ROOT
    parser = argparse.ArgumentParser(
        description="Regenerates the measured tables of docs/performance.md and docs/synthesis.md between "
                    "their '<!-- table: NAME -->' and '<!-- end table -->' markers.",
        epilog="tables: " + ", ".join(f"{n} ({p})" for n, (p, _) in TABLES.items()))
    parser.add_argument("--table", action="append", metavar="NAME",
                        help="regenerate this table only (repeatable; default: every table)")
    parser.add_argument("--block", action="append", metavar="BLOCK",
                        help="synthesis-blocks: measure and replace only this block's rows (repeatable; "
                             "BLOCK or BLOCK:PARAM=VALUE as scripts/synth.sh takes it)")
    parser.add_argument("--collnet", default=os.path.join(ROOT, "build", "collnet"),
                        help="the built collnet (default: build/collnet)")
    parser.add_argument("--from-report", metavar="FILE",
                        help="collectives: render this collnet bench --collectives JSON report instead of running "
                             "the bench (e.g. docs/speed-collectives.json)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print each regenerated table instead of writing the page (and the bench report)")
    parser.add_argument("--root", default=ROOT, help="repository root (default: this script's parent folder)")
    args = parser.parse_args()
    ROOT = os.path.abspath(args.root)
    try:
        names = args.table or list(TABLES)
        for name in names:
            if name not in TABLES:
                raise InputError(f"--table {name}: unknown table (accepted: {', '.join(TABLES)})")
        if args.block:
            if names != ["synthesis-blocks"]:
                raise InputError("--block applies to --table synthesis-blocks only")
            blocks = known_blocks()
            for spec in args.block:
                if spec.split(":")[0] not in blocks:
                    raise InputError(f"--block {spec}: no rtl/{spec.split(':')[0]}.sv (accepted: {', '.join(blocks)})")
        if args.from_report and "collectives" not in names:
            raise InputError("--from-report applies to --table collectives only")
        # every page's markers are checked before anything runs
        pages = {}
        for name in names:
            page = TABLES[name][0]
            if page not in pages:
                with open(os.path.join(ROOT, page)) as f:
                    pages[page] = f.read()
            table_body(pages[page], page, name)
        needs_collnet = [n for n in names if n not in ("synthesis-blocks",) and not (n == "collectives" and args.from_report)]
        if needs_collnet and not os.access(args.collnet, os.X_OK):
            raise InputError(f"--collnet {args.collnet}: not an executable (build it: cmake --build build --target "
                             f"collnet); needed by {', '.join(needs_collnet)}")
        for name in names:
            page, make = TABLES[name]
            body = make(args, table_body(pages[page], page, name))
            pages[page] = replace_table(pages[page], page, name, body)
            if args.dry_run:
                print(f"<!-- table: {name} --> ({page})")
                print("\n".join(body))
                print("<!-- end table -->")
            else:
                with open(os.path.join(ROOT, page), "w") as f:
                    f.write(pages[page])
                print(f"doc_tables: {page}: table '{name}' regenerated", file=sys.stderr)
    except InputError as e:
        print(f"doc_tables: error: {e}", file=sys.stderr)
        return 2
    except CommandError as e:
        print(f"doc_tables: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"doc_tables: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
