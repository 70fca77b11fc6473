#include "cli/sweep.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "collectives/input_text.hpp"
#include "cli/scenario.hpp"

namespace collnet::cli {

namespace {

const char* const kTopKeys[] = {"base", "axes", "zip", "seeds", "table", "plot"};

/// The most seeds a sweep file may ask for.
constexpr std::int64_t kMaxSeeds = 10000;

bool is_scenario_key(const std::string& key) {
  const auto keys = known_keys();
  return std::any_of(keys.begin(), keys.end(), [&](const KeyDoc& k) { return k.name == key; });
}

/// " (did you mean 'X'?)" for a near miss of a scenario key.
std::string key_hint(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& k : known_keys()) names.push_back(k.name);
  const std::string near = nearest(name, names);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

std::string scalar(const YAML::Node& n) { return n.as<std::string>(); }

/// A number of a range, printed without binary noise (0.15, not 0.15000000000000002).
std::string range_value(double v, bool integral) {
  if (integral) return fmt::format("{}", static_cast<std::int64_t>(std::llround(v)));
  std::string s = fmt::format("{:.12g}", v);
  return s;
}

double range_number(const YAML::Node& range, const char* field, const std::string& where) {
  const YAML::Node n = range[field];
  if (!n || !n.IsScalar())
    throw ConfigError(where + ": field '" + field + "' must be a number");
  try {
    return n.as<double>();
  } catch (const YAML::Exception&) {
    throw ConfigError(where + ": field '" + field + "' must be a number, got '" + n.as<std::string>() + "'");
  }
}

bool integral_text(const YAML::Node& n) {
  const auto s = n.as<std::string>();
  return !s.empty() && s.find_first_not_of("-+0123456789") == std::string::npos;
}

/// One axis: its values, each a list of (key, value) assignments and the
/// value the point's `keys` show.
struct Axis {
  std::string name;
  struct Value {
    std::vector<std::pair<std::string, std::string>> sets;
    nlohmann::ordered_json shown;
  };
  std::vector<Value> values;
};

Axis parse_axis(const std::string& name, const YAML::Node& node, const std::string& source, bool zip) {
  const std::string where = source + ": axis '" + name + "'";
  Axis axis{name, {}};
  if (node.IsMap()) {
    for (const auto& kv : node) {
      const auto field = kv.first.as<std::string>();
      if (field != "from" && field != "to" && field != "step" && field != "factor")
        throw ConfigError(where + ": unknown range field '" + field + "'; a range has from, to and step (or factor)");
    }
    if (!is_scenario_key(name))
      throw ConfigError(where + ": '" + name + "' is not a scenario key" + key_hint(name) +
                        " (collnet list names them); a range sets one key");
    const double from = range_number(node, "from", where);
    const double to = range_number(node, "to", where);
    const bool has_step = static_cast<bool>(node["step"]);
    const bool has_factor = static_cast<bool>(node["factor"]);
    if (has_step == has_factor) throw ConfigError(where + ": a range needs exactly one of step and factor");
    if (to < from) throw ConfigError(where + ": range from " + fmt::format("{}", from) + " to " + fmt::format("{}", to) + " is empty (to < from)");
    const bool integral = integral_text(node["from"]) && (has_step ? integral_text(node["step"]) : integral_text(node["factor"]));
    if (has_step) {
      const double step = range_number(node, "step", where);
      if (!(step > 0)) throw ConfigError(where + ": step must be greater than 0");
      const double n = std::floor((to - from) / step + 1e-9);
      if (n > 100000) throw ConfigError(where + ": range has more than 100000 values");
      for (std::int64_t i = 0; i <= static_cast<std::int64_t>(n); ++i) {
        const double v = from + static_cast<double>(i) * step;
        const std::string s = range_value(v, integral);
        axis.values.push_back({{{name, s}}, integral ? nlohmann::ordered_json(std::llround(v)) : nlohmann::ordered_json(std::stod(s))});
      }
    } else {
      const double factor = range_number(node, "factor", where);
      if (!(factor > 1)) throw ConfigError(where + ": factor must be greater than 1");
      if (!(from > 0)) throw ConfigError(where + ": a geometric range needs from > 0");
      for (double v = from; v <= to * (1 + 1e-12); v *= factor) {
        const std::string s = range_value(v, integral);
        axis.values.push_back({{{name, s}}, integral ? nlohmann::ordered_json(std::llround(v)) : nlohmann::ordered_json(std::stod(s))});
      }
    }
    return axis;
  }
  if (!node.IsSequence())
    throw ConfigError(where + ": expected a list of values, a list of key maps or a range {from, to, step}");
  if (node.size() == 0) throw ConfigError(where + ": has no values");
  const bool groups = node[0].IsMap();
  if (!groups && !is_scenario_key(name))
    throw ConfigError(where + ": '" + name + "' is not a scenario key" + key_hint(name) +
                      " (collnet list names them); an axis of other name must list maps of scenario keys");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node v = node[i];
    Axis::Value value;
    if (groups) {
      if (!v.IsMap())
        throw ConfigError(where + ": value " + std::to_string(i + 1) + " must be a map of scenario keys like the first");
      std::string label;
      std::string given_label;
      for (const auto& kv : v) {
        const auto key = kv.first.as<std::string>();
        if (key == "label" && kv.second.IsScalar()) {  // the name the results and tables show
          given_label = scalar(kv.second);
          continue;
        }
        if (!is_scenario_key(key))
          throw ConfigError(where + ": value " + std::to_string(i + 1) + ": unknown key '" + key + "'" + key_hint(key) +
                            " (collnet list names the scenario keys)");
        if (!kv.second.IsScalar())
          throw ConfigError(where + ": value " + std::to_string(i + 1) + ": key '" + key + "' must have a single value");
        value.sets.emplace_back(key, scalar(kv.second));
        label += (label.empty() ? "" : " ") + key + "=" + scalar(kv.second);
      }
      value.shown = given_label.empty() ? label : given_label;
    } else {
      if (!v.IsScalar())
        throw ConfigError(where + ": value " + std::to_string(i + 1) + " must be a single value (a number or word)");
      value.sets.emplace_back(name, scalar(v));
      // Numbers stay numbers in the results (plots need them), words stay strings.
      const auto s = scalar(v);
      try {
        const auto n = v.as<double>();
        value.shown = integral_text(v) ? nlohmann::ordered_json(v.as<std::int64_t>()) : nlohmann::ordered_json(n);
      } catch (const YAML::Exception&) {
        value.shown = s;
      }
    }
    if (!seen.insert(value.shown.dump()).second && !zip)  // zip pairs: a value may repeat
      throw ConfigError(where + ": value " + value.shown.dump() + " is listed twice");
    axis.values.push_back(std::move(value));
  }
  return axis;
}

}  // namespace

