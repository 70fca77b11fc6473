#include "systemc/nic/rtl_blocks.hpp"

#include <stdexcept>
#include <string>

#include "collectives/params.hpp"
#include "driver/engine_loader.hpp"

#if COLLNET_WITH_RTL

#include <Vpacket_pacer.h>
#include <Vpacket_pacer___024root.h>
#include <Vswitch_aggregator.h>
#include <Vtree_bcast_rule.h>
#include <verilated.h>

#include "rtl/schedule_engine_models.hpp"  // every engine's model (rtl/CMakeLists.txt)

namespace collnet::systemc {

using driver::EngineBlock;
using driver::EngineInputs;
using driver::EngineOutputs;

namespace {

/// The process's one context (see the header).
VerilatedContext& context() {
  static VerilatedContext* const shared = [] {
    auto* c = new VerilatedContext;  // lives as long as the process: models of any run use it
    c->fatalOnError(false);          // an assertion failure is reported by check(), not exit()
    c->errorLimit(1000000);
    Verilated::threadContextp(c);
    return c;
  }();
  return *shared;
}

std::string instance_name(const char* block) {
  static unsigned long long serial = 0;
  return std::string(block) + "_" + std::to_string(serial++);
}

/// Throws when an RTL assertion failed in the last eval() (each failure
/// counts one error; the limit is high so that Verilator never exits).
void check(const char* block) {
  if (context().errorCount() == 0 && !context().gotError()) return;
  context().errorCount(0);
  context().gotError(false);
  context().gotFinish(false);
  throw std::logic_error(std::string("nic_blocks=rtl: an assertion of rtl/") + block +
                         ".sv failed (see the %Error line above)");
}

/// One clock cycle of `model`, its inputs set: the clock low, where eval()
/// gives the outputs of this cycle (what `read` returns, from the model),
/// then the rising edge; `block` names the RTL in an assertion error.
template <typename Model, typename Read>
auto clock_cycle(Model& model, const char* block, Read&& read) {
  model.clk_i = 0;
  model.eval();
  auto out = read(static_cast<const Model&>(model));
  model.clk_i = 1;
  model.eval();
  check(block);
  return out;
}

/// A clock cycle whose outputs are registers (read after the edge) or not read.
template <typename Model>
void clock_cycle(Model& model, const char* block) {
  clock_cycle(model, block, [](const Model&) { return 0; });
}

/// Synchronous reset of `model`: rst_ni low for two clock cycles with the
/// inputs `idle` sets, then high; `block` names the RTL in an assertion error.
template <typename Model, typename Idle>
void reset_model(Model& model, const char* block, Idle&& idle) {
  model.rst_ni = 0;
  idle(model);
  for (int edge = 0; edge < 2; ++edge) clock_cycle(model, block);
  model.rst_ni = 1;
  check(block);
}

class RtlPacer final : public Pacer {
 public:
  RtlPacer() : model_(&context(), instance_name("packet_pacer").c_str()) { reset(); }
  ~RtlPacer() override { model_.final(); }
  RtlPacer(const RtlPacer&) = delete;
  RtlPacer& operator=(const RtlPacer&) = delete;

  void reset() override {
    reset_model(model_, "packet_pacer", [](Vpacket_pacer& m) {
      m.in_valid_i = 0;
      m.out_ready_i = 0;
    });
  }

  hls::PacketPacerOutputs step(const hls::PacketPacerInputs& in) override {
    model_.in_valid_i = in.in_valid;
    model_.in_data_i = in.in_data;
    model_.in_last_i = in.in_last;
    model_.in_gap_i = in.in_gap;
    model_.in_slack_i = in.in_slack;
    model_.out_ready_i = in.out_ready;
    return clock_cycle(model_, "packet_pacer", [](const Vpacket_pacer& m) {
      return hls::PacketPacerOutputs{.in_ready = m.in_ready_o != 0, .out_valid = m.out_valid_o != 0,
                                     .out_data = m.out_data_o, .out_last = m.out_last_o != 0};
    });
  }

