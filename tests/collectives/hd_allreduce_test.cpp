// hd-allreduce and its conventional baseline (spec hd-allreduce, document
// 004): the 16-board worked example step by step, exact results for every
// operator and dimension order, bit-identical floats, plane and link
// separation, held sizes and byte counts for 4^4, the 1.5 L baseline, and
// the effect of doubling the number of aggregation units.
#include "collectives/algorithms/hd_allreduce.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"

using namespace collnet;
using namespace collnet::collectives;
using topology::Boards;

namespace {

using Kind = HdStep::Kind;

std::uint64_t test_mix(std::uint64_t z) {
  z = (z ^ (z >> 31)) * 0x7fb5d329728ea185ULL;
  z = (z ^ (z >> 27)) * 0x81dadef4bc2dd44dULL;
  return z ^ (z >> 33);
}

// Network words each endpoint sends, per tag (local copies excluded).
std::map<std::uint32_t, std::int64_t> words_sent_by(const Schedule& s, EndpointId e) {
  std::map<std::uint32_t, std::int64_t> m;
  for (const Descriptor& d : s.programs[static_cast<std::size_t>(e)])
    if (d.opcode == Opcode::send && d.dest != static_cast<std::uint32_t>(e)) m[d.tag] += d.length;
  return m;
}

// The reduction computed here, directly from the definition (independent of
// the library's expected-result code).
Word direct_reduce(HdOp op, const std::vector<std::int64_t>& values) {
  std::int64_t acc = values[0];
  std::uint64_t wrap = static_cast<std::uint64_t>(values[0]);
  for (std::size_t i = 1; i < values.size(); ++i) {
    const std::int64_t v = values[i];
    switch (op) {
      case HdOp::sum:
      case HdOp::average: wrap += static_cast<std::uint64_t>(v); break;
      case HdOp::product: wrap *= static_cast<std::uint64_t>(v); break;
      case HdOp::max: acc = v > acc ? v : acc; break;
      case HdOp::min: acc = v < acc ? v : acc; break;
    }
  }
  if (op == HdOp::max || op == HdOp::min) return static_cast<Word>(acc);
  if (op == HdOp::average)
    return static_cast<Word>(static_cast<std::int64_t>(wrap) / static_cast<std::int64_t>(values.size()));
  return wrap;
}

bool is_w_link(const topology::Graph& g, const topology::Link& l) {
  return !Boards::is_main_unit(g.node(l.src).endpoint) && !Boards::is_main_unit(g.node(l.dst).endpoint);
}
bool touches_main_unit(const topology::Graph& g, const topology::Link& l) {
  return Boards::is_main_unit(g.node(l.src).endpoint) || Boards::is_main_unit(g.node(l.dst).endpoint);
}

}  // namespace

