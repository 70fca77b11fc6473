// Schedule engine for the all-to-all baselines of document 001: expands one
// node's a2a-spread or a2a-nd program into its descriptor stream, at most one
// descriptor per cycle, from a handful of registers that software loads
// before the collective (spec a2a-optimal, "Baselines";
// collectives/a2a_baselines.cpp and a2a_grouped.hpp are the reference it must
// equal word for word).
//
// The stream, for N nodes, message length m words and nct controllers:
//   for every destination in the algorithm's order (send number s = 0, 1, ...):
//     SEND dest, src = dest*m, dst = N*m + self*m, length m,
//          controller = s mod nct, tag = s div nct
//     and with GROUP_BARRIERS set, after the last send of every group (the
//     nct-th, or the very last): BARRIER tag                (group_barriers)
//   SEND self, src = self*m, dst = N*m + self*m, length m, controller 0,
//        tag = number of groups = ceil((N-1)/nct)         (local copy)
//   END
// a2a-nd visits the offsets (o_0, ..., o_3) != 0, 0 <= o_d < n_d, last
// dimension fastest, dest = (coord + offset) mod sizes. a2a-spread visits
// rank+1, rank+2, ... mod N: the same odometer over one dimension of size N
// at coordinate `rank`, which is how the engine runs it.
//
// Register map: a2a_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package schedule_engine_a2a_regs_pkg are
// generated from it); ports and handshake: hls/schedule_engine.hpp.
//   (rank = c_0 + n_0*(c_1 + n_1*(c_2 + n_2*c_3)), X fastest, topology/grid.hpp)
// Contract: N = n_0*n_1*n_2*n_3 <= 65536 and 2*N*m <= 2^20 (the descriptor's
// dest and offset widths; collectives/a2a_common.cpp message_words checks it).
// Storage: 153 configuration bits; no table.
//
// Timing: after start the engine spends sum_d (n_d + 1) cycles computing the
// strides n_0*...*n_{d-1}, their multiples of m, rank and rank*m by repeated
// addition (no multiplier), one cycle on the first offset, one loading the
// output register: counting the cycle of the CONTROL write as 0, the first
// descriptor is offered in cycle sum_d (n_d + 1) + 3; then one descriptor per
// cycle while the consumer is ready (initiation interval 1).
//
// Register names (_q, with _d the next value) are those of
// rtl/schedule_engine_a2a.sv.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

class A2aScheduleEngine : public ScheduleEngine<A2aScheduleEngine> {
 public:
  static constexpr int dims = 4;
  static constexpr unsigned size_width = 16;   // n_d, c_d
  static constexpr unsigned count_width = 17;  // node counts and strides, up to 65536
  static constexpr unsigned group_width = descriptor_layout::tag.width;

  enum class State : std::uint8_t { idle = 0, init = 1, first = 2, send = 3, copy = 4, end = 5, barrier = 6 };

