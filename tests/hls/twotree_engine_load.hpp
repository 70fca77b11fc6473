// The two-tree schedule engine's cases for the tests and the Verilator bench:
// a twotree-hier, twotree-flat or tree-single case on leafspine:p=P, its
// reference schedule (the registered algorithm's), and every endpoint's
// configuration writes from the software loader (driver/engine_loader.hpp),
// the same writes the NIC loads. Shared by
// tests/hls/schedule_engine_twotree_test.cpp and
// bench/verilator/schedule_engine_twotree_bench.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/params.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_twotree.hpp"
#include "topology/topology.hpp"

namespace collnet::testing {

namespace cc = collnet::collectives;

struct Case {
  std::string algorithm;  // twotree-hier, twotree-flat, tree-single
  int p;
  int processes;
  std::uint32_t elements;
  int blocks;
  cc::Collective collective;
  std::string placement = "consecutive";  // baselines
};

inline std::string describe(const Case& c) {
  return c.algorithm + " p " + std::to_string(c.p) + " P " + std::to_string(c.processes) + " L " +
         std::to_string(c.elements) + " B " + std::to_string(c.blocks) + " collective " +
         std::to_string(static_cast<int>(c.collective)) + " " + c.placement;
}

struct TwotreeCaseBuild {
  cc::Schedule reference;  // the registered algorithm's schedule
  /// Per endpoint: the configuration writes (CONTROL last).
  std::vector<std::vector<collnet::hls::EngineWrite>> writes;
};

/// The case's scenario keys.
inline collnet::Params twotree_case_params(const Case& c, collnet::ReceiveOp op, collnet::DataType dtype) {
  const char* collective = c.collective == cc::Collective::reduce      ? "reduce"
                           : c.collective == cc::Collective::broadcast ? "broadcast"
                                                                       : "allreduce";
  const char* op_name = op == collnet::ReceiveOp::sum   ? "sum"
                        : op == collnet::ReceiveOp::max ? "max"
                        : op == collnet::ReceiveOp::min ? "min"
                                                        : "product";
  collnet::Params params{{"processes", std::to_string(c.processes)},
                         {"elements", std::to_string(c.elements)},
                         {"blocks", std::to_string(c.blocks)},
                         {"collective", collective},
                         {"op", op_name},
                         {"dtype", dtype == collnet::DataType::float64 ? "float64" : "int64"}};
  if (c.algorithm != "twotree-hier") params.set("placement", c.placement);
  return params;
}

/// The reference schedule and every endpoint's engine load.
inline TwotreeCaseBuild build_twotree_case(const Case& c, collnet::ReceiveOp op, collnet::DataType dtype) {
  const auto topo = collnet::topology::make_topology("leafspine:p=" + std::to_string(c.p));
  const collnet::Params params = twotree_case_params(c, op, dtype);
  TwotreeCaseBuild out{cc::find_algorithm(c.algorithm).build(*topo, params), {}};
  out.writes = collnet::driver::engine_writes_all(c.algorithm, *topo, params);
  return out;
}

}  // namespace collnet::testing
