// Tests that need a tool or a build option a machine may lack (GTKWave and
// Xvfb, collnet built with Verilator): where it is missing they are skipped
// (GTEST_SKIP, which ctest reports as skipped, not passed), and under
// CI=true they fail naming what is missing, so a CI machine that lost a tool
// cannot pass. scripts/setup.sh installs every tool the tests use.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace collnet::test {

/// True under CI=true (the environment variable): a missing tool is then a
/// failure, not a skip.
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

}  // namespace collnet::test

/// Skips the current test (outside CI) or fails it (CI=true) with `what`
/// (what is missing) and `installs` (what scripts/setup.sh installs for it).
/// Returns from the calling function, like GTEST_SKIP and FAIL: use it in a
/// test body or a fixture's SetUp.
#define COLLNET_SKIP_OUTSIDE_CI(what, installs)                                         \
  do {                                                                                  \
    if (::collnet::test::in_ci())                                                       \
      FAIL() << "CI=true and " << what << "; scripts/setup.sh installs " << installs; \
    GTEST_SKIP() << what << "; scripts/setup.sh installs " << installs;                 \
  } while (0)
