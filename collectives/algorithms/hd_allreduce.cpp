#include "collectives/algorithms/hd_allreduce.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <utility>

#include <fmt/format.h>

namespace collnet::collectives {

using topology::Boards;
using topology::Direction;

namespace {

constexpr std::uint32_t kLocalTagBase = 0x8000;  // local combines: 0x8000 + step

std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int log2_size(int n) { return std::countr_zero(static_cast<unsigned>(n)); }

ReceiveOp receive_op(HdOp op) {
  switch (op) {
    case HdOp::sum:
    case HdOp::average: return ReceiveOp::sum;
    case HdOp::product: return ReceiveOp::product;
    case HdOp::max: return ReceiveOp::max;
    case HdOp::min: return ReceiveOp::min;
  }
  return ReceiveOp::sum;
}

// One SEND of a step, or its two halves on a size-2 ring (spec hd-allreduce:
// a size-2 ring splits a message over both directions).
struct Part {
  std::uint32_t offset, length;
  topology::RouteHint hint;
};
std::vector<Part> parts(std::uint32_t n, const Boards& boards, int dim) {
  if (boards.size(dim) == 2 && n >= 2) {
    const std::uint32_t first = (n + 1) / 2;
    return {{0, first, Boards::direction_hint(dim, Direction::plus)},
            {first, n - first, Boards::direction_hint(dim, Direction::minus)}};
  }
  return {{0, n, 0}};
}

Word count_word(DataType dtype, std::int64_t count) {
  return dtype == DataType::float64 ? std::bit_cast<Word>(static_cast<double>(count)) : static_cast<Word>(count);
}

}  // namespace

HdOp hd_parse_op(const std::string& text) {
  if (text == "sum") return HdOp::sum;
  if (text == "product") return HdOp::product;
  if (text == "max") return HdOp::max;
  if (text == "min") return HdOp::min;
  if (text == "average") return HdOp::average;
  throw ConfigError("key 'op': '" + text + "' is not accepted; accepted values: sum, product, max, min, average");
}

std::vector<int> hd_dimension_order(const Boards& boards, const std::string& dim_order) {
  std::vector<int> dims;
  if (dim_order == "wxyz") {
    for (int d = 0; d < Boards::kDims; ++d)
      if (boards.size(d) > 1) dims.push_back(d);
  } else if (dim_order == "bandwidth") {
    // spec hd-allreduce, embodiment 2: descending bandwidth; a size-2
    // dimension has twice the bandwidth of a size-4 one; ties W < X < Y < Z.
    for (int want : {2, 4})
      for (int d = 0; d < Boards::kDims; ++d)
        if (boards.size(d) == want) dims.push_back(d);
  } else {
    throw ConfigError("key 'dim_order': '" + dim_order + "' is not accepted; accepted values: wxyz, bandwidth");
  }
  return dims;
}

std::vector<HdStep> hd_plan(const Boards& boards, HdVariant variant, const std::vector<int>& dims) {
  using K = HdStep::Kind;
  std::vector<HdStep> plan{{K::scatter, -1, 0}};
  auto halving = [&](int d) {
    for (int s = 0; s < log2_size(boards.size(d)); ++s) plan.push_back({K::halving, d, s});
  };
  auto doubling = [&](int d) {
    for (int s = log2_size(boards.size(d)); s-- > 0;) plan.push_back({K::doubling, d, s});
  };
  if (variant == HdVariant::hierarchical) {
    for (int d : dims) halving(d);
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) doubling(*it);
  } else {
    for (int d : dims) {
      halving(d);
      doubling(d);
    }
  }
  plan.push_back({K::broadcast, -1, 0});
  return plan;
}

HdBlock hd_held_block(const Boards& boards, const std::vector<HdStep>& plan, int board, int after_step,
                      std::uint32_t plane_words) {
  HdBlock b{0, plane_words};
  const auto c = boards.board_coord(board);
  for (int g = 0; g <= after_step && g < static_cast<int>(plan.size()); ++g) {
    const HdStep& st = plan[static_cast<std::size_t>(g)];
    if (st.kind != HdStep::Kind::halving && st.kind != HdStep::Kind::doubling) continue;
    const auto bit = static_cast<std::uint32_t>((c[static_cast<std::size_t>(st.dim)] >> st.bit) & 1);
    if (st.kind == HdStep::Kind::halving) {
      b.len /= 2;
      b.lo += bit * b.len;  // keep the first half if the bit is 0, else the second
    } else {
      b.lo -= bit * b.len;
      b.len *= 2;
    }
  }
  return b;
}

