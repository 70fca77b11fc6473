// Schedule engine for the all-to-all of document 000: a2a-hopgroup (grouped
// by direction and hop count, with packet pacing) and its comparative
// example a2a-hopgroup-direct (spec a2a-hopgroup; reference:
// collectives/a2a_hopgroup.cpp, whose header comment defines the programs this
// engine must equal word for word). One engine, an ALGORITHM register picks
// the program; at most one descriptor per cycle.
//
// a2a-hopgroup, as the engine runs it. Phase groups gi = 0, 1, ...:
//   1-D / 2-D (one piece): group d = phase (dimension d, piece 0)
//   3-D concurrent: group r = phases (0, piece r), (1, r+1), (2, r+2) mod 3
//   3-D literal:    group 3r + j = one phase: j = 0 -> (0, r), 1 -> (2, r+2),
//                   2 -> (1, r+1) (the document's X, then Z, then Y)
// A phase of a dimension of size 1 is dropped; a group without phase has no
// step. A group runs max(phase steps) steps; step s of a phase (index i = s,
// or S-1-s with hop_order descending) holds the offsets
//   torus plus: k = i+1 (+);  torus both: +h, and -h unless 2h = n, h = i+1;
//   mesh: h = i/2 + 1, + for even i, - for odd i
// with gap = flows - 1: flows = h on a torus, min(h, n - h) on a mesh,
// and for each (phase, [local copy at s = 0], offset) a **run**: every label
// L of the hyperplane L_d = v (v = c_d for the copy, c_d + k otherwise, mod n
// on a torus, skipped outside a mesh) in increasing label order, one SEND per
// label. Step t > 0 starts with BARRIER t-1 (= a barrier after every step
// but the last); END after the last group. Tag = global step number.
//
// a2a-hopgroup-direct: the local copy (tag 0), then the offsets N-1 .. 1 of
// a descending odometer (last dimension fastest; sizes 1 of unused dimensions
// just pass the borrow), SEND tag t with gap = hops - 1, and BARRIER t after
// each when BARRIERS is on; END.
//
// Register map: hopgroup_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package schedule_engine_hopgroup_regs_pkg are
// generated from it); ports and handshake: hls/schedule_engine.hpp.
// Contract: 2*N*m <= 2^20 (collectives/a2a_common.cpp message_words).
// Storage: 4 x 64 x (16 + 20) bits of coordinate tables (t * stride_d and
// t * stride_d * m; one write port and one synchronous read port each, read
// only by the run setup at entry c_d + k: block RAM), and per dimension the
// registers stride_d, c_d * stride_d, (n_d - 1) * stride_d and their
// multiples of m (the direct program steps its per-dimension shares by one
// stride instead of reading the tables); no multiplier, no divider (m / 3 by
// 20 cycles of restoring division).
//
// Timing: after start, sum_d (n_d + 1) cycles fill the tables (also giving
// self, self*m, N*m), 20 cycles divide m by 3; counting the CONTROL write as
// cycle 0, the first descriptor of a2a-hopgroup-direct is offered in cycle
// sum_d (n_d + 1) + 22. Then a2a-hopgroup spends two cycles per group to
// plan it (group_step: per phase slot the phase (valid, dimension, piece),
// n_d, c_d, the phase's step count from dim_steps and the piece's words and
// offset, into plan registers; plan_step: the group's steps, their maximum,
// and per slot the source and destination bases), one cycle per (phase,
// copy or offset) candidate of a step (select_step: the candidate's hops and
// direction into the run registers) and one more for each candidate the
// tests without a coordinate leave (setup_step: the target coordinate, its
// wrap or, on a mesh, whether it exists, and the tables' read), one more for
// each run that exists (fetch: the tables' entries into the run's dest and
// first source), and emits one
// descriptor per cycle within a run and per barrier; a2a-hopgroup-direct
// emits one descriptor per cycle (II = 1), its odometer an offset ahead of
// the SEND. Every stage starts from registers (the iCE40 critical paths,
// docs/synthesis.md): a run's addresses advance by m, or by run_jump where
// the digits below run_dim wrap, instead of summing the odometer's shares,
// and the direct SEND adds two pair sums taken at the previous load; the
// direct odometer's hops per dimension are stepped with its digits, and
// its zero tests are flag registers.
//
// Register names (_q, with _d the next value) are those of
// rtl/schedule_engine_hopgroup.sv. (The RTL's state register is one-hot.)
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

class HopgroupScheduleEngine : public ScheduleEngine<HopgroupScheduleEngine> {
 public:
  static constexpr int max_dims = 4;
  static constexpr unsigned size_width = 7;   // n_d (SIZE) and the fill's t
  static constexpr unsigned coord_width = 6;  // c_d (COORD)
  /// Outside a configuration write the tables and the per-dimension shares
  /// are written only by the fill (State::init), every cycle of which
  /// advances `t`, the dimension or the state: a cycle that leaves the
  /// registers as they were wrote none of them.
  static constexpr bool tables_follow_registers = true;

  enum class State : std::uint8_t {
    idle = 0,
    init = 1,      // coordinate tables
    divide = 2,    // m / 3
    group = 3,     // hopgroup: plan group gi
    barrier = 4,   // hopgroup: BARRIER tag-1 before step tag > 0
    select = 5,    // hopgroup: set up the next run of the step
    run = 6,       // hopgroup: one SEND per label of the run
    d_copy = 7,    // direct: local copy
    d_send = 8,    // direct: SEND of one offset
    d_barrier = 9, // direct: BARRIER after it
    end = 10,
    plan = 11,     // hopgroup: the group's steps (maximum over its slots)
    setup = 12,    // hopgroup: target coordinate and table read of a run
    fetch = 13     // hopgroup: the table entries into the run's dest and first source
  };

