"""Ctrl-C during a call of the module: SIGINT to a Python process busy in a
long run or sweep raises KeyboardInterrupt there within a second (the time
measured from the signal to the exception, on the one monotonic clock of
both processes). An interrupted run's report (the exception's `result`, the
json file) holds the cycles run so far with `interrupted: true`, as `collnet
run` writes it; the next run in the same process runs to its end; and a
Python SIGINT handler that does not raise lets the run go on."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import collnet

# A synthetic run of about 2 million cycles (tens of seconds; minutes under
# a sanitizer or a loaded machine): the signal always comes while it runs.
LONG_SYNTHETIC = {"topology": "mesh:8x8", "traffic": "uniform", "injection_rate": 0.1, "warmup_cycles": 0,
                  "measure_cycles": 2000000, "threads": 1}
# A collective of several seconds whose elaboration takes a fraction of one
# (its memory is small), then a second algorithm to compare.
LONG_COLLECTIVE = {"topology": "torus:8x8", "algorithm": "a2a-optimal", "message_flits": 512, "threads": 1,
                   "compare": "a2a-spread"}
# A schedule of 5000 ring steps of 1000 words on 4 ranks: 5 million cycles.
LONG_RING = """
s = collnet.Schedule(4, name="long-ring")
for k in range(5000):
    for r in range(4):
        s.send(r, (r + 1) % 4, src_offset=0, dst_offset=1000, words=1000, tag=k)
    for r in range(4):
        s.wait(r, k)
"""

SCRIPT = """
import json, signal, sys, time
import collnet
{setup}
print("started", flush=True)
try:
    result = {call}
except KeyboardInterrupt as e:
    print("KeyboardInterrupt", repr(time.monotonic()), flush=True)
{after}
    sys.exit(0)
print("finished", flush=True)
"""


def interrupted(call, setup="", after="pass", delays=(1.0,)):
    """Runs `call` in a Python process (after `setup`) and sends it SIGINT
    `delays[0]` seconds after the call started (and again `delays[1]`
    seconds later, ...). Returns the seconds from the last signal to
    KeyboardInterrupt, what `after` printed then, and the times the signals
    were sent."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(collnet.__file__)))
    script = SCRIPT.format(setup=setup, call=call, after=textwrap.indent(after, "    "))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    sent = []
    try:
        assert p.stdout.readline() == "started\n"
        for delay in delays:
            time.sleep(delay)
            sent.append(time.monotonic())
            p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    first, _, rest = out.partition("\n")
    assert p.returncode == 0 and first.split()[0] == "KeyboardInterrupt", out + err
    return float(first.split()[1]) - sent[-1], rest, sent


def test_ctrl_c_stops_a_synthetic_run_within_a_second():
    seconds, rest, _ = interrupted(f"collnet.run({LONG_SYNTHETIC!r})",
                                after="r = e.result\nprint(r['interrupted'], r['completed'], r['cycles'])")
    assert 0 < seconds < 1.0
    flag, completed, cycles = rest.split()
    assert flag == "True" and completed == "False" and 0 < int(cycles) < 2000000


def test_ctrl_c_stops_a_collective_and_its_comparison_and_writes_the_report(tmp_path):
    report = tmp_path / "r.json"
    after = f"""
r = e.result
print(json.dumps([r["interrupted"], r["data_check"], r["compare_not_run"], r["cycles"]]))
print(json.load(open({str(report)!r})) == r)
"""
    seconds, rest, _ = interrupted(f"collnet.run({LONG_COLLECTIVE!r}, json={str(report)!r})", after=after)
    assert 0 < seconds < 1.0
    lines = rest.splitlines()
    flag, data_check, not_run, cycles = json.loads(lines[0])
    assert flag is True and data_check is None and not_run == ["a2a-spread"] and cycles > 0
    assert lines[1] == "True"  # the json file is the exception's result


def test_ctrl_c_stops_run_schedule_and_the_next_run_runs_to_its_end():
    # The stop request of the interrupted run does not stop the next one.
    after = """
print(e.result["interrupted"], e.result["cycles"])
r = collnet.run({"topology": "torus:4x4", "algorithm": "a2a-optimal", "message_flits": 8})
print(r["interrupted"], r["completed"], r["data_check"])
"""
    seconds, rest, _ = interrupted('collnet.run_schedule(s, topology="torus:2x2")', setup=LONG_RING, after=after)
    assert 0 < seconds < 1.0
    first, second = rest.splitlines()
    assert first.split()[0] == "True" and 0 < int(first.split()[1]) < 5000000
    assert second == "False True pass"


def test_a_sigint_handler_that_does_not_raise_lets_the_run_go_on():
    # Python's own handler runs during the run, within a second of each
    # signal: the first call only notes the time, and the run goes on; the
    # second raises KeyboardInterrupt, which ends the run within a second.
    setup = """
handled = []
def on_sigint(*_):
    handled.append(time.monotonic())
    if len(handled) == 2:
        raise KeyboardInterrupt
signal.signal(signal.SIGINT, on_sigint)
"""
    after = 'print(*handled, e.result["interrupted"], e.result["cycles"])'
    seconds, rest, sent = interrupted(f"collnet.run({LONG_SYNTHETIC!r})", setup=setup, after=after,
                                      delays=(1.0, 1.5))
    first, second, flag, cycles = rest.split()
    assert 0 < float(first) - sent[0] < 1.0 and 0 < float(second) - sent[1] < 1.0
    assert 0 < seconds < 1.0
    assert flag == "True" and 0 < int(cycles) < 2000000


def test_ctrl_c_stops_a_sweep():
    sweep = {"base": LONG_SYNTHETIC, "axes": {"seed": [1, 2, 3]}}
    seconds, _, _ = interrupted(f"collnet.sweep({sweep!r}, jobs=2)")
    assert 0 < seconds < 1.0
