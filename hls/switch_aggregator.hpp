// The aggregation engine of a switch: in-network reduction of the packets
// that the switch's children send up a reduction tree.
//
// A table of `Slots` aggregation slots, each holding one in-flight reduction
// block, keyed by (collective, block): the 16-bit key of the packet, [15:12]
// the collective, [11:0] the block. Every child port in CHILD_MASK sends one
// packet of W words (BLOCK_WORDS) per block, one flit = one 64-bit word a
// cycle. The engine combines the words of a block's packets word by word
// (OP: sum, max or min of int64 words, as collectives::combine), and the
// packet of the last child to contribute leaves for the parent as it is
// combined (cut-through, no extra pass over the accumulator): the reduced
// packet goes up when, and only when, every child has contributed. The
// result comes back down from the parent and the engine passes it to its
// children (the switch replicates it to every port of CHILD_MASK); the
// slot frees when the last word of its block has gone down. At the root
// of a reduction tree the switch loops the engine's up port into its down
// port (the root's parent is itself).
//
// Ports (valid/ready, a transfer when both are 1; SwitchAggregatorInputs,
// SwitchAggregatorOutputs document each):
//   cfg_we, cfg_addr, cfg_wdata  configuration writes (hls/engine_registers.yaml,
//                                switch_aggregator), taken only while !busy
//   in_*    children -> engine: in_child, in_key, in_data; a packet's flits
//           come one after the other (no other packet between them)
//   up_*    engine -> parent: up_key, up_data, up_last (the reduced packet)
//   dn_*    parent -> engine: dn_key, dn_data (the result)
//   out_*   engine -> children: out_key, out_data, out_last (the result,
//           for every child of CHILD_MASK)
//   busy    a slot is in use or a word is in flight
// Handshake contract:
//   - up_valid and out_valid are register outputs (they do not depend on
//     up_ready, out_ready); an offered word stays offered, unchanged, until
//     taken.
//   - in_ready depends on in_valid's packet (its key and child, at a head
//     flit) and on up_ready; dn_ready on out_ready.
//   - A head flit is looked up in the table in the first cycle it is
//     offered (the probe, registered) and can be taken from the second:
//     in_ready at a head is the probe's answer, given while the same head
//     (key and child) is still offered and the table has not changed since
//     (a head taken, a slot freed, a configuration write). The children
//     side offers a head for at least two cycles; a head still refused in
//     its second cycle may be withdrawn and another child's head offered
//     instead: the switch's arbiter moves on to the next child with a
//     packet waiting. This is what keeps a full table from blocking a
//     block it already holds.
//   - Inside a packet the children side keeps in_valid and the flit stable
//     until taken.
//   - Every child of CHILD_MASK sends one packet per block; no other child
//     sends (the RTL asserts both). A down packet comes after its block's
//     up packet has gone (its last word taken) and is W words of one block.
// Backpressure when the table is full (docs/hardware/blocks.md, "The switch
// aggregator"): a head flit of a block the table does not hold is refused
// until a slot frees; a head of a block the table holds is refused only
// while the pipeline waits for the parent (up_ready) or for the word it
// reads to be written (below). With every child sending its blocks in one
// global order (each rank sends block 0, 1, 2, ... of each collective,
// collectives issued in one order), the earliest block that some child
// still has to send is always in the table or admitted as soon as complete
// blocks' results come down, so the table cannot deadlock (the argument:
// docs/hardware/blocks.md).
//
// Datapath: the accumulator is a memory of Slots x 2^WordsWidth words
// (address {slot, word}; block RAM, one read and one write port), read when
// a flit is taken and written four cycles later. The combine is pipelined
// in halves so that no carry chain is longer than 32 bits:
//   take   the flit's address and data into stage 1; the memory read starts
//   s1     the memory word arrives (a) beside the flit's word (b)
//   s2     a, b registered (the block RAM's output is not combined in the
//          cycle it arrives)
//   s3     low halves: a_lo + b_lo with its carry, a_lo < b_lo
//   s4     high halves: a_hi + b_hi + carry, a_hi < b_hi (signed), a_hi =
//          b_hi; the result is chosen (first packet of the block: b; sum;
//          max; min), written to the memory and, for the last child's
//          packet, offered on the up port.
// The pipeline moves as a whole unless its last stage offers an up word
// that the parent does not take (stall). A word is read only after a stage
// that still has to write it has done so: with packets of 4 words or more
// the head's lookup cycle keeps a packet 5 cycles behind the previous one,
// so every read follows the write; with shorter packets a head waits until
// no stage holds its slot (short_q). Throughput one word a cycle inside a
// packet, one cycle more per packet (the head's lookup): W / (W + 1) of the
// line; latency from the last child's word to the up port: 4 cycles.
//
// Register names (_q, with _d the next value) are those of
// rtl/switch_aggregator.sv.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

