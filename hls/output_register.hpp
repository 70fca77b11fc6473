// The registered valid/ready outputs: OutputRegister (the tree-bcast rule,
// hls/tree_bcast_rule.hpp): one value register and its valid bit, emptied
// by the consumer; OutputBuffer (the schedule engines,
// hls/schedule_engine.hpp): two entries, so that whether a value may be
// loaded is a register.
//
// Handshake contract: `valid` is a register output and never depends on
// out_ready; an offered value stays offered and unchanged until taken
// (valid and out_ready in the same cycle). A new value may be loaded only
// when the register is empty or its value is being taken (`can_load`), so
// nothing offered is ever overwritten. RTL: the out_valid_q / out_*_q
// registers of rtl/tree_bcast_rule.sv.
#pragma once

#include <array>

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

/// Two entries, offered in the order loaded: the head (valid with `valid`)
/// and the value waiting behind it (with `full`). RTL: out_valid_q, full_q,
/// rd_q and ent0_q / ent1_q of rtl/common/schedule_engine_skeleton.sv.
///
/// Handshake contract as OutputRegister's (`valid` is a register output; an
/// offered value stays offered and unchanged until taken), but a value may be
/// loaded whenever the buffer is not full (`can_load`, a register: it does
/// not depend on out_ready). A loaded value goes into the entry behind the
/// head (the head's entry when the buffer is empty), and a taken head passes
/// the head to the other entry. Values leave in the order loaded, one per
/// cycle; with a consumer that is always ready the buffer never fills and
/// `valid` and `value` are those of an OutputRegister, cycle for cycle.
template <typename Value>
class OutputBuffer {
 public:
  [[nodiscard]] bool valid() const { return valid_q_; }
  [[nodiscard]] const Value& value() const { return entry_q_[rd_q_ ? 1 : 0]; }

  /// Whether a value may be loaded in this cycle: the buffer is not full.
  [[nodiscard]] bool can_load() const { return !full_q_; }

  /// The clock edge: `next` is loaded when `load` (only where can_load
  /// allowed it). The RTL's entries also take words that are not offered
  /// (an empty entry takes the engine's word in every cycle, so that its
  /// enable does not wait for `load`); here an entry takes only the words
  /// that count, which the port cannot tell apart.
  void clock(bool load, const Value& next, bool out_ready) {
    const bool take = valid_q_ && out_ready;
    if (load) entry_q_[(rd_q_ != valid_q_) ? 1 : 0] = next;  // behind the head, or the head's entry when empty
    const bool valid_d = full_q_ || load || (valid_q_ && !out_ready);
    full_q_ = !take && (full_q_ || (valid_q_ && load));
    valid_q_ = valid_d;
    if (take) rd_q_ = !rd_q_;
  }

  void reset() {
    valid_q_ = full_q_ = rd_q_ = false;
    entry_q_ = {};
  }

 private:
  bool valid_q_ = false;  // one value or more: the head is offered
  bool full_q_ = false;   // two values
  bool rd_q_ = false;     // the head's entry
  std::array<Value, 2> entry_q_{};
};

}  // namespace collnet::hls
