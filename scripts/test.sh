#!/usr/bin/env bash
# The README's test command: install packages, configure, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
launcher=()
if command -v ccache >/dev/null; then
  # The compiler cache, in the build folder so that a fresh clone (CI) needs
  # no cache of its own; paths relative to the repository root, so that the
  # contributor guide's replay (ctest develop_guide: a scratch copy of the
  # tree in build/develop-replay/tree, built in its build/) reuses every
  # compilation its pages do not change.
  export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 900