/// Inputs of the aggregator in one cycle.
struct SwitchAggregatorInputs {
  bool cfg_we = false;
  std::uint8_t cfg_addr = 0;
  std::uint32_t cfg_wdata = 0;
  bool in_valid = false;       // a child's flit is offered
  std::uint8_t in_child = 0;   // the child port it comes from (a bit of CHILD_MASK)
  std::uint16_t in_key = 0;    // (collective, block); read on a packet's head flit
  std::uint64_t in_data = 0;   // the word
  bool up_ready = false;       // the parent side takes the up word
  bool dn_valid = false;       // a word of a result from the parent is offered
  std::uint16_t dn_key = 0;    // its block
  std::uint64_t dn_data = 0;   // the word
  bool out_ready = false;      // the children side takes the down word
};

/// Outputs of the aggregator in one cycle.
struct SwitchAggregatorOutputs {
  bool in_ready = false;
  bool up_valid = false;
  std::uint16_t up_key = 0;
  std::uint64_t up_data = 0;
  bool up_last = false;  // the packet's last word
  bool dn_ready = false;
  bool out_valid = false;
  std::uint16_t out_key = 0;
  std::uint64_t out_data = 0;
  bool out_last = false;
  bool busy = false;
};

/// Slots: aggregation slots; WordsWidth: bits of a word index (at most
/// 2^WordsWidth words a packet); Children: child ports (CHILD_MASK bits).
template <unsigned Slots = switch_aggregator_reg::slots, unsigned WordsWidth = 5,
          unsigned Children = switch_aggregator_reg::children>
class SwitchAggregator {
 public:
  static constexpr unsigned slots = Slots;
  static constexpr unsigned max_words = 1u << WordsWidth;
  static constexpr unsigned children = Children;
  static constexpr unsigned depth = Slots * max_words;
  static_assert(Slots >= 1 && Slots <= 64, "a table of 1..64 slots");
  static_assert(Children >= 1 && Children <= 8, "CHILD_MASK has 8 bits");
  static_assert(WordsWidth >= 1 && WordsWidth <= 12, "packets of up to 4096 words");

  /// The combinational part: what the aggregator drives in this cycle.
  [[nodiscard]] SwitchAggregatorOutputs outputs(const SwitchAggregatorInputs& in) const {
    SwitchAggregatorOutputs out;
    const Take t = take_of(in);
    out.in_ready = t.ready;
    out.up_valid = s4_.valid && s4_.emit;
    out.up_key = s4_.key;
    out.up_data = result_of(s4_);
    out.up_last = s4_.last;
    out.dn_ready = !out_valid_q_ || in.out_ready;
    out.out_valid = out_valid_q_;
    out.out_key = out_key_q_;
    out.out_data = out_data_q_;
    out.out_last = out_last_q_;
    out.busy = busy();
    return out;
  }

