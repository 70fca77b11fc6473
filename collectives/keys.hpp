// Typed scenario keys. Every key an algorithm (or the collective run) reads
// is declared once, as a Key: name, meaning, type, default, accepted values
// and unit. The same declaration reads the key (the typed getters below),
// validates a scenario before anything runs (problem()), and documents it
// (doc(): `collnet list`, the README key tables, the unknown-key message).
// A key whose default depends on the scenario (nct: 2 on a mesh, 4 on a
// torus) says so in its default text and is read with an explicit fallback.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collectives/params.hpp"

namespace collnet {

/// A Key is its own documentation (the KeyDoc fields: name, meaning,
/// default_value, accepted) plus its type and bounds.
class Key : public KeyDoc {
 public:
  enum class Type : std::uint8_t { integer, real, boolean, choice, text };

  static Key integer(std::string name, std::string meaning, std::int64_t fallback, std::int64_t lo, std::int64_t hi,
                     std::string unit = "");
  static Key real(std::string name, std::string meaning, double fallback, double lo, double hi,
                  std::string unit = "");
  static Key boolean(std::string name, std::string meaning, bool fallback);
  static Key choice(std::string name, std::string meaning, std::string fallback, std::vector<std::string> accepted);
  /// Free text; `check` returns "" for an accepted value, else why not.
  static Key text(std::string name, std::string meaning, std::string fallback, std::string accepted,
                  std::function<std::string(const std::string&)> check = {});

  /// The default depends on the scenario: `how` documents it; reads pass it.
  Key& default_from(std::string how);
  /// Documents a range narrower than the declared one that depends on the
  /// scenario ("1..endpoints"); reads pass the bounds.
  Key& accepting(std::string text);

  [[nodiscard]] Type type() const { return type_; }
  [[nodiscard]] KeyDoc doc() const { return *this; }
  [[nodiscard]] const std::string& default_text() const { return default_value; }
  [[nodiscard]] std::int64_t lo() const { return lo_; }
  [[nodiscard]] std::int64_t hi() const { return hi_; }
  [[nodiscard]] const std::vector<std::string>& accepted_values() const { return accepted_; }

  // Reads (the declared default when the scenario does not set the key).
  // Each throws ConfigError naming the key and what it accepts.
  [[nodiscard]] std::int64_t integer(const Params& params) const;
  [[nodiscard]] std::int64_t integer(const Params& params, std::int64_t fallback) const;
  /// Within [lo, hi] ⊆ the declared range (a bound the scenario fixes).
  [[nodiscard]] std::int64_t integer(const Params& params, std::int64_t fallback, std::int64_t lo,
                                     std::int64_t hi) const;
  /// The declared default, within [lo, hi] ⊆ the declared range.
  [[nodiscard]] std::int64_t integer_within(const Params& params, std::int64_t lo, std::int64_t hi) const;
  [[nodiscard]] double real(const Params& params) const;
  [[nodiscard]] bool boolean(const Params& params) const;
  [[nodiscard]] std::string choice(const Params& params) const;
  [[nodiscard]] std::string text(const Params& params) const;

  /// "" when the scenario does not set the key or its value is accepted;
  /// else the ConfigError message, naming the key and the accepted values.
  [[nodiscard]] std::string problem(const Params& params) const;

 private:
  Key(std::string key_name, std::string key_meaning, Type type) : type_(type) {
    name = std::move(key_name);
    meaning = std::move(key_meaning);
  }
  [[nodiscard]] std::string accepted_text() const;

  Type type_;
  std::string unit_;
  std::int64_t int_default_ = 0, lo_ = 0, hi_ = 0;
  double real_default_ = 0, real_lo_ = 0, real_hi_ = 0;
  bool bool_default_ = false;
  std::string text_default_;
  std::vector<std::string> accepted_;
  std::function<std::string(const std::string&)> check_;
};

/// The one instance of a struct of Key declarations (an algorithm's keys),
/// built on first use.
template <typename Keys>
const Keys& declared() {
  static const Keys keys;
  return keys;
}

/// The keys of such a struct as a list, in the order its `list()` gives
/// (documentation order).
template <typename Keys>
const std::vector<Key>& declared_list() {
  static const std::vector<Key> keys = declared<Keys>().list();
  return keys;
}

/// "2^40" for powers of two above 2^16, "10^8" for powers of ten above 10^5,
/// else the number (documentation of ranges).
std::string format_bound(std::int64_t v);

}  // namespace collnet
