// collnet: the command-line front end. Subcommands are a contract (README):
//   check  software reference + static checker, no cycle simulation
//   list   topologies, algorithms and every scenario key
//   run    cycle-accurate network (SystemC): a collective on the NICs or synthetic traffic
//   bench  speed and memory of the cycle-accurate network
//   sweep  many runs from a sweep file, locally or as a Slurm job array (cli/sweep.hpp)
//   saturation  the saturation rate of synthetic traffic, by bisection (cli/saturation.hpp)
//   plot   PNG plots and Markdown tables of sweep results (scripts/collnet_plot.py)
//   export a collective as MSCCL-IR XML (cli/export.hpp)
// Exit status (contract): 0 success, 1 data check failed, 2 bad input,
// 3 deadlock (programs or network stopped making progress), 4 internal error.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "systemc/router/allocator.hpp"
#include "systemc/router/arbiter.hpp"
#include "cli/bench.hpp"
#include "cli/check.hpp"
#include "cli/export.hpp"
#include "cli/key_tables.hpp"
#include "cli/run.hpp"
#include "cli/run_progress_display.hpp"
#include "cli/saturation.hpp"
#include "cli/scenario.hpp"
#include "cli/sweep.hpp"
#include "topology/routing.hpp"
#include "topology/routing/selection.hpp"
#include "topology/topology.hpp"

namespace {

using namespace collnet;

void write_json(const std::string& path, const nlohmann::json& j) { cli::write_json_report("--json", path, j); }

void print_list() {
  fmt::print("Topologies (key 'topology'; routing: the functions of key 'routing' it runs, its default first):\n");
  for (const auto& f : topology::topology_forms()) {
    // The routing functions from their registry, the one list `routing` is checked against.
    std::string names;
    for (const topology::RoutingFunction* r : topology::routings_of_kind(f.prefix))
      names += (names.empty() ? "" : ", ") + r->name + (r->accepts != nullptr ? " (" + r->accepts_when + ")" : "");
    fmt::print("  {:<28} {}\n  {:<28} routing: {}\n", f.syntax, f.description, "", names);
  }
  fmt::print("\nRouting functions (key 'routing'; the first listed for a topology is its default):\n");
  for (const auto& r : topology::routing_functions()) {
    std::string kinds;
    for (const auto& t : r.topologies) kinds += (kinds.empty() ? "" : ", ") + t;
    fmt::print("  {:<28} {}\n", r.name, r.description);
    fmt::print("  {:<28} topologies: {}; {}\n", "", kinds,
               r.adaptive() ? "per-hop (adaptive)" + (r.selection.empty() ? "" : ", selection " + r.selection)
                            : "source route");
  }
  fmt::print("\nSelection rules (per-hop routing: how a router picks among a decision's outputs; key "
             "'output_selection', or the rule a routing function names):\n");
  for (const auto& s : topology::selection_rules()) fmt::print("  {:<28} {}\n", s.name, s.description);
  fmt::print("\nRouter arbitration and allocators (keys 'arbitration', 'allocator', 'vc_allocator_stage'):\n");
  for (const auto& a : systemc::arbitration_policies())
    fmt::print("  {:<34} {}\n", "arbitration " + a.name, a.description);
  for (const auto& a : systemc::switch_allocators()) fmt::print("  {:<34} {}\n", "allocator " + a.name, a.description);
  for (const auto& s : systemc::vc_allocator_stages())
    fmt::print("  {:<34} {}\n", "vc_allocator_stage " + s.name, s.description);
  fmt::print("\nAlgorithms (key 'algorithm'):\n");
  for (const auto& a : collectives::algorithms()) {
    fmt::print("  {:<28} [{}] {}\n", a.name, a.document, a.description);
    fmt::print("  {:<28} topologies: {}\n", "", a.topologies);
    for (const auto& key : a.keys) {
      const KeyDoc k = key.doc();
      fmt::print("  {:<28}   {} = {} ({}): {}\n", "", k.name, k.default_value, k.accepted, k.meaning);
    }
  }
  fmt::print("\nScenario keys:\n");
  for (const auto& k : cli::known_keys())
    fmt::print("  {:<18} default {:<12} accepted {}\n  {:<18} {}\n", k.name, k.default_value, k.accepted, "", k.meaning);
}

std::string self_executable(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) return std::string(buf, static_cast<std::size_t>(n));
  return argv0;
}