 private:
  struct Registers {
    // configuration (config_registers; SIZE and COORD: dimensions 0..3)
    std::uint32_t algorithm = 0, nct = 1, message_words = 1;
    std::array<std::uint32_t, dims> size{1, 1, 1, 1}, coord{};
    State state = State::idle;
    // stride computation (dimension d, from 0 up)
    std::uint32_t dim = 0;
    std::uint32_t count = 0;        // 0 .. n_d
    std::uint32_t acc = 0;          // count x stride_d
    std::uint32_t macc = 0;         // count x stride_d x m
    std::uint32_t stride_cur = 1;   // stride_d = n_0 x ... x n_{d-1}
    std::uint32_t mstride_cur = 0;  // stride_d x m
    std::uint32_t self_id = 0;      // rank
    std::uint32_t self_m = 0;       // rank x m
    std::uint32_t result_base = 0;  // N x m
    // the current dimension's n_d and c_d, and count = c_d, count = n_d,
    // count + 1 = n_d, each set a step ahead (rtl: u_strides)
    StridesDim cur;  // the current dimension of the stride computation
    // every dimension's values of t = 0, a cycle after SIZE and COORD: the
    // change of dimension takes them (rtl: u_strides dim_size_m2_q, ...)
    std::array<StridesEntry, dims> entry{};
    bool first = false;  // the next step is the first (the rank starts at 0)
    // odometer, slot j = dimension 3 - j (slot 0 is the fastest)
    // a slot's size n as n - 2 (an offset or target there is followed by
    // the last one) and n = 1: the compares of its next flags
    std::array<std::uint32_t, dims> slot_nm2{};
    std::array<bool, dims> slot_one{};
    std::array<std::uint32_t, dims> slot_stride{};
    std::array<std::uint32_t, dims> slot_mstride{};
    std::array<std::uint32_t, dims> slot_offset{};
    std::array<std::uint32_t, dims> slot_target{};  // (c + offset) mod n
    std::array<std::uint32_t, dims> slot_part{};    // target x stride
    std::array<std::uint32_t, dims> slot_mpart{};   // target x stride x m
    // kept with the slots: offset + 1 == n and target + 1 == n (the slot
    // wraps at its next step), part + stride and mpart + mstride (its next
    // part), and the sums of the parts (the SEND's destination and source)
    std::array<bool, dims> off_last{}, tgt_last{};
    // the odometer's carry into slot j = 1..3 at [j - 1] (slot 0 always
    // steps): the AND of off_last of slots 0..j-1, kept beside the flags
    std::array<bool, dims - 1> carry_in{};
    std::array<std::uint32_t, dims> slot_pinc{}, slot_mpinc{};
    std::uint32_t dest_sum = 0, src_sum = 0;
    // the start-up's view of the flags: in the previous cycle count was c_d
    // (prev_coord) and count was 0 (prev_first), so at count = n_d the
    // slot's target is its last (c_d + 1 = n_d) and its size is 1; all_last
    // and all_one: so far in every dimension (the spread program's single slot)
    bool prev_coord = false, prev_first = false, all_last = false, all_one = false;
    // grouping
    std::uint32_t controller = 0;  // send number mod nct
    std::uint32_t group = 0;       // send number div nct
    std::uint32_t group_barriers = 0;
    std::uint32_t barrier_tag = 0;   // the group whose BARRIER is next
    bool barrier_then_copy = false;  // the BARRIER follows the last send
  };

