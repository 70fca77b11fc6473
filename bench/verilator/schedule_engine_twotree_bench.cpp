// Verilator bench of the two-tree schedule engine: rtl/schedule_engine_twotree.sv
// (Verilated), the HLS class hls/schedule_engine_twotree.hpp and the
// software reference programs (collectives/algorithms/tree_pipeline.cpp, as the
// registered twotree-hier, twotree-flat and tree-single build them), side by
// side (engine_harness.hpp: RTL = HLS every cycle).
//
// For every endpoint of leafspine:p=6 and p=8 with several P, B, L and every
// collective, both models are loaded with the same configuration writes
// (tests/hls/twotree_engine_load.hpp) and clocked with the same randomly
// stalled consumer, and the stream of taken descriptors must equal the
// endpoint's reference program word for word. Also checks that the RTL
// assertion reports BLOCKS = 0.
//
//   collnet_schedule_engine_twotree_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Vschedule_engine_twotree.h>

#include "hls/schedule_engine_twotree.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "tests/hls/twotree_engine_load.hpp"

namespace {

namespace cc = collnet::collectives;
using Harness = collnet::bench::EngineHarness<Vschedule_engine_twotree, collnet::hls::TwotreeScheduleEngine>;

/// BLOCKS = 3 is quiet, BLOCKS = 0 is reported.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  const auto start_with_blocks = [](std::uint32_t blocks) {
    namespace reg = collnet::hls::twotree_engine_reg;
    return std::vector<collnet::bench::CfgWrite>{
        {reg::elements, 8}, {reg::blocks, blocks}, {reg::stages, 0}, {reg::control, 1}};
  };
  return harness.assertion_check("BLOCKS = 0", start_with_blocks(3), start_with_blocks(0), 40);
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  std::vector<collnet::testing::Case> cases;
  for (int p : {6, 8})
    for (int P : {2, 13, p == 6 ? 36 : 80})
      for (auto coll : {cc::Collective::reduce, cc::Collective::broadcast, cc::Collective::allreduce}) {
        cases.push_back({"twotree-hier", p, P, 15, 4, coll});
        cases.push_back({"twotree-hier", p, P, 23, 7, coll});
      }
  for (const char* algorithm : {"twotree-flat", "tree-single"})
    for (const char* placement : {"consecutive", "grouped"})
      cases.push_back({algorithm, 6, 32, 15, 4, cc::Collective::allreduce, placement});
  collnet::bench::Tally tally;
  int case_number = 0;
  for (const auto& c : cases) {
    ++case_number;
    const auto op = case_number % 2 ? collnet::ReceiveOp::sum : collnet::ReceiveOp::max;
    const auto dtype = case_number % 3 ? collnet::DataType::int64 : collnet::DataType::float64;
    const auto build = collnet::testing::build_twotree_case(c, op, dtype);
    harness.check_endpoints(
        tally, collnet::testing::describe(c), build.reference.programs, rng,
        [&](std::size_t e) { return build.writes[e]; }, [&](std::size_t) { return case_number % 2 ? 0.0 : 0.3; });
  }
  return tally.summary("schedule engine twotree", std::to_string(cases.size()) + " cases");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