// ---------------------------------------------------------------------------
// Fact 1: the worked example. 16 boards (2 per dimension), one aggregation
// unit each; unit j = w + 2x + 4y + 8z starts with 16 elements equal to j+1
// (main unit 0 of board j holds j+1, the others 0, so S2 sums to j+1).
TEST(HdAllreduce, WorkedExampleStepByStep) {
  Boards boards({2, 2, 2, 2});
  HdOptions o;
  o.aggregation_units = 1;
  o.elements = 16;
  o.data = [](int main_index, std::uint32_t) -> Word {
    return main_index % 8 == 0 ? static_cast<Word>(main_index / 8 + 1) : 0;
  };
  const auto plan = hd_plan(boards, HdVariant::hierarchical, hd_dimension_order(boards, "wxyz"));
  ASSERT_EQ(plan.size(), 10u);  // S2, 4 halvings, 4 doublings, S10
  // The spec's values (its document prints 31 for 27; the spec corrects it),
  // indexed by the W pair j/2.
  const std::vector<std::vector<Word>> after_halving = {
      {3, 7, 11, 15, 19, 23, 27, 31},       // W
      {10, 10, 26, 26, 42, 42, 58, 58},     // X
      {36, 36, 36, 36, 100, 100, 100, 100}, // Y
      {136, 136, 136, 136, 136, 136, 136, 136}};  // Z
  for (int step = 0; step <= 9; ++step) {
    o.stop_after_step = step;
    const Schedule s = build_hd_allreduce(boards, o);
    const ExecResult r = execute(s, {DeliveryOrder::random, 5});
    for (int j = 0; j < 16; ++j) {
      const auto& mem = r.memory[static_cast<std::size_t>(Boards::aggregation_unit(j, 0))];
      const HdBlock held = hd_held_block(boards, plan, j, step, 16);
      // Held size: 16, halved by each halving, doubled back by each doubling.
      const std::uint32_t want_len = step == 0 ? 16 : step <= 4 ? 16u >> step : step <= 8 ? 1u << (step - 4) : 16;
      EXPECT_EQ(held.len, want_len) << "step " << step;
      Word want = static_cast<Word>(j + 1);
      if (step >= 1 && step <= 4) want = after_halving[static_cast<std::size_t>(step - 1)][static_cast<std::size_t>(j / 2)];
      if (step > 4) want = 136;
      for (std::uint32_t i = held.lo; i < held.lo + held.len; ++i)
        EXPECT_EQ(mem[i], want) << "step " << step << " unit " << j << " element " << i;
    }
  }
  // After all halvings unit j owns the block whose index is its coordinate
  // bits in processing order (W, X, Y, Z) read as a bit-reversed number.
  for (int j = 0; j < 16; ++j) {
    const auto c = boards.board_coord(j);
    const std::uint32_t index = static_cast<std::uint32_t>(c[0] * 8 + c[1] * 4 + c[2] * 2 + c[3]);
    EXPECT_EQ(hd_held_block(boards, plan, j, 4, 16), (HdBlock{index, 1}));
  }
  // The whole collective: every main unit holds 16 elements equal to 136.
  o.stop_after_step = -1;
  const Schedule s = build_hd_allreduce(boards, o);
  for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
    const ExecResult r = execute(s, {order, 3});
    EXPECT_TRUE(check_data(s, r.memory).pass);
    for (int b = 0; b < 16; ++b)
      for (int m = 0; m < 8; ++m)
        for (std::uint32_t i = 0; i < 16; ++i)
          EXPECT_EQ(r.memory[static_cast<std::size_t>(Boards::main_unit(b, m))][i], 136u);
  }
}

// ---------------------------------------------------------------------------
// Fact 2: every main unit's final array is the elementwise reduction over all
// main units, for every operator, random integer data, either dimension order,
// both variants, odd piece lengths, under every delivery order.
RC_GTEST_PROP(HdAllreduce, ExactIntegerResultForEveryOperatorAndOrder, ()) {
  const std::array<int, 4> sizes{*rc::gen::element(1, 2, 4), *rc::gen::element(1, 2), *rc::gen::element(1, 2, 4),
                                 *rc::gen::element(1, 2)};
  Boards boards(sizes);
  HdOptions o;
  o.variant = *rc::gen::element(HdVariant::hierarchical, HdVariant::conventional);
  o.op = *rc::gen::element(HdOp::sum, HdOp::product, HdOp::max, HdOp::min, HdOp::average);
  o.dim_order = *rc::gen::element<std::string>("wxyz", "bandwidth");
  o.aggregation_units = *rc::gen::element(1, 2, 4);
  const auto multiplier = static_cast<std::uint32_t>(*rc::gen::element(1, 2, 3, 5));  // 3, 5: odd pieces
  o.elements = static_cast<std::uint32_t>(o.aggregation_units * boards.boards()) * multiplier;
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  const HdOp op = o.op;
  // Product: small odd factors so that the product stays informative.
  o.data = [seed, op](int g, std::uint32_t i) -> Word {
    const std::uint64_t h = test_mix(seed ^ test_mix(static_cast<std::uint64_t>(g) * 1000003u + i));
    if (op == HdOp::product) return static_cast<Word>(static_cast<std::int64_t>(h % 7) * 2 - 5);
    return h;
  };
  const Schedule s = build_hd_allreduce(boards, o);
  const auto order = *rc::gen::element(DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random);
  const ExecResult r = execute(s, {order, seed});
  RC_ASSERT(check_data(s, r.memory).pass);
  const int main_units = 8 * boards.boards();
  for (std::uint32_t i = 0; i < o.elements; ++i) {
    std::vector<std::int64_t> values;
    for (int g = 0; g < main_units; ++g) values.push_back(static_cast<std::int64_t>(o.data(g, i)));
    const Word want = direct_reduce(o.op, values);
    for (int b = 0; b < boards.boards(); ++b)
      for (int m = 0; m < 8; ++m) RC_ASSERT(r.memory[static_cast<std::size_t>(Boards::main_unit(b, m))][i] == want);
  }
}

