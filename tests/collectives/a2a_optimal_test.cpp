// a2a-optimal (A2AT, document 001): every fact of spec a2a-optimal that needs
// no cycle timing, checked against the spec's own numbers and closed forms.
#include "collectives/algorithms/a2a_optimal.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "tests/support/built_schedule.hpp"
#include "tests/support/error_message.hpp"
#include "topology/grid.hpp"

using namespace collnet;
using namespace collnet::collectives;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using Built = test::BuiltSchedule;

std::string grid_spec(bool torus, int nx, int ny) {
  return std::string(torus ? "torus:" : "mesh:") + std::to_string(nx) + "x" + std::to_string(ny);
}

Built run(const std::string& algorithm, const std::string& topology, const Params& params = {}) {
  return test::build_schedule(algorithm, topology, params, test::StaticCheck::run);
}

// One-word messages: the static time is then the sum of the groups' maximum
// link loads in messages, the quantity the spec's facts are stated in.
Built run_a2at(bool torus, int nx, int ny, Params params = {}) {
  if (!params.has("message_flits")) params.set("message_flits", "1");
  return run("a2a-optimal", grid_spec(torus, nx, ny), params);
}

// spec a2a-optimal "Lower bounds", with Nx >= Ny: mesh floor(Nx/2)*ceil(Nx/2)*Ny,
// torus half of it; in flit times of M-word messages (a half rounds up).
std::int64_t spec_bound(int nx, int ny, bool torus, std::int64_t m) {
  if (nx < ny) std::swap(nx, ny);
  const std::int64_t mesh = std::int64_t{nx / 2} * ((nx + 1) / 2) * ny * m;
  return torus ? (mesh + 1) / 2 : mesh;
}

std::vector<Offset2> flat(const std::vector<OffsetGroup>& groups) {
  std::vector<Offset2> all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  return all;
}

int mod(int a, int n) { return ((a % n) + n) % n; }

}  // namespace

// Fact 1: every non-zero offset exactly once, N-1 messages per node. Every
// Nx x Ny with 1 <= Nx, Ny <= 13 (both orientations, so every mesh up to
// 13x13 and every rectangle up to 12x11), mesh and torus, both orders, the
// natural NCT and NCT 1 and 3.
TEST(A2aOptimal, EveryNonZeroOffsetExactlyOnce) {
  for (bool torus : {false, true})
    for (auto order : {A2atOrder::printed, A2atOrder::reordered})
      for (int nct : {1, 3, a2at_natural_nct(order)})
        for (int nx = 1; nx <= 13; ++nx)
          for (int ny = 1; ny <= 13; ++ny) {
            const auto offsets = flat(a2at_offset_groups(nx, ny, torus, nct, order));
            SCOPED_TRACE(grid_spec(torus, nx, ny) + " nct " + std::to_string(nct));
            ASSERT_EQ(offsets.size(), static_cast<std::size_t>(nx * ny - 1));
            std::set<std::pair<int, int>> seen;
            for (const Offset2& o : offsets) {
              const std::pair<int, int> cell{mod(o.dx, nx), mod(o.dy, ny)};
              EXPECT_NE(cell, std::make_pair(0, 0));
              EXPECT_TRUE(seen.insert(cell).second) << "offset (" << o.dx << "," << o.dy << ") repeats a cell";
              // Minimal offsets: the sign can fix a torus direction.
              EXPECT_LE(2 * std::abs(o.dx), nx);
              EXPECT_LE(2 * std::abs(o.dy), ny);
            }
          }
}

// Fact 1 on the programs themselves: each node sends N-1 network messages to
// N-1 distinct other nodes, plus one local copy; no WAIT, no BARRIER.
TEST(A2aOptimal, EveryMeshProgramSendsToEveryOtherNodeOnce) {
  for (int nx = 1; nx <= 13; ++nx)
    for (int ny = 1; ny <= nx; ++ny) {
      const Built r = run_a2at(false, nx, ny);
      SCOPED_TRACE(r.topology->name());
      const int n = nx * ny;
      EXPECT_EQ(r.report.min_sends_per_node, n - 1);
      EXPECT_EQ(r.report.max_sends_per_node, n - 1);
      EXPECT_EQ(r.report.local_copies, n);
      EXPECT_EQ(r.report.barriers, 0);
      for (std::size_t e = 0; e < r.schedule.endpoints(); ++e) {
        std::set<std::uint32_t> dests;
        for (const Descriptor& d : r.schedule.programs[e]) {
          EXPECT_NE(d.opcode, Opcode::wait);
          EXPECT_NE(d.opcode, Opcode::barrier);
          if (d.opcode == Opcode::send && d.dest != e) {
            EXPECT_TRUE(dests.insert(d.dest).second);
          }
        }
        EXPECT_EQ(dests.size(), static_cast<std::size_t>(n - 1));
      }
    }
}