/// `collnet plot`: the committed matplotlib script does the drawing.
int run_plot(const std::vector<std::string>& args) {
  const char* env = std::getenv("COLLNET_PLOT_SCRIPT");
  const std::string script = env != nullptr && *env != '\0' ? env : COLLNET_PLOT_SCRIPT;
  if (!std::ifstream(script))
    throw ConfigError("the plotting script '" + script + "' is missing (set COLLNET_PLOT_SCRIPT)");
  // Debian's interpreter, where python3-matplotlib lives (not a python3 earlier on PATH).
  const char* py_env = std::getenv("COLLNET_PYTHON");
  const std::string python = py_env != nullptr && *py_env != '\0' ? py_env
                             : ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3"
                                                                       : "python3";
  std::vector<std::string> argv{python, script};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c;
  for (auto& a : argv) c.push_back(a.data());
  c.push_back(nullptr);
  std::cout.flush();
  ::execvp(python.c_str(), c.data());
  throw std::runtime_error("cannot run python3 (scripts/setup.sh installs python3-matplotlib)");
}

/// `--from FILE`: the scenario a JSON report recorded, `--set` on top.
Params scenario_from(const std::string& from, const std::string& scenario, const std::vector<std::string>& sets,
                     std::vector<std::string>& problems) {
  if (!scenario.empty())
    problems.push_back("--from '" + from + "' and the scenario file '" + scenario + "' both give the scenario; give one");
  Params p = cli::load_from_json(from, problems);
  cli::apply_overrides(p, sets, problems);
  return p;
}

}  // namespace

namespace {

/// Large collective runs are bound by TLB misses: the modules, links and
/// NIC memories of thousands of nodes are spread over hundreds of MiB in 4 KiB
/// pages. glibc's malloc backs its heap with transparent huge pages when the
/// tunable glibc.malloc.hugetlb=1 is set (Debian's kernel gives them only to
/// memory that asks, transparent_hugepage=madvise), and tunables are read only
/// when a process starts: so collnet starts itself again once with the tunable
/// added, for `bench` and for a `run` or `check` of a large network
/// (large_network: the decision is made once the scenario has been read, so
/// that a small run, a sweep point for instance, does not pay for a second
/// process start). It changes nothing simulated; a GLIBC_TUNABLES that
/// already names the tunable (=0 to turn it off) and runs under Valgrind
/// (which would not follow the exec) are left as they are.
void restart_with_huge_pages(char** argv) {
  constexpr const char* kTunable = "glibc.malloc.hugetlb";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr && std::string(tunables).find(kTunable) != std::string::npos) return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload != nullptr && std::string(preload).find("vgpreload") != std::string::npos) return;
  std::string value = tunables != nullptr && *tunables != '\0' ? std::string(tunables) + ":" : std::string();
  value += std::string(kTunable) + "=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);  // returns only if it failed: go on without
}

/// Networks from this many endpoints or nodes on run with huge pages (a
/// 16x16 torus's working set is tens of MiB; an 8x8 one's fits the caches).
constexpr std::size_t kHugePagesFrom = 256;

bool large_network(const Params& params) {
  try {
    const auto topo = topology::make_topology(collectives::topology_key().text(params));
    return topo->graph().endpoint_count() >= kHugePagesFrom || topo->graph().node_count() >= kHugePagesFrom;
  } catch (const std::exception&) {
    return false;  // the run reports the problem itself
  }
}

/// SIGINT or SIGTERM during `collnet run`: the simulation ends after its
/// current slice of cycles (systemc/kernel/run_progress.hpp) and the run reports
/// the figures so far; a second signal ends the process at once.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int sig) {
  g_stop_signal = sig;
  systemc::request_interrupt();
}

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // the second one is the default action
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

