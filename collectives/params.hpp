// Scenario parameters: string key/value pairs (from a YAML scenario or
// `--set key=value`) with typed getters that reject bad values with an error
// naming the key and what it accepts. Every key is documented once, in a
// KeyDoc next to the code that reads it; `collnet list` and the unknown-key
// error are generated from those docs.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace collnet {

/// Bad user input (scenario file, --set value, unsupported size). The CLI
/// prints the message once and exits with status 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Documentation of one scenario key: name, meaning, default, accepted values / unit.
struct KeyDoc {
  std::string name;
  std::string meaning;
  std::string default_value;
  std::string accepted;
};

class Params {
 public:
  Params() = default;
  Params(std::initializer_list<std::pair<const std::string, std::string>> init) : values_(init) {}

  void set(const std::string& key, std::string value) { values_[key] = std::move(value); }
  [[nodiscard]] bool has(const std::string& key) const { return values_.count(key) != 0; }
  [[nodiscard]] const std::map<std::string, std::string>& values() const { return values_; }

  [[nodiscard]] std::string text(const std::string& key, const std::string& fallback) const;
  /// Integer in [lo, hi]; throws ConfigError naming the key and the range.
  [[nodiscard]] std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t lo,
                                     std::int64_t hi) const;
  [[nodiscard]] double real(const std::string& key, double fallback, double lo, double hi) const;
  /// true/false (also yes/no, on/off, 1/0).
  [[nodiscard]] bool boolean(const std::string& key, bool fallback) const;
  /// One of `accepted`; throws ConfigError listing them.
  [[nodiscard]] std::string choice(const std::string& key, const std::string& fallback,
                                   const std::vector<std::string>& accepted) const;

 private:
  std::map<std::string, std::string> values_;
};

/// "a, b, c" for error messages.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace collnet
