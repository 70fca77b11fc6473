// `collnet saturation`: the saturation throughput of a synthetic-traffic
// scenario, found by bisection over the offered rate (key injection_rate).
// Each probe is one synthetic run of the scenario at one rate, made by the
// code of `collnet run` in this process (run_network); a probe is saturated
// when the network did not keep up with the rate it was offered
// (saturation_criterion). Guide: docs/guide/saturation.md.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace collnet::cli {

/// The command line of `collnet saturation`, its numbers as given: they are
/// read by saturation_settings, whose problems name the option.
struct SaturationOptions {
  std::string scenario;           // YAML scenario file ("": none)
  std::vector<std::string> sets;  // --set key=value
  std::string from;               // --from FILE: the scenario of a JSON report
  std::string json_path;          // --json FILE
  std::string tolerance;          // "": the defaults of SaturationSettings
  std::string latency_limit;
  std::string resolution;
  std::string max_rate;
};

struct SaturationSettings {
  double tolerance = 0.02;        // saturated: accepted < (1 - tolerance) x offered
  double latency_multiple = 5.0;  // --latency-limit Nx: N x the zero-load latency (the default)
  double latency_cycles = 0;      // --latency-limit N: N cycles (0: the multiple applies)
  double resolution = 0.005;      // the bracket's width and the rate of the first probe
  double max_rate = 1.0;          // the highest rate searched
};

/// The settings of `options`, each bad value adding a problem that names
/// its option and the values it accepts.
SaturationSettings saturation_settings(const SaturationOptions& options, std::vector<std::string>& problems);

/// One probe: a synthetic run at `rate` flits per node per cycle.
struct SaturationProbe {
  double rate = 0;            // the injection_rate the run was given
  double offered_rate = 0;    // measured in the window, as `collnet run` reports them
  double accepted_rate = 0;
  double avg_latency = 0;     // NaN when no measured packet arrived
  double p99_latency = 0;
  double one_packet_rate = 0; // one packet's flits over the window, per endpoint per cycle
  std::uint64_t measured_packets = 0;
  std::uint64_t unfinished_packets = 0;
  bool completed = true;      // every measured packet arrived within drain_cycles
  bool deadlock = false;      // the run stopped on a deadlock (`collnet run` exit status 3)
  std::uint64_t integrity_errors = 0;  // flits delivered wrong (`collnet run` exit status 1)
  std::string criterion;      // why the probe is saturated (saturation_criterion); "" when it is not
  [[nodiscard]] bool saturated() const { return !criterion.empty(); }
};

/// The first criterion `p` meets, "" for none: "deadlock" (the run
/// deadlocked), "accepted" (accepted_rate < (1 - tolerance) x
/// offered_rate, and short by more than one packet in the window: with a
/// handful of packets one in flight at the window's end is not a
/// shortfall), "unfinished" (measured packets still in flight after
/// drain_cycles), "latency" (avg_latency > latency_limit).
std::string saturation_criterion(const SaturationProbe& p, double tolerance, double latency_limit);

struct SaturationSearch {
  std::vector<SaturationProbe> probes;  // in the order they ran
  double zero_load_latency = 0;         // average latency of the first probe (at the resolution's rate)
  double latency_limit = 0;             // cycles
  double saturation_rate = 0;           // the highest rate found unsaturated (0: the first probe saturated)
  double bracket_low = 0;               // = saturation_rate
  double bracket_high = 0;              // the lowest rate found saturated (when `saturated`)
  bool saturated = false;               // false: unsaturated up to max_rate
  std::string criterion = "none";       // the criterion of the probe at bracket_high
  bool data_check_failed = false;       // a probe delivered a flit wrong: the search stopped there
};

/// The rates the search may probe: k x resolution for k = 1, 2, ... below
/// max_rate, and max_rate itself. The first probe runs at the resolution
/// (its latency is the zero-load latency); then bisection over the grid
/// between the highest rate found unsaturated and the lowest found
/// saturated (max_rate until one is found; it is probed only when every
/// lower rate was unsaturated), until they are neighbours. `probe(rate)`
/// runs one rate (without its criterion: the search sets it);
/// `on_probe` sees each probe judged, as it ends.
SaturationSearch search_saturation(const SaturationSettings& settings,
                                   const std::function<SaturationProbe(double rate)>& probe,
                                   const std::function<void(const SaturationProbe&)>& on_probe = {});

struct SaturationOutcome {
  nlohmann::json json;  // contract fields: docs/reference/json.md, "collnet saturation"
  std::string text;     // the summary after the probe lines
  int exit_status = 0;  // 0 searched (deadlocked probes included), 1 a probe's data check failed
};

/// `collnet saturation`: checks the options, the scenario (a synthetic
/// one: `algorithm` and packets_per_node > 0 are refused) and the output
/// file, throwing one ConfigError with every problem before anything runs;
/// then searches, writing the header and each probe's line to `out` as it
/// ends.
SaturationOutcome run_saturation(const SaturationOptions& options, std::ostream& out);

}  // namespace collnet::cli
