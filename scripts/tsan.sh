#!/usr/bin/env bash
# ThreadSanitizer check of threaded runs (key `threads`): builds only the
# systemc library and the tests/threads suite with GCC's -fsanitize=thread in
# build-tsan/, then runs the suite (synthetic runs on 1, 2 and 3 threads,
# every figure compared). Any data race report fails it (halt_on_error).
# Called by .ci/run after scripts/sanitize.sh; prints its build and test
# times at the end (2 cores, cold build, line tables: build 221 s, tests 12 s).
source "$(dirname "$0")/sanitizer_build.sh"

sanitizer_configure build-tsan Tsan "-O1 -g1 -fsanitize=thread -fno-omit-frame-pointer" "-fsanitize=thread" \
  "-Wno-error=maybe-uninitialized -Wno-error=tsan"
cmake --build build-tsan -j "$jobs" --target test_threads
built=$(date +%s)

export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
./build-tsan/tests/test_threads
done_at=$(date +%s)
echo "tsan: build $((built - start)) s, tests $((done_at - built)) s (wall, ${jobs} cores)"
