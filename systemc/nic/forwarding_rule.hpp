// The tree-bcast forwarding-rule block as the NIC sees it (spec tree-broadcast, document 003): the synthesizable class
// hls/tree_bcast_rule.hpp or its Verilated RTL rtl/tree_bcast_rule.sv (key
// `nic_blocks`), behind one interface, as the pacer (pacer.hpp) and the
// schedule engines (engine_block.hpp) are. The header of
// hls/tree_bcast_rule.hpp defines the ports, the handshake and the rule.
//
// step(in) is one clock cycle: the outputs of that cycle (registers: they do
// not depend on `in`, except in_ready on out_ready), then the clock edge.
// The configuration ports are static during a collective; configure() sets
// them before the first step (software loads them with the collective).
#pragma once

#include <memory>

#include "hls/tree_bcast_rule.hpp"
#include "systemc/nic/pacer.hpp"

namespace collnet::systemc {

class ForwardingRuleBlock {
 public:
  virtual ~ForwardingRuleBlock() = default;
  /// The node's local view (parent_port_i, is_root_i, child_mask_i).
  virtual void configure(const hls::TreeBcastRuleConfig& config) = 0;
  /// One clock cycle with inputs `in`; returns the outputs of that cycle.
  virtual hls::TreeBcastRuleOutputs step(const hls::TreeBcastRuleInputs& in) = 0;
};

/// The block of kind `blocks`, after reset. NicBlocks::rtl throws
/// ConfigError naming `nic_blocks` when collnet was built without Verilator.
std::unique_ptr<ForwardingRuleBlock> make_forwarding_rule(NicBlocks blocks);

}  // namespace collnet::systemc
