#!/usr/bin/env bash
# The README's main-job command: install packages, build, run collnet on its
# embedded default scenario (extra arguments are passed to collnet).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target collnet
exec ./build/collnet "$@"