  /// One clock cycle: returns this cycle's outputs, then commits.
  SwitchAggregatorOutputs step(const SwitchAggregatorInputs& in) {
    COLLNET_HLS(INLINE)
    const SwitchAggregatorOutputs out = outputs(in);
    const Take t = take_of(in);
    const bool advance = !stall(in.up_ready);
    const bool take = in.in_valid && t.ready;
    const bool dn_take = in.dn_valid && out.dn_ready;
    const bool cfg_write = in.cfg_we && !busy();

    // The contract: a child of CHILD_MASK, once per block.
    assert(!take || in_pkt_q_ || ((child_mask_q_ >> (in.in_child & 7u)) & 1u));
    assert(!take || in_pkt_q_ || !t.hit || !((slot_mask_q_[t.slot] >> (in.in_child & 7u)) & 1u));

    // The slot table, on a head flit taken.
    std::array<bool, Slots> slot_valid_d = slot_valid_q_;
    std::array<bool, Slots> slot_up_d = slot_up_q_;
    std::array<bool, Slots> slot_gone_d = slot_gone_q_;
    std::array<std::uint16_t, Slots> slot_key_d = slot_key_q_;
    std::array<std::uint8_t, Slots> slot_mask_d = slot_mask_q_;
    if (take && !in_pkt_q_) {
      slot_valid_d[t.slot] = true;
      slot_key_d[t.slot] = in.in_key;
      slot_mask_d[t.slot] = static_cast<std::uint8_t>((t.hit ? slot_mask_q_[t.slot] : 0u) | child_bit(in.in_child));
      slot_up_d[t.slot] = t.emit;
      slot_gone_d[t.slot] = false;
    }
    // the up packet's last word taken
    if (out.up_valid && in.up_ready && out.up_last) slot_gone_d[s4_.addr >> WordsWidth] = true;
    // The down path: a word taken goes into the output register; the
    // block's last word frees its slot.
    const bool dn_last = dn_idx_q_ == last_idx_q_;
    if (dn_take && dn_last) {
      for (unsigned s = 0; s < Slots; ++s) {
        if (slot_valid_q_[s] && slot_gone_q_[s] && slot_key_q_[s] == in.dn_key) slot_valid_d[s] = false;
      }
    }
    // A down word belongs to a block whose up packet has gone.
    assert(!dn_take || dn_slot_hit(in.dn_key));

    // The pipeline.
    if (advance) {
      if (s4_.valid) mem_[s4_.addr] = result_of(s4_);
      Stage4 s4d;
      s4d.valid = s3_.valid;
      s4d.addr = s3_.addr;
      s4d.first = s3_.first;
      s4d.emit = s3_.emit;
      s4d.last = s3_.last;
      s4d.key = s3_.key;
      s4d.b = s3_.b;
      s4d.a_lo = s3_.a_lo;
      s4d.a_hi = s3_.a_hi;
      s4d.lo_sum = s3_.lo_sum;
      s4d.lo_lt = s3_.lo_lt;
      s4d.hi_sum = static_cast<std::uint32_t>(s3_.a_hi + hi(s3_.b) + (s3_.lo_carry ? 1u : 0u));
      s4d.hi_lt = static_cast<std::int32_t>(s3_.a_hi) < static_cast<std::int32_t>(hi(s3_.b));
      s4d.hi_eq = s3_.a_hi == hi(s3_.b);
      Stage3 s3d;
      static_cast<StageBase&>(s3d) = s2_;
      s3d.b = s2_.b;
      s3d.a_lo = lo(s2_.a);
      s3d.a_hi = hi(s2_.a);
      const std::uint64_t lo_sum = std::uint64_t{lo(s2_.a)} + lo(s2_.b);
      s3d.lo_sum = static_cast<std::uint32_t>(lo_sum);
      s3d.lo_carry = (lo_sum >> 32) != 0;
      s3d.lo_lt = lo(s2_.a) < lo(s2_.b);
      Stage2 s2d;
      static_cast<StageBase&>(s2d) = s1_;
      s2d.b = s1_.b;
      s2d.a = rd_q_;
      // stage 1 and the memory read (the read of an address written in
      // this cycle returns the old word, as block RAM does; a flit that
      // needs it waits, `hazard`)
      Stage1 s1d;
      s1d.valid = take;
      s1d.addr = t.addr;
      s1d.first = t.first;
      s1d.emit = t.emit;
      s1d.last = t.last;
      s1d.key = t.key;
      s1d.b = in.in_data;
      rd_q_ = mem_read_(t.addr);
      s4_ = s4d;
      s3_ = s3d;
      s2_ = s2d;
      s1_ = s1d;
    }

    // The probe: the offered head's lookup, for the next cycle; whether the
    // table changes in this cycle (a packet's head taken, a slot freed, a
    // configuration write), which makes the probe stale.
    const Probe p = lookup(in.in_key, in.in_child);
    bool freed = false;
    for (unsigned s = 0; s < Slots; ++s) freed = freed || (slot_valid_q_[s] && !slot_valid_d[s]);
    probe_ok_q_ = in.in_valid && !in_pkt_q_ && p.ok;
    probe_key_q_ = in.in_key;
    probe_child_q_ = in.in_child;
    probe_hit_q_ = p.hit;
    probe_slot_q_ = p.slot;
    probe_emit_q_ = p.emit;
    changed_q_ = (take && !in_pkt_q_) || freed || cfg_write;

    // The packet in progress on the children side.
    if (take) {
      in_pkt_q_ = !t.last;
      in_slot_q_ = t.slot;
      in_first_q_ = t.first;
      in_emit_q_ = t.emit;
      in_idx_q_ = t.last ? 0u : static_cast<std::uint16_t>(t.idx + 1u);
    }

    // The down output register and its word counter.
    if (dn_take) {
      out_valid_q_ = true;
      out_key_q_ = in.dn_key;
      out_data_q_ = in.dn_data;
      out_last_q_ = dn_last;
      dn_idx_q_ = dn_last ? 0u : static_cast<std::uint16_t>(dn_idx_q_ + 1u);
    } else if (in.out_ready) {
      out_valid_q_ = false;
    }

    slot_valid_q_ = slot_valid_d;
    slot_up_q_ = slot_up_d;
    slot_gone_q_ = slot_gone_d;
    slot_key_q_ = slot_key_d;
    slot_mask_q_ = slot_mask_d;

    if (cfg_write) configure(in.cfg_addr, in.cfg_wdata);
    return out;
  }

