// Document 002 (spec twotree-leafspine): two-tree construction, placement,
// procedure tables 174-177, pipelined phases, contention on the leaf/spine
// fabric, and exact reduce / broadcast / allreduce results.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "collectives/algorithms/twotree.hpp"
#include "collectives/algorithms/spine_choice.hpp"
#include "collectives/algorithms/twotree_hier.hpp"
#include "topology/leafspine.hpp"

using namespace collnet;
using namespace collnet::collectives;
using topology::LeafSpine;

namespace {

struct Edge {
  int from, to, color;
  bool operator<(const Edge& o) const { return std::tie(from, to, color) < std::tie(o.from, o.to, o.color); }
  bool operator==(const Edge&) const = default;
};

std::set<Edge> edges_of(const PipelinedTrees& p, int t) {
  std::set<Edge> s;
  const auto& tree = p.trees[static_cast<std::size_t>(t)];
  for (int v = 1; v < p.ranks; ++v)
    s.insert({v, tree.parent[static_cast<std::size_t>(v)], tree.color[static_cast<std::size_t>(v)]});
  return s;
}

std::unique_ptr<LeafSpine> mesh(int p) { return LeafSpine::full_mesh(p); }

Schedule build(const topology::Topology& t, const std::string& algorithm, Params params) {
  return find_algorithm(algorithm).build(t, params);
}

int label_of(const topology::Topology& t, EndpointId e) {
  return t.graph().node(t.graph().endpoint_node(e)).label;
}

// Senders (by rank) of every network SEND, per tag.
std::map<std::uint32_t, std::set<int>> senders_by_phase(const Schedule& s, const Placement& pl) {
  std::map<std::uint32_t, std::set<int>> m;
  for (std::size_t e = 0; e < s.programs.size(); ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send && d.dest != e) m[d.tag].insert(pl.rank(static_cast<EndpointId>(e)));
  return m;
}

// Tags of the SENDs from endpoint a to endpoint b, in program order.
std::vector<std::uint32_t> tags_between(const Schedule& s, EndpointId a, EndpointId b) {
  std::vector<std::uint32_t> tags;
  for (const Descriptor& d : s.programs[static_cast<std::size_t>(a)])
    if (d.opcode == Opcode::send && d.dest == static_cast<std::uint32_t>(b)) tags.push_back(d.tag);
  return tags;
}

const PhaseReport& phase_with_tag(const StaticReport& r, std::uint32_t tag) {
  for (const auto& p : r.phases)
    if (p.tag == tag) return p;
  throw std::runtime_error("no phase with tag " + std::to_string(tag));
}

int link_messages(const topology::Topology& t, const PhaseReport& p, const std::string& name) {
  for (const auto& l : p.links)
    if (t.graph().link_name(l.link) == name) return l.messages;
  return 0;
}

int width(int v) { return static_cast<int>(std::bit_width(static_cast<unsigned>(v))); }

// Independent closed form: phases of the hierarchical scheme, stage by stage,
// 2(B + D - 1) with D = bit_width(n - 1) for a tree over n ranks.
int hier_phases(const std::vector<std::vector<int>>& groups, int blocks, Collective c) {
  int largest = 0;
  for (const auto& g : groups) largest = std::max(largest, static_cast<int>(g.size()));
  const int G = static_cast<int>(groups.size());
  const int local = largest > 1 ? 2 * (blocks + width(largest - 1) - 1) : 0;
  const int global = G > 1 ? 2 * (blocks + width(G - 1) - 1) : 0;
  const int one_way = local + global;
  return c == Collective::allreduce ? 2 * one_way : one_way;
}

}  // namespace

// ---------------------------------------------------------------- two-tree

// spec: the eight-rank example (group a), edges sender->receiver with colors.
TEST(TwoTree, EightRankExampleEdgesAndColors) {
  const PipelinedTrees p = two_tree(8);
  EXPECT_EQ(p.depth, 3);
  const std::set<Edge> t1 = {{1, 2, 0}, {3, 2, 1}, {7, 6, 0}, {5, 6, 1}, {2, 4, 0}, {6, 4, 1}, {4, 0, 1}};
  const std::set<Edge> t2 = {{4, 3, 0}, {2, 3, 1}, {6, 7, 0}, {1, 7, 1}, {3, 5, 0}, {7, 5, 1}, {5, 0, 0}};
  EXPECT_EQ(edges_of(p, 0), t1);
  EXPECT_EQ(edges_of(p, 1), t2);
}

// The representatives' global tree of the spec: T1 top 2 (rank 16) with
// children 1, 3; T2 the shift 1->2->3->1.
TEST(TwoTree, FourRankGlobalTree) {
  const PipelinedTrees p = two_tree(4);
  EXPECT_EQ(edges_of(p, 0), (std::set<Edge>{{1, 2, 1}, {3, 2, 0}, {2, 0, 0}}));
  EXPECT_EQ(edges_of(p, 1), (std::set<Edge>{{2, 3, 1}, {1, 3, 0}, {3, 0, 1}}));
}

