#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang (CMake option COLLNET_FUZZ:
# the project libraries with -fsanitize=fuzzer-no-link,address,undefined) and
# runs each target for FUZZ_SECONDS (default 60) on a copy of its seed corpus
# fuzz/corpus/<target>/. A crash, hang (-timeout), leak, OOM or sanitizer
# report fails the script; the reproducer is left in
# <tree>/findings/<target>/ and must join fuzz/corpus/<target>/ with the fix
# (tests/fuzz/corpus_replay_test.cpp then replays it in the normal build).
# Usage: bash scripts/fuzz.sh [TARGET ...]   (default: every target)
# The tree: build-fuzz/, configured here with the fuzz targets only; or
# FUZZ_BUILD=DIR, a tree already configured with COLLNET_FUZZ=ON (CI runs the
# targets in scripts/sanitize.sh's build-asan/, which compiled the libraries
# once for the instrumented test suite and the fuzzers).
# Prints each target's executions per second from libFuzzer's final stats.
# Optimization as OSS-Fuzz builds fuzz targets: -O1 with line tables only
# (-gline-tables-only), enough for every sanitizer report's stack trace.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(scenario topology wiring graph descriptor chakra msccl); fi

if [ -f /etc/profile.d/ccache-collnet.sh ]; then source /etc/profile.d/ccache-collnet.sh; fi
if [ -n "${FUZZ_BUILD:-}" ]; then
  tree="$FUZZ_BUILD"
  if ! grep -qs '^COLLNET_FUZZ:BOOL=ON$' "$tree/CMakeCache.txt"; then
    echo "fuzz.sh: FUZZ_BUILD=$tree is not a build tree configured with -DCOLLNET_FUZZ=ON (scripts/sanitize.sh makes build-asan so)" >&2
    exit 2
  fi
else
  tree=build-fuzz
  cmake -S . -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCOLLNET_FUZZ=ON \
    -DCOLLNET_BUILD_TESTS=OFF -DCOLLNET_PYTHON_MODULE=OFF >/dev/null
fi
cmake --build "$tree" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
  work="$tree/corpus/$t"
  findings="$tree/findings/$t"
  rm -rf "$work" "$findings"
  mkdir -p "$work" "$findings"
  cp fuzz/corpus/"$t"/* "$work"/
  log="$tree/fuzz_$t.log"
  # -timeout: an input that runs 10 s is a hang; -rss_limit_mb: one that needs
  # 2 GB is an unbounded allocation; both are failures like a crash.
  if ./"$tree"/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -print_final_stats=1 -artifact_prefix="$findings/" "$work" >"$log" 2>&1; then
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}')
    cov=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 | grep -oE 'cov: [0-9]+' || true)
    echo "fuzz $t: ${seconds} s, ${execs} executions, ${rate} execs/s, ${cov}, no finding"
  else
    status=1
    echo "fuzz $t: FAILED (log $log, reproducer in $findings/):"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20
  fi
done
exit $status
