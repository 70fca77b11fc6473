// The switches of an in-network collective (collectives/algorithms/innet.cpp)
// in the cycle model: one aggregation unit per switch and aggregation tree
// (topology/aggregation.hpp) it belongs to, attached to the switch's router
// as a set of ports the router delivers reduction packets to and takes them
// from, as it does with a NIC's controllers. The router itself is unchanged;
// the links and their serialization too.
//
// A unit of a switch with k children in its tree holds:
//   - the switch's aggregation engine (SwitchAggregatorBlock: the HLS class or
//     its Verilated RTL, key switch_blocks, with aggregation_slots slots),
//     configured by its register writes in the unit's first cycles: CHILD_MASK
//     = its k children, OP, BLOCK_WORDS, CONTROL; innet-bcast, which reduces
//     nothing, runs a relay in its place (each packet up as it comes, the
//     result down as it comes);
//   - k + 1 router ports: port base + j (j < k) delivers child j's packets and
//     takes the result's copy for child j; port base + k delivers the parent's
//     result and takes the unit's reduced packet up (none at the tree's root,
//     whose unit loops its up output into its down input, the packet's last
//     word gone first, as the engine's contract asks).
// The children side offers the engine one packet at a time: a head refused
// in the second cycle it is offered is withdrawn and the next child with a
// head waiting is offered (round robin), which keeps a full table from
// blocking the block it already holds (hls/switch_aggregator.hpp). Each
// child's packets come on a port of their own, so a refused head holds
// nothing but its own child's link.
//
// Packets. A reduction packet is one block of W = block_words words, one
// SEND (the NIC pads the vector's last block with the reduction's identity,
// and the receiving NIC writes only the words inside the vector). Its header
// carries the tag (tree + 1), the block's destination offset (the engine's
// key is (tag mod 16) << 12 | (block / trees)), and in `area` the child
// index at the unit it goes to. Every packet crosses one link, the tree
// edge. Packets on their way up take the reduction VC class
// (NetworkExtras::reduction_class): the last VC of every port, which no
// other packet takes, so that a block waiting for a slot holds no VC that
// ordinary traffic or a result coming down needs (on the multi-layer
// leaf/spine mesh one spine-to-leaf link carries one tree's blocks up and
// another's results down: in one VC, a block refused by a full table would
// hold back the results that free it). Results on their way down take class
// 0 with ordinary packets: they always drain, to a NIC or to a unit that
// passes them on.
//
// Bookkeeping (the simulator's, the hardware's sideband): a NIC's SEND to the
// trees is delivered (its source's outstanding count drops) when the unit has
// taken its packet; each block of a receiver's result is one message whose
// record the unit makes with the packet it sends down to it.
//
// In-network runs are evaluated on one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collectives/schedule.hpp"
#include "systemc/link/packet.hpp"
#include "systemc/network/network.hpp"
#include "systemc/switch/aggregator_block.hpp"
#include "topology/aggregation.hpp"

namespace collnet::systemc {

struct CollectiveBook;
class AggregatorUnit;

/// Where an endpoint's packets of one tree enter its attachment switch's unit.
struct InnetEntry {
  std::vector<RouteStep> steps;  // NIC -> switch (empty: the endpoint is on the switch's node)
  std::uint8_t controller = 0;   // the router's ejection port there, after its network ports
  std::uint8_t child = 0;        // the endpoint's child index at that unit
};

class InNetworkFabric {
 public:
  /// The routers' unit ports and the reduction VC class an in-network
  /// collective needs (the Network is built with them). Throws ConfigError
  /// naming the key when a switch would need more ports than the header's
  /// 8-bit controller field reaches.
  static NetworkExtras extras(const topology::Topology& topology, const collectives::InNetwork& innet,
                              int controllers);

  /// Builds the units of every tree and binds them to the routers' unit
  /// ports; sets itself as the network's fabric.
  InNetworkFabric(Network& network, const collectives::Schedule& schedule, SwitchBlocks blocks, int slots,
                  CollectiveBook& book);
  ~InNetworkFabric();
  InNetworkFabric(const InNetworkFabric&) = delete;
  InNetworkFabric& operator=(const InNetworkFabric&) = delete;

  [[nodiscard]] const collectives::InNetwork& innet() const { return innet_; }
  [[nodiscard]] std::uint32_t block_words() const { return innet_.block_words; }
  [[nodiscard]] const InnetEntry& entry(topology::EndpointId e, int tree) const;

  /// The engine key of the block at `offset` of the vector, tagged `tag`:
  /// block g = offset / W is block g / T of tree g mod T (tag = tree + 1).
  [[nodiscard]] std::uint16_t key(std::uint32_t tag, std::uint32_t offset) const;
  /// The tag and the destination offset of a block's key.
  [[nodiscard]] std::uint32_t tag_of(std::uint16_t key) const;
  [[nodiscard]] std::uint32_t offset_of(std::uint16_t key) const;
  /// The reduction's identity (the NIC's padding words).
  [[nodiscard]] std::uint64_t identity() const;

  /// The message record of `e`'s result of the block at `offset`, tagged
  /// `tag` (made with its packet: the receiving NIC then waits for it).
  std::uint32_t receipt(topology::EndpointId e, std::uint32_t tag, std::uint32_t offset, Cycle now);
  /// A packet of a SEND to the trees has been taken by a unit; the SEND is
  /// delivered with its last one.
  void contribution_taken(std::uint32_t message, Cycle now);

  [[nodiscard]] std::size_t unit_count() const { return units_.size(); }
  /// Slots in use, flits waiting, per unit that holds any (deadlock reports).
  [[nodiscard]] std::string describe() const;

 private:
  CollectiveBook& book_;
  collectives::InNetwork innet_;
  std::vector<std::vector<InnetEntry>> entries_;  // [endpoint][tree]
  std::uint32_t tag_by_low_bits_[16] = {};
  std::uint32_t length_ = 0;  // words of the vector
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::unique_ptr<AggregatorUnit>> units_;
};

}  // namespace collnet::systemc
