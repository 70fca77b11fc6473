#!/usr/bin/env bash
# The README's main-job command: install packages, build, run `collnet run` on
# its embedded default scenario (A2AT without barriers, groups paced at their
# fair share, next to A2A on the cycle model of an 8x8 torus). With arguments,
# they are passed to collnet instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target collnet
if [ "$#" -eq 0 ]; then set -- run; fi
exec ./build/collnet "$@"
