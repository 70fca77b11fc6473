"""The arguments of the module's functions: numpy scalars are taken wherever
a Python int, float or bool is (the run is then the one of the plain Python
values), and every bad argument raises collnet.ConfigError naming the
function, the argument and what it accepts, as the command line's exit-2
messages do, never pybind11's TypeError listing C++ signatures."""
import inspect
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import collnet
from support import BINARY, SMALL_RUN, SOURCE, without_timing


def test_numpy_scalars_in_a_scenario_run_as_the_python_values():
    plain = collnet.run(dict(SMALL_RUN, message_flits=16))
    numpy = collnet.run(dict(SMALL_RUN, message_flits=np.int64(16), nct=np.int32(2), vcs=np.uint8(4),
                             group_barriers=np.bool_(False)))
    assert without_timing(numpy) == without_timing(plain)
    assert numpy["scenario"]["message_flits"] == 16 and numpy["scenario"]["group_barriers"] is False


def test_numpy_scalars_from_a_sweep_of_loads():
    # A load from np.linspace is a numpy float64, one from float32 arithmetic
    # a float32: each runs as the Python float of the same value.
    base = {"topology": "mesh:4x4", "traffic": "uniform", "warmup_cycles": 50, "measure_cycles": 200}
    for load in (np.linspace(0.05, 0.1, 2)[1], np.float32(0.25)):
        got = collnet.run(dict(base, injection_rate=load, seed=np.int64(3)))
        expected = collnet.run(dict(base, injection_rate=float(load), seed=3))
        assert without_timing(got) == without_timing(expected)
        assert got["scenario"]["injection_rate"] == float(load)


def test_numpy_values_in_a_schedule_and_a_sweep():
    s = collnet.Schedule(np.int64(4), memory_words=np.uint32(8))
    s.send(np.int64(0), np.int32(1), src_offset=np.uint32(0), dst_offset=np.int64(4), words=np.int16(2),
           controller=np.int8(1), tag=np.uint16(7))
    s.wait(np.int64(1), np.array([7, 8]), count=np.int64(1))
    s.barrier(np.int64(2), np.int64(3))
    assert s.ranks == 4 and s.memory_words == 8
    assert s.program(np.int64(0)) == [{"op": "send", "dst": 1, "src_offset": 0, "dst_offset": 4, "words": 2,
                                       "controller": 1, "tag": 7}]
    assert s.program(1) == [{"op": "wait", "tag": 7, "count": 1}, {"op": "wait", "tag": 8, "count": 1}]
    assert s.program(2) == [{"op": "barrier", "number": 3}]

    sweep = {"base": {"topology": "torus:4x4", "algorithm": "a2a-spread"}, "axes": {"message_flits": [2, 4]}}
    plain = collnet.sweep(sweep, jobs=2)
    numpy = collnet.sweep(dict(sweep, axes={"message_flits": np.array([2, 4])}), jobs=np.int64(2),
                          timeout=np.float64(600), as_frame=np.bool_(False))
    assert [without_timing(r) for r in numpy] == [without_timing(r) for r in plain]
    assert [r["status"] for r in numpy] == ["ok", "ok"]


S4 = collnet.Schedule(4)
SEND = {"src_offset": 0, "dst_offset": 0, "words": 1}

