// The standard collectives (ring-allreduce, rd-allreduce, binomial-bcast,
// binomial-reduce, ring-allgather, ring-reduce-scatter, pairwise-alltoall):
// on several topologies and sizes the executor's result, under every
// delivery order, equals the collective's definition computed here from the
// inputs alone; the step count, the words each endpoint sends and the lower
// bound equal their closed forms (rd-allreduce's on any count, by MPICH's
// fold of the ranks above a power of two); bad sizes are refused naming the
// key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "collectives/static_check.hpp"
#include "tests/support/built_schedule.hpp"
#include "tests/support/error_message.hpp"

using namespace collnet;
using namespace collnet::collectives;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using test::build_schedule;
using test::BuiltSchedule;
using test::StaticCheck;

const std::vector<std::string> kTopologies = {"torus:4x4", "mesh:3x5", "leafspine:p=6", "tree:kary=2,n=15",
                                              "tree:random=10,seed=3", "mesh:7"};

// The test's own arithmetic for the reduction operators.
Word reduce_word(const std::string& op, const std::string& dtype, Word a, Word b) {
  if (dtype == "float64") {
    double x = 0, y = 0;
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
    double r = op == "sum" ? x + y : op == "product" ? x * y : op == "max" ? (x > y ? x : y) : (x < y ? x : y);
    Word w = 0;
    std::memcpy(&w, &r, 8);
    return w;
  }
  const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
  if (op == "sum") return a + b;
  if (op == "product") return a * b;
  if (op == "max") return static_cast<Word>(x > y ? x : y);
  return static_cast<Word>(x < y ? x : y);
}

// Chunk c of n of L words: floor(L/n), the first L mod n one more.
std::pair<std::uint32_t, std::uint32_t> chunk(std::uint32_t L, std::uint32_t n, std::uint32_t c) {
  const std::uint32_t base = L / n, extra = L % n;
  return {c * base + (c < extra ? c : extra), base + (c < extra ? 1 : 0)};
}

std::vector<ExecOptions> orders() {
  return {{DeliveryOrder::lazy, 1}, {DeliveryOrder::eager, 1}, {DeliveryOrder::random, 7},
          {DeliveryOrder::random, 12345}};
}

// Runs the schedule in every delivery order; each must pass the schedule's
// own data check and hold `want` (word addresses -> value) on every endpoint
// listed.
void expect_result(const BuiltSchedule& b, const std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>>& want,
                   const std::string& what) {
  for (const ExecOptions& o : orders()) {
    const ExecResult r = execute(b.schedule, o);
    const DataCheck check = check_data(b.schedule, r.memory);
    EXPECT_TRUE(check.pass) << what << ": " << (check.first_errors.empty() ? "" : check.first_errors[0]);
    for (const auto& [e, words] : want)
      for (const auto& [address, value] : words)
        ASSERT_EQ(r.memory.at(static_cast<std::size_t>(e)).at(address), value)
            << what << " endpoint " << e << " word " << address << " order " << static_cast<int>(o.order);
  }
}

// Network SENDs (to another endpoint) per endpoint: words and distinct tags.
struct Traffic {
  std::vector<std::int64_t> words;
  std::set<std::uint32_t> tags;
  std::int64_t sends = 0;
};

Traffic traffic(const Schedule& s) {
  Traffic t;
  t.words.assign(s.endpoints(), 0);
  for (std::size_t e = 0; e < s.endpoints(); ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send && d.dest != e) {
        t.words[e] += d.length;
        t.tags.insert(d.tag);
        ++t.sends;
      }
  return t;
}

