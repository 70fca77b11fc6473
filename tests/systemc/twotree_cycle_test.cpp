// Document 002 in the cycle model (spec twotree-leafspine, fact 4): with the
// phases in lock step (phase_barriers), a phase of the hierarchical two-tree
// takes one transfer time and nothing queues in the switches, while a phase
// of the flat two-tree in which two messages share a directed link takes one
// transfer time more: nearly twice as long. The static checker (an
// independent count of messages per directed link and phase) says which
// phases collide; leafspine:p=6, 32 processes, L = 4096, B = 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/static_check.hpp"
#include "collectives/algorithms/tree_collective.hpp"
#include "systemc/run/collective_run.hpp"
#include "tests/support/error_message.hpp"
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
    const std::string what = test::error_message<ConfigError>([&] { (void)run_collective(collective_from(p)); });
    EXPECT_NE(what.find("phase_barriers"), std::string::npos) << key << "=" << value << ": " << what;
  }
}

namespace {

Params pipelined(const std::string& algorithm, const std::string& collective, bool pipelining) {
  return Params{{"topology", "leafspine:p=6"},   {"algorithm", algorithm},
                {"processes", "13"},              {"elements", "40"},
                {"blocks", "3"},                  {"collective", collective},
                {"stage_pipelining", pipelining ? "true" : "false"}};
}

}  // namespace

// stage_pipelining on every tree collective: the data lands
// as with the stages one after another, data-driven and in lock step, from
// the reference programs (the two-tree engine runs the stages one after
// another, so `auto` picks the reference).
TEST(TwotreeCycleModel, StagePipeliningKeepsTheData) {
  for (const std::string algorithm : {"twotree-hier", "twotree-flat", "tree-single"})
    for (const std::string collective : {"reduce", "broadcast", "allreduce"})
      for (const std::string barriers : {"false", "true"}) {
        Params p = pipelined(algorithm, collective, true);
        p.set("phase_barriers", barriers);
        if (algorithm == "twotree-hier") p.set("op", "product"), p.set("dtype", "float64");
        const CollectiveResult r = run_collective(collective_from(p));
        const auto topo = topology::make_topology("leafspine:p=6");
        const auto report = collectives::static_check(*topo, collectives::find_algorithm(algorithm).build(*topo, p));
        EXPECT_TRUE(r.data_check) << algorithm << " " << collective << " barriers " << barriers;
        EXPECT_EQ(r.schedule_engine, "reference") << algorithm << " " << collective;
        if (barriers == "true") {
          EXPECT_EQ(r.barriers, report.phases.size()) << algorithm << " " << collective;
        }
      }
}

// A run's plan keeps the schedule, not the builder's plan for the engine
// (every transfer of the collective): the engine is loaded by then.
TEST(TwotreeCycleModel, ThePlanDropsTheEnginePlanOnceTheEngineIsLoaded) {
  Params p = pipelined("twotree-hier", "allreduce", false);
  const auto topo = topology::make_topology("leafspine:p=6");
  ASSERT_TRUE(collectives::find_algorithm("twotree-hier").build(*topo, p).engine_params.has_value());
  const CollectivePlan plan = plan_collective(collective_from(p));
  EXPECT_FALSE(plan.schedule.engine_params.has_value());
  ASSERT_FALSE(plan.engine.empty());  // the engine was loaded from it, and runs
  const CollectiveResult r = run_collective(collective_from(p), plan);
  EXPECT_EQ(r.schedule_engine, "hls-twotree");
  EXPECT_TRUE(r.data_check);
}

// The definition of the key, checked on the plan: a rank sends block k of a
// stage only after it has received every piece of block k of the earlier
// stages (the representative has reduced it, or it has arrived in the
// global broadcast), and each later stage starts at the earliest even phase
// that allows (two phases earlier, some send would come too soon).
TEST(TwotreeCycleModel, StagePipeliningStartsAStageAsSoonAsItsBlockIsThere) {
  const auto topo = topology::make_topology("leafspine:p=6");
  for (const std::string algorithm : {"twotree-hier", "twotree-flat"}) {
    const auto plan = collectives::plan_tree_collective(algorithm, *topo, pipelined(algorithm, "allreduce", true));
    const auto sequential =
        collectives::plan_tree_collective(algorithm, *topo, pipelined(algorithm, "allreduce", false));
    ASSERT_EQ(plan.stages.size(), algorithm == "twotree-hier" ? 4u : 2u);
    for (std::size_t s = 1; s < plan.stages.size(); ++s) {
      // sequential: stage s starts where stage s-1 ends
      EXPECT_EQ(sequential.phases[s].first, sequential.phases[s - 1].first + sequential.phases[s - 1].count);
      EXPECT_LT(plan.phases[s].first, sequential.phases[s].first) << algorithm << " stage " << s;
      std::int64_t slack = INT64_MAX;  // phases by which the tightest send follows its block
      for (const auto& x : plan.transfers) {
        if (x.stage != static_cast<int>(s)) continue;
        for (const auto& y : plan.transfers)
          if (y.stage < x.stage && y.receiver == x.sender && y.offset == x.offset) {
            EXPECT_GT(x.phase, y.phase) << algorithm << " stage " << s;
            slack = std::min<std::int64_t>(slack, static_cast<std::int64_t>(x.phase) - y.phase);
          }
      }
      EXPECT_GE(slack, 1) << algorithm << " stage " << s;
      EXPECT_LE(slack, 2) << algorithm << " stage " << s;  // as early as an even start allows
      EXPECT_EQ(plan.phases[s].first % 2, 0u);
    }
  }
}

