// What every schedule engine gets from its skeleton (hls/schedule_engine.hpp):
// the valid/ready output register and the configuration gate. Each engine is
// loaded by the software loader with one collective of its own and clocked
// through its ports; the stream it emits must be the node's reference
// program (collectives/) in both tests.
#include "hls/schedule_engine.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "hls/schedule_engine_a2at.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "hls/schedule_engine_hopgroup.hpp"
#include "hls/output_register.hpp"
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

// The output buffer against a two-place FIFO (std::deque): random loads
// (only while it may load) and a random consumer; every cycle the port is the
// FIFO's front, the buffer may load exactly while the FIFO has room, and
// values leave in the order loaded.
TEST(OutputBuffer, IsATwoPlaceFifoWithRegisteredRoom) {
  std::mt19937 rng(7);
  std::bernoulli_distribution coin(0.5);
  hls::OutputBuffer<std::uint32_t> buffer;
  buffer.reset();
  std::deque<std::uint32_t> fifo;
  std::uint32_t next = 1;
  int full_cycles = 0;
  for (int cycle = 0; cycle < 20'000; ++cycle) {
    ASSERT_EQ(buffer.valid(), !fifo.empty()) << "cycle " << cycle;
    if (!fifo.empty()) { ASSERT_EQ(buffer.value(), fifo.front()) << "cycle " << cycle; }
    ASSERT_EQ(buffer.can_load(), fifo.size() < 2) << "cycle " << cycle;
    full_cycles += fifo.size() == 2 ? 1 : 0;
    const bool ready = coin(rng);
    const bool load = buffer.can_load() && coin(rng);
    if (buffer.valid() && ready) fifo.pop_front();
    if (load) fifo.push_back(next);
    buffer.clock(load, next, ready);
    if (load) ++next;
  }
  EXPECT_GT(full_cycles, 1000);  // the second place was used
}

// With a consumer that is always ready the buffer is the single output
// register it replaced: the same port in every cycle, and a load in every
// cycle still leaves one value per cycle.
TEST(OutputBuffer, AlwaysReadyConsumerSeesTheSingleRegister) {
  std::mt19937 rng(11);
  std::bernoulli_distribution coin(0.7);
  hls::OutputBuffer<std::uint32_t> buffer;
  hls::OutputRegister<std::uint32_t> single;
  buffer.reset();
  single.reset();
  for (std::uint32_t cycle = 0; cycle < 5'000; ++cycle) {
    ASSERT_EQ(buffer.valid(), single.valid()) << "cycle " << cycle;
    if (single.valid()) { ASSERT_EQ(buffer.value(), single.value()) << "cycle " << cycle; }
    ASSERT_TRUE(buffer.can_load()) << "cycle " << cycle;
    const bool load = cycle < 100 || coin(rng);
    buffer.clock(load, cycle, true);
    single.clock(load, cycle, true);
  }
}

// An engine whose consumer stops runs ahead by one descriptor exactly: after
// the first offer the consumer waits; the engine fills the buffer (the
// offered descriptor and the next one, the first two of its program) and
// stops; then the consumer takes every cycle and the whole program leaves,
// the two buffered descriptors in the first two cycles.
TYPED_TEST(ScheduleEngineSkeleton, StoppedConsumerLeavesOneDescriptorWaiting) {
  const Loaded loaded = load<TypeParam>();
  ASSERT_GE(loaded.program.size(), 3u);
  TypeParam engine;
  for (const auto& w : loaded.writes) engine.step({true, w.addr, w.data, false});
  int cycle = 0;
  while (!engine.outputs().out_valid && cycle < 100'000) {
    engine.step({false, 0, 0, false});
    ++cycle;
  }
  ASSERT_TRUE(engine.outputs().out_valid);
  for (int i = 0; i < 200 && !engine.output_full(); ++i) engine.step({false, 0, 0, false});
  ASSERT_TRUE(engine.output_full()) << "the engine did not load a second descriptor behind the offered one";
  for (int i = 0; i < 50; ++i) {
    const auto out = engine.step({false, 0, 0, false});
    ASSERT_TRUE(out.out_valid);
    ASSERT_EQ(out.out_desc, loaded.program[0]);
    ASSERT_TRUE(engine.output_full());
  }
  std::vector<DescriptorWord> taken;
  for (int i = 0; i < 100'000 && engine.outputs().busy; ++i) {
    const auto out = engine.step({false, 0, 0, true});
    if (i < 2) { ASSERT_TRUE(out.out_valid) << "buffered descriptor " << i << " not offered in consecutive cycles"; }
    if (out.out_valid) taken.push_back(out.out_desc);
  }
  EXPECT_EQ(taken, loaded.program);
}
