// Document 002 in the cycle model (spec twotree-leafspine, fact 4): with the
// phases in lock step (phase_barriers), a phase of the hierarchical two-tree
// takes one transfer time and nothing queues in the switches, while a phase
// of the flat two-tree in which two messages share a directed link takes one
// transfer time more: nearly twice as long. The static checker (an
// independent count of messages per directed link and phase) says which
// phases collide; leafspine:p=6, 32 processes, L = 4096, B = 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/static_check.hpp"
#include "collectives/algorithms/tree_collective.hpp"
#include "systemc/collective_run.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

struct PhaseTimes {
  CollectiveResult run;
  std::vector<std::int32_t> loads;  // static: most messages on one directed link, per phase
  std::vector<Cycle> durations;     // cycles from one phase barrier's release to the next
  std::vector<bool> reduce;         // the phase belongs to a reduce stage (it also combines)
};

PhaseTimes lock_step(const std::string& algorithm) {
  const Params p{{"topology", "leafspine:p=6"}, {"algorithm", algorithm},  {"processes", "32"},
                 {"elements", "4096"},          {"blocks", "16"},          {"phase_barriers", "true"}};
  PhaseTimes t;
  t.run = run_collective(collective_from(p));
  const auto topo = topology::make_topology("leafspine:p=6");
  const auto schedule = collectives::find_algorithm(algorithm).build(*topo, p);
  t.loads = collectives::static_check(*topo, schedule).phase_max_link_load();
  const auto plan = collectives::plan_tree_collective(algorithm, *topo, p);
  t.reduce.assign(t.loads.size(), false);
  for (std::size_t st = 0; st < plan.stages.size(); ++st)
    for (std::uint32_t q = 0; q < plan.phases[st].count; ++q)
      t.reduce[plan.phases[st].first + q] = plan.stages[st].kind == collectives::StageKind::reduce;
  Cycle previous = 0;
  for (const BarrierRecord& b : t.run.barrier_records) {
    t.durations.push_back(b.last_release - previous);
    previous = b.last_release;
  }
  return t;
}

double mean_duration(const PhaseTimes& t, std::int32_t load, bool reduce) {
  double sum = 0;
  int n = 0;
  for (std::size_t q = 0; q < t.loads.size() && q < t.durations.size(); ++q)
    if (t.loads[q] == load && t.reduce[q] == reduce) {
      sum += static_cast<double>(t.durations[q]);
      ++n;
    }
  return n == 0 ? 0 : sum / n;
}

}  // namespace

TEST(TwotreeCycleModel, FlatTreeCollisionsDoubleThePhaseTime) {
  const PhaseTimes hier = lock_step("twotree-hier");
  const PhaseTimes flat = lock_step("twotree-flat");
  for (const PhaseTimes* t : {&hier, &flat}) {
    ASSERT_TRUE(t->run.data_check);
    ASSERT_EQ(t->run.barriers, t->loads.size());  // one barrier per phase
  }
  // Hierarchical: every phase carries at most one message per directed link,
  // so no packet ever waits behind another one in a switch buffer.
  EXPECT_EQ(*std::max_element(hier.loads.begin(), hier.loads.end()), 1);
  EXPECT_LE(hier.run.max_queue_flits, 1);
  // Flat: some phases put two messages on one link; they take about twice
  // the time of its collision-free phases (the same block size).
  EXPECT_EQ(*std::max_element(flat.loads.begin(), flat.loads.end()), 2);
  // Closed form of a lock-step phase: a block of L / 2 / B = 128 words is
  // 128 flit times per message on its busiest link, plus a few cycles of
  // route and barrier latency; a reduce phase also combines the block into
  // memory (one word per cycle) after it arrives. A second message on a link
  // adds exactly one block time.
  const double block = 4096.0 / 2 / 16;
  for (const bool reduce : {true, false}) {
    const double clear = mean_duration(flat, 1, reduce);
    const double collided = mean_duration(flat, 2, reduce);
    const double work = reduce ? 2 * block : block;  // transfer (+ combine)
    const char* kind = reduce ? "reduce" : "broadcast";
    EXPECT_GE(clear, work) << kind;
    EXPECT_LE(clear, work + 32) << kind;                     // latency: barrier 10, a few hops
    EXPECT_NEAR(collided - clear, block, 0.03 * block) << kind;  // one more message time
    EXPECT_NEAR(mean_duration(hier, 1, reduce), clear, 2.0) << kind;  // same phases without collisions
  }
  // "visible as roughly doubled phase time": a broadcast phase is almost all
  // transfer, so the collision nearly doubles it.
  EXPECT_GT(mean_duration(flat, 2, false), 1.7 * mean_duration(flat, 1, false));
  EXPECT_GT(flat.run.max_queue_flits, 1);
}

// phase_barriers on every tree collective: the data lands as without it, one
// barrier per phase of the static checker; the two-tree engine emits no
// barriers, so the reference programs run, and asking for the engine or a
// bad value is a ConfigError naming the key.
TEST(TwotreeCycleModel, PhaseBarriersKeepTheDataAndNameTheKey) {
  for (const std::string algorithm : {"twotree-hier", "twotree-flat", "tree-single"})
    for (const std::string collective : {"reduce", "broadcast", "allreduce"}) {
      const Params p{{"topology", "leafspine:p=6"}, {"algorithm", algorithm},   {"processes", "13"},
                     {"elements", "9"},             {"collective", collective}, {"phase_barriers", "true"}};
      const CollectiveResult r = run_collective(collective_from(p));
      const auto topo = topology::make_topology("leafspine:p=6");
      const auto report = collectives::static_check(*topo, collectives::find_algorithm(algorithm).build(*topo, p));
      EXPECT_TRUE(r.data_check) << algorithm << " " << collective;
      EXPECT_EQ(r.barriers, report.phases.size()) << algorithm << " " << collective;
      EXPECT_EQ(r.schedule_engine, "reference") << algorithm << " " << collective;
    }
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"schedule_engine", "hls"},
                                   {"phase_barriers", "maybe"}}) {
    Params p{{"topology", "leafspine:p=6"}, {"algorithm", "twotree-hier"}, {"phase_barriers", "true"}};
    p.set(key, value);
    try {
      (void)run_collective(collective_from(p));
      ADD_FAILURE() << "no ConfigError for " << key << "=" << value;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("phase_barriers"), std::string::npos) << e.what();
    }
  }
}
