// Verilator bench of the hd-allreduce schedule engine: rtl/schedule_engine_hd.sv
// (Verilated), the HLS class hls/schedule_engine_hd.hpp and the software
// reference programs (collectives/hd_allreduce.cpp build_hd_allreduce), side
// by side.
//
// For every endpoint of the boards 2x2x2x2, 4x1x1x1, 4x2x4x2, 4x4x4x4 (and
// small extra shapes), both variants, both dimension orders, every op and
// A = 1, 2, 4 (4x4x4x4: fewer combinations), both models are loaded with the
// same configuration writes and clocked with the same (sometimes randomly
// stalled) consumer; every cycle their outputs (out_valid, the 128-bit
// descriptor, busy) must be equal, and the stream of taken descriptors must
// equal the endpoint's reference program word for word. Also checks that the
// RTL assertion reports AGG_UNITS = 3.
//
//   collnet_schedule_engine_hd_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Vschedule_engine_hd.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "testbench/verilator/engine_harness.hpp"

#include "collectives/hd_allreduce.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "topology/boards.hpp"

namespace {

using collnet::DescriptorWord;
namespace cc = collnet::collectives;
using collnet::topology::Boards;

using collnet::bench::Mismatch;
using collnet::bench::hex;
using EngineHarness = collnet::bench::EngineHarness<Vschedule_engine_hd, collnet::hls::HdScheduleEngine, collnet::hls::HdEngineInputs,
                                                    collnet::hls::HdEngineOutputs>;

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
  // A = 2 is quiet, A = 3 (not 1, 2 or 4) is reported
  const auto start_with_agg = [](std::uint32_t agg) {
    return collnet::bench::cfg_writes(
        collnet::hls::hd_engine_writes(false, false, 0, false, 8, 16, agg, {2, 1, 1, 1}, {0, 0, 0, 0}));
  };
  if (harness.rtl_assertion_errors(start_with_agg(2), 60) != 0 ||
      harness.rtl_assertion_errors(start_with_agg(3), 60) == 0) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report AGG_UNITS = 3\n");
    return 1;
  }
  std::printf("RTL assertion reports AGG_UNITS = 3: yes\n");
  struct Case {
    std::array<int, 4> shape;
    cc::HdOptions options;
  };
  std::vector<Case> cases;
  for (const auto& shape : std::vector<std::array<int, 4>>{{2, 2, 2, 2}, {4, 1, 1, 1}, {4, 2, 4, 2}, {1, 1, 1, 1},
                                                          {1, 2, 1, 4}})
    for (auto v : {cc::HdVariant::hierarchical, cc::HdVariant::conventional})
      for (const char* order : {"wxyz", "bandwidth"})
        for (auto op : {cc::HdOp::sum, cc::HdOp::product, cc::HdOp::max, cc::HdOp::min, cc::HdOp::average})
          for (int A : {1, 2, 4}) {
            cc::HdOptions o;
            o.variant = v;
            o.dim_order = order;
            o.op = op;
            o.dtype = (static_cast<int>(op) + A) % 2 ? collnet::DataType::float64 : collnet::DataType::int64;
            o.aggregation_units = A;
            int boards = 1;
            for (int n : shape) boards *= n;
            o.elements = static_cast<std::uint32_t>(A * boards * (A == 2 ? 3 : 1 + (A == 4)));
            cases.push_back({shape, o});
          }
  for (auto v : {cc::HdVariant::hierarchical, cc::HdVariant::conventional})
    for (const char* order : {"wxyz", "bandwidth"}) {
      cc::HdOptions o;
      o.variant = v;
      o.dim_order = order;
      o.op = cc::HdOp::average;
      o.aggregation_units = 4;
      o.elements = 4 * 256;
      cases.push_back({{4, 4, 4, 4}, o});
    }
  std::uint64_t endpoints = 0, descriptors = 0;
  int case_number = 0;
  try {
    for (const auto& c : cases) {
      ++case_number;
      const Boards boards(c.shape);
      const auto& o = c.options;
      const auto reference = cc::build_hd_allreduce(boards, o);
      // The case as scenario keys: the engine is loaded by the software
      // loader (driver/engine_loader.hpp), as the NIC loads it.
      static const char* const op_names[] = {"sum", "product", "max", "min", "average"};
      const collnet::Params params{{"dim_order", o.dim_order},
                                   {"op", op_names[static_cast<int>(o.op)]},
                                   {"dtype", o.dtype == collnet::DataType::float64 ? "float64" : "int64"},
                                   {"elements", std::to_string(o.elements)},
                                   {"aggregation_units", std::to_string(o.aggregation_units)}};
      const std::string algorithm =
          o.variant == cc::HdVariant::conventional ? "hd-allreduce-conventional" : "hd-allreduce";
      for (collnet::topology::EndpointId e = 0; e < boards.endpoint_count(); ++e) {
        const auto writes = collnet::driver::engine_writes(algorithm, boards, params, e);
        const std::string where = "case " + std::to_string(case_number) + " endpoint " + std::to_string(e);
        const auto taken = harness.run(where, writes, rng, case_number % 3 == 0 ? 0.3 : 0.0);
        const auto& ref = reference.programs[static_cast<std::size_t>(e)];
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
  std::printf("schedule_engine_hd: %zu cases, %llu endpoints, %llu descriptors equal (RTL = HLS every cycle = "
              "reference), %llu cycles, %.2f s\n",
              cases.size(), static_cast<unsigned long long>(endpoints), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
