"""scripts/collnet_plot.py and scripts/collnet_timeline.py on hand-written
inputs (ctest plot_script): what each figure shows is read from the
figure's matplotlib objects, the report written beside it, or the Markdown
table, and compared with values worked out here from the inputs.

The sweep records follow the run JSON of `collnet run` (docs/reference/json.md):
latency statistics are numbers or null, `saturated` says the measurement
window did not drain, `latency_histogram` is {"bin_width": W, "counts": [...]}
with bin i holding the latencies in [i W, (i + 1) W), and a sweep with
`seeds: N` writes one record per seed whose scenario carries its `seed`.
"""
import json
import math
import os
import subprocess
import sys

import pytest

SOURCE = os.environ.get("COLLNET_SOURCE_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPTS = os.path.join(SOURCE, "scripts")
sys.path.insert(0, SCRIPTS)

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402

import collnet_plot  # noqa: E402
import collnet_timeline  # noqa: E402

# Student's t quantile t(0.975, 2), from a printed table of the t distribution
# (two-sided 95 %, 2 degrees of freedom): an expectation independent of scipy.
T_975_2 = 4.302652729911275
T_975_1 = 12.706204736174707


# ---------------------------------------------------------------- helpers

def record(index, point, run, seed=None, status="ok", scenario=None):
    """A sweep record as collnet sweep writes it (scenario values as text)."""
    sc = {"topology": "mesh:4x4", "traffic": "transpose", "measure_cycles": "1000"}
    sc.update({k: str(v) for k, v in point.items()})
    sc.update(scenario or {})
    if seed is not None:
        sc["seed"] = str(seed)
    return {"hash": f"h{index}", "index": index, "point": dict(point), "scenario": sc, "status": status,
            "exit_status": 0 if status == "ok" else 1, "message": "", "run": run}


def synthetic(offered, accepted, avg, saturated=False, histogram=None, p99="twice"):
    return {"traffic": "transpose", "offered_rate": offered, "accepted_rate": accepted, "avg_latency": avg,
            "p99_latency": (None if avg is None else 2 * avg) if p99 == "twice" else p99,
            "saturated": saturated, "completed": not saturated, "latency_histogram": histogram}


def write_jsonl(tmp_path, records, name="results.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def run_script(*args, script="collnet_plot.py"):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, script), *map(str, args)],
                          capture_output=True, text=True)


class Figures:
    """The figures collnet_plot saves, kept for inspection."""

    def __init__(self, monkeypatch):
        self.saved = {}
        original = matplotlib.figure.Figure.savefig

        def keep(fig, path, *a, **k):
            self.saved[os.path.basename(str(path))] = fig
            return original(fig, path, *a, **k)

        monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)


@pytest.fixture
def figures(monkeypatch):
    return Figures(monkeypatch)


def plot_in_process(*args):
    status = collnet_plot.main([str(a) for a in args])
    assert status == 0
    out = args[list(args).index("--out") + 1]
    return json.loads((out / "plot-report.json").read_text())


def entry(report, file):
    matches = [p for p in report["plots"] if p["file"] == file]
    assert len(matches) == 1, [p["file"] for p in report["plots"]]
    return matches[0]


def series_by(entry, label):
    matches = [s for s in entry["series"] if s["label"] == label]
    assert len(matches) == 1, [s["label"] for s in entry["series"]]
    return matches[0]


# ---------------------------------------------------------------- seeds

def seeded_records():
    """Two points (injection_rate 0.1 and 0.2), three seeds each: avg_latency
    1, 2, 3 at 0.1 and 10, 12, 20 at 0.2."""
    recs = []
    for rate, lats in ((0.1, (1.0, 2.0, 3.0)), (0.2, (10.0, 12.0, 20.0))):
        for seed, lat in enumerate(lats, 1):
            recs.append(record(len(recs), {"injection_rate": rate},
                               synthetic(rate, rate - 0.001 * seed, lat), seed=seed))
    return recs


def test_half_width_is_students_t():
    # Values 1, 2, 3: mean 2, sample standard deviation 1.
    assert collnet_plot.confidence_half_width([1, 2, 3]) == pytest.approx(T_975_2 / math.sqrt(3), rel=1e-12)
    assert collnet_plot.confidence_half_width([1, 2, 3]) == pytest.approx(2.484, abs=5e-4)
    # Two values 10, 12: s = sqrt(2), half-width t(0.975, 1) * sqrt(2) / sqrt(2).
    assert collnet_plot.confidence_half_width([10, 12]) == pytest.approx(T_975_1, rel=1e-9)
    assert collnet_plot.confidence_half_width([5]) is None


