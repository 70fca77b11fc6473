// The events of the energy model (collectives/energy.hpp) that a run's
// routers and links counted: buffer writes and reads, crossbar traversals
// weighted by radix, VC allocations, link and NIC-link flits, delivered
// flits, and the hardware (buffer slots, crosspoints, links). The NIC
// events (descriptors, DMA words) and the cycles are the caller's.
#pragma once

#include <cstddef>

#include "collectives/energy.hpp"
#include "systemc/network/network.hpp"

namespace collnet::systemc {

/// After a run on `network` with `endpoints` endpoints (each with
/// network.controllers() injection and ejection links).
EnergyCounts energy_counts(Network& network, std::size_t endpoints);

}  // namespace collnet::systemc
