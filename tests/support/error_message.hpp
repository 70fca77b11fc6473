// Test helper (tests/support/: fixtures several suites share, written once):
// the message of the error a call throws.
#pragma once

#include <functional>
#include <string>

namespace collnet::test {

/// What `call` throws as an `Error`, or "(no error)" when it returns.
template <typename Error>
std::string error_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace collnet::test