std::uint32_t hd_scatter_slot(int m, std::uint32_t plane_words) {
  return static_cast<std::uint32_t>(m) * plane_words;  // m = 0 lands in acc at 0
}

Word hd_default_data(HdOp op, DataType dtype, std::uint64_t seed, int main_index, std::uint32_t element) {
  const std::uint64_t h = mix(seed ^ mix((static_cast<std::uint64_t>(main_index) << 32) | element));
  if (dtype == DataType::int64) {
    switch (op) {
      case HdOp::product: {
        // Odd factors: a product of many never collapses to 0 modulo 2^64.
        const auto v = static_cast<std::int64_t>(2 * (h % 4) + 1);
        return static_cast<Word>((h >> 8) & 1 ? -v : v);
      }
      case HdOp::max:
      case HdOp::min: return h;
      default: return static_cast<Word>(static_cast<std::int64_t>(h) >> 20);
    }
  }
  // float64: values whose reduction is exact in any order, so that the
  // expected result does not depend on the reduction tree.
  double v = 0;
  switch (op) {
    case HdOp::product: {
      static constexpr double kRare[] = {0.5, 2.0, -1.0, 1.0};
      if (main_index % 64 == 0) v = kRare[h % 4];  // at most 32 of 2048 units scale: no overflow
      else v = (h >> 8) & 1 ? -1.0 : 1.0;
      break;
    }
    case HdOp::max:
    case HdOp::min: v = static_cast<double>(h >> 11) * 0x1p-53 * 2000.0 - 1000.0; break;
    default: v = static_cast<double>(static_cast<std::int64_t>(h % (1u << 21)) - (1 << 20)); break;
  }
  return std::bit_cast<Word>(v);
}

Word hd_reduce(HdOp op, DataType dtype, const std::vector<Word>& values) {
  const auto n = static_cast<std::int64_t>(values.size());
  if (dtype == DataType::float64) {
    double acc = std::bit_cast<double>(values.at(0));
    for (std::size_t i = 1; i < values.size(); ++i) {
      const double v = std::bit_cast<double>(values[i]);
      switch (op) {
        case HdOp::product: acc *= v; break;
        case HdOp::max: acc = std::max(acc, v); break;
        case HdOp::min: acc = std::min(acc, v); break;
        default: acc += v; break;
      }
    }
    if (op == HdOp::average) acc /= static_cast<double>(n);
    return std::bit_cast<Word>(acc);
  }
  Word acc = values.at(0);
  for (std::size_t i = 1; i < values.size(); ++i) {
    const Word v = values[i];
    switch (op) {
      case HdOp::product: acc *= v; break;
      case HdOp::max: acc = static_cast<Word>(std::max(static_cast<std::int64_t>(acc), static_cast<std::int64_t>(v))); break;
      case HdOp::min: acc = static_cast<Word>(std::min(static_cast<std::int64_t>(acc), static_cast<std::int64_t>(v))); break;
      default: acc += v; break;  // wraps modulo 2^64
    }
  }
  if (op == HdOp::average) acc = static_cast<Word>(static_cast<std::int64_t>(acc) / n);
  return acc;
}

