// Schedule engine for hd-allreduce and hd-allreduce-conventional (spec
// hd-allreduce, document 004): expands one endpoint's program (a main unit's
// or an aggregation unit's) into its descriptor stream from a handful of
// registers that software loads before the collective.
// collectives/hd_allreduce.cpp (`build_hd_allreduce`) is the reference it
// must equal word for word; its header documents the steps, the tags and the
// aggregation-unit memory layout that the stream below reproduces.
//
// Stream (B = L / A words per plane, H = sum of log2 sizes, last = 2H + 1,
// every descriptor carries dtype; local = SEND to itself):
//   main unit m:   SEND agg(a), src a*B, dst m*B, len B, tag 0   (a = 0..A-1)
//                  WAIT tag last, count A; END
//   aggregation unit a < A:
//     WAIT tag 0, count 8
//     local SEND src m*B, dst 0, len B, op, tag 0x8000; WAIT 0x8000, m  (m = 1..7)
//     [average and H = 0: local divide SEND src 8B, dst 0, len B; WAIT 0x8000, 8]
//     every step g = 1..2H (halving or doubling of bit s of dimension d;
//     partner = the aggregation unit a of the board whose coordinate bit s
//     of d differs):
//       halving:  SEND(s) of the half given up to the partner's slot of g,
//                 WAIT g, parts; local SEND slot -> kept half, op, tag
//                 0x8000+g; WAIT 0x8000+g, 1; [average, last halving: local
//                 divide SEND divisor area -> kept half; WAIT 0x8000+g, 2]
//       doubling: SEND(s) of the held block to the same place; WAIT g, parts
//       a size-2 dimension splits a message of n >= 2 words into ceil(n/2)
//       words with the + hint and the rest with the - hint (two parts)
//     SEND main(m), src 0, dst a*B, len B, tag last   (m = 0..7); END
//   aggregation unit a >= A: END
// Step order: hierarchical = halvings of every dimension in dimension order
// (bits 0 up), then doublings in reverse (bits down); conventional = per
// dimension, halvings then doublings. Dimension order: wxyz, or bandwidth
// (size-2 dimensions, then size-4, ties W < X < Y < Z); size-1 skipped.
//
// No multiplier: sizes are 1, 2 or 4, so a board coordinate is a bit field of
// the board id (W fastest: c_d at bits [shift_d, shift_d + log2 n_d)) and
// the partner board is board ^ (1 << (shift_d + s)); endpoint = board*12 +
// unit = (board << 3) + (board << 2) + unit; m*B and a*B are accumulated by
// addition; B = L >> log2 A; halving halves by a shift.
//
// Register map: hd_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package schedule_engine_hd_regs_pkg are
// generated from it); ports and handshake: hls/schedule_engine.hpp.
// Contract (software checks it: build_hd_allreduce's ConfigErrors): sizes
// 1/2/4, A in {1,2,4}, A*boards divides L, and the aggregation-unit memory
// (8B + halving slots + divisor area) fits the 20-bit offsets.
// Storage: 1+1+3+1+4+20+3+12+8 = 53 configuration bits; state about 120 bits
// (held block lo/len, slot cursor, plan position, counters); no table.
//
// Registers for the clock (rtl/schedule_engine_hd.sv, docs/synthesis.md):
// the board id, the shifts, board x 12 and the endpoint id follow the SIZE,
// COORD and UNIT registers one cycle later (two for board_base and self),
// whatever the state, and so do B and 3B, m x B and a x B (a cycle after B;
// first read in the cycle after init), the dimension order (each
// dimension's place, then the order a cycle later), and so do the first parts of a
// message of len or len >> 1 words split in two (len_up, half_up; set with
// len where a doubling grows it); the current step's dimension, k, bit position and board
// bit (cur_*) are registers set when the plan moves, from look-ahead
// registers (up_*, dn_*, plus_bit, minus_bit) that follow idx and cur_pos one
// cycle later. Software writes the configuration before CONTROL and the plan
// moves at most every third cycle, so every such register is current where
// it is read; the descriptor stream is the same as computing them in place.
// The partner follows cur_pos; the planning cycle of a step also decides how
// the plan moves after it (adv, one-hot) and whether the divide follows it
// (divide_next); the second part's src1, dst1, n1 and the local tag ltag
// follow src, dst, first, n and g. (The RTL's state register is one-hot.)
//
// Timing: the CONTROL write is cycle 0; cycle 1 computes the dimension
// order and the board id, cycle 2 loads the output register, so the first
// descriptor is offered in cycle 3; then one descriptor per cycle while the
// consumer is ready, with one extra cycle (no descriptor) before each
// network step g = 1..2H, where its partner and block are computed: END is
// offered in cycle 2 + descriptors + 2H (aggregation unit), 2 + descriptors
// (main unit).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

