// The baselines of document 001: a2a-spread (A2A) and a2a-nd (A2AND).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
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

using test::build_schedule;

struct NetworkSend {
  std::uint32_t dest, tag, controller;
  bool operator==(const NetworkSend&) const = default;
};

std::vector<NetworkSend> network_sends(const Program& p, std::uint32_t self) {
  std::vector<NetworkSend> v;
  for (const Descriptor& d : p)
    if (d.opcode == Opcode::send && d.dest != self) v.push_back({d.dest, d.tag, d.controller});
  return v;
}

}  // namespace

// spec a2a-optimal, Baselines: A2A = for i=1..N-1: send((rank+i) mod N),
// rank = x + Nx*y; grouped nct at a time (tag = group, controller = place).
TEST(A2aSpread, SendsToRankPlusIInGroupsOfNct) {
  for (const std::string topology : {"mesh:4x3", "torus:5x5", "torus:7", "mesh:2x3x2"})
    for (int nct = 1; nct <= 4; ++nct) {
      const auto r = build_schedule("a2a-spread", topology, {{"nct", std::to_string(nct)}});
      const auto n = static_cast<std::uint32_t>(r.topology->endpoint_count());
      for (std::uint32_t rank = 0; rank < n; ++rank) {
        std::vector<NetworkSend> want;
        for (std::uint32_t i = 1; i < n; ++i)
          want.push_back({(rank + i) % n, (i - 1) / static_cast<std::uint32_t>(nct), (i - 1) % static_cast<std::uint32_t>(nct)});
        EXPECT_EQ(network_sends(r.schedule.programs[rank], rank), want) << topology << " rank " << rank;
      }
    }
}

// A2AND: dx outer, dy inner (the spec's loop nest), skipping (0, 0); in N-D
// the last dimension innermost.
TEST(A2aNd, SendsEveryCoordinateOffsetInLoopNestOrder) {
  {
    const int nx = 4, ny = 3;
    const auto r = build_schedule("a2a-nd", "torus:4x3", {{"nct", "3"}});
    for (int x = 0; x < nx; ++x)
      for (int y = 0; y < ny; ++y) {
        const auto self = static_cast<std::uint32_t>(x + nx * y);
        std::vector<NetworkSend> want;
        std::uint32_t i = 0;
        for (int dx = 0; dx < nx; ++dx)
          for (int dy = 0; dy < ny; ++dy) {
            if (dx == 0 && dy == 0) continue;
            want.push_back({static_cast<std::uint32_t>((x + dx) % nx + nx * ((y + dy) % ny)), i / 3, i % 3});
            ++i;
          }
        EXPECT_EQ(network_sends(r.schedule.programs[self], self), want);
      }
  }
  {
    const int s[3] = {2, 3, 2};
    const auto r = build_schedule("a2a-nd", "mesh:2x3x2", {{"nct", "1"}});
    const std::uint32_t self = 1 + 2 * (2 + 3 * 1);  // (1, 2, 1)
    std::vector<NetworkSend> want;
    std::uint32_t i = 0;
    for (int dx = 0; dx < s[0]; ++dx)
      for (int dy = 0; dy < s[1]; ++dy)
        for (int dz = 0; dz < s[2]; ++dz) {
          if (dx == 0 && dy == 0 && dz == 0) continue;
          const int x = (1 + dx) % s[0], y = (2 + dy) % s[1], z = (1 + dz) % s[2];
          want.push_back({static_cast<std::uint32_t>(x + s[0] * (y + s[1] * z)), i++, 0});
        }
    EXPECT_EQ(network_sends(r.schedule.programs[self], self), want);
  }
}

// Paper section 4: with NCT 1 the send order does not matter and A2AND (like
// A2AT) takes N(N+1)(N-1)/3 on an odd square mesh or torus (eq. 24).
TEST(A2aNd, NctOneTimeOnOddSquaresIsTheClosedForm) {
  for (const std::string kind : {"mesh", "torus"})
    for (int n : {3, 5, 7, 9}) {
      const std::string topology = kind + ":" + std::to_string(n) + "x" + std::to_string(n);
      const Params p{{"nct", "1"}, {"message_flits", "1"}};
      const std::int64_t closed = std::int64_t{n} * (n + 1) * (n - 1) / 3;
      for (const std::string algorithm : {"a2a-nd", "a2a-optimal"}) {
        const auto r = build_schedule(algorithm, topology, p);
        EXPECT_EQ(static_check(*r.topology, r.schedule).static_time, closed) << algorithm << " " << topology;
      }
    }
}

TEST(A2aBaselines, DataCheckUnderEveryDeliveryOrder) {
  for (const std::string algorithm : {"a2a-spread", "a2a-nd"})
    for (const std::string kind : {"mesh", "torus"})
      for (const std::string sizes : {"2x2", "3x3", "4x4", "5x3", "8x8", "7", "1", "3x4x2", "2x2x2x2"})
        for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
          const auto r = build_schedule(algorithm, kind + ":" + sizes, {{"message_flits", "2"}});
          const ExecResult x = execute(r.schedule, {order, 9});
          const auto n = std::int64_t{r.topology->endpoint_count()};
          EXPECT_TRUE(check_data(r.schedule, x.memory).pass) << algorithm << " " << r.topology->name();
          EXPECT_EQ(x.messages, n * (n - 1));
          const StaticReport s = static_check(*r.topology, r.schedule);
          EXPECT_EQ(s.barriers, 0);
          EXPECT_GE(s.static_time, r.schedule.lower_bound);
        }
}