  // Registers exposed read-only by rtl/packet_pacer.vlt.
  [[nodiscard]] bool in_packet_q() const override { return model_.rootp->packet_pacer__DOT__in_packet_q != 0; }
  [[nodiscard]] std::uint32_t hold_q() const override { return model_.rootp->packet_pacer__DOT__hold_q; }

 private:
  Vpacket_pacer model_;
};

class RtlForwardingRule final : public ForwardingRuleBlock {
 public:
  RtlForwardingRule() : model_(&context(), instance_name("tree_bcast_rule").c_str()) {
    reset_model(model_, "tree_bcast_rule", [](Vtree_bcast_rule& m) {
      m.in_valid_i = 0;
      m.out_ready_i = 0;
    });
  }
  ~RtlForwardingRule() override { model_.final(); }
  RtlForwardingRule(const RtlForwardingRule&) = delete;
  RtlForwardingRule& operator=(const RtlForwardingRule&) = delete;

  void configure(const hls::TreeBcastRuleConfig& config) override {
    model_.parent_port_i = config.parent_port;
    model_.is_root_i = config.is_root;
    model_.child_mask_i = config.child_mask;
  }

  hls::TreeBcastRuleOutputs step(const hls::TreeBcastRuleInputs& in) override {
    model_.in_valid_i = in.in_valid;
    model_.from_none_i = in.from_none;
    model_.from_port_i = in.from_port;
    model_.out_ready_i = in.out_ready;
    return clock_cycle(model_, "tree_bcast_rule", [](const Vtree_bcast_rule& m) {
      return hls::TreeBcastRuleOutputs{.in_ready = m.in_ready_o != 0, .out_valid = m.out_valid_o != 0,
                                       .out_mask = m.out_mask_o};
    });
  }

 private:
  Vtree_bcast_rule model_;
};

class RtlSwitchAggregator final : public SwitchAggregatorBlock {
 public:
  RtlSwitchAggregator() : model_(&context(), instance_name("switch_aggregator").c_str()) {
    reset_model(model_, "switch_aggregator", [](Vswitch_aggregator& m) {
      m.cfg_we_i = 0;
      m.in_valid_i = 0;
      m.up_ready_i = 0;
      m.dn_valid_i = 0;
      m.out_ready_i = 0;
    });
  }
  ~RtlSwitchAggregator() override { model_.final(); }
  RtlSwitchAggregator(const RtlSwitchAggregator&) = delete;
  RtlSwitchAggregator& operator=(const RtlSwitchAggregator&) = delete;

  hls::SwitchAggregatorOutputs step(const hls::SwitchAggregatorInputs& in) override {
    model_.cfg_we_i = in.cfg_we;
    model_.cfg_addr_i = in.cfg_addr;
    model_.cfg_wdata_i = in.cfg_wdata;
    model_.in_valid_i = in.in_valid;
    model_.in_child_i = in.in_child;
    model_.in_key_i = in.in_key;
    model_.in_data_i = in.in_data;
    model_.up_ready_i = in.up_ready;
    model_.dn_valid_i = in.dn_valid;
    model_.dn_key_i = in.dn_key;
    model_.dn_data_i = in.dn_data;
    model_.out_ready_i = in.out_ready;
    return clock_cycle(model_, "switch_aggregator", [](const Vswitch_aggregator& m) {
      hls::SwitchAggregatorOutputs out;
      out.in_ready = m.in_ready_o != 0;
      out.up_valid = m.up_valid_o != 0;
      out.up_key = static_cast<std::uint16_t>(m.up_key_o);
      out.up_data = m.up_data_o;
      out.up_last = m.up_last_o != 0;
      out.dn_ready = m.dn_ready_o != 0;
      out.out_valid = m.out_valid_o != 0;
      out.out_key = static_cast<std::uint16_t>(m.out_key_o);
      out.out_data = m.out_data_o;
      out.out_last = m.out_last_o != 0;
      out.busy = m.busy_o != 0;
      return out;
    });
  }
  [[nodiscard]] unsigned slots() const override { return kRtlAggregationSlots; }

