// Document 004 in the cycle model, bandwidth-bound: the
// hierarchical halving/doubling allreduce against the conventional baseline,
// dimension orders and aggregation units, with the flits on inter-board links
// counted per step (tag = global step number, collectives/hd_allreduce.hpp).
// Inter-board links are those whose two endpoints lie on different boards
// (Boards::board_of on the graph link's ends), not told apart by name.
//
// Closed forms the tests use (spec hd-allreduce, facts 4 and 5; B = L/A words
// per plane, one aggregation unit per plane and board): a halving step of bit
// s in a dimension of size n sends half the held block to a partner
// min(2^s, n - 2^s) boards away, a doubling step the whole held block;
// conventional: halving then doubling in each dimension in turn.
//
// scripts/hd_allreduce_study.py measures every step's first and last flit
// from the message trace (docs/studies/hd-allreduce.md).
//
// The document's aggregation unit (kDocumentUnit): plane_order rotated,
// link_controllers per-link, reduce_words_per_cycle 8. With it the in-board
// part is about 2.9 B and the inter-board steps are bound by the links, so
// the cycles follow the flits; with today's NIC they do not (the study page).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "systemc/run/collective_run.hpp"
#include "topology/boards.hpp"

using namespace collnet;
using namespace collnet::systemc;
using topology::Boards;

namespace {

struct StepTimes {
  Cycle first = 0;
  Cycle last = 0;
  std::uint64_t flits = 0;        // on every network link
  std::uint64_t inter_flits = 0;  // on links between boards
};

struct HdRun {
  CollectiveResult result;
  std::map<int, StepTimes> steps;  // by tag (global step number)
  // By (tag, endpoint): flits the endpoint sent, flits sent to it.
  std::map<std::pair<int, int>, StepTimes> sent, received;
  std::uint64_t inter_flits = 0;
};

void note(std::map<std::pair<int, int>, StepTimes>& m, int tag, int e, Cycle depart) {
  auto [it, fresh] = m.try_emplace({tag, e}, StepTimes{depart, depart, 0, 0});
  it->second.first = std::min(it->second.first, depart);
  it->second.last = std::max(it->second.last, depart);
  ++it->second.flits;
}

// The document's aggregation unit: the in-board SENDs rotated, one
// controller per link, reduction at the rate of the 8 in-board links.
const std::vector<std::pair<std::string, std::string>> kDocumentUnit{
    {"plane_order", "rotated"}, {"link_controllers", "per-link"}, {"reduce_words_per_cycle", "8"}};

HdRun run_hd(const std::string& topology, const std::string& algorithm, int elements, int units,
             const std::string& order = "wxyz", const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  Params p{{"topology", topology},
           {"algorithm", algorithm},
           {"elements", std::to_string(elements)},
           {"aggregation_units", std::to_string(units)},
           {"dim_order", order}};
  for (const auto& [k, v] : extra) p.set(k, v);
  CollectiveScenario s = collective_from(p);
  const auto topo = topology::make_topology(topology);
  std::vector<bool> inter(topo->graph().links().size());
  for (std::size_t l = 0; l < inter.size(); ++l) {
    const auto& link = topo->graph().links()[l];
    inter[l] = Boards::board_of(link.src) != Boards::board_of(link.dst);
  }
  HdRun r;
  s.flit_probe = [&](const Link& link, const PacketHeader& h, const Flit&, Cycle depart) {
    auto [it, fresh] = r.steps.try_emplace(h.tag, StepTimes{depart, depart, 0, 0});
    StepTimes& t = it->second;
    t.first = std::min(t.first, depart);
    t.last = std::max(t.last, depart);
    ++t.flits;
    note(r.sent, h.tag, static_cast<int>(h.source), depart);
    note(r.received, h.tag, static_cast<int>(h.destination), depart);
    if (inter[static_cast<std::size_t>(link.graph_link())]) {
      ++t.inter_flits;
      ++r.inter_flits;
    }
  };
  r.result = run_collective(s);
  return r;
}

// Closed form of the flits on inter-board links: every aggregation unit of
// every board, per step the words sent times the ring distance to the partner.
std::uint64_t inter_flits_closed_form(const std::array<int, 4>& sizes, bool conventional, int elements, int units,
                                      const std::vector<int>& order) {
  int boards = 1;
  for (int n : sizes) boards *= n;
  const double B = static_cast<double>(elements) / units;
  auto bits = [&](int d) {
    int k = 0;
    while ((1 << k) < sizes[static_cast<std::size_t>(d)]) ++k;
    return k;
  };
  auto distance = [&](int d, int s) { return std::min(1 << s, sizes[static_cast<std::size_t>(d)] - (1 << s)); };
  double per_unit = 0;
  double held = B;
  if (conventional) {
    for (int d : order) {
      for (int s = 0; s < bits(d); ++s) per_unit += (held /= 2) * distance(d, s);
      for (int s = bits(d) - 1; s >= 0; --s) per_unit += held * distance(d, s), held *= 2;
    }
  } else {
    for (int d : order)
      for (int s = 0; s < bits(d); ++s) per_unit += (held /= 2) * distance(d, s);
    for (auto it = order.rbegin(); it != order.rend(); ++it)
      for (int s = bits(*it) - 1; s >= 0; --s) per_unit += held * distance(*it, s), held *= 2;
  }
  return static_cast<std::uint64_t>(per_unit * boards * units + 0.5);
}

// Steps 1..2H are the inter-board steps; step 0 the in-board scatter, the
// last one the in-board broadcast. The units do not run in lock step (plane
// 0 gets its pieces first), so times are taken per aggregation unit and
// averaged: inter-board time of a unit = from its first flit of step 1 to
// the last flit sent to it in step 2H; scatter time = from the first flit
// sent to it in step 0 to the last; broadcast time = from its first flit of
// the last step to its last.
struct UnitTimes {
  double scatter = 0, inter = 0, broadcast = 0;
};
UnitTimes unit_times(const HdRun& r) {
  const int last = r.steps.rbegin()->first;
  UnitTimes u;
  int n = 0;
  for (const auto& [key, t] : r.sent) {
    if (key.first != 1) continue;
    const int e = key.second;
    u.inter += static_cast<double>(r.received.at({last - 1, e}).last - t.first);
    u.scatter += static_cast<double>(r.received.at({0, e}).last - r.received.at({0, e}).first);
    u.broadcast += static_cast<double>(r.sent.at({last, e}).last - r.sent.at({last, e}).first);
    ++n;
  }
  u.inter /= n;
  u.scatter /= n;
  u.broadcast /= n;
  return u;
}
double inter_board_time(const HdRun& r) { return unit_times(r).inter; }

const std::vector<int> kWxyz{Boards::W, Boards::X, Boards::Y, Boards::Z};

}  // namespace