# (call, the message's expected text): the function, the argument, the
# accepted values and the value given.
BAD_CALLS = [
    (lambda: S4.send(0, 1, **dict(SEND, src_offset=-1)),
     "Schedule.send: argument 'src_offset': expected an integer from 0 to 1048575, got -1"),
    (lambda: S4.send(0, 1, **dict(SEND, dst_offset=np.int64(-4))),
     "Schedule.send: argument 'dst_offset': expected an integer from 0 to 1048575, got -4 (int64)"),
    (lambda: S4.send(0, 1, **dict(SEND, words=0)),
     "Schedule.send: argument 'words': expected an integer from 1 to 1048575, got 0"),
    (lambda: S4.send(0, 1, **dict(SEND, words=2 ** 20)),
     "Schedule.send: argument 'words': expected an integer from 1 to 1048575, got 1048576"),
    (lambda: S4.send(0, 1, **dict(SEND, words=2 ** 80)),
     "Schedule.send: argument 'words': expected an integer from 1 to 1048575, got 1208925819614629174706176"),
    (lambda: S4.send(0, 1, **dict(SEND, controller=8)),
     "Schedule.send: argument 'controller': expected an integer from 0 to 7, got 8"),
    (lambda: S4.send(0, 1, **dict(SEND, tag=65536)),
     "Schedule.send: argument 'tag': expected an integer from 0 to 65535, got 65536"),
    (lambda: S4.send(0, 1.0, **SEND),
     "Schedule.send: argument 'dst': expected an integer from 0 to 3 (a rank of the schedule), got 1.0"),
    (lambda: S4.send("0", 1, **SEND),
     "Schedule.send: argument 'rank': expected an integer from 0 to 3 (a rank of the schedule), got '0'"),
    (lambda: S4.send(True, 1, **SEND),
     "Schedule.send: argument 'rank': expected an integer from 0 to 3 (a rank of the schedule), got True"),
    (lambda: S4.send(0, 1, **dict(SEND, op=1)), "Schedule.send: argument 'op': expected a str, got 1"),
    (lambda: S4.send(0, 1, src_offset=0, dst_offset=0, word=1),
     "Schedule.send: unknown argument 'word' (did you mean 'words'?); accepted arguments: rank, dst, src_offset, "
     "dst_offset, words, controller, tag, op"),
    (lambda: S4.send(0, 1, src_offset=0, dst_offset=0),
     "Schedule.send: argument 'words' is required; accepted arguments: rank, dst, src_offset, dst_offset, words, "
     "controller, tag, op"),
    (lambda: S4.send(0, 1, 0, 0, 1),
     "Schedule.send: takes 2 positional arguments (rank, dst), got 5; the others are keywords: src_offset, "
     "dst_offset, words, controller, tag, op"),
    (lambda: S4.send(0, 1, rank=0, **SEND),
     "Schedule.send: argument 'rank' given twice (by position and by keyword)"),
    (lambda: S4.wait(0, [1, -2]),
     "Schedule.wait: argument 'tags': expected an integer from 0 to 65535 (a tag; tags: one or a list of them), "
     "got -2"),
    (lambda: S4.wait(0, 1, count=0), "Schedule.wait: argument 'count': expected an integer from 1 to 1048575, got 0"),
    (lambda: S4.barrier(0, -1), "Schedule.barrier: argument 'number': expected an integer from 0 to 65535, got -1"),
    (lambda: S4.program(4),
     "Schedule.program: argument 'rank': expected an integer from 0 to 3 (a rank of the schedule), got 4"),
    (lambda: collnet.Schedule(0), "Schedule: argument 'ranks': expected an integer from 1 to 65536, got 0"),
    (lambda: collnet.Schedule(4, memory_words=-1),
     "Schedule: argument 'memory_words': expected an integer from 1 to 2097150 (the words a descriptor can "
     "address), got -1"),
    (lambda: collnet.Schedule(4, name=5), "Schedule: argument 'name': expected a str, got 5"),
    (lambda: collnet.run([("topology", "torus:4x4")]),
     "run: argument 'scenario': expected a scenario (a dict), got [('topology', 'torus:4x4')] (list)"),
    (lambda: collnet.run(SMALL_RUN, "run.vcd"),
     "run: takes 1 positional argument (scenario), got 2; the others are keywords: vcd, trace, trace_links, json"),
    (lambda: collnet.run(SMALL_RUN, jsn="r.json"),
     "run: unknown argument 'jsn' (did you mean 'json'?); accepted arguments: scenario, vcd, trace, trace_links, json"),
    (lambda: collnet.run(), "run: argument 'scenario' is required"),
    (lambda: collnet.run(SMALL_RUN, trace="t.csv", trace_links="yes"),
     "run: argument 'trace_links': expected True or False, got 'yes'"),
    (lambda: collnet.run(SMALL_RUN, json=3), "run: argument 'json': expected a file path (a str or a pathlib.Path), got 3"),
    (lambda: collnet.run(SMALL_RUN, vcd=""), "run: argument 'vcd': expected a file path (a str or a pathlib.Path), got ''"),
    (lambda: collnet.run(dict(SMALL_RUN, message_flits=1 + 2j)),
     "key 'message_flits': expected a str, int, float or bool value (numpy scalars too), got (1+2j) (complex)"),
    (lambda: collnet.run(dict(SMALL_RUN, message_flits=np.array([8, 16]))),
     "key 'message_flits': expected a str, int, float or bool value (numpy scalars too), got array([ 8, 16]) (ndarray)"),
    (lambda: collnet.check(SMALL_RUN, json=b"c.json"),
     "check: argument 'json': expected a file path (a str or a pathlib.Path), got b'c.json' (bytes)"),
    (lambda: collnet.sweep({"base": {}}, jobs=0),
     "sweep: argument 'jobs': expected an integer from 1 to 4096 (points run at once; None: the number of cores), "
     "got 0"),
    (lambda: collnet.sweep({"base": {}}, jobs=4097),
     "sweep: argument 'jobs': expected an integer from 1 to 4096 (points run at once; None: the number of cores), "
     "got 4097"),
    (lambda: collnet.sweep({"base": {}}, jobs=2.0),
     "sweep: argument 'jobs': expected an integer from 1 to 4096 (points run at once; None: the number of cores), "
     "got 2.0"),
    (lambda: collnet.sweep({"base": {}}, timeout=-1),
     "sweep: argument 'timeout': expected a number from 0 to 1e+09 (seconds a point may run; 0: no limit), got -1"),
    (lambda: collnet.sweep({"base": {}}, timeout=math.nan),
     "sweep: argument 'timeout': expected a number from 0 to 1e+09 (seconds a point may run; 0: no limit), got nan"),
    (lambda: collnet.sweep({"base": {}}, as_frame=1), "sweep: argument 'as_frame': expected True or False, got 1"),
    (lambda: collnet.sweep({"base": {}, "axes": {"vcs": [2, object]}}),
     "sweep: argument 'sweep': expected str, int, float and bool values (numpy scalars and arrays too), lists and "
     "dicts, got <class 'object'> (type)"),
    (lambda: collnet.run_schedule(S4),
     "run_schedule: argument 'topology' is required"),
    (lambda: collnet.run_schedule("ring", topology="torus:2x2"),
     "run_schedule: argument 'schedule': expected a collnet.Schedule, got 'ring'"),
    (lambda: collnet.run_schedule(S4, topology="torus:2x2", trace_links=True),
     "argument 'trace_links': goes with argument 'trace' FILE.csv"),
]