def test_seeds_are_one_point_drawn_as_mean_with_confidence_interval(tmp_path, figures):
    results = write_jsonl(tmp_path, seeded_records())
    report = plot_in_process(results, "--y", "avg_latency", "--out", tmp_path / "out")
    e = entry(report, "avg_latency_vs_injection_rate.png")
    assert e["seeds"] == 3
    assert len(e["series"]) == 1  # the seed is not a series
    s = e["series"][0]
    assert s["x"] == [0.1, 0.2]
    assert s["y"] == pytest.approx([2.0, 14.0])
    assert s["n"] == [3, 3]
    # 10, 12, 20: mean 14, s^2 = (16 + 4 + 36) / 2 = 28.
    assert s["ci"] == pytest.approx([T_975_2 / math.sqrt(3), T_975_2 * math.sqrt(28) / math.sqrt(3)])
    assert "mean of 3 seeds per point, 95 % confidence interval (Student t)" in e["title"].replace("\n", " ")
    assert "seed=" not in e["title"]
    # The figure: one data line through the means and the error bars' ends.
    ax = figures.saved["avg_latency_vs_injection_rate.png"].axes[0]
    (container,) = ax.containers
    assert list(container.lines[0].get_ydata()) == pytest.approx([2.0, 14.0])
    ends = sorted((seg[0][1], seg[1][1]) for seg in container.lines[2][0].get_segments())
    assert ends[0] == pytest.approx((2 - T_975_2 / math.sqrt(3), 2 + T_975_2 / math.sqrt(3)))


def test_table_gives_mean_half_width_and_n(tmp_path):
    results = write_jsonl(tmp_path, seeded_records())
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("seeds: 3\nbase: {topology: mesh:4x4}\naxes:\n  injection_rate: [0.1, 0.2]\n"
                     "table:\n  rows: [injection_rate]\n  cell: \"{avg_latency:.2f}\"\n")
    r = run_script(results, "--sweep", sweep, "--table")
    assert r.returncode == 0, r.stderr
    half = T_975_2 / math.sqrt(3)
    assert r.stdout == ("| injection_rate | value |\n|---|---|\n"
                        f"| 0.1 | 2.00 ± {half:.2f} (n=3) |\n"
                        f"| 0.2 | 14.00 ± {T_975_2 * math.sqrt(28 / 3):.2f} (n=3) |\n")
    assert f"{half:.2f}" == "2.48"


def test_seed_named_on_an_axis_keeps_the_seeds_apart(tmp_path):
    results = write_jsonl(tmp_path, seeded_records())
    report = plot_in_process(results, "--y", "avg_latency", "--by", "seed", "--out", tmp_path / "out")
    e = entry(report, "avg_latency_vs_injection_rate.png")
    assert e["seeds"] == 1
    assert {s["label"]: s["y"] for s in e["series"]} == {"1": [1.0, 10.0], "2": [2.0, 12.0], "3": [3.0, 20.0]}


# ---------------------------------------------------------------- saturation and null

def load_records():
    """vcs 1 and 2 at rates 0.1 .. 0.4; vcs=1 saturates at 0.4 (latency still
    a number in the JSON: it must not be drawn), vcs=2 measured no packet at
    0.1 (latency null: not a 0)."""
    recs = []
    for vcs in (1, 2):
        for rate in (0.1, 0.2, 0.3, 0.4):
            sat = vcs == 1 and rate == 0.4
            avg = None if (vcs == 2 and rate == 0.1) else 10 + 100 * rate + vcs
            recs.append(record(len(recs), {"injection_rate": rate, "vcs": vcs},
                               synthetic(rate, 0.3 if sat else rate, avg if not sat else 999.0, saturated=sat)))
    return recs