 private:
  struct Registers {
    // configuration (config_registers; options: hopgroup_engine_reg::opt_*)
    std::uint32_t algorithm = 0, message_words = 1, options = 0, gap_slack = 0, dims = 1;
    std::array<std::uint32_t, max_dims> size{1, 1, 1, 1}, coord{};  // n_d, c_d
    State state = State::idle;
    std::uint32_t in_init = 0;  // state is init (rtl: u_strides's step input)
    // table fill (dimension dim, t = 0..n_d) and division
    std::uint32_t dim = 0;
    std::uint32_t t = 0;
    std::uint32_t acc = 0;         // t * stride_d
    std::uint32_t acc_m = 0;       // t * stride_d * m
    std::uint32_t stride_cur = 1;  // stride_d
    std::uint32_t mstride_cur = 0; // stride_d * m
    // the current dimension's n_d and c_d, and t = c_d, t = n_d, t + 1 = n_d,
    // each set a step ahead (rtl: u_strides)
    StridesDim cur;  // the current dimension of the stride computation
    bool first = false;  // the next step is the first (the rank starts at 0)
    std::uint32_t self_id = 0;
    std::uint32_t self_m = 0;
    std::uint32_t node_count = 0;  // N
    std::uint32_t bank_words = 0;  // N * m: bank 1 / result region base
    std::uint32_t rem = 0;
    std::uint32_t quot = 0;        // m / 3
    std::uint32_t div_last = 0;    // the division's last cycle (t = addr_width - 1)
    std::uint32_t dir_init = 0;    // div_last of the direct program: its odometer takes the first offset
    std::uint32_t piece_off1 = 0;  // words before pieces 1 and 2 (group_step, from quot and rem)
    std::uint32_t piece_off2 = 0;
    std::array<std::uint32_t, 3> piece_live{};  // piece p has words (group_step)
    std::uint32_t quot_inc = 0;  // m / 3 + 1 (group_step)
    std::uint32_t m_live = 1;  // m > 0; follows MESSAGE_WORDS
    // steps of a phase in dimension d; follows SIZE and OPTIONS
    std::array<std::uint32_t, max_dims> dim_steps{};
    std::array<std::uint32_t, max_dims> dim_one{};  // n_d = 1; follows SIZE
    std::array<std::uint32_t, max_dims> coord_zero{};  // c_d = 0; follows COORD
    std::uint32_t is_3d = 0;   // DIMS = 3; follows DIMS
    std::uint32_t groups = 1;  // the program's phase groups; follows DIMS and OPTIONS
    // hopgroup sequencing
    std::uint32_t group = 0;       // gi
    std::uint32_t group_round = 0; // gi / 3
    std::uint32_t group_j = 0;     // gi mod 3
    std::uint32_t group_dim = 0;   // 3-D literal: the group's phase (dimension, piece)
    std::array<std::uint32_t, 3> phase_dim{};  // the group's slots' dimensions (set with group)
    std::uint32_t group_piece = 0;
    std::uint32_t group_steps = 0;
    std::uint32_t step = 0;        // step inside the group
    std::uint32_t step_last = 0;   // step + 1 = group_steps (set with step)
    std::uint32_t step_next = 0;   // step + 1 (set with step)
    std::uint32_t tag = 0;         // global step number (direct: offset number)
    std::uint32_t bank = 0;        // bit p: current bank of piece p
    std::uint32_t slot = 0;        // phase slot of the group, 0..2
    std::uint32_t sub = 0;         // 0 local copy, 1 offset A, 2 offset B
    // plan of the current group, per phase slot (written by group_step; words
    // and offset by plan_step)
    std::array<std::uint32_t, 3> plan_valid{};
    std::array<std::uint32_t, 3> plan_live{};   // valid and a piece of words (plan_step)
    std::array<std::uint32_t, 3> plan_act{};    // live and step < its steps (set with step)
    std::array<std::uint32_t, 3> plan_dim{};
    std::array<std::uint32_t, 3> plan_piece{};
    std::array<std::uint32_t, 3> plan_from{};  // the piece's current bank (its bank bit; group_step)
    std::array<std::uint32_t, 3> plan_n{};      // n_d
    std::array<std::uint32_t, 3> plan_c{};      // c_d
    std::array<std::uint32_t, 3> plan_steps{};  // steps of the phase, 0 if none
    std::array<std::uint32_t, 3> plan_words{};  // piece words (plan_step)
    std::array<std::uint32_t, 3> plan_nc{};     // n_d - c_d (plan_step)
    std::array<std::uint32_t, 3> plan_cn{};     // c_d + n_d (plan_step)
    std::array<std::uint32_t, 3> plan_src{};    // source bank base + piece offset (plan_step)
    std::array<std::uint32_t, 3> plan_dst{};    // the other bank's base + piece offset (plan_step)
    // current run (the candidate's registers: select_step; the rest: setup_step)
    std::uint32_t run_dim = 0;
    std::uint32_t run_n = 0;     // n_d
    std::uint32_t run_c = 0;     // c_d
    std::uint32_t run_nc = 0;    // n_d - c_d
    std::uint32_t run_cn = 0;    // c_d + n_d
    std::uint32_t run_hops = 0;
    std::uint32_t run_neg = 0;   // offset -hops
    std::uint32_t run_skip = 0;  // bit run_dim: the odometer skips it
    std::uint32_t run_dest = 0;
    std::uint32_t run_src = 0;
    std::uint32_t run_dst = 0;
    std::uint32_t run_words = 0;
    std::uint32_t run_hint = 0;
    std::uint32_t run_gap = 0;
    std::uint32_t run_slack = 0;
    std::uint32_t run_jump = 0;  // m + (n_d - 1) x stride_d x m of run_dim
    std::uint32_t run_own_m = 0;   // c_d x stride_d x m of run_dim (select_step)
    std::uint32_t run_last_m = 0;  // (n_d - 1) x stride_d x m of run_dim
    std::uint32_t run_own_id = 0;  // c_d x stride_d of run_dim
    // odometers (hopgroup labels: digit, counting down; direct offsets: offset/target/part_id/part)
    std::array<std::uint32_t, max_dims> digit{};
    std::array<std::uint32_t, max_dims> digit_zero{};  // hopgroup: digit e is 0 (it wraps next)
    std::array<std::uint32_t, max_dims> offset{};       // direct: the odometer's offset digits (counting down)
    std::array<std::uint32_t, max_dims> offset_zero{};  // direct: offset digit e is 0
    std::array<std::uint32_t, max_dims> target_zero{}; // direct: target e is 0
    std::array<std::uint32_t, max_dims> hop{};  // direct: the hops of dimension e of the odometer's offset
    // direct, per dimension, following SIZE, COORD and OPTIONS: what the
    // odometer's step of dimension e needs for the next offset's hops
    std::array<std::uint32_t, max_dims> hop_thr{};   // torus: n_d / 2 + 1; mesh: c_d
    std::array<std::uint32_t, max_dims> hop_base{};  // torus: n_d + 1; mesh: c_d + 1
    std::array<std::uint32_t, max_dims> hop_inv{};   // torus: ~0; mesh: ~c_d (size_width bits)
    std::array<std::uint32_t, max_dims> hop_wrap{};  // hops where it wraps: torus h(n_d - 1); mesh n_d - 1 - c_d
    std::array<std::uint32_t, max_dims> part{};
    std::array<std::uint32_t, max_dims> target{};
    std::array<std::uint32_t, max_dims> part_id{};  // direct: target x stride (part: x stride x m)
    std::uint32_t remaining = 0;  // direct: offsets still to send
    // direct: the next SEND's dest, src and hops, per pair of dimensions (0 + 1, 2 + 3)
    std::array<std::uint32_t, 2> dir_dest{};
    std::array<std::uint32_t, 2> dir_src{};
    std::array<std::uint32_t, 2> dir_hops{};
    // table read port (hopgroup run: entry v of dimension run_dim)
    std::uint32_t rd_id = 0;
    std::uint32_t rd_m = 0;
  };

