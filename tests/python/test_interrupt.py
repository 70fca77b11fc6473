"""Ctrl-C during a call of the module: SIGINT to a Python process busy in a
long run or sweep raises KeyboardInterrupt there within a second (the time
measured from the signal to the exception, on the one monotonic clock of
both processes)."""
import os
import signal
import subprocess
import sys
import time

import collnet

# A synthetic run of about 2 million cycles (tens of seconds; minutes under
# a sanitizer or a loaded machine): the signal always comes while it runs.
LONG_SYNTHETIC = {"topology": "mesh:8x8", "traffic": "uniform", "injection_rate": 0.1, "warmup_cycles": 0,
                  "measure_cycles": 2000000, "threads": 1}

SCRIPT = """
import sys, time
import collnet
print("started", flush=True)
try:
    result = {call}
except KeyboardInterrupt as e:
    print("KeyboardInterrupt", repr(time.monotonic()), flush=True)
    {after}
    sys.exit(0)
print("finished", flush=True)
sys.exit(1)
"""


def interrupted(call, after="pass", delay=1.0):
    """Runs `call` in a Python process, sends it SIGINT `delay` seconds
    after it started; the seconds from the signal to KeyboardInterrupt and
    the process's output after that line."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(collnet.__file__)))
    p = subprocess.Popen([sys.executable, "-c", SCRIPT.format(call=call, after=after)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline() == "started\n"
        time.sleep(delay)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, out + err
    first, _, rest = out.partition("\n")
    word, raised = first.split()
    assert word == "KeyboardInterrupt"
    return float(raised) - sent, rest


def test_ctrl_c_stops_a_sweep():
    sweep = {"base": LONG_SYNTHETIC, "axes": {"seed": [1, 2, 3]}}
    seconds, _ = interrupted(f"collnet.sweep({sweep!r}, jobs=2)")
    assert 0 < seconds < 1.0