Params with(std::uint32_t elements, const std::string& op = "sum", const std::string& dtype = "int64") {
  Params p;
  p.set("elements", std::to_string(elements));
  if (!op.empty()) p.set("op", op);
  if (!dtype.empty()) p.set("dtype", dtype);
  return p;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The fold over every rank of its initial vector, word by word.
std::vector<Word> fold_inputs(const Schedule& s, std::uint32_t L, const std::string& op, const std::string& dtype) {
  std::vector<Word> out(L);
  for (std::uint32_t i = 0; i < L; ++i) {
    Word acc = s.initial(0, i);
    for (std::size_t e = 1; e < s.endpoints(); ++e) acc = reduce_word(op, dtype, acc, s.initial(static_cast<EndpointId>(e), i));
    out[i] = acc;
  }
  return out;
}

}  // namespace

TEST(StandardCollectives, Registered) {
  for (const char* name : {"ring-allreduce", "rd-allreduce", "binomial-bcast", "binomial-reduce", "ring-allgather",
                           "ring-reduce-scatter", "pairwise-alltoall"})
    EXPECT_NE(lookup_algorithm(name), nullptr) << name;
}

TEST(StandardCollectives, AllreduceResultsEqualTheDefinition) {
  for (const char* algorithm : {"ring-allreduce", "rd-allreduce"})
    for (const auto& topo : kTopologies)
      for (const std::uint32_t L : {1u, 15u, 48u, 100u})
        for (const auto& [op, dtype] : std::vector<std::pair<std::string, std::string>>{
                 {"sum", "int64"}, {"max", "int64"}, {"product", "int64"}, {"sum", "float64"}, {"min", "float64"},
                 {"product", "float64"}}) {
          const auto topology = topology::make_topology(topo);
          const std::int32_t n = topology->endpoint_count();
          const BuiltSchedule b = build_schedule(algorithm, topo, with(L, op, dtype), StaticCheck::run);
          const std::vector<Word> want = fold_inputs(b.schedule, L, op, dtype);
          std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
          for (EndpointId e = 0; e < n; ++e)
            for (std::uint32_t i = 0; i < L; ++i) expect[e].emplace_back(i, want[i]);
          expect_result(b, expect, std::string(algorithm) + " " + topo + " L=" + std::to_string(L) + " " + op + " " + dtype);
        }
}

TEST(StandardCollectives, AllreduceInputsDifferPerRank) {
  // The fold is not trivially the inputs of one rank: the inputs differ.
  const BuiltSchedule b = build_schedule("ring-allreduce", "torus:4x4", with(16));
  EXPECT_NE(b.schedule.initial(0, 0), b.schedule.initial(1, 0));
  EXPECT_NE(b.schedule.initial(0, 0), b.schedule.initial(0, 1));
}

TEST(StandardCollectives, RingAllreduceClosedForms) {
  for (const auto& topo : kTopologies) {
    const auto n = static_cast<std::int64_t>(topology::make_topology(topo)->endpoint_count());
    for (const std::uint32_t L : {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(4 * n),
                                  static_cast<std::uint32_t>(3 * n + 5)}) {
      const BuiltSchedule b = build_schedule("ring-allreduce", topo, with(L), StaticCheck::run);
      const Traffic t = traffic(b.schedule);
      EXPECT_EQ(static_cast<std::int64_t>(t.tags.size()), 2 * (n - 1)) << topo;  // n-1 + n-1 steps
      EXPECT_EQ(b.report.phases.size(), t.tags.size()) << topo;
      EXPECT_EQ(t.sends, 2 * n * (n - 1)) << topo;
      for (std::int64_t e = 0; e < n; ++e) {
        // every chunk but two: 2L - c_i - c_{i+1}; 2(n-1)/n L when n divides L
        const auto ci = chunk(L, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(e)).second;
        const auto cn = chunk(L, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>((e + 1) % n)).second;
        EXPECT_EQ(t.words[static_cast<std::size_t>(e)], 2 * static_cast<std::int64_t>(L) - ci - cn) << topo << " e=" << e;
        if (L % n == 0) { EXPECT_EQ(t.words[static_cast<std::size_t>(e)], 2 * (n - 1) * L / n); }
      }
      EXPECT_EQ(b.schedule.lower_bound, ceil_div(2 * (n - 1) * L, n)) << topo;
      EXPECT_GE(b.report.static_time, b.schedule.lower_bound) << topo;
    }
  }
}

