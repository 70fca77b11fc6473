#!/usr/bin/env python3
"""collnet from Python (docs/guide/python.md): a collective on the
cycle-accurate network, the software check of another, a small sweep as a
table, and a ring allgather written here as a schedule.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/quickstart.py
"""
import collnet

# 1. One run: the report `collnet run --json` writes, as a dict.
run = collnet.run({"topology": "torus:4x4", "algorithm": "a2a-optimal", "nct": 2, "message_flits": 16})
print(f"{run['algorithm']} on {run['topology']}: {run['cycles']} cycles, "
      f"efficiency {run['efficiency']:.3f}, data check {run['data_check']}")

# 2. The software reference and static checker (`collnet check --json`).
check = collnet.check({"topology": "torus:4x4", "algorithm": "a2a-hopgroup", "message_flits": 16})
print(f"check {check['algorithm']}: {check['phases']} phases, static time {check['static_time']}, "
      f"data check {check['data_check']}")

# 3. A bad key raises collnet.ConfigError with the command line's message.
try:
    collnet.run({"topology": "torus:4x4", "vc": 4})
except collnet.ConfigError as e:
    print("ConfigError:", str(e).splitlines()[0])

# 4. A sweep: one record per point (the lines of `collnet sweep`'s results file).
records = collnet.sweep({"base": {"topology": "torus:4x4", "algorithm": "a2a-spread"},
                         "axes": {"message_flits": [4, 16]}}, jobs=2)
for r in records:
    print(f"sweep point {r['point']}: {r['status']}, {r['run']['cycles']} cycles")

# 5. A schedule written in Python: ring allgather over 16 ranks, 8 words per block.
ranks, words = 16, 8
s = collnet.Schedule(ranks, name="ring-allgather")
for step in range(ranks - 1):
    for rank in range(ranks):
        block = (rank - step) % ranks
        s.send(rank, (rank + 1) % ranks, src_offset=block * words, dst_offset=block * words, words=words, tag=step)
    for rank in range(ranks):
        s.wait(rank, step)
result = collnet.run_schedule(s, topology="torus:4x4", vcs=2)
print(f"{result['algorithm']}: {result['cycles']} cycles, {result['messages']} messages, "
      f"data check {result['data_check']}")
