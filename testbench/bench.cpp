#include "testbench/bench.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "collectives/params.hpp"
#include "systemc/synthetic.hpp"

namespace collnet::cli {

namespace {

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a.empty() ? "unknown" : a + " " + b + " " + c;
}

/// One configuration in a child process; the child prints one JSON line.
nlohmann::json measure(const std::string& topology, const BenchOptions& o) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("bench: pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("bench: fork failed");
  if (pid == 0) {
    close(fds[0]);
    nlohmann::json j;
    try {
      systemc::SyntheticScenario s;
      s.topology = topology;
      s.load.injection_rate = o.injection_rate;
      s.load.packet_flits = o.packet_flits;
      s.warmup_cycles = static_cast<systemc::Cycle>(o.warmup_cycles);
      s.measure_cycles = static_cast<systemc::Cycle>(o.measure_cycles);
      const systemc::SyntheticResult r = systemc::run_synthetic(s);
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      j = {{"topology", r.topology},
           {"routers", r.routers},
           {"cycles", r.cycles},
           {"accepted_rate", r.accepted_rate},
           {"avg_latency", r.avg_latency},
           {"sim_seconds", r.sim_seconds},
           {"sim_cpu_seconds", r.sim_cpu_seconds},
           {"elaboration_seconds", r.elaboration_seconds},
           {"router_cycles_per_second", r.router_cycles_per_second},
           {"router_cycles_per_cpu_second", r.router_cycles_per_cpu_second},
           {"router_traversals", r.router_traversals},
           {"ns_per_flit_hop", r.router_traversals ? 1e9 * r.sim_cpu_seconds / static_cast<double>(r.router_traversals)
                                                   : 0.0},
           {"peak_rss_kib", usage.ru_maxrss}};
    } catch (const ConfigError& e) {
      j = {{"error", e.what()}, {"bad_input", true}};
    } catch (const std::exception& e) {
      j = {{"error", e.what()}};
    }
    const std::string line = j.dump() + "\n";
    const ssize_t written = write(fds[1], line.data(), line.size());
    close(fds[1]);
    std::_Exit(written == static_cast<ssize_t>(line.size()) ? 0 : 1);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text.empty()) throw std::runtime_error("bench: the run of " + topology + " died");
  auto j = nlohmann::json::parse(text);
  if (j.contains("error")) {
    const std::string what = "bench: " + topology + ": " + j["error"].get<std::string>();
    if (j.contains("bad_input")) throw ConfigError(what);  // exit 2, like every bad input
    throw std::runtime_error(what);
  }
  return j;
}

}  // namespace

BenchOutcome run_bench(const BenchOptions& o) {
  BenchOutcome out;
  const std::string load_before = load_average();
  nlohmann::json rows = nlohmann::json::array();
  for (const std::string& topology : o.topologies) {
    nlohmann::json best;
    for (int k = 0; k < std::max(o.repeat, 1); ++k) {
      nlohmann::json j = measure(topology, o);
      if (best.is_null() || j["sim_cpu_seconds"].get<double>() < best["sim_cpu_seconds"].get<double>()) best = j;
    }
    rows.push_back(best);
  }
  // Per-router speed relative to the first configuration of the same kind
  // (mesh or torus) at 8x8: cost should grow linearly with the network.
  for (auto& row : rows) {
    const std::string kind = row["topology"].get<std::string>().substr(0, row["topology"].get<std::string>().find(':'));
    for (const auto& base : rows)
      if (base["topology"] == kind + ":8x8")
        row["per_router_speed_vs_8x8"] =
            row["router_cycles_per_cpu_second"].get<double>() / base["router_cycles_per_cpu_second"].get<double>();
  }
  out.json = {{"injection_rate", o.injection_rate},
              {"packet_flits", o.packet_flits},
              {"warmup_cycles", o.warmup_cycles},
              {"measure_cycles", o.measure_cycles},
              {"load_average_before", load_before},
              {"load_average_after", load_average()},
              {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
              {"runs", rows}};
  std::string& t = out.text;
  t += fmt::format("collnet bench: uniform traffic, {} flits/node/cycle, {}-flit packets, {} + {} cycles\n",
                   o.injection_rate, o.packet_flits, o.warmup_cycles, o.measure_cycles);
  t += fmt::format("load average before {}, after {} ({} CPUs)\n", load_before, load_average(),
                   sysconf(_SC_NPROCESSORS_ONLN));
  t += fmt::format("{:<12} {:>7} {:>7} {:>8} {:>8} {:>12} {:>12} {:>7} {:>10} {:>8} {:>9}\n", "topology", "routers",
                   "cycles", "wall s", "CPU s", "Mrc/s wall", "Mrc/s CPU", "vs 8x8", "hops/rc", "ns/hop", "peak MiB");
  for (const auto& row : rows) {
    const double router_cycles = row["routers"].get<double>() * row["cycles"].get<double>();
    t += fmt::format("{:<12} {:>7} {:>7} {:>8.3f} {:>8.3f} {:>12.3f} {:>12.3f} {:>7.2f} {:>10.3f} {:>8.1f} {:>9.1f}\n",
                     row["topology"].get<std::string>(), row["routers"].get<int>(), row["cycles"].get<long>(),
                     row["sim_seconds"].get<double>(), row["sim_cpu_seconds"].get<double>(),
                     row["router_cycles_per_second"].get<double>() / 1e6,
                     row["router_cycles_per_cpu_second"].get<double>() / 1e6,
                     row.value("per_router_speed_vs_8x8", 0.0),
                     row["router_traversals"].get<double>() / router_cycles, row["ns_per_flit_hop"].get<double>(),
                     row["peak_rss_kib"].get<double>() / 1024.0);
  }
  t += "Mrc/s = million simulated router-cycles per second; vs 8x8 = per-router speed (CPU) relative to the 8x8\n"
       "network of the same kind; hops/rc = flits forwarded per router per cycle (the work, which grows with the\n"
       "mean route length at a fixed injection rate); ns/hop = CPU time per flit forwarded by a router.\n";
  return out;
}

}  // namespace collnet::cli
