// Verilator bench of the hd-allreduce schedule engine: rtl/schedule_engine_hd.sv
// (Verilated), the HLS class hls/schedule_engine_hd.hpp and the software
// reference programs (collectives/algorithms/hd_allreduce.cpp build_hd_allreduce), side
// by side (engine_harness.hpp: RTL = HLS every cycle).
//
// For every endpoint of the boards 2x2x2x2, 4x1x1x1, 4x2x4x2, 4x4x4x4 (and
// small extra shapes), both variants, both dimension orders, every op and
// A = 1, 2, 4 (4x4x4x4: fewer combinations), both models are loaded with the
// same configuration writes and clocked with the same (sometimes randomly
// stalled) consumer, and the stream of taken descriptors must equal the
// endpoint's reference program word for word. Also checks that the RTL
// assertion reports AGG_UNITS = 3.
//
//   collnet_schedule_engine_hd_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <Vschedule_engine_hd.h>

#include "collectives/algorithms/hd_allreduce.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "bench/verilator/engine_harness.hpp"
#include "topology/boards.hpp"

namespace {

namespace cc = collnet::collectives;
using collnet::topology::Boards;
using Harness = collnet::bench::EngineHarness<Vschedule_engine_hd, collnet::hls::HdScheduleEngine>;

struct Case {
  std::array<int, 4> shape;
  cc::HdOptions options;
};

std::vector<Case> cases() {
  std::vector<Case> list;
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
            list.push_back({shape, o});
          }
  for (auto v : {cc::HdVariant::hierarchical, cc::HdVariant::conventional})
    for (const char* order : {"wxyz", "bandwidth"}) {
      cc::HdOptions o;
      o.variant = v;
      o.dim_order = order;
      o.op = cc::HdOp::average;
      o.aggregation_units = 4;
      o.elements = 4 * 256;
      list.push_back({{4, 4, 4, 4}, o});
    }
  return list;
}

/// A = 2 is quiet, A = 3 (not 1, 2 or 4) is reported.
collnet::bench::AssertionCheck check_assertions(Harness& harness) {
  const auto start_with_agg = [](std::uint32_t agg) {
    return collnet::hls::hd_engine_writes(false, false, 0, false, 8, 16, agg, {2, 1, 1, 1}, {0, 0, 0, 0});
  };
  return harness.assertion_check("AGG_UNITS = 3", start_with_agg(2), start_with_agg(3), 60);
}

std::string run_checks(Harness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  const auto list = cases();
  collnet::bench::Tally tally;
  int case_number = 0;
  for (const auto& c : list) {
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
    harness.check_endpoints(
        tally, "case " + std::to_string(case_number), reference.programs, rng,
        [&](std::size_t e) {
          return collnet::driver::engine_writes(algorithm, boards, params, static_cast<collnet::topology::EndpointId>(e));
        },
        [&](std::size_t) { return case_number % 3 == 0 ? 0.3 : 0.0; });
  }
  return tally.summary("schedule engine hd", std::to_string(list.size()) + " cases");
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<Harness>(argc, argv, check_assertions, run_checks);
}
