#include "collectives/params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace collnet {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string s;
  for (const auto& i : items) {
    if (!s.empty()) s += separator;
    s += i;
  }
  return s;
}

std::string Params::text(const std::string& key, const std::string& fallback) const {
  const auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

std::int64_t Params::integer(const std::string& key, std::int64_t fallback, std::int64_t lo,
                             std::int64_t hi) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || v < lo || v > hi)
    throw ConfigError("key '" + key + "': expected an integer from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", got '" + s + "'");
  return v;
}

double Params::real(const std::string& key, double fallback, double lo, double hi) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || !std::isfinite(v) || v < lo || v > hi)
    throw ConfigError("key '" + key + "': expected a number from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", got '" + s + "'");
  return v;
}

bool Params::boolean(const std::string& key, bool fallback) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
  if (s == "false" || s == "no" || s == "off" || s == "0") return false;
  throw ConfigError("key '" + key + "': expected true or false, got '" + s + "'");
}

std::string Params::choice(const std::string& key, const std::string& fallback,
                           const std::vector<std::string>& accepted) const {
  const std::string v = text(key, fallback);
  if (std::find(accepted.begin(), accepted.end(), v) == accepted.end())
    throw ConfigError("key '" + key + "': '" + v + "' is not accepted; accepted values: " + join(accepted));
  return v;
}

}  // namespace collnet
