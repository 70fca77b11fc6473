// The Verilated RTL of the NIC's blocks and the switches' aggregation engine (`switch_blocks=rtl`) (`nic_blocks=rtl`
// runs "the NIC with the Verilated pacer and schedule engine in place of the
// C++ classes", and the tree-bcast forwarding rule). rtl/CMakeLists.txt Verilates every block into one library,
// collnet_rtl_models; the NIC reaches those models only through the Pacer and
// EngineBlock interfaces, so nothing else in systemc/ sees Verilator.
//
// All models of a process share one VerilatedContext (a run has one engine
// and k pacers per node, 64 nodes x 5 models on an 8x8 torus; a context holds
// any number of models, and Verilator binds one context to a thread). Every
// model gets a unique instance name. A model is clocked with two eval()s per
// cycle: inputs with the clock low (the combinational outputs settle and are
// read), then the rising edge. RTL assertion failures (--assert) do not stop
// the process: the next step throws std::logic_error naming the block.
//
// Built without Verilator (collnet_rtl_models absent), the factories throw
// ConfigError naming `nic_blocks`.
#pragma once

#include <memory>
#include <string_view>

#include "driver/engine_block.hpp"
#include "systemc/nic/forwarding_rule.hpp"
#include "systemc/nic/pacer.hpp"
#include "systemc/switch/aggregator_block.hpp"

namespace collnet::systemc {

/// True when collnet was built with the Verilated models.
bool rtl_blocks_built();
/// rtl/packet_pacer.sv (PacketFlitsWidth 12), after reset.
std::unique_ptr<Pacer> make_rtl_pacer();
/// rtl/tree_bcast_rule.sv, after reset.
std::unique_ptr<ForwardingRuleBlock> make_rtl_forwarding_rule();
/// rtl/switch_aggregator.sv (its default parameters: Slots = kRtlAggregationSlots), after reset.
std::unique_ptr<SwitchAggregatorBlock> make_rtl_switch_aggregator();
/// The schedule engine named `engine` (rtl/schedule_engine_<engine>.sv), after reset.
std::unique_ptr<driver::EngineBlock> make_rtl_engine(std::string_view engine);

}  // namespace collnet::systemc
