#include "collectives/units.hpp"

#include "collectives/energy.hpp"

#include <fmt/format.h>

namespace collnet {

const Key& clock_ghz_key() {
  static const Key key = Key::real("clock_ghz",
                                   "clock of the routers, links and NICs: the reports give times in ns (cycles / "
                                   "clock_ghz) and bandwidths in GB/s (flits per cycle x flit_bytes x clock_ghz) "
                                   "beside cycles and flits; no cycle count depends on it",
                                   1.0, 0.001, 1000.0, "GHz");
  return key;
}

const Key& flit_bytes_key() {
  static const Key key = Key::integer("flit_bytes",
                                      "bytes a flit carries (a link moves one flit a cycle): the default 8 is the "
                                      "one 64-bit payload word a flit holds (an int64 or float64 element); the "
                                      "reports' bytes and GB/s scale with it, no cycle count depends on it",
                                      8, 1, 4096, "bytes");
  return key;
}

const std::vector<Key>& unit_keys() {
  // With the energy model's keys (energy.hpp): like these, every kind of run
  // reads them and no cycle count depends on them.
  static const std::vector<Key> keys = [] {
    std::vector<Key> k = {clock_ghz_key(), flit_bytes_key()};
    for (const Key& e : energy_keys()) k.push_back(e);
    return k;
  }();
  return keys;
}

Units units_from(const Params& params) {
  Units u;
  u.clock_ghz = clock_ghz_key().real(params);
  u.flit_bytes = flit_bytes_key().integer(params);
  return u;
}

std::string time_text(double ns) {
  if (ns < 10000.0) return fmt::format("{:.4g} ns", ns);
  if (ns < 1e7) return fmt::format("{:.4g} us", ns / 1e3);
  return fmt::format("{:.4g} ms", ns / 1e6);
}

double bus_bandwidth_factor(const std::string& collective, std::int64_t ranks) {
  if (ranks < 1) return -1;
  const double n = static_cast<double>(ranks);
  if (collective == "allreduce") return 2.0 * (n - 1.0) / n;
  if (collective == "allgather" || collective == "reduce-scatter" || collective == "alltoall") return (n - 1.0) / n;
  if (collective == "broadcast" || collective == "reduce") return 1.0;
  return -1;
}

}  // namespace collnet