/// The configuration writes that load one endpoint and start it (CONTROL
/// last).
inline std::vector<EngineWrite> hd_engine_writes(bool conventional, bool bandwidth, std::uint32_t op, bool float64,
                                                 std::uint32_t unit, std::uint32_t elements, std::uint32_t agg_units,
                                                 const std::array<std::uint32_t, 4>& sizes,
                                                 const std::array<std::uint32_t, 4>& coord) {
  namespace r = hd_engine_reg;
  return grid_engine_writes({{r::variant, conventional ? 1u : 0u},
                             {r::dim_order, bandwidth ? 1u : 0u},
                             {r::op, op},
                             {r::dtype, float64 ? 1u : 0u},
                             {r::unit, unit},
                             {r::elements, elements},
                             {r::agg_units, agg_units}},
                            r::size0, sizes, r::coord0, coord);
}

class HdScheduleEngine : public ScheduleEngine<HdScheduleEngine> {
 public:
  static constexpr std::uint32_t main_units = 8;
  static constexpr std::uint32_t units_per_board = 12;
  static constexpr std::uint32_t local_tag = 0x8000;

  enum class State : std::uint8_t {
    idle,
    init,
    main_send,   // main unit: S2 SENDs
    main_wait,   // main unit: WAIT last
    s2_wait,     // aggregation: WAIT 0, 8
    s2_local,    // local combine m
    s2_lwait,
    div_send,    // average: local divide
    div_wait,
    step_plan,   // bubble: partner, block, parts of step g
    part0,
    part1,
    net_wait,
    h_local,
    h_lwait,
    bcast,       // S10 SENDs
    end
  };

 private:
  struct Registers {
    // configuration (config_registers; SIZE: configure_special)
    std::uint32_t conventional = 0, bandwidth = 0;  // VARIANT, DIM_ORDER
    std::uint32_t op = 0, float64 = 0;              // OP, DTYPE
    std::uint32_t unit = 0, elements = 0, agg_units = 1;
    std::array<std::uint32_t, 4> log_size{};  // k_d = log2 n_d
    std::array<std::uint32_t, 4> coord{};
    State state = State::idle;
    // follow SIZE and DIM_ORDER (one cycle; two for order)
    std::array<std::uint32_t, 4> rank{};   // each dimension's place in `order` (if present)
    std::uint32_t present = 0;             // bit d: dimension d has size > 1
    std::array<std::uint32_t, 4> order{};  // dimensions of size > 1 in processing order
    std::uint32_t ndims = 0;
    std::array<std::uint32_t, 4> shift{};  // bit position of c_d in the board id
    std::uint32_t board = 0;
    std::uint32_t board_base = 0;  // board * 12
    std::uint32_t self = 0;        // endpoint id
    std::uint32_t B = 0;           // words per plane
    std::uint32_t B3 = 0;          // 3 x B
    std::uint32_t abase = 0;       // a * B (main unit: running plane base)
    std::uint32_t mbase = 0;       // m * B
    std::uint32_t m_mult = 0, a_mult = 0;  // m x B and a x B of this unit: follow B, 3B and UNIT
    std::uint32_t count = 0;       // plane / main-unit counter
    std::uint32_t lcount = 0;      // local WAIT count of the divide
    // plan position and the held block
    std::uint32_t g = 0;        // global step number
    std::uint32_t idx = 0;      // position in `order`
    std::uint32_t bit_index = 0;  // s
    bool halving = true;        // kind of step g
    std::uint32_t lo = 0, len = 0;
    std::uint32_t len_up = 0, half_up = 0;  // ceil(len / 2), ceil((len >> 1) / 2): follow len
    std::uint32_t cursor = 0;   // next free aggregation-unit word (slots, then divisor)
    std::uint32_t slot = 0;     // receive slot of this halving step
    // the current step's messages
    std::uint32_t partner = 0;
    std::uint32_t src = 0, dst = 0, n = 0, first = 0;
    bool two_parts = false;
    std::uint32_t hint0 = 0;    // + hint of the dimension (1 << 2d)
    // the current step: order[idx], its k, bit position shift + bit_index, the board bit there
    std::uint32_t cur_dim = 0, cur_k = 0, cur_pos = 0, cur_bit = 0;
    // look-ahead: order slot idx + 1 at bit 0, slot idx - 1 at its top bit,
    // the board bits at cur_pos + 1 and cur_pos - 1
    std::uint32_t up_dim = 0, up_k = 0, up_pos = 0, up_bit = 0;
    std::uint32_t dn_dim = 0, dn_k = 0, dn_pos = 0, dn_bit = 0;
    std::uint32_t plus_bit = 0, minus_bit = 0;
    // decided in the step's planning cycle: how the plan moves after it
    // (one-hot, bit Advance), and whether the divide follows its local WAIT
    std::uint32_t adv = 0;
    bool divide_next = false;
    // follow src, dst, first, n and g: the second part of a split message, the local tag
    std::uint32_t src1 = 0, dst1 = 0, n1 = 0;
    std::uint32_t ltag = 0;
  };