TEST(StandardCollectives, RdAllreduceClosedForms) {
  for (const auto& topo : {std::string("torus:4x4"), std::string("mesh:2x4"), std::string("torus:8x8"),
                           std::string("mesh:2")}) {
    const auto n = static_cast<std::int64_t>(topology::make_topology(topo)->endpoint_count());
    const std::int64_t log2n = std::countr_zero(static_cast<unsigned>(n));
    const auto L = static_cast<std::uint32_t>(3 * n);
    const BuiltSchedule b = build_schedule("rd-allreduce", topo, with(L), StaticCheck::run);
    const Traffic t = traffic(b.schedule);
    EXPECT_EQ(static_cast<std::int64_t>(t.tags.size()), 2 * log2n) << topo;
    EXPECT_EQ(t.sends, 2 * log2n * n) << topo;
    for (std::int64_t w : t.words) EXPECT_EQ(w, 2 * (n - 1) * L / n) << topo;  // L/2 + L/4 + ... both ways
    EXPECT_EQ(b.schedule.lower_bound, 2 * (n - 1) * L / n);
    // Every step pairs rank i with i XOR d: d = n/2, ..., 1, then 1, ..., n/2.
    for (std::int64_t i = 0; i < n; ++i) {
      std::vector<std::int64_t> partners;
      for (const Descriptor& d : b.schedule.programs[static_cast<std::size_t>(i)])
        if (d.opcode == Opcode::send && d.dest != static_cast<std::uint32_t>(i)) partners.push_back(d.dest ^ i);
      std::vector<std::int64_t> want;
      for (std::int64_t d = n / 2; d >= 1; d /= 2) want.push_back(d);
      for (std::int64_t d = 1; d < n; d *= 2) want.push_back(d);
      EXPECT_EQ(partners, want) << topo << " rank " << i;
    }
  }
}

TEST(StandardCollectives, RdAllreduceFoldsTheRanksAboveAPowerOfTwo) {
  // n not a power of two (MPICH's reduce-scatter/allgather allreduce): p =
  // the largest power of two below n, r = n - p. Even rank 2j < 2r sends its
  // vector to 2j + 1 and nothing else; participant v (rank 2v + 1 for v < r,
  // v + r otherwise) halves and doubles with participants v XOR d; rank
  // 2j + 1 sends the result back to 2j last.
  for (const auto& topo : {std::string("mesh:3"), std::string("mesh:7"), std::string("mesh:3x5"),
                           std::string("tree:random=10,seed=3"), std::string("dragonfly:p=1"),
                           std::string("leafspine:p=6")}) {
    const auto n = static_cast<std::int64_t>(topology::make_topology(topo)->endpoint_count());
    std::int64_t p = 1;
    while (2 * p <= n) p *= 2;
    ASSERT_LT(p, n) << topo;
    const std::int64_t r = n - p;
    std::int64_t log2p = 0;
    while ((std::int64_t{1} << log2p) < p) ++log2p;
    const auto L = static_cast<std::uint32_t>(3 * p);  // halves exactly down to 3 words
    const BuiltSchedule b = build_schedule("rd-allreduce", topo, with(L), StaticCheck::run);
    const Traffic t = traffic(b.schedule);
    EXPECT_EQ(static_cast<std::int64_t>(t.tags.size()), 2 * log2p + 2) << topo;
    EXPECT_EQ(t.sends, 2 * log2p * p + 2 * r) << topo;
    EXPECT_EQ(b.schedule.lower_bound, (2 * (n - 1) * L + n - 1) / n) << topo;
    auto rank_of = [&](std::int64_t v) { return v < r ? 2 * v + 1 : v + r; };
    const std::int64_t participant_words = 2 * (p - 1) * L / p;
    for (std::int64_t i = 0; i < n; ++i) {
      std::vector<std::int64_t> dests;
      for (const Descriptor& d : b.schedule.programs[static_cast<std::size_t>(i)])
        if (d.opcode == Opcode::send && d.dest != static_cast<std::uint32_t>(i)) dests.push_back(d.dest);
      std::vector<std::int64_t> want;
      std::int64_t words = L;
      if (i < 2 * r && i % 2 == 0) {
        want.push_back(i + 1);
      } else {
        const std::int64_t v = i < 2 * r ? i / 2 : i - r;
        for (std::int64_t d = p / 2; d >= 1; d /= 2) want.push_back(rank_of(v ^ d));
        for (std::int64_t d = 1; d < p; d *= 2) want.push_back(rank_of(v ^ d));
        words = participant_words;
        if (i < 2 * r) {
          want.push_back(i - 1);
          words += L;
        }
      }
      EXPECT_EQ(dests, want) << topo << " rank " << i;
      EXPECT_EQ(t.words[static_cast<std::size_t>(i)], words) << topo << " rank " << i;
    }
  }
}