// Fact 4 on the links: the hierarchical scheme puts 30 L flits on the
// inter-board links of boards:2x2x2x2 (every step one hop, halvings and
// doublings 15/16 B each per unit), the conventional one 64 L (B per
// dimension and unit): 2.13x; and it takes fewer cycles.
TEST(HdAllreduceCycles, FewerInterBoardFlitsAndCyclesThanConventional) {
  const int L = 4096;
  const HdRun hd = run_hd("boards:2x2x2x2", "hd-allreduce", L, 4);
  const HdRun conv = run_hd("boards:2x2x2x2", "hd-allreduce-conventional", L, 4);
  ASSERT_TRUE(hd.result.data_check);
  ASSERT_TRUE(conv.result.data_check);
  EXPECT_EQ(hd.inter_flits, inter_flits_closed_form({2, 2, 2, 2}, false, L, 4, kWxyz));
  EXPECT_EQ(conv.inter_flits, inter_flits_closed_form({2, 2, 2, 2}, true, L, 4, kWxyz));
  EXPECT_EQ(hd.inter_flits, 30u * L);
  EXPECT_EQ(conv.inter_flits, 64u * L);
  EXPECT_LT(hd.result.cycles, conv.result.cycles);
  // The inter-board steps alone are shorter by at least half the flit ratio
  // (the NIC injects one flit per cycle: 1.875 B against 4 B per unit).
  EXPECT_GT(inter_board_time(conv) / inter_board_time(hd), 1.5);
}

// Uneven shape: size-4 W ring (partner 2 boards away at bit 1) and size-2 X,
// Y; the closed form counts the ring distance. Embodiment 2 (bandwidth order:
// X, Y, then W) halves on the size-2 dimensions first, so the 2-hop W step
// carries a quarter of what it carries in W, X, Y, Z order: 1.0 B against
// 1.1875 B of halving flits per unit.
TEST(HdAllreduceCycles, BandwidthOrderPutsFewerFlitsOnBoardLinks) {
  const int L = 2048;
  const HdRun wxyz = run_hd("boards:4x2x2x1", "hd-allreduce", L, 4, "wxyz");
  const HdRun bw = run_hd("boards:4x2x2x1", "hd-allreduce", L, 4, "bandwidth");
  ASSERT_TRUE(wxyz.result.data_check);
  ASSERT_TRUE(bw.result.data_check);
  EXPECT_EQ(wxyz.inter_flits, inter_flits_closed_form({4, 2, 2, 1}, false, L, 4, kWxyz));
  EXPECT_EQ(bw.inter_flits,
            inter_flits_closed_form({4, 2, 2, 1}, false, L, 4, {Boards::X, Boards::Y, Boards::W}));
  EXPECT_LT(bw.inter_flits, wxyz.inter_flits);
  // The NIC injects the same 15/16 B per unit in either order, one flit per
  // cycle: the order changes the link flits, not the cycles, by more than 2 %.
  const double ratio = static_cast<double>(wxyz.result.cycles) / static_cast<double>(bw.result.cycles);
  EXPECT_NEAR(ratio, 1.0, 0.02);
}