// Fact 2: per-group maximum directed-link loads (static, DOR routes).
TEST(A2aOptimal, PerGroupLinkLoadsOfTheSpec) {
  using V = std::vector<std::int32_t>;
  EXPECT_EQ(run_a2at(false, 4, 4).report.phase_max_link_load(), (V{1, 1, 2, 2, 3, 3, 2, 2}));
  EXPECT_EQ(run_a2at(false, 5, 3).report.phase_max_link_load(), (V{1, 1, 2, 2, 4, 4, 4}));
  EXPECT_EQ(run_a2at(true, 4, 4).report.phase_max_link_load(), (V{1, 2, 3, 2}));
  EXPECT_EQ(run_a2at(true, 5, 5).report.phase_max_link_load(), (V{1, 2, 2, 3, 3, 4}));
  // The paper's printed order sent four at a time misses the torus bound.
  const Built printed = run_a2at(true, 5, 5, {{"group_order", "printed"}});
  EXPECT_EQ(printed.report.phase_max_link_load(), (V{1, 2, 2, 4, 4, 4}));
  EXPECT_EQ(printed.report.static_time, 17);
  EXPECT_EQ(printed.schedule.lower_bound, 15);
  // Sums equal the bound.
  EXPECT_EQ(run_a2at(false, 4, 4).report.static_time, 16);
  EXPECT_EQ(run_a2at(false, 5, 5).report.static_time, 30);
  EXPECT_EQ(run_a2at(false, 5, 3).report.static_time, 18);
  EXPECT_EQ(run_a2at(true, 4, 4).report.static_time, 8);
  EXPECT_EQ(run_a2at(true, 5, 5).report.static_time, 15);
}

// Fact 3: totals at the spec's NCT (mesh 2, torus 4: the defaults), which
// are also the lower bounds.
TEST(A2aOptimal, TotalsOfTheSpec) {
  struct Case {
    bool torus;
    int nx, ny;
    std::int64_t total;
  };
  for (const Case c : {Case{false, 3, 3, 6}, Case{false, 4, 4, 16}, Case{false, 5, 5, 30}, Case{false, 8, 8, 128},
                       Case{false, 16, 16, 1024}, Case{false, 7, 5, 60}, Case{false, 8, 6, 96},
                       Case{true, 4, 4, 8}, Case{true, 5, 5, 15}, Case{true, 8, 8, 64}, Case{true, 32, 32, 4096},
                       Case{true, 7, 5, 30}}) {
    const Built r = run_a2at(c.torus, c.nx, c.ny);
    SCOPED_TRACE(r.topology->name());
    EXPECT_EQ(r.schedule.controllers, c.torus ? 4 : 2);
    EXPECT_EQ(r.report.static_time, c.total);
    EXPECT_EQ(r.schedule.lower_bound, c.total);
  }
}

// The bound in the spec's two printed forms for squares (torus corrected
// from the paper's /2 typo) agrees with the general formula and with the
// schedule's lower_bound.
TEST(A2aOptimal, LowerBoundMatchesTheSpecFormulas) {
  for (int n = 1; n <= 16; ++n) {
    // Messages of 8 words keep the /4 and /8 whole: 8 x N(N^2-1)/4 = 2N(N^2-1), ...
    const std::int64_t cube = n % 2 ? std::int64_t{n} * (n * n - 1) : std::int64_t{n} * n * n;
    EXPECT_EQ(spec_bound(n, n, false, 8), 2 * cube) << n;  // N(N^2-1)/4, N^3/4
    EXPECT_EQ(spec_bound(n, n, true, 8), cube) << n;       // N(N^2-1)/8, N^3/8
  }
  for (bool torus : {false, true})
    for (int nx = 1; nx <= 9; ++nx)
      for (int ny = 1; ny <= 9; ++ny)
        for (std::int64_t m : {1, 3, 16}) {
          const Built r = run_a2at(torus, nx, ny, {{"message_flits", std::to_string(m)}, {"nct", "1"}});
          EXPECT_EQ(r.schedule.lower_bound, spec_bound(nx, ny, torus, m)) << r.topology->name() << " M=" << m;
        }
}

