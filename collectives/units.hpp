// The physical units of a run: the keys clock_ghz and flit_bytes, read by
// every kind of run (collective, synthetic traffic, sweep points, `collnet
// check`, the Python API), and the conversions of the cycle model's figures
// (cycles, flits per cycle) into nanoseconds and GB/s. The cycle model
// itself runs in cycles and flits whatever these keys say: they change the
// reports' physical columns only, never a cycle count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/keys.hpp"

namespace collnet {

/// Clock of the routers, links and NICs, GHz (default 1: a cycle is 1 ns).
const Key& clock_ghz_key();
/// Bytes a flit carries (default 8: one 64-bit payload word per flit, the
/// int64 or float64 element of the reductions).
const Key& flit_bytes_key();
/// Both and the energy model's keys (energy.hpp), in documentation order.
const std::vector<Key>& unit_keys();

struct Units {
  double clock_ghz = 1.0;
  std::int64_t flit_bytes = 8;

  /// Nanoseconds of `cycles` cycles.
  [[nodiscard]] double ns(double cycles) const { return cycles / clock_ghz; }
  /// GB/s (10^9 bytes a second) of `flits_per_cycle`.
  [[nodiscard]] double gbps(double flits_per_cycle) const {
    return flits_per_cycle * static_cast<double>(flit_bytes) * clock_ghz;
  }
  /// GB/s of `bytes` moved in `cycles` cycles (bytes / ns).
  [[nodiscard]] double bytes_gbps(double bytes, double cycles) const { return bytes / ns(cycles); }
};

/// The scenario's units; throws ConfigError naming the key and its range.
Units units_from(const Params& params);

/// "1234 ns", "12.35 us", "1.235 ms": a time for the text reports.
std::string time_text(double ns);

/// The nccl-tests bus-bandwidth factor of a collective over n ranks
/// (doc/PERFORMANCE.md of NVIDIA/nccl-tests): allreduce 2(n-1)/n;
/// allgather, reduce-scatter and alltoall (n-1)/n; broadcast and reduce 1.
/// A negative value for a collective without one (custom, a point-to-point
/// program) or n < 1.
double bus_bandwidth_factor(const std::string& collective, std::int64_t ranks);

}  // namespace collnet