  void reset() {
    enable_q_ = false;
    child_mask_q_ = 0;
    op_q_ = static_cast<std::uint8_t>(switch_aggregator_reg::op_sum);
    last_idx_q_ = 0;
    short_q_ = true;
    slot_valid_q_.fill(false);
    slot_up_q_.fill(false);
    slot_gone_q_.fill(false);
    slot_key_q_.fill(0);
    slot_mask_q_.fill(0);
    in_pkt_q_ = false;
    in_slot_q_ = 0;
    in_first_q_ = false;
    in_emit_q_ = false;
    in_idx_q_ = 0;
    s1_ = {};
    s2_ = {};
    s3_ = {};
    s4_ = {};
    rd_q_ = 0;
    probe_ok_q_ = false;
    probe_key_q_ = 0;
    probe_child_q_ = 0;
    probe_hit_q_ = false;
    probe_slot_q_ = 0;
    probe_emit_q_ = false;
    changed_q_ = false;
    out_valid_q_ = false;
    out_key_q_ = 0;
    out_data_q_ = 0;
    out_last_q_ = false;
    dn_idx_q_ = 0;
    // The accumulator memory is not reset (block RAM): every word is
    // written by a block's first packet before it is read.
  }

  [[nodiscard]] bool busy() const {
    bool any = in_pkt_q_ || s1_.valid || s2_.valid || s3_.valid || s4_.valid || out_valid_q_ || dn_idx_q_ != 0;
    for (unsigned s = 0; s < Slots; ++s) any = any || slot_valid_q_[s];
    return any;
  }
  /// Slots in use (for a switch's statistics and the benches).
  [[nodiscard]] unsigned slots_in_use() const {
    unsigned n = 0;
    for (unsigned s = 0; s < Slots; ++s) n += slot_valid_q_[s] ? 1u : 0u;
    return n;
  }

