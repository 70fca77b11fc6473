// Message trace of a collective run (`collnet run --trace FILE.csv`): one
// record per SEND that moves data, filled in by the NICs as it happens, and
// optionally the busy intervals of every network link (--trace-links).
//
// Message columns (docs/guide/traces.md is the user's description):
//   message              the run's number of the SEND: controllers number
//                        their SENDs in the order they start them, from 0
//                        (zero-length SENDs, which move nothing, take a
//                        number but get no row)
//   src, dst             source and destination endpoint
//   controller           the source NIC controller that sent it
//   tag                  the SEND's tag (the phase / step WAIT counts)
//   words                payload words (= flits on the wire)
//   inject_cycle         the cycle the first flit left the source NIC (passed
//                        its pacer onto the injection port); a local copy:
//                        the cycle the controller started it
//   first_arrival_cycle  the cycle the first flit of the message was taken
//                        off an ejection port of the destination NIC; a
//                        local copy: the cycle it ended
//   deliver_cycle        the cycle the last flit was written to the
//                        destination's memory (the message counts as
//                        arrived for WAIT from then on)
//   hops                 network links on its route (0 for a local copy)
//   kind                 network or local
//   packets              packets it was cut into (0 for a local copy)
//
// Link columns (FILE.links.csv next to FILE.csv): one row per maximal run of consecutive
// cycles in which a flit departed on a network link (the VCD's `busy`):
//   link, from, to, start_cycle, end_cycle (inclusive), flits (= end - start
//   + 1), link_id, from_coord, to_coord (grid topologies: the routers'
//   coordinates, space-separated; empty elsewhere).
//
// Cost: the NICs test one null pointer (CollectiveBook::trace) per event
// when no trace is written; the link recorder exists only with
// --trace-links (the links' observer pointer, link.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "systemc/kernel/cycle.hpp"
#include "systemc/link/link.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

class Network;

class MessageTrace {
 public:
  struct Record {
    Cycle inject = kNever;
    Cycle first_arrival = kNever;
    Cycle deliver = kNever;
    Cycle sent = kNever;  // the cycle its last flit left the source NIC (a local copy: deliver); not in the CSV
    topology::EndpointId src = 0;
    topology::EndpointId dst = 0;
    std::uint32_t tag = 0;
    std::uint32_t words = 0;
    std::uint32_t packets = 0;
    std::uint16_t hops = 0;
    std::uint8_t controller = 0;
    bool listed = false;  // a SEND that moves data
    bool local = false;
  };

  /// `expected`: SENDs of the run (reserved up front).
  explicit MessageTrace(std::size_t expected = 0) { records_.reserve(expected); }

  /// A SEND of `words` > 0 words started on controller `controller` in cycle
  /// `now` (message number `id`; numbers of zero-length SENDs are skipped).
  void started(std::uint32_t id, topology::EndpointId src, topology::EndpointId dst, int controller,
               std::uint32_t tag, std::uint32_t words, bool local, Cycle now);
  /// The head flit of one of its packets left the source NIC.
  void packet_injected(std::uint32_t id, int hops, Cycle now) {
    Record& r = records_[id];
    if (r.packets++ == 0) {
      r.inject = now;
      r.hops = static_cast<std::uint16_t>(hops);
    }
  }
  /// A head flit of the message reached the destination NIC.
  void head_arrived(std::uint32_t id, Cycle now) {
    Record& r = records_[id];
    if (r.first_arrival == kNever) r.first_arrival = now;
  }
  /// Its last flit left the source NIC.
  void sent(std::uint32_t id, Cycle now) { records_[id].sent = now; }
  /// Its last word was written at the destination.
  void delivered(std::uint32_t id, Cycle now) {
    Record& r = records_[id];
    r.deliver = now;
    if (r.sent == kNever) r.sent = now;  // a local copy
    if (r.first_arrival == kNever) r.first_arrival = now;  // a local copy
  }

  [[nodiscard]] const std::vector<Record>& records() const { return records_; }
  /// Writes the CSV (header line, then one row per listed SEND in number
  /// order; a SEND not delivered when the run stopped has empty cycles).
  /// Throws std::runtime_error if the file cannot be written.
  void write_csv(const std::string& path) const;

  /// The column names, in order (the contract).
  static const char* header();

 private:
  std::vector<Record> records_;
};

/// Busy intervals of every network link (a LinkObserver; forwards each flit
/// to `next`, the waveform tracer or a test probe, when there is one).
class LinkBusyTrace final : public LinkObserver {
 public:
  struct Interval {
    Cycle start;
    Cycle end;  // inclusive
  };
  LinkBusyTrace(const Network& network, LinkObserver* next);
  void on_flit(const Link& link, const Flit& flit, Cycle depart) override;
  /// Intervals per graph link, in time order (the open ones included).
  [[nodiscard]] std::vector<std::vector<Interval>> intervals() const;
  void write_csv(const std::string& path, const topology::Topology& topology) const;
  static const char* header();
  /// The links file written next to a message trace: FILE.csv ->
  /// FILE.links.csv (a name not ending in .csv: NAME.links.csv).
  static std::string path_for(const std::string& trace_path);

 private:
  LinkObserver* next_;
  std::vector<std::vector<Interval>> done_;  // closed intervals per link
  std::vector<Interval> open_;               // the current one per link (start kNever: none)
};

}  // namespace collnet::systemc