Schedule build_hd_allreduce(const Boards& boards, const HdOptions& o) {
  const int A = o.aggregation_units;
  if (A != 1 && A != 2 && A != 4)
    throw ConfigError(fmt::format("key 'aggregation_units': {} is not accepted; accepted values: 1, 2, 4 "
                                  "(planes of the board's {} aggregation units)",
                                  A, Boards::kAggregationUnits));
  const int P = boards.boards();
  const std::uint32_t L = o.elements;
  const auto multiple = static_cast<std::uint32_t>(A * P);
  if (L == 0 || L % multiple != 0)
    throw ConfigError(fmt::format("key 'elements': {} elements cannot be split over {} aggregation units x {} "
                                  "boards; accepted values: multiples of {} (e.g. {}, {})",
                                  L, A, P, multiple, multiple, 4 * multiple));
  const std::uint32_t B = L / static_cast<std::uint32_t>(A);
  const auto dims = hd_dimension_order(boards, o.dim_order);
  const auto plan = hd_plan(boards, o.variant, dims);
  const auto G = static_cast<int>(plan.size());
  const int last = G - 1;

  // Aggregation-unit memory layout (hd_allreduce.hpp).
  std::vector<std::uint32_t> slot(plan.size(), 0);
  std::uint64_t cursor = static_cast<std::uint64_t>(Boards::kMainUnits) * B;
  int division_step = 0;  // average: after the last halving (step 0 when there is none)
  for (int g = 0; g < G; ++g) {
    if (plan[static_cast<std::size_t>(g)].kind != HdStep::Kind::halving) continue;
    slot[static_cast<std::size_t>(g)] = static_cast<std::uint32_t>(cursor);
    cursor += hd_held_block(boards, plan, 0, g, B).len;
    division_step = g;
  }
  const std::uint32_t divisor_offset = static_cast<std::uint32_t>(cursor);
  const std::uint32_t divisor_len = hd_held_block(boards, plan, 0, division_step, B).len;
  if (o.op == HdOp::average) cursor += divisor_len;
  const std::uint64_t memory = std::max<std::uint64_t>(L, cursor);
  const std::uint64_t limit = descriptor_layout::src_offset.max() + 1;
  if (memory > limit)
    throw ConfigError(fmt::format("key 'elements': {} elements need {} words of aggregation-unit memory; the "
                                  "descriptor addresses at most {} (use a smaller multiple of {})",
                                  L, memory, limit, multiple));

  const ReceiveOp rop = receive_op(o.op);
  const std::int64_t main_units = static_cast<std::int64_t>(Boards::kMainUnits) * P;
  Schedule s;
  s.algorithm = o.variant == HdVariant::hierarchical ? "hd-allreduce" : "hd-allreduce-conventional";
  s.memory_words = static_cast<std::uint32_t>(memory);
  // A main unit holds its array of L words only; the slots are the
  // aggregation units' (two thirds of the endpoints need less than half).
  s.node_memory_words.resize(static_cast<std::size_t>(boards.endpoint_count()));
  for (std::size_t e = 0; e < s.node_memory_words.size(); ++e)
    s.node_memory_words[e] = Boards::is_main_unit(static_cast<EndpointId>(e)) ? L : s.memory_words;
  s.elements = static_cast<std::int64_t>(L);
  s.programs.assign(static_cast<std::size_t>(boards.endpoint_count()), {});

  // Every descriptor is filed under its step, so that a prefix of the
  // collective can be cut off (HdOptions::stop_after_step).
  std::vector<std::vector<std::pair<int, Descriptor>>> steps(s.programs.size());
  auto emit = [&](EndpointId e, int g, Descriptor d) {
    d.dtype = o.dtype;
    steps[static_cast<std::size_t>(e)].emplace_back(g, d);
  };
  // link_controllers: per-link puts the SENDs that may run at once on
  // separate controllers (and so on separate ejection ports at the
  // destination); one keeps everything on controller 0.
  auto in_board_controller = [&](int m, int a) -> std::uint8_t {
    return o.per_link_controllers ? static_cast<std::uint8_t>((m + a) % Boards::kMainUnits) : 0;
  };
  auto ring_controller = [&](const Part& p) -> std::uint8_t {
    return o.per_link_controllers && p.hint != 0 && p.offset != 0 ? 1 : 0;
  };
  s.controllers = o.per_link_controllers ? Boards::kMainUnits : 1;
  auto local = [&](EndpointId e, int g, std::uint32_t src, std::uint32_t dst, std::uint32_t len, ReceiveOp op,
                   std::uint32_t count) {
    Descriptor d = Descriptor::send(static_cast<std::uint32_t>(e), src, dst, len, kLocalTagBase + static_cast<std::uint32_t>(g));
    d.op = op;
    emit(e, g, d);
    emit(e, g, Descriptor::wait(kLocalTagBase + static_cast<std::uint32_t>(g), count));
  };

  for (int b = 0; b < P; ++b) {
    const auto coord = boards.board_coord(b);
    for (int m = 0; m < Boards::kMainUnits; ++m) {
      const EndpointId e = Boards::main_unit(b, m);
      // S2: the plane-a block of the array to aggregation unit a (plane
      // (m + i) mod A at the i-th SEND with plane_order rotated).
      for (int i = 0; i < A; ++i) {
        const int a = o.rotated_planes ? (m + i) % A : i;
        Descriptor d = Descriptor::send(static_cast<std::uint32_t>(Boards::aggregation_unit(b, a)),
                                        static_cast<std::uint32_t>(a) * B, hd_scatter_slot(m, B), B, 0);
        d.controller = in_board_controller(m, a);
        emit(e, 0, d);
      }
      // S10: the result comes back from every plane.
      emit(e, last, Descriptor::wait(static_cast<std::uint32_t>(last), static_cast<std::uint32_t>(A)));
    }
    for (int a = 0; a < A; ++a) {
      const EndpointId e = Boards::aggregation_unit(b, a);
      std::uint32_t local_count = 0;
      auto divide_if_due = [&](int g, const HdBlock& held) {
        if (o.op != HdOp::average || g != division_step) return;
        local(e, g, divisor_offset, held.lo, held.len, ReceiveOp::divide, ++local_count);
      };
      // S2: gather the eight pieces, then reduce them in the fixed order m0..m7.
      emit(e, 0, Descriptor::wait(0, Boards::kMainUnits));
      for (int m = 1; m < Boards::kMainUnits; ++m) local(e, 0, hd_scatter_slot(m, B), 0, B, rop, ++local_count);
      divide_if_due(0, HdBlock{0, B});
      for (int g = 1; g < last; ++g) {
        const HdStep& st = plan[static_cast<std::size_t>(g)];
        local_count = 0;
        auto partner_coord = coord;
        partner_coord[static_cast<std::size_t>(st.dim)] ^= 1 << st.bit;
        const auto partner =
            static_cast<std::uint32_t>(Boards::aggregation_unit(boards.board_id(partner_coord), a));
        const HdBlock before = hd_held_block(boards, plan, b, g - 1, B);
        const HdBlock after = hd_held_block(boards, plan, b, g, B);
        if (st.kind == HdStep::Kind::halving) {
          // Send the half this unit gives up; receive the partner's copy of
          // the half it keeps into this step's slot; keep <- keep op received.
          const std::uint32_t other = after.lo == before.lo ? before.lo + after.len : before.lo;
          const auto ps = parts(after.len, boards, st.dim);
          for (const Part& p : ps) {
            Descriptor d = Descriptor::send(partner, other + p.offset, slot[static_cast<std::size_t>(g)] + p.offset,
                                            p.length, static_cast<std::uint32_t>(g));
            d.route_hint = p.hint;
            d.controller = ring_controller(p);
            emit(e, g, d);
          }
          emit(e, g, Descriptor::wait(static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(ps.size())));
          local(e, g, slot[static_cast<std::size_t>(g)], after.lo, after.len, rop, ++local_count);
          divide_if_due(g, after);
        } else {
          // Doubling: exchange the held block; the partner's lands at the
          // same positions by copy, no arithmetic.
          const auto ps = parts(before.len, boards, st.dim);
          for (const Part& p : ps) {
            Descriptor d = Descriptor::send(partner, before.lo + p.offset, before.lo + p.offset, p.length,
                                            static_cast<std::uint32_t>(g));
            d.route_hint = p.hint;
            d.controller = ring_controller(p);
            emit(e, g, d);
          }
          emit(e, g, Descriptor::wait(static_cast<std::uint32_t>(g), static_cast<std::uint32_t>(ps.size())));
        }
      }
      // S10: the plane block to every main unit, at offset a*B (main unit
      // (a + i) mod 8 at the i-th SEND with plane_order rotated).
      for (int i = 0; i < Boards::kMainUnits; ++i) {
        const int m = o.rotated_planes ? (a + i) % Boards::kMainUnits : i;
        Descriptor d = Descriptor::send(static_cast<std::uint32_t>(Boards::main_unit(b, m)), 0,
                                        static_cast<std::uint32_t>(a) * B, B, static_cast<std::uint32_t>(last));
        d.controller = in_board_controller(m, a);
        emit(e, last, d);
      }
    }
  }
  const int stop = o.stop_after_step < 0 ? last : std::min(o.stop_after_step, last);
  for (std::size_t e = 0; e < steps.size(); ++e) {
    for (const auto& [g, d] : steps[e])
      if (g <= stop) s.programs[e].push_back(d);
    s.programs[e].push_back(Descriptor::end());
  }

  std::function<Word(int, std::uint32_t)> data = o.data;
  if (!data) {
    const HdOp op = o.op;
    const DataType dtype = o.dtype;
    const std::uint64_t seed = o.seed;
    data = [op, dtype, seed](int g, std::uint32_t i) { return hd_default_data(op, dtype, seed, g, i); };
  }
  const bool average = o.op == HdOp::average;
  const DataType dtype = o.dtype;
  s.initial = [data, L, average, divisor_offset, divisor_len, dtype, main_units](EndpointId e,
                                                                               std::uint32_t address) -> Word {
    if (Boards::is_main_unit(e))
      return address < L ? data(Boards::board_of(e) * Boards::kMainUnits + Boards::unit_index(e), address) : 0;
    if (average && address >= divisor_offset && address < divisor_offset + divisor_len)
      return count_word(dtype, main_units);
    return 0;
  };
  if (stop == last) {
    // The definition of allreduce, element by element over all main units.
    auto result = std::make_shared<Region>();
    std::vector<Word> values(static_cast<std::size_t>(main_units));
    for (std::uint32_t i = 0; i < L; ++i) {
      for (std::int64_t g = 0; g < main_units; ++g) values[static_cast<std::size_t>(g)] = data(static_cast<int>(g), i);
      result->words.push_back(hd_reduce(o.op, o.dtype, values));
    }
    s.expected = [result](EndpointId e) {
      return Boards::is_main_unit(e) ? std::vector<Region>{*result} : std::vector<Region>{};
    };
  } else {
    s.expected = [](EndpointId) { return std::vector<Region>{}; };
  }
  return s;
}