def test_saturated_points_are_marked_not_drawn_as_latency(tmp_path, figures):
    results = write_jsonl(tmp_path, load_records())
    report = plot_in_process(results, "--out", tmp_path / "out")
    lat = entry(report, "avg_latency_vs_injection_rate.png")
    one, two = series_by(lat, "1"), series_by(lat, "2")
    assert one["x"] == [0.1, 0.2, 0.3] and one["saturated"] == [0.4]
    assert 999.0 not in one["y"]
    assert one["y"] == pytest.approx([21, 31, 41])
    # null: not drawn (not a 0), listed as missing.
    assert two["x"] == [0.2, 0.3, 0.4] and two["missing"] == [0.1] and two["saturated"] == []
    assert 0 not in two["y"]
    assert "saturated (no latency drawn)" in lat["legend"]
    # The figure: the saturated point is an x at the top of the axes (y in
    # axes coordinates), off the data line, whose y there is NaN.
    ax = figures.saved["avg_latency_vs_injection_rate.png"].axes[0]
    marks = [l for l in ax.lines if l.get_marker() == "x"]
    assert len(marks) == 1
    assert list(marks[0].get_xdata()) == [0.4] and list(marks[0].get_ydata()) == [1.0]
    assert marks[0].get_transform() == ax.get_xaxis_transform()
    data_line = [l for l in ax.lines if l.get_label() == "1"][0]
    assert math.isnan(list(data_line.get_ydata())[3])
    assert max(ax.get_ylim()) < 999.0

    # Throughput of a saturated point is a measurement: on the line, hollow.
    acc = entry(report, "accepted_rate_vs_injection_rate.png")
    one = series_by(acc, "1")
    assert one["x"] == [0.1, 0.2, 0.3, 0.4] and one["y"] == pytest.approx([0.1, 0.2, 0.3, 0.3])
    assert one["saturated"] == [0.4]
    assert "saturated" in acc["legend"]
    ax = figures.saved["accepted_rate_vs_injection_rate.png"].axes[0]
    hollow = [l for l in ax.lines if l.get_markerfacecolor() == "white"]
    assert len(hollow) == 1 and list(hollow[0].get_xdata()) == [0.4]


def test_table_says_saturated_and_null(tmp_path):
    results = write_jsonl(tmp_path, load_records())
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("base: {}\naxes: {}\ntable:\n  rows: [injection_rate]\n  columns: vcs\n"
                     "  cell: \"{accepted_rate:.2f}{saturated_mark} | {avg_latency:.1f}\"\n")
    r = run_script(results, "--sweep", sweep, "--table")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[2] == "| 0.1 | 0.10 | 21.0 | 0.10 | n/a |"
    assert lines[5] == "| 0.4 | 0.30 (saturated) | saturated | 0.40 | 52.0 |"


def test_x_may_be_the_offered_or_accepted_rate(tmp_path):
    # Transpose offers less than the injection rate (no self-packets); two seeds each.
    recs = []
    for rate in (0.2, 0.4):
        for seed, off in ((1, rate * 0.75), (2, rate * 0.75 + 0.01)):
            recs.append(record(len(recs), {"injection_rate": rate},
                               synthetic(off, off, 20 * rate + seed), seed=seed))
    results = write_jsonl(tmp_path, recs)
    report = plot_in_process(results, "--x", "offered_rate", "--y", "avg_latency", "--out", tmp_path / "out")
    e = entry(report, "avg_latency_vs_offered_rate.png")
    assert e["x_label"] == "offered load (flits/node/cycle)"
    assert len(e["series"]) == 1  # not one series per injection rate
    assert e["series"][0]["x"] == pytest.approx([0.155, 0.305])  # the mean over the seeds
    assert e["series"][0]["y"] == pytest.approx([5.5, 9.5])
    report = plot_in_process(results, "--x", "accepted_rate", "--y", "avg_latency", "--out", tmp_path / "acc")
    assert entry(report, "avg_latency_vs_accepted_rate.png")["x_label"] == "accepted throughput (flits/node/cycle)"


def test_physical_fields_are_axes_with_their_units(tmp_path):
    # Collective records as collnet run writes them (docs/reference/json.md):
    # bus bandwidth (GB/s) against the time (ns) of two message sizes, one
    # line per clock; the values drawn are the records' own.
    recs = []
    for clock in (1.0, 2.0):
        for flits, cycles in ((64, 1000), (128, 1900)):
            time_ns = cycles / clock
            busbw = flits * 8 * 1.5 / time_ns
            recs.append(record(len(recs), {"message_flits": flits, "clock_ghz": clock},
                               {"algorithm": "ring-allreduce", "cycles": cycles, "time_ns": time_ns,
                                "bus_bandwidth_gbps": busbw, "efficiency": 0.9},
                               scenario={"algorithm": "ring-allreduce"}))
    results = write_jsonl(tmp_path, recs)
    report = plot_in_process(results, "--x", "time_ns", "--y", "bus_bandwidth_gbps", "--by", "clock_ghz",
                             "--out", tmp_path / "out")
    e = entry(report, "bus_bandwidth_gbps_vs_time_ns.png")
    assert e["x_label"] == "completion time (ns)"
    assert e["y_label"] == "bus bandwidth (GB/s)"
    assert series_by(e, "2.0")["x"] == pytest.approx([500.0, 950.0])
    assert series_by(e, "2.0")["y"] == pytest.approx([64 * 12 / 500.0, 128 * 12 / 950.0])


