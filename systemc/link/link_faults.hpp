// Link faults: bit errors on the wires of a link, link-level
// retransmission, and a link that fails at a given cycle. Everything here runs
// only when a scenario sets a fault key; without one, Link::send pays one
// predictable branch (a null pointer test) and nothing else.
//
// Model, per directed network link (NIC ports are short on-board wires and
// carry no faults):
// - Every flit carries a CRC-32 (zlib's, IEEE 802.3 polynomial) over its 16
//   bytes as they cross the link (packet handle, which stands for the header
//   sideband, flit index, VC, head/tail flags and the payload word), computed
//   at the sending end and checked at the receiving end. CRC-32 has Hamming
//   distance >= 4 at this length: it detects every 1-, 2- and 3-bit error of a
//   flit (property test in tests/systemc/link_faults_test.cpp).
// - A traversal corrupts the flit with probability `link_error_rate`
//   (independent per traversal, from a generator seeded by `fault_seed` and
//   the link's id): one bit of the payload word flips.
// - `link_retry: go-back-n`: the receiver NAKs a flit whose CRC fails, and
//   drops every later flit until the replay arrives; the sender, which keeps
//   every flit it sent in a replay buffer of `link_replay_flits` until the
//   receiver acknowledges it, retransmits from the corrupted flit on. A flit
//   sent in cycle t reaches the receiver at t + L (L = link_latency); the
//   NAK (or ACK) comes back on the credit wires at t + 2L, where the replay
//   starts: each error costs the link 2L cycles, and the flits the sender
//   put on the wires between t and t + 2L are sent again (they count as
//   retransmitted). A flit enters the wires only while the replay buffer has
//   room (a buffer smaller than 2L flits throttles the link even without
//   errors). ACKs and NAKs are assumed error-free. Order and credits are those
//   of the error-free link: flits arrive in order, later, and the receiver
//   returns credits as its buffers drain.
// - `link_retry: none`: the receiver sees the CRC fail but has no retry; the
//   corrupted flit is delivered, and the collective's data check names the
//   words it spoiled.
// - `link_down: LINK@CYCLE[,LINK@CYCLE...]`: from CYCLE on the link carries
//   nothing; flits sent to it stay in its sender's replay buffer, credits
//   stop, traffic behind it stalls, and the run ends in a deadlock report
//   (exit 3) that names the link. LINK is the link's name in the report's
//   link_utilization.per_link (`<node>:<port>-><node>`, e.g. `r0:x+->r1`).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "collectives/params.hpp"
#include "systemc/kernel/cycle.hpp"
#include "systemc/link/packet.hpp"
#include "systemc/kernel/random.hpp"
#include "topology/topology.hpp"

namespace collnet::systemc {

enum class LinkRetry : std::uint8_t { go_back_n, none };

struct LinkDown {
  topology::LinkId link = topology::kNone;
  std::string name;
  Cycle at = 0;
};

struct LinkFaultConfig {
  double error_rate = 0;
  LinkRetry retry = LinkRetry::go_back_n;
  int replay_flits = 0;  // 0: 2 x link_latency (the round trip: full rate)
  std::uint64_t seed = 1;
  std::string down_text;  // link_down as given; resolved against the topology
  /// Any fault key set: the links run the fault model (otherwise they are the
  /// plain channel of link.hpp, cycle for cycle).
  bool enabled = false;
};

/// Reads link_error_rate, link_retry, link_replay_flits, fault_seed,
/// link_down (ConfigError naming the key on a bad value).
LinkFaultConfig link_faults_from(const Params& params);
/// Resolves link_down against the topology's link names (ConfigError naming
/// the key, the bad name and examples of accepted ones).
std::vector<LinkDown> resolve_link_down(const std::string& text, const topology::Topology& topology);

/// CRC-32 of a flit as it crosses a link.
std::uint32_t flit_crc(const Flit& flit);

/// The fault state of one link (owned by the Network, pointed to by the Link).
class LinkFaults {
 public:
  LinkFaults(const LinkFaultConfig& config, int latency, std::uint64_t link_id, Cycle down_at);

  /// The cycle the flit submitted in cycle `submitted` finally crosses the
  /// link intact (go-back-n) or at all (none: `flit` may come back
  /// corrupted); kNever if the link is down by then (the flit is held).
  Cycle transmit(Flit& flit, Cycle submitted);

  [[nodiscard]] std::uint64_t corrupted() const { return corrupted_; }
  [[nodiscard]] std::uint64_t retransmitted() const { return retransmitted_; }
  [[nodiscard]] std::uint64_t held() const { return held_flits_; }
  [[nodiscard]] Cycle down_at() const { return down_at_; }

 private:
  struct Window {  // wire slots between a corrupted flit and its NAK
    Cycle slot;
    Cycle end;
  };
  LinkRetry retry_;
  double rate_;
  Cycle round_trip_;
  std::size_t replay_depth_;
  Cycle down_at_;
  Random random_;
  Cycle next_ = 0;                 // first free wire slot for the next flit
  std::deque<Cycle> unacked_;      // final departure of the flits in the replay buffer
  std::deque<Window> windows_;
  std::uint64_t corrupted_ = 0;
  std::uint64_t retransmitted_ = 0;
  std::uint64_t held_flits_ = 0;
};

}  // namespace collnet::systemc
