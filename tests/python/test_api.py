"""The Python module collnet against the collnet executable: the same
scenario through both gives the same JSON report, field for field (timing
fields aside); bad input raises collnet.ConfigError with the CLI's message;
schedules written in Python run on the cycle-accurate network.

Run by ctest (python_api): PYTHONPATH holds the built module, COLLNET_BINARY
the built collnet, COLLNET_SOURCE_DIR the source tree."""
import json
import os
import subprocess
import sys

import pytest

import collnet
from support import BINARY, SMALL_RUN, SOURCE, cli, sets, without_timing


def test_run_matches_cli(tmp_path):
    expected = cli(["run", *sets(SMALL_RUN)], tmp_path)
    got = collnet.run(SMALL_RUN)
    assert set(got) == set(expected)
    assert without_timing(got) == without_timing(expected)
    assert got["data_check"] == "pass" and got["cycles"] > 0


def test_synthetic_run_matches_cli(tmp_path):
    scenario = {"topology": "mesh:4x4", "traffic": "uniform", "injection_rate": 0.1, "warmup_cycles": 100,
                "measure_cycles": 500}
    expected = cli(["run", *sets(scenario)], tmp_path)
    got = collnet.run(scenario)
    assert without_timing(got) == without_timing(expected)
    assert got["measured_packets"] > 0


def test_several_runs_in_one_process():
    a = collnet.run(SMALL_RUN)
    b = collnet.run(dict(SMALL_RUN, message_flits=16))
    c = collnet.run(SMALL_RUN)
    assert without_timing(a) == without_timing(c)
    assert b["cycles"] > a["cycles"]


def test_a_reports_scenario_runs_again_as_with_cli_from(tmp_path):
    # None leaves a key at its default, as `--from` leaves out the report's
    # null values: the scenario a report records runs the same run again.
    r = collnet.run(SMALL_RUN, json=tmp_path / "first.json")
    assert None in r["scenario"].values()
    again = cli(["run", "--from", str(tmp_path / "first.json")], tmp_path)
    got = collnet.run(r["scenario"])
    assert without_timing(got) == without_timing(again) == without_timing(r)
    assert without_timing(collnet.run(dict(SMALL_RUN, routing=None))) == without_timing(r)


def test_check_matches_cli(tmp_path):
    scenario = {"topology": "torus:4x4", "algorithm": "a2a-hopgroup", "message_flits": 4}
    expected = cli(["check", *sets(scenario)], tmp_path)
    got = collnet.check(scenario)
    assert without_timing(got) == without_timing(expected)
    assert got["data_check"] == "pass" and got["nodes"] == 16