# ---------------------------------------------------------------- energy

def energy_run(parts, static=None):
    """A collective run's JSON with an energy object (docs/reference/json.md)."""
    static = static or {}
    by = {n: {"dynamic_pj": d, "static_pj": static.get(n, 0.0), "total_pj": d + static.get(n, 0.0)}
          for n, d in parts.items()}
    total = sum(p["total_pj"] for p in by.values())
    return {"algorithm": "ring-allreduce", "topology": "torus:4x4", "cycles": 100,
            "energy": {"technology": {"name": "45nm", "file": "t.yaml", "node_nm": 45}, "total_pj": total,
                       "dynamic_pj": sum(parts.values()), "static_pj": total - sum(parts.values()),
                       "by_component": by}}


def test_energy_breakdown_draws_each_component_dynamic_and_static(tmp_path, figures):
    run = energy_run({"buffer": 30.0, "crossbar": 20.0, "link": 50.0}, static={"buffer": 10.0})
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    report = plot_in_process("--energy", path, "--out", tmp_path / "out")
    e = entry(report, "energy.png")
    assert e["components"] == ["link", "buffer", "crossbar"]  # largest first
    assert e["total_pj"] == pytest.approx(110.0)
    ax = figures.saved["energy.png"].axes[0]
    widths = {(round(b.get_y() + b.get_height() / 2), b.get_x()): b.get_width() for b in ax.patches}
    # bars at y 0, 1, 2 (link, buffer, crossbar): dynamic from 0, static after it
    assert widths[(0, 0.0)] == pytest.approx(50.0)
    assert widths[(1, 0.0)] == pytest.approx(30.0)
    assert widths[(1, 30.0)] == pytest.approx(10.0)
    assert widths[(2, 0.0)] == pytest.approx(20.0)


def test_energy_sweep_fields_are_axes_with_their_units(tmp_path):
    recs = [record(i, {"elements": n}, {"algorithm": "ring-allreduce", "cycles": 10 * n,
                                        "energy": {"total_pj": 3.0 * n, "pj_per_byte": 0.5}},
                   scenario={"algorithm": "ring-allreduce"}) for i, n in enumerate((64, 128))]
    report = plot_in_process(write_jsonl(tmp_path, recs), "--x", "elements", "--y", "energy.total_pj",
                             "--out", tmp_path / "out")
    e = entry(report, "energy_total_pj_vs_elements.png")
    assert e["y_label"] == "energy (pJ)"
    assert e["series"][0]["y"] == pytest.approx([192.0, 384.0])


def test_energy_of_a_run_without_technology_exits_2(tmp_path):
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"algorithm": "ring-allreduce", "topology": "torus:4x4", "energy": None}))
    r = run_script("--energy", path, "--out", tmp_path / "out")
    assert r.returncode == 2
    assert "--energy" in r.stderr and "technology" in r.stderr


# ---------------------------------------------------------------- CDF