// The rules of the construction, checked from their definitions for every n
// up to 300: in-order T1, T2 = shift of T1, coloring constraints, the seed,
// no node interior in both trees, depth = hops from the deepest leaf.
TEST(TwoTree, ConstructionRulesHoldForEverySize) {
  for (int n = 1; n <= 300; ++n) {
    const PipelinedTrees p = two_tree(n);
    ASSERT_EQ(p.ranks, n);
    if (n == 1) {
      EXPECT_TRUE(p.trees.empty());
      continue;
    }
    ASSERT_EQ(p.trees.size(), 2u);
    const auto& t1 = p.trees[0];
    const auto& t2 = p.trees[1];
    const int last = n - 1;
    auto shift = [last](int u) { return u == 0 ? 0 : (u == last ? 1 : u + 1); };
    int max_hops = 0;
    for (int v = 1; v < n; ++v) {
      const auto sv = static_cast<std::size_t>(v);
      EXPECT_EQ(t2.parent[static_cast<std::size_t>(shift(v))], shift(t1.parent[sv])) << n << " " << v;
      EXPECT_EQ(t1.color[sv] + t2.color[sv], 1) << n << " " << v;  // x and 1-x
      EXPECT_EQ(t1.height[sv], std::countr_zero(static_cast<unsigned>(v)));
      if (t1.parent[sv] != 0) {
        EXPECT_LT(t1.height[sv], t1.height[static_cast<std::size_t>(t1.parent[sv])]);
      }
      EXPECT_FALSE(!t1.children[sv].empty() && !t2.children[sv].empty()) << "interior in both trees: " << n << " " << v;
      for (const auto* t : {&t1, &t2}) {
        const auto& c = t->children[sv];
        ASSERT_LE(c.size(), 2u);
        if (c.size() == 2) {
          EXPECT_NE(t->color[static_cast<std::size_t>(c[0])], t->color[static_cast<std::size_t>(c[1])]);
        }
      }
      // In-order: every descendant reached through a smaller child is smaller.
      for (int c : t1.children[sv]) {
        std::vector<int> stack{c};
        while (!stack.empty()) {
          const int d = stack.back();
          stack.pop_back();
          EXPECT_EQ(d < v, c < v) << n << " " << v << " " << d;
          for (int e : t1.children[static_cast<std::size_t>(d)]) stack.push_back(e);
        }
      }
      int hops = 0;
      for (int u = v; u != 0; u = t1.parent[static_cast<std::size_t>(u)]) ++hops;
      max_hops = std::max(max_hops, hops);
    }
    ASSERT_EQ(t1.children[0].size(), 1u);
    ASSERT_EQ(t2.children[0].size(), 1u);
    EXPECT_NE(t1.color[static_cast<std::size_t>(t1.children[0][0])], t2.color[static_cast<std::size_t>(t2.children[0][0])]);
    EXPECT_EQ(p.x[static_cast<std::size_t>(last)], 0);  // the first BFS seed
    EXPECT_EQ(p.depth, max_hops) << n;
    EXPECT_EQ(p.depth, width(n - 1));
  }
}

// Document 002 [0079]-[0090]: the single tree over 8 ranks, left phase
// {1->2, 5->6, 2->4, 4->0}, right phase {3->2, 7->6, 6->4}.
TEST(TwoTree, SingleTreeOfTheBackground) {
  const PipelinedTrees p = single_tree(8);
  ASSERT_EQ(p.trees.size(), 1u);
  EXPECT_EQ(edges_of(p, 0),
            (std::set<Edge>{{1, 2, 0}, {5, 6, 0}, {2, 4, 0}, {4, 0, 0}, {3, 2, 1}, {7, 6, 1}, {6, 4, 1}}));
  // [0088]-[0090]: 1,5 send block 1 (phase 0); 3,7 (phase 1); 1,5 block 2 and 2
  // (phase 2); 3,7 and 6 (phase 3); ... 4 sends block 1 in the third left phase.
  EXPECT_EQ(p.reduce_phase(0, 1, 1), 0);
  EXPECT_EQ(p.reduce_phase(0, 3, 1), 1);
  EXPECT_EQ(p.reduce_phase(0, 2, 1), 2);
  EXPECT_EQ(p.reduce_phase(0, 6, 1), 3);
  EXPECT_EQ(p.reduce_phase(0, 4, 1), 4);
  EXPECT_EQ(p.reduce_phase(0, 6, 2), 5);
}

// ---------------------------------------------------------------- placement

// spec: P=32 on p=6 -> G=4, n=8, ranks 0-7 on 100-107, 8-15 on 110-117,
// 16-23 on 120-127, 24-31 on 130-137; representatives 0, 8, 16, 24.
TEST(TwoTreePlacement, ThirtyTwoProcessesOnP6) {
  const auto f = mesh(6);
  const auto plan = plan_twotree_hier(*f, Grouping::spine_set, 32);
  const Placement& pl = plan.placement;
  ASSERT_EQ(pl.groups.size(), 4u);
  for (int r = 0; r < 32; ++r) EXPECT_EQ(label_of(*f, pl.endpoint(r)), 100 + 10 * (r / 8) + r % 8) << r;
  EXPECT_EQ(pl.representatives, (std::vector<int>{0, 8, 16, 24}));
  EXPECT_EQ(plan.tables.representatives, (std::vector<int>{0, 8, 16, 24}));
  for (int g = 0; g < 4; ++g) EXPECT_EQ(pl.groups[static_cast<std::size_t>(g)].size(), 8u);
  for (const int idle : {108, 118, 128, 138}) {
    EndpointId e = 0;
    while (label_of(*f, e) != idle) ++e;
    EXPECT_EQ(pl.rank(e), -1) << idle;
    // Endpoints without a process send nothing: their program is just END.
    const Schedule s = build(*f, "twotree-hier", {{"processes", "32"}});
    ASSERT_EQ(s.programs[static_cast<std::size_t>(e)].size(), 1u);
    EXPECT_EQ(s.programs[static_cast<std::size_t>(e)][0].opcode, Opcode::end);
  }
}

TEST(TwoTreePlacement, GroupSizesAndVariants) {
  const auto f = mesh(6);
  auto sizes = [&](int P, Grouping g) {
    std::vector<std::size_t> s;
    for (const auto& grp : place_grouped(*f, g, P).groups) s.push_back(grp.size());
    return s;
  };
  EXPECT_EQ(sizes(9, Grouping::spine_set), (std::vector<std::size_t>{9}));
  EXPECT_EQ(sizes(10, Grouping::spine_set), (std::vector<std::size_t>{5, 5}));
  EXPECT_EQ(sizes(11, Grouping::spine_set), (std::vector<std::size_t>{6, 5}));  // first P mod G get one more
  EXPECT_EQ(sizes(36, Grouping::spine_set), (std::vector<std::size_t>{9, 9, 9, 9}));
  EXPECT_EQ(sizes(36, Grouping::leaf), std::vector<std::size_t>(12, 3));
  EXPECT_EQ(sizes(7, Grouping::leaf), (std::vector<std::size_t>{3, 2, 2}));
  // Groups are columns: every group's servers share one spine set.
  const auto groups = leafspine_groups(*f, Grouping::spine_set);
  ASSERT_EQ(groups.size(), 4u);
  for (const auto& g : groups)
    for (EndpointId e : g) EXPECT_EQ(f->column(f->leaf_of(e)), f->column(f->leaf_of(g.front())));
  // p = 8: (p/2)^2 = 16 servers per group, P = 80 -> 5 groups of 16.
  const auto f8 = mesh(8);
  EXPECT_EQ(place_grouped(*f8, Grouping::spine_set, 80).groups.size(), 5u);
}

