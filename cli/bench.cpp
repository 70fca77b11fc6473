#include "cli/bench.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <functional>

#include "collectives/params.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/run/synthetic.hpp"

namespace collnet::cli {

namespace {

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a.empty() ? "unknown" : a + " " + b + " " + c;
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

/// Runs `body` in a child process, which prints one JSON line (with its peak
/// resident memory added); `what` names the point in errors.
nlohmann::json in_child(const std::string& what, const std::function<nlohmann::json()>& body) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("bench: pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("bench: fork failed");
  if (pid == 0) {
    close(fds[0]);
    nlohmann::json j;
    try {
      j = body();
      rusage usage{};
      getrusage(RUSAGE_SELF, &usage);
      j["peak_rss_kib"] = usage.ru_maxrss;
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
  if (text.empty()) throw std::runtime_error("bench: the run of " + what + " died");
  auto j = nlohmann::json::parse(text);
  if (j.contains("error")) {
    const std::string message = "bench: " + what + ": " + j["error"].get<std::string>();
    if (j.contains("bad_input")) throw ConfigError(message);  // exit 2, like every bad input
    throw std::runtime_error(message);
  }
  return j;
}

/// The simulation-speed fields every bench row has (README "collnet
/// bench"); ns_per_flit_hop divides the simulation's CPU time by `hops`.
struct Speed {
  double sim_seconds;
  double sim_cpu_seconds;
  double router_cycles_per_second;
  double router_cycles_per_cpu_second;
  std::uint64_t hops;
};

nlohmann::json speed_fields(const Speed& s) {
  return {{"sim_seconds", s.sim_seconds},
          {"sim_cpu_seconds", s.sim_cpu_seconds},
          {"router_cycles_per_second", s.router_cycles_per_second},
          {"router_cycles_per_cpu_second", s.router_cycles_per_cpu_second},
          {"ns_per_flit_hop", s.hops ? 1e9 * s.sim_cpu_seconds / static_cast<double>(s.hops) : 0.0}};
}

/// The kernel's figures of a run, the same fields for both kinds of run.
template <typename Result>
nlohmann::json kernel_fields(const Result& r) {
  return {{"threads", r.threads},
          {"evaluate_share", r.evaluate_share},
          {"wait_share", r.wait_share},
          {"serial_share", r.serial_share},
          {"calendar_cycles", r.calendar_cycles},
          {"solo_cycles", r.solo_cycles}};
}

/// One synthetic configuration.
nlohmann::json measure(const std::string& topology, double injection_rate, const BenchOptions& o) {
  return in_child(topology, [&] {
    systemc::SyntheticScenario s;
    s.topology = topology;
    s.load.injection_rate = injection_rate;
    s.load.packet_flits = o.packet_flits;
    s.warmup_cycles = static_cast<systemc::Cycle>(o.warmup_cycles);
    s.measure_cycles = static_cast<systemc::Cycle>(o.measure_cycles);
    s.threads = o.threads;
    const systemc::SyntheticResult r = systemc::run_synthetic(s);
    nlohmann::json j = speed_fields({r.sim_seconds, r.sim_cpu_seconds, r.router_cycles_per_second,
                                     r.router_cycles_per_cpu_second, r.router_traversals});
    j.update({{"topology", r.topology},
              {"injection_rate", injection_rate},
              {"routers", r.routers},
              {"cycles", r.cycles},
              {"accepted_rate", r.accepted_rate},
              {"avg_latency", r.avg_latency},
              {"elaboration_seconds", r.elaboration_seconds},
              {"router_traversals", r.router_traversals}});
    j.update(kernel_fields(r));
    return j;
  });
}

/// One collective point: the whole run (schedule, elaboration, simulation,
/// data check) in its own process.
nlohmann::json measure(const CollectivePoint& point, int threads) {
  return in_child(point.name, [&] {
    const auto wall0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    Params params;
    for (const auto& [key, value] : point.keys) params.set(key, value);
    params.set("threads", std::to_string(threads));
    const systemc::CollectiveResult r = systemc::run_collective(systemc::collective_from(params));
    if (!r.completed || r.deadlocked()) throw std::runtime_error("the collective did not complete");
    if (!r.data_check || r.reference_mismatch_words != 0) throw std::runtime_error("the data check failed");
    const double run_cpu = cpu_seconds() - cpu0;
    const double run_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const double router_cycles = static_cast<double>(r.routers) * static_cast<double>(r.cycles);
    nlohmann::json j = speed_fields({r.sim_seconds, r.sim_cpu_seconds,
                                     r.sim_seconds > 0 ? router_cycles / r.sim_seconds : 0.0,
                                     r.sim_cpu_seconds > 0 ? router_cycles / r.sim_cpu_seconds : 0.0, r.flit_hops});
    j.update({{"point", point.name},
              {"topology", r.topology},
              {"algorithm", r.algorithm},
              {"endpoints", r.endpoints},
              {"routers", r.routers},
              {"cycles", r.cycles},
              {"data_check", "pass"},
              {"flits", r.flits},
              {"flit_hops", r.flit_hops},
              {"router_evaluations", r.router_evaluations},
              {"nic_evaluations", r.nic_evaluations},
              {"run_seconds", run_wall},
              {"run_cpu_seconds", run_cpu}});
    j.update(kernel_fields(r));
    return j;
  });
}

/// The fastest (least simulation CPU) of `repeat` runs.
nlohmann::json fastest(int repeat, const std::function<nlohmann::json()>& run) {
  nlohmann::json best;
  for (int k = 0; k < std::max(repeat, 1); ++k) {
    nlohmann::json j = run();
    if (best.is_null() || j["sim_cpu_seconds"].get<double>() < best["sim_cpu_seconds"].get<double>()) best = j;
  }
  return best;
}

}  // namespace

const std::vector<CollectivePoint>& collective_points() {
  // The collective runs at the documents' scales. A2AT as the
  // README's A2AT section runs it (8 VCs, a barrier after every group).
  static const std::vector<CollectivePoint> points = {
      {"a2at-torus:32x32",
       {{"topology", "torus:32x32"}, {"algorithm", "a2a-optimal"}, {"nct", "4"}, {"message_flits", "16"},
        {"vcs", "8"}, {"group_barriers", "true"}}},
      {"a2at-torus:16x16",
       {{"topology", "torus:16x16"}, {"algorithm", "a2a-optimal"}, {"nct", "4"}, {"message_flits", "16"},
        {"vcs", "8"}, {"group_barriers", "true"}}},
      {"hd-allreduce-boards:4x4x4x4",
       {{"topology", "boards:4x4x4x4"}, {"algorithm", "hd-allreduce"}, {"elements", "65536"}}},
      {"twotree-hier-leafspine:p=16",
       {{"topology", "leafspine:p=16"}, {"algorithm", "twotree-hier"}, {"collective", "allreduce"},
        {"elements", "65536"}}},
      // Document 002's scale (6156 servers, 6669 switches): examples/twotree-p16.yaml on p=36.
      {"twotree-hier-leafspine:p=36",
       {{"topology", "leafspine:p=36"}, {"algorithm", "twotree-hier"}, {"collective", "allreduce"},
        {"elements", "4096"}, {"blocks", "16"}, {"stage_pipelining", "true"}}},
  };
  return points;
}

BenchOutcome run_bench(const BenchOptions& o) {
  BenchOutcome out;
  const std::string load_before = load_average();
  std::vector<const CollectivePoint*> chosen;
  if (o.collectives) {
    for (const std::string& name : o.points) {
      const auto& all = collective_points();
      const auto it = std::find_if(all.begin(), all.end(), [&](const CollectivePoint& p) { return p.name == name; });
      if (it == all.end()) {
        std::vector<std::string> names;
        for (const auto& p : all) names.push_back(p.name);
        throw ConfigError("--point: unknown collective point '" + name + "'; accepted values: " + join(names));
      }
      chosen.push_back(&*it);
    }
    if (o.points.empty())
      for (const auto& p : collective_points()) chosen.push_back(&p);
  }
  nlohmann::json rows = nlohmann::json::array();
  if (o.synthetic) {
    for (const std::string& topology : o.topologies)
      rows.push_back(fastest(o.repeat, [&] { return measure(topology, o.injection_rate, o); }));
    if (o.saturated_point) rows.push_back(fastest(o.repeat, [&] { return measure("mesh:8x8", 1.0, o); }));
  }
  // Per-router speed relative to the 8x8 network of the same kind at the
  // same offered load: cost should grow linearly with the network.
  for (auto& row : rows) {
    const std::string kind = row["topology"].get<std::string>().substr(0, row["topology"].get<std::string>().find(':'));
    for (const auto& base : rows)
      if (base["topology"] == kind + ":8x8" && base["injection_rate"] == row["injection_rate"])
        row["per_router_speed_vs_8x8"] =
            row["router_cycles_per_cpu_second"].get<double>() / base["router_cycles_per_cpu_second"].get<double>();
  }
  nlohmann::json collective_rows = nlohmann::json::array();
  for (const CollectivePoint* p : chosen) collective_rows.push_back(fastest(o.repeat, [&] { return measure(*p, o.threads); }));
  out.json = {{"injection_rate", o.injection_rate},
              {"packet_flits", o.packet_flits},
              {"warmup_cycles", o.warmup_cycles},
              {"measure_cycles", o.measure_cycles},
              {"load_average_before", load_before},
              {"load_average_after", load_average()},
              {"cpus", sysconf(_SC_NPROCESSORS_ONLN)},
              {"runs", rows}};
  if (o.collectives) out.json["collective_runs"] = collective_rows;
  std::string& t = out.text;
  t += fmt::format("load average before {}, after {} ({} CPUs)\n", load_before, load_average(),
                   sysconf(_SC_NPROCESSORS_ONLN));
  if (!rows.empty()) {
    t += fmt::format("collnet bench: uniform traffic, {} flits/node/cycle (saturated point: 1.0), {}-flit packets, "
                     "{} + {} cycles\n",
                     o.injection_rate, o.packet_flits, o.warmup_cycles, o.measure_cycles);
    t += fmt::format("{:<12} {:>7} {:>7} {:>7} {:>8} {:>8} {:>12} {:>12} {:>7} {:>10} {:>8} {:>9}\n", "topology",
                     "offered", "routers", "cycles", "wall s", "CPU s", "Mrc/s wall", "Mrc/s CPU", "vs 8x8",
                     "hops/rc", "ns/hop", "peak MiB");
    for (const auto& row : rows) {
      const double router_cycles = row["routers"].get<double>() * row["cycles"].get<double>();
      t += fmt::format(
          "{:<12} {:>7.3f} {:>7} {:>7} {:>8.3f} {:>8.3f} {:>12.3f} {:>12.3f} {:>7.2f} {:>10.3f} {:>8.1f} {:>9.1f}\n",
          row["topology"].get<std::string>(), row["injection_rate"].get<double>(), row["routers"].get<int>(),
          row["cycles"].get<long>(), row["sim_seconds"].get<double>(), row["sim_cpu_seconds"].get<double>(),
          row["router_cycles_per_second"].get<double>() / 1e6, row["router_cycles_per_cpu_second"].get<double>() / 1e6,
          row.value("per_router_speed_vs_8x8", 0.0), row["router_traversals"].get<double>() / router_cycles,
          row["ns_per_flit_hop"].get<double>(), row["peak_rss_kib"].get<double>() / 1024.0);
    }
    t += "Mrc/s = million simulated router-cycles per second; vs 8x8 = per-router speed (CPU) relative to the 8x8\n"
         "network of the same kind at the same load; hops/rc = flits forwarded per router per cycle (the work,\n"
         "which grows with the mean route length at a fixed injection rate); ns/hop = CPU time per flit forwarded\n"
         "by a router (ejection included).\n";
  }
  if (!collective_rows.empty()) {
    t += "collective points (whole run: schedule, elaboration, simulation, data check):\n";
    t += fmt::format("{:<28} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>11} {:>7} {:>7} {:>7} {:>9}\n", "point",
                     "cycles", "run s", "run CPU", "sim s", "sim CPU", "Mrc/s CPU", "flit-hops", "ns/hop", "rev/hop",
                     "nev/hop", "peak MiB");
    for (const auto& row : collective_rows) {
      const auto hops = static_cast<double>(std::max<std::uint64_t>(row["flit_hops"].get<std::uint64_t>(), 1));
      t += fmt::format(
          "{:<28} {:>8} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>10.3f} {:>11} {:>7.1f} {:>7.2f} {:>7.2f} {:>9.1f}\n",
          row["point"].get<std::string>(), row["cycles"].get<long>(), row["run_seconds"].get<double>(),
          row["run_cpu_seconds"].get<double>(), row["sim_seconds"].get<double>(), row["sim_cpu_seconds"].get<double>(),
          row["router_cycles_per_cpu_second"].get<double>() / 1e6, row["flit_hops"].get<std::uint64_t>(),
          row["ns_per_flit_hop"].get<double>(), static_cast<double>(row["router_evaluations"].get<std::uint64_t>()) / hops,
          static_cast<double>(row["nic_evaluations"].get<std::uint64_t>()) / hops, row["peak_rss_kib"].get<double>() / 1024.0);
    }
    t += "run s / run CPU = the whole run in its process; sim = the simulation alone; flit-hops = flits that\n"
         "crossed a network link; ns/hop = simulation CPU time per flit-hop; rev/hop, nev/hop = router and NIC\n"
         "evaluations (cycles in which one ran) per flit-hop; every point passed its data check.\n";
  }
  return out;
}

}  // namespace collnet::cli