def test_cdf_pools_the_seeds_and_leaves_out_saturated_points(tmp_path, figures):
    recs = [
        record(0, {"injection_rate": 0.1}, synthetic(0.1, 0.1, 3, histogram={"bin_width": 2, "counts": [1, 2, 1]}), 1),
        record(1, {"injection_rate": 0.1}, synthetic(0.1, 0.1, 3, histogram={"bin_width": 2, "counts": [0, 2, 2]}), 2),
        # bin width 4: its edges 0, 4, 8 meet the others' at 0 and 4.
        record(2, {"injection_rate": 0.2}, synthetic(0.2, 0.2, 5, histogram={"bin_width": 4, "counts": [3, 1]}), 1),
        record(3, {"injection_rate": 0.2}, synthetic(0.2, 0.2, 5, histogram={"bin_width": 2, "counts": [1, 1, 2]}), 2),
        record(4, {"injection_rate": 0.5}, synthetic(0.5, 0.3, 90, saturated=True,
                                                     histogram={"bin_width": 2, "counts": [0, 0, 5]}), 1),
        record(5, {"injection_rate": 0.3}, synthetic(0.3, 0.3, None, histogram=None), 1),
    ]
    results = write_jsonl(tmp_path, recs)
    report = plot_in_process(results, "--cdf", "--out", tmp_path / "out")
    e = entry(report, "latency_cdf.png")
    assert e["kind"] == "cdf"
    low, mid = series_by(e, "0.1"), series_by(e, "0.2")
    # Seeds pooled: counts 1+0, 2+2, 1+2 of 8 packets below 2, 4, 6.
    assert low["x"] == [0, 2, 4, 6] and low["y"] == pytest.approx([0, 1 / 8, 5 / 8, 1])
    assert low["packets"] == 8 and low["runs"] == 2
    # At the common edges 0, 4, 8 exact: below 4: 3 + 2 = 5 of 8.
    assert dict(zip(mid["x"], mid["y"]))[4] == pytest.approx(5 / 8)
    assert dict(zip(mid["x"], mid["y"]))[8] == pytest.approx(1.0)
    assert e["saturated"] == ["0.5"] and e["missing"] == ["0.3"]
    assert e["x_label"] == "latency (cycles)"
    ax = figures.saved["latency_cdf.png"].axes[0]
    assert sorted(l.get_label() for l in ax.lines) == ["0.1", "0.2"]


# ---------------------------------------------------------------- link maps

def link_run(per_link, topology="graph:net.yaml", positions=None):
    lu = {"mean": sum(per_link.values()) / len(per_link), "max": max(per_link.values()), "per_link": per_link}
    if positions:
        lu["node_positions"] = positions
    return {"topology": topology, "algorithm": "a2a-optimal", "link_utilization": lu}


FREE_NAMES = {"core-1:0->rack.a": 0.5, "rack.a:0->core-1": 0.25, "rack.a:1->host_2": 0.125,
              "host_2:0->rack.a": 0.0}


def test_free_node_names_draw_with_their_nodes(tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(link_run(FREE_NAMES)))
    report = plot_in_process("--links", run, "--out", tmp_path / "out")
    e = report["plots"][0]
    assert e["layout"] == "bars"
    cells = {c["link"]: c for p in e["panels"] for c in p["cells"]}
    assert {k: c["value"] for k, c in cells.items()} == FREE_NAMES
    assert {k: c["node"] for k, c in cells.items()} == {k: k.split(":")[0] for k in FREE_NAMES}

    positions = {"core-1": [0, 1], "rack.a": [0, 0], "host_2": [1, 0]}
    run.write_text(json.dumps(link_run(FREE_NAMES, positions=positions)))
    report = plot_in_process("--links", run, "--out", tmp_path / "pos")
    e = report["plots"][0]
    assert e["layout"] == "positions"
    for c in e["panels"][0]["cells"]:
        src, dst = c["link"].split(":")[0], c["link"].split("->")[1]
        assert c["node"] == src and c["to"] == dst
        assert c["from_xy"] == positions[src] and c["to_xy"] == positions[dst]


def test_link_names_split_at_the_first_colon_and_the_last_arrow():
    assert collnet_plot.split_link_name("r1:x-->r0") == ("r1", "x-", "r0")
    assert collnet_plot.split_link_name("core-1:12->rack.a-b") == ("core-1", "12", "rack.a-b")
    for bad in ("r1->r0", "r1:x->", ":0->r0", "r1:zz->r0", "r1:0-r0"):
        assert collnet_plot.split_link_name(bad) is None, bad


