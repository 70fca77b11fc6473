#include "collectives/keys.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace collnet {

std::string format_bound(std::int64_t v) {
  if (v == std::numeric_limits<std::int64_t>::max()) return "2^63-1";
  if (v > (std::int64_t{1} << 20) && (v & (v - 1)) == 0) {
    int k = 0;
    while ((std::int64_t{1} << k) != v) ++k;
    return "2^" + std::to_string(k);
  }
  if (v >= 1000000) {
    std::int64_t p = 1;
    int k = 0;
    while (p < v) {
      p *= 10;
      ++k;
    }
    if (p == v) return "10^" + std::to_string(k);
  }
  return std::to_string(v);
}

Key Key::integer(std::string name, std::string meaning, std::int64_t fallback, std::int64_t lo, std::int64_t hi,
                 std::string unit) {
  Key k(std::move(name), std::move(meaning), Type::integer);
  k.int_default_ = fallback;
  k.lo_ = lo;
  k.hi_ = hi;
  k.unit_ = std::move(unit);
  k.default_value = std::to_string(fallback);
  k.accepted = k.accepted_text();
  return k;
}

Key Key::real(std::string name, std::string meaning, double fallback, double lo, double hi, std::string unit) {
  Key k(std::move(name), std::move(meaning), Type::real);
  k.real_default_ = fallback;
  k.real_lo_ = lo;
  k.real_hi_ = hi;
  k.unit_ = std::move(unit);
  k.default_value = fmt::format("{}", fallback);
  k.accepted = k.accepted_text();
  return k;
}

Key Key::boolean(std::string name, std::string meaning, bool fallback) {
  Key k(std::move(name), std::move(meaning), Type::boolean);
  k.bool_default_ = fallback;
  k.default_value = fallback ? "true" : "false";
  k.accepted = k.accepted_text();
  return k;
}

Key Key::choice(std::string name, std::string meaning, std::string fallback, std::vector<std::string> accepted) {
  Key k(std::move(name), std::move(meaning), Type::choice);
  k.text_default_ = fallback;
  k.default_value = std::move(fallback);
  k.accepted_ = std::move(accepted);
  k.accepted = k.accepted_text();
  return k;
}

Key Key::text(std::string name, std::string meaning, std::string fallback, std::string accepted,
              std::function<std::string(const std::string&)> check) {
  Key k(std::move(name), std::move(meaning), Type::text);
  k.text_default_ = fallback;
  k.default_value = std::move(fallback);
  k.accepted = std::move(accepted);
  k.check_ = std::move(check);
  return k;
}

Key& Key::default_from(std::string how) {
  default_value = std::move(how);
  return *this;
}

Key& Key::accepting(std::string text) {
  accepted = std::move(text);
  return *this;
}

std::string Key::accepted_text() const {
  const std::string unit = unit_.empty() ? "" : " (" + unit_ + ")";
  switch (type_) {
    case Type::integer: return format_bound(lo_) + ".." + format_bound(hi_) + unit;
    case Type::real: return fmt::format("{}..{}", real_lo_, real_hi_) + unit;
    case Type::boolean: return "true, false";
    case Type::choice: return join(accepted_);
    case Type::text: return "";
  }
  return "";
}

std::int64_t Key::integer(const Params& params) const { return params.integer(name, int_default_, lo_, hi_); }

std::int64_t Key::integer(const Params& params, std::int64_t fallback) const {
  return params.integer(name, fallback, lo_, hi_);
}

std::int64_t Key::integer(const Params& params, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const {
  return params.integer(name, fallback, std::max(lo, lo_), std::min(hi, hi_));
}

std::int64_t Key::integer_within(const Params& params, std::int64_t lo, std::int64_t hi) const {
  return integer(params, int_default_, lo, hi);
}

double Key::real(const Params& params) const { return params.real(name, real_default_, real_lo_, real_hi_); }

bool Key::boolean(const Params& params) const { return params.boolean(name, bool_default_); }

std::string Key::choice(const Params& params) const { return params.choice(name, text_default_, accepted_); }

std::string Key::text(const Params& params) const {
  const std::string v = params.text(name, text_default_);
  if (check_ && params.has(name)) {
    const std::string why = check_(v);
    if (!why.empty()) throw ConfigError("key '" + name + "': " + why);
  }
  return v;
}

std::string Key::problem(const Params& params) const {
  if (!params.has(name)) return "";
  try {
    switch (type_) {
      case Type::integer: (void)integer(params); break;
      case Type::real: (void)real(params); break;
      case Type::boolean: (void)boolean(params); break;
      case Type::choice: (void)choice(params); break;
      case Type::text: (void)text(params); break;
    }
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace collnet
