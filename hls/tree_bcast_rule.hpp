// The tree-bcast forwarding rule of a node as a hardware block (spec
// tree-broadcast, document 003; collectives/tree_bcast.cpp
// `tree_bcast_targets` is the reference it must equal).
//
// A node of the tree network numbers its links as ports 0..63. Software loads
// the node's local view once (the physical root defines it):
//   parent_port   port of the parent link        (ignored when is_root)
//   is_root       1 at the physical root (no parent)
//   child_mask    bit p set when port p leads to a child
// For every message that arrives (or, at the logical root, that the node
// originates) the block answers with the set of ports to forward it to, as a
// bit mask. The four cases of the spec (logical root: parent and every
// child; physical root: every child but the sender; from the parent: every
// child; from a child: the parent and every other child) are one formula:
//   neighbours = child_mask | (is_root ? 0 : 1 << parent_port)
//   send_mask  = neighbours & ~(from_none ? 0 : 1 << from_port)
// i.e. "every tree neighbour except the one the message came from", which
// is why the rule terminates and reaches every node exactly once.
// The reference lists the parent first, then the children; a mask is a set,
// and the NIC walks it from port 0 up (the order of SENDs does not change
// which node receives what, nor the static phases: all SENDs of a receipt
// carry the same tag).
//
// Ports (valid/ready, one request per cycle, latency 1):
//   in_valid, in_ready     a request; in_ready = !out_valid_q || out_ready
//   from_none              1: this node is the logical root (no sender)
//   from_port [5:0]        the port the message came from (from_none = 0)
//   out_valid, out_mask    registered answer; stays stable while !out_ready
// Contract: from_port is a neighbour's port (a parent or child port); the
// block asserts it (a message cannot arrive on an unused port).
// Storage: configuration 6 + 1 + 64 = 71 bits, output 65 bits; no table.
//
// Register names (_q, with _d the next value) are those of
// rtl/tree_bcast_rule.sv.
#pragma once

#include <cassert>
#include <cstdint>

#include "hls/hls_pragma.hpp"
#include "hls/output_register.hpp"

namespace collnet::hls {

struct TreeBcastRuleConfig {
  std::uint8_t parent_port = 0;  // 0..63
  bool is_root = false;
  std::uint64_t child_mask = 0;
};

struct TreeBcastRuleInputs {
  bool in_valid = false;
  bool from_none = false;
  std::uint8_t from_port = 0;
  bool out_ready = false;
};

struct TreeBcastRuleOutputs {
  bool in_ready = false;
  bool out_valid = false;
  std::uint64_t out_mask = 0;
};

/// The combinational rule (spec tree-broadcast): every tree neighbour
/// except the sender.
inline std::uint64_t tree_bcast_send_mask(const TreeBcastRuleConfig& c, bool from_none, std::uint8_t from_port) {
  const std::uint64_t parent_bit = c.is_root ? 0 : std::uint64_t{1} << (c.parent_port & 63u);
  const std::uint64_t neighbours = c.child_mask | parent_bit;
  const std::uint64_t from_bit = from_none ? 0 : std::uint64_t{1} << (from_port & 63u);
  return neighbours & ~from_bit;
}

class TreeBcastRule {
 public:
  static constexpr unsigned ports = 64;
  static constexpr unsigned port_width = 6;

  explicit TreeBcastRule(const TreeBcastRuleConfig& config = {}) : config_(config) {}
  void configure(const TreeBcastRuleConfig& config) { config_ = config; }

  [[nodiscard]] TreeBcastRuleOutputs outputs(bool out_ready) const {
    return {out_.can_load(out_ready), out_.valid(), out_.value()};
  }

  /// One clock cycle: returns this cycle's outputs, then commits.
  TreeBcastRuleOutputs step(const TreeBcastRuleInputs& in) {
    COLLNET_HLS(INLINE)
    const TreeBcastRuleOutputs out = outputs(in.out_ready);
    const bool take = in.in_valid && out.in_ready;
    // A message arrives only on a link of the tree.
    assert(!take || in.from_none || ((config_.child_mask >> (in.from_port & 63u)) & 1u) ||
           (!config_.is_root && in.from_port == config_.parent_port));
    out_.clock(take, tree_bcast_send_mask(config_, in.from_none, in.from_port), in.out_ready);
    return out;
  }

  void reset() { out_.reset(); }

 private:
  TreeBcastRuleConfig config_;
  OutputRegister<std::uint64_t> out_;  // out_valid_q, out_mask_q
};

}  // namespace collnet::hls