// Default data of every operator, both element types: check_data under all
// three delivery orders (float data are chosen exact in any order).
TEST(HdAllreduce, EveryOperatorAndTypePassesTheDataCheckUnderEveryOrder) {
  Boards boards({4, 2, 1, 2});
  for (auto variant : {HdVariant::hierarchical, HdVariant::conventional})
    for (auto dtype : {DataType::int64, DataType::float64})
      for (auto op : {HdOp::sum, HdOp::product, HdOp::max, HdOp::min, HdOp::average}) {
        HdOptions o;
        o.variant = variant;
        o.dtype = dtype;
        o.op = op;
        o.elements = 4 * 16 * 2;
        const Schedule s = build_hd_allreduce(boards, o);
        for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
          const DataCheck c = check_data(s, execute(s, {order, 9}).memory);
          EXPECT_TRUE(c.pass) << static_cast<int>(op) << " " << static_cast<int>(dtype) << " "
                              << (c.first_errors.empty() ? "" : c.first_errors.front());
        }
      }
}

// Float results are bit-identical on all units and under every delivery
// order, also for data whose sum depends on the order of the additions.
TEST(HdAllreduce, FloatResultsAreBitIdenticalOnAllUnits) {
  Boards boards({2, 4, 2, 1});
  for (auto variant : {HdVariant::hierarchical, HdVariant::conventional})
    for (auto op : {HdOp::sum, HdOp::product, HdOp::average})
      for (const std::string dim_order : {"wxyz", "bandwidth"}) {
        HdOptions o;
        o.variant = variant;
        o.op = op;
        o.dtype = DataType::float64;
        o.dim_order = dim_order;
        o.elements = 4 * 16 * 3;
        o.data = [](int g, std::uint32_t i) {
          const std::uint64_t h = test_mix(static_cast<std::uint64_t>(g) << 20 | i);
          return std::bit_cast<Word>(1.0 + static_cast<double>(h >> 11) * 0x1p-53 / 3.0);  // in [1, 1.34)
        };
        const Schedule s = build_hd_allreduce(boards, o);
        std::vector<Word> reference;
        bool order_matters = false;
        for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
          const ExecResult r = execute(s, {order, 21});
          for (int b = 0; b < boards.boards(); ++b)
            for (int m = 0; m < 8; ++m) {
              const auto& mem = r.memory[static_cast<std::size_t>(Boards::main_unit(b, m))];
              const std::vector<Word> result(mem.begin(), mem.begin() + o.elements);
              if (reference.empty()) reference = result;
              EXPECT_EQ(result, reference) << "board " << b << " main unit " << m;
            }
        }
        // The data really are order sensitive: a plain left-to-right sum of
        // element 0 differs in its last bits from some other grouping.
        if (op == HdOp::sum) {
          double left = 0, right = 0;
          for (int g = 0; g < 128; ++g) left += std::bit_cast<double>(o.data(g, 0));
          for (int g = 127; g >= 0; --g) right += std::bit_cast<double>(o.data(g, 0));
          order_matters = left != right;
          EXPECT_TRUE(order_matters);
        }
      }
}

