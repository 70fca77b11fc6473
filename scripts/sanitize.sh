#!/usr/bin/env bash
# The README's test suite built with clang's AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/, then run with ctest: the
# project's libraries, the collnet binary, the Verilator benches and the
# Verilated models are instrumented; the test files' own code is not
# (COLLNET_TEST_CODE_OPTIONS=-fno-sanitize=all: it drives that code, and
# instrumenting GoogleTest's and nlohmann::json's templates in it tripled
# its build time). The same tree builds the libFuzzer targets
# (COLLNET_FUZZ: the libraries also carry the fuzzer's coverage
# instrumentation), so that .ci/run fuzzes them (FUZZ_BUILD=build-asan
# scripts/fuzz.sh) without compiling the libraries a second time. Called by
# .ci/run after scripts/test.sh. Any sanitizer report fails a test: ASan and
# UBSan abort the process (-fno-sanitize-recover), LeakSanitizer runs at exit
# with the suppressions of scripts/lsan.supp (SystemC's own process objects
# only).
#
# -O1 with line tables (-g1: what a sanitizer's stack trace prints) keeps the
# instrumented build and run within CI's budget.
# Left out of the run: the tests that execute no compiled project code (the
# RTL lint, formal proofs and place-and-route report run Verilator, Yosys and
# nextpnr on the .sv sources; the site test runs MkDocs; the plot scripts'
# tests run matplotlib on written records). They pass or fail the same in any
# build tree, and the README build runs them. Also left out:
# the golden scenarios re-run in every other evaluation order (the same
# modules' code in another order, a check of determinism the README build
# makes); each golden scenario still runs here once, and on 2 and 3 threads.
# And the contributor guide's replay (develop_guide): it builds a scratch copy
# of the tree, which only the README build's compiler cache makes cheap, and
# the code it runs is the code this run already tests.
# The Python module is left out (scripts/sanitizer_build.sh).
# Prints the build and test times (wall) at the end.
source "$(dirname "$0")/sanitizer_build.sh"

sanitizer_configure build-asan Sanitize \
  "-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  "-fsanitize=address,undefined" "" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DCOLLNET_FUZZ=ON \
  -DCOLLNET_TEST_CODE_OPTIONS=-fno-sanitize=all
cmake --build build-asan -j "$jobs"
built=$(date +%s)

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 1800 \
  -E '^(rtl_lint|rtl_formal|rtl_formal_mutations|rtl_timing_endpoints|docs_site|plot_script|develop_guide)$|EveryEvaluationOrderGivesTheSameRun' \
  </dev/null
done_at=$(date +%s)
echo "sanitize: build $((built - start)) s, tests $((done_at - built)) s (wall, ${jobs} cores)"