def test_colour_scale_is_absolute_unless_relative(tmp_path, figures):
    per_link = {f"r{i}:x+->r{i + 1}": 0.1 * (i + 1) for i in range(3)}
    per_link.update({f"r{i + 1}:x-->r{i}": 0.05 for i in range(3)})
    run = tmp_path / "run.json"
    run.write_text(json.dumps(link_run(per_link, topology="mesh:4x1")))
    for option, top, words in ((None, 1.0, "absolute scale: 0 to 1"),
                               ("--relative", 0.3, "relative scale: 0 to the busiest link, 0.3")):
        out = tmp_path / (option or "absolute").strip("-")
        report = plot_in_process("--links", run, "--out", out, *([option] if option else []))
        e = report["plots"][0]
        assert e["layout"] == "grid"
        assert e["colour_scale"]["relative"] == (option is not None)
        assert e["colour_scale"]["colour_bar"]["max"] == pytest.approx(top)
        assert e["colour_scale"]["colour_bar"]["min"] == 0
        assert words in e["colour_scale"]["colour_bar"]["label"]
        # The image itself: the norm of every panel's cells.
        fig = figures.saved[e["file"]]
        images = [im for ax in fig.axes for im in ax.get_images()]
        assert images and all(im.norm.vmax == pytest.approx(top) and im.norm.vmin == 0 for im in images)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("args,words", [
    (["RESULTS", "--relative", "--out", "OUT"], "--relative goes with --links"),
    (["RESULTS", "--cdf", "--x", "offered_rate", "--out", "OUT"], "--x does not apply to --cdf"),
    (["RESULTS", "--cdf", "--y", "avg_latency", "--out", "OUT"], "--y does not apply to --cdf"),
    (["--links", "RUN", "--cdf", "--out", "OUT"], "--cdf does not apply to --links"),
    (["BADHIST", "--cdf", "--out", "OUT"], "--cdf: record 0: latency_histogram: bin_width 0"),
    (["NOHIST", "--cdf", "--out", "OUT"], "--cdf: no unsaturated point"),
])
def test_bad_options_exit_2_naming_the_option(tmp_path, args, words):
    good = write_jsonl(tmp_path, load_records())
    bad = write_jsonl(tmp_path, [record(0, {"injection_rate": 0.1},
                                        synthetic(0.1, 0.1, 3, histogram={"bin_width": 0, "counts": [1]}))], "bad.jsonl")
    none = write_jsonl(tmp_path, load_records(), "none.jsonl")
    run = tmp_path / "run.json"
    run.write_text(json.dumps(link_run(FREE_NAMES)))
    names = {"RESULTS": good, "BADHIST": bad, "NOHIST": none, "RUN": str(run), "OUT": str(tmp_path / "out")}
    r = run_script(*[names.get(a, a) for a in args])
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("collnet plot: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- timeline

def write_trace(tmp_path, tags, links):
    rows = ["message,src,dst,controller,tag,words,inject_cycle,first_arrival_cycle,deliver_cycle,hops"]
    for m in range(2 * tags):
        rows.append(f"{m},{m % 4},{(m + 1) % 4},0,{m % tags},4,{3 * m},{3 * m + 2},{3 * m + 5},1")
    (tmp_path / "t.csv").write_text("\n".join(rows) + "\n")
    lrows = ["link,from,to,start_cycle,end_cycle,flits"]
    for name in links:
        lrows.append(f"{name},{name.split(':')[0]},{name.split('->')[1]},0,3,4")
    (tmp_path / "t.links.csv").write_text("\n".join(lrows) + "\n")
    return tmp_path / "t.csv"


@pytest.mark.parametrize("tags,links", [(7, 12), (45, 130)])
def test_timeline_names_every_link_row_and_tells_tags_apart(tmp_path, tags, links):
    names = [f"core-{i}:{i % 3}->rack.{i % 5}" for i in range(links)]
    trace = write_trace(tmp_path, tags, names)
    r = run_script("--timeline", trace, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 0, r.stderr
    d = json.loads((tmp_path / "out" / "timeline.json").read_text())
    # Every row of the link panel carries its link's name, in the file's order.
    assert d["link_rows"] == {str(i): n for i, n in enumerate(names)}
    # Every tag drawn with its own colour and hatch, and named in the legend.
    styles = d["styles"]
    assert sorted(styles, key=int) == [str(t) for t in range(tags)]
    assert len({(tuple(s["colour"]), s["hatch"]) for s in styles.values()}) == tags
    assert all(s["bars"] == 2 for s in styles.values())
    assert d["legend"] == [f"tag {t}" for t in range(tags)]
    if tags <= len(collnet_timeline.PALETTE):
        assert all(s["hatch"] == "" for s in styles.values())
        assert len({tuple(s["colour"]) for s in styles.values()}) == tags


def test_timeline_names_every_kth_row_of_a_very_long_link_list(tmp_path):
    names = [f"r{i}:0->r{i + 1}" for i in range(collnet_timeline.MAX_NAMED_LINKS * 2 + 1)]
    trace = write_trace(tmp_path, 3, names)
    r = run_script("--timeline", trace, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 0, r.stderr
    rows = json.loads((tmp_path / "out" / "timeline.json").read_text())["link_rows"]
    assert rows == {str(i): names[i] for i in range(0, len(names), 3)}


# ------------------------------------------------- workload timeline (Chrome JSON)

def chrome_trace(ranks, threads=1):
    """A workload timeline as collnet run --timeline-json writes it: per rank
    a process_name event, then its nodes (a compute node, a collective on
    thread 1 when threads > 1, a signal of no duration)."""
    events = []
    for r in range(ranks):
        events.append({"ph": "M", "name": "process_name", "pid": r, "args": {"name": f"rank {r}"}})
        events.append({"ph": "X", "name": "fwd", "cat": "COMP_NODE", "pid": r, "tid": 0, "ts": 0.0, "dur": 2.0})
        events.append({"ph": "X", "name": "ar", "cat": "COMM_COLL_NODE", "pid": r, "tid": min(1, threads - 1),
                       "ts": 1.0 + r, "dur": 3.0})
        events.append({"ph": "X", "name": "meta", "cat": "METADATA_NODE", "pid": r, "tid": 0, "ts": 0.0, "dur": 0.0})
    return {"traceEvents": events, "displayTimeUnit": "ns"}


@pytest.mark.parametrize("threads", [1, 2])
def test_workload_timeline_draws_ranks_as_rows_and_kinds_as_colours(tmp_path, threads):
    path = tmp_path / "w.json"
    path.write_text(json.dumps(chrome_trace(3, threads)))
    r = run_script("--timeline", path, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 0, r.stderr
    assert os.path.getsize(tmp_path / "out" / "timeline.png") > 0
    d = json.loads((tmp_path / "out" / "timeline.json").read_text())
    assert d["bars"] == 9
    # The last node ends at rank 2's collective: 1 + 2 + 3 us.
    assert d["end_us"] == pytest.approx(6.0)
    assert d["ranks"] == {f"rank {i}": {"bars": 3, "lanes": threads} for i in range(3)}
    assert sorted(d["kinds"]) == ["COMM_COLL_NODE", "COMP_NODE", "METADATA_NODE"]
    assert all(k["bars"] == 3 for k in d["kinds"].values())
    assert len({tuple(k["colour"]) for k in d["kinds"].values()}) == 3
    assert d["legend"] == sorted(d["kinds"])


def test_workload_timeline_draws_the_links_load_below(tmp_path):
    trace = chrome_trace(2)
    links = ["r10:x+->r11", "r2:y-->r0", "r1:x+->r2"]
    trace["traceEvents"].append({"ph": "M", "name": "process_name", "pid": 2, "args": {"name": "links"}})
    for k, name in enumerate(links):
        for b in range(4):
            trace["traceEvents"].append({"ph": "C", "name": name, "pid": 2, "ts": 1.5 * b,
                                         "args": {"busy": (k + b) / 10}})
    path = tmp_path / "w.json"
    path.write_text(json.dumps(trace))
    r = run_script("--timeline", path, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 0, r.stderr
    d = json.loads((tmp_path / "out" / "timeline.json").read_text())
    # One heat-map row a link, in the order of the numbers in their names, four bins each.
    assert list(d["links"]) == ["r1:x+->r2", "r2:y-->r0", "r10:x+->r11"]
    assert all(n == 4 for n in d["links"].values())
    # The counters' process is no rank.
    assert sorted(d["ranks"]) == ["rank 0", "rank 1"]


def test_workload_timeline_refuses_what_is_not_one(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"events": []}))
    r = run_script("--timeline", bad, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 2 and "no list 'traceEvents'" in r.stderr
    bad.write_text(json.dumps({"traceEvents": [{"ph": "X", "pid": 0, "ts": "soon", "dur": 1}]}))
    r = run_script("--timeline", bad, "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 2 and "event 0" in r.stderr and "'ts'" in r.stderr
    good = tmp_path / "good.json"
    good.write_text(json.dumps(chrome_trace(1)))
    r = run_script("--timeline", good, "--bins", "5", "--out", tmp_path / "out", script="collnet_timeline.py")
    assert r.returncode == 2 and "--bins: goes with a message trace" in r.stderr
