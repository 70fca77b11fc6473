"""The files a run writes from Python (run(..., vcd=, trace=, trace_links=,
json=)) are those `collnet run --vcd FILE --trace FILE.csv --trace-links
--json FILE` writes for the same scenario: the JSON report field for field
(timing fields aside), the waveform, its GTKWave save file and the traces
byte for byte. The waveform is also read here, independently of collnet's
writer: its header parses as a VCD (IEEE 1364-2005, 18.2) and every signal
of the save file is a variable it declares."""
import json
import pathlib
import re
import subprocess

import pytest

import collnet
from support import BINARY, SMALL_RUN, sets, without_timing

FILES = ["run.json", "run.vcd", "run.vcd.gtkw", "run.csv", "run.links.csv"]


def read_vcd(path):
    """The variables a VCD file declares ({id: (hierarchical name, width)})
    and its last time, checking its structure: declarations closed by $end,
    scopes balanced, $enddefinitions, then times that only grow and value
    changes of declared variables only."""
    tokens = path.read_text().split()
    variables, scope, i, seen = {}, [], 0, set()
    while True:
        assert i < len(tokens), "no $enddefinitions"
        keyword = tokens[i]
        assert keyword.startswith("$"), f"token {i}: {keyword!r} outside a declaration"
        end = tokens.index("$end", i + 1)
        body = tokens[i + 1:end]
        seen.add(keyword)
        if keyword == "$scope":
            assert len(body) == 2 and body[0] in ("module", "task", "function", "begin", "fork"), body
            scope.append(body[1])
        elif keyword == "$upscope":
            assert scope and not body
            scope.pop()
        elif keyword == "$var":
            kind, width, ident, name = body[:4]
            assert kind in ("wire", "reg", "integer", "event", "real", "parameter"), body
            assert ident not in variables, f"identifier {ident} declared twice"
            variables[ident] = (".".join(scope + [name]), int(width))
        elif keyword == "$enddefinitions":
            i = end + 1
            break
        i = end + 1
    assert not scope, f"scopes left open: {scope}"
    assert {"$timescale", "$scope", "$var"} <= seen
    last = -1
    while i < len(tokens):
        t = tokens[i]
        if t.startswith("#"):
            assert int(t[1:]) > last, f"time {t} after #{last}"
            last = int(t[1:])
        elif t in ("$dumpvars", "$end", "$dumpall", "$dumpon", "$dumpoff"):
            pass
        elif t[0] in "bBrR":
            i += 1
            assert tokens[i] in variables, f"value change of undeclared {tokens[i]}"
            assert len(t) - 1 <= variables[tokens[i]][1]
        else:
            assert t[0] in "01xXzZ" and t[1:] in variables, f"bad value change {t!r}"
        i += 1
    return variables, last


def gtkw_signals(path):
    """The signals a GTKWave save file shows: (hierarchical name, width)."""
    signals = []
    for line in path.read_text().splitlines():
        line = re.sub(r"^\+\{[^}]*\} ", "", line)
        if not line.startswith("network."):
            continue
        m = re.fullmatch(r"(.*)\[(\d+):(\d+)\]", line)
        signals.append((m.group(1), int(m.group(2)) - int(m.group(3)) + 1) if m else (line, 1))
    return signals


def check_waveform(vcd, gtkw, given):
    """`vcd` parses, every signal `gtkw` shows is one of its variables, and
    `gtkw` opens it by the path it was `given` as."""
    variables, last = read_vcd(vcd)
    declared = set(variables.values())
    shown = gtkw_signals(gtkw)
    assert shown and all(s in declared for s in shown), [s for s in shown if s not in declared][:5]
    assert re.search(r'^\[dumpfile\] "' + re.escape(str(given)) + '"$', gtkw.read_text(), re.M)
    return last