// Closed form for the flat two-tree (spec twotree-leafspine: pipelined
// reduce): reduce and broadcast take 2(B+D-1) phases each; the root holds
// block k after reduce phase 2(k-1+D-1)+c and sends it in broadcast phase
// 2(k-1)+c, so the broadcast starts 2D phases after the reduce: 2B+4D-2
// phases instead of 4(B+D-1). The static checker counts them from the
// programs; the overlap puts two messages on some links (a node receives a
// reduce block and a broadcast block in one phase), and the static time and
// the cycles both come out lower.
TEST(TwotreeCycleModel, StagePipeliningShortensTheFlatTreeByItsClosedForm) {
  const auto topo = topology::make_topology("leafspine:p=6");
  const int B = 3, P = 13;
  const int D = collectives::two_tree(P).depth;
  const auto on = pipelined("twotree-flat", "allreduce", true), off = pipelined("twotree-flat", "allreduce", false);
  const auto& algorithm = collectives::find_algorithm("twotree-flat");
  const auto with = collectives::static_check(*topo, algorithm.build(*topo, on));
  const auto without = collectives::static_check(*topo, algorithm.build(*topo, off));
  EXPECT_EQ(without.phases.size(), static_cast<std::size_t>(4 * (B + D - 1)));
  EXPECT_EQ(with.phases.size(), static_cast<std::size_t>(2 * B + 4 * D - 2));
  EXPECT_LT(with.static_time, without.static_time);
  const CollectiveResult a = run_collective(collective_from(on)), b = run_collective(collective_from(off));
  ASSERT_TRUE(a.data_check && b.data_check);
  EXPECT_LT(a.cycles, b.cycles);
}

// In cycles on leafspine:p=6 with every server a process: the pipelined
// hierarchical allreduce needs fewer phases and less static time than the
// document's sequential stages, and fewer cycles, data-driven and in lock
// step; its overlapping stages give up the one-message-per-link property
// (a representative receives a local and a global block in one phase).
TEST(TwotreeCycleModel, StagePipeliningShortensTheHierarchicalAllreduce) {
  const auto topo = topology::make_topology("leafspine:p=6");
  const auto& algorithm = collectives::find_algorithm("twotree-hier");
  for (const std::string barriers : {"false", "true"}) {
    Params on{{"topology", "leafspine:p=6"}, {"algorithm", "twotree-hier"}, {"elements", "512"},
              {"blocks", "8"},               {"phase_barriers", barriers},   {"stage_pipelining", "true"}};
    Params off = on;
    off.set("stage_pipelining", "false");
    const auto with = collectives::static_check(*topo, algorithm.build(*topo, on));
    const auto without = collectives::static_check(*topo, algorithm.build(*topo, off));
    EXPECT_LT(with.phases.size(), without.phases.size());
    EXPECT_LT(with.static_time, without.static_time);
    EXPECT_EQ(without.max_link_load, 1);
    EXPECT_GT(with.max_link_load, 1);
    const CollectiveResult a = run_collective(collective_from(on)), b = run_collective(collective_from(off));
    ASSERT_TRUE(a.data_check && b.data_check);
    EXPECT_LT(a.cycles, b.cycles) << "phase_barriers " << barriers;
  }
}

// The two-tree engine runs the stages one after another: asking for it with
// stage_pipelining is a ConfigError naming the key; a bad value names it too.
TEST(TwotreeCycleModel, StagePipeliningNamesTheKeyWhereTheEngineCannot) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"schedule_engine", "hls"},
                                   {"nic_blocks", "rtl"},
                                   {"stage_pipelining", "maybe"}}) {
    Params p = pipelined("twotree-hier", "allreduce", true);
    p.set(key, value);
    const std::string what = test::error_message<ConfigError>([&] { (void)run_collective(collective_from(p)); });
    EXPECT_NE(what.find("stage_pipelining"), std::string::npos) << key << "=" << value << ": " << what;
  }
}