// ---------------------------------------------------------------------------
// Fact 3: planes stay separate (no directed link carries two planes' data);
// W steps put nothing on links that touch a main unit, X/Y/Z steps nothing on
// W links; every directed link carries at most one message per step.
TEST(HdAllreduce, PlanesAndLinksStaySeparateWithOneMessagePerLinkPerStep) {
  for (auto sizes : std::vector<std::array<int, 4>>{{4, 4, 4, 4}, {2, 4, 2, 4}, {4, 2, 1, 2}})
    for (auto variant : {HdVariant::hierarchical, HdVariant::conventional})
      for (const std::string dim_order : {"wxyz", "bandwidth"}) {
        Boards boards(sizes);
        HdOptions o;
        o.variant = variant;
        o.dim_order = dim_order;
        o.elements = static_cast<std::uint32_t>(4 * boards.boards() * 2);
        const Schedule s = build_hd_allreduce(boards, o);
        const auto plan = hd_plan(boards, variant, hd_dimension_order(boards, dim_order));
        const StaticReport report = static_check(boards, s);
        EXPECT_LE(report.max_link_load, 1) << boards.name();
        EXPECT_EQ(report.phases.size(), plan.size());
        const auto& g = boards.graph();
        for (const PhaseReport& p : report.phases) {
          const HdStep& st = plan.at(p.tag);
          for (const LinkLoad& l : p.links) {
            const auto& link = g.link(l.link);
            if (st.dim == Boards::W) {
              EXPECT_FALSE(touches_main_unit(g, link)) << g.link_name(l.link);
            }
            if (st.dim > Boards::W) {
              EXPECT_FALSE(is_w_link(g, link)) << g.link_name(l.link);
            }
            if (st.kind == Kind::scatter || st.kind == Kind::broadcast) {
              EXPECT_EQ(link.dim, -1);  // in-board only
            }
          }
        }
        // The plane of a transfer = its aggregation unit; a link serves one plane.
        std::map<topology::LinkId, int> plane_of_link;
        for (std::size_t e = 0; e < s.endpoints(); ++e)
          for (const Descriptor& d : s.programs[e]) {
            if (d.opcode != Opcode::send || d.dest == e) continue;
            const auto src = static_cast<EndpointId>(e), dst = static_cast<EndpointId>(d.dest);
            const int plane = Boards::is_main_unit(src) ? Boards::unit_index(dst) : Boards::unit_index(src);
            for (const auto& hop : boards.route(src, dst, d.route_hint)) {
              const auto [it, fresh] = plane_of_link.emplace(hop.link, plane);
              EXPECT_EQ(it->second, plane) << g.link_name(hop.link);
            }
          }
      }
}

// ---------------------------------------------------------------------------
// Fact 4: held sizes for a 4^4 system (1/4 after the scatter, 1/16, 1/64,
// 1/256, 1/1024 after the W, X, Y, Z halvings, back up to 1/4), bytes sent
// per aggregation unit 255/1024 L in the halvings and the same in the
// doublings; the conventional baseline moves 1.5 L and never holds less than
// 1/16. Sizes are read off the programs: a halving step sends exactly the
// half it gives up (= the half it keeps), a doubling step the block it holds.
TEST(HdAllreduce, HeldSizesAndBytesFor4x4x4x4) {
  Boards boards({4, 4, 4, 4});
  const std::uint32_t L = 1024 * 4;
  HdOptions o;
  o.elements = L;
  const Schedule s = build_hd_allreduce(boards, o);
  const auto plan = hd_plan(boards, HdVariant::hierarchical, hd_dimension_order(boards, "wxyz"));
  ASSERT_EQ(plan.size(), 18u);
  const std::vector<std::uint32_t> denominators = {4,   8,   16,  32,  64,  128, 256, 512, 1024,
                                                   512, 256, 128, 64,  32,  16,  8,   4,   4};
  for (int b : {0, 77, 255}) {
    for (int a = 0; a < 4; ++a) {
      const EndpointId e = Boards::aggregation_unit(b, a);
      const auto sent = words_sent_by(s, e);
      std::int64_t halving = 0, doubling = 0;
      for (std::size_t g = 1; g + 1 < plan.size(); ++g) {
        const std::int64_t w = sent.at(static_cast<std::uint32_t>(g));
        const std::int64_t held = plan[g].kind == Kind::halving ? w : 2 * w;
        EXPECT_EQ(held * denominators[g], L) << "step " << g;
        EXPECT_EQ(hd_held_block(boards, plan, b, static_cast<int>(g), L / 4).len * denominators[g], L);
        (plan[g].kind == Kind::halving ? halving : doubling) += w;
      }
      EXPECT_EQ(halving * 1024, 255 * static_cast<std::int64_t>(L));
      EXPECT_EQ(doubling * 1024, 255 * static_cast<std::int64_t>(L));
      EXPECT_EQ(hd_held_block(boards, plan, b, 0, L / 4).len * 4, L);
      // Held after W, X, Y, Z halvings (steps 2, 4, 6, 8).
      EXPECT_EQ(hd_held_block(boards, plan, b, 2, L / 4).len * 16, L);
      EXPECT_EQ(hd_held_block(boards, plan, b, 4, L / 4).len * 64, L);
      EXPECT_EQ(hd_held_block(boards, plan, b, 6, L / 4).len * 256, L);
      EXPECT_EQ(hd_held_block(boards, plan, b, 8, L / 4).len * 1024, L);
    }
  }
  o.variant = HdVariant::conventional;
  const Schedule c = build_hd_allreduce(boards, o);
  const auto cplan = hd_plan(boards, HdVariant::conventional, hd_dimension_order(boards, "wxyz"));
  for (int a = 0; a < 4; ++a) {
    const auto sent = words_sent_by(c, Boards::aggregation_unit(9, a));
    std::int64_t total = 0;
    for (std::size_t g = 1; g + 1 < cplan.size(); ++g) {
      total += sent.at(static_cast<std::uint32_t>(g));
      EXPECT_GE(hd_held_block(boards, cplan, 9, static_cast<int>(g), L / 4).len * 16, L);
    }
    EXPECT_EQ(total * 2, 3 * static_cast<std::int64_t>(L));  // 1.5 L
  }
  const auto smallest = [&](const std::vector<HdStep>& p) {
    std::uint32_t least = L;
    for (std::size_t g = 0; g < p.size(); ++g)
      least = std::min(least, hd_held_block(boards, p, 9, static_cast<int>(g), L / 4).len);
    return least;
  };
  EXPECT_EQ(smallest(cplan) * 16, L);
  EXPECT_EQ(smallest(plan) * 1024, L);
}