@pytest.fixture
def cli_files(tmp_path_factory):
    """`collnet run --vcd --trace --trace-links --json` of SMALL_RUN, run in a
    directory of its own with relative file names."""
    d = tmp_path_factory.mktemp("cli")
    r = subprocess.run([BINARY, "run", *sets(SMALL_RUN), "--vcd", "run.vcd", "--trace", "run.csv", "--trace-links",
                        "--json", "run.json"], cwd=d, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return d


def test_run_writes_the_files_the_cli_writes(cli_files, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the same relative names, so the reports name the same files
    got = collnet.run(SMALL_RUN, vcd="run.vcd", trace=pathlib.Path("run.csv"), trace_links=True, json="run.json")
    written = json.loads((tmp_path / "run.json").read_text())
    expected = json.loads((cli_files / "run.json").read_text())
    assert list(written) == list(expected)
    assert without_timing(written) == without_timing(expected)
    assert without_timing(got) == without_timing(written)
    assert written["vcd"] == {"file": "run.vcd", "gtkw": "run.vcd.gtkw"}
    assert written["trace"]["file"] == "run.csv" and written["trace"]["links_file"] == "run.links.csv"
    # The JSON text too, but for the timing values.
    timing = re.compile(r'^(\s*"(?:' + "|".join(["sim_seconds", "sim_cpu_seconds", "elaboration_seconds",
                                                  "router_cycles_per_second", "router_cycles_per_cpu_second",
                                                  "write_seconds"]) + r')": ).*$', re.M)
    assert timing.sub(r"\1T", (tmp_path / "run.json").read_text()) == \
        timing.sub(r"\1T", (cli_files / "run.json").read_text())
    for name in FILES[1:]:
        assert (tmp_path / name).read_bytes() == (cli_files / name).read_bytes(), name
    last = check_waveform(tmp_path / "run.vcd", tmp_path / "run.vcd.gtkw", "run.vcd")
    assert last >= got["cycles"] - 1
    rows = (tmp_path / "run.csv").read_text().splitlines()
    # One row per message that moved data (docs/guide/traces.md).
    assert len(rows) == 1 + got["messages"] + got["local_copies"] == 1 + written["trace"]["messages"]


def test_synthetic_run_waveform_and_check_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scenario = {"topology": "mesh:3x3", "traffic": "uniform", "warmup_cycles": 0, "measure_cycles": 200}
    r = collnet.run(scenario, vcd=tmp_path / "s.vcd", json=tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text()) == r
    assert r["vcd"]["file"] == str(tmp_path / "s.vcd")
    check_waveform(tmp_path / "s.vcd", tmp_path / "s.vcd.gtkw", tmp_path / "s.vcd")

    check = {"topology": "torus:4x4", "algorithm": "a2a-hopgroup", "message_flits": 4}
    subprocess.run([BINARY, "check", *sets(check), "--json", "cli.json"], check=True, capture_output=True, timeout=120)
    got = collnet.check(check, json="check.json")
    written = json.loads((tmp_path / "check.json").read_text())
    assert written == got
    assert without_timing(written) == without_timing(json.loads((tmp_path / "cli.json").read_text()))


def test_run_schedule_writes_its_files(tmp_path):
    s = collnet.Schedule(4, name="ring-py")
    for k in range(3):
        for r in range(4):
            s.send(r, (r + 1) % 4, src_offset=((r - k) % 4) * 2, dst_offset=((r - k) % 4) * 2, words=2, tag=k)
        for r in range(4):
            s.wait(r, k)
    got = collnet.run_schedule(s, topology="torus:2x2", vcd=tmp_path / "s.vcd", trace=tmp_path / "s.csv",
                               trace_links=True, json=tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text()) == got
    assert got["data_check"] == "pass" and got["messages"] == 12
    assert got["trace"]["messages"] == 12 and got["trace"]["links_file"] == str(tmp_path / "s.links.csv")
    assert len((tmp_path / "s.csv").read_text().splitlines()) == 1 + 12
    assert len((tmp_path / "s.links.csv").read_text().splitlines()) == 1 + got["trace"]["link_intervals"]
    check_waveform(tmp_path / "s.vcd", tmp_path / "s.vcd.gtkw", tmp_path / "s.vcd")


def test_deadlocked_run_still_writes_its_report(tmp_path):
    # As `collnet run --json` on exit status 3: the report is written, and
    # it is the result DeadlockError carries.
    s = collnet.Schedule(4)
    s.send(0, 1, src_offset=0, dst_offset=0, words=1)
    s.wait(1, 5)
    with pytest.raises(collnet.DeadlockError) as e:
        collnet.run_schedule(s, topology="torus:2x2", json=tmp_path / "d.json")
    assert e.value.result is not None and e.value.result["completed"] is False
    assert json.loads((tmp_path / "d.json").read_text()) == e.value.result
