// What every schedule engine gets from its skeleton (hls/schedule_engine.hpp):
// the valid/ready output register and the configuration gate. Each engine is
// loaded by the software loader with one collective of its own and clocked
// through its ports; the stream it emits must be the node's reference
// program (collectives/) in both tests.
#include "hls/schedule_engine.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "hls/schedule_engine_twotree.hpp"
#include "tests/hls/twotree_engine_load.hpp"

namespace {

using collnet::DescriptorWord;
namespace hls = collnet::hls;

/// One collective an engine runs: scenario and the endpoint loaded.
struct EngineCase {
  std::string algorithm;
  std::string topology;
  collnet::Params params;
  collnet::topology::EndpointId endpoint;
};

template <typename Engine>
EngineCase engine_case();
template <>
EngineCase engine_case<hls::A2aScheduleEngine>() {
  return {"a2a-nd", "torus:3x3", {{"nct", "2"}, {"message_flits", "5"}, {"group_barriers", "true"}}, 4};
}
template <>
EngineCase engine_case<hls::A2atScheduleEngine>() {
  return {"a2a-optimal", "torus:4x4", {{"nct", "4"}, {"message_flits", "4"}}, 6};
}
template <>
EngineCase engine_case<hls::HopgroupScheduleEngine>() {
  return {"a2a-hopgroup", "torus:3x3x2", {{"message_flits", "4"}, {"gap_slack", "1"}}, 5};
}
template <>
EngineCase engine_case<hls::HdScheduleEngine>() {
  return {"hd-allreduce", "boards:2x2x1x1", {{"aggregation_units", "2"}, {"elements", "16"}}, 8};
}
template <>
EngineCase engine_case<hls::TwotreeScheduleEngine>() {
  const collnet::testing::Case c{"twotree-hier", 6, 13, 23, 4, collnet::collectives::Collective::allreduce};
  return {c.algorithm, "leafspine:p=6",
          collnet::testing::twotree_case_params(c, collnet::ReceiveOp::sum, collnet::DataType::int64), 3};
}

/// The loader's writes and the reference program of the engine's case.
struct Loaded {
  std::vector<hls::EngineWrite> writes;
  std::vector<DescriptorWord> program;
};

template <typename Engine>
Loaded load() {
  const EngineCase c = engine_case<Engine>();
  const auto topo = collnet::topology::make_topology(c.topology);
  Loaded out{collnet::driver::engine_writes(c.algorithm, *topo, c.params, c.endpoint), {}};
  const auto schedule = collnet::collectives::find_algorithm(c.algorithm).build(*topo, c.params);
  for (const auto& d : schedule.programs.at(static_cast<std::size_t>(c.endpoint))) out.program.push_back(d.pack());
  return out;
}

template <typename Engine>
class ScheduleEngineSkeleton : public ::testing::Test {};

using Engines = ::testing::Types<hls::A2aScheduleEngine, hls::A2atScheduleEngine, hls::HopgroupScheduleEngine,
                                 hls::HdScheduleEngine, hls::TwotreeScheduleEngine>;
TYPED_TEST_SUITE(ScheduleEngineSkeleton, Engines);

}  // namespace

// Valid/ready: a descriptor offered and not taken stays offered, unchanged;
// the consumer takes one cycle in three.
TYPED_TEST(ScheduleEngineSkeleton, OfferedDescriptorStaysStableUntilTaken) {
  const Loaded loaded = load<TypeParam>();
  TypeParam engine;
  for (const auto& w : loaded.writes) engine.step({true, w.addr, w.data, false});
  bool was_offered = false;
  DescriptorWord offered;
  std::vector<DescriptorWord> taken;
  for (int cycle = 0; cycle < 100'000 && engine.outputs().busy; ++cycle) {
    const bool ready = cycle % 3 == 2;
    const auto out = engine.step({false, 0, 0, ready});
    if (was_offered) {
      ASSERT_TRUE(out.out_valid) << "cycle " << cycle;
      ASSERT_EQ(out.out_desc, offered) << "cycle " << cycle;
    }
    if (out.out_valid && ready) taken.push_back(out.out_desc);
    was_offered = out.out_valid && !ready;
    offered = out.out_desc;
  }
  EXPECT_FALSE(engine.outputs().busy);
  EXPECT_EQ(taken, loaded.program);
}

// Configuration writes while busy are ignored (register map contract):
// every cycle of the run writes all ones to the next address, CONTROL and
// the tables' data registers included; the stream is still the reference.
TYPED_TEST(ScheduleEngineSkeleton, WritesWhileBusyAreIgnored) {
  const Loaded loaded = load<TypeParam>();
  TypeParam engine;
  for (const auto& w : loaded.writes) engine.step({true, w.addr, w.data, false});
  std::vector<DescriptorWord> taken;
  for (int cycle = 0; cycle < 100'000 && engine.outputs().busy; ++cycle) {
    const auto out = engine.step({true, static_cast<std::uint8_t>(cycle % 256), 0xffffffffu, true});
    if (out.out_valid) taken.push_back(out.out_desc);
  }
  EXPECT_FALSE(engine.outputs().busy);
  EXPECT_EQ(taken, loaded.program);
}
