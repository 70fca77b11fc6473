// The registered valid/ready output that the schedule engines
// (hls/schedule_engine.hpp) and the tree-bcast rule (hls/tree_bcast_rule.hpp)
// share: one value register and its valid bit, emptied by the consumer.
//
// Handshake contract: `valid` is a register output and never depends on
// out_ready; an offered value stays offered and unchanged until taken
// (valid and out_ready in the same cycle). A new value may be loaded only
// when the register is empty or its value is being taken (`can_load`), so
// nothing offered is ever overwritten. RTL: the out_valid_q / out_*_q
// registers of rtl/common/schedule_engine_skeleton.sv and rtl/tree_bcast_rule.sv.
#pragma once

namespace collnet::hls {

template <typename Value>
class OutputRegister {
 public:
  [[nodiscard]] bool valid() const { return valid_q_; }
  [[nodiscard]] const Value& value() const { return value_q_; }

  /// Whether a value may be loaded in this cycle: empty, or taken now.
  [[nodiscard]] bool can_load(bool out_ready) const { return !valid_q_ || out_ready; }

  /// The clock edge: `next` is loaded when `load` (only where can_load
  /// allowed it); otherwise a taken value leaves the register empty.
  void clock(bool load, const Value& next, bool out_ready) {
    if (load) {
      valid_q_ = true;
      value_q_ = next;
    } else if (out_ready) {
      valid_q_ = false;
    }
  }

  void reset() {
    valid_q_ = false;
    value_q_ = Value{};
  }

 private:
  bool valid_q_ = false;
  Value value_q_{};
};

}  // namespace collnet::hls
