#include "collectives/algorithms/tree_pipeline.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "collectives/executor.hpp"
#include "collectives/params.hpp"

namespace collnet::collectives {

std::vector<std::vector<BlockRange>> block_ranges(std::uint32_t elements, int trees, int blocks) {
  std::vector<std::vector<BlockRange>> r(static_cast<std::size_t>(trees));
  // spec twotree-leafspine: T1 gets the extra element.
  const std::uint32_t first_half = trees == 2 ? (elements + 1) / 2 : elements;
  const auto b = static_cast<std::uint32_t>(blocks);
  for (int t = 0; t < trees; ++t) {
    const std::uint32_t begin = t == 0 ? 0 : first_half;
    const std::uint32_t size = t == 0 ? first_half : elements - first_half;
    std::uint32_t at = begin;
    for (std::uint32_t k = 0; k < b; ++k) {
      const std::uint32_t len = size / b + (k < size % b ? 1 : 0);
      r[static_cast<std::size_t>(t)].push_back({at, len});
      at += len;
    }
  }
  return r;
}

namespace {
// Slot of child (t, v) at its parent: index among the parent's children of the
// stage, T1 children first.
int slot_of(const PipelinedTrees& shape, int t, int v) {
  const int parent = shape.trees[static_cast<std::size_t>(t)].parent[static_cast<std::size_t>(v)];
  int index = 0;
  for (int u = 0; u < static_cast<int>(shape.trees.size()); ++u)
    for (int c : shape.trees[static_cast<std::size_t>(u)].children[static_cast<std::size_t>(parent)]) {
      if (u == t && c == v) {
        if (index > 1) throw std::logic_error("tree pipeline: a node with more than two children in one stage");
        return index;
      }
      ++index;
    }
  throw std::logic_error("tree pipeline: child not found at its parent");
}
}  // namespace

std::vector<Transfer> stage_transfers(const std::vector<Stage>& stages, std::uint32_t elements, int blocks,
                                      std::vector<StagePhases>* phases, bool pipelined) {
  std::vector<Transfer> out;
  std::uint32_t base = 0;  // where the next stage starts when the stages run one after another
  // (rank, first word of a block) -> 1 + the last phase in which the rank
  // receives that block in the stages so far. Every stage cuts the data the
  // same way (block_ranges), so a block is known by its first word.
  std::map<std::pair<int, std::uint32_t>, std::uint32_t> ready;
  if (phases) phases->clear();
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const Stage& stage = stages[s];
    std::vector<Transfer> mine;  // phases within the stage
    std::uint32_t span = 0;
    for (const TreeInstance& inst : stage.instances) {
      const PipelinedTrees& shape = inst.shape;
      if (shape.ranks < 2) continue;
      const int trees = static_cast<int>(shape.trees.size());
      const auto ranges = block_ranges(elements, trees, blocks);
      for (int t = 0; t < trees; ++t) {
        const TreeShape& tree = shape.trees[static_cast<std::size_t>(t)];
        for (int v = 1; v < shape.ranks; ++v) {
          const int parent = tree.parent[static_cast<std::size_t>(v)];
          const int slot = stage.kind == StageKind::reduce ? slot_of(shape, t, v) : -1;
          for (int k = 1; k <= blocks; ++k) {
            const BlockRange& range = ranges[static_cast<std::size_t>(t)][static_cast<std::size_t>(k - 1)];
            if (range.length == 0) continue;
            Transfer x;
            const bool up = stage.kind == StageKind::reduce;
            x.sender = inst.ranks[static_cast<std::size_t>(up ? v : parent)];
            x.receiver = inst.ranks[static_cast<std::size_t>(up ? parent : v)];
            x.stage = static_cast<int>(s);
            x.tree = t;
            x.block = k;
            x.offset = range.offset;
            x.length = range.length;
            const int local = up ? shape.reduce_phase(t, v, k) : shape.broadcast_phase(t, v, k);
            x.phase = static_cast<std::uint32_t>(local);
            x.color = tree.color[static_cast<std::size_t>(v)];
            x.slot = slot;
            span = std::max(span, static_cast<std::uint32_t>(local) + 1);
            mine.push_back(x);
          }
        }
      }
    }
    span += span % 2;  // keep phase parity = color in the next stage
    std::uint32_t start = base;
    if (pipelined && s > 0) {
      // The earliest even start at which every send of this stage follows the
      // sender's last receipt of that block in the earlier stages.
      start = 0;
      for (const Transfer& x : mine) {
        const auto it = ready.find({x.sender, x.offset});
        if (it != ready.end() && it->second > x.phase) start = std::max(start, it->second - x.phase);
      }
      start += start % 2;
    }
    for (Transfer& x : mine) {
      x.phase += start;
      std::uint32_t& r = ready[{x.receiver, x.offset}];
      r = std::max(r, x.phase + 1);
      out.push_back(x);
    }
    if (phases) phases->push_back({start, span});
    base = start + span;
  }
  std::stable_sort(out.begin(), out.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.stage, a.phase) < std::tie(b.stage, b.phase);
  });
  return out;
}