// ---------------------------------------------------------------------------
// Fact 5: doubling the number of aggregation units halves the inter-board
// time (static time of the halving and doubling phases, bandwidth bound).
TEST(HdAllreduce, DoublingAggregationUnitsHalvesTheInterBoardTime) {
  for (auto sizes : std::vector<std::array<int, 4>>{{4, 4, 4, 4}, {2, 4, 2, 1}}) {
    Boards boards(sizes);
    std::vector<std::int64_t> inter_board, in_board;
    for (int A : {1, 2, 4}) {
      HdOptions o;
      o.aggregation_units = A;
      o.elements = static_cast<std::uint32_t>(4 * boards.boards() * 8);
      const Schedule s = build_hd_allreduce(boards, o);
      const StaticReport r = static_check(boards, s);
      const std::uint32_t last = r.phases.back().tag;
      std::int64_t t = 0, local = 0;
      for (const auto& p : r.phases) (p.tag == 0 || p.tag == last ? local : t) += p.max_link_flits;
      inter_board.push_back(t);
      in_board.push_back(local);
    }
    EXPECT_EQ(inter_board[0], 2 * inter_board[1]) << boards.name();
    EXPECT_EQ(inter_board[1], 2 * inter_board[2]) << boards.name();
    EXPECT_EQ(in_board[0], 2 * in_board[1]) << boards.name();
  }
}