// Why the hierarchical two-tree is slower data-driven than in lock step
// (README, document 002): the edge coloring makes every phase use a
// directed link at most once, but the transfers of two neighbouring phases
// share links. Without barriers a node starts its next phase's transfer
// as soon as its own data is there, while a neighbour's transfer of the
// previous phase still holds a shared link, so the two interleave packets
// and both take longer. The static checker's per-phase link lists give the
// links that neighbouring phases share; the cycle model sees arbitration
// conflicts only without barriers. leafspine:p=6, 32 processes, L = 4096,
// B = 16 (the README's configuration).
TEST(TwotreeCycleModel, NeighbouringPhasesShareLinksSoDataDrivenRunsCollide) {
  const auto topo = topology::make_topology("leafspine:p=6");
  Params p{{"topology", "leafspine:p=6"}, {"algorithm", "twotree-hier"}, {"processes", "32"},
           {"elements", "4096"},          {"blocks", "16"},              {"schedule_engine", "reference"}};
  const auto report = collectives::static_check(*topo, collectives::find_algorithm("twotree-hier").build(*topo, p));
  // A server's own uplink is not counted: its program runs its sends one
  // after the other anyway. Leaf/spine links and a leaf's link down to a
  // server carry messages of different senders.
  const topology::Graph& graph = topo->graph();
  auto between_senders = [&](topology::LinkId id) {
    return graph.node(graph.link(id).src).kind != topology::NodeKind::server;
  };
  int shared_pairs = 0;  // neighbouring phases (q, q+1) that put a message on the same such link
  std::int64_t shared_links = 0;
  for (std::size_t q = 0; q + 1 < report.phases.size(); ++q) {
    const auto& a = report.phases[q].links;
    const auto& b = report.phases[q + 1].links;
    int common = 0;
    for (const auto& l : a)
      common += between_senders(l.link) &&
                std::any_of(b.begin(), b.end(), [&](const collectives::LinkLoad& m) { return m.link == l.link; });
    shared_pairs += common > 0;
    shared_links += common;
  }
  std::cout << "neighbouring phase pairs sharing a switch link: " << shared_pairs << " of "
            << report.phases.size() - 1 << ", shared directed links " << shared_links << "\n";
  EXPECT_EQ(report.max_link_load, 1);
  EXPECT_GT(shared_pairs, 0);
  const CollectiveResult driven = run_collective(collective_from(p));
  p.set("phase_barriers", "true");
  const CollectiveResult locked = run_collective(collective_from(p));
  ASSERT_TRUE(driven.data_check && locked.data_check);
  std::cout << "data-driven " << driven.cycles << " cycles, " << driven.arbitration_conflicts
            << " arbitration conflicts; lock step " << locked.cycles << ", " << locked.arbitration_conflicts << "\n";
  EXPECT_EQ(locked.arbitration_conflicts, 0u);
  EXPECT_GT(driven.arbitration_conflicts, 0u);
  EXPECT_GT(driven.max_queue_flits, locked.max_queue_flits);
}

// Why the hierarchical scheme cannot win here, even pipelined (README): its
// representatives carry it. Closed forms from the composition (spec
// twotree-leafspine), L words per rank, a representative that has two
// children in one global tree: on its one server link it receives L (local
// reduce) + L (global reduce) + L (global broadcast) and sends as much, 3L
// each way; its one controller moves 5L words (3L sent, L combined from
// each reduce stage). A flat two-tree node is interior in one tree: 2L each
// way, 3L words through its controller (2L sent, L combined). Counted here
// from the programs (SEND lengths, local copies included) and from the
// static checker's link loads (the cycle model's busiest links carry the
// same 3L flits: README).
TEST(TwotreeCycleModel, TheRepresentativesCarryOneAndAHalfTimesTheFlatLoad) {
  const auto topo = topology::make_topology("leafspine:p=6");
  const std::uint32_t L = 4096;
  for (const auto& [algorithm, link, controller] :
       {std::tuple<std::string, std::uint32_t, std::uint32_t>{"twotree-hier", 3 * L, 5 * L},
        {"twotree-flat", 2 * L, 3 * L}}) {
    const Params p{{"topology", "leafspine:p=6"}, {"algorithm", algorithm},  {"processes", "32"},
                   {"elements", std::to_string(L)}, {"blocks", "16"},        {"stage_pipelining", "true"}};
    const auto schedule = collectives::find_algorithm(algorithm).build(*topo, p);
    std::uint64_t most_moved = 0;
    for (const auto& program : schedule.programs) {
      std::uint64_t moved = 0;
      for (const auto& d : program)
        if (d.opcode == Opcode::send) moved += d.length;
      most_moved = std::max(most_moved, moved);
    }
    EXPECT_EQ(most_moved, controller) << algorithm;
    // the server links: flits over the whole collective, from the static checker
    const auto report = collectives::static_check(*topo, schedule);
    std::map<topology::LinkId, std::int64_t> flits;
    for (const auto& phase : report.phases)
      for (const auto& l : phase.links) flits[l.link] += l.flits;
    const topology::Graph& graph = topo->graph();
    std::int64_t server_most = 0;
    for (const auto& [id, f] : flits) {
      const auto& cable = graph.link(id);
      if (graph.node(cable.src).kind == topology::NodeKind::server ||
          graph.node(cable.dst).kind == topology::NodeKind::server)
        server_most = std::max(server_most, f);
    }
    EXPECT_EQ(server_most, link) << algorithm;
  }
}