// The first embodiment: leaves 21, 22 (spines 25, 26) form one group, 23, 24
// (26, 27) another; representatives nodes 11 and 15.
TEST(TwoTreePlacement, FirstEmbodimentGroups) {
  const auto f = LeafSpine::from_wiring(
      "server 11 leaf 21\nserver 12 leaf 21\nserver 13 leaf 22\nserver 14 leaf 22\n"
      "server 15 leaf 23\nserver 16 leaf 23\nserver 17 leaf 24\nserver 18 leaf 24\n"
      "uplink 21 25\nuplink 21 26\nuplink 22 25\nuplink 22 26\n"
      "uplink 23 26\nuplink 23 27\nuplink 24 26\nuplink 24 27\n",
      "first", "leafspine-wiring:first");
  const auto pl = place_grouped(*f, Grouping::spine_set, 8);
  ASSERT_EQ(pl.groups.size(), 2u);
  EXPECT_EQ(pl.groups[0], (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(pl.groups[1], (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(label_of(*f, pl.endpoint(pl.representatives[0])), 11);
  EXPECT_EQ(label_of(*f, pl.endpoint(pl.representatives[1])), 15);
  // Groups of unequal size: the excess of a full group moves on.
  const auto g = LeafSpine::from_wiring(
      "server 1 leaf 10\nserver 2 leaf 10\nserver 3 leaf 11\nserver 4 leaf 11\nserver 5 leaf 11\nserver 6 leaf 11\n"
      "uplink 10 20\nuplink 11 20\nuplink 11 21\n",
      "uneven", "leafspine-wiring:uneven");
  const auto pg = place_grouped(*g, Grouping::spine_set, 5);
  ASSERT_EQ(pg.groups.size(), 2u);
  EXPECT_EQ(pg.groups[0].size(), 2u);
  EXPECT_EQ(pg.groups[1].size(), 3u);
}

// ---------------------------------------------------------------- tables 174-177

// spec: tables printed for group a (b, c, d: +8, +16, +24) and for the
// representatives; the tree of an entry is the tree its edge belongs to in
// the spec's edge lists (T1 = 0, T2 = 1).
TEST(TwoTreeTables, TablesAsPrinted) {
  const auto f = mesh(6);
  const auto plan = plan_twotree_hier(*f, Grouping::spine_set, 32);
  const ProcedureTables& t = plan.tables;
  const int send[8][2] = {{-1, -1}, {2, 7}, {4, 3}, {5, 2}, {3, 0}, {0, 6}, {7, 4}, {6, 5}};
  const int recv[8][2] = {{5, 4}, {-1, -1}, {1, 3}, {4, 2}, {2, 6}, {3, 7}, {7, 5}, {6, 1}};
  const std::set<std::pair<int, int>> t1 = {{1, 2}, {3, 2}, {7, 6}, {5, 6}, {2, 4}, {6, 4}, {4, 0}};
  auto tree_of = [&](int from, int to) { return t1.count({from, to}) ? 0 : 1; };
  for (int g = 0; g < 4; ++g)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 2; ++c) {
        const int rank = 8 * g + r;
        const auto& s = t.local_send[static_cast<std::size_t>(rank)][static_cast<std::size_t>(c)];
        const auto& v = t.local_receive[static_cast<std::size_t>(rank)][static_cast<std::size_t>(c)];
        const int sp = send[r][c], rp = recv[r][c];
        EXPECT_EQ(s, (ProcedureEntry{sp < 0 ? -1 : sp + 8 * g, sp < 0 ? -1 : tree_of(r, sp)})) << rank << " c" << c;
        EXPECT_EQ(v, (ProcedureEntry{rp < 0 ? -1 : rp + 8 * g, rp < 0 ? -1 : tree_of(rp, r)})) << rank << " c" << c;
      }
  // Global: T1 16 <- 8, 24; 16 -> 0.  T2 (shift 8->16->24->8): 24 <- 16, 8; 24 -> 0.
  const std::map<int, std::array<ProcedureEntry, 2>> gsend = {
      {0, {{{-1, -1}, {-1, -1}}}}, {8, {{{24, 1}, {16, 0}}}}, {16, {{{0, 0}, {24, 1}}}}, {24, {{{16, 0}, {0, 1}}}}};
  const std::map<int, std::array<ProcedureEntry, 2>> grecv = {
      {0, {{{16, 0}, {24, 1}}}}, {8, {{{-1, -1}, {-1, -1}}}}, {16, {{{24, 0}, {8, 0}}}}, {24, {{{8, 1}, {16, 1}}}}};
  for (int rank = 0; rank < 32; ++rank) {
    const auto none = std::array<ProcedureEntry, 2>{};
    const auto es = gsend.count(rank) ? gsend.at(rank) : none;
    const auto er = grecv.count(rank) ? grecv.at(rank) : none;
    EXPECT_EQ(t.global_send[static_cast<std::size_t>(rank)], es) << rank;
    EXPECT_EQ(t.global_receive[static_cast<std::size_t>(rank)], er) << rank;
  }
}

// The programs follow the tables: in the local reduce every SEND of rank r in
// an even (color 0) / odd (color 1) phase goes to local_send[r][color].
TEST(TwoTreeTables, ProgramsFollowTheTables) {
  const auto f = mesh(6);
  const auto plan = plan_twotree_hier(*f, Grouping::spine_set, 32);
  const Schedule s = build(*f, "twotree-hier", {{"processes", "32"}, {"collective", "reduce"}});
  const std::uint32_t local_phases = 2 * (4 + 3 - 1);
  for (int rank = 0; rank < 32; ++rank)
    for (const Descriptor& d : s.programs[static_cast<std::size_t>(plan.placement.endpoint(rank))]) {
      if (d.opcode != Opcode::send || d.dest == static_cast<std::uint32_t>(plan.placement.endpoint(rank))) continue;
      const auto& table = d.tag < local_phases ? plan.tables.local_send : plan.tables.global_send;
      const int expected = table[static_cast<std::size_t>(rank)][d.tag % 2].partner;
      EXPECT_EQ(plan.placement.rank(static_cast<EndpointId>(d.dest)), expected) << rank << " tag " << d.tag;
    }
}

// ---------------------------------------------------------------- phases

// spec: with B = 3 the first phases send c0 {1,4,6,7}; c1 {1,2,3,5}; then 2
// and 3 join; then 6 and 7; then 5 (to 0); then 4 (to 0); 10 phases in all.
// The later sets follow from 2(k-1+h)+color with the spec's edges.
TEST(TwoTreePhases, EightRankExampleWithThreeBlocks) {
  const auto f = mesh(6);
  const auto plan = plan_twotree_hier(*f, Grouping::spine_set, 8);
  const Schedule s = build(*f, "twotree-hier", {{"processes", "8"}, {"collective", "reduce"}, {"blocks", "3"}});
  const auto m = senders_by_phase(s, plan.placement);
  const std::vector<std::set<int>> expected = {
      {1, 4, 6, 7}, {1, 2, 3, 5}, {1, 2, 3, 4, 6, 7}, {1, 2, 3, 5, 6, 7}, {1, 2, 3, 4, 5, 6, 7},
      {1, 2, 3, 4, 5, 6, 7}, {2, 3, 5}, {4, 6, 7}, {5}, {4}};
  ASSERT_EQ(m.size(), expected.size());
  for (std::uint32_t phase = 0; phase < expected.size(); ++phase) EXPECT_EQ(m.at(phase), expected[phase]) << phase;
  EXPECT_EQ(tags_between(s, 5, 0), (std::vector<std::uint32_t>{4, 6, 8}));  // 5 -> 0 (T2 top, color 0)
  EXPECT_EQ(tags_between(s, 4, 0), (std::vector<std::uint32_t>{5, 7, 9}));  // 4 -> 0 (T1 top, color 1)
}

// spec facts 3 and phase counts: every phase, every node sends <= 1 and
// receives <= 1; phases = sum over stages of 2(B + D - 1).
TEST(TwoTreePhases, OneSendOneReceivePerPhaseAndPhaseCounts) {
  struct Case {
    int p, P, B;
  };
  for (const Case c : {Case{6, 8, 3}, Case{6, 9, 4}, Case{6, 18, 2}, Case{6, 32, 4}, Case{6, 36, 5}, Case{6, 11, 1},
                       Case{8, 80, 3}, Case{8, 33, 4}})
    for (const char* coll : {"reduce", "broadcast", "allreduce"}) {
      const auto f = mesh(c.p);
      const Params params{{"processes", std::to_string(c.P)}, {"blocks", std::to_string(c.B)},
                          {"collective", coll}, {"elements", "31"}};
      const Schedule s = build(*f, "twotree-hier", params);
      // Every program is allocated at its length, END included (a million
      // descriptors on leafspine:p=36; grown by doubling, a quarter of the
      // room was unused).
      for (const Program& prog : s.programs) ASSERT_EQ(prog.capacity(), prog.size()) << c.p << " P=" << c.P;
      const StaticReport r = static_check(*f, s);
      const auto plan = plan_twotree_hier(*f, Grouping::spine_set, c.P);
      const Collective kind = std::string(coll) == "reduce"      ? Collective::reduce
                              : std::string(coll) == "broadcast" ? Collective::broadcast
                                                                 : Collective::allreduce;
      const int phases = hier_phases(plan.placement.groups, c.B, kind);
      ASSERT_EQ(static_cast<int>(r.phases.size()), phases) << c.p << " P=" << c.P << " " << coll;
      for (std::size_t i = 0; i < r.phases.size(); ++i) {
        EXPECT_EQ(r.phases[i].tag, i);  // no gaps
        EXPECT_LE(r.phases[i].max_sends_per_node, 1) << "phase " << i;
        EXPECT_LE(r.phases[i].max_receives_per_node, 1) << "phase " << i;
      }
    }
}

TEST(TwoTreePhases, BaselinesAlsoSendAndReceiveOncePerPhase) {
  const auto f = mesh(6);
  for (const char* alg : {"twotree-flat", "tree-single"})
    for (const char* coll : {"reduce", "broadcast", "allreduce"}) {
      const Schedule s = build(*f, alg, {{"processes", "32"}, {"collective", coll}, {"blocks", "5"}});
      const StaticReport r = static_check(*f, s);
      // Flat over 32 ranks: D = 5; two-tree 2(B+D-1) phases per direction.
      if (std::string(alg) == "twotree-flat") {
        EXPECT_EQ(static_cast<int>(r.phases.size()), (std::string(coll) == "allreduce" ? 2 : 1) * 2 * (5 + 5 - 1));
      }
      for (const auto& p : r.phases) {
        EXPECT_LE(p.max_sends_per_node, 1) << alg << " " << coll << " phase " << p.tag;
        EXPECT_LE(p.max_receives_per_node, 1) << alg << " " << coll << " phase " << p.tag;
      }
    }
}

// ---------------------------------------------------------------- contention

// spec fact 4: the hierarchical scheme puts <= 1 message on every directed
// link in every phase, under edge coloring, for p = 6 with P = 9, 18, 32, 36
// and p = 8 with P = 80; each phase then takes one block time.
TEST(TwoTreeContention, HierarchicalSchemeIsContentionFree) {
  struct Case {
    int p, P;
  };
  for (const Case c : {Case{6, 9}, Case{6, 18}, Case{6, 32}, Case{6, 36}, Case{8, 80}})
    for (const char* grouping : {"spine_set", "leaf"}) {
      const auto f = mesh(c.p);
      const Schedule s = build(*f, "twotree-hier",
                               {{"processes", std::to_string(c.P)}, {"elements", "16"}, {"grouping", grouping}});
      const StaticReport r = static_check(*f, s);
      EXPECT_EQ(r.max_link_load, 1) << "p=" << c.p << " P=" << c.P << " " << grouping;
      for (const auto& p : r.phases) EXPECT_EQ(p.max_link_flits, 2) << p.tag;  // 16 / 2 halves / 4 blocks
      EXPECT_GE(r.static_time, s.lower_bound);
    }
}

// spec: "spine = sender's port index" works for the P=32, p=6 example (a
// reduce). A broadcast runs the edges the other way, so there the mirror
// policy (receiver port) is the contention-free one and the sender port
// collides; an allreduce has both directions, so only the coloring is free.
TEST(TwoTreeContention, SenderPortIsContentionFreeForThirtyTwo) {
  const auto f = mesh(6);
  auto load = [&](const char* collective, const char* choice) {
    const Schedule s =
        build(*f, "twotree-hier", {{"processes", "32"}, {"spine_choice", choice}, {"collective", collective}});
    for (const auto& prog : s.programs)
      for (const Descriptor& d : prog) {
        if (d.opcode == Opcode::send && d.route_hint != 0) {
          EXPECT_EQ(d.route_hint, std::string(choice) == "sender_port" ? LeafSpine::kHintSenderPort
                                                                       : LeafSpine::kHintReceiverPort);
        }
      }
    return static_check(*f, s).max_link_load;
  };
  EXPECT_EQ(load("reduce", "sender_port"), 1);
  EXPECT_EQ(load("broadcast", "receiver_port"), 1);
  EXPECT_EQ(load("broadcast", "sender_port"), 2);
  EXPECT_EQ(load("allreduce", "sender_port"), 2);
  EXPECT_EQ(load("allreduce", "receiver_port"), 2);
}

// spec: "spine = receiver's port index" collides on leaf 201 -> spine 240
// between 4->0 and 5->6 in local color 1.
TEST(TwoTreeContention, ReceiverPortCollidesOnLeaf201ToSpine240) {
  const auto f = mesh(6);
  const Schedule s = build(*f, "twotree-hier",
                           {{"processes", "32"}, {"spine_choice", "receiver_port"}, {"collective", "reduce"}});
  const StaticReport r = static_check(*f, s);
  EXPECT_EQ(r.max_link_load, 2);
  const auto a = tags_between(s, 4, 0);  // ranks = endpoints in group a
  const auto b = tags_between(s, 5, 6);
  std::vector<std::uint32_t> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  ASSERT_FALSE(common.empty());
  const std::uint32_t local_phases = 2 * (4 + 3 - 1);
  for (std::uint32_t tag : common) {
    EXPECT_LT(tag, local_phases);
    EXPECT_EQ(tag % 2, 1u);  // local color 1
    EXPECT_EQ(link_messages(*f, phase_with_tag(r, tag), "201:3->240"), 2) << tag;
  }
  // Edge coloring of the same schedule removes it.
  const Schedule colored = build(*f, "twotree-hier", {{"processes", "32"}, {"collective", "reduce"}});
  EXPECT_EQ(static_check(*f, colored).max_link_load, 1);
}

// spec: a flat two-tree over 32 ranks collides: with placement 1, 24->16 and
// 25->17 share leaf 222 -> spine 243 -> leaf 212 in color 1, roughly doubling
// the phase time. With the grouped placement (FIG. 13) the same pair goes
// 230 -> 245 -> 220.
TEST(TwoTreeContention, FlatTwoTreeCollides) {
  const auto f = mesh(6);
  struct Case {
    const char* placement;
    int a24, a16, a25, a17;
    const char* up;
    const char* down;
  };
  for (const Case c : {Case{"consecutive", 126, 117, 127, 118, "222:4->243", "243:4->212"},
                       Case{"grouped", 130, 120, 131, 121, "230:5->245", "245:0->220"}}) {
    for (const char* choice : {"coloring", "sender_port", "receiver_port"}) {
      const Schedule s = build(*f, "twotree-flat",
                               {{"processes", "32"}, {"collective", "reduce"}, {"elements", "16"},
                                {"placement", c.placement}, {"spine_choice", choice}});
      const StaticReport r = static_check(*f, s);
      auto endpoint = [&](int label) {
        EndpointId e = 0;
        while (label_of(*f, e) != label) ++e;
        return e;
      };
      const auto t24 = tags_between(s, endpoint(c.a24), endpoint(c.a16));
      const auto t25 = tags_between(s, endpoint(c.a25), endpoint(c.a17));
      ASSERT_EQ(t24.size(), 4u) << c.placement;
      EXPECT_EQ(t24, t25) << c.placement;  // same phase, block by block
      for (std::uint32_t tag : t24) {
        EXPECT_EQ(tag % 2, 1u);  // color 1
        const PhaseReport& p = phase_with_tag(r, tag);
        EXPECT_GE(link_messages(*f, p, c.up), 2) << c.placement << " " << choice << " " << tag;
        EXPECT_GE(link_messages(*f, p, c.down), 2) << c.placement << " " << choice << " " << tag;
        if (std::string(choice) == "coloring") {
          // No spine choice avoids it (one shared spine); the best one still
          // puts two blocks of 2 words on one link: twice the block time.
          EXPECT_EQ(link_messages(*f, p, c.up), 2);
          EXPECT_EQ(link_messages(*f, p, c.down), 2);
          EXPECT_EQ(p.max_link_flits, 2 * 2);
        }
      }
    }
  }
  // The hierarchical scheme on the same data keeps every phase at one block time.
  const Schedule h = build(*f, "twotree-hier", {{"processes", "32"}, {"collective", "reduce"}, {"elements", "16"}});
  for (const auto& p : static_check(*f, h).phases) EXPECT_EQ(p.max_link_flits, 2);
}

// ---------------------------------------------------------------- data

namespace {

// The test's own reduction operators (independent of the executor's combine).
std::uint64_t fold_int(ReceiveOp op, std::uint64_t a, std::uint64_t b) {
  const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
  switch (op) {
    case ReceiveOp::sum: return a + b;
    case ReceiveOp::product: return a * b;
    case ReceiveOp::max: return static_cast<std::uint64_t>(x > y ? x : y);
    case ReceiveOp::min: return static_cast<std::uint64_t>(x < y ? x : y);
    default: return 0;
  }
}

struct DataRun {
  const topology::Topology* topology;
  std::string algorithm;
  Params params;
  std::function<EndpointId(int)> endpoint_of;  // rank -> endpoint
  int processes;
};

// Random integer data of the test's own, the executor under every delivery
// order, and the result checked against the test's own fold.
void expect_exact_integer_results(const DataRun& run, ReceiveOp op, const std::string& collective, std::uint32_t elements,
                                  std::uint64_t seed) {
  Params params = run.params;
  params.set("collective", collective);
  params.set("elements", std::to_string(elements));
  const char* op_name = op == ReceiveOp::sum ? "sum" : op == ReceiveOp::min ? "min" : op == ReceiveOp::max ? "max" : "product";
  params.set("op", op_name);
  Schedule s = find_algorithm(run.algorithm).build(*run.topology, params);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint64_t>> data(static_cast<std::size_t>(run.processes));
  std::map<EndpointId, int> rank_at;
  for (int r = 0; r < run.processes; ++r) {
    rank_at[run.endpoint_of(r)] = r;
    for (std::uint32_t i = 0; i < elements; ++i) {
      std::uint64_t v = rng();
      if (op == ReceiveOp::product) v |= 1;  // odd: the product never collapses to 0
      data[static_cast<std::size_t>(r)].push_back(v);
    }
  }
  s.initial = [&](EndpointId e, std::uint32_t a) -> Word {
    const auto it = rank_at.find(e);
    return it != rank_at.end() && a < elements ? data[static_cast<std::size_t>(it->second)][a] : 0;
  };
  std::vector<std::uint64_t> fold = data[0];
  for (int r = 1; r < run.processes; ++r)
    for (std::uint32_t i = 0; i < elements; ++i) fold[i] = fold_int(op, fold[i], data[static_cast<std::size_t>(r)][i]);
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const ExecResult x = execute(s, {order, seed});
    const std::string what = run.algorithm + " " + collective + " " + op_name + " L=" + std::to_string(elements) +
                             " order " + std::to_string(static_cast<int>(order));
    for (int r = 0; r < run.processes; ++r) {
      const auto& mem = x.memory[static_cast<std::size_t>(run.endpoint_of(r))];
      const std::vector<std::uint64_t> got(mem.begin(), mem.begin() + elements);
      if (collective == "reduce" && r == 0) {
        EXPECT_EQ(got, fold) << what;
      }
      if (collective == "allreduce") {
        EXPECT_EQ(got, fold) << what << " rank " << r;
      }
      if (collective == "broadcast") {
        EXPECT_EQ(got, data[0]) << what << " rank " << r;
      }
    }
    for (std::size_t e = 0; e < x.memory.size(); ++e) {
      if (!rank_at.count(static_cast<EndpointId>(e))) {
        EXPECT_TRUE(std::all_of(x.memory[e].begin(), x.memory[e].end(), [](Word w) { return w == 0; })) << what;
      }
    }
    // The schedule's own expectation agrees under its own data.
    const Schedule own = find_algorithm(run.algorithm).build(*run.topology, params);
    EXPECT_TRUE(check_data(own, execute(own, {order, seed}).memory).pass) << what;
  }
}

}  // namespace

// spec fact 5: results exact on every rank for random integer data, odd
// element counts and every operator, under lazy, eager and random delivery.
TEST(TwoTreeData, HierarchicalResultsAreExact) {
  const auto f = mesh(6);
  for (int P : {32, 9, 23}) {
    const auto plan = plan_twotree_hier(*f, Grouping::spine_set, P);
    const DataRun run{f.get(), "twotree-hier", {{"processes", std::to_string(P)}, {"blocks", "3"}},
                  [pl = plan.placement](int r) { return pl.endpoint(r); }, P};
    for (ReceiveOp op : {ReceiveOp::sum, ReceiveOp::min, ReceiveOp::max, ReceiveOp::product})
      for (const char* coll : {"reduce", "broadcast", "allreduce"})
        expect_exact_integer_results(run, op, coll, P == 32 ? 15 : 7, 17u + static_cast<unsigned>(P));
  }
  // Blocks larger than a half (empty blocks) and a single element.
  const auto plan = plan_twotree_hier(*f, Grouping::spine_set, 32);
  const DataRun run{f.get(), "twotree-hier", {{"processes", "32"}, {"blocks", "6"}},
                [pl = plan.placement](int r) { return pl.endpoint(r); }, 32};
  for (std::uint32_t L : {1u, 3u, 11u}) expect_exact_integer_results(run, ReceiveOp::sum, "allreduce", L, L);
}

TEST(TwoTreeData, BaselinesAndOtherFabricsAreExact) {
  const auto f = mesh(6);
  for (const char* alg : {"twotree-flat", "tree-single"}) {
    const DataRun run{f.get(), alg, {{"processes", "29"}, {"blocks", "2"}}, [](int r) { return EndpointId(r); }, 29};
    for (ReceiveOp op : {ReceiveOp::sum, ReceiveOp::min, ReceiveOp::max, ReceiveOp::product})
      for (const char* coll : {"reduce", "broadcast", "allreduce"}) expect_exact_integer_results(run, op, coll, 9, 5);
  }
  // The first embodiment, and a torus for the flat baselines.
  const auto w = LeafSpine::from_wiring(
      "server 11 leaf 21\nserver 12 leaf 21\nserver 13 leaf 22\nserver 14 leaf 22\n"
      "server 15 leaf 23\nserver 16 leaf 23\nserver 17 leaf 24\nserver 18 leaf 24\n"
      "uplink 21 25\nuplink 21 26\nuplink 22 25\nuplink 22 26\n"
      "uplink 23 26\nuplink 23 27\nuplink 24 26\nuplink 24 27\n",
      "first", "leafspine-wiring:first");
  const DataRun first{w.get(), "twotree-hier", {}, [](int r) { return EndpointId(r); }, 8};
  expect_exact_integer_results(first, ReceiveOp::sum, "allreduce", 5, 3);
  EXPECT_EQ(static_check(*w, build(*w, "twotree-hier", {})).max_link_load, 1);
  const auto torus = topology::make_topology("torus:4x4");
  const DataRun flat{torus.get(), "twotree-flat", {}, [](int r) { return EndpointId(r); }, 16};
  expect_exact_integer_results(flat, ReceiveOp::max, "allreduce", 13, 9);
}

// spec: float allreduce results are bit-identical on all ranks, and do not
// depend on the order messages arrive in (fixed-order combining).
TEST(TwoTreeData, FloatAllreduceIsBitIdentical) {
  const auto f = mesh(6);
  const std::uint32_t L = 15;
  std::mt19937_64 rng(2002);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> scale(-20, 20);
  std::vector<std::vector<double>> data(36);
  for (auto& d : data)
    for (std::uint32_t i = 0; i < L; ++i) d.push_back(std::ldexp(unit(rng), scale(rng)));
  for (const char* alg : {"twotree-hier", "twotree-flat", "tree-single"}) {
    Schedule s = build(*f, alg, {{"dtype", "float64"}, {"elements", std::to_string(L)}});
    s.initial = [&](EndpointId e, std::uint32_t a) -> Word {
      return a < L ? std::bit_cast<Word>(data[static_cast<std::size_t>(e)][a]) : 0;  // all 36 servers hold ranks
    };
    std::vector<Word> first;
    for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random, DeliveryOrder::random})
      for (std::uint64_t seed : {1u, 2u}) {
        const ExecResult x = execute(s, {order, seed});
        const std::vector<Word> rank0(x.memory[0].begin(), x.memory[0].begin() + L);
        if (first.empty()) first = rank0;
        EXPECT_EQ(rank0, first) << alg << " order " << static_cast<int>(order);
        for (std::size_t e = 1; e < 36; ++e)
          EXPECT_TRUE(std::equal(rank0.begin(), rank0.end(), x.memory[e].begin())) << alg << " endpoint " << e;
      }
    for (std::uint32_t i = 0; i < L; ++i) {
      long double exact = 0;
      for (const auto& d : data) exact += d[i];
      EXPECT_NEAR(std::bit_cast<double>(first[i]), static_cast<double>(exact), 1e-6) << alg << " " << i;
    }
  }
  // The schedule's own float data (exact sums) passes check_data for every operator.
  for (const char* op : {"sum", "min", "max", "product"}) {
    const Schedule s = build(*f, "twotree-hier", {{"dtype", "float64"}, {"op", op}, {"processes", "30"}});
    EXPECT_TRUE(check_data(s, execute(s, {DeliveryOrder::random, 4}).memory).pass) << op;
  }
}