  static constexpr const auto& map = hopgroup_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_register(map, "ALGORITHM", &Registers::algorithm),
      config_register(map, "MESSAGE_WORDS", &Registers::message_words),
      config_register(map, "OPTIONS", &Registers::options), config_register(map, "GAP_SLACK", &Registers::gap_slack),
      config_register(map, "DIMS", &Registers::dims),       config_register(map, "SIZE", &Registers::size),
      config_register(map, "COORD", &Registers::coord)};

  EngineLoad next_state(Registers& d, bool can_load) {
    const EngineLoad l = program_step(d, can_load);
    d.in_init = d.state == State::init ? 1u : 0u;
    return l;
  }

  EngineLoad program_step(Registers& d, bool can_load) {
    // outside the table fill: dimension 0, t = 0, stride 1, ready at start
    // (rtl: u_strides); the rank keeps its value until the first step
    d.first = r_.in_init == 0;
    if (r_.in_init == 0) {
      enter_dim(d, 0);
      d.dim = 0;  // (t: start clears it; it also counts the division)
      d.acc = 0;
      d.acc_m = 0;
      d.stride_cur = 1;
      d.mstride_cur = r_.message_words;
    }
    // (rtl: every cycle; first read in the first group, after the division)
    for (std::size_t e = 0; e < max_dims; ++e) {
      COLLNET_HLS(UNROLL)
      d.dim_steps[e] = phase_steps(r_.size[e]) & mask(8);
      d.dim_one[e] = r_.size[e] == 1 ? 1u : 0u;
      d.coord_zero[e] = r_.coord[e] == 0 ? 1u : 0u;
      const bool torus = (r_.options & hopgroup_engine_reg::opt_torus) != 0;
      const std::uint32_t n = r_.size[e], c = r_.coord[e];
      d.hop_thr[e] = (torus ? n / 2 + 1 : c) & mask(size_width);
      d.hop_base[e] = (torus ? n + 1 : c + 1) & mask(size_width);
      d.hop_inv[e] = (torus ? ~0u : ~c) & mask(size_width);
      d.hop_wrap[e] = (torus ? (n <= 2 ? n - 1 : 1u) : n - 1 - c) & mask(size_width);
    }
    d.is_3d = r_.dims == 3 ? 1u : 0u;
    d.m_live = r_.message_words != 0 ? 1u : 0u;
    d.groups = r_.dims != 3 ? r_.dims : ((r_.options & hopgroup_engine_reg::opt_concurrent) ? 3u : 9u);
    switch (r_.state) {
      case State::idle: break;
      case State::init: init_step(d); break;
      case State::divide: divide_step(d); break;
      case State::group: group_step(d); break;
      case State::plan: plan_step(d); break;
      case State::select: select_step(d); break;
      case State::setup: setup_step(d); break;
      case State::fetch:
        // the tables' entries into the run's dest and first source (rtl: the
        // SENDs take both from registers)
        d.run_dest = (r_.run_dest + r_.rd_id) & mask(id_width);
        d.run_src = (r_.run_src + r_.rd_m) & mask(addr_width);
        d.state = State::run;
        break;
      case State::barrier:
        if (!can_load) break;
        d.state = State::select;
        return load(Descriptor::barrier((r_.tag - 1) & mask(tag_width)));
      case State::run:
        if (can_load) return run_step(d);
        break;
      case State::d_copy:
        if (!can_load) break;
        // (tag: 0 since the division's end, the only way here)
        d.state = r_.remaining == 0 ? State::end : State::d_send;
        direct_advance(d);
        return load(Descriptor::send(r_.self_id, r_.self_m, (r_.bank_words + r_.self_m) & mask(addr_width),
                                     r_.message_words, 0));
      case State::d_send:
        if (can_load) return direct_send_step(d);
        break;
      case State::d_barrier:
        if (!can_load) break;
        d.tag = (r_.tag + 1) & mask(tag_width);
        d.state = r_.remaining == 0 ? State::end : State::d_send;
        return load(Descriptor::barrier(r_.tag));
      case State::end:
        if (can_load) return end_of_program(d);
        break;
    }
    return {};
  }

  /// Restoring division of m by 3, most significant bit first; then the
  /// direct program's first offset, or the first group.
  void divide_step(Registers& d) const {
    namespace R = hopgroup_engine_reg;
    const std::uint32_t bit = (r_.message_words >> (addr_width - 1 - r_.t)) & 1u;
    const std::uint32_t rem = (r_.rem << 1) | bit;
    const bool ge = rem >= 3;
    d.rem = ge ? rem - 3 : rem;
    d.quot = (r_.quot << 1) | (ge ? 1u : 0u);
    d.t = r_.t + 1;
    d.div_last = r_.t + 2 == addr_width ? 1u : 0u;
    d.dir_init = d.div_last != 0 && r_.algorithm == R::algorithm_direct ? 1u : 0u;
    if (r_.div_last == 0) return;
    d.group = 0;
    d.group_round = 0;
    d.group_j = 0;
    d.group_dim = 0;
    d.group_piece = 0;
    set_phase_dims(d);
    d.tag = 0;
    d.bank = 0;
    if (r_.algorithm != R::algorithm_direct) {
      d.state = State::group;
      return;
    }
    d.state = State::d_copy;
    // the direct program's first offset (rtl: on the flag dir_init, the same cycle)
    for (std::size_t e = 0; e < max_dims; ++e) {
      COLLNET_HLS(UNROLL)
      d.offset[e] = r_.size[e] - 1;
      d.offset_zero[e] = r_.dim_one[e];
      d.target[e] = r_.coord_zero[e] != 0 ? r_.size[e] - 1 : r_.coord[e] - 1;
      d.target_zero[e] = r_.coord_zero[e] != 0 ? r_.dim_one[e] : (r_.coord[e] == 1 ? 1u : 0u);
      // the first offset's hops: h(n - 1) on a torus; |target - c| on a mesh
      d.hop[e] = (r_.options & R::opt_torus) ? r_.hop_wrap[e] : (r_.coord_zero[e] != 0 ? r_.size[e] - 1 : 1u);
      d.part_id[e] = r_.coord_zero[e] != 0 ? last_id_[e] : (own_id_[e] - stride_id_[e]) & mask(id_width);
      d.part[e] = r_.coord_zero[e] != 0 ? last_m_[e] : (own_m_[e] - mstride_[e]) & mask(addr_width);
    }
    d.remaining = (r_.node_count - 1) & mask(id_width + 1);
  }

  /// hopgroup: the SEND to the run's current label, then the next label
  /// (odometer over the dimensions other than run_dim, lowest fastest). The
  /// next label's addresses are m further, or run_jump further where the
  /// digits below run_dim all wrap (the carry reaches run_dim).
  EngineLoad run_step(Registers& d) const {
    Descriptor s = Descriptor::send(r_.run_dest, r_.run_src, r_.run_dst, r_.run_words, r_.tag);
    s.controller = static_cast<std::uint8_t>(r_.run_dim);
    s.route_hint = static_cast<std::uint8_t>(r_.run_hint);
    s.gap = static_cast<std::uint8_t>(r_.run_gap);
    s.slack = static_cast<std::uint8_t>(r_.run_slack);
    // the digits count down (n_e - 1 - the label's digit e)
    bool carry = true, carry_dim = false;
    for (std::size_t e = 0; e < max_dims; ++e) {
      COLLNET_HLS(UNROLL)
      const bool skip = ((r_.run_skip >> e) & 1u) != 0;
      if (skip) carry_dim = carry;
      if (carry && !skip) {
        const bool wraps = r_.digit_zero[e] != 0;
        d.digit[e] = (wraps ? r_.size[e] - 1 : r_.digit[e] - 1) & mask(size_width);
        d.digit_zero[e] = (wraps ? r_.size[e] == 1 : r_.digit[e] == 1) ? 1u : 0u;
        carry = wraps;
      }
    }
    // both sums are formed, the carry chooses (rtl)
    d.run_src = (r_.run_src + (carry_dim ? r_.run_jump : r_.message_words)) & mask(addr_width);
    d.run_dst = (r_.run_dst + (carry_dim ? r_.run_jump : r_.message_words)) & mask(addr_width);
    if (carry) d.state = State::select;  // sub moved on in setup_step
    return load(s);
  }

  /// direct: the pair sums of the odometer's offset (the next SEND's), then
  /// the odometer's next offset (descending, last dimension fastest). The
  /// odometer runs an offset ahead of the SEND; its digits and targets carry
  /// flags of being 0, and the hops of each dimension (the shorter way round
  /// a torus from the digit, the distance on a mesh from the target) are
  /// stepped with the digit from the current offset's registers.
  void direct_advance(Registers& d) const {
    namespace R = hopgroup_engine_reg;
    const bool torus = (r_.options & R::opt_torus) != 0;
    for (std::size_t q = 0; q < 2; ++q) {
      COLLNET_HLS(UNROLL)
      d.dir_dest[q] = 0;
      d.dir_src[q] = 0;
      d.dir_hops[q] = 0;
    }
    for (std::size_t e = 0; e < max_dims; ++e) {
      COLLNET_HLS(UNROLL)
      d.dir_dest[e / 2] = (d.dir_dest[e / 2] + r_.part_id[e]) & mask(id_width);
      d.dir_src[e / 2] = (d.dir_src[e / 2] + r_.part[e]) & mask(addr_width);
      d.dir_hops[e / 2] = (d.dir_hops[e / 2] + r_.hop[e]) & mask(8);
    }
    bool borrow = true;
    for (std::size_t j = 0; j < max_dims; ++j) {
      COLLNET_HLS(UNROLL)
      const std::size_t e = max_dims - 1 - j;
      if (borrow) {
        const bool offset_wraps = r_.offset_zero[e] != 0, target_wraps = r_.target_zero[e] != 0;
        d.offset[e] = offset_wraps ? r_.size[e] - 1 : r_.offset[e] - 1;
        d.offset_zero[e] = offset_wraps ? r_.dim_one[e] : (r_.offset[e] == 1 ? 1u : 0u);
        d.target[e] = target_wraps ? r_.size[e] - 1 : r_.target[e] - 1;
        d.target_zero[e] = target_wraps ? r_.dim_one[e] : (r_.target[e] == 1 ? 1u : 0u);
        // the next offset's hops: torus, digit o - 1: o - 1 where o <= n / 2 + 1,
        // else n + 1 - o; mesh, target t - 1: t - 1 - c where t > c, else c + 1 - t
        const std::uint32_t o = r_.offset[e], t = r_.target[e];
        d.hop[e] = torus ? (offset_wraps ? r_.hop_wrap[e]
                                         : (o > r_.hop_thr[e] ? r_.hop_base[e] - o : o + r_.hop_inv[e]) & mask(size_width))
                         : (target_wraps ? r_.hop_wrap[e]
                                         : (t > r_.hop_thr[e] ? t + r_.hop_inv[e] : r_.hop_base[e] - t) & mask(size_width));
        // the target's share of dest and src: one stride less, or the last entry on a wrap
        d.part_id[e] = target_wraps ? last_id_[e] : (r_.part_id[e] - stride_id_[e]) & mask(id_width);
        d.part[e] = target_wraps ? last_m_[e] : (r_.part[e] - mstride_[e]) & mask(addr_width);
        borrow = offset_wraps;
      }
    }
  }

  /// direct: the SEND of the current offset (its pair sums), then the next offset's.
  EngineLoad direct_send_step(Registers& d) const {
    namespace R = hopgroup_engine_reg;
    const bool pacing = (r_.options & R::opt_pacing) != 0;
    Descriptor s = Descriptor::send((r_.dir_dest[0] + r_.dir_dest[1]) & mask(id_width),
                                    (r_.dir_src[0] + r_.dir_src[1]) & mask(addr_width),
                                    (r_.bank_words + r_.self_m) & mask(addr_width), r_.message_words, r_.tag);
    s.gap = static_cast<std::uint8_t>(pacing ? r_.dir_hops[0] + r_.dir_hops[1] - 1 : 0);
    s.slack = static_cast<std::uint8_t>(pacing ? r_.gap_slack : 0);
    direct_advance(d);
    d.remaining = r_.remaining - 1;
    if (r_.options & R::opt_barriers) {
      d.state = State::d_barrier;
    } else {
      d.tag = (r_.tag + 1) & mask(tag_width);
      d.state = r_.remaining == 1 ? State::end : State::d_send;
    }
    return load(s);
  }

  /// One phase of a group: dimension, piece, and whether it exists.
  struct PhaseSlot {
    bool valid = false;
    std::uint32_t dim = 0;
    std::uint32_t piece = 0;
  };

  /// Table index: sizes beyond 64 break the contract but never index out of the tables.
  static constexpr std::uint32_t index_mask = hopgroup_engine_reg::max_size - 1;

  void start(Registers& d) const {
    d.state = State::init;  // the table fill stands at dimension 0
    d.t = 0;
    // the division's and the program's registers are cleared where they
    // start (init_step's end, divide_step's end: rtl, no configuration
    // decode in a run-time register's enable)
  }

  /// The current dimension's n_d and c_d and the flags of t = 0 in it.
  void enter_dim(Registers& d, std::size_t e) const {
    d.cur = StridesDim::enter(r_.size[e], r_.coord[e], size_width, coord_width);
  }

  /// One cycle of the table fill: t*stride_d and t*stride_d*m for t < n_d;
  /// this node's share at t = c_d; the next stride at t = n_d. The compares
  /// are the flags, set a step ahead (t runs 0..n_d, so t < n_d is !at_size).
  void init_step(Registers& d) {
    const std::size_t e = r_.dim;
    // the division's registers cleared in every cycle of the fill (rtl: their
    // enables are the two states' bits); t counts the division from the fill's end
    d.rem = 0;
    d.quot = 0;
    d.div_last = 0;
    d.dir_init = 0;
    if (!r_.cur.at_size) {
      id_table_[e][r_.t & index_mask] = r_.acc;
      m_table_[e][r_.t & index_mask] = r_.acc_m;
    }
    if (r_.first) {  // t = 0 in dimension 0: the share is 0
      d.self_id = 0;
      d.self_m = 0;
    }
    if (r_.cur.at_coord) {
      if (!r_.first) {
        d.self_id = (r_.self_id + r_.acc) & mask(id_width);
        d.self_m = (r_.self_m + r_.acc_m) & mask(addr_width);
      }
      own_id_[e] = r_.acc & mask(id_width);
      own_m_[e] = r_.acc_m;
    }
    if (r_.cur.at_last) {
      last_id_[e] = r_.acc & mask(id_width);
      last_m_[e] = r_.acc_m;
    }
    if (r_.cur.at_size) {
      enter_dim(d, e + 1 == max_dims ? e : e + 1);
      stride_id_[e] = r_.stride_cur & mask(id_width);
      mstride_[e] = r_.mstride_cur;
      d.stride_cur = r_.acc;
      d.mstride_cur = r_.acc_m;
      d.t = 0;
      d.acc = 0;
      d.acc_m = 0;
      if (e + 1 == max_dims) {
        d.node_count = r_.acc;
        d.bank_words = r_.acc_m;
        d.state = State::divide;
      } else {
        d.dim = r_.dim + 1;
      }
    } else {
      d.cur.step(r_.cur, r_.t);
      d.t = r_.t + 1;
      d.acc = (r_.acc + r_.stride_cur) & mask(id_width + 1);
      d.acc_m = (r_.acc_m + r_.mstride_cur) & mask(addr_width);
    }
  }

  [[nodiscard]] bool three_d() const { return r_.is_3d != 0; }

  [[nodiscard]] std::uint32_t group_count() const { return r_.groups; }

  /// Phase `slot` of group `gi` (plan of the header comment).
  [[nodiscard]] PhaseSlot phase_of(std::uint32_t gi, std::uint32_t slot) const {
    PhaseSlot p;
    // the dimension: gi, the slot or the literal group's (phase_dim, set with the group)
    if (!three_d()) {
      p = {slot == 0, r_.phase_dim[slot], 0};
    } else if (r_.options & hopgroup_engine_reg::opt_concurrent) {
      p = {true, r_.phase_dim[slot], (gi + slot) % 3};
    } else {
      p = {slot == 0, r_.phase_dim[slot], r_.group_piece};  // registers beside the group
    }
    if (p.valid && r_.dim_one[p.dim] != 0) p.valid = false;  // nothing to cross
    return p;
  }

  /// Steps of a phase in a dimension of size n.
  [[nodiscard]] std::uint32_t phase_steps(std::uint32_t n) const {
    if (!(r_.options & hopgroup_engine_reg::opt_torus)) return 2 * (n - 1);
    if (r_.options & hopgroup_engine_reg::opt_both) return n / 2;
    return n - 1;
  }

  [[nodiscard]] std::uint32_t piece_words(std::uint32_t piece) const {
    if (!three_d()) return r_.message_words;
    // spec a2a-hopgroup: M/3 words, the first M mod 3 pieces one word longer
    return piece < r_.rem ? r_.quot_inc : r_.quot;
  }
  /// Words before the piece: 0, m/3 + (rem > 0), 2 m/3 + rem (rem <= 2),
  /// the sums registered by group_step.
  [[nodiscard]] std::uint32_t piece_offset(std::uint32_t piece) const {
    if (piece == 0) return 0;
    return piece == 1 ? r_.piece_off1 : r_.piece_off2;
  }

  /// gi / 3 and gi mod 3 of the next group (registers beside the group).
  /// And the 3-D literal group's phase: j = 0 -> (0, r), 1 -> (2, r+2), 2 -> (1, r+1).
  void next_group_rj(Registers& d) const {
    d.group_round = r_.group_j == 2 ? (r_.group_round + 1) & 3u : r_.group_round;
    d.group_j = r_.group_j == 2 ? 0 : r_.group_j + 1;
    d.group_dim = d.group_j == 0 ? 0 : (d.group_j == 1 ? 2 : 1);
    d.group_piece = (d.group_round + d.group_dim) % 3;
    set_phase_dims(d);
  }

  /// The slots' dimensions of the group d.group (gi mod 4, the slot, or the
  /// 3-D literal group's d.group_dim).
  void set_phase_dims(Registers& d) const {
    for (std::uint32_t s = 0; s < 3; ++s) {
      COLLNET_HLS(UNROLL)
      d.phase_dim[s] = !three_d() ? d.group & 3u
                       : ((r_.options & hopgroup_engine_reg::opt_concurrent) ? s : d.group_dim);
    }
  }

  /// The phases of the group's slots and their step counts (the group's
  /// steps, their maximum, in plan_step).
  void group_step(Registers& d) const {
    d.piece_off1 = (r_.quot + (r_.rem != 0 ? 1u : 0u)) & mask(addr_width);
    d.piece_off2 = (2 * r_.quot + r_.rem) & mask(addr_width);
    d.quot_inc = (r_.quot + 1) & mask(addr_width);
    // which pieces have words: m > 0, or in 3-D m / 3 > 0 or one of the m mod 3 longer pieces
    for (std::uint32_t p = 0; p < 3; ++p) {
      COLLNET_HLS(UNROLL)
      d.piece_live[p] = (!three_d() ? r_.m_live != 0 : (r_.quot != 0 || p < r_.rem)) ? 1u : 0u;
    }
    // the plan registers in every cycle of this state, the group end test
    // deciding the state only (after the last group they are not read)
    d.state = r_.group == group_count() ? State::end : State::plan;
    for (std::uint32_t s = 0; s < 3; ++s) {
      COLLNET_HLS(UNROLL)
      const PhaseSlot p = phase_of(r_.group, s);
      d.plan_valid[s] = p.valid ? 1u : 0u;
      d.plan_dim[s] = p.dim;
      d.plan_piece[s] = p.piece;
      d.plan_from[s] = (r_.bank >> p.piece) & 1u;
      d.plan_n[s] = r_.size[p.dim];
      d.plan_c[s] = r_.coord[p.dim];
      d.plan_steps[s] = p.valid ? r_.dim_steps[p.dim] : 0;
    }
  }

  /// The group's steps (0: the group has no phase) and the pieces' words and offsets.
  void plan_step(Registers& d) const {
    std::uint32_t steps = 0;
    for (std::uint32_t s = 0; s < 3; ++s) {
      COLLNET_HLS(UNROLL)
      steps = r_.plan_steps[s] > steps ? r_.plan_steps[s] : steps;
      const std::uint32_t piece = r_.plan_piece[s];
      d.plan_words[s] = piece_words(piece) & mask(addr_width);
      d.plan_live[s] = r_.plan_valid[s] != 0 && r_.piece_live[piece] != 0 ? 1u : 0u;
      d.plan_act[s] = d.plan_live[s] != 0 && r_.plan_steps[s] != 0 ? 1u : 0u;  // step 0
      const std::uint32_t from = r_.plan_from[s];
      d.plan_src[s] = ((from ? r_.bank_words : 0) + piece_offset(piece)) & mask(addr_width);
      d.plan_dst[s] = ((from ? 0 : r_.bank_words) + piece_offset(piece)) & mask(addr_width);
      d.plan_nc[s] = (r_.plan_n[s] - r_.plan_c[s]) & mask(size_width);
      d.plan_cn[s] = (r_.plan_c[s] + r_.plan_n[s]) & mask(size_width);
    }
    // the next group's number, here in every case (only group_step reads it)
    d.group = r_.group + 1;
    next_group_rj(d);
    if (steps == 0) {
      d.state = State::group;  // no phase: no step
      return;
    }
    d.group_steps = steps;
    d.step_last = steps == 1 ? 1u : 0u;
    d.step = 0;
    d.step_next = 1;
    d.slot = 0;
    d.sub = 0;
    d.state = r_.tag > 0 ? State::barrier : State::select;
  }

  /// The next candidate run of the step (one cycle per candidate): its
  /// registers, the tests that need no coordinate, hops and direction.
  void select_step(Registers& d) const {
    namespace R = hopgroup_engine_reg;
    const bool torus = (r_.options & R::opt_torus) != 0;
    const bool descending = (r_.options & R::opt_descending) != 0;
    // the candidate's registers, in every cycle of this state (slot 3 reads slot 0's)
    const std::uint32_t slot = r_.slot < 3 ? r_.slot : 0;
    const std::uint32_t dim = r_.plan_dim[slot];
    const std::uint32_t n = r_.plan_n[slot];
    const std::uint32_t c = r_.plan_c[slot];
    const std::uint32_t steps = r_.plan_steps[slot];
    const std::uint32_t words = r_.plan_words[slot];
    // hops of index i = step (ascending) or steps - 1 - step (descending):
    // i + 1 on a torus, i / 2 + 1 on a mesh (steps = 2 (n - 1) is even there)
    std::uint32_t hops = 0, negative = 0;
    bool exists = true;
    if (r_.sub == 0) {
      exists = r_.step == 0;  // the local copy, in the phase's first step
    } else if (!torus) {
      exists = r_.sub == 1;
      hops = descending ? (steps >> 1) - (r_.step >> 1) : (r_.step >> 1) + 1;
      negative = (r_.step & 1u) ^ (descending ? 1u : 0u);
    } else {
      const bool both = (r_.options & R::opt_both) != 0;
      exists = both || r_.sub == 1;  // both: -h unless 2h = n (setup_step)
      hops = descending ? steps - r_.step : r_.step_next;
      negative = both && r_.sub != 1 ? 1u : 0u;
    }
    d.run_dim = dim;
    d.run_words = words;
    d.run_n = n;
    d.run_c = c;
    d.run_nc = r_.plan_nc[slot];
    d.run_cn = r_.plan_cn[slot];
    d.run_hops = hops & mask(8);
    d.run_skip = 1u << dim;
    d.run_neg = negative;
    d.run_src = r_.plan_src[slot];
    d.run_dst = r_.plan_dst[slot];  // + c_d x stride_d x m: setup_step
    d.run_own_m = own_m_[dim];
    d.run_last_m = last_m_[dim];
    d.run_own_id = own_id_[dim];
    if (r_.slot == 3) {
      // step done
      d.tag = (r_.tag + 1) & mask(tag_width);
      d.slot = 0;
      d.sub = 0;
      if (r_.step_last != 0) {
        std::uint32_t flip = 0;
        for (std::uint32_t s = 0; s < 3; ++s)
          if (r_.plan_valid[s]) flip |= 1u << r_.plan_piece[s];
        d.bank = r_.bank ^ flip;
        d.state = State::group;  // the next group's number: plan_step
      } else {
        d.step = r_.step_next;
        d.step_next = (r_.step_next + 1) & mask(8);
        d.step_last = ((r_.step_next + 1) & mask(8)) == r_.group_steps ? 1u : 0u;
        for (std::uint32_t s = 0; s < 3; ++s) {
          COLLNET_HLS(UNROLL)
          d.plan_act[s] = r_.plan_live[s] != 0 && r_.step_next < r_.plan_steps[s] ? 1u : 0u;
        }
        d.state = State::barrier;
      }
      return;
    }
    const bool phase_active = r_.plan_act[slot] != 0;  // live, and step < steps
    if (!phase_active || r_.sub > 2) {
      d.slot = r_.slot + 1;
      d.sub = 0;
    } else if (!exists) {
      d.sub = r_.sub + 1;
    } else {
      d.state = State::setup;
    }
  }

  /// The run's target coordinate v = c_d +- hops (mod n_d on a torus; a mesh
  /// run without it is dropped) and the tables' read of entry v.
  void setup_step(Registers& d) const {
    namespace R = hopgroup_engine_reg;
    const bool torus = (r_.options & R::opt_torus) != 0;
    const std::uint32_t h = r_.run_hops, c = r_.run_c, n = r_.run_n;
    const bool over = h >= r_.run_nc;  // c + h >= n
    const bool under = h > c;          // c - h < 0
    std::uint32_t v = 0;
    if (r_.run_neg) v = under ? r_.run_cn - h : c - h;
    else v = over ? h - r_.run_nc : c + h;
    bool exists = true;
    if (r_.sub == 0) exists = true;
    else if (torus) exists = r_.sub == 1 || 2 * h != n;
    else exists = r_.run_neg ? !under : !over;  // mesh: n_d + k does not exist
    // the run's registers in every cycle of this state (run_step reads them; a
    // dropped candidate goes back to select_step, which sets them again)
    // one synchronous read of each table (entry v); the entry c_d is a register
    d.rd_id = id_table_[r_.run_dim][v & index_mask];
    d.rd_m = m_table_[r_.run_dim][v & index_mask];
    d.run_dst = (r_.run_dst + r_.run_own_m) & mask(addr_width);
    d.run_dest = (r_.self_id - r_.run_own_id) & mask(id_width);
    d.run_jump = (r_.message_words + r_.run_last_m) & mask(addr_width);
    // sub moves on in every cycle here: a dropped candidate goes back to
    // select_step, a run keeps it to its end (run_step does not read it)
    d.sub = (r_.sub + 1) & 3u;
    if (r_.sub == 0) {
      d.run_hint = 0;
      d.run_gap = 0;
      d.run_slack = 0;
    } else {
      const bool pacing = (r_.options & R::opt_pacing) != 0;
      d.run_hint = (r_.run_neg ? 2u : 1u) << (2 * r_.run_dim);
      // gap = flows on a link - 1: hops on a torus, min(hops, n_d - hops) on a
      // mesh, i.e. n_d - hops - 1 where hops <= n_d < 2 hops (rtl: both sums
      // beside the compares)
      const bool short_way = !torus && h <= n && n < 2 * h;
      d.run_gap = pacing ? (short_way ? n - h - 1 : h - 1) & mask(8) : 0;
      d.run_slack = pacing ? r_.gap_slack : 0;
    }
    for (std::size_t e = 0; e < max_dims; ++e) {
      COLLNET_HLS(UNROLL)
      d.digit[e] = (r_.size[e] - 1) & mask(size_width);  // counting down
      d.digit_zero[e] = r_.size[e] == 1 ? 1u : 0u;
    }
    d.state = exists ? State::fetch : State::select;
  }

  friend class ScheduleEngine<HopgroupScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
  std::array<std::array<std::uint32_t, hopgroup_engine_reg::max_size>, max_dims> id_table_{};
  std::array<std::array<std::uint32_t, hopgroup_engine_reg::max_size>, max_dims> m_table_{};
  // per-dimension registers written during the table fill
  std::array<std::uint32_t, max_dims> mstride_{};    // stride_d x m
  std::array<std::uint32_t, max_dims> stride_id_{};  // stride_d
  std::array<std::uint32_t, max_dims> own_id_{};     // c_d x stride_d
  std::array<std::uint32_t, max_dims> own_m_{};      // c_d x stride_d x m
  std::array<std::uint32_t, max_dims> last_id_{};    // (n_d - 1) x stride_d
  std::array<std::uint32_t, max_dims> last_m_{};     // (n_d - 1) x stride_d x m
};

/// The writes that load a node's collective and start it (CONTROL last).
inline std::vector<EngineWrite> hopgroup_engine_writes(std::uint8_t algorithm, std::uint32_t message_words,
                                                                  std::uint32_t options, std::uint32_t gap_slack,
                                                                  std::uint32_t dims,
                                                                  const std::array<std::uint32_t, 4>& sizes,
                                                                  const std::array<std::uint32_t, 4>& coord) {
  namespace R = hopgroup_engine_reg;
  return grid_engine_writes({{R::algorithm, algorithm},
                             {R::message_words, message_words},
                             {R::options, options},
                             {R::gap_slack, gap_slack},
                             {R::dims, dims}},
                            R::size0, sizes, R::coord0, coord);
}

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_hopgroup_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                                         std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<HopgroupScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo, out_desc_hi, busy);
}

}  // namespace collnet::hls