TEST(StandardCollectives, BinomialBcastEqualsTheRootsData) {
  for (const auto& topo : kTopologies) {
    const std::int32_t n = topology::make_topology(topo)->endpoint_count();
    for (const std::int32_t root : {0, 1, n - 1, n / 2}) {
      for (const std::uint32_t L : {1u, 15u, 64u}) {
        Params p;
        p.set("elements", std::to_string(L));
        p.set("root", std::to_string(root));
        const BuiltSchedule b = build_schedule("binomial-bcast", topo, p, StaticCheck::run);
        // Only the root starts with data.
        for (EndpointId e = 0; e < n; ++e)
          if (e != root) { EXPECT_EQ(b.schedule.initial(e, 0), 0u); }
        EXPECT_NE(b.schedule.initial(root, 0), 0u);
        std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
        for (EndpointId e = 0; e < n; ++e)
          for (std::uint32_t i = 0; i < L; ++i) expect[e].emplace_back(i, b.schedule.initial(root, i));
        expect_result(b, expect, "bcast " + topo + " root " + std::to_string(root));
        // ceil(log2 n) steps; n - 1 messages of L words; the root sends one per step.
        const Traffic t = traffic(b.schedule);
        const auto steps = static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(n - 1)));
        EXPECT_EQ(t.tags.size(), steps) << topo;
        EXPECT_EQ(t.sends, n - 1);
        EXPECT_EQ(t.words[static_cast<std::size_t>(root)], static_cast<std::int64_t>(steps * L));
        std::int64_t total = 0;
        for (auto w : t.words) total += w;
        EXPECT_EQ(total, static_cast<std::int64_t>(n - 1) * L);
        EXPECT_EQ(b.schedule.lower_bound, static_cast<std::int64_t>(L));
      }
    }
  }
}

TEST(StandardCollectives, BinomialReduceHoldsTheFoldAtTheRoot) {
  for (const auto& topo : kTopologies) {
    const std::int32_t n = topology::make_topology(topo)->endpoint_count();
    for (const std::int32_t root : {0, n - 1, n / 3}) {
      for (const auto& [op, dtype] : std::vector<std::pair<std::string, std::string>>{
               {"sum", "int64"}, {"min", "int64"}, {"product", "float64"}}) {
        const std::uint32_t L = 20;
        Params p = with(L, op, dtype);
        p.set("root", std::to_string(root));
        const BuiltSchedule b = build_schedule("binomial-reduce", topo, p, StaticCheck::run);
        const std::vector<Word> want = fold_inputs(b.schedule, L, op, dtype);
        std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
        for (std::uint32_t i = 0; i < L; ++i) expect[root].emplace_back(i, want[i]);
        expect_result(b, expect, "reduce " + topo + " " + op);
        const Traffic t = traffic(b.schedule);
        EXPECT_EQ(t.tags.size(), static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(n - 1)))) << topo;
        for (std::int32_t e = 0; e < n; ++e)  // every rank but the root sends its partial result once
          EXPECT_EQ(t.words[static_cast<std::size_t>(e)], e == root ? 0 : static_cast<std::int64_t>(L)) << topo;
        EXPECT_EQ(b.schedule.lower_bound, static_cast<std::int64_t>(L));
      }
    }
  }
}