/// The subcommand named on the command line (for error messages), or empty.
std::string subcommand_name(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == argv[i]) return sub->get_name();
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collnet: collective-communication interconnect design toolkit"};
  app.require_subcommand(0, 1);
  // `collnet` alone prints this usage (exit 0); `collnet --version` the version.
  app.set_version_flag("--version", std::string("collnet ") + COLLNET_VERSION, "print the version and exit");

  std::string scenario;
  std::vector<std::string> sets;
  std::string json_path;

  auto* check = app.add_subcommand("check", "run the software reference and the static link-load checker");
  check->add_option("scenario", scenario, "YAML scenario file (default: the embedded default scenario)");
  check->add_option("--set", sets, "override a scenario key: --set key=value (repeatable)");
  check->add_option("--json", json_path, "write the machine-readable report to FILE");
  std::string from_path;
  check->add_option("--from", from_path,
                    "take the scenario from the field 'scenario' of a --json report (`collnet run` or `check`); "
                    "--set overrides it");

  auto* list = app.add_subcommand("list", "list topologies, algorithms and scenario keys");
  bool markdown = false;
  list->add_flag("--markdown", markdown, "print the README's key tables (generated from the key declarations)");

  std::string vcd_path;
  auto* run = app.add_subcommand("run", "cycle-accurate simulation: a collective on the NICs (key algorithm), a workload of Chakra traces (key workload) or synthetic traffic (key traffic)");
  run->add_option("scenario", scenario, "YAML scenario file (default: A2AT next to A2A on torus:8x8; with a --set of a traffic key: uniform traffic)");
  run->add_option("--set", sets, "override a scenario key: --set key=value (repeatable)");
  run->add_option("--json", json_path, "write the machine-readable report to FILE");
  run->add_option("--from", from_path,
                  "run the scenario recorded in the field 'scenario' of a --json report of `collnet run` again; "
                  "--set overrides its keys");
  run->add_option("--vcd", vcd_path, "write a VCD waveform to FILE and a GTKWave save file FILE.gtkw");
  cli::TraceRequest trace;
  run->add_option("--trace", trace.path, "write one CSV row per message (inject, first arrival, delivery cycles) to FILE.csv");
  run->add_flag("--trace-links", trace.links, "with --trace: also each network link's busy intervals to FILE.links.csv");
  run->add_option("--timeline-json", trace.timeline_path,
                  "workload runs: write every rank's nodes as Chrome trace-event JSON to FILE (Perfetto, chrome://tracing)");
  int run_threads = -1;
  run->add_option("--threads", run_threads,
                  "worker threads per cycle, the same figures as one (the key threads; 0, the default: the cores available, "
                  "capped by what pays for the network's size; waveforms, traces and nic_blocks=rtl run on one)")
      ->check(CLI::Range(0, 256));
  bool run_progress = false;
  double progress_delay = 1.0;
  run->add_flag("--progress", run_progress,
                "show cycles, messages delivered and router-cycles/s on stderr while the run lasts (default: only when "
                "stderr is a terminal)");
  run->add_option("--progress-delay", progress_delay, "seconds before the progress display starts")
      ->check(CLI::Range(0.0, 1e6))
      ->group("");

  cli::BenchOptions bench_options;
  auto* bench = app.add_subcommand("bench", "speed and peak memory of the cycle-accurate network");
  bench->add_option("--topology", bench_options.topologies, "networks to measure (repeatable)");
  bench->add_option("--repeat", bench_options.repeat, "runs per network; the fastest is reported")
      ->check(CLI::Range(1, 100));
  bench->add_option("--measure-cycles", bench_options.measure_cycles, "measured cycles per run")
      ->check(CLI::Range(1, 100000000));
  bench->add_option("--injection-rate", bench_options.injection_rate,
                    "offered load in flits per node per cycle (default 0.1; scale it as 1/k on k x k networks to "
                    "keep the per-router work constant)")
      ->check(CLI::Range(0.0001, 1.0));
  bench->add_flag("--collectives", bench_options.collectives,
                  "also run the collective points (A2AT on torus:32x32 and 16x16, hd-allreduce on boards:4x4x4x4, "
                  "twotree-hier on leafspine:p=16 and, at 4096 elements, on leafspine:p=36), each with its data check");
  bench->add_option("--point", bench_options.points, "with --collectives: only these collective points (repeatable)");
  bool no_synthetic = false;
  bench->add_flag("--no-synthetic", no_synthetic, "with --collectives: skip the synthetic points");
  bench->add_option("--json", json_path, "write the machine-readable report to FILE");
  bench->add_option("--threads", bench_options.threads,
                    "worker threads of the synthetic and collective points (0, the default: the cores available, capped by "
                    "what pays)")
      ->check(CLI::Range(0, 256));

  cli::SweepOptions sweep_options;
  auto* sweep = app.add_subcommand("sweep", "run every point of a sweep file (base scenario x axes), locally or on Slurm");
  sweep->add_option("sweep_file", sweep_options.sweep_path, "sweep file: base (a scenario), axes, zip")->required();
  sweep->add_option("--out", sweep_options.out, "results file, one JSON record per line (default: SWEEP.jsonl)");
  sweep->add_option("--jobs,-j", sweep_options.jobs, "points run at once (default: the number of cores)")
      ->check(CLI::Range(1, 4096));
  sweep->add_option("--backend", sweep_options.backend, "local (child processes) or slurm (a job array)")
      ->check(CLI::IsMember({"local", "slurm"}));
  sweep->add_flag("--dry-run", sweep_options.dry_run, "check every point and list them; run nothing");
  sweep->add_flag("--retry-failed", sweep_options.retry_failed, "run the points recorded as failed again");
  sweep->add_option("--timeout", sweep_options.timeout_seconds, "seconds a point may run before it is stopped (0: none)")
      ->check(CLI::Range(0.0, 1e9));
  sweep->add_option("--progress-every", sweep_options.progress_seconds,
                    "seconds between progress lines when stderr is not a terminal")
      ->check(CLI::Range(0.1, 86400.0));
  sweep->add_option("--slurm-opts", sweep_options.slurm_opts, "options passed to sbatch, e.g. '--partition=big --time=1:00:00'");
  sweep->add_flag("--no-wait", sweep_options.no_wait, "slurm: submit and return; --collect merges the results later");
  sweep->add_flag("--collect", sweep_options.collect, "slurm: merge the results of submitted jobs into the results file");
  sweep->add_option("--chunk-size", sweep_options.chunk_size, "slurm: points per array task (default: at most 100 tasks)")
      ->check(CLI::Range(1, 1000000));
  sweep->add_option("--task", sweep_options.task, "internal: run one array task's chunk file")->group("");

  cli::SaturationOptions sat;
  auto* saturation = app.add_subcommand("saturation", "the saturation rate of a synthetic-traffic scenario: bisection "
                                                      "over key injection_rate (docs/guide/saturation.md)");
  saturation->add_option("scenario", sat.scenario, "YAML scenario file (default: uniform traffic on torus:8x8)");
  saturation->add_option("--set", sat.sets, "override a scenario key: --set key=value (repeatable)");
  saturation->add_option("--from", sat.from, "take the scenario from the field 'scenario' of a --json report");
  saturation->add_option("--json", sat.json_path, "write the machine-readable report to FILE");
  saturation->add_option("--tolerance", sat.tolerance, "saturated when accepted < (1 - T) x offered (default 0.02)");
  saturation->add_option("--latency-limit", sat.latency_limit,
                         "saturated when the average latency exceeds CYCLES, or Nx: N x the zero-load latency "
                         "(default 5x)");
  saturation->add_option("--resolution", sat.resolution, "the bracket's width and the first probe's rate (default 0.005)");
  saturation->add_option("--max-rate", sat.max_rate, "the highest rate searched (default 1)");

  std::vector<std::string> plot_args;
  auto* plot = app.add_subcommand("plot", "PNG plots (matplotlib) of sweep results or of one run's link utilization; "
                                          "Markdown tables of sweep results");
  plot->prefix_command();  // every argument goes to scripts/collnet_plot.py, which documents them (--help)
  plot->allow_extras();
  plot->set_help_flag();  // no CLI11 -h/--help here: the script prints its own full help

  cli::ExportOptions export_options;
  auto* exp = app.add_subcommand("export", "write a collective (the scenario's algorithm) as MSCCL-IR XML");
  exp->add_option("scenario", export_options.scenario, "YAML scenario file (default: the embedded default scenario)");
  exp->add_option("--set", export_options.sets, "override a scenario key: --set key=value (repeatable)");
  exp->add_option("--format", export_options.format, "export format: msccl")->required();
  exp->add_option("--out", export_options.out, "the file to write (FILE.xml)");

  // Every error starts with `collnet <subcommand>:` (`collnet:` without one).
  const std::string sub = subcommand_name(app, argc, argv);
  const std::string prefix = sub.empty() ? "collnet" : "collnet " + sub;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << prefix << ": error: " << e.what() << " (" << prefix << " --help lists the options)\n";
    return 2;
  }

  try {
    if (*sweep) {
      sweep_options.self = self_executable(argv[0]);
      return cli::run_sweep(sweep_options);
    }
    if (*saturation) {
      restart_with_huge_pages(argv);  // once, for a search of many runs: small against them
      try {
        const auto outcome = cli::run_saturation(sat, std::cout);
        std::cout << outcome.text;
        write_json(sat.json_path, outcome.json);
        return outcome.exit_status;
      } catch (const ConfigError& e) {
        std::cerr << "collnet saturation: " << e.what() << "\n";
        return 2;
      }
    }
    if (*plot) {
      plot_args = plot->remaining();
      return run_plot(plot_args);
    }
    if (*exp) return cli::run_export(export_options);
    if (*list) {
      if (markdown) std::cout << cli::key_tables_markdown();
      else print_list();
      return 0;
    }
    if (*bench) {
      restart_with_huge_pages(argv);
      // --topology chooses the networks: no saturated point added then.
      bench_options.saturated_point = bench->count("--topology") == 0;
      bench_options.synthetic = !no_synthetic;
      if (!bench_options.collectives && (!bench_options.points.empty() || !bench_options.synthetic))
        throw ConfigError("--point and --no-synthetic go with --collectives");
      if (const auto p = cli::output_path_problem("--json", json_path); !p.empty()) throw ConfigError(p);
      const auto outcome = cli::run_bench(bench_options);
      std::cout << outcome.text;
      write_json(json_path, outcome.json);
      return 0;
    }
    if (*run) {
      // Everything is checked before anything is built: the scenario's keys
      // and the output files, every problem reported at once.
      std::vector<std::string> problems;
      if (run_threads >= 0) sets.push_back("threads=" + std::to_string(run_threads));
      const Params params = from_path.empty() ? cli::load_run_scenario(scenario, sets, problems)
                                              : cli::complete_run_scenario(scenario_from(from_path, scenario, sets, problems));
      for (auto& p : cli::run_problems(params)) problems.push_back(std::move(p));
      for (const auto& p : {cli::output_path_problem("--json", json_path), cli::output_path_problem("--vcd", vcd_path),
                            vcd_path.empty() ? std::string()
                                             : cli::output_path_problem("--vcd", vcd_path + ".gtkw")})
        if (!p.empty()) problems.push_back(p);
      for (auto& p : cli::trace_problems(params, trace)) problems.push_back(std::move(p));
      cli::throw_problems(problems);
      if (large_network(params)) restart_with_huge_pages(argv);
      catch_stop_signals();
      cli::RunProgressDisplay display(run_progress, progress_delay);
      auto outcome = cli::run_network(params, vcd_path, display.callback(), trace);
      display.finish();
      std::cout << outcome.text;
      if (!outcome.interrupted.empty()) outcome.json["interrupted"] = true;
      write_json(json_path, outcome.json);
      if (!outcome.interrupted.empty()) {
        const int sig = g_stop_signal != 0 ? static_cast<int>(g_stop_signal) : SIGINT;
        std::cout.flush();
        std::cerr << fmt::format("collnet run: interrupted by {}: {}; the figures are those of the cycles run so far{}\n",
                                 sig == SIGTERM ? "SIGTERM" : "SIGINT", outcome.interrupted,
                                 json_path.empty() ? "" : " (" + json_path + ", interrupted: true)");
        return 128 + sig;
      }
      return outcome.exit_status;
    }
    if (!*check) {
      // No subcommand: the usage (the main job is `collnet run`, scripts/main.sh).
      std::cout << app.help();
      return 0;
    }
    std::vector<std::string> problems;
    const Params params = from_path.empty() ? cli::load_scenario(scenario, sets, problems)
                                            : scenario_from(from_path, scenario, sets, problems);
    for (auto& p : cli::algorithm_key_problems(params, false)) problems.push_back(std::move(p));
    if (const auto p = cli::output_path_problem("--json", json_path); !p.empty()) problems.push_back(p);
    cli::throw_problems(problems);
    if (large_network(params)) restart_with_huge_pages(argv);
    const auto outcome = cli::run_check(params);
    std::cout << outcome.text;
    write_json(json_path, outcome.json);
    return outcome.data_pass ? 0 : 1;
  } catch (const ConfigError& e) {
    std::cerr << prefix << ": error: " << e.what() << "\n";
    return 2;
  } catch (const collectives::ExecutionError& e) {
    std::cerr << prefix << ": " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << prefix << ": internal error: " << e.what() << "\n";
    return 4;
  }
}