// Embodiment 2: size-2 dimensions (twice the bandwidth) first, ties W < X <
// Y < Z; on 4x2x4x2 this lowers the static time of the halving/doubling steps.
TEST(HdAllreduce, BandwidthOrderPutsSizeTwoDimensionsFirstAndIsFaster) {
  Boards boards({4, 2, 4, 2});
  EXPECT_EQ(hd_dimension_order(boards, "wxyz"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(hd_dimension_order(boards, "bandwidth"), (std::vector<int>{1, 3, 0, 2}));
  Boards mixed({2, 4, 1, 2});
  EXPECT_EQ(hd_dimension_order(mixed, "bandwidth"), (std::vector<int>{0, 3, 1}));
  std::map<std::string, std::int64_t> time;
  for (const std::string order : {"wxyz", "bandwidth"}) {
    HdOptions o;
    o.dim_order = order;
    o.elements = 4 * 64 * 32;
    time[order] = static_check(boards, build_hd_allreduce(boards, o)).static_time;
  }
  // Closed form with B = L/4 = 2048 per plane: wxyz W: B/2 + B/4, X: B/8 in
  // two halves, Y: B/16 + B/32, Z: B/64 in two halves; bandwidth X: B/2 in
  // two halves, Z: B/4 in two, W: B/8 + B/16, Y: B/32 + B/64. Twice that
  // (doubling) plus 2B in-board.
  const std::int64_t B = 2048;
  EXPECT_EQ(time["wxyz"], 2 * (B / 2 + B / 4 + B / 16 + B / 16 + B / 32 + B / 128) + 2 * B);
  EXPECT_EQ(time["bandwidth"], 2 * (B / 4 + B / 8 + B / 8 + B / 16 + B / 32 + B / 64) + 2 * B);
  EXPECT_LT(time["bandwidth"], time["wxyz"]);
}

// ---------------------------------------------------------------------------
// The registered algorithms and their keys; bad input names the key.
TEST(HdAllreduce, RegisteredWithDocumentedKeys) {
  for (const char* name : {"hd-allreduce", "hd-allreduce-conventional"}) {
    const Algorithm& a = find_algorithm(name);
    EXPECT_EQ(a.document, "004");
    std::set<std::string> keys;
    for (const auto& k : a.keys) keys.insert(k.name);
    EXPECT_EQ(keys, (std::set<std::string>{"elements", "dtype", "op", "dim_order", "aggregation_units", "plane_order",
                                           "link_controllers"}));
    auto topo = topology::make_topology("boards:2x1x2x1");
    const Schedule s = a.build(*topo, Params{{"op", "average"}, {"dtype", "float64"}, {"dim_order", "bandwidth"}});
    EXPECT_EQ(s.algorithm, name);
    EXPECT_EQ(s.controllers, 1);
    EXPECT_TRUE(check_data(s, execute(s, {DeliveryOrder::random, 2}).memory).pass);
    // The document's aggregation unit: the same result under any delivery
    // order, SENDs spread over 8 controllers.
    const Schedule d = a.build(*topo, Params{{"op", "average"}, {"dtype", "float64"}, {"dim_order", "bandwidth"},
                                             {"plane_order", "rotated"}, {"link_controllers", "per-link"}});
    EXPECT_EQ(d.controllers, 8);
    int highest = 0;
    for (const auto& program : d.programs)
      for (const auto& desc : program) highest = std::max<int>(highest, desc.controller);
    EXPECT_EQ(highest, 7);
    EXPECT_TRUE(check_data(d, execute(d, {DeliveryOrder::random, 3}).memory).pass);
  }
}

TEST(HdAllreduce, BadInputNamesTheKeyAndTheAcceptedValues) {
  const Algorithm& a = find_algorithm("hd-allreduce");
  auto boards = topology::make_topology("boards:4x4x1x1");
  auto message = [&](const topology::Topology& t, const Params& p) {
    try {
      (void)a.build(t, p);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string e = message(*boards, Params{{"elements", "100"}});
  EXPECT_NE(e.find("'elements'"), std::string::npos) << e;
  EXPECT_NE(e.find("multiples of 64"), std::string::npos) << e;
  const std::string op = message(*boards, Params{{"op", "xor"}});
  EXPECT_NE(op.find("'op'"), std::string::npos) << op;
  EXPECT_NE(op.find("sum, product, max, min, average"), std::string::npos) << op;
  EXPECT_NE(message(*boards, Params{{"dim_order", "zyxw"}}).find("wxyz, bandwidth"), std::string::npos);
  EXPECT_NE(message(*boards, Params{{"aggregation_units", "8"}}).find("'aggregation_units'"), std::string::npos);
  EXPECT_NE(message(*boards, Params{{"dtype", "int32"}}).find("int64, float64"), std::string::npos);
  EXPECT_NE(message(*boards, Params{{"elements", "1048576"}}).find("'elements'"), std::string::npos);
  auto torus = topology::make_topology("torus:4x4");
  EXPECT_NE(message(*torus, Params{}).find("boards:WxXxYxZ"), std::string::npos);
  EXPECT_THROW((void)topology::make_topology("boards:3x1x1x1"), topology::TopologyError);
  HdOptions o;
  o.elements = 64;
  o.aggregation_units = 3;
  EXPECT_THROW((void)build_hd_allreduce(dynamic_cast<const Boards&>(*boards), o), ConfigError);
  EXPECT_THROW((void)hd_parse_op("mean"), ConfigError);
}

// The receive operation added for the average (descriptor op code 5).
TEST(HdAllreduce, DivideReceiveOperation) {
  EXPECT_EQ(static_cast<int>(ReceiveOp::divide), 5);
  EXPECT_EQ(combine(ReceiveOp::divide, DataType::int64, static_cast<Word>(-7), 2), static_cast<Word>(-3));
  EXPECT_EQ(combine(ReceiveOp::divide, DataType::int64, static_cast<Word>(INT64_MIN), static_cast<Word>(-1)),
            static_cast<Word>(INT64_MIN));
  EXPECT_EQ(std::bit_cast<double>(combine(ReceiveOp::divide, DataType::float64, std::bit_cast<Word>(3.0),
                                          std::bit_cast<Word>(8.0))),
            0.375);
  EXPECT_THROW((void)combine(ReceiveOp::divide, DataType::int64, 5, 0), ExecutionError);
}