 private:
  struct StageBase {
    bool valid = false;
    std::uint16_t addr = 0;  // {slot, word}
    bool first = false;      // the block's first packet: the result is b
    bool emit = false;       // the block's last packet: the result goes up
    bool last = false;       // the packet's last word
    std::uint16_t key = 0;
  };
  struct Stage1 : StageBase {
    std::uint64_t b = 0;
  };
  struct Stage2 : StageBase {
    std::uint64_t b = 0;
    std::uint64_t a = 0;
  };
  struct Stage3 : StageBase {
    std::uint64_t b = 0;
    std::uint32_t a_lo = 0, a_hi = 0;
    std::uint32_t lo_sum = 0;
    bool lo_carry = false;
    bool lo_lt = false;  // a_lo < b_lo (unsigned)
  };
  struct Stage4 : StageBase {
    std::uint64_t b = 0;
    std::uint32_t a_lo = 0, a_hi = 0;
    std::uint32_t lo_sum = 0, hi_sum = 0;
    bool lo_lt = false;
    bool hi_lt = false;  // a_hi < b_hi (signed)
    bool hi_eq = false;
  };

  /// What the children side's offered flit would do if taken.
  struct Take {
    bool ready = false;
    bool hit = false;  // a head whose block the table holds
    unsigned slot = 0;
    std::uint16_t idx = 0;
    std::uint16_t addr = 0;
    bool first = false, emit = false, last = false;
    std::uint16_t key = 0;
  };

  static std::uint32_t lo(std::uint64_t w) { return static_cast<std::uint32_t>(w); }
  static std::uint32_t hi(std::uint64_t w) { return static_cast<std::uint32_t>(w >> 32); }
  static std::uint8_t child_bit(std::uint8_t c) { return static_cast<std::uint8_t>(1u << (c & 7u)); }

  [[nodiscard]] bool stall(bool up_ready) const { return s4_.valid && s4_.emit && !up_ready; }

  [[nodiscard]] bool dn_slot_hit(std::uint16_t key) const {
    for (unsigned s = 0; s < Slots; ++s)
      if (slot_valid_q_[s] && slot_gone_q_[s] && slot_key_q_[s] == key) return true;
    return false;
  }

  [[nodiscard]] Take take_of(const SwitchAggregatorInputs& in) const {
    Take t;
    bool accept = in_pkt_q_;
    if (in_pkt_q_) {
      t.slot = in_slot_q_;
      t.idx = in_idx_q_;
      t.first = in_first_q_;
      t.emit = in_emit_q_;
      t.key = slot_key_q_[in_slot_q_];
    } else {
      // the head: taken on the table lookup of the cycle before (the probe),
      // if the same head was offered then and the table has not changed since
      t.hit = probe_hit_q_;
      t.slot = probe_slot_q_;
      t.first = !probe_hit_q_;
      t.emit = probe_emit_q_;
      t.key = in.in_key;
      t.idx = 0;
      accept = probe_ok_q_ && !changed_q_ && in.in_key == probe_key_q_ && in.in_child == probe_child_q_;
    }
    t.last = t.idx == last_idx_q_;
    t.addr = static_cast<std::uint16_t>((t.slot << WordsWidth) | t.idx);
    // A word still to be written by a stage is not read before it is: with
    // packets of 4 words or more the head's lookup cycle keeps a packet's
    // words 5 cycles behind the previous packet's, so a read always follows
    // the write; with shorter packets (short_q) a head waits until no stage
    // holds its slot.
    const auto in_slot = [&](const StageBase& st) { return st.valid && (st.addr >> WordsWidth) == probe_slot_q_; };
    const bool hazard = !in_pkt_q_ && short_q_ && (in_slot(s1_) || in_slot(s2_) || in_slot(s3_) || in_slot(s4_));
    // (a configuration write holds the children side for its cycle)
    t.ready = accept && !hazard && !stall(in.up_ready) && !in.cfg_we;
    return t;
  }

  /// The table lookup of a head (the probe): the slot holding its block,
  /// else the lowest free slot; whether the block takes the packet.
  struct Probe {
    bool ok = false, hit = false, emit = false;
    unsigned slot = 0;
  };
  [[nodiscard]] Probe lookup(std::uint16_t key, std::uint8_t child) const {
    Probe p;
    bool free_found = false;
    unsigned free_slot = 0;
    for (unsigned s = 0; s < Slots; ++s) {
      if (slot_valid_q_[s] && slot_key_q_[s] == key) {
        p.hit = true;
        p.slot = s;
      }
    }
    for (unsigned s = Slots; s-- > 0;) {
      if (!slot_valid_q_[s]) {
        free_found = true;
        free_slot = s;
      }
    }
    if (!p.hit) p.slot = free_slot;
    const std::uint8_t mask = p.hit ? slot_mask_q_[p.slot] : 0;
    p.emit = static_cast<std::uint8_t>(mask | child_bit(child)) == child_mask_q_;
    // a block that has gone up takes no packet until its slot frees
    p.ok = enable_q_ && (p.hit ? !slot_up_q_[p.slot] : free_found);
    return p;
  }

