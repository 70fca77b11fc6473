// MSCCL-IR export: writes a collnet schedule (one descriptor program per
// endpoint) as an MSCCL-IR XML document (<algo> <gpu> <tb> <step>), the
// format that algorithm msccl imports and MSCCL's runtime executes.
// docs/guide/msccl.md ("Export") gives the mapping and what is dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "collectives/schedule.hpp"

namespace collnet::collectives {

struct MscclExport {
  std::string xml;                    // the document
  std::string coll = "custom";        // its coll: allreduce, allgather, reduce_scatter, alltoall or custom
  std::uint32_t chunk_words = 1;      // words of one MSCCL chunk (the <algo> attribute chunk_words)
  std::vector<std::string> warnings;  // collnet features the document drops, one line each
  std::size_t thread_blocks = 0, steps = 0;
};

/// Exports `schedule`, built by `algorithm` (`key_names`: its scenario keys,
/// kept for the callers; barriers export as token exchanges). coll is what
/// the schedule's definition says the collective is. Throws ConfigError
/// naming the algorithm and the reason when the schedule has no MSCCL-IR
/// form: receive operations other than copy and sum, float64 reductions, a
/// WAIT whose messages cannot be told apart per sender, endpoints that join
/// different numbers of barriers.
MscclExport export_msccl(const Schedule& schedule, const std::string& algorithm, const std::vector<std::string>& key_names);

}  // namespace collnet::collectives
