#include "topology/spec_keys.hpp"

#include <algorithm>
#include <charconv>

namespace collnet::topology {

namespace {
std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}
}  // namespace

SpecKeys::SpecKeys(std::string_view spec, std::string_view rest, std::vector<std::string> accepted,
                   std::string forms)
    : spec_(spec), forms_(std::move(forms)) {
  std::size_t start = 0;
  while (start <= rest.size() && !rest.empty()) {
    const std::size_t end = std::min(rest.find(',', start), rest.size());
    const std::string_view part = rest.substr(start, end - start);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0)
      fail("cannot read '" + std::string(part) + "': expected KEY=VALUE");
    const std::string key(part.substr(0, eq));
    if (std::find(accepted.begin(), accepted.end(), key) == accepted.end())
      fail("unknown key '" + key + "' (keys: " + join(accepted) + ")");
    if (!values_.emplace(key, std::string(part.substr(eq + 1))).second) fail("key '" + key + "' given twice");
    start = end + 1;
  }
}

long SpecKeys::integer(const std::string& key, long fallback, long lo, long hi) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  long v = 0;
  const std::string& text = it->second;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size() || v < lo || v > hi)
    fail("key '" + key + "' must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
         ", got '" + text + "'");
  return v;
}

Bandwidth SpecKeys::bandwidth(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return {};
  std::string error;
  const Bandwidth b = parse_bandwidth(it->second, error);
  if (!error.empty()) fail("key '" + key + "': " + error);
  return b;
}

std::string SpecKeys::choice(const std::string& key, const std::string& fallback,
                             const std::vector<std::string>& choices) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  if (std::find(choices.begin(), choices.end(), it->second) == choices.end())
    fail("key '" + key + "' must be one of " + join(choices) + ", got '" + it->second + "'");
  return it->second;
}

void SpecKeys::fail(const std::string& what) const {
  throw TopologyError("topology '" + spec_ + "': " + what + "; accepted forms: " + forms_);
}

}  // namespace collnet::topology