// A property over random sizes: exact data under random delivery, one send
// and one receive per node per phase, and no shared directed link.
RC_GTEST_PROP(TwoTreeData, RandomHierarchicalSchedulesAreCorrectAndContentionFree, ()) {
  static const auto f = mesh(6);
  const int P = *rc::gen::inRange(1, 37);
  const int B = *rc::gen::inRange(1, 6);
  const int L = *rc::gen::inRange(1, 20);
  const auto coll = *rc::gen::element<std::string>("reduce", "broadcast", "allreduce");
  const auto grouping = *rc::gen::element<std::string>("spine_set", "leaf");
  const Schedule s = build(*f, "twotree-hier",
                           {{"processes", std::to_string(P)}, {"blocks", std::to_string(B)},
                            {"elements", std::to_string(L)}, {"collective", coll}, {"grouping", grouping}});
  const StaticReport r = static_check(*f, s);
  RC_ASSERT(r.max_link_load <= 1);
  for (const auto& p : r.phases) {
    RC_ASSERT(p.max_sends_per_node <= 1);
    RC_ASSERT(p.max_receives_per_node <= 1);
  }
  RC_ASSERT(check_data(s, execute(s, {DeliveryOrder::random, static_cast<std::uint64_t>(P * 7 + B)}).memory).pass);
  RC_ASSERT(check_data(s, execute(s, {DeliveryOrder::lazy, 1}).memory).pass);
}