TEST(StandardCollectives, RootOutOfRangeIsRefusedNamingTheKey) {
  for (const char* algorithm : {"binomial-bcast", "binomial-reduce"}) {
    Params p;
    p.set("root", "16");
    const std::string msg =
        test::error_message<ConfigError>([&] { (void)build_schedule(algorithm, "torus:4x4", p); });
    EXPECT_THAT(msg, AllOf(HasSubstr("root"), HasSubstr("15"))) << algorithm;
  }
}

TEST(StandardCollectives, RingReduceScatterGivesEachRankItsChunk) {
  for (const auto& topo : kTopologies) {
    const auto n = static_cast<std::uint32_t>(topology::make_topology(topo)->endpoint_count());
    for (const std::uint32_t L : {n, 2 * n + 3, 50u}) {
      const BuiltSchedule b = build_schedule("ring-reduce-scatter", topo, with(L, "max", "int64"), StaticCheck::run);
      const std::vector<Word> want = fold_inputs(b.schedule, L, "max", "int64");
      std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
      for (std::uint32_t e = 0; e < n; ++e) {
        const auto [offset, length] = chunk(L, n, e);
        for (std::uint32_t i = offset; i < offset + length; ++i)
          expect[static_cast<EndpointId>(e)].emplace_back(i, want[i]);
      }
      expect_result(b, expect, "reduce-scatter " + topo);
      const Traffic t = traffic(b.schedule);
      if (L >= n) { EXPECT_EQ(t.tags.size(), n - 1) << topo; }
      for (std::uint32_t e = 0; e < n; ++e) {
        EXPECT_EQ(t.words[e], static_cast<std::int64_t>(L - chunk(L, n, e).second)) << topo;  // all chunks but its own
        if (L % n == 0) { EXPECT_EQ(t.words[e], static_cast<std::int64_t>((n - 1) * L / n)); }
      }
      EXPECT_EQ(b.schedule.lower_bound, ceil_div(static_cast<std::int64_t>(n - 1) * L, n));
    }
  }
}

TEST(StandardCollectives, RingAllgatherGathersEveryChunk) {
  for (const auto& topo : kTopologies) {
    const auto n = static_cast<std::uint32_t>(topology::make_topology(topo)->endpoint_count());
    for (const std::uint32_t L : {n, 3 * n + 1, 7u}) {
      Params p;
      p.set("elements", std::to_string(L));
      const BuiltSchedule b = build_schedule("ring-allgather", topo, p, StaticCheck::run);
      // Chunk c of the result is chunk c of rank c's input; rank c starts
      // with nothing outside its own chunk.
      std::vector<Word> want(L);
      for (std::uint32_t c = 0; c < n; ++c) {
        const auto [offset, length] = chunk(L, n, c);
        for (std::uint32_t i = 0; i < L; ++i) {
          const bool mine = i >= offset && i < offset + length;
          if (mine) want[i] = b.schedule.initial(static_cast<EndpointId>(c), i);
          else { EXPECT_EQ(b.schedule.initial(static_cast<EndpointId>(c), i), 0u); }
        }
      }
      std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
      for (std::uint32_t e = 0; e < n; ++e)
        for (std::uint32_t i = 0; i < L; ++i) expect[static_cast<EndpointId>(e)].emplace_back(i, want[i]);
      expect_result(b, expect, "allgather " + topo);
      const Traffic t = traffic(b.schedule);
      if (L >= n) { EXPECT_EQ(t.tags.size(), n - 1) << topo; }
      for (std::uint32_t e = 0; e < n; ++e)  // all chunks but the next rank's
        EXPECT_EQ(t.words[e], static_cast<std::int64_t>(L - chunk(L, n, (e + 1) % n).second)) << topo;
      EXPECT_EQ(b.schedule.lower_bound, ceil_div(static_cast<std::int64_t>(n - 1) * L, n));
    }
  }
}