std::string canonical_scenario(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p.values()) s += k + ": " + v + "\n";  // std::map: sorted by key
  return s;
}

std::string scenario_hash(const std::string& canonical) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64
  for (const unsigned char c : canonical) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

Sweep parse_sweep_text(const std::string& yaml, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw ConfigError(source + ": malformed YAML: " + e.what());
  }
  if (!root.IsMap()) throw ConfigError(source + ": a sweep file is a map with keys base and axes");
  for (const auto& kv : root) {
    const auto key = kv.first.as<std::string>();
    if (std::find(std::begin(kTopKeys), std::end(kTopKeys), key) == std::end(kTopKeys))
      throw ConfigError(source + ": unknown key '" + key + "'; accepted keys: base, axes, zip, seeds, table, plot");
  }
  Sweep sweep;
  sweep.source = source;
  if (root["base"]) {
    const YAML::Node base = root["base"];
    if (!base.IsMap() && !base.IsNull()) throw ConfigError(source + ": 'base' must be a scenario (a map of key: value)");
    YAML::Emitter e;
    e << base;
    sweep.base = parse_scenario_text(e.c_str(), source + ": base");
  }
  if (root["zip"]) {
    const auto zip = root["zip"].IsScalar() ? parse_boolean(root["zip"].Scalar()) : std::nullopt;
    if (!zip) throw ConfigError(source + ": 'zip' must be " + kBooleanSpellings);
    sweep.zip = *zip;
  }
  std::string seeds_where;  // "SOURCE line N", where the file sets seeds
  if (root["seeds"]) {
    const YAML::Node n = root["seeds"];
    for (const auto& kv : root)  // the key's line: an empty value has none of its own
      if (kv.first.as<std::string>() == "seeds")
        seeds_where = source + " line " + std::to_string(kv.first.Mark().line + 1);
    const std::string given = n.IsScalar() ? n.Scalar() : n.IsSequence() ? "a list" : n.IsMap() ? "a map" : "nothing";
    std::int64_t value = 0;
    const bool integral = n.IsScalar() && integral_text(n);
    if (integral) {
      const auto [ptr, ec] = std::from_chars(given.data() + (given[0] == '+'), given.data() + given.size(), value);
      if (ec != std::errc{} || ptr != given.data() + given.size()) value = 0;
    }
    if (!integral || value < 1 || value > kMaxSeeds)
      throw ConfigError(fmt::format("{}: 'seeds' must be an integer from 1 to {} (each point runs with key seed = "
                                    "1, 2, ..., seeds), got '{}'",
                                    seeds_where, kMaxSeeds, given));
    sweep.seeds = static_cast<int>(value);
  }
  const YAML::Node axes_node = root["axes"];
  if (!axes_node || !axes_node.IsMap() || axes_node.size() == 0)
    throw ConfigError(source + ": 'axes' must be a map of at least one axis (key: [values] or key: {from, to, step})");
  std::vector<Axis> axes;
  for (const auto& kv : axes_node) {
    axes.push_back(parse_axis(kv.first.as<std::string>(), kv.second, source, sweep.zip));
    sweep.axes.push_back(axes.back().name);
  }
  // Two axes must not set the same key: the later would silently win.
  std::map<std::string, std::string> setter;
  for (const auto& a : axes)
    for (const auto& v : a.values)
      for (const auto& [k, unused] : v.sets) {
        const auto [it, fresh] = setter.emplace(k, a.name);
        if (!fresh && it->second != a.name)
          throw ConfigError(source + ": axes '" + it->second + "' and '" + a.name + "' both set key '" + k + "'");
      }
  // seeds: N sets key seed itself; an axis or the base setting it would be overridden.
  if (sweep.seeds > 0) {
    const std::string what = fmt::format("{}: 'seeds' ({}) runs every point with key seed = 1..{}", seeds_where,
                                         sweep.seeds, sweep.seeds);
    if (const auto it = setter.find("seed"); it != setter.end())
      throw ConfigError(what + "; axis '" + it->second + "' sets key 'seed' too: give one of them");
    if (sweep.base.has("seed"))
      throw ConfigError(what + "; base sets key 'seed' too (seed: " + sweep.base.text("seed", "") +
                        "): give one of them");
  }
  const std::size_t runs_per_point = sweep.seeds > 0 ? static_cast<std::size_t>(sweep.seeds) : 1;

  std::vector<std::vector<std::size_t>> combos;
  if (sweep.zip) {
    for (const auto& a : axes)
      if (a.values.size() != axes[0].values.size())
        throw ConfigError(source + ": zip: true pairs the axes' values, but axis '" + a.name + "' has " +
                          std::to_string(a.values.size()) + " values and axis '" + axes[0].name + "' has " +
                          std::to_string(axes[0].values.size()));
    if (axes[0].values.size() * runs_per_point > 1000000)
      throw ConfigError(source + ": the axes times the seeds have more than 1000000 points");
    for (std::size_t i = 0; i < axes[0].values.size(); ++i) combos.emplace_back(axes.size(), i);
  } else {
    std::size_t total = 1;
    for (const auto& a : axes) {
      total *= a.values.size();
      if (total * runs_per_point > 1000000)
        throw ConfigError(source + ": the product of the axes" + (sweep.seeds > 0 ? " times the seeds" : "") +
                          " has more than 1000000 points");
    }
    std::vector<std::size_t> idx(axes.size(), 0);
    for (std::size_t n = 0; n < total; ++n) {
      combos.push_back(idx);
      for (std::size_t d = axes.size(); d-- > 0;) {  // the last axis varies fastest
        if (++idx[d] < axes[d].values.size()) break;
        idx[d] = 0;
      }
    }
  }
  std::set<std::string> hashes;
  for (std::size_t g = 0; g < combos.size(); ++g) {
    SweepPoint p;
    p.group = g;
    p.scenario = sweep.base;
    p.keys = nlohmann::ordered_json::object();
    for (std::size_t d = 0; d < axes.size(); ++d) {
      const auto& v = axes[d].values[combos[g][d]];
      for (const auto& [k, val] : v.sets) p.scenario.set(k, val);
      p.keys[axes[d].name] = v.shown;
    }
    // Without seeds one run of the point; with seeds one per seed, in order.
    for (int seed = sweep.seeds > 0 ? 1 : 0; seed <= sweep.seeds; ++seed) {
      SweepPoint run = p;
      run.index = sweep.points.size();
      run.seed = seed;
      if (seed > 0) run.scenario.set("seed", std::to_string(seed));
      run.canonical = canonical_scenario(run.scenario);
      run.hash = scenario_hash(run.canonical);
      if (!hashes.insert(run.hash).second)
        throw ConfigError(source + ": point " + std::to_string(run.index + 1) + " " + point_label(run) +
                          " is the same scenario as an earlier point");
      sweep.points.push_back(std::move(run));
    }
  }
  return sweep;
}