@pytest.mark.parametrize("call,message", BAD_CALLS, ids=[m[:60] for _, m in BAD_CALLS])
def test_bad_argument_raises_config_error_naming_it(call, message):
    with pytest.raises(collnet.ConfigError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert message in str(e.value)
    assert "incompatible function arguments" not in str(e.value)


@pytest.mark.parametrize("jobs", [0, 4097])
def test_sweep_jobs_refused_as_the_cli_refuses_them(jobs, tmp_path):
    sweep_file = tmp_path / "sweep.yaml"
    sweep_file.write_text(json.dumps({"base": {"topology": "torus:4x4"}, "axes": {"vcs": [2]}}))
    r = subprocess.run([BINARY, "sweep", str(sweep_file), "--jobs", str(jobs), "--out", str(tmp_path / "o.jsonl")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--jobs" in r.stderr
    with pytest.raises(collnet.ConfigError, match="argument 'jobs'"):
        collnet.sweep({"base": {"topology": "torus:4x4"}, "axes": {"vcs": [2]}}, jobs=jobs)
    assert not (tmp_path / "o.jsonl").exists()


def test_bad_output_file_refused_before_anything_runs(tmp_path):
    vcd = tmp_path / "run.vcd"
    with pytest.raises(collnet.ConfigError) as e:
        collnet.run(SMALL_RUN, vcd=vcd, json=tmp_path / "missing" / "r.json")
    assert str(e.value) == (f"argument 'json': cannot write '{tmp_path}/missing/r.json': directory "
                            f"'{tmp_path}/missing' does not exist")
    assert not vcd.exists()


def test_several_problems_reported_together(tmp_path):
    # As on the command line: the scenario's problems and the files' at once.
    with pytest.raises(collnet.ConfigError) as e:
        collnet.run({"topology": "torus:4x4", "vc": 4, "traffic": "uniform"}, trace=tmp_path / "t.csv",
                    json=tmp_path / "no" / "r.json")
    lines = str(e.value).splitlines()
    assert lines[0] == "3 problems in the scenario:"
    assert lines[1].startswith("  --set: unknown key 'vc'")
    assert lines[2].startswith("  argument 'json': cannot write")
    assert lines[3].startswith("  argument 'trace': synthetic-traffic runs (key 'traffic') are not traced")


def test_signatures_are_readable():
    assert str(inspect.signature(collnet.run)) == "(scenario, *, vcd=None, trace=None, trace_links=False, json=None)"
    assert str(inspect.signature(collnet.sweep)) == "(sweep, *, jobs=None, as_frame=False, timeout=0)"


def test_the_guides_error_example_prints_what_the_guide_shows(tmp_path):
    # docs/guide/python.md: the example under **Errors.** and the block
    # after "prints" that shows its output.
    page = open(os.path.join(SOURCE, "docs", "guide", "python.md"), encoding="utf-8").read()
    m = re.search(r"\*\*Errors\.\*\*.*?<<'PY'\n(.*?)\nPY\n```\n\nprints\n\n```\n(.*?)```", page, re.S)
    assert m, "the example and its output are no longer in docs/guide/python.md"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(collnet.__file__)))
    r = subprocess.run([sys.executable, "-c", m.group(1)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                       env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == m.group(2)