// Fact 2/3 as a sweep: static time = lower bound on every mesh with
// 1 <= Nx, Ny <= 13 (both orientations, both orders, NCT 2), and on every
// odd x odd and even square torus up to 13 (reordered order, NCT 4).
TEST(A2aOptimal, StaticTimeEqualsTheBoundWhereTheSpecClaimsOptimality) {
  for (const std::string order : {"printed", "reordered"})
    for (int nx = 1; nx <= 13; ++nx)
      for (int ny = 1; ny <= 13; ++ny) {
        const Built r = run_a2at(false, nx, ny, {{"group_order", order}});
        EXPECT_EQ(r.report.static_time, spec_bound(nx, ny, false, 1)) << r.topology->name() << " " << order;
      }
  for (int nx = 1; nx <= 13; ++nx)
    for (int ny = 1; ny <= 13; ++ny) {
      if (!((nx % 2 == 1 && ny % 2 == 1) || nx == ny)) continue;
      const Built r = run_a2at(true, nx, ny);
      EXPECT_EQ(r.report.static_time, spec_bound(nx, ny, true, 1)) << r.topology->name();
    }
  // With M-word messages every group lasts M times longer (torus: even M,
  // so that the halved bound is a whole number of flit times).
  EXPECT_EQ(run_a2at(false, 6, 4, {{"message_flits", "16"}}).report.static_time, spec_bound(6, 4, false, 16));
  EXPECT_EQ(run_a2at(true, 7, 5, {{"message_flits", "16"}}).report.static_time, spec_bound(7, 5, true, 16));
}

// Rectangular tori other than odd x odd run the mesh steps: correct, never
// below the bound (a bound), not claimed optimal.
TEST(A2aOptimal, OtherRectangularToriAreCorrectAndAtLeastTheBound) {
  for (int nx = 1; nx <= 10; ++nx)
    for (int ny = 1; ny <= 10; ++ny) {
      if ((nx % 2 == 1 && ny % 2 == 1) || nx == ny) continue;
      const Built r = run_a2at(true, nx, ny);
      SCOPED_TRACE(r.topology->name());
      EXPECT_GE(r.report.static_time, r.schedule.lower_bound);
      EXPECT_EQ(r.report.min_sends_per_node, nx * ny - 1);
      EXPECT_TRUE(check_data(r.schedule, execute(r.schedule, {DeliveryOrder::eager, 1}).memory).pass);
    }
}

// Transposing a grid changes no group's load (a2a_optimal.hpp).
TEST(A2aOptimal, TransposedGridHasTheSameGroupLoads) {
  for (bool torus : {false, true})
    for (auto [nx, ny] : {std::pair{5, 3}, std::pair{8, 6}, std::pair{7, 4}, std::pair{6, 1}, std::pair{9, 5}}) {
      const Built a = run_a2at(torus, nx, ny);
      const Built b = run_a2at(torus, ny, nx);
      EXPECT_EQ(a.report.phase_max_link_load(), b.report.phase_max_link_load()) << a.topology->name();
    }
}

