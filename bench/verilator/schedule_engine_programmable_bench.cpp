// Verilator bench of the programmable schedule engine:
// rtl/schedule_engine_programmable.sv (Verilated), the HLS class
// hls/schedule_engine_programmable.hpp and the software reference programs,
// side by side (engine_harness.hpp: RTL = HLS every cycle).
//
// The cases are the collective scenarios of tests/golden/scenarios.txt (every
// algorithm, the imported MSCCL schedules among them) and every schedule of
// examples/msccl/: each endpoint's reference program is loaded by the
// engine's loader (driver::load_engine, as the NIC loads it), both models run
// it with a randomly stalled consumer, and the stream taken must equal the
// program word for word. Also a program that fills the whole descriptor
// memory, and the RTL assertion that reports a program without END running
// off the end of the memory.
//
//   collnet_schedule_engine_programmable_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Vschedule_engine_programmable.h>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_programmable.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "topology/topology.hpp"

namespace {

namespace cc = collnet::collectives;
using Harness =
    collnet::bench::EngineHarness<Vschedule_engine_programmable, collnet::hls::ProgrammableScheduleEngine>;
using collnet::bench::CfgWrite;

constexpr std::uint32_t entries = collnet::hls::programmable_engine_reg::program_entries;

/// A program of `n` SENDs (no END unless `end`), as descriptor words.
std::vector<collnet::DescriptorWord> sends(std::uint32_t n, bool end) {
  std::vector<collnet::DescriptorWord> words;
  for (std::uint32_t i = 0; i < n; ++i)
    words.push_back(collnet::Descriptor::send(i % 7, i, i + 1, 1 + i % 5, i % 3).pack());
  if (end) words.push_back(collnet::Descriptor::end().pack());
  return words;
}

/// A program that ends with END is quiet; one that fills the memory with
/// SENDs and no END is reported when the program counter would wrap.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  return harness.assertion_check("a program without END filling the memory",
                                 collnet::hls::programmable_engine_writes(sends(3, true)),
                                 collnet::hls::programmable_engine_writes(sends(entries, false)),
                                 static_cast<int>(entries) + 50);
}

struct Case {
  std::string label;
  collnet::Params params;
};

/// The collective scenarios of tests/golden/scenarios.txt ("{source}" is the
/// source tree).
std::vector<Case> golden_cases() {
  std::ifstream in(std::string(COLLNET_SOURCE_DIR) + "/tests/golden/scenarios.txt");
  if (!in) throw collnet::bench::Mismatch("cannot read tests/golden/scenarios.txt");
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    Case c{line.substr(0, colon), {}};
    std::istringstream words(line.substr(colon + 1));
    for (std::string word; words >> word;) {
      if (word == "--set") continue;
      const auto eq = word.find('=');
      std::string value = word.substr(eq + 1);
      if (const auto at = value.find("{source}"); at != std::string::npos)
        value.replace(at, 8, COLLNET_SOURCE_DIR);
      c.params.set(word.substr(0, eq), value);
    }
    if (c.params.has("algorithm")) cases.push_back(c);
  }
  return cases;
}

/// Every schedule of examples/msccl on the first topology whose endpoint
/// count its ranks fit.
std::vector<Case> msccl_cases() {
  std::vector<Case> cases;
  for (const auto& file : std::filesystem::directory_iterator(std::string(COLLNET_SOURCE_DIR) + "/examples/msccl")) {
    if (file.path().extension() != ".xml") continue;
    for (const char* topology : {"torus:4x2", "torus:4x4", "leafspine:p=6"}) {
      collnet::Params p{{"algorithm", "msccl"}, {"schedule", file.path().string()}, {"topology", topology},
                        {"chunk_words", "4"}};
      try {
        (void)cc::find_algorithm("msccl").build(*collnet::topology::make_topology(topology), p);
      } catch (const collnet::ConfigError&) {
        continue;
      }
      cases.push_back({"msccl " + file.path().filename().string() + " on " + topology, p});
      break;
    }
  }
  return cases;
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  collnet::bench::Tally tally;
  std::vector<Case> cases = golden_cases();
  const std::size_t golden = cases.size();
  for (auto& c : msccl_cases()) cases.push_back(std::move(c));
  std::size_t case_number = 0;
  for (const auto& c : cases) {
    ++case_number;
    const auto topology = collnet::topology::make_topology(c.params.text("topology", ""));
    const cc::Algorithm& algorithm = cc::find_algorithm(c.params.text("algorithm", ""));
    const cc::Schedule schedule = algorithm.build(*topology, c.params);
    const auto writes = collnet::driver::load_engine(
        "programmable",
        collnet::driver::LoadRequest{&algorithm, &schedule, topology.get(), &c.params});
    harness.check_endpoints(
        tally, c.label, schedule.programs, rng, [&](std::size_t e) { return writes[e]; },
        [&](std::size_t e) { return (case_number + e) % 2 ? 0.0 : 0.3; });
  }
  // A program that fills the memory: program_entries - 1 SENDs and END.
  const auto full = sends(entries - 1, true);
  const auto taken = harness.run("full memory", collnet::hls::programmable_engine_writes(full), rng, 0.2);
  if (taken != full) throw collnet::bench::Mismatch("full memory: the stream taken is not the program");
  tally.endpoints += 1;
  tally.descriptors += taken.size();
  return tally.summary("schedule engine programmable", std::to_string(golden) + " golden scenarios, " +
                                                           std::to_string(cases.size() - golden) +
                                                           " MSCCL schedules, a full memory");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