TEST(StandardCollectives, PairwiseAlltoallDeliversEveryBlock) {
  for (const auto& topo : kTopologies) {
    const auto n = static_cast<std::uint32_t>(topology::make_topology(topo)->endpoint_count());
    for (const std::uint32_t m : {1u, 5u}) {
      Params p;
      p.set("message_flits", std::to_string(m));
      const BuiltSchedule b = build_schedule("pairwise-alltoall", topo, p, StaticCheck::run);
      // Area T of rank O's send region (at T*m) ends in area O of rank T's
      // result region (at n*m + O*m).
      std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> expect;
      for (std::uint32_t target = 0; target < n; ++target)
        for (std::uint32_t origin = 0; origin < n; ++origin)
          for (std::uint32_t w = 0; w < m; ++w)
            expect[static_cast<EndpointId>(target)].emplace_back(
                n * m + origin * m + w, b.schedule.initial(static_cast<EndpointId>(origin), target * m + w));
      expect_result(b, expect, "alltoall " + topo);
      const Traffic t = traffic(b.schedule);
      EXPECT_EQ(t.tags.size(), n - 1) << topo;
      const bool pow2 = std::has_single_bit(n);
      for (std::uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(t.words[i], static_cast<std::int64_t>((n - 1) * m)) << topo;
        std::vector<std::uint32_t> dests, want;
        for (const Descriptor& d : b.schedule.programs[i])
          if (d.opcode == Opcode::send && d.dest != i) dests.push_back(d.dest);
        for (std::uint32_t s = 1; s < n; ++s) want.push_back(pow2 ? (i ^ s) : (i + s) % n);
        EXPECT_EQ(dests, want) << topo << " rank " << i;
      }
      EXPECT_GE(b.schedule.lower_bound, static_cast<std::int64_t>((n - 1) * m));
    }
  }
}

TEST(StandardCollectives, TooManyElementsAreRefusedNamingTheKey) {
  for (const char* algorithm : {"ring-allreduce", "rd-allreduce", "binomial-bcast", "ring-allgather"}) {
    Params p;
    p.set("elements", "70000");
    const std::string msg =
        test::error_message<ConfigError>([&] { (void)build_schedule(algorithm, "torus:4x4", p); });
    EXPECT_THAT(msg, HasSubstr("elements")) << algorithm;
  }
  Params p;
  p.set("op", "average");
  EXPECT_THAT(test::error_message<ConfigError>([&] { (void)build_schedule("ring-allreduce", "torus:4x4", p); }),
              AllOf(HasSubstr("'op'"), HasSubstr("sum")));
}

TEST(StandardCollectives, RunsOnBoardsToo) {
  // Every topology form: the boards' main and aggregation units are ranks.
  for (const char* algorithm : {"ring-allreduce", "binomial-bcast", "pairwise-alltoall"}) {
    const BuiltSchedule b = build_schedule(algorithm, "boards:2x1x1x1", {}, StaticCheck::run);
    EXPECT_EQ(b.schedule.endpoints(), 24u);
    for (const ExecOptions& o : orders()) EXPECT_TRUE(check_data(b.schedule, execute(b.schedule, o).memory).pass);
  }
}

