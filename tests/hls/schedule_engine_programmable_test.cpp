// The programmable schedule engine (hls/schedule_engine_programmable.hpp):
// loaded by its catalog entry's loader with an endpoint's reference program,
// it must emit that program word for word (the reference programs of
// collectives/ are the independent expectation), at the timing its header
// documents, and keep its memory and registers through writes while busy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_programmable.hpp"
#include "tests/hls/engine_run.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using hls::ProgrammableScheduleEngine;
namespace R = hls::programmable_engine_reg;

namespace {

struct Case {
  std::string algorithm;
  std::string topology;
  Params params;
};

std::vector<DescriptorWord> words_of(const collectives::Program& program) {
  std::vector<DescriptorWord> words;
  for (const Descriptor& d : program) words.push_back(d.pack());
  return words;
}

}  // namespace

// Every endpoint of one scenario per kind of program (all-to-all, the tree
// and hd engines' algorithms, the standard collectives, a receipt-driven
// broadcast's reference, an imported MSCCL schedule), with a consumer that
// stalls every third cycle.
TEST(ProgrammableEngine, ReplaysReferencePrograms) {
  const std::vector<Case> cases = {
      {"a2a-optimal", "torus:4x4", {{"message_flits", "4"}, {"group_barriers", "true"}}},
      {"a2a-hopgroup", "torus:4x4", {}},
      {"hd-allreduce", "boards:2x2x1x1", {{"elements", "64"}}},
      {"twotree-hier", "leafspine:p=6", {{"elements", "64"}, {"blocks", "2"}}},
      {"ring-allreduce", "torus:4x2", {}},
      {"binomial-bcast", "torus:4x4", {}},
      {"pairwise-alltoall", "mesh:3x3", {{"message_flits", "2"}}},
      {"tree-bcast", "tree:random=12,seed=2", {}},
      {"msccl", "torus:4x2", {{"schedule", COLLNET_SOURCE_DIR "/examples/msccl/allreduce_ring_8.xml"}}},
  };
  for (const Case& c : cases) {
    const auto topo = topology::make_topology(c.topology);
    const collectives::Algorithm& a = collectives::find_algorithm(c.algorithm);
    const collectives::Schedule s = a.build(*topo, c.params);
    const auto writes = driver::load_engine("programmable",
                                            driver::LoadRequest{&a, &s, topo.get(), &c.params});
    ASSERT_EQ(writes.size(), s.programs.size()) << c.algorithm;
    for (std::size_t e = 0; e < s.programs.size(); ++e) {
      ProgrammableScheduleEngine engine;
      engine.reset();
      const auto run = collnet::testing::run_engine(engine, writes[e], [](std::uint64_t cycle) { return cycle % 3 == 0; });
      EXPECT_TRUE(collnet::testing::equals_program(run.words, s.programs[e])) << c.algorithm << " endpoint " << e;
    }
  }
}

// The header's timing: CONTROL in cycle 0, the first descriptor offered in
// cycle 2, then one per cycle while the consumer is ready.
TEST(ProgrammableEngine, FirstDescriptorInCycleTwoThenOnePerCycle) {
  const collectives::Program program = {Descriptor::send(3, 0, 8, 4, 0), Descriptor::wait(1, 2),
                                        Descriptor::barrier(1), Descriptor::send(5, 4, 12, 4, 2), Descriptor::end()};
  ProgrammableScheduleEngine engine;
  engine.reset();
  const auto run = collnet::testing::run_engine(engine, hls::programmable_engine_writes(words_of(program)),
                                       [](std::uint64_t) { return false; });
  ASSERT_TRUE(collnet::testing::equals_program(run.words, program));
  // run_engine counts the cycle after the last write (CONTROL) as 1.
  EXPECT_EQ(run.cycles, (std::vector<std::uint64_t>{2, 3, 4, 5, 6}));
}

// Writes while busy are ignored: a program overwritten (PROG_ADDR = 1, a new
// word 1) while it runs still runs as loaded; after END the same writes take.
TEST(ProgrammableEngine, WritesWhileBusyAreIgnored) {
  const collectives::Program first = {Descriptor::send(1, 0, 0, 2, 0), Descriptor::send(2, 2, 2, 2, 0),
                                      Descriptor::end()};
  const DescriptorWord other = Descriptor::send(7, 9, 9, 9, 9).pack();
  const std::vector<hls::EngineWrite> overwrite = {{R::prog_addr, 1},
                                                   {R::prog_data0, static_cast<std::uint32_t>(other.lo)},
                                                   {R::prog_data0 + 1, static_cast<std::uint32_t>(other.lo >> 32)},
                                                   {R::prog_data0 + 2, static_cast<std::uint32_t>(other.hi)},
                                                   {R::prog_data0 + 3, static_cast<std::uint32_t>(other.hi >> 32)}};
  ProgrammableScheduleEngine engine;
  engine.reset();
  for (const auto& w : hls::programmable_engine_writes(words_of(first))) engine.step({true, w.addr, w.data, false});
  std::vector<DescriptorWord> taken;
  // The overwrite arrives while the engine is busy (offering, ready low).
  for (const auto& w : overwrite) {
    ASSERT_TRUE(engine.step({true, w.addr, w.data, false}).busy);
  }
  for (int cycle = 0; cycle < 20 && (taken.empty() || taken.back() != DescriptorWord{}); ++cycle) {
    const auto out = engine.step({false, 0, 0, true});
    if (out.out_valid) taken.push_back(out.out_desc);
  }
  EXPECT_EQ(taken, words_of(first));
  ASSERT_FALSE(engine.outputs().busy);
  // Idle now: the same writes replace word 1.
  for (const auto& w : overwrite) engine.step({true, w.addr, w.data, false});
  const auto run = collnet::testing::run_engine(engine, {{R::control, 1}}, [](std::uint64_t) { return false; });
  EXPECT_EQ(run.words, (std::vector<DescriptorWord>{first[0].pack(), other, first[2].pack()}));
}

// A program that fills the whole memory (program_entries words, END last).
TEST(ProgrammableEngine, FullMemory) {
  collectives::Program program;
  for (std::uint32_t i = 0; i + 1 < R::program_entries; ++i)
    program.push_back(Descriptor::send(i % 13, i, i, 1 + i % 3, i % 5));
  program.push_back(Descriptor::end());
  ProgrammableScheduleEngine engine;
  engine.reset();
  const auto run = collnet::testing::run_engine(engine, hls::programmable_engine_writes(words_of(program)),
                                       [](std::uint64_t cycle) { return cycle % 4 == 1; });
  EXPECT_TRUE(collnet::testing::equals_program(run.words, program));
}