// Fact 5: doubling the aggregation units halves the inter-board time (B =
// L/A halves, every inter-board step carries half the words), within 10 %.
TEST(HdAllreduceCycles, DoublingAggregationUnitsHalvesInterBoardTime) {
  const int L = 4096;
  std::map<int, double> t;
  for (int a : {1, 2, 4}) {
    const HdRun r = run_hd("boards:2x2x2x2", "hd-allreduce", L, a);
    ASSERT_TRUE(r.result.data_check) << a;
    // The inter-board flits do not depend on A (A planes of B = L/A each).
    EXPECT_EQ(r.inter_flits, 30u * L) << a;
    t[a] = inter_board_time(r);
  }
  EXPECT_NEAR(t[2] / t[1], 0.5, 0.05);
  EXPECT_NEAR(t[4] / t[2], 0.5, 0.05);
}

namespace {

// Per aggregation unit, mean cycles from the last scatter flit it received to
// its first flit of step 1: the seven local reduces of S2 (B words each).
double s2_reduce_time(const HdRun& r) {
  double sum = 0;
  int n = 0;
  for (const auto& [key, t] : r.sent) {
    if (key.first != 1) continue;
    sum += static_cast<double>(t.first - r.received.at({0, key.second}).last);
    ++n;
  }
  return sum / n;
}

// The last flit of the in-board scatter received by an aggregation unit of
// plane `plane` (any plane: -1).
double scatter_end(const HdRun& r, int plane = -1) {
  Cycle end = 0;
  for (const auto& [key, t] : r.received)
    if (key.first == 0 && !Boards::is_main_unit(key.second) && (plane < 0 || Boards::unit_index(key.second) == plane))
      end = std::max(end, t.last);
  return static_cast<double>(end);
}

}  // namespace

// plane_order: rotated with today's NIC: main unit m sends plane (m + i) mod A
// first, so the A aggregation units take their pieces side by side: the
// scatter ends after 8 B flits through each unit's ejection port instead of
// about 8 L (8 B per plane, one plane after the other).
TEST(HdAllreduceCycles, RotatedPlaneOrderRunsTheScattersSideBySide) {
  const int L = 1024;
  const int B = L / 4;
  const HdRun doc = run_hd("boards:2x2x2x2", "hd-allreduce", L, 4);
  const HdRun rot = run_hd("boards:2x2x2x2", "hd-allreduce", L, 4, "wxyz", {{"plane_order", "rotated"}});
  ASSERT_TRUE(doc.result.data_check);
  ASSERT_TRUE(rot.result.data_check);
  EXPECT_EQ(rot.inter_flits, doc.inter_flits);  // the same words on the same links
  // Document order: the planes take their pieces one after another, 8 B
  // each, so the last ends near 8 L = 32 B; the network's buffers let the
  // main units move on to the next plane a little early (within 15 % below).
  EXPECT_LE(scatter_end(doc), 1.02 * 8 * L);
  EXPECT_GE(scatter_end(doc), 0.85 * 8 * L);
  // Rotated: all four end together, 8 B in (within 5 %).
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(scatter_end(rot, a), 8.0 * B, 0.05 * 8 * B) << a;
  EXPECT_LT(rot.result.cycles, doc.result.cycles);
}

// reduce_words_per_cycle: the seven S2 reduces of B words take 7 ceil(B / r)
// cycles (plus a few cycles of dispatch per reduce).
TEST(HdAllreduceCycles, ReductionUnitCombinesAtTheConfiguredRate) {
  const int L = 2048;
  const int B = L / 4;
  for (int r : {1, 8}) {
    const HdRun run = run_hd("boards:2x2x1x1", "hd-allreduce", L, 4, "wxyz",
                             {{"plane_order", "rotated"}, {"reduce_words_per_cycle", std::to_string(r)}});
    ASSERT_TRUE(run.result.data_check) << r;
    const double expected = 7.0 * ((B + r - 1) / r);
    EXPECT_GE(s2_reduce_time(run), expected) << r;
    EXPECT_LE(s2_reduce_time(run), expected + 7 * 4 + 8) << r;
  }
}