  /// How the plan moves after a step (the bit of Registers::adv): halving:
  /// next bit, next dimension, turn to doubling; doubling: previous bit,
  /// previous dimension, the next dimension's halvings (conventional), broadcast.
  enum Advance : std::uint32_t { adv_bit_up, adv_dim_up, adv_to_doubling, adv_bit_down, adv_dim_down, adv_next_dim, adv_bcast };

  static constexpr const auto& map = hd_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_register(map, "VARIANT", &Registers::conventional), config_register(map, "DIM_ORDER", &Registers::bandwidth),
      config_register(map, "OP", &Registers::op),     config_register(map, "DTYPE", &Registers::float64),
      config_register(map, "UNIT", &Registers::unit), config_register(map, "ELEMENTS", &Registers::elements),
      config_register(map, "AGG_UNITS", &Registers::agg_units), config_register(map, "COORD", &Registers::coord)};

  void start(Registers& d) const { d.state = State::init; }

  static constexpr std::string_view special_registers[] = {"SIZE"};
  /// SIZE is kept as k_d = log2 n_d (sizes are 1, 2 or 4), as the RTL keeps it.
  void configure_special(Registers& d, std::uint8_t addr, std::uint32_t w) const {
    if (addr < hd_engine_reg::size0 || addr >= hd_engine_reg::size0 + 4) return;
    const std::uint32_t n = map.field("SIZE", w);
    d.log_size[addr - hd_engine_reg::size0] = n == 4 ? 2 : n == 2 ? 1 : 0;
  }

  EngineLoad next_state(Registers& d, bool can_load) const {
    follow(d);
    switch (r_.state) {
      case State::idle: return {};
      case State::init: init_step(d); return {};
      case State::step_plan: plan_step(d); return {};
      default: break;
    }
    if (!can_load) return {};
    const std::uint32_t rop = r_.op == hd_engine_reg::op_average ? 1u : r_.op + 1u;  // ReceiveOp: sum 1 .. min 4
    switch (r_.state) {
      case State::main_send:
        d.count = r_.count + 1;
        d.abase = r_.abase + r_.B;
        if (r_.count + 1 == r_.agg_units) d.state = State::main_wait;
        return make(Opcode::send, r_.board_base + main_units + r_.count, r_.abase, r_.m_mult, r_.B, 0, 0, 0);
      case State::main_wait:
        d.state = State::end;
        return make(Opcode::wait, 0, 0, 0, r_.agg_units, last_step(), 0, 0);
      case State::s2_wait:
        // the first step's dimension (order slot 0, bit 0)
        d.cur_dim = r_.order[0];
        d.cur_k = r_.log_size[r_.order[0]];
        d.cur_pos = r_.shift[r_.order[0]] & 7u;
        d.cur_bit = (r_.board >> d.cur_pos) & 1u;
        d.count = 1;
        d.mbase = r_.B;
        d.abase = r_.a_mult;
        d.state = State::s2_local;
        return make(Opcode::wait, 0, 0, 0, main_units, 0, 0, 0);
      case State::s2_local:
        d.state = State::s2_lwait;
        return make(Opcode::send, r_.self, r_.mbase, 0, r_.B, local_tag, rop, 0);
      case State::s2_lwait: s2_combined(d); return make(Opcode::wait, 0, 0, 0, r_.count, local_tag, 0, 0);
      case State::div_send:
        // the divisor area follows the halving slots: the cursor after the last one
        d.state = State::div_wait;
        return make(Opcode::send, r_.self, r_.cursor, r_.lo, r_.len, r_.ltag, divide_op, 0);
      case State::div_wait:
        d.state = r_.ndims == 0 ? State::bcast : State::step_plan;
        d.count = 0;
        if (r_.g != 0) advance_plan(d);
        return make(Opcode::wait, 0, 0, 0, r_.lcount, r_.ltag, 0, 0);
      case State::part0:
        d.state = r_.two_parts ? State::part1 : State::net_wait;
        return make(Opcode::send, r_.partner, r_.src, r_.dst, r_.first, r_.g, 0, r_.hint0);
      case State::part1:
        d.state = State::net_wait;
        return make(Opcode::send, r_.partner, r_.src1, r_.dst1, r_.n1, r_.g, 0, r_.hint0 << 1);  // minus = 2 << 2d
      case State::net_wait:
        if (r_.halving) d.state = State::h_local;
        else advance_plan(d);
        return make(Opcode::wait, 0, 0, 0, r_.two_parts ? 2u : 1u, r_.g, 0, 0);
      case State::h_local:
        d.state = State::h_lwait;
        return make(Opcode::send, r_.self, r_.slot, r_.lo, r_.len, r_.ltag, rop, 0);
      case State::h_lwait:
        if (r_.divide_next) {
          d.state = State::div_send;
          d.lcount = 2;
        } else {
          advance_plan(d);
        }
        return make(Opcode::wait, 0, 0, 0, 1, r_.ltag, 0, 0);
      case State::bcast:
        d.count = r_.count + 1;
        if (r_.count + 1 == main_units) d.state = State::end;
        return make(Opcode::send, r_.board_base + r_.count, 0, r_.abase, r_.B, last_step(), 0, 0);
      case State::end: return end_of_program(d);
      default: return {};
    }
  }

  /// After the local combine of main unit `count`: the next one, the divide
  /// (average without any halving), or the steps.
  void s2_combined(Registers& d) const {
    d.count = r_.count + 1;
    d.mbase = r_.mbase + r_.B;
    if (r_.count + 1 < main_units) {
      d.state = State::s2_local;
    } else if (r_.op == hd_engine_reg::op_average && r_.ndims == 0) {
      // spec hd-allreduce: average divides after the last halving (none here)
      d.state = State::div_send;
      d.lcount = main_units;
    } else {
      d.state = r_.ndims == 0 ? State::bcast : State::step_plan;
      d.count = 0;
    }
  }

  static constexpr auto divide_op = static_cast<std::uint32_t>(ReceiveOp::divide);

  [[nodiscard]] std::uint32_t last_step() const {
    std::uint32_t h = 0;
    for (std::uint32_t k : r_.log_size) h += k;
    return 2 * h + 1;
  }

  [[nodiscard]] bool last_halving() const {
    return r_.halving && r_.idx + 1 == r_.ndims && r_.bit_index + 1 == r_.cur_k;
  }

  /// How the plan will move after the step being planned (bit of Advance).
  [[nodiscard]] std::uint32_t plan_advance() const {
    if (r_.halving) {
      if (r_.bit_index + 1 < r_.cur_k) return 1u << adv_bit_up;
      if (!r_.conventional && r_.idx + 1 < r_.ndims) return 1u << adv_dim_up;
      return 1u << adv_to_doubling;
    }
    if (r_.bit_index > 0) return 1u << adv_bit_down;
    if (!r_.conventional && r_.idx > 0) return 1u << adv_dim_down;
    if (r_.conventional && r_.idx + 1 < r_.ndims) return 1u << adv_next_dim;
    return 1u << adv_bcast;
  }

  [[nodiscard]] EngineLoad make(Opcode opcode, std::uint32_t dest, std::uint32_t src, std::uint32_t dst,
                                std::uint32_t length, std::uint32_t tag, std::uint32_t op, std::uint32_t hint) const {
    return load(descriptor_word(opcode, dest, src, dst, length, tag, op, r_.float64, hint));
  }

  // Dimension order, board id, B and the first state (one cycle).
  void init_step(Registers& d) const {
    d.count = 0;
    d.abase = 0;
    d.g = 0;
    d.idx = 0;
    d.bit_index = 0;
    d.halving = true;
    d.lo = 0;
    d.len = r_.B;
    d.cursor = (r_.B << 3);
    // m x B and a x B are read from m_mult and a_mult a cycle later (main_send, s2_wait)
    if (r_.unit < main_units) {
      d.state = State::main_send;
    } else if (r_.unit - main_units < r_.agg_units) {
      d.state = State::s2_wait;
    } else {
      d.state = State::end;  // an aggregation unit outside the A planes
    }
  }

  // Every cycle: the registers that follow the configuration and the plan
  // position (the header says why they are registers).
  void follow(Registers& d) const {
    std::uint32_t s = 0, board = 0;
    for (std::uint32_t dim = 0; dim < 4; ++dim) {
      d.shift[dim] = s;
      board |= r_.coord[dim] << s;
      s += r_.log_size[dim];
    }
    d.board = board & 0xffu;
    // the dimension order: wxyz = every dimension of size > 1 in turn;
    // bandwidth = size 2 first, then size 4 (spec embodiment 2): each
    // dimension's place in it, then (a cycle later) the order
    std::uint32_t n = 0;
    for (std::uint32_t dim = 0; dim < 4; ++dim) {
      const auto late = [this](std::uint32_t e) { return r_.bandwidth != 0 && r_.log_size[e] == 2; };
      std::uint32_t place = 0;
      for (std::uint32_t e = 0; e < 4; ++e)
        if (e != dim && r_.log_size[e] != 0 && (late(e) < late(dim) || (late(e) == late(dim) && e < dim))) ++place;
      d.rank[dim] = place;
      if (r_.log_size[dim] != 0) {
        d.present |= 1u << dim;
        ++n;
      } else {
        d.present &= ~(1u << dim);
      }
    }
    d.ndims = n;
    for (std::uint32_t slot = 0; slot < 4; ++slot) {
      d.order[slot] = 0;
      for (std::uint32_t dim = 0; dim < 4; ++dim)
        if ((r_.present >> dim & 1u) != 0 && r_.rank[dim] == slot) d.order[slot] |= dim;
    }
    d.board_base = (r_.board << 3) + (r_.board << 2);
    d.self = d.board_base + r_.unit;
    const std::uint32_t log_a = r_.agg_units == 4 ? 2 : r_.agg_units == 2 ? 1 : 0;
    d.B = (r_.elements >> log_a) & 0xfffffu;
    d.B3 = (3 * d.B) & 0xfffffu;
    // m x B = 4B (m bit 2) + 0, B, 2B or 3B (m bits 1:0); a x B (a = UNIT - 8)
    const std::uint32_t low_multiple[4] = {0, r_.B, r_.B << 1, r_.B3};
    d.m_mult = (((r_.unit & 4u) != 0 ? r_.B << 2 : 0u) + low_multiple[r_.unit & 3u]) & 0xfffffu;
    d.a_mult = low_multiple[(r_.unit - main_units) & 3u];
    d.len_up = (r_.len >> 1) + (r_.len & 1u);
    d.half_up = (r_.len >> 2) + ((r_.len >> 1) & 1u);
    const std::uint32_t dim_up = r_.order[(r_.idx + 1) & 3u];
    const std::uint32_t dim_dn = r_.order[(r_.idx - 1) & 3u];
    d.up_dim = dim_up;
    d.up_k = r_.log_size[dim_up];
    d.up_pos = r_.shift[dim_up] & 7u;
    d.up_bit = (r_.board >> d.up_pos) & 1u;
    d.dn_dim = dim_dn;
    d.dn_k = r_.log_size[dim_dn];
    d.dn_pos = (r_.shift[dim_dn] + r_.log_size[dim_dn] - 1) & 7u;
    d.dn_bit = (r_.board >> d.dn_pos) & 1u;
    d.plus_bit = (r_.board >> ((r_.cur_pos + 1) & 7u)) & 1u;
    d.minus_bit = (r_.board >> ((r_.cur_pos - 1) & 7u)) & 1u;
    // the partner follows cur_pos (the plan moves in the cycle before the
    // step's planning cycle; the partner is first read in the cycle after it)
    const std::uint32_t partner_board = r_.board ^ (1u << r_.cur_pos);
    d.partner = ((partner_board << 3) + (partner_board << 2) + r_.unit) & 0xffffu;
    d.src1 = (r_.src + r_.first) & 0xfffffu;
    d.dst1 = (r_.dst + r_.first) & 0xfffffu;
    d.n1 = (r_.n - r_.first) & 0xfffffu;
    d.ltag = (local_tag + r_.g) & 0xffffu;
  }

  // Step g's partner, block and message parts (the bubble cycle).
  void plan_step(Registers& d) const {
    const std::uint32_t dim = r_.cur_dim;
    const std::uint32_t g = r_.g + 1;
    d.g = g;
    const std::uint32_t b = r_.cur_bit;
    if (r_.halving) {
      // keep the first half if the bit is 0, else the second; send the other
      const std::uint32_t half = r_.len >> 1;
      d.len = half;
      d.lo = r_.lo + (b ? half : 0);
      d.src = b ? r_.lo : r_.lo + half;
      d.slot = r_.cursor;
      d.dst = r_.cursor;
      d.cursor = r_.cursor + half;
      d.n = half;
    } else {
      d.src = r_.lo;
      d.dst = r_.lo;
      d.n = r_.len;
    }
    const bool size2 = r_.cur_k == 1;
    d.two_parts = size2 && d.n >= 2;
    d.first = d.two_parts ? (r_.halving ? r_.half_up : r_.len_up) : d.n;  // ceil(n / 2)
    d.hint0 = size2 && d.two_parts ? 1u << (2 * dim) : 0u;
    d.adv = plan_advance();
    d.divide_next = r_.op == hd_engine_reg::op_average && last_halving();
    d.state = State::part0;
  }

  // After step g: the block grows back on a doubling (applied here, once the
  // step's messages are out), then the plan moves to the next step.
  void advance_plan(Registers& d) const {
    if (!r_.halving) {
      d.lo = r_.lo - (r_.cur_bit ? r_.len : 0);
      d.len = r_.len << 1;
      d.len_up = r_.len;       // ceil(2 len / 2)
      d.half_up = r_.len_up;   // ceil(len / 2)
    }
    const auto move_to = [&d](std::uint32_t dim, std::uint32_t kk, std::uint32_t pos, std::uint32_t bit) {
      d.cur_dim = dim;
      d.cur_k = kk;
      d.cur_pos = pos;
      d.cur_bit = bit;
    };
    // the branch was chosen in the planning cycle (plan_advance)
    switch (r_.adv) {
      case 1u << adv_bit_up:
        d.bit_index = r_.bit_index + 1;
        d.cur_pos = (r_.cur_pos + 1) & 7u;
        d.cur_bit = r_.plus_bit;
        break;
      case 1u << adv_dim_up:
      case 1u << adv_next_dim:
        d.idx = r_.idx + 1;
        d.bit_index = 0;
        if (r_.adv == 1u << adv_next_dim) d.halving = true;
        move_to(r_.up_dim, r_.up_k, r_.up_pos, r_.up_bit);
        break;
      case 1u << adv_to_doubling:
        d.halving = false;  // doubling of the same dimension, from its top bit (bit_index already)
        d.bit_index = r_.cur_k - 1;
        break;
      case 1u << adv_bit_down:
        d.bit_index = r_.bit_index - 1;
        d.cur_pos = (r_.cur_pos - 1) & 7u;
        d.cur_bit = r_.minus_bit;
        break;
      case 1u << adv_dim_down:
        d.idx = r_.idx - 1;
        d.bit_index = r_.dn_k - 1;
        move_to(r_.dn_dim, r_.dn_k, r_.dn_pos, r_.dn_bit);
        break;
      default: break;
    }
    d.state = r_.adv == 1u << adv_bcast ? State::bcast : State::step_plan;
    d.count = 0;
  }

  friend class ScheduleEngine<HdScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
};

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_hd_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                                   std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<HdScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo, out_desc_hi, busy);
}

}  // namespace collnet::hls