TEST(A2aBaselines, DefaultNctIsTwoOnAMeshAndFourOnATorus) {
  for (const std::string algorithm : {"a2a-spread", "a2a-nd"}) {
    EXPECT_EQ(build_schedule(algorithm, "mesh:4x4").schedule.controllers, 2);
    EXPECT_EQ(build_schedule(algorithm, "torus:4x4").schedule.controllers, 4);
  }
}

TEST(A2aBaselines, BadInputIsAConfigErrorNamingTheKey) {
  const auto error = [](const std::string& algorithm, const std::string& topology, const Params& p) {
    return test::error_message<ConfigError>([&] { build_schedule(algorithm, topology, p); });
  };
  for (const std::string algorithm : {"a2a-spread", "a2a-nd"}) {
    EXPECT_THAT(error(algorithm, "torus:4x4", {{"nct", "0"}}), AllOf(HasSubstr("'nct'"), HasSubstr("1 to 4")));
    EXPECT_THAT(error(algorithm, "mesh:4x4", {{"nct", "5"}}), AllOf(HasSubstr("'nct'"), HasSubstr("1 to 4")));
    EXPECT_THAT(error(algorithm, "mesh:4x4", {{"message_flits", "0"}}),
                AllOf(HasSubstr("'message_flits'"), HasSubstr("1 to 65536")));
  }
}

RC_GTEST_PROP(A2aBaselinesProperty, DeliversEveryPairOnce, ()) {
  const std::string algorithm = *rc::gen::element<std::string>("a2a-spread", "a2a-nd");
  const int dims = *rc::gen::inRange(1, 4);
  std::string topology = *rc::gen::element<std::string>("mesh:", "torus:");
  for (int d = 0; d < dims; ++d) topology += (d ? "x" : "") + std::to_string(*rc::gen::inRange(1, dims == 1 ? 12 : 6));
  const int nct = *rc::gen::inRange(1, 5);
  const int m = *rc::gen::inRange(1, 4);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto r =
      build_schedule(algorithm, topology, {{"nct", std::to_string(nct)}, {"message_flits", std::to_string(m)}});
  const ExecResult x = execute(r.schedule, {DeliveryOrder::random, seed});
  const auto n = std::int64_t{r.topology->endpoint_count()};
  RC_ASSERT(check_data(r.schedule, x.memory).pass);
  RC_ASSERT(x.messages == n * (n - 1));
}

// a2a-random (BlueGene/L's randomized all-to-all): each node's destinations
// are a permutation of the others, in groups of nct; the seed fixes the
// orders and a different seed changes them; nodes do not share one order.
TEST(A2aRandom, EachNodeSendsToEveryOtherOnceInItsOwnSeededOrder) {
  const auto dests = [](const std::string& seed) {
    const auto r = build_schedule("a2a-random", "torus:6x5", {{"order_seed", seed}, {"nct", "3"}});
    std::vector<std::vector<std::uint32_t>> all;
    const auto n = static_cast<std::uint32_t>(r.topology->endpoint_count());
    for (std::uint32_t rank = 0; rank < n; ++rank) {
      const auto sends = network_sends(r.schedule.programs[rank], rank);
      std::vector<std::uint32_t> d;
      for (std::size_t i = 0; i < sends.size(); ++i) {
        EXPECT_EQ(sends[i].tag, i / 3) << "rank " << rank;
        EXPECT_EQ(sends[i].controller, i % 3) << "rank " << rank;
        d.push_back(sends[i].dest);
      }
      std::vector<std::uint32_t> sorted = d;
      std::sort(sorted.begin(), sorted.end());
      std::vector<std::uint32_t> others;
      for (std::uint32_t o = 0; o < n; ++o)
        if (o != rank) others.push_back(o);
      EXPECT_EQ(sorted, others) << "rank " << rank;
      all.push_back(d);
    }
    return all;
  };
  const auto a = dests("1");
  EXPECT_EQ(a, dests("1"));
  EXPECT_NE(a, dests("2"));
  // Rotating node 0's order by the rank would give a2a-spread's structure:
  // a random order is not the same offset sequence on every node.
  int same_offsets = 0;
  for (std::size_t rank = 1; rank < a.size(); ++rank) {
    bool same = true;
    for (std::size_t i = 0; i < a[rank].size(); ++i)
      same = same && (a[rank][i] + a.size() - rank) % a.size() == a[0][i] % a.size();
    same_offsets += same ? 1 : 0;
  }
  EXPECT_EQ(same_offsets, 0);
}

TEST(A2aRandom, DataCheckUnderEveryDeliveryOrderWithoutBarriers) {
  for (const std::string topology : {"torus:4x4", "mesh:5x3", "torus:8x6", "mesh:2x2x2"})
    for (auto order : {DeliveryOrder::lazy, DeliveryOrder::eager, DeliveryOrder::random}) {
      const auto r = build_schedule("a2a-random", topology, {{"message_flits", "2"}});
      const ExecResult x = execute(r.schedule, {order, 5});
      const auto n = std::int64_t{r.topology->endpoint_count()};
      EXPECT_TRUE(check_data(r.schedule, x.memory).pass) << topology;
      EXPECT_EQ(x.messages, n * (n - 1));
      EXPECT_EQ(static_check(*r.topology, r.schedule).barriers, 0);
    }
  EXPECT_THAT(test::error_message<ConfigError>(
                  [&] { build_schedule("a2a-random", "torus:4x4", {{"order_seed", "-1"}}); }),
              HasSubstr("'order_seed'"));
}
