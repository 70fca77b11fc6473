// Verilator bench of the two-tree schedule engine: rtl/schedule_engine_twotree.sv
// (Verilated), the HLS class hls/schedule_engine_twotree.hpp and the
// software reference programs (collectives/tree_pipeline.cpp, as the
// registered twotree-hier, twotree-flat and tree-single build them), side by
// side.
//
// For every endpoint of leafspine:p=6 and p=8 with several P, B, L and every
// collective, both models are loaded with the same configuration writes
// (tests/hls/twotree_engine_load.hpp) and clocked with the same randomly
// stalled consumer; every cycle their outputs (out_valid, the 128-bit
// descriptor, busy) must be equal, and the stream of taken descriptors must
// equal the endpoint's reference program word for word. Also checks that the
// RTL assertion reports BLOCKS = 0.
//
//   collnet_schedule_engine_twotree_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Vschedule_engine_twotree.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "testbench/verilator/engine_harness.hpp"

#include "hls/schedule_engine_twotree.hpp"
#include "tests/hls/twotree_engine_load.hpp"

namespace {

using collnet::DescriptorWord;
namespace cc = collnet::collectives;

using collnet::bench::Mismatch;
using collnet::bench::hex;
using EngineHarness = collnet::bench::EngineHarness<Vschedule_engine_twotree, collnet::hls::TwotreeScheduleEngine, collnet::hls::TwotreeEngineInputs,
                                                    collnet::hls::TwotreeEngineOutputs>;

}  // namespace

int main(int argc, char** argv) {
  collnet::bench::BenchArgs args;
  if (!collnet::bench::parse_bench_args(argc, argv, args)) return 2;
  const std::uint64_t seed = args.seed;
  const char* const trace_file = args.trace_file;
  Verilated::commandArgs(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  EngineHarness harness(trace_file);
  std::printf("checking that the RTL assertion fires (the %%Error lines below are expected):\n");
  std::fflush(stdout);
  // BLOCKS = 3 is quiet, BLOCKS = 0 is reported
  const auto start_with_blocks = [](std::uint32_t blocks) {
    namespace reg = collnet::hls::twotree_engine_reg;
    return std::vector<collnet::bench::CfgWrite>{
        {reg::elements, 8}, {reg::blocks, blocks}, {reg::stages, 0}, {reg::control, 1}};
  };
  if (harness.rtl_assertion_errors(start_with_blocks(3), 40) != 0 ||
      harness.rtl_assertion_errors(start_with_blocks(0), 40) == 0) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report BLOCKS = 0\n");
    return 1;
  }
  std::printf("RTL assertion reports BLOCKS = 0: yes\n");
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
  std::uint64_t endpoints = 0, descriptors = 0;
  int case_number = 0;
  try {
    for (const auto& c : cases) {
      ++case_number;
      const auto op = case_number % 2 ? collnet::ReceiveOp::sum : collnet::ReceiveOp::max;
      const auto dtype = case_number % 3 ? collnet::DataType::int64 : collnet::DataType::float64;
      const auto build = collnet::testing::build_twotree_case(c, op, dtype);
      for (std::size_t e = 0; e < build.writes.size(); ++e) {
        const std::string where = collnet::testing::describe(c) + " endpoint " + std::to_string(e);
        const auto taken =
            harness.run(where, collnet::bench::cfg_writes(build.writes[e]), rng, case_number % 2 ? 0.0 : 0.3);
        const auto& ref = build.reference.programs[e];
        if (taken.size() != ref.size())
          throw Mismatch(where + ": " + std::to_string(taken.size()) + " descriptors, reference " +
                         std::to_string(ref.size()));
        for (std::size_t i = 0; i < ref.size(); ++i)
          if (taken[i] != ref[i].pack())
            throw Mismatch(where + " descriptor " + std::to_string(i) + ": " + hex(taken[i]) + ", reference " +
                           hex(ref[i].pack()));
        ++endpoints;
        descriptors += ref.size();
      }
    }
  } catch (const Mismatch& e) {
    std::fprintf(stderr, "MISMATCH: %s\n", e.what());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("schedule_engine_twotree: %zu cases, %llu endpoints, %llu descriptors equal (RTL = HLS every cycle = "
              "reference), %llu cycles, %.2f s\n",
              cases.size(), static_cast<unsigned long long>(endpoints), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
