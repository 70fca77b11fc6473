// Engine "hd": schedule_engine_hd (hls/schedule_engine_hd.hpp,
// rtl/schedule_engine_hd.sv) runs hd-allreduce and hd-allreduce-conventional
// on boards:WxXxYxZ. Its topology limits, its loader and its registry entry.
#include "driver/engine_entry.hpp"

#include "collectives/algorithms/hd_allreduce.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "topology/boards.hpp"

namespace collnet::driver {

namespace {

std::string hd_refusal(const std::string& algorithm, const topology::Topology& topology) {
  // SIZE0..3 hold 1, 2 or 4: every boards:WxXxYxZ topology (topology/boards.hpp).
  if (dynamic_cast<const topology::Boards*>(&topology) == nullptr)
    return "key 'topology': schedule_engine_hd runs " + algorithm + " on boards:WxXxYxZ only, not " +
           topology.name();
  return "";
}

/// The values the reference reads (collectives/algorithms/hd_allreduce.cpp, the same key
/// declarations), as the engine's registers; UNIT and COORD from the endpoint.
std::vector<EngineWrite> hd_writes(const collectives::HdEngineParams& p, const topology::Boards& boards,
                                   topology::EndpointId self) {
  namespace R = hls::hd_engine_reg;
  using collectives::HdOp;
  const auto agg_units = static_cast<std::uint32_t>(p.aggregation_units);
  const std::uint32_t op_code = p.op == HdOp::sum       ? R::op_sum
                                : p.op == HdOp::product ? R::op_product
                                : p.op == HdOp::max     ? R::op_max
                                : p.op == HdOp::min     ? R::op_min
                                                        : R::op_average;
  const bool float64 = p.dtype == DataType::float64;
  const bool bandwidth = p.bandwidth_order;
  const std::int64_t per_plane = std::int64_t{agg_units} * boards.boards();
  // ELEMENTS [19:0]
  const std::int64_t elements = p.elements;
  if (elements < 1 || elements >= (std::int64_t{1} << 20))
    throw ConfigError("key 'elements': schedule_engine_hd holds 1 to 2^20-1 elements (ELEMENTS [19:0]), got " +
                      std::to_string(elements));
  if (elements % per_plane != 0)
    throw ConfigError("key 'elements': schedule_engine_hd needs a multiple of aggregation_units x boards = " +
                      std::to_string(per_plane) + ", got " + std::to_string(elements));
  std::array<std::uint32_t, 4> sizes{}, coord{};
  const auto board = boards.board_coord(topology::Boards::board_of(self));
  for (int d = 0; d < 4; ++d) {
    sizes[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(boards.size(d));
    coord[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(board[static_cast<std::size_t>(d)]);
  }
  return hls::hd_engine_writes(p.conventional, bandwidth, op_code, float64,
                               static_cast<std::uint32_t>(self % topology::Boards::kUnitsPerBoard),
                               static_cast<std::uint32_t>(elements), agg_units, sizes, coord);
}

}  // namespace

namespace engines {

EngineEntry hd() {
  return {"hd", "boards", false, hd_refusal,
          values_loader(&hd_writes, Check::first_endpoint),
          make_hls_engine_of<hls::HdScheduleEngine>};
}

}  // namespace engines

}  // namespace collnet::driver