  static constexpr const auto& map = a2a_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_register(map, "ALGORITHM", &Registers::algorithm),    config_register(map, "NCT", &Registers::nct),
      config_register(map, "MESSAGE_WORDS", &Registers::message_words), config_register(map, "SIZE", &Registers::size),
      config_register(map, "COORD", &Registers::coord),
      config_register(map, "GROUP_BARRIERS", &Registers::group_barriers)};

  EngineLoad next_state(Registers& d, bool can_load) const {
    // outside the stride computation: dimension 0, t = 0, stride 1, ready
    // at start (rtl: u_strides); the rank keeps its value until the first step
    d.first = r_.state != State::init;
    for (std::size_t e = 0; e < dims; ++e) {
      COLLNET_HLS(UNROLL)
      d.entry[e] = StridesEntry::of(r_.size[e], r_.coord[e], size_width, size_width);
    }
    if (r_.state != State::init) {
      enter_dim(d, 0);
      d.dim = d.count = d.acc = d.macc = 0;
      d.stride_cur = 1;
      d.mstride_cur = r_.message_words;
    }
    const EngineLoad out = state_step(d, can_load);
    // the carries follow the flags written in this cycle
    bool all = true;
    for (std::size_t j = 1; j < dims; ++j) {
      COLLNET_HLS(UNROLL)
      all = all && d.off_last[j - 1];
      d.carry_in[j - 1] = all;
    }
    return out;
  }

  EngineLoad state_step(Registers& d, bool can_load) const {
    switch (r_.state) {
      case State::idle: break;
      case State::init: init_step(d); break;
      case State::first:
        // the zero offset is this node itself: step past it without a send
        d.state = advance(d) ? State::copy : State::send;
        break;
      case State::send:
        if (can_load) return send_step(d);
        break;
      case State::barrier:
        if (can_load) {
          d.state = r_.barrier_then_copy ? State::copy : State::send;
          return load(Descriptor::barrier(r_.barrier_tag));
        }
        break;
      case State::copy:
        if (can_load) {
          d.state = State::end;
          return load(send_word(r_.self_id, r_.self_m, 0, (r_.group + (r_.controller != 0 ? 1u : 0u)) & mask(group_width)));
        }
        break;
      case State::end:
        if (can_load) return end_of_program(d);
        break;
    }
    return {};
  }

  /// The SEND to the current destination; then the next offset, and the
  /// group's BARRIER after its last send.
  EngineLoad send_step(Registers& d) const {
    const EngineLoad out = load(send_word(r_.dest_sum, r_.src_sum, r_.controller, r_.group));
    const bool group_full = r_.controller + 1u == r_.nct;
    if (group_full) {
      d.controller = 0;
      d.group = (r_.group + 1u) & mask(group_width);
    } else {
      d.controller = (r_.controller + 1u) & 3u;
    }
    const bool last = advance(d);
    // what a BARRIER after this send would carry, written with every send
    d.barrier_tag = r_.group;
    d.barrier_then_copy = last;
    if (r_.group_barriers && (group_full || last)) {
      d.state = State::barrier;  // the group's BARRIER, then on
    } else if (last) {
      d.state = State::copy;
    }
    return out;
  }


  static std::uint32_t sum(const std::array<std::uint32_t, dims>& v, unsigned width) {
    std::uint32_t s = 0;
    for (int j = 0; j < dims; ++j) {
      COLLNET_HLS(UNROLL)
      s += v[static_cast<std::size_t>(j)];
    }
    return s & mask(width);
  }

  void start(Registers& d) const {
    d.state = State::init;  // the stride computation stands at dimension 0
    d.controller = d.group = 0;
    d.all_last = d.all_one = true;
  }

  /// Dimension 0's n_d and c_d and the flags of count = 0 in it, from SIZE0
  /// and COORD0 (outside the stride computation, ready at start).
  void enter_dim(Registers& d, std::size_t dim) const {
    d.cur = StridesDim::enter(r_.size[dim], r_.coord[dim], size_width, size_width);
  }

  /// The next dimension's, from its registers of count = 0 (the change of
  /// dimension in the stride computation).
  void next_dim(Registers& d, std::size_t dim) const {
    d.cur = StridesDim::enter(r_.size[dim], r_.coord[dim], r_.entry[dim], size_width, size_width);
  }

  /// One cycle of the stride computation for dimension dim: count runs
  /// 0..n_d with acc = count x stride_d; at count = c_d the node's own
  /// contribution is taken, at count = n_d the next stride. The compares
  /// are the flags, set a step ahead.
  void init_step(Registers& d) const {
    const auto dim = static_cast<std::size_t>(r_.dim);
    const auto slot = static_cast<std::size_t>(dims - 1) - dim;
    const std::uint32_t n_d = r_.cur.size_cur;
    const std::uint32_t c_d = r_.cur.coord_cur;
    d.prev_coord = r_.cur.at_coord;
    d.prev_first = r_.count == 0;
    if (r_.first) d.self_id = d.self_m = 0;  // count = 0 in dimension 0: the share is 0
    if (r_.cur.at_size) {
      next_dim(d, r_.dim == dims - 1 ? dim : dim + 1);
      d.slot_nm2[slot] = (n_d - 2) & mask(count_width);
      d.slot_one[slot] = r_.prev_first;  // n_d = 1
      d.slot_stride[slot] = r_.stride_cur;
      d.slot_mstride[slot] = r_.mstride_cur;
      d.slot_offset[slot] = 0;
      d.slot_target[slot] = c_d;
      d.off_last[slot] = r_.prev_first;  // count = n_d and count - 1 = 0
      d.tgt_last[slot] = r_.prev_coord;  // count - 1 = n_d - 1 = c_d
      d.all_last = r_.all_last && r_.prev_coord;
      d.all_one = r_.all_one && r_.prev_first;
      d.stride_cur = r_.acc;
      d.mstride_cur = r_.macc;
      d.count = 0;
      d.acc = 0;
      d.macc = 0;
      if (r_.dim == dims - 1) {
        d.result_base = r_.macc;  // N x m
        d.state = State::first;
        if (r_.algorithm == a2a_engine_reg::algorithm_spread) {
          // one dimension of size N at coordinate rank (self_id is complete:
          // c_3 < n_3 was taken in an earlier cycle)
          for (std::size_t j = 1; j < dims; ++j) {
            COLLNET_HLS(UNROLL)
            d.slot_nm2[j] = mask(count_width);  // 1 - 2
            d.slot_one[j] = true;
            d.slot_stride[j] = 0;
            d.slot_mstride[j] = 0;
            d.slot_offset[j] = 0;
            d.slot_target[j] = 0;
            d.slot_part[j] = 0;
            d.slot_mpart[j] = 0;
            d.slot_pinc[j] = 0;
            d.slot_mpinc[j] = 0;
            d.off_last[j] = true;
            d.tgt_last[j] = true;
          }
          d.slot_nm2[0] = (r_.acc - 2) & mask(count_width);
          d.slot_one[0] = r_.all_one && r_.prev_first;
          d.slot_stride[0] = 1;
          d.slot_mstride[0] = r_.message_words;
          d.slot_offset[0] = 0;
          d.slot_target[0] = r_.self_id;
          d.slot_part[0] = r_.self_id;
          d.slot_mpart[0] = r_.self_m;
          d.slot_pinc[0] = (r_.self_id + 1) & mask(count_width);
          d.slot_mpinc[0] = (r_.self_m + r_.message_words) & mask(addr_width);
          // N = 1: every n_d = 1; rank = N - 1: every c_d = n_d - 1
          d.off_last[0] = r_.all_one && r_.prev_first;
          d.tgt_last[0] = r_.all_last && r_.prev_coord;
        }
      } else {
        d.dim = r_.dim + 1;
      }
    } else {
      d.cur.step(r_.cur, r_.count);
      if (r_.cur.at_coord) {
        if (!r_.first) {
          d.self_id = (r_.self_id + r_.acc) & mask(count_width);
          d.self_m = (r_.self_m + r_.macc) & mask(addr_width);
        }
        d.slot_part[slot] = r_.acc;
        d.slot_mpart[slot] = r_.macc;
        d.slot_pinc[slot] = (r_.acc + r_.stride_cur) & mask(count_width);
        d.slot_mpinc[slot] = (r_.macc + r_.mstride_cur) & mask(addr_width);
      }
      d.count = (r_.count + 1) & mask(count_width);
      d.acc = (r_.acc + r_.stride_cur) & mask(count_width);
      d.macc = (r_.macc + r_.mstride_cur) & mask(addr_width);
    }
  }

  /// Steps the odometer in `d` (from the current registers) to the next
  /// offset, with the next SEND's destination and source; returns true when
  /// it wrapped past the last offset (done). The carries are registers
  /// (carry_in: ANDs of the slots' off_last flags); each slot's next values and flags come from its
  /// own registers.
  bool advance(Registers& d) const {
    for (std::size_t j = 0; j < dims; ++j) {
      COLLNET_HLS(UNROLL)
      if (j == 0 || r_.carry_in[j - 1]) {
        d.slot_offset[j] = r_.off_last[j] ? 0 : r_.slot_offset[j] + 1;
        d.off_last[j] = r_.off_last[j] ? r_.slot_one[j] : r_.slot_offset[j] == r_.slot_nm2[j];  // offset + 2 == n
        d.slot_target[j] = r_.tgt_last[j] ? 0 : r_.slot_target[j] + 1;
        d.tgt_last[j] = r_.tgt_last[j] ? r_.slot_one[j] : r_.slot_target[j] == r_.slot_nm2[j];
        d.slot_part[j] = r_.tgt_last[j] ? 0 : r_.slot_pinc[j];
        d.slot_pinc[j] = (r_.tgt_last[j] ? r_.slot_stride[j] : r_.slot_pinc[j] + r_.slot_stride[j]) & mask(count_width);
        d.slot_mpart[j] = r_.tgt_last[j] ? 0 : r_.slot_mpinc[j];
        d.slot_mpinc[j] =
            (r_.tgt_last[j] ? r_.slot_mstride[j] : r_.slot_mpinc[j] + r_.slot_mstride[j]) & mask(addr_width);
      }
    }
    d.dest_sum = sum(d.slot_part, count_width);
    d.src_sum = sum(d.slot_mpart, addr_width);
    return r_.carry_in[dims - 2] && r_.off_last[dims - 1];
  }

  [[nodiscard]] DescriptorWord send_word(std::uint32_t dest, std::uint32_t src, std::uint32_t controller,
                                         std::uint32_t tag) const {
    Descriptor desc = Descriptor::send(dest, src, (r_.result_base + r_.self_m) & mask(addr_width),
                                       r_.message_words, tag);
    desc.controller = static_cast<std::uint8_t>(controller);
    return desc.pack();
  }

  friend class ScheduleEngine<A2aScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
};

/// The writes that load a node's collective and start it (CONTROL last).
/// sizes/coord: dimensions 0..3, size 1 and coordinate 0 for unused ones.
inline std::vector<EngineWrite> a2a_engine_writes(std::uint8_t algorithm, std::uint32_t nct,
                                                         std::uint32_t message_words,
                                                         const std::array<std::uint32_t, 4>& sizes,
                                                         const std::array<std::uint32_t, 4>& coord,
                                                         bool group_barriers = false) {
  namespace R = a2a_engine_reg;
  return grid_engine_writes({{R::algorithm, algorithm}, {R::nct, nct}, {R::message_words, message_words}}, R::size0,
                            sizes, R::coord0, coord, {{R::group_barriers, group_barriers ? 1u : 0u}});
}

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_a2a_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                                    std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<A2aScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo, out_desc_hi, busy);
}

}  // namespace collnet::hls
