// Scenario parameters: string key/value pairs (from a YAML scenario or
// `--set key=value`) with typed getters that reject bad values with an error
// naming the key and what it accepts. Every key is documented once, in a
// KeyDoc next to the code that reads it; `collnet list` and the unknown-key
// error are generated from those docs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
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
  /// A boolean (parse_boolean: true/false, yes/no, on/off, 1/0, any case).
  [[nodiscard]] bool boolean(const std::string& key, bool fallback) const;
  /// One of `accepted`; throws ConfigError listing them.
  [[nodiscard]] std::string choice(const std::string& key, const std::string& fallback,
                                   const std::vector<std::string>& accepted) const;

 private:
  std::map<std::string, std::string> values_;
};

/// "a, b, c" for error messages.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

/// The one set of boolean spellings every input accepts (scenario files,
/// `--set`, sweep axes and the sweep file's `zip`): true/false, yes/no,
/// on/off and 1/0, in any case (so YAML's True, TRUE, Yes, ON... too).
/// nullopt for anything else.
std::optional<bool> parse_boolean(std::string_view text);
/// What parse_boolean accepts, for messages and documentation.
inline constexpr const char* kBooleanSpellings = "true/false, yes/no, on/off or 1/0 (any case)";

/// Damerau-Levenshtein distance (optimal string alignment: insertions,
/// deletions, substitutions and swaps of two neighbours each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);
/// The candidate nearest to `word` when it is a near miss (distance 1..2, or
/// up to a third of the word's length for long words; ties: the first);
/// "" when none is.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);
/// "; did you mean 'X'?" for the nearest candidate, "" when none is near.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace collnet
