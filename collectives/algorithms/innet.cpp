// In-network collectives: the switches' aggregation engines
// (hls/switch_aggregator.hpp) reduce on the way up an aggregation tree and
// replicate the result on the way down (topology/aggregation.hpp builds the
// trees over the fabric).
//
//   innet-allreduce  every endpoint contributes its vector; every endpoint
//                    ends with the reduction
//   innet-reduce     every endpoint contributes; `root` ends with the reduction
//   innet-bcast      `root`'s vector climbs to the tree's root switch, which
//                    multicasts it down; every other endpoint ends with it
//
// The vector of L = `elements` words is cut into blocks of W =
// `block_words` words; block g travels on aggregation tree g mod T (T =
// `aggregation_trees`, route hint g mod T) as one SEND to kInNetwork
// (schedule.hpp) tagged (g mod T) + 1, every endpoint sending them in the
// order of g: the trees, rooted at different switches (the spines of a
// leaf/spine fabric, the top switches of a fat tree), work at once, and
// every table sees its blocks in one global order (which keeps a full table
// from waiting for a block stuck behind another tree's). Each block is one
// reduction packet, which the engines combine word by word at line rate
// (sum, max or min of int64 words); the last block is padded to W words.
// A receiver WAITs for the blocks of each tree (arrivals of its tag).
// In place: the result overwrites the vector at offset 0.
//
// Each endpoint link carries the vector about once each way (L words up,
// L down), against 2(n-1)L/n each way for a ring allreduce.
//
// lower_bound: L flit times (every contributor puts its L words on its
// injection link; every receiver takes L).
#include "collectives/algorithms/innet.hpp"

#include <fmt/format.h>

#include <limits>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "collectives/algorithms/reduction_keys.hpp"
#include "collectives/algorithms/standard_collectives.hpp"
#include "collectives/algorithms/tree_pipeline.hpp"
#include "topology/aggregation.hpp"