std::string point_label(const SweepPoint& p) {
  return p.seed > 0 ? p.keys.dump() + " seed=" + std::to_string(p.seed) : p.keys.dump();
}

Sweep load_sweep(const std::string& path) {
  std::string text;
  if (const std::string why = read_input_file("sweep file", path, text); !why.empty()) throw ConfigError(why);
  return parse_sweep_text(text, "sweep '" + path + "'");
}

std::map<std::string, SweepRecord> read_records(const std::string& path) {
  std::map<std::string, SweepRecord> records;
  std::ifstream in(path);
  if (!in) return records;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || !j.contains("hash")) continue;  // cut short by a kill
    SweepRecord r{std::move(j)};
    const std::string h = r.hash();
    records[h] = std::move(r);
  }
  return records;
}

void append_record(const std::string& path, const nlohmann::json& record) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw ConfigError("--out: cannot write '" + path + "': " + std::strerror(errno));
  // A writer killed mid-line leaves a line without its newline: start afresh.
  std::string line;
  if (::lseek(fd, 0, SEEK_END) > 0) {
    const int rfd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    char last = '\n';
    if (rfd >= 0) {
      if (::lseek(rfd, -1, SEEK_END) >= 0 && ::read(rfd, &last, 1) != 1) last = '\n';
      ::close(rfd);
    }
    if (last != '\n') line += "\n";
  }
  line += record.dump() + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("cannot append to '" + path + "': " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

std::string status_name(int exit_status) {
  switch (exit_status) {
    case 0: return "ok";
    case 1: return "data-check-failed";
    case 2: return "bad-input";
    case 3: return "deadlock";
    case 4: return "internal-error";
    default: return "failed";
  }
}

}  // namespace collnet::cli