TEST(StandardCollectives, FootprintCountsTheBusiestRanksSends) {
  // The size check before a run reads the footprint: its SENDs are those of
  // the busiest rank's program (network SENDs), its words the vector.
  for (const auto& topo : {std::string("torus:4x4"), std::string("mesh:3x5"), std::string("leafspine:p=6")})
    for (const char* algorithm : {"ring-allreduce", "rd-allreduce", "binomial-bcast", "binomial-reduce",
                                  "ring-allgather", "ring-reduce-scatter", "pairwise-alltoall"}) {
      const auto topology = topology::make_topology(topo);
      Params p;
      if (std::string(algorithm) != "pairwise-alltoall") p.set("elements", "100");
      const Footprint f = find_algorithm(algorithm).footprint(*topology, p);
      const BuiltSchedule b = build_schedule(algorithm, topo, p);
      std::uint64_t busiest = 0;
      for (std::size_t e = 0; e < b.schedule.endpoints(); ++e) {
        std::uint64_t sends = 0;
        for (const Descriptor& d : b.schedule.programs[e])
          if (d.opcode == Opcode::send && d.dest != e) ++sends;
        busiest = std::max(busiest, sends);
      }
      EXPECT_EQ(f.sends, busiest) << algorithm << " " << topo;
      if (std::string(algorithm) != "pairwise-alltoall") { EXPECT_EQ(f.words, 100u) << algorithm; }
    }
}

TEST(StandardCollectives, RanksOnTheMainUnitsOfBoardsLeaveTheAggregationUnitsIdle) {
  // ranks: main_units: 16 ranks on boards:2x1x1x1 (endpoints 0..7 and
  // 12..19). The allreduce's result, computed here from the main units'
  // inputs alone, is on every main unit; aggregation units hold no data,
  // issue no SEND and are not checked.
  Params p = with(48);
  p.set("ranks", "main_units");
  for (const char* algorithm : {"ring-allreduce", "rd-allreduce"}) {
    const BuiltSchedule b = build_schedule(algorithm, "boards:2x1x1x1", p, StaticCheck::run);
    ASSERT_EQ(b.schedule.endpoints(), 24u);
    std::vector<EndpointId> mains;
    for (EndpointId e = 0; e < 24; ++e) {
      const bool main_unit = e % 12 < 8;
      if (main_unit) mains.push_back(e);
      if (!main_unit) {
        EXPECT_EQ(b.schedule.programs[static_cast<std::size_t>(e)].size(), 1u) << algorithm << " " << e;  // END
        EXPECT_TRUE(b.schedule.expected(e).empty());
        EXPECT_EQ(b.schedule.initial(e, 0), 0u);
      }
    }
    std::vector<Word> sum(48, 0);
    for (const EndpointId e : mains)
      for (std::uint32_t i = 0; i < 48; ++i) sum[i] += b.schedule.initial(e, i);
    std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> want;
    for (const EndpointId e : mains)
      for (std::uint32_t i = 0; i < 48; ++i) want[e].push_back({i, sum[i]});
    expect_result(b, want, algorithm);
    // The main units' inputs differ from one another (rank r's vector).
    EXPECT_NE(b.schedule.initial(mains[0], 0), b.schedule.initial(mains[8], 0));
    // Every SEND goes to a main unit.
    for (const auto& prog : b.schedule.programs)
      for (const Descriptor& d : prog)
        if (d.opcode == Opcode::send) {
          EXPECT_LT(d.dest % 12, 8u) << algorithm;
        }
  }
}