namespace collnet::collectives {

namespace {

/// Largest number of trees (tags 1..16: the 4-bit collective field of an
/// engine's key) and of blocks a tree (its 12-bit block field).
constexpr int kMaxTrees = 16;
constexpr std::uint32_t kMaxBlocksPerTree = 4096;

struct InnetKeys {
  Key trees = Key::integer("aggregation_trees",
                           "in-network collectives: aggregation trees the vector is striped over, each rooted at its "
                           "own switch (a spine of a leaf/spine fabric, a top switch of a fat tree)",
                           1, 1, kMaxTrees)
                  .default_from("every root switch the fabric offers, at most 16")
                  .accepting("1..the fabric's root switches");
  Key block_words = Key::integer("block_words",
                                 "in-network collectives: words of a reduction packet, the block a switch's "
                                 "aggregation engine combines in one slot (its BLOCK_WORDS register)",
                                 16, 1, 32, "words");
  [[nodiscard]] std::vector<Key> list() const { return {trees, block_words}; }
};

const InnetKeys& keys() { return declared<InnetKeys>(); }

constexpr const char* kTopologies = "leafspine, leafspine-wiring, fattree, tree (switches with aggregation engines)";

TopologySupport innet_support() { return TopologySupport::only({"leafspine", "leafspine-wiring", "fattree", "tree"}); }

Schedule build(const topology::Topology& topology, const Params& params, InNetwork::Kind kind,
               const std::string& name) {
  if (const std::string problem = topology::aggregation_problem(topology); !problem.empty())
    throw ConfigError(fmt::format("key 'topology': {} cannot run on {}: {}", name, topology.name(), problem));
  const auto n = static_cast<std::int32_t>(topology.endpoint_count());
  ReductionSetup data;
  data.elements = static_cast<std::uint32_t>(reduction_elements_key().integer(params));
  InNetwork in;
  in.kind = kind;
  if (kind != InNetwork::Kind::bcast) {
    const std::string op = reduction_op_key().choice(params);
    if (op == "product")
      throw ConfigError(fmt::format("key 'op': product is not accepted by {}: the switches' aggregation engines "
                                    "reduce sum, max or min of int64 words; accepted values: sum, max, min",
                                    name));
    data.op = op == "sum" ? ReceiveOp::sum : op == "min" ? ReceiveOp::min : ReceiveOp::max;
    if (reduction_dtype_key().choice(params) != "int64")
      throw ConfigError(fmt::format("key 'dtype': {} is not accepted by {}: the switches' aggregation engines add "
                                    "int64 words; accepted values: int64",
                                    reduction_dtype_key().choice(params), name));
    data.dtype = DataType::int64;
  }
  in.op = data.op;
  if (kind != InNetwork::Kind::allreduce)
    in.root = static_cast<EndpointId>(standard_root_key().integer(params, 0, 0, n - 1));
  const auto roots = static_cast<std::int64_t>(topology::aggregation_roots(topology).size());
  const std::int64_t most = std::min<std::int64_t>(roots, kMaxTrees);
  in.trees = static_cast<int>(keys().trees.integer(params, most, 1, most));
  in.block_words = static_cast<std::uint32_t>(keys().block_words.integer(params));
  // Every tree must fit the engines (at most 8 children a switch).
  for (int t = 0; t < in.trees; ++t) {
    try {
      (void)topology::aggregation_tree(topology, t);
    } catch (const topology::TopologyError& e) {
      throw ConfigError(fmt::format("key 'topology': {} cannot run on {}: {}", name, topology.name(), e.what()));
    }
  }
  const std::uint32_t blocks_per_tree =
      (data.elements + in.block_words * static_cast<std::uint32_t>(in.trees) - 1) /
      (in.block_words * static_cast<std::uint32_t>(in.trees));
  if (blocks_per_tree > kMaxBlocksPerTree)
    throw ConfigError(fmt::format("key 'elements': {} words make {} blocks of block_words={} on each of {} trees, "
                                  "more than {} (the engines' 12-bit block number); accepted: at most {}",
                                  data.elements, blocks_per_tree, in.block_words, in.trees, kMaxBlocksPerTree,
                                  static_cast<std::uint64_t>(kMaxBlocksPerTree) * in.block_words *
                                      static_cast<std::uint64_t>(in.trees)));

  Schedule sc;
  sc.algorithm = name;
  sc.memory_words = data.elements;
  sc.elements = static_cast<std::int64_t>(data.elements);
  sc.programs.assign(static_cast<std::size_t>(n), {});
  // Block g (words [gW, gW + W) of the vector) on tree g mod T, tagged
  // (g mod T) + 1, one SEND each in the order of g: every endpoint feeds
  // the trees in one global order, so that they work at once from one NIC
  // controller and no table waits for a block stuck behind another tree's.
  const std::uint32_t w = in.block_words;
  const std::uint32_t blocks = (data.elements + w - 1) / w;
  std::vector<std::uint32_t> per_tree(static_cast<std::size_t>(in.trees), 0);
  for (std::uint32_t g = 0; g < blocks; ++g) ++per_tree[g % static_cast<std::uint32_t>(in.trees)];
  for (EndpointId e = 0; e < n; ++e) {
    Program& p = sc.programs[static_cast<std::size_t>(e)];
    for (std::uint32_t g = 0; g < blocks && in.contributes(e); ++g) {
      const auto t = static_cast<int>(g % static_cast<std::uint32_t>(in.trees));
      const std::uint32_t offset = g * w;
      Descriptor d = Descriptor::send(kInNetwork, offset, offset, std::min(w, data.elements - offset),
                                      static_cast<std::uint32_t>(t + 1));
      d.op = in.op;
      d.route_hint = static_cast<std::uint8_t>(t);
      p.push_back(d);
    }
    for (int t = 0; t < in.trees && in.receives(e); ++t)
      if (per_tree[static_cast<std::size_t>(t)] != 0)
        p.push_back(Descriptor::wait(static_cast<std::uint32_t>(t + 1), per_tree[static_cast<std::size_t>(t)]));
    p.push_back(Descriptor::end());
  }
  sc.innet = in;
  // The collective's definition: rank e's vector, the fold over the ranks.
  sc.initial = [data, in](EndpointId e, std::uint32_t address) -> Word {
    if (address >= data.elements) return 0;
    if (in.kind == InNetwork::Kind::bcast && e != in.root) return 0;
    return reduction_input(data, static_cast<int>(e), address);
  };
  auto result = std::make_shared<std::vector<Word>>(data.elements);
  for (std::uint32_t i = 0; i < data.elements; ++i) {
    if (kind == InNetwork::Kind::bcast) {
      (*result)[i] = reduction_input(data, in.root, i);
      continue;
    }
    Word acc = reduction_input(data, 0, i);
    for (int r = 1; r < n; ++r) acc = combine(data.op, data.dtype, acc, reduction_input(data, r, i));
    (*result)[i] = acc;
  }
  sc.expected = [result, in](EndpointId e) {
    if (in.kind == InNetwork::Kind::reduce && e != in.root) return std::vector<Region>{};
    return std::vector<Region>{{0, *result}};
  };
  sc.lower_bound = data.elements;
  return sc;
}

Algorithm innet(std::string name, std::string collective, std::string description, InNetwork::Kind kind) {
  Algorithm a;
  a.name = name;
  a.document = "std";
  a.description = std::move(description);
  a.topologies = kTopologies;
  a.supports = innet_support();
  a.keys = {reduction_elements_key()};
  if (kind != InNetwork::Kind::bcast) {
    a.keys.push_back(reduction_op_key());
    a.keys.push_back(reduction_dtype_key());
  }
  if (kind != InNetwork::Kind::allreduce) a.keys.push_back(standard_root_key());
  for (const Key& k : keys().list()) a.keys.push_back(k);
  a.build = [name, kind](const topology::Topology& topology, const Params& params) {
    return build(topology, params, kind, name);
  };
  a.size = DataSize::of_key(reduction_elements_key());
  a.collective = [collective](const topology::Topology& topology, const Params&) {
    return CollectiveKind{collective, topology.endpoint_count()};
  };
  a.footprint = [](const topology::Topology&, const Params& params) {
    return Footprint{static_cast<std::uint64_t>(reduction_elements_key().integer(params)),
                     static_cast<std::uint64_t>(keys().trees.integer(params, 1)), "elements, aggregation_trees"};
  };
  return a;
}

}  // namespace

Algorithm make_innet_allreduce() {
  return innet("innet-allreduce", "allreduce",
               "allreduce in the switches: every endpoint's vector reduced up aggregation trees striped over the "
               "root switches, the result multicast down; each endpoint link carries the vector once each way",
               InNetwork::Kind::allreduce);
}

Algorithm make_innet_reduce() {
  return innet("innet-reduce", "reduce",
               "reduce to `root` in the switches: every endpoint's vector reduced up aggregation trees, the result "
               "sent down to `root`",
               InNetwork::Kind::reduce);
}

Algorithm make_innet_bcast() {
  return innet("innet-bcast", "broadcast",
               "broadcast from `root`: its vector climbs to each aggregation tree's root switch, which multicasts it "
               "down the tree",
               InNetwork::Kind::bcast);
}

}  // namespace collnet::collectives