// The descriptors follow the generator: SEND k of endpoint e goes to e plus
// the k-th offset; controller = position in the group; tag = group index;
// the route travels the offset's own way: on the torus the sign of the
// offset is the direction (also for exactly half the ring), on the mesh a
// wrapping "+i" travels N-i hops back.
TEST(A2aOptimal, DescriptorsFollowTheOffsetGroupsAndTheirDirections) {
  for (bool torus : {false, true})
    for (auto [nx, ny] : {std::pair{4, 4}, std::pair{6, 6}, std::pair{8, 6}, std::pair{6, 8}, std::pair{2, 2},
                          std::pair{2, 5}, std::pair{5, 3}})
      for (int nct : {1, 2, 3, 4}) {
        const Built r = run_a2at(torus, nx, ny, {{"nct", std::to_string(nct)}});
        const auto& grid = dynamic_cast<const topology::Grid&>(*r.topology);
        const auto groups = a2at_offset_groups(nx, ny, torus, nct, A2atOrder::reordered);
        SCOPED_TRACE(r.topology->name() + " nct " + std::to_string(nct));
        for (EndpointId e = 0; e < grid.endpoint_count(); ++e) {
          const Program& p = r.schedule.programs[static_cast<std::size_t>(e)];
          std::size_t pc = 0;
          for (std::size_t g = 0; g < groups.size(); ++g) {
            ASSERT_LE(groups[g].size(), static_cast<std::size_t>(nct));
            for (std::size_t k = 0; k < groups[g].size(); ++k, ++pc) {
              const Descriptor d = p.at(pc);
              const Offset2 o = groups[g][k];
              const int shift[2] = {o.dx, o.dy};
              ASSERT_EQ(d.opcode, Opcode::send);
              EXPECT_EQ(d.dest, static_cast<std::uint32_t>(grid.shifted(e, shift)));
              EXPECT_EQ(d.controller, k);
              EXPECT_EQ(d.tag, g);
              const auto c = grid.coord(e);
              const int comp[2] = {o.dx, o.dy};
              for (int dim = 0; dim < 2; ++dim) {
                const int n = grid.size(dim);
                const int at = c[static_cast<std::size_t>(dim)] + comp[dim];
                const int want = torus ? comp[dim] : (at >= n ? comp[dim] - n : at < 0 ? comp[dim] + n : comp[dim]);
                EXPECT_EQ(grid.hops(e, static_cast<EndpointId>(d.dest), dim, d.route_hint), want);
              }
            }
          }
          // Then the self area as a local copy, then END.
          ASSERT_EQ(p.size(), pc + 2);
          EXPECT_EQ(p[pc].dest, static_cast<std::uint32_t>(e));
          EXPECT_EQ(p[pc + 1].opcode, Opcode::end);
        }
      }
}

// With an nct other than the order's natural one, the same ordered offset
// list is cut into consecutive groups of nct.
TEST(A2aOptimal, OtherNctRegroupsTheSameOrderedList) {
  for (bool torus : {false, true})
    for (auto order : {A2atOrder::printed, A2atOrder::reordered})
      for (auto [nx, ny] : {std::pair{5, 5}, std::pair{8, 6}, std::pair{7, 3}}) {
        const auto natural = flat(a2at_offset_groups(nx, ny, torus, a2at_natural_nct(order), order));
        for (int nct = 1; nct <= 4; ++nct) {
          if (nct == a2at_natural_nct(order)) continue;
          const auto groups = a2at_offset_groups(nx, ny, torus, nct, order);
          EXPECT_EQ(flat(groups), natural);
          for (std::size_t g = 0; g + 1 < groups.size(); ++g) EXPECT_EQ(groups[g].size(), static_cast<std::size_t>(nct));
          EXPECT_GE(groups.back().size(), 1u);
        }
      }
  // The natural groups of the reordered order are the spec's groups of four
  // (Core) and the printed ones hold at most two sends.
  for (const auto& g : a2at_offset_groups(9, 9, true, 4, A2atOrder::reordered)) EXPECT_EQ(g.size(), 4u);
  for (const auto& g : a2at_offset_groups(8, 6, false, 2, A2atOrder::printed)) EXPECT_LE(g.size(), 2u);
}

// Spec a2a-optimal: the spec's Step3_T groups for the even square torus.
TEST(A2aOptimal, EvenSquareTorusEndsWithStep3T) {
  const auto g = a2at_offset_groups(8, 8, true, 4, A2atOrder::reordered);
  ASSERT_GE(g.size(), 4u);
  const int h = 4;
  for (int i = 1; i <= h - 1; ++i)
    EXPECT_EQ(g[g.size() - 1 - static_cast<std::size_t>(h - i)],
              (OffsetGroup{{h, i}, {-i, -h}, {-h, -i}, {i, h}}));
  EXPECT_EQ(g.back(), (OffsetGroup{{h, 0}, {0, h}, {-h, -h}}));
}

// Every schedule delivers D(O->T) to area O of node T under every delivery order.
TEST(A2aOptimal, DataCheckUnderEveryDeliveryOrder) {
  for (bool torus : {false, true})
    for (auto [nx, ny] : {std::pair{2, 2}, std::pair{3, 3}, std::pair{4, 4}, std::pair{5, 3}, std::pair{8, 8},
                          std::pair{1, 5}, std::pair{5, 1}, std::pair{1, 1}, std::pair{3, 6}})
      for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
        const Built r = run_a2at(torus, nx, ny, {{"message_flits", "3"}});
        const ExecResult x = execute(r.schedule, {order, 42});
        const DataCheck c = check_data(r.schedule, x.memory);
        EXPECT_TRUE(c.pass) << r.topology->name() << (c.first_errors.empty() ? "" : c.first_errors.front());
        EXPECT_EQ(x.messages, std::int64_t{nx * ny} * (nx * ny - 1));
        EXPECT_EQ(x.local_copies, nx * ny);
      }
}