Word reduction_input(const ReductionSetup& setup, int rank, std::uint32_t index) {
  const Word h = payload_word(static_cast<std::uint64_t>(rank), 0x2002, index);
  if (setup.dtype == DataType::int64) return setup.op == ReceiveOp::product ? (h | 1u) : h;
  if (setup.op == ReceiveOp::product) {
    const int e = rank < 1000 ? static_cast<int>(h % 3) - 1 : 0;  // bounded exponents: no overflow before 1000 ranks
    const double v = e < 0 ? 0.5 : e > 0 ? 2.0 : 1.0;
    return std::bit_cast<Word>((h >> 8) & 1 ? -v : v);
  }
  const auto k = static_cast<std::int64_t>(h % ((1u << 21) + 1)) - (1 << 20);
  return std::bit_cast<Word>(static_cast<double>(k) / 256.0);
}

Schedule tree_schedule(const topology::Topology& topology, const Placement& placement, const std::vector<Stage>& stages,
                       const std::vector<Transfer>& transfers, const ReductionSetup& setup, std::string algorithm) {
  const std::uint32_t L = setup.elements;
  std::vector<int> reduce_index(stages.size(), -1);
  int reduce_stages = 0;
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (stages[s].kind == StageKind::reduce) reduce_index[s] = reduce_stages++;
  const std::uint64_t words = static_cast<std::uint64_t>(L) * (1 + 2 * static_cast<std::uint64_t>(reduce_stages));
  if (words > descriptor_layout::src_offset.max())
    throw ConfigError(fmt::format("key 'elements': {} elements need {} words of memory, more than the descriptor "
                                  "addresses ({}); accepted: at most {}",
                                  L, words, descriptor_layout::src_offset.max(),
                                  descriptor_layout::src_offset.max() / (1 + 2 * static_cast<std::uint64_t>(reduce_stages))));
  auto slot_offset = [&](int stage, int slot) {
    return L * static_cast<std::uint32_t>(1 + 2 * reduce_index[static_cast<std::size_t>(stage)] + slot);
  };

  Schedule s;
  s.algorithm = std::move(algorithm);
  s.memory_words = static_cast<std::uint32_t>(words);
  const auto endpoints = static_cast<std::size_t>(topology.endpoint_count());
  s.programs.assign(endpoints, {});
  // Per rank: (phase, 0 = send / 1 = receive, transfer index), in phase order.
  std::vector<std::vector<std::tuple<std::uint32_t, int, std::size_t>>> events(
      static_cast<std::size_t>(placement.processes));
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& x = transfers[i];
    if (x.phase >= kLocalTagBase)
      throw ConfigError(fmt::format("key 'blocks': the schedule needs {}+ phases; tags stop at {}; use fewer blocks",
                                    x.phase + 1, kLocalTagBase));
    events[static_cast<std::size_t>(x.sender)].emplace_back(x.phase, 0, i);
    events[static_cast<std::size_t>(x.receiver)].emplace_back(x.phase, 1, i);
  }
  // Lock step: one barrier after every phase that has a transfer, numbered
  // in phase order (the static checker's phases).
  std::vector<std::uint32_t> used;
  for (const Transfer& x : transfers) used.push_back(x.phase);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  const auto phases = static_cast<std::uint32_t>(used.size());
  // Memory per endpoint: a process needs its data region and the slots it
  // receives into (a leaf of every tree only the data region); an endpoint
  // without a process keeps the whole layout (checked all zero).
  s.node_memory_words.assign(endpoints, s.memory_words);
  // Each rank's program is built in `prog` and then copied into a vector of
  // its exact length (a million descriptors on the p=36 fabric: growing
  // each program by doubling left a quarter of the room unused).
  Program prog;
  for (int rank = 0; rank < placement.processes; ++rank) {
    auto& ev = events[static_cast<std::size_t>(rank)];
    std::sort(ev.begin(), ev.end());
    const auto self = static_cast<std::uint32_t>(placement.endpoint(rank));
    prog.clear();
    std::uint32_t& extent = s.node_memory_words[self];
    extent = L;
    std::uint32_t barriers = 0;  // phase barriers this rank has joined
    // Receives per phase (more than one only with stage pipelining, when two
    // stages overlap): the first receive of a phase waits for all of them,
    // since a WAIT counts every arrival of its tag, in whatever order they
    // come; the combining copies of a phase are counted up one by one.
    std::map<std::uint32_t, std::uint32_t> receives, combined;
    for (const auto& [phase, kind, i] : ev)
      if (kind == 1) ++receives[phase];
    std::uint32_t waited_phase = kLocalTagBase;  // none yet: network phases stay below it
    for (const auto& [phase, kind, i] : ev) {
      // lock step: the barriers of the phases before this event's
      while (setup.phase_barriers && barriers < phases && used[barriers] < phase)
        prog.push_back(Descriptor::barrier(barriers++));
      const Transfer& x = transfers[i];
      const bool reduce = stages[static_cast<std::size_t>(x.stage)].kind == StageKind::reduce;
      if (kind == 0) {
        Descriptor d = Descriptor::send(static_cast<std::uint32_t>(placement.endpoint(x.receiver)), x.offset,
                                        reduce ? slot_offset(x.stage, x.slot) + x.offset : x.offset, x.length, phase);
        d.dtype = setup.dtype;
        d.route_hint = x.route_hint;
        prog.push_back(d);
        continue;
      }
      if (waited_phase != phase) prog.push_back(Descriptor::wait(phase, receives[phase]));
      waited_phase = phase;
      if (!reduce) continue;
      extent = std::max(extent, slot_offset(x.stage, x.slot) + x.offset + x.length);
      // spec twotree-leafspine / fixed-order reduction: combine the slot into
      // the data region, one arrival at a time.
      Descriptor c = Descriptor::send(self, slot_offset(x.stage, x.slot) + x.offset, x.offset, x.length,
                                      kLocalTagBase + phase);
      c.op = setup.op;
      c.dtype = setup.dtype;
      prog.push_back(c);
      prog.push_back(Descriptor::wait(kLocalTagBase + phase, ++combined[phase]));
    }
    while (setup.phase_barriers && barriers < phases) prog.push_back(Descriptor::barrier(barriers++));
    prog.push_back(Descriptor::end());
    s.programs[self].assign(prog.begin(), prog.end());
  }
  for (std::size_t e = 0; e < endpoints; ++e) {
    if (placement.rank(static_cast<EndpointId>(e)) >= 0) continue;
    // endpoints without a process join every barrier too (lock step)
    Program& idle = s.programs[e];
    idle.reserve(setup.phase_barriers ? phases + 1 : 1);
    if (setup.phase_barriers)
      for (std::uint32_t q = 0; q < phases; ++q) idle.push_back(Descriptor::barrier(q));
    idle.push_back(Descriptor::end());
  }

  // The collective's definition, computed once.
  const auto P = placement.processes;
  auto fold = std::make_shared<std::vector<Word>>(L);
  auto root = std::make_shared<std::vector<Word>>(L);
  for (std::uint32_t i = 0; i < L; ++i) {
    Word acc = reduction_input(setup, 0, i);
    (*root)[i] = acc;
    for (int r = 1; r < P; ++r) acc = combine(setup.op, setup.dtype, acc, reduction_input(setup, r, i));
    (*fold)[i] = acc;
  }
  const Placement placed = placement;
  const ReductionSetup set = setup;
  const std::uint32_t memory = s.memory_words;
  s.initial = [placed, set, L](EndpointId e, std::uint32_t address) -> Word {
    const int rank = placed.rank(e);
    return rank >= 0 && address < L ? reduction_input(set, rank, address) : 0;
  };
  s.expected = [placed, set, fold, root, memory](EndpointId e) -> std::vector<Region> {
    const int rank = placed.rank(e);
    if (rank < 0) return {Region{0, std::vector<Word>(memory, 0)}};  // nothing misplaced into idle servers
    switch (set.collective) {
      case Collective::reduce: return rank == 0 ? std::vector<Region>{{0, *fold}} : std::vector<Region>{};
      case Collective::broadcast: return {{0, *root}};
      case Collective::allreduce: return {{0, *fold}};
    }
    return {};
  };
  // Sound bound: the root's single link must carry the L result words
  // (reduce: in, broadcast: out, allreduce: both ways, one direction suffices).
  s.lower_bound = P > 1 ? static_cast<std::int64_t>(L) : 0;
  s.elements = static_cast<std::int64_t>(L);
  return s;
}

}  // namespace collnet::collectives