namespace {

// The keys of both variants, declared once.
struct HdKeys {
  Key elements = Key::integer("elements", "array length L of every main unit, in words", 0, 1,
                              static_cast<std::int64_t>(descriptor_layout::length.max()), "words")
                     .default_from("4 x aggregation_units x boards")
                     .accepting("a multiple of aggregation_units x boards, up to 2^20-1 (words)");
  Key dtype = Key::choice("dtype", "element type of the reduction", "int64", {"int64", "float64"});
  Key op = Key::choice("op", "reduction operator (average = sum, then one division by the number of main units)", "sum",
                       {"sum", "product", "max", "min", "average"});
  Key dim_order = Key::choice("dim_order",
                              "order of the halving dimensions (doubling in reverse): wxyz (embodiment 1), bandwidth "
                              "(embodiment 2: size-2 dimensions first, ties W < X < Y < Z)",
                              "wxyz", {"wxyz", "bandwidth"});
  Key aggregation_units =
      Key::choice("aggregation_units", "aggregation units per board that reduce (planes)", "4", {"1", "2", "4"});
  Key plane_order = Key::choice(
      "plane_order",
      "order of the in-board SENDs: document (main unit m sends its plane blocks in plane order, every aggregation "
      "unit broadcasts to main units 0..7 in turn) or rotated (main unit m sends plane (m + i) mod A at its i-th SEND, "
      "aggregation unit a main unit (a + i) mod 8, so the A scatters and broadcasts run side by side); the hd "
      "schedule engine runs document only, so with rotated the reference programs run",
      "document", {"document", "rotated"});
  Key link_controllers = Key::choice(
      "link_controllers",
      "NIC controllers the programs use: one (every SEND on controller 0) or per-link (the schedule asks for 8 "
      "controllers; the in-board SEND between main unit m and aggregation unit a runs on controller (m + a) mod 8, a "
      "size-2 ring's two halves on controllers 0 and 1, so the SENDs of a step and the in-board transfers run at "
      "once, each into its own ejection port: document 004's aggregation unit with one controller per link); the hd "
      "schedule engine runs one only, so with per-link the reference programs run",
      "one", {"one", "per-link"});
};

const HdKeys& hd_keys() { return declared<HdKeys>(); }

HdOptions read_hd_options(const Boards& boards, HdVariant variant, const Params& params) {
  const HdKeys& k = hd_keys();
  HdOptions o;
  o.variant = variant;
  o.aggregation_units = std::stoi(k.aggregation_units.choice(params));
  o.op = hd_parse_op(k.op.choice(params));
  o.dtype = k.dtype.choice(params) == "float64" ? DataType::float64 : DataType::int64;
  o.dim_order = k.dim_order.choice(params);
  o.rotated_planes = k.plane_order.choice(params) == "rotated";
  o.per_link_controllers = k.link_controllers.choice(params) == "per-link";
  o.elements = static_cast<std::uint32_t>(k.elements.integer(params, 4LL * o.aggregation_units * boards.boards()));
  return o;
}

const Boards& require_boards(const topology::Topology& topo, const std::string& name) {
  const auto* boards = dynamic_cast<const Boards*>(&topo);
  if (boards == nullptr)
    throw ConfigError(fmt::format("key 'topology': algorithm '{}' runs on boards:WxXxYxZ (sizes 1, 2, 4), "
                                  "not on '{}'",
                                  name, topo.name()));
  return *boards;
}

Algorithm hd_algorithm(HdVariant variant) {
  Algorithm a;
  const bool hier = variant == HdVariant::hierarchical;
  a.name = hier ? "hd-allreduce" : "hd-allreduce-conventional";
  a.document = "004";
  a.description = hier ? "allreduce on boards: in-board scatter-reduce to aggregation units, recursive halving over "
                         "all dimensions, doubling in reverse, in-board broadcast"
                       : "baseline of document 004: halving then doubling in each dimension in turn";
  a.topologies = "boards:WxXxYxZ";
  a.supports = TopologySupport::only({"boards"});
  const HdKeys& k = hd_keys();
  a.keys = {k.elements, k.dtype, k.op, k.dim_order, k.aggregation_units, k.plane_order, k.link_controllers};
  a.build = [variant, name = a.name](const topology::Topology& topo, const Params& params) {
    const Boards& boards = require_boards(topo, name);
    return build_hd_allreduce(boards, read_hd_options(boards, variant, params));
  };
  a.footprint = [variant, name = a.name](const topology::Topology& topo, const Params& params) {
    // Per endpoint, on average over a board: a main unit's array of L words
    // and an aggregation unit's eight S2 slots of B = L / A words (at least;
    // the halving slots come on top). One SEND per step.
    const HdOptions o = read_hd_options(require_boards(topo, name), variant, params);
    const std::uint64_t L = o.elements;
    const auto A = static_cast<std::uint64_t>(o.aggregation_units);
    const std::uint64_t words = (Boards::kMainUnits * L + Boards::kAggregationUnits * Boards::kMainUnits * (L / A)) /
                                Boards::kUnitsPerBoard;
    return Footprint{words, 1, "elements"};
  };
  a.size.key = k.elements.name;  // per main unit; its default depends on the topology
  a.size.value = [variant, name = a.name](const topology::Topology& topo, const Params& params) {
    return static_cast<std::int64_t>(read_hd_options(require_boards(topo, name), variant, params).elements);
  };
  // The ranks are the main units (the aggregation units reduce for them).
  a.collective = [name = a.name](const topology::Topology& topo, const Params&) {
    return CollectiveKind{"allreduce",
                          static_cast<std::int64_t>(Boards::kMainUnits) * require_boards(topo, name).boards()};
  };
  a.engine = "hd";
  a.engine_params = [variant, name = a.name](const topology::Topology& topo, const Params& params) -> std::any {
    const HdOptions o = read_hd_options(require_boards(topo, name), variant, params);
    // The engine's programs are the document's in-board order on controller
    // 0; it refuses the other choices (schedule_engine auto: the reference
    // programs run).
    if (o.rotated_planes)
      throw ConfigError("key 'plane_order': schedule_engine_hd runs plane_order document only, not rotated "
                        "(schedule_engine: auto runs the reference programs)");
    if (o.per_link_controllers)
      throw ConfigError("key 'link_controllers': schedule_engine_hd runs link_controllers one only, not per-link "
                        "(schedule_engine: auto runs the reference programs)");
    return HdEngineParams{variant == HdVariant::conventional, o.dim_order == "bandwidth", o.op, o.dtype, o.elements,
                          o.aggregation_units};
  };
  return a;
}

}  // namespace

Algorithm make_hd_allreduce() { return hd_algorithm(HdVariant::hierarchical); }
Algorithm make_hd_allreduce_conventional() { return hd_algorithm(HdVariant::conventional); }

}  // namespace collnet::collectives
