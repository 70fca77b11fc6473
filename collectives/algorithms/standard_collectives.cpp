#include "collectives/algorithms/standard_collectives.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "collectives/algorithms/a2a_common.hpp"
#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "collectives/executor.hpp"
#include "topology/boards.hpp"
#include "topology/grid.hpp"

namespace collnet::collectives {

Chunk standard_chunk(std::uint32_t elements, std::int32_t n, std::int32_t c) {
  const auto un = static_cast<std::uint32_t>(n);
  const auto uc = static_cast<std::uint32_t>(c);
  const std::uint32_t base = elements / un;
  const std::uint32_t extra = elements % un;
  return Chunk{uc * base + std::min(uc, extra), base + (uc < extra ? 1U : 0U)};
}

namespace {

const char* const kAnyTopology = "any";

/// What a standard collective reads: the data (elements, op, dtype) and the
/// ranks (keys `ranks` and `processes`): rank r runs on endpoint at[r].
struct Setup {
  ReductionSetup data;
  std::int32_t n = 0;
  std::vector<EndpointId> at;
  std::size_t endpoints = 0;
};

const Key& ranks_key() {
  static const Key key = Key::choice("ranks",
                                     "standard collectives: which endpoints are ranks, rank r = the r-th of them in "
                                     "endpoint order: every endpoint, or the main units of a boards topology (the "
                                     "units that hold the data in hd-allreduce; the aggregation units only forward)",
                                     "all", {"all", "main_units"});
  return key;
}

const Key& processes_key() {
  static const Key key = [] {
    for (const Key& k : reduction_keys())
      if (k.name == "processes") return k;
    throw std::logic_error("reduction_keys: no key processes");
  }();
  return key;
}

/// The endpoints of the ranks: those `ranks` selects, the first `processes` of them.
std::vector<EndpointId> rank_endpoints(const topology::Topology& topology, const Params& params) {
  std::vector<EndpointId> candidates;
  const bool main_units = ranks_key().choice(params) == "main_units";
  if (main_units && dynamic_cast<const topology::Boards*>(&topology) == nullptr)
    throw ConfigError(fmt::format("key 'ranks': main_units needs a boards topology (boards:WxXxYxZ), not '{}'; "
                                  "accepted values: all, main_units (boards only)",
                                  topology.name()));
  for (EndpointId e = 0; e < static_cast<EndpointId>(topology.endpoint_count()); ++e)
    if (!main_units || topology::Boards::is_main_unit(e)) candidates.push_back(e);
  const auto count = static_cast<std::size_t>(
      processes_key().integer(params, static_cast<std::int64_t>(candidates.size()), 1,
                              static_cast<std::int64_t>(candidates.size())));
  candidates.resize(count);
  return candidates;
}

Setup read_setup(const topology::Topology& topology, const Params& params, bool reduction) {
  Setup s;
  s.at = rank_endpoints(topology, params);
  s.endpoints = static_cast<std::size_t>(topology.endpoint_count());
  s.n = static_cast<std::int32_t>(s.at.size());
  s.data.elements = static_cast<std::uint32_t>(reduction_elements_key().integer(params));
  if (reduction) {
    const auto op = reduction_op_key().choice(params);
    s.data.op = op == "sum" ? ReceiveOp::sum : op == "min" ? ReceiveOp::min : op == "max" ? ReceiveOp::max
                                                                                           : ReceiveOp::product;
    s.data.dtype = reduction_dtype_key().choice(params) == "float64" ? DataType::float64 : DataType::int64;
  }
  return s;
}

std::int32_t mod(std::int64_t a, std::int32_t n) { return static_cast<std::int32_t>(((a % n) + n) % n); }

/// A program under construction: network SENDs carry the setup's dtype.
struct Emitter {
  Program& program;
  DataType dtype;
  void send(std::int32_t dest, Chunk c, std::uint32_t tag, ReceiveOp op = ReceiveOp::copy) {
    if (c.length == 0) return;  // an empty chunk is not sent
    Descriptor d = Descriptor::send(static_cast<std::uint32_t>(dest), c.offset, c.offset, c.length, tag);
    d.op = op;
    d.dtype = dtype;
    program.push_back(d);
  }
  void wait(Chunk c, std::uint32_t tag) {
    if (c.length != 0) program.push_back(Descriptor::wait(tag, 1));
  }
};

/// The fold over every rank of word i of its vector, in rank order (the
/// collective's definition).
std::shared_ptr<std::vector<Word>> fold(const Setup& s) {
  auto result = std::make_shared<std::vector<Word>>(s.data.elements);
  for (std::uint32_t i = 0; i < s.data.elements; ++i) {
    Word acc = reduction_input(s.data, 0, i);
    for (int r = 1; r < s.n; ++r) acc = combine(s.data.op, s.data.dtype, acc, reduction_input(s.data, r, i));
    (*result)[i] = acc;
  }
  return result;
}

Schedule empty_schedule(const std::string& name, const Setup& s) {
  Schedule sc;
  sc.algorithm = name;
  sc.programs.assign(static_cast<std::size_t>(s.n), {});
  sc.memory_words = s.data.elements;
  sc.elements = static_cast<std::int64_t>(s.data.elements);
  return sc;
}

void finish(Schedule& sc) {
  for (auto& p : sc.programs) p.push_back(Descriptor::end());
}

/// Moves a schedule built over ranks 0..n-1 onto their endpoints: rank r's
/// program, initial memory and expected result go to endpoint at[r]; every
/// other endpoint runs no SEND and is not checked. Nothing changes where the
/// ranks are every endpoint.
void place(Schedule& sc, const Setup& s) {
  bool identity = s.at.size() == s.endpoints;
  for (std::size_t r = 0; identity && r < s.at.size(); ++r) identity = s.at[r] == static_cast<EndpointId>(r);
  if (identity) return;
  std::vector<Program> programs(s.endpoints, Program{Descriptor::end()});
  auto rank_of = std::make_shared<std::vector<std::int32_t>>(s.endpoints, -1);
  for (std::size_t r = 0; r < s.at.size(); ++r) {
    Program p = std::move(sc.programs[r]);
    p.update([&](Descriptor& d) {
      if (d.opcode == Opcode::send) d.dest = static_cast<std::uint32_t>(s.at[d.dest]);
    });
    programs[s.at[r]] = std::move(p);
    (*rank_of)[s.at[r]] = static_cast<std::int32_t>(r);
  }
  sc.programs = std::move(programs);
  sc.node_memory_words.assign(s.endpoints, 0);
  for (const EndpointId e : s.at) sc.node_memory_words[e] = sc.memory_words;
  auto initial = std::move(sc.initial);
  auto expected = std::move(sc.expected);
  sc.initial = [rank_of, initial](EndpointId e, std::uint32_t address) -> Word {
    const std::int32_t r = (*rank_of)[e];
    return r < 0 ? 0 : initial(static_cast<EndpointId>(r), address);
  };
  sc.expected = [rank_of, expected](EndpointId e) {
    const std::int32_t r = (*rank_of)[e];
    return r < 0 ? std::vector<Region>{} : expected(static_cast<EndpointId>(r));
  };
}

/// Every rank starts with its own vector.
void own_vectors(Schedule& sc, const Setup& s) {
  const ReductionSetup data = s.data;
  sc.initial = [data](EndpointId e, std::uint32_t address) -> Word {
    return address < data.elements ? reduction_input(data, static_cast<int>(e), address) : 0;
  };
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The end of a reducing builder: every program ended, every rank starting
/// with its own vector, the expected regions made by `expected_of` from the
/// fold of all vectors (the collective's definition), the lower bound, and
/// the ranks placed on their endpoints.
template <class ExpectedOf>
Schedule finish_reduction(Schedule sc, const Setup& s, std::int64_t lower_bound, ExpectedOf expected_of) {
  finish(sc);
  own_vectors(sc, s);
  sc.expected = expected_of(fold(s));
  sc.lower_bound = lower_bound;
  place(sc, s);
  return sc;
}

/// Every rank expects the whole reduced vector.
auto everywhere(std::shared_ptr<std::vector<Word>> result) {
  return [result](EndpointId) { return std::vector<Region>{{0, *result}}; };
}

// One pass around the ring: at step s (tag first_tag + s) rank i sends
// chunk (i-s-lag) mod n to rank i+1 with `op`; before step s >= 1 it waits
// for that chunk, which rank i-1 sent at step s-1; its last wait is for
// chunk (i-n+1-lag), the one rank i-1 sent at the last step.
//   reduce-scatter: lag 1, op the reduction: rank i adds its copy of chunk
//                   (i-s-1) into rank i+1's; after n-1 steps rank i holds
//                   chunk i of the fold.
//   allgather:      lag 0, op copy: rank i passes on chunk (i-s); the last
//                   chunk to arrive is i+1.
void ring_pass(Schedule& sc, const Setup& s, std::uint32_t first_tag, std::int32_t lag, ReceiveOp op) {
  const std::int32_t n = s.n;
  const std::uint32_t L = s.data.elements;
  for (std::int32_t i = 0; i < n; ++i) {
    Emitter out{sc.programs[static_cast<std::size_t>(i)], s.data.dtype};
    for (std::int32_t step = 0; step < n - 1; ++step) {
      const std::uint32_t tag = first_tag + static_cast<std::uint32_t>(step);
      const Chunk c = standard_chunk(L, n, mod(i - step - lag, n));
      if (step > 0) out.wait(c, tag - 1);
      out.send(mod(i + 1, n), c, tag, op);
    }
    if (n > 1) out.wait(standard_chunk(L, n, mod(i - n + 1 - lag, n)), first_tag + static_cast<std::uint32_t>(n - 2));
  }
}

void ring_reduce_scatter(Schedule& sc, const Setup& s, std::uint32_t first_tag) {
  ring_pass(sc, s, first_tag, 1, s.data.op);
}

void ring_allgather(Schedule& sc, const Setup& s, std::uint32_t first_tag) {
  ring_pass(sc, s, first_tag, 0, ReceiveOp::copy);
}

Schedule build_ring_allreduce(const topology::Topology& topology, const Params& params) {
  const Setup s = read_setup(topology, params, true);
  if (2 * static_cast<std::int64_t>(s.n - 1) > static_cast<std::int64_t>(descriptor_layout::tag.max()) + 1)
    throw ConfigError(fmt::format("key 'topology': ring-allreduce on '{}' needs 2(n-1) = {} steps; the descriptor's "
                                  "tag counts at most {} (accepted: up to {} endpoints)",
                                  topology.name(), 2 * static_cast<std::int64_t>(s.n - 1),
                                  descriptor_layout::tag.max() + 1, (descriptor_layout::tag.max() + 1) / 2 + 1));
  Schedule sc = empty_schedule("ring-allreduce", s);
  ring_reduce_scatter(sc, s, 0);
  ring_allgather(sc, s, static_cast<std::uint32_t>(std::max(s.n - 1, 0)));
  return finish_reduction(std::move(sc), s, ceil_div(2LL * (s.n - 1) * s.data.elements, s.n), everywhere);
}

Schedule build_ring_reduce_scatter(const topology::Topology& topology, const Params& params) {
  const Setup s = read_setup(topology, params, true);
  Schedule sc = empty_schedule("ring-reduce-scatter", s);
  ring_reduce_scatter(sc, s, 0);
  const std::uint32_t L = s.data.elements;
  const std::int32_t n = s.n;
  return finish_reduction(std::move(sc), s, ceil_div(static_cast<std::int64_t>(n - 1) * L, n), [L, n](auto result) {
    return [result, L, n](EndpointId e) {
      const Chunk c = standard_chunk(L, n, static_cast<std::int32_t>(e));
      return std::vector<Region>{
          {c.offset, std::vector<Word>(result->begin() + c.offset, result->begin() + c.offset + c.length)}};
    };
  });
}

Schedule build_ring_allgather(const topology::Topology& topology, const Params& params) {
  const Setup s = read_setup(topology, params, false);
  Schedule sc = empty_schedule("ring-allgather", s);
  ring_allgather(sc, s, 0);
  finish(sc);
  const ReductionSetup data = s.data;
  const std::int32_t n = s.n;
  sc.initial = [data, n](EndpointId e, std::uint32_t address) -> Word {
    const Chunk c = standard_chunk(data.elements, n, static_cast<std::int32_t>(e));
    return address >= c.offset && address < c.offset + c.length ? reduction_input(data, static_cast<int>(e), address)
                                                                : 0;
  };
  auto gathered = std::make_shared<std::vector<Word>>();
  for (std::int32_t r = 0; r < n; ++r) {
    const Chunk c = standard_chunk(data.elements, n, r);
    for (std::uint32_t i = c.offset; i < c.offset + c.length; ++i) gathered->push_back(reduction_input(data, r, i));
  }
  sc.expected = [gathered](EndpointId) { return std::vector<Region>{{0, *gathered}}; };
  sc.lower_bound = ceil_div(static_cast<std::int64_t>(s.n - 1) * s.data.elements, s.n);
  place(sc, s);
  return sc;
}

// Recursive halving / doubling over p = the largest power of two <= n
// participants. Where n is not a power of two, the first 2r ranks (r = n - p)
// fold in pairs first (MPICH's reduce-scatter/allgather allreduce): at tag 0
// the even rank 2j adds its whole vector into rank 2j + 1's copy and sits
// out; participant v is rank 2v + 1 for v < r, else rank v + r. Halving step
// k pairs participants v and v XOR (p >> (k+1)); both hold the same block,
// the one whose bit is 0 keeps the first ceil(len/2) words, the other the
// rest; each adds the half it gives up into its partner's copy and waits for
// its partner's half before the next step. Doubling step j undoes halving
// step K-1-j: the partners exchange the blocks they hold by copy. Last, rank
// 2j + 1 copies the result to rank 2j.
Schedule build_rd_allreduce(const topology::Topology& topology, const Params& params) {
  const Setup s = read_setup(topology, params, true);
  const std::int32_t n = s.n;
  const auto p = static_cast<std::int32_t>(std::bit_floor(static_cast<std::uint32_t>(n)));
  const std::int32_t r = n - p;
  const std::uint32_t fold_tags = r > 0 ? 1 : 0;  // the pairs' fold (tag 0), before the halving
  const int K = std::countr_zero(static_cast<std::uint32_t>(p));
  const std::uint32_t last_tag = fold_tags + static_cast<std::uint32_t>(2 * K);  // the copy back
  const std::uint32_t L = s.data.elements;
  const Chunk all{0, L};
  auto rank_of = [r](std::int32_t v) { return v < r ? 2 * v + 1 : v + r; };
  Schedule sc = empty_schedule("rd-allreduce", s);
  for (std::int32_t i = 0; i < n; ++i) {
    Emitter out{sc.programs[static_cast<std::size_t>(i)], s.data.dtype};
    if (i < 2 * r && i % 2 == 0) {  // folds into rank i + 1, then takes the result from it
      out.send(i + 1, all, 0, s.data.op);
      out.wait(all, last_tag);
      continue;
    }
    if (i < 2 * r) out.wait(all, 0);
    const std::int32_t v = i < 2 * r ? i / 2 : i - r;
    // held[k + 1]: the block participant v holds after halving step k; held[0] = all.
    std::vector<Chunk> held{all};
    std::vector<Chunk> given;
    for (int k = 0; k < K; ++k) {
      const std::int32_t d = p >> (k + 1);
      const Chunk b = held.back();
      const Chunk first{b.offset, b.length - b.length / 2};
      const Chunk second{b.offset + first.length, b.length / 2};
      const bool upper = (v & d) != 0;
      const Chunk keep = upper ? second : first;
      const Chunk give = upper ? first : second;
      const auto tag = fold_tags + static_cast<std::uint32_t>(k);
      out.send(rank_of(v ^ d), give, tag, s.data.op);
      out.wait(keep, tag);
      held.push_back(keep);
      given.push_back(give);
    }
    for (int j = 0; j < K; ++j) {
      const int k = K - 1 - j;
      const std::int32_t d = p >> (k + 1);
      const auto tag = fold_tags + static_cast<std::uint32_t>(K + j);
      out.send(rank_of(v ^ d), held[static_cast<std::size_t>(k + 1)], tag);
      out.wait(given[static_cast<std::size_t>(k)], tag);
    }
    if (i < 2 * r) out.send(i - 1, all, last_tag);
  }
  return finish_reduction(std::move(sc), s, ceil_div(2LL * (n - 1) * L, n), everywhere);
}

/// Binomial tree over relative ranks v = (rank - root) mod n: the parent of
/// v > 0 is v with its lowest set bit cleared; its children are v + m for
/// every power of two m below that bit (every m for v = 0) with v + m < n.
int ceil_log2(std::int32_t n) { return n <= 1 ? 0 : std::bit_width(static_cast<std::uint32_t>(n - 1)); }

std::int32_t read_root(const Params& params, std::int32_t n);
std::int32_t read_bcast_root(const Params& params, std::int32_t n);

/// What binomial-bcast and binomial-reduce start from: the setup, the root,
/// K = ceil(log2 n) steps, the whole vector as one chunk.
struct Binomial {
  Setup s;
  std::int32_t n = 0;
  std::int32_t root = 0;
  int K = 0;
  Chunk all;

  /// Calls step(v, out, low) for every relative rank v: `out` appends to the
  /// program of v's endpoint, `low` is v's lowest set bit (2^K for the root).
  template <class Step>
  void each_rank(Schedule& sc, Step step) const {
    for (std::int32_t v = 0; v < n; ++v) {
      Emitter out{sc.programs[static_cast<std::size_t>(mod(v + root, n))], s.data.dtype};
      step(v, out, v == 0 ? (1 << K) : (v & -v));
    }
  }
};

Binomial read_binomial(const topology::Topology& topology, const Params& params, bool reduction,
                       std::int32_t (*read_root_of)(const Params&, std::int32_t)) {
  Binomial b;
  b.s = read_setup(topology, params, reduction);
  b.n = b.s.n;
  b.root = read_root_of(params, b.n);
  b.K = ceil_log2(b.n);
  b.all = Chunk{0, b.s.data.elements};
  return b;
}

/// The step tag of distance m = 2^j.
std::uint32_t tag_of(std::int32_t m) { return static_cast<std::uint32_t>(std::countr_zero(static_cast<std::uint32_t>(m))); }

Schedule build_binomial_bcast(const topology::Topology& topology, const Params& params) {
  const Binomial b = read_binomial(topology, params, false, &read_bcast_root);
  const Setup& s = b.s;
  const std::int32_t n = b.n;
  const std::int32_t root = b.root;
  Schedule sc = empty_schedule("binomial-bcast", s);
  // Step j (tag j) uses distance m = 2^(K-1-j): every v that is a multiple
  // of 2m sends to v + m.
  const auto step = [K = b.K](std::int32_t m) { return static_cast<std::uint32_t>(K - 1) - tag_of(m); };
  b.each_rank(sc, [&](std::int32_t v, Emitter& out, std::int32_t low) {
    if (v != 0) out.wait(b.all, step(low));
    for (std::int32_t m = low / 2; m >= 1; m /= 2)
      if (v + m < n) out.send(mod(v + m + root, n), b.all, step(m));
  });
  finish(sc);
  const ReductionSetup data = s.data;
  sc.initial = [data, root](EndpointId e, std::uint32_t address) -> Word {
    return static_cast<std::int32_t>(e) == root && address < data.elements ? reduction_input(data, root, address) : 0;
  };
  auto value = std::make_shared<std::vector<Word>>();
  for (std::uint32_t i = 0; i < data.elements; ++i) value->push_back(reduction_input(data, root, i));
  sc.expected = [value](EndpointId) { return std::vector<Region>{{0, *value}}; };
  sc.lower_bound = n > 1 ? static_cast<std::int64_t>(s.data.elements) : 0;
  place(sc, s);
  return sc;
}

Schedule build_binomial_reduce(const topology::Topology& topology, const Params& params) {
  const Binomial b = read_binomial(topology, params, true, &read_root);
  const Setup& s = b.s;
  const std::int32_t n = b.n;
  const std::int32_t root = b.root;
  Schedule sc = empty_schedule("binomial-reduce", s);
  // Step j (tag j) uses distance m = 2^j: every v whose lowest set bit is m
  // adds its partial result into v - m's copy, once its children's are in.
  b.each_rank(sc, [&](std::int32_t v, Emitter& out, std::int32_t low) {
    for (std::int32_t m = 1; m < low; m *= 2)
      if (v + m < n) out.wait(b.all, tag_of(m));
    if (v != 0) out.send(mod(v - low + root, n), b.all, tag_of(low), s.data.op);
  });
  return finish_reduction(std::move(sc), s, n > 1 ? static_cast<std::int64_t>(s.data.elements) : 0,
                          [root](auto result) {
                            return [result, root](EndpointId e) {
                              return static_cast<std::int32_t>(e) == root ? std::vector<Region>{{0, *result}}
                                                                          : std::vector<Region>{};
                            };
                          });
}

Schedule build_pairwise_alltoall(const topology::Topology& topology, const Params& params) {
  const std::int32_t n = topology.endpoint_count();
  const std::uint32_t m = message_words(params, 2 * static_cast<std::uint64_t>(n));
  const bool power_of_two = std::has_single_bit(static_cast<std::uint32_t>(n));
  const auto result_base = static_cast<std::uint32_t>(n) * m;
  Schedule sc;
  sc.algorithm = "pairwise-alltoall";
  sc.programs.assign(static_cast<std::size_t>(n), {});
  sc.memory_words = 2 * result_base;
  for (std::int32_t i = 0; i < n; ++i) {
    Program& p = sc.programs[static_cast<std::size_t>(i)];
    const auto self = static_cast<std::uint32_t>(i);
    for (std::int32_t step = 1; step < n; ++step) {
      const auto dest = static_cast<std::uint32_t>(power_of_two ? (i ^ step) : mod(i + step, n));
      p.push_back(Descriptor::send(dest, dest * m, result_base + self * m, m, static_cast<std::uint32_t>(step - 1)));
      p.push_back(Descriptor::wait(static_cast<std::uint32_t>(step - 1), 1));
    }
    // Its own block: a local copy, after the network steps.
    const auto local_tag = static_cast<std::uint32_t>(std::max(n - 1, 0));
    p.push_back(Descriptor::send(self, self * m, result_base + self * m, m, local_tag));
    p.push_back(Descriptor::wait(local_tag, 1));
    p.push_back(Descriptor::end());
  }
  sc.initial = [n, m](EndpointId e, std::uint32_t address) { return a2a_initial_word(e, address, 0, n, m); };
  sc.expected = [n, m, result_base](EndpointId e) { return a2a_expected(e, result_base, n, m); };
  std::int64_t bound = static_cast<std::int64_t>(n - 1) * m;
  if (const auto* grid = dynamic_cast<const topology::Grid*>(&topology)) bound = std::max(bound, a2a_bisection_bound(*grid, m));
  sc.lower_bound = bound;
  return sc;
}

const Key& root_key() {
  static const Key key = Key::integer("root",
                                      "rank (endpoint) at the root: of the binomial tree (binomial-bcast, "
                                      "binomial-reduce); the one that receives (innet-reduce) or sends (innet-bcast)",
                                      0, 0,
                                      std::numeric_limits<std::int32_t>::max())
                             .accepting("0..endpoints-1");
  return key;
}

const Key& bcast_logical_root_key() {
  static const Key key = Key::integer("logical_root",
                                      "binomial-bcast: the broadcasting rank when `root` is not set (so that it "
                                      "runs as a compare baseline of tree-bcast, whose `root` is the tree's physical "
                                      "root)",
                                      0, 0, std::numeric_limits<std::int32_t>::max())
                             .default_from("`root`")
                             .accepting("0..ranks-1");
  return key;
}

std::int32_t read_root(const Params& params, std::int32_t n) {
  return static_cast<std::int32_t>(root_key().integer(params, 0, 0, n - 1));
}

/// binomial-bcast: `root`, else `logical_root`, else 0.
std::int32_t read_bcast_root(const Params& params, std::int32_t n) {
  if (params.has("root") || !params.has("logical_root")) return read_root(params, n);
  return static_cast<std::int32_t>(bcast_logical_root_key().integer(params, 0, 0, n - 1));
}

/// SENDs of the busiest rank's program, for the size check before a run.
using SendCount = std::uint64_t (*)(std::uint64_t n);

Algorithm standard(std::string name, std::string collective, std::string description, std::vector<Key> keys,
                   std::function<Schedule(const topology::Topology&, const Params&)> build, SendCount sends) {
  Algorithm a;
  a.name = std::move(name);
  a.document = "std";
  a.description = std::move(description);
  a.topologies = kAnyTopology;
  a.keys = std::move(keys);
  a.build = std::move(build);
  a.size = DataSize::of_key(reduction_elements_key());
  a.collective = [collective](const topology::Topology& topology, const Params& params) {
    return CollectiveKind{collective, static_cast<std::int64_t>(rank_endpoints(topology, params).size())};
  };
  a.footprint = [sends](const topology::Topology& topology, const Params& params) {
    Footprint f = reduction_footprint(topology, params);
    std::uint64_t n = static_cast<std::uint64_t>(topology.endpoint_count());
    try {
      n = rank_endpoints(topology, params).size();
    } catch (const ConfigError&) {
      // a bad `ranks` or `processes` is refused where the schedule is built
    }
    f.sends = sends(n);
    f.keys = "topology (endpoints), elements, ranks, processes";
    return f;
  };
  return a;
}

std::uint64_t two_rings(std::uint64_t n) { return 2 * (n - 1); }
std::uint64_t one_ring(std::uint64_t n) { return n - 1; }
std::uint64_t log_steps(std::uint64_t n) { return n <= 1 ? 0 : std::bit_width(n - 1); }
/// rd-allreduce: 2 log2 p, and one more (the copy back) where p < n.
std::uint64_t rd_sends(std::uint64_t n) {
  if (n <= 1) return 0;
  return 2 * static_cast<std::uint64_t>(std::bit_width(n) - 1) + (std::has_single_bit(n) ? 0 : 1);
}

std::vector<Key> reduction_data_keys() {
  return {reduction_elements_key(), reduction_op_key(), reduction_dtype_key(), ranks_key(), processes_key()};
}

}  // namespace

const Key& standard_root_key() { return root_key(); }

Algorithm make_ring_allreduce() {
  return standard("ring-allreduce", "allreduce",
                  "allreduce: ring reduce-scatter then ring allgather over the endpoints in id order, 2(n-1) steps",
                  reduction_data_keys(), build_ring_allreduce, two_rings);
}

Algorithm make_rd_allreduce() {
  return standard("rd-allreduce", "allreduce",
                  "allreduce: recursive halving reduce-scatter then recursive doubling allgather over the largest "
                  "power of two p <= n ranks, 2 log2 p steps; on other counts the first 2(n - p) ranks fold in "
                  "pairs before and copy back after (2 steps more)",
                  reduction_data_keys(), build_rd_allreduce, rd_sends);
}

Algorithm make_binomial_bcast() {
  return standard("binomial-bcast", "broadcast", "broadcast from `root` down a binomial tree, ceil(log2 n) steps",
                  {reduction_elements_key(), root_key(), bcast_logical_root_key(), ranks_key(), processes_key()},
                  build_binomial_bcast, log_steps);
}

Algorithm make_binomial_reduce() {
  std::vector<Key> keys = reduction_data_keys();
  keys.push_back(root_key());
  return standard("binomial-reduce", "reduce", "reduce to `root` up a binomial tree, ceil(log2 n) steps", std::move(keys),
                  build_binomial_reduce, [](std::uint64_t) -> std::uint64_t { return 1; });
}

Algorithm make_ring_allgather() {
  return standard("ring-allgather", "allgather", "allgather: chunk i of rank i passed around the ring, n-1 steps",
                  {reduction_elements_key(), ranks_key(), processes_key()}, build_ring_allgather, one_ring);
}

Algorithm make_ring_reduce_scatter() {
  return standard("ring-reduce-scatter", "reduce-scatter", "reduce-scatter: rank i ends with chunk i of the reduction, n-1 ring steps",
                  reduction_data_keys(), build_ring_reduce_scatter, one_ring);
}

Algorithm make_pairwise_alltoall() {
  Algorithm a = a2a_algorithm("pairwise-alltoall", "std",
                              "all-to-all in n-1 pairwise steps: i XOR s (power-of-two n), else (i+s) mod n",
                              kAnyTopology);
  a.build = build_pairwise_alltoall;
  return a;
}

}  // namespace collnet::collectives
