// The scenario keys of a workload run (workload: chakra:PREFIX), declared
// once: `collnet list`, the reference tables and the checks read them here.
#pragma once

#include <string>
#include <vector>

#include "collectives/keys.hpp"
#include "workload/workload.hpp"

namespace collnet::workload {

/// workload, comm_groups, workload_scale and the algorithm of every
/// collective type (allreduce_algorithm, ...).
const std::vector<Key>& workload_keys();
const Key& workload_key();
const Key& comm_groups_key();
const Key& workload_scale_key();
/// The key choosing the algorithm of `type` (nullptr: no key, no algorithm).
const Key* algorithm_key(CollectiveType type);
/// The prefix of a `workload` value ("chakra:PREFIX" -> PREFIX).
std::string chakra_prefix(const std::string& value);

}  // namespace collnet::workload