  [[nodiscard]] std::uint64_t result_of(const Stage4& s) const {
    const std::uint64_t sum = (std::uint64_t{s.hi_sum} << 32) | s.lo_sum;
    const std::uint64_t a = (std::uint64_t{s.a_hi} << 32) | s.a_lo;
    const bool a_lt_b = s.hi_lt || (s.hi_eq && s.lo_lt);  // signed a < b
    if (s.first) return s.b;
    if (op_q_ == switch_aggregator_reg::op_max) return a_lt_b ? s.b : a;
    if (op_q_ == switch_aggregator_reg::op_min) return a_lt_b ? a : s.b;
    return sum;
  }

  [[nodiscard]] std::uint64_t mem_read_(std::uint16_t addr) const { return mem_[addr % depth]; }

  void configure(std::uint8_t addr, std::uint32_t data) {
    namespace reg = switch_aggregator_reg;
    if (addr == reg::control) enable_q_ = (data & 1u) != 0;
    if (addr == reg::child_mask) child_mask_q_ = static_cast<std::uint8_t>(data & ((1u << Children) - 1u));
    if (addr == reg::op && (data == reg::op_sum || data == reg::op_max || data == reg::op_min))
      op_q_ = static_cast<std::uint8_t>(data);
    // BLOCK_WORDS is kept as W - 1 (0 and W > max: max - 1)
    if (addr == reg::block_words) {
      const unsigned w = data & 63u;
      last_idx_q_ = static_cast<std::uint16_t>(w == 0 || w > max_words ? max_words - 1 : w - 1);
      short_q_ = last_idx_q_ < 3;
    }
  }

  // configuration
  bool enable_q_ = false;
  std::uint8_t child_mask_q_ = 0;
  std::uint8_t op_q_ = 1;
  std::uint16_t last_idx_q_ = 0;  // W - 1 (BLOCK_WORDS)
  bool short_q_ = true;           // W <= 3
  // the slot table
  std::array<bool, Slots> slot_valid_q_{};
  std::array<bool, Slots> slot_up_q_{};    // complete: its last packet's head was taken
  std::array<bool, Slots> slot_gone_q_{};  // its up packet's last word was taken
  std::array<std::uint16_t, Slots> slot_key_q_{};
  std::array<std::uint8_t, Slots> slot_mask_q_{};  // children that have contributed
  // the packet in progress on the children side
  bool in_pkt_q_ = false;
  unsigned in_slot_q_ = 0;
  bool in_first_q_ = false;
  bool in_emit_q_ = false;
  std::uint16_t in_idx_q_ = 0;
  // the probe: the lookup of the head offered in the cycle before
  bool probe_ok_q_ = false;  // it was offered, and takes the packet
  std::uint16_t probe_key_q_ = 0;
  std::uint8_t probe_child_q_ = 0;
  bool probe_hit_q_ = false;  // the table holds its block
  unsigned probe_slot_q_ = 0;
  bool probe_emit_q_ = false;  // its packet completes the block
  bool changed_q_ = false;     // the table changed in the cycle before
  // the pipeline and the memory's read register
  Stage1 s1_;
  Stage2 s2_;
  Stage3 s3_;
  Stage4 s4_;
  std::uint64_t rd_q_ = 0;
  std::array<std::uint64_t, depth> mem_{};
  // the down path
  bool out_valid_q_ = false;
  std::uint16_t out_key_q_ = 0;
  std::uint64_t out_data_q_ = 0;
  bool out_last_q_ = false;
  std::uint16_t dn_idx_q_ = 0;
};

}  // namespace collnet::hls