// stage_pipelining, a property over random sizes: exact
// data under every delivery order, bit-identical float results whatever the
// order, never more phases than the sequential stages, and never more static
// time: a pipelined phase's link loads are the sums of the stage phases
// overlapping in it, and the largest sum is at most the sum of the largest.
RC_GTEST_PROP(TwoTreeData, RandomPipelinedSchedulesAreCorrectAndNoLonger, ()) {
  static const auto f = mesh(6);
  const auto alg = *rc::gen::element<std::string>("twotree-hier", "twotree-flat", "tree-single");
  const int P = *rc::gen::inRange(1, 37);
  const int B = *rc::gen::inRange(1, 6);
  const int L = *rc::gen::inRange(1, 20);
  const auto coll = *rc::gen::element<std::string>("reduce", "broadcast", "allreduce");
  const auto dtype = *rc::gen::element<std::string>("int64", "float64");
  Params keys{{"processes", std::to_string(P)}, {"blocks", std::to_string(B)}, {"elements", std::to_string(L)},
              {"collective", coll},              {"dtype", dtype},               {"stage_pipelining", "true"}};
  const Schedule s = build(*f, alg, keys);
  keys.set("stage_pipelining", "false");
  const Schedule sequential = build(*f, alg, keys);
  const StaticReport r = static_check(*f, s), q = static_check(*f, sequential);
  RC_ASSERT(r.phases.size() <= q.phases.size());
  // Not asserted: static_time <= the sequential one. Overlapping stages put
  // up to 3 messages on a link in a phase, and that is not always paid back
  // by the phases saved: twotree-hier broadcast on mesh:6x6, P=20, B=5,
  // L=16 takes 45 flit times pipelined against 44 sequential (RapidCheck
  // found it). The fabrics of the README tables all gain (static time 15104
  // against 17920 at p=6, ...); TwotreeCycleModel.StagePipeliningShortensTheHierarchicalAllreduce checks one.
  RC_ASSERT(r.transfers == q.transfers);
  std::vector<std::vector<Word>> first;
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random})
    for (std::uint64_t seed : {std::uint64_t{1}, static_cast<std::uint64_t>(P * 7 + B)}) {
      const ExecResult x = execute(s, {order, seed});
      RC_ASSERT(check_data(s, x.memory).pass);
      if (first.empty()) first = x.memory;
      RC_ASSERT(x.memory == first);
    }
}