 private:
  Vswitch_aggregator model_;
};

/// Every engine module has the ports of driver/engine_block.hpp.
template <typename Model>
class RtlEngine final : public EngineBlock {
 public:
  explicit RtlEngine(const char* block) : block_(block), model_(&context(), instance_name(block).c_str()) {
    reset_model(model_, block_, [](Model& m) {
      m.cfg_we_i = 0;
      m.out_ready_i = 0;
    });
  }
  ~RtlEngine() override { model_.final(); }
  RtlEngine(const RtlEngine&) = delete;
  RtlEngine& operator=(const RtlEngine&) = delete;

  [[nodiscard]] EngineOutputs outputs() const override {
    EngineOutputs out;
    out.out_valid = model_.out_valid_o != 0;
    out.out_desc.lo = std::uint64_t{model_.out_desc_o[0]} | (std::uint64_t{model_.out_desc_o[1]} << 32);
    out.out_desc.hi = std::uint64_t{model_.out_desc_o[2]} | (std::uint64_t{model_.out_desc_o[3]} << 32);
    out.busy = model_.busy_o != 0;
    return out;
  }

  void step(const EngineInputs& in) override {
    // The outputs are registers: outputs() reads them after the edge.
    model_.cfg_we_i = in.cfg_we;
    model_.cfg_addr_i = in.cfg_addr;
    model_.cfg_wdata_i = in.cfg_wdata;
    model_.out_ready_i = in.out_ready;
    clock_cycle(model_, block_);
  }

 private:
  const char* block_;
  Model model_;
};

}  // namespace

bool rtl_blocks_built() { return true; }

std::unique_ptr<Pacer> make_rtl_pacer() { return std::make_unique<RtlPacer>(); }

std::unique_ptr<ForwardingRuleBlock> make_rtl_forwarding_rule() { return std::make_unique<RtlForwardingRule>(); }

std::unique_ptr<SwitchAggregatorBlock> make_rtl_switch_aggregator() { return std::make_unique<RtlSwitchAggregator>(); }

template <typename Model>
std::unique_ptr<EngineBlock> make_rtl_engine_of(const char* block) {
  return std::make_unique<RtlEngine<Model>>(block);
}

std::unique_ptr<EngineBlock> make_rtl_engine(std::string_view engine) {
  // The Verilated model of every rtl/schedule_engine_*.sv, by its block name.
  struct Model {
    const char* block;
    std::unique_ptr<EngineBlock> (*make)(const char*);
  };
#define COLLNET_RTL_ENGINE_MODEL(block) Model{#block, make_rtl_engine_of<V##block>},
  static constexpr Model models[] = {COLLNET_RTL_ENGINES(COLLNET_RTL_ENGINE_MODEL)};
#undef COLLNET_RTL_ENGINE_MODEL
  const std::string block = driver::engine_block(engine);
  for (const Model& m : models)
    if (block == m.block) return m.make(m.block);
  throw std::logic_error("make_rtl_engine: no Verilated model of " + block);
}

}  // namespace collnet::systemc

#else  // built without Verilator

namespace collnet::systemc {

namespace {
[[noreturn]] void unavailable() {
  throw ConfigError("key 'nic_blocks': rtl needs the Verilated models, and Verilator was not found when collnet was "
                    "built (scripts/setup.sh installs it); accepted value here: hls");
}
}  // namespace

bool rtl_blocks_built() { return false; }
std::unique_ptr<Pacer> make_rtl_pacer() { unavailable(); }
std::unique_ptr<ForwardingRuleBlock> make_rtl_forwarding_rule() { unavailable(); }
std::unique_ptr<SwitchAggregatorBlock> make_rtl_switch_aggregator() { unavailable(); }
std::unique_ptr<driver::EngineBlock> make_rtl_engine(std::string_view /*engine*/) { unavailable(); }

}  // namespace collnet::systemc

#endif