@pytest.mark.parametrize("scenario", [
    {"topology": "torus:4x4", "bogus_key": 1},
    {"topology": "torus:4x4", "algorithm": "a2a-optimal", "nct": 99},
    {"topology": "ring:abc", "algorithm": "a2a-spread"},
    {"topology": "torus:4x4", "algorithm": "a2a-spread", "clock_ghz": 0},
    {"topology": "torus:4x4", "traffic": "uniform", "flit_bytes": -8},
])
def test_bad_input_raises_config_error_with_the_cli_message(scenario, tmp_path):
    r = subprocess.run([BINARY, "run", *sets(scenario)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr.startswith("collnet run: error: ")
    with pytest.raises(collnet.ConfigError) as e:
        collnet.run(scenario)
    assert str(e.value) == r.stderr[len("collnet run: error: "):].rstrip("\n")
    assert isinstance(e.value, ValueError)


def test_units_keys_pass_through(tmp_path):
    # clock_ghz and flit_bytes reach the run as from the command line: the
    # same report as the CLI's, the time halved at twice the clock.
    scenario = dict(SMALL_RUN, clock_ghz=2, flit_bytes=16)
    expected = cli(["run", *sets(scenario)], tmp_path)
    got = collnet.run(scenario)
    assert without_timing(got) == without_timing(expected)
    assert got["time_ns"] == got["cycles"] / 2
    assert got["link_gbps"] == 32
    assert got["scenario"]["clock_ghz"] == 2 and got["scenario"]["flit_bytes"] == 16
    checked = collnet.check(dict(SMALL_RUN, clock_ghz=2))
    assert checked["static_time_ns"] == checked["static_time"] / 2


def test_check_bad_key_message(tmp_path):
    r = subprocess.run([BINARY, "check", "--set", "vcs_typo=2"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("collnet check: error: ")
    with pytest.raises(collnet.ConfigError) as e:
        collnet.check({"vcs_typo": 2})
    assert str(e.value) == r.stderr[len("collnet check: error: "):].rstrip("\n")


def test_non_scalar_value_raises_config_error():
    with pytest.raises(collnet.ConfigError, match="key 'vcs'"):
        collnet.run({"vcs": [1, 2]})


SWEEP = {"base": {"topology": "torus:4x4", "algorithm": "a2a-spread"},
         "axes": {"message_flits": [2, 4], "vcs": [2, 4]}}


def test_sweep_matches_cli(tmp_path):
    sweep_file = tmp_path / "sweep.yaml"
    sweep_file.write_text(json.dumps(SWEEP))
    out = tmp_path / "cli.jsonl"
    r = subprocess.run([BINARY, "sweep", str(sweep_file), "--out", str(out), "--jobs", "2"], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    expected = sorted((json.loads(l) for l in out.read_text().splitlines() if l.strip()), key=lambda x: x["index"])
    got = collnet.sweep(SWEEP, jobs=2)
    assert len(got) == 4 and [g["index"] for g in got] == [0, 1, 2, 3]
    assert [without_timing(g) for g in got] == [without_timing(e) for e in expected]
    assert all(g["status"] == "ok" for g in got)


def test_sweep_as_frame():
    import pandas  # python3-pandas: required by the test's registration (tests/CMakeLists.txt)
    frame = collnet.sweep(SWEEP, jobs=2, as_frame=True)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["index"]) == [0, 1, 2, 3]
    assert list(frame["status"]) == ["ok"] * 4


def test_sweep_bad_axis_raises_config_error():
    with pytest.raises(collnet.ConfigError):
        collnet.sweep({"base": {"topology": "torus:4x4"}, "axes": {"no_such_key": [1, 2]}})


def ring_allgather(ranks, words):
    """Ring allgather: rank r starts with its block at offset r*words; in step k
    it passes block (r-k) mod R to rank r+1 and waits for block (r-1-k)."""
    s = collnet.Schedule(ranks, name="ring-allgather-py")
    for k in range(ranks - 1):
        for r in range(ranks):
            block = (r - k) % ranks
            s.send(r, (r + 1) % ranks, src_offset=block * words, dst_offset=block * words, words=words, tag=k)
        for r in range(ranks):
            s.wait(r, k)
    return s


def test_python_ring_allgather_passes_its_data_check():
    s = ring_allgather(16, 4)
    assert s.memory_words == 64
    assert s.program(0)[0] == {"op": "send", "dst": 1, "src_offset": 0, "dst_offset": 0, "words": 4,
                               "controller": 0, "tag": 0}
    r = collnet.run_schedule(s, topology="torus:4x4", vcs=2)
    assert r["algorithm"] == "ring-allgather-py"
    assert r["data_check"] == "pass"
    assert r["reference_mismatch_words"] == 0
    assert r["completed"] and r["deadlock"] is None
    assert r["messages"] == 16 * 15          # one message per rank and step
    assert r["flits"] == 16 * 15 * 4         # one flit per payload word (the header is sideband)
    assert r["scenario"]["topology"] == "torus:4x4" and r["scenario"]["vcs"] == 2


def test_schedule_without_waits_agrees_with_the_executor_word_for_word():
    # Without the waits a rank forwards a block before it arrived: the
    # executor's result is the expectation, so the cycle model must agree
    # with it word for word (whatever the hazard leaves): the data check
    # (memory against the executor's) passes and no word differs from the
    # executor's.
    s = collnet.Schedule(4, name="no-waits")
    for k in range(3):
        for r in range(4):
            block = (r - k) % 4
            s.send(r, (r + 1) % 4, src_offset=block * 2, dst_offset=block * 2, words=2, tag=k)
    r = collnet.run_schedule(s, topology="torus:2x2")
    assert r["completed"] and r["deadlock"] is None
    assert r["reference_mismatch_words"] == 0
    assert r["data_check"] == "pass", r["data_errors"]
    assert r["messages"] == 12


def test_wait_on_a_tag_never_sent_raises_deadlock_error():
    s = ring_allgather(16, 4)
    s.wait(3, 999)
    with pytest.raises(collnet.DeadlockError) as e:
        collnet.run_schedule(s, topology="torus:4x4")
    assert "999" in str(e.value) or "tag" in str(e.value)
    assert isinstance(e.value, RuntimeError)


def test_schedule_errors():
    s = collnet.Schedule(4)
    with pytest.raises(collnet.ConfigError, match=r"argument 'dst': expected an integer from 0 to 3 \(a rank of the "
                       r"schedule\), got 4"):
        s.send(0, 4, src_offset=0, dst_offset=0, words=1)
    with pytest.raises(collnet.ConfigError, match="argument 'op': 'xor' is not a receive operation"):
        s.send(0, 1, src_offset=0, dst_offset=0, words=1, op="xor")
    s.send(0, 1, src_offset=0, dst_offset=0, words=1)
    s.wait(1, 0)
    with pytest.raises(collnet.ConfigError, match="the schedule has 4 ranks but"):
        collnet.run_schedule(s, topology="torus:4x4")
    with pytest.raises(collnet.ConfigError, match="key 'algorithm'"):
        collnet.run_schedule(s, topology="torus:2x2", algorithm="a2a-spread")


def test_quickstart_example_runs():
    script = os.path.join(SOURCE, "examples", "python", "quickstart.py")
    r = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=600, env=os.environ)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "data check pass" in r.stdout