// ---------------------------------------------------------------- bad input

TEST(TwoTreeErrors, BadInputNamesTheKey) {
  auto message = [](const std::function<void()>& fn) -> std::string {
    try {
      fn();
    } catch (const ConfigError& e) {
      return e.what();
    } catch (const topology::TopologyError& e) {
      return e.what();
    }
    return "(no error)";
  };
  for (const char* spec : {"leafspine:p=7", "leafspine:p=4"}) {
    const std::string m = message([&] { (void)topology::make_topology(spec); });
    EXPECT_NE(m.find("'p'"), std::string::npos) << m;
    EXPECT_NE(m.find("6, 8, 10"), std::string::npos) << m;
  }
  const auto f = mesh(6);
  for (const char* alg : {"twotree-hier", "twotree-flat", "tree-single"}) {
    const std::string many = message([&] { (void)build(*f, alg, {{"processes", "37"}}); });
    EXPECT_NE(many.find("'processes'"), std::string::npos) << many;
    EXPECT_NE(many.find("36"), std::string::npos) << many;
    const std::string spine = message([&] { (void)build(*f, alg, {{"spine_choice", "random"}}); });
    EXPECT_NE(spine.find("'spine_choice'"), std::string::npos) << spine;
    EXPECT_NE(spine.find("coloring, sender_port, receiver_port"), std::string::npos) << spine;
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"collective", "scan"}}); }).find("'collective'"), std::string::npos);
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"op", "average"}}); }).find("'op'"), std::string::npos);
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"dtype", "int32"}}); }).find("'dtype'"), std::string::npos);
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"elements", "0"}}); }).find("'elements'"), std::string::npos);
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"blocks", "0"}}); }).find("'blocks'"), std::string::npos);
    EXPECT_NE(message([&] { (void)build(*f, alg, {{"processes", "0"}}); }).find("'processes'"), std::string::npos);
  }
  EXPECT_NE(message([&] { (void)build(*f, "twotree-hier", {{"grouping", "column"}}); }).find("'grouping'"),
            std::string::npos);
  const auto torus = topology::make_topology("torus:4x4");
  const std::string hier_on_torus = message([&] { (void)build(*torus, "twotree-hier", {}); });
  EXPECT_NE(hier_on_torus.find("'topology'"), std::string::npos) << hier_on_torus;
  EXPECT_NE(hier_on_torus.find("leafspine:p=P"), std::string::npos) << hier_on_torus;
  EXPECT_NE(message([&] { (void)build(*torus, "twotree-flat", {{"placement", "grouped"}}); }).find("'placement'"),
            std::string::npos);
}

