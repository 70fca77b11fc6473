#include "cli/saturation.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <ostream>

#include <fmt/format.h>

#include "collectives/units.hpp"
#include "systemc/run/synthetic.hpp"
#include "cli/run.hpp"
#include "cli/scenario.hpp"

namespace collnet::cli {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A decimal number filling all of `text`.
bool parse_number(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc{} && ptr == end && std::isfinite(value);
}

/// A rate as a scenario value and for people: no binary noise (0.315, not
/// 0.31500000000000000222).
std::string rate_text(double rate) { return fmt::format("{:.12g}", rate); }

/// A number field of a run's JSON; NaN when it is missing or null.
double number(const nlohmann::json& j, const char* field) {
  const auto it = j.find(field);
  return it != j.end() && it->is_number() ? it->get<double>() : kNaN;
}

/// A count field of a run's JSON; 0 when it is missing or null.
std::uint64_t count(const nlohmann::json& j, const char* field) {
  const auto it = j.find(field);
  return it != j.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

nlohmann::json number_or_null(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

std::string latency_limit_rule(const SaturationSettings& s) {
  return s.latency_cycles > 0 ? fmt::format("{} cycles", s.latency_cycles)
                              : fmt::format("{} x the zero-load latency", s.latency_multiple);
}

/// Why a probe is saturated, in words; "unsaturated" when it is not.
std::string verdict_text(const SaturationProbe& p, double tolerance, double latency_limit) {
  if (p.criterion.empty()) return "unsaturated";
  if (p.criterion == "deadlock") return "saturated: the run deadlocked";
  if (p.criterion == "accepted")
    return fmt::format("saturated: accepted {:.4f} < {} x offered {:.4f}", p.accepted_rate, 1 - tolerance,
                       p.offered_rate);
  if (p.criterion == "unfinished")
    return fmt::format("saturated: {} measured packets undelivered after drain_cycles", p.unfinished_packets);
  return fmt::format("saturated: average latency {:.2f} > limit {:.2f}", p.avg_latency, latency_limit);
}

nlohmann::json probe_json(const SaturationProbe& p) {
  return {{"rate", p.rate},
          {"offered_rate", number_or_null(p.offered_rate)},
          {"accepted_rate", number_or_null(p.accepted_rate)},
          {"avg_latency", number_or_null(p.avg_latency)},
          {"p99_latency", number_or_null(p.p99_latency)},
          {"measured_packets", p.measured_packets},
          {"unfinished_packets", p.unfinished_packets},
          {"completed", p.completed},
          {"deadlock", p.deadlock},
          {"verdict", p.saturated() ? "saturated" : "unsaturated"},
          {"criterion", p.saturated() ? nlohmann::json(p.criterion) : nlohmann::json(nullptr)}};
}

}  // namespace

SaturationSettings saturation_settings(const SaturationOptions& o, std::vector<std::string>& problems) {
  SaturationSettings s;
  double v = 0;
  if (!o.tolerance.empty()) {
    if (parse_number(o.tolerance, v) && v > 0 && v < 1)
      s.tolerance = v;
    else
      problems.push_back("--tolerance: expected a number greater than 0 and less than 1 (the share of the offered "
                         "rate the accepted rate may fall short by), got '" + o.tolerance + "'");
  }
  if (!o.max_rate.empty()) {
    if (parse_number(o.max_rate, v) && v > 0 && v <= 1)
      s.max_rate = v;
    else
      problems.push_back("--max-rate: expected a rate greater than 0 and at most 1 (flits per node per cycle, as "
                         "key injection_rate), got '" + o.max_rate + "'");
  }
  if (!o.resolution.empty()) {
    if (parse_number(o.resolution, v) && v > 0 && v < s.max_rate)
      s.resolution = v;
    else
      problems.push_back(fmt::format("--resolution: expected a rate greater than 0 and less than --max-rate ({}), "
                                     "got '{}'",
                                     rate_text(s.max_rate), o.resolution));
  } else if (s.resolution >= s.max_rate) {
    problems.push_back(fmt::format("--max-rate: {} is not above the resolution {}; give a smaller --resolution",
                                   rate_text(s.max_rate), rate_text(s.resolution)));
  }
  if (!o.latency_limit.empty()) {
    const std::string& t = o.latency_limit;
    const bool multiple = t.back() == 'x' || t.back() == 'X';
    if (multiple && parse_number(t.substr(0, t.size() - 1), v) && v > 1) {
      s.latency_multiple = v;
    } else if (!multiple && parse_number(t, v) && v > 0) {
      s.latency_cycles = v;
    } else {
      problems.push_back("--latency-limit: expected cycles (a number greater than 0, e.g. 200) or a multiple of the "
                         "zero-load latency greater than 1 (e.g. 5x), got '" + t + "'");
    }
  }
  return s;
}

std::string saturation_criterion(const SaturationProbe& p, double tolerance, double latency_limit) {
  if (p.deadlock) return "deadlock";
  // One packet short, up to the rounding of the rates' divisions, is not a shortfall.
  const double shortfall = p.offered_rate - p.accepted_rate;
  if (shortfall > tolerance * p.offered_rate && shortfall > p.one_packet_rate * (1 + 1e-9)) return "accepted";
  if (!p.completed) return "unfinished";
  if (p.avg_latency > latency_limit) return "latency";
  return "";
}

SaturationSearch search_saturation(const SaturationSettings& s, const std::function<SaturationProbe(double)>& probe,
                                   const std::function<void(const SaturationProbe&)>& on_probe) {
  // The grid: rate(k) = k x resolution for k < top, rate(top) = max_rate.
  const auto top = static_cast<std::int64_t>(std::ceil(s.max_rate / s.resolution - 1e-9));
  const auto rate = [&](std::int64_t k) { return k >= top ? s.max_rate : std::stod(rate_text(k * s.resolution)); };
  SaturationSearch r;
  const auto run = [&](std::int64_t k) -> const SaturationProbe& {
    SaturationProbe p = probe(rate(k));
    p.rate = rate(k);
    p.criterion = saturation_criterion(p, s.tolerance, r.latency_limit);
    r.data_check_failed = r.data_check_failed || p.integrity_errors > 0;
    r.probes.push_back(p);
    if (on_probe) on_probe(r.probes.back());
    return r.probes.back();
  };

  // The first probe, at the lowest rate of the grid, gives the zero-load
  // latency; a multiple of it cannot judge that probe itself.
  r.latency_limit = s.latency_cycles > 0 ? s.latency_cycles : std::numeric_limits<double>::infinity();
  const SaturationProbe first = run(1);
  r.zero_load_latency = first.avg_latency;
  if (r.data_check_failed) return r;
  if (first.saturated()) {
    r.saturated = true;
    r.bracket_high = first.rate;
    r.criterion = first.criterion;
    return r;
  }
  if (s.latency_cycles <= 0) {
    if (first.measured_packets == 0 || std::isnan(first.avg_latency))
      throw ConfigError(fmt::format("--latency-limit: the first probe, at rate {}, measured no packet to take the "
                                    "zero-load latency from; lengthen measure_cycles, raise --resolution or give "
                                    "--latency-limit in cycles",
                                    rate_text(first.rate)));
    r.latency_limit = s.latency_multiple * r.zero_load_latency;
  }

  std::int64_t low = 1;
  std::int64_t high = top;  // assumed saturated until probed
  bool high_probed = false;
  while (high - low > 1) {
    const std::int64_t mid = low + (high - low) / 2;
    const SaturationProbe& p = run(mid);
    if (r.data_check_failed) return r;
    if (p.saturated()) {
      high = mid;
      high_probed = true;
      r.criterion = p.criterion;
    } else {
      low = mid;
    }
  }
  if (!high_probed) {  // every rate below max_rate was unsaturated: max_rate itself
    const SaturationProbe& p = run(top);
    if (r.data_check_failed) return r;
    if (p.saturated())
      r.criterion = p.criterion;
    else
      low = top;
  }
  r.saturation_rate = rate(low);
  r.bracket_low = r.saturation_rate;
  r.saturated = low < top;
  r.bracket_high = r.saturated ? rate(high) : 0;
  if (!r.saturated) r.criterion = "none";
  return r;
}

SaturationOutcome run_saturation(const SaturationOptions& options, std::ostream& out) {
  // Everything is checked before the first probe: options, scenario, output file.
  std::vector<std::string> problems;
  const SaturationSettings s = saturation_settings(options, problems);
  Params given;
  if (options.from.empty()) {
    given = load_scenario(options.scenario, options.sets, problems);
  } else {
    if (!options.scenario.empty())
      problems.push_back("--from '" + options.from + "' and the scenario file '" + options.scenario +
                         "' both give the scenario; give one");
    given = load_from_json(options.from, problems);
    apply_overrides(given, options.sets, problems);
  }
  const std::string given_rate = given.has("injection_rate") ? given.text("injection_rate", "") : "";
  Params params;
  if (given.has("algorithm")) {
    problems.push_back("key 'algorithm' (" + given.text("algorithm", "") +
                       "): collnet saturation searches the offered rate of synthetic traffic (keys traffic, "
                       "injection_rate, ...); a collective has no offered rate (collnet run runs it)");
  } else {
    // The rate is the search's: any rate in range completes the scenario as
    // synthetic traffic (the embedded synthetic default under the keys given).
    given.set("injection_rate", rate_text(s.max_rate));
    params = complete_run_scenario(given);
    const std::size_t before = problems.size();
    for (auto& p : run_problems(params)) problems.push_back(std::move(p));
    if (problems.size() == before && systemc::synthetic_from(params).load.packets_per_node > 0)
      problems.push_back("key 'packets_per_node' (" + params.text("packets_per_node", "") +
                         "): a closed run has no offered rate; collnet saturation needs an open-loop run "
                         "(packets_per_node: 0, the default)");
  }
  if (const auto p = output_path_problem("--json", options.json_path); !p.empty()) problems.push_back(p);
  if (problems.size() > 1) {  // options and keys: not "problems in the scenario"
    std::string all = std::to_string(problems.size()) + " problems, nothing was run:";
    for (const auto& p : problems) all += "\n  " + p;
    throw ConfigError(all);
  }
  throw_problems(problems);

  const nlohmann::json scenario = resolved_scenario(params, RunKind::synthetic);
  out << fmt::format("collnet saturation: {} traffic on {}, {}-flit packets; rates {} to {} in steps of {}\n",
                     scenario.value("traffic", ""), scenario.value("topology", ""),
                     scenario["packet_flits"].dump(), rate_text(s.resolution), rate_text(s.max_rate),
                     rate_text(s.resolution));
  out << fmt::format("  saturated when    accepted < {} x offered (--tolerance {}; by more than one packet), "
                     "measured packets undelivered after drain_cycles, a deadlock, or average latency > {} "
                     "(--latency-limit)\n",
                     1 - s.tolerance, s.tolerance, latency_limit_rule(s));
  if (!given_rate.empty())
    out << fmt::format("  note              key injection_rate ({}) is not used: the search sets it\n", given_rate);
  out << fmt::format("  {:>8} {:>9} {:>9} {:>9} {:>9}  {}\n", "rate", "offered", "accepted", "avg lat", "p99 lat",
                     "verdict");
  out.flush();

  std::string credit_loop;  // the runs' credit loop (the same at every rate)
  const auto probe = [&](double rate) {
    Params p = params;
    p.set("injection_rate", rate_text(rate));
    const RunOutcome run = run_network(p, "");
    const nlohmann::json& j = run.json;
    if (const auto it = j.find("credit_loop"); it != j.end()) credit_loop = credit_loop_words(*it);
    SaturationProbe result;
    result.offered_rate = number(j, "offered_rate");
    result.accepted_rate = number(j, "accepted_rate");
    result.avg_latency = number(j, "avg_latency");
    result.p99_latency = number(j, "p99_latency");
    const double window_flits = number(j, "endpoints") * number(j, "window_cycles");
    result.one_packet_rate = window_flits > 0 ? number(j, "packet_flits") / window_flits : 0;
    result.measured_packets = count(j, "measured_packets");
    result.unfinished_packets = count(j, "unfinished_packets");
    result.completed = j.contains("completed") && j["completed"].is_boolean() && j["completed"].get<bool>();
    result.deadlock = run.exit_status == 3;
    result.integrity_errors = count(j, "integrity_errors");
    if (run.exit_status == 1 && result.integrity_errors == 0) result.integrity_errors = 1;
    return result;
  };
  double shown_limit = s.latency_cycles;
  bool first = true;
  const SaturationSearch r = search_saturation(s, probe, [&](const SaturationProbe& p) {
    std::string verdict = verdict_text(p, s.tolerance, shown_limit);
    if (first && !p.saturated() && s.latency_cycles <= 0) {
      shown_limit = s.latency_multiple * p.avg_latency;
      verdict += fmt::format(" (zero load: latency limit {:.2f} cycles)", shown_limit);
    }
    if (p.integrity_errors > 0)
      verdict = fmt::format("DATA CHECK FAILED ({} flits): the search stops", p.integrity_errors);
    first = false;
    out << fmt::format("  {:>8} {:>9.4f} {:>9.4f} {:>9.2f} {:>9.0f}  {}\n", rate_text(p.rate), p.offered_rate,
                       p.accepted_rate, p.avg_latency, p.p99_latency, verdict);
    out.flush();
  });

  const Units units = units_from(params);
  SaturationOutcome o;
  std::string& t = o.text;
  if (r.data_check_failed) {
    t += "  DATA CHECK FAILED a probe delivered flits wrong (collnet run --set injection_rate=RATE shows it); no "
         "saturation rate\n";
    o.exit_status = 1;
  } else if (!r.saturated) {
    t += fmt::format("  saturation rate   not reached: unsaturated up to --max-rate {}\n", rate_text(s.max_rate));
  } else if (r.probes.size() == 1) {
    t += fmt::format("  saturation rate   0: saturated already at the first probe, {} ({})\n",
                     rate_text(r.bracket_high), r.criterion);
  } else {
    t += fmt::format("  saturation rate   {} flits/node/cycle = {:.3g} GB/s a node (unsaturated at {}, saturated at {}: "
                     "{})\n",
                     rate_text(r.saturation_rate), units.gbps(r.saturation_rate), rate_text(r.bracket_low),
                     rate_text(r.bracket_high), r.criterion);
  }
  // Links whose VC buffers do not cover the credit round trip bound the
  // rate a VC carries over them, and so the saturation found.
  if (!credit_loop.empty())
    t += std::string("  credit loop       ") + kCreditLoopRule + ": " + credit_loop + "\n";
  for (const auto& p : r.probes)
    if (p.deadlock)
      t += fmt::format("  deadlock          the probe at {} deadlocked (collnet run --set injection_rate={} shows "
                       "the waiting cycle); counted as saturated\n",
                       rate_text(p.rate), rate_text(p.rate));

  auto& j = o.json;
  j["saturation_rate"] = r.data_check_failed ? nlohmann::json(nullptr) : nlohmann::json(r.saturation_rate);
  j["bracket"] = {r.data_check_failed ? nlohmann::json(nullptr) : nlohmann::json(r.bracket_low),
                  r.saturated ? nlohmann::json(r.bracket_high) : nlohmann::json(nullptr)};
  j["criterion"] = r.data_check_failed ? "data-check-failed" : r.criterion;
  j["saturation_gbps"] = r.data_check_failed ? nlohmann::json(nullptr) : nlohmann::json(units.gbps(r.saturation_rate));
  j["zero_load_latency"] = number_or_null(r.zero_load_latency);
  j["zero_load_latency_ns"] =
      std::isfinite(r.zero_load_latency) ? nlohmann::json(units.ns(r.zero_load_latency)) : nlohmann::json(nullptr);
  j["latency_limit"] = std::isfinite(r.latency_limit) ? nlohmann::json(r.latency_limit) : nlohmann::json(nullptr);
  j["tolerance"] = s.tolerance;
  j["resolution"] = s.resolution;
  j["max_rate"] = s.max_rate;
  j["topology"] = scenario.value("topology", "");
  j["traffic"] = scenario.value("traffic", "");
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& p : r.probes) probes.push_back(probe_json(p));
  j["probes"] = probes;
  // The scenario at the saturation rate: `collnet run --from` runs the bracket's low end.
  Params at = params;
  at.set("injection_rate", rate_text(r.saturation_rate));
  j["scenario"] = resolved_scenario(at, RunKind::synthetic);
  return o;
}

}  // namespace collnet::cli
