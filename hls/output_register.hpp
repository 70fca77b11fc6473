// The registered valid/ready outputs: OutputRegister (the tree-bcast rule,
// hls/tree_bcast_rule.hpp): one value register and its valid bit, emptied
// by the consumer; OutputBuffer (the schedule engines,
// hls/schedule_engine.hpp): that register with a skid register behind it.
//
// Handshake contract: `valid` is a register output and never depends on
// out_ready; an offered value stays offered and unchanged until taken
// (valid and out_ready in the same cycle). A new value may be loaded only
// when the register is empty or its value is being taken (`can_load`), so
// nothing offered is ever overwritten. RTL: the out_valid_q / out_*_q
// registers of rtl/tree_bcast_rule.sv.
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

/// Two entries: the output register (the port) and a skid register behind
/// it. RTL: out_valid_q / out_q and skid_valid_q / skid_q of
/// rtl/common/schedule_engine_skeleton.sv.
///
/// Handshake contract as OutputRegister's (`valid` is a register output; an
/// offered value stays offered and unchanged until taken), but a value may be
/// loaded whenever the skid register is empty (`can_load`, a register: it
/// does not depend on out_ready). A loaded value goes to the output register
/// when that is free in this cycle (empty, or its value taken), else to the
/// skid register; a free output register takes the skid register's value
/// first. Values leave in the order loaded, one per cycle; with a consumer
/// that is always ready the skid register stays empty and `valid` and
/// `value` are those of an OutputRegister, cycle for cycle.
template <typename Value>
class OutputBuffer {
 public:
  [[nodiscard]] bool valid() const { return valid_q_; }
  [[nodiscard]] const Value& value() const { return value_q_; }

  /// Whether a value may be loaded in this cycle: the skid register is empty.
  [[nodiscard]] bool can_load() const { return !skid_valid_q_; }

  /// The clock edge: `next` is loaded when `load` (only where can_load
  /// allowed it). The RTL's registers also take words that are not offered
  /// (a free output register and an empty skid register take the engine's
  /// word in every cycle, so that their enables do not wait for `load`);
  /// here a register takes only the words that count, which the port cannot
  /// tell apart.
  void clock(bool load, const Value& next, bool out_ready) {
    if (!valid_q_ || out_ready) {  // the output register is free: the waiting value, else the loaded one
      valid_q_ = skid_valid_q_ || load;
      if (skid_valid_q_) value_q_ = skid_q_;
      else if (load) value_q_ = next;
      skid_valid_q_ = false;
    } else if (load) {  // the offered value stays: the loaded one waits behind it
      skid_valid_q_ = true;
      skid_q_ = next;
    }
  }

  void reset() {
    valid_q_ = false;
    skid_valid_q_ = false;
    value_q_ = Value{};
    skid_q_ = Value{};
  }

 private:
  bool valid_q_ = false;
  bool skid_valid_q_ = false;
  Value value_q_{};
  Value skid_q_{};
};

}  // namespace collnet::hls