TEST(TwoTreeErrors, KeysAreDocumented) {
  for (const char* alg : {"twotree-hier", "twotree-flat", "tree-single"}) {
    const Algorithm& a = find_algorithm(alg);
    EXPECT_EQ(a.document, "002");
    std::set<std::string> keys;
    for (const auto& k : a.keys) keys.insert(k.name);
    for (const char* k : {"processes", "blocks", "op", "spine_choice", "collective", "elements", "dtype"})
      EXPECT_TRUE(keys.count(k)) << alg << " " << k;
  }
}

// Koenig: inside one column every phase in which each server sends at most
// once and receives at most once has a contention-free spine choice. Random
// permutations of the 9 servers of column a (p = 6) and of the 16 of a
// column of p = 8 (cross-leaf only), colored one phase at a time.
TEST(TwoTreeContention, EdgeColoringFreesAnyPermutationInAColumn) {
  for (int p : {6, 8}) {
    const auto f = mesh(p);
    const int n = (p / 2) * (p / 2);
    const Placement pl = place_consecutive(f->endpoint_count(), f->endpoint_count());
    std::mt19937 rng(static_cast<unsigned>(p));
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<int> perm(static_cast<std::size_t>(n));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      std::vector<Transfer> xs;
      for (int i = 0; i < n; ++i) {
        const int j = perm[static_cast<std::size_t>(i)];
        if (f->leaf_of(i) == f->leaf_of(j)) continue;
        Transfer x;
        x.sender = i;
        x.receiver = j;
        x.phase = 0;
        x.length = 1;
        xs.push_back(x);
      }
      choose_spines(*f, pl, xs, SpineChoice::coloring);
      std::map<topology::LinkId, int> load;
      for (const Transfer& x : xs)
        for (const auto& hop : f->route(x.sender, x.receiver, x.route_hint)) ++load[hop.link];
      for (const auto& [link, count] : load) EXPECT_EQ(count, 1) << "p=" << p << " trial " << trial << " " << f->graph().link_name(link);
    }
  }
}
