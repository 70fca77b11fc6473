// Size limits: before a run elaborates anything, estimate the
// memory it will allocate and refuse (ConfigError, exit 2) a scenario that
// cannot fit, naming the estimate, its parts and the keys that drive them,
// instead of allocating until the machine kills the process.
//
// The estimate counts only what the run certainly allocates, so it stays
// below the real peak and never refuses a run that would fit:
//   network       input VC buffers (links + NIC ports) x vcs x buffer_flits,
//                 16 bytes a flit (topology, vcs, buffer_flits, controllers)
//   NIC queues    descriptor queues, 16 bytes a descriptor (descriptor_queue)
//   node memories every endpoint's memory, 8 bytes a word (message_flits,
//                 elements: the algorithm's layout)
//   programs      the descriptor programs, 16 bytes a descriptor
// The data check adds no term: the functional executor runs before the
// modules are built and leaves one digest per node (its memory is freed
// before the NICs allocate theirs, and its messages in flight read the
// sender's memory instead of copying it), and the NICs' memory is compared
// in place. So the peak is one set of node memories plus the network.
// Available memory: MemAvailable of /proc/meminfo, lowered to the cgroup
// memory limit (v2 memory.max, v1 memory.limit_in_bytes, minus what the
// cgroup already uses) and to RLIMIT_AS when one is set. The environment
// variable COLLNET_AVAILABLE_MEMORY (bytes, or with a K, M, G or T suffix)
// replaces the measurement (tests: a deterministic limit).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/router/router_config.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

struct MemoryEstimate {
  struct Part {
    std::string what;
    std::uint64_t bytes = 0;
    std::string keys;  // the scenario keys that drive it
  };
  std::vector<Part> parts;
  [[nodiscard]] std::uint64_t total() const;
};

/// A collective run of `algorithm` (its memory layout, programs, data check).
MemoryEstimate estimate_collective_memory(const topology::Topology& topology, const std::string& algorithm,
                                          const Params& params, const RouterConfig& router, int controllers,
                                          int descriptor_queue);
/// A synthetic-traffic run (the network alone).
MemoryEstimate estimate_network_memory(const topology::Topology& topology, const RouterConfig& router,
                                       int controllers);

/// Bytes this process may still allocate (see above); 0 if unknown.
std::uint64_t available_memory();

/// Throws ConfigError when the estimate exceeds available_memory().
void require_memory(const MemoryEstimate& estimate, const std::string& scenario_name);

/// "64.0 GiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace collnet::systemc