TEST(StandardCollectives, ProcessesTakeTheFirstPEndpoints) {
  // processes: 8 on torus:4x4: ranks 0..7 on endpoints 0..7; the ring runs
  // 2 x 7 steps among them and endpoints 8..15 stay idle.
  Params p = with(16);
  p.set("processes", "8");
  const BuiltSchedule b = build_schedule("ring-allreduce", "torus:4x4", p, StaticCheck::run);
  const Traffic t = traffic(b.schedule);
  EXPECT_EQ(t.tags.size(), 14u);
  for (std::size_t e = 8; e < 16; ++e) EXPECT_EQ(t.words[e], 0) << e;
  for (std::size_t e = 0; e < 8; ++e) EXPECT_EQ(t.words[e], 2 * 16 - 2 * 2) << e;  // 2L minus its and the next chunk
  // The sum over the first `ranks` endpoints' inputs, on each of them.
  auto sum_on_the_first = [](const Schedule& s, EndpointId ranks) {
    std::vector<Word> sum(16, 0);
    for (EndpointId e = 0; e < ranks; ++e)
      for (std::uint32_t i = 0; i < 16; ++i) sum[i] += s.initial(e, i);
    std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> want;
    for (EndpointId e = 0; e < ranks; ++e)
      for (std::uint32_t i = 0; i < 16; ++i) want[e].push_back({i, sum[i]});
    return want;
  };
  expect_result(b, sum_on_the_first(b.schedule, 8), "ring-allreduce, 8 processes");
  EXPECT_EQ(b.schedule.lower_bound, ceil_div(2 * 7 * 16, 8));
  // The footprint counts the busiest rank's SENDs among the 8.
  const auto topology = topology::make_topology("torus:4x4");
  EXPECT_EQ(find_algorithm("ring-allreduce").footprint(*topology, p).sends, 14u);
  // rd-allreduce on 12 of them: 8 participants, ranks 0..7 folding in pairs;
  // the busiest rank (an odd one below 8) sends 2 log2 8 + 1 = 7 times.
  Params q = with(16);
  q.set("processes", "12");
  const BuiltSchedule rd = build_schedule("rd-allreduce", "torus:4x4", q, StaticCheck::run);
  for (std::size_t e = 12; e < 16; ++e) EXPECT_EQ(traffic(rd.schedule).words[e], 0) << e;
  expect_result(rd, sum_on_the_first(rd.schedule, 12), "rd-allreduce, 12 processes");
  EXPECT_EQ(find_algorithm("rd-allreduce").footprint(*topology, q).sends, 7u);
}

TEST(StandardCollectives, BinomialBcastBroadcastsFromLogicalRootWhenRootIsUnset) {
  // In a tree-bcast scenario `root` is the physical root; binomial-bcast
  // then takes the broadcaster from `logical_root`, and `root` wins when set.
  Params p = with(8, "", "");
  p.set("logical_root", "5");
  const BuiltSchedule b = build_schedule("binomial-bcast", "tree:kary=2,n=7", p, StaticCheck::run);
  for (EndpointId e = 0; e < 7; ++e) EXPECT_EQ(b.schedule.initial(e, 0) != 0, e == 5) << e;
  std::map<EndpointId, std::vector<std::pair<std::uint32_t, Word>>> want;
  for (EndpointId e = 0; e < 7; ++e) want[e].push_back({3, b.schedule.initial(5, 3)});
  expect_result(b, want, "binomial-bcast from logical_root 5");
  p.set("root", "2");
  const BuiltSchedule r = build_schedule("binomial-bcast", "tree:kary=2,n=7", p);
  for (EndpointId e = 0; e < 7; ++e) EXPECT_EQ(r.schedule.initial(e, 0) != 0, e == 2) << e;
}

TEST(StandardCollectives, BadRanksAndProcessesAreRefusedNamingTheKey) {
  Params p;
  p.set("ranks", "main_units");
  EXPECT_THAT(test::error_message<ConfigError>([&] { (void)build_schedule("ring-allreduce", "torus:4x4", p); }),
              AllOf(HasSubstr("'ranks'"), HasSubstr("boards"), HasSubstr("all, main_units")));
  p.set("ranks", "some");
  EXPECT_THAT(test::error_message<ConfigError>([&] { (void)build_schedule("ring-allreduce", "torus:4x4", p); }),
              HasSubstr("ranks"));
  Params q;
  q.set("ranks", "main_units");
  q.set("processes", "9");  // boards:1x1x1x1 has 8 main units
  EXPECT_THAT(test::error_message<ConfigError>([&] { (void)build_schedule("binomial-bcast", "boards:1x1x1x1", q); }),
              HasSubstr("processes"));
}
