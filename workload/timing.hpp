// What a workload run reports, read back from the cycles its nodes' signals
// landed (workload/lower.hpp): every node's start and finish, per rank its
// finish, compute, communication and exposed communication, per collective
// its cycles; and the timeline as Chrome trace-event JSON.
//
//   finish          the cycle after the node's last signal landed (its body
//                   done); a receive: after its message arrived, and no
//                   earlier than its dependencies finished
//   start           the cycle its last dependency finished (0 without one); a
//                   compute node: no earlier than finish - its cycles (the
//                   rank's compute controller runs them one after another)
//   compute         cycles of the rank's compute nodes (COMP, MEM_*), summed
//   communication   cycles in which at least one of the rank's
//                   communication nodes (send, receive, collective) runs
//   exposed         of those, the cycles in which no compute node runs: the
//                   rank waits on communication that compute does not hide
//   collective      from the first rank's start to the last rank's finish
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/lower.hpp"
#include "workload/workload.hpp"

namespace collnet::workload {

/// A message delivered (a done signal, a transfer): the receiving rank, its tag, the cycle.
struct Arrival {
  std::uint32_t rank = 0;
  std::uint32_t tag = 0;
  std::uint64_t cycle = 0;
};

struct NodeTime {
  std::uint64_t start = 0;
  std::uint64_t finish = 0;
  bool done = false;  // its signals all landed
};

struct RankTime {
  std::uint64_t finish = 0;
  std::uint64_t compute = 0;
  std::uint64_t communication = 0;
  std::uint64_t exposed = 0;
  std::vector<NodeTime> nodes;  // index as in the rank's file
};

struct CollectiveTime {
  std::uint64_t start = 0;
  std::uint64_t finish = 0;
  [[nodiscard]] std::uint64_t cycles() const { return finish - start; }
};

struct WorkloadTime {
  std::uint64_t total = 0;  // the last node's finish + 1
  std::vector<RankTime> ranks;
  std::vector<CollectiveTime> collectives;
  bool complete = true;  // every node finished
};

/// The timing of a run from the signals that landed (any order).
/// `sent`: per message sent, its sending rank, tag and the cycle its last
/// flit left (the sends that signal nothing are timed by these).
WorkloadTime time_workload(const Workload& w, const Lowered& lowered, const std::vector<Arrival>& arrivals,
                           const std::vector<Arrival>& sent);

/// The report's `workload` object (docs/reference/json.md).
nlohmann::json workload_json(const Workload& w, const Lowered& lowered, const WorkloadTime& t, double clock_ghz);

/// One network link's load for the timeline: its name and the cycles a flit
/// left on it, as intervals [first, last] (inclusive).
struct LinkLoad {
  std::string name;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;
};
/// Bins of the links' load in a timeline (fewer when the run is shorter).
inline constexpr std::uint64_t kTimelineLinkBins = 100;

/// Chrome trace-event JSON (Perfetto, chrome://tracing): one complete event
/// ("ph": "X") per node and rank, ts and dur in microseconds at clock_ghz;
/// pid the rank, tid the rank's thread that ran the node. With `links`, a
/// process "links" (pid = ranks) with one counter ("ph": "C") per link
/// that carried a flit: at the start of each of kTimelineLinkBins equal
/// bins of the run, args.busy = the fraction of the bin's cycles in which a
/// flit left on the link.
nlohmann::json chrome_trace(const Workload& w, const Lowered& lowered, const WorkloadTime& t, double clock_ghz,
                            const std::vector<LinkLoad>& links = {});

}  // namespace collnet::workload
