#include "collectives/params.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "collectives/input_text.hpp"

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
    throw ConfigError(fmt::format("key '{}': expected a number from {:g} to {:g}, got '{}'", key, lo, hi, s));
  return v;
}

std::optional<bool> parse_boolean(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
  if (s == "false" || s == "no" || s == "off" || s == "0") return false;
  return std::nullopt;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  const std::size_t limit = word.size() <= 3 ? 1 : std::max<std::size_t>(2, word.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    // A distance as large as the word itself is no near miss ("ab" -> "xy").
    if (d > 0 && d < best_distance && d < std::max(word.size(), c.size())) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string n = nearest(word, candidates);
  return n.empty() ? "" : "; did you mean '" + n + "'?";
}

bool Params::boolean(const std::string& key, bool fallback) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& s = it->second;
  if (const auto b = parse_boolean(s)) return *b;
  throw ConfigError("key '" + key + "': expected " + kBooleanSpellings + ", got '" + s + "'" +
                    did_you_mean(s, {"true", "false", "yes", "no", "on", "off"}));
}

std::string Params::choice(const std::string& key, const std::string& fallback,
                           const std::vector<std::string>& accepted) const {
  const std::string v = text(key, fallback);
  if (std::find(accepted.begin(), accepted.end(), v) == accepted.end())
    throw ConfigError("key '" + key + "': '" + v + "' is not accepted; accepted values: " + join(accepted) +
                      did_you_mean(v, accepted));
  return v;
}

}  // namespace collnet