// A2AT beats A2A and A2AND in static time at NCT >= 2 (spec fact 4, static
// part; the paper's comparison on 8x8 and 32x32).
TEST(A2aOptimal, BeatsTheBaselinesAtNctTwoAndMore) {
  for (const std::string topology : {"mesh:8x8", "torus:8x8"})
    for (int nct = 2; nct <= 4; ++nct) {
      const Params p{{"nct", std::to_string(nct)}, {"message_flits", "1"}};
      const auto a2at = run("a2a-optimal", topology, p).report.static_time;
      const auto spread = run("a2a-spread", topology, p).report.static_time;
      const auto nd = run("a2a-nd", topology, p).report.static_time;
      EXPECT_LT(a2at, spread) << topology << " nct " << nct;
      EXPECT_LT(a2at, nd) << topology << " nct " << nct;
    }
}

// Bad input names the key and the accepted values.
TEST(A2aOptimal, BadInputIsAConfigErrorNamingTheKey) {
  const auto error = [](const std::string& topology, const Params& p) {
    return test::error_message<ConfigError>([&] { run("a2a-optimal", topology, p); });
  };
  EXPECT_THAT(error("torus:4x4", {{"nct", "0"}}), AllOf(HasSubstr("'nct'"), HasSubstr("1 to 4")));
  EXPECT_THAT(error("torus:4x4", {{"nct", "5"}}), AllOf(HasSubstr("'nct'"), HasSubstr("1 to 4")));
  EXPECT_THAT(error("mesh:4x4", {{"nct", "two"}}), AllOf(HasSubstr("'nct'"), HasSubstr("1 to 4")));
  EXPECT_THAT(error("mesh:4x4x4", {}), AllOf(HasSubstr("'topology'"), HasSubstr("2-D"), HasSubstr("mesh:4x4x4")));
  EXPECT_THAT(error("torus:8", {}), AllOf(HasSubstr("'topology'"), HasSubstr("2-D")));
  EXPECT_THAT(error("mesh:4x4", {{"message_flits", "0"}}),
              AllOf(HasSubstr("'message_flits'"), HasSubstr("1 to 65536")));
  // 2*64 areas of 65536 words do not fit the descriptor's address field.
  EXPECT_THAT(error("torus:8x8", {{"message_flits", "65536"}}),
              AllOf(HasSubstr("'message_flits'"), HasSubstr("message_flits <=")));
  EXPECT_THAT(error("mesh:4x4", {{"group_order", "sorted"}}),
              AllOf(HasSubstr("'group_order'"), HasSubstr("printed, reordered")));
  EXPECT_THROW(a2at_offset_groups(0, 4, true, 4), ConfigError);
  EXPECT_THROW(a2at_offset_groups(4, 4, true, 0), ConfigError);
}

// For any grid, nct, order and message length, the executor under a random
// delivery order delivers D(O->T) to area O of node T, once.
RC_GTEST_PROP(A2aOptimalProperty, DeliversEveryPairOnce, ()) {
  const int nx = *rc::gen::inRange(1, 10);
  const int ny = *rc::gen::inRange(1, 10);
  const bool torus = *rc::gen::arbitrary<bool>();
  const int nct = *rc::gen::inRange(1, 5);
  const int m = *rc::gen::inRange(1, 4);
  const std::string order = *rc::gen::element<std::string>("printed", "reordered");
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Built r = run_a2at(torus, nx, ny,
                         {{"nct", std::to_string(nct)}, {"message_flits", std::to_string(m)}, {"group_order", order}});
  const ExecResult x = execute(r.schedule, {DeliveryOrder::random, seed});
  RC_ASSERT(check_data(r.schedule, x.memory).pass);
  RC_ASSERT(x.messages == std::int64_t{nx * ny} * (nx * ny - 1));
  RC_ASSERT(r.report.static_time >= r.schedule.lower_bound);
}
