// The "KEY=VALUE,KEY=VALUE" part of a topology spec (fattree:k=4,n=3,
// dragonfly:p=2,routing=valiant): read once, every key checked against the
// form's accepted keys, integers range-checked, every error naming the spec,
// the key and the accepted values.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "topology/graph.hpp"

namespace collnet::topology {

class SpecKeys {
 public:
  /// Splits `rest` (the part after "form:"); TopologyError for a part
  /// without '=', a repeated key or a key not in `accepted`.
  SpecKeys(std::string_view spec, std::string_view rest, std::vector<std::string> accepted, std::string forms);

  [[nodiscard]] bool has(const std::string& key) const { return values_.count(key) != 0; }
  /// The integer value of `key` (or `fallback` when absent), in lo..hi.
  [[nodiscard]] long integer(const std::string& key, long fallback, long lo, long hi) const;
  /// The bandwidth of `key` in flits per cycle (graph.hpp,
  /// parse_bandwidth), 1 when absent.
  [[nodiscard]] Bandwidth bandwidth(const std::string& key) const;
  /// The value of `key` (or `fallback`), one of `choices`.
  [[nodiscard]] std::string choice(const std::string& key, const std::string& fallback,
                                   const std::vector<std::string>& choices) const;
  /// Throws TopologyError "topology 'SPEC': WHAT; accepted forms: FORMS".
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string spec_;
  std::string forms_;
  std::map<std::string, std::string> values_;
};

}  // namespace collnet::topology