// The document's aggregation unit (kDocumentUnit): the in-board part shrinks
// to about 3 B (scatter B through 8 ejection ports, 7 B / 8 of reduces,
// broadcast B from 8 controllers), so the inter-board steps, which the
// hierarchical scheme shortens by the flit ratio, show in the whole run:
// conventional / hd in the inter-board steps at least 0.8 of the flit ratio,
// in the whole run at least 0.6 of it. 4x4x1x1: two size-4 rings, as in the
// document's 4x4x4x4 (flit ratio 1.6 here, 3.0 there).
TEST(HdAllreduceCycles, DocumentUnitSavesTheFlitRatioInCycles) {
  const int L = 1024;
  const HdRun hd = run_hd("boards:4x4x1x1", "hd-allreduce", L, 4, "wxyz", kDocumentUnit);
  const HdRun conv = run_hd("boards:4x4x1x1", "hd-allreduce-conventional", L, 4, "wxyz", kDocumentUnit);
  ASSERT_TRUE(hd.result.data_check);
  ASSERT_TRUE(conv.result.data_check);
  EXPECT_EQ(hd.inter_flits, inter_flits_closed_form({4, 4, 1, 1}, false, L, 4, kWxyz));
  EXPECT_EQ(conv.inter_flits, inter_flits_closed_form({4, 4, 1, 1}, true, L, 4, kWxyz));
  EXPECT_EQ(hd.result.inter_board_flits, static_cast<std::int64_t>(hd.inter_flits));  // the run's own count
  const double flit_ratio = static_cast<double>(conv.inter_flits) / static_cast<double>(hd.inter_flits);
  EXPECT_NEAR(flit_ratio, 1.6, 1e-9);
  EXPECT_GE(inter_board_time(conv) / inter_board_time(hd), 0.8 * flit_ratio);
  EXPECT_GE(static_cast<double>(conv.result.cycles) / static_cast<double>(hd.result.cycles), 0.6 * flit_ratio);
}

// With one controller per link a size-2 ring's two halves go at once, so a
// step of n words takes n/2 cycles on a size-2 dimension and n on a size-4
// one: the bandwidth order, which halves on the size-2 dimensions while the
// block is large, saves the difference of the closed form below in cycles
// (today's NIC sends n words in n cycles either way and saves none).
TEST(HdAllreduceCycles, DocumentUnitBandwidthOrderSavesCycles) {
  const int L = 2048;
  const std::array<int, 4> sizes{4, 2, 2, 1};
  const HdRun wxyz = run_hd("boards:4x2x2x1", "hd-allreduce", L, 4, "wxyz", kDocumentUnit);
  const HdRun bw = run_hd("boards:4x2x2x1", "hd-allreduce", L, 4, "bandwidth", kDocumentUnit);
  ASSERT_TRUE(wxyz.result.data_check);
  ASSERT_TRUE(bw.result.data_check);
  // Injection cycles per unit over the halvings and doublings.
  auto send_time = [&](const std::vector<int>& order) {
    double held = L / 4.0, t = 0;
    for (int d : order)
      for (int s = 1; s < sizes[static_cast<std::size_t>(d)]; s *= 2)
        t += (held /= 2) / (sizes[static_cast<std::size_t>(d)] == 2 ? 2 : 1);
    return 2 * t;  // the doublings send what the halvings sent
  };
  const double saved = send_time({Boards::W, Boards::X, Boards::Y}) - send_time({Boards::X, Boards::Y, Boards::W});
  EXPECT_GT(saved, 0);
  EXPECT_NEAR(static_cast<double>(wxyz.result.cycles - bw.result.cycles), saved, 0.05 * saved);
}

// Fact 5 with the document's aggregation unit: every phase carries B = L/A
// words per unit, so doubling A halves the inter-board time and the whole run
// (within 6 %: the per-hop latencies do not shrink).
TEST(HdAllreduceCycles, DocumentUnitDoublingAggregationUnitsHalvesTheRun) {
  const int L = 4096;
  std::map<int, double> t, cycles;
  for (int a : {1, 2, 4}) {
    const HdRun r = run_hd("boards:2x2x1x1", "hd-allreduce", L, a, "wxyz", kDocumentUnit);
    ASSERT_TRUE(r.result.data_check) << a;
    t[a] = inter_board_time(r);
    cycles[a] = static_cast<double>(r.result.cycles);
  }
  EXPECT_NEAR(t[2] / t[1], 0.5, 0.05);
  EXPECT_NEAR(t[4] / t[2], 0.5, 0.05);
  EXPECT_NEAR(cycles[2] / cycles[1], 0.5, 0.03);
  EXPECT_NEAR(cycles[4] / cycles[2], 0.5, 0.03);
}
