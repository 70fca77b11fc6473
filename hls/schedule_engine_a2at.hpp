// Schedule engine for A2AT, the optimal all-to-all of document 001 (spec
// a2a-optimal; reference: collectives/a2a_optimal.cpp and a2a_grouped.hpp,
// which it must equal word for word). It expands one node's a2a-optimal
// program into its descriptor stream, at most one descriptor per cycle.
//
// Why a table. The offset order of A2AT depends on the grid's shape (odd or
// even, square or not, torus or mesh), on the group order (printed,
// reordered) and on nct; a generator for every case would be most of
// a2a_optimal.cpp in gates. Every node sends the same offsets in the same
// order, so software loads that ordered list once, from
// collectives::a2at_offset_groups, into a small **offset table**; the engine
// turns each offset into this node's SEND.
//
// The stream, for an Nx x Ny grid, this node at (x, y), m words per message:
//   for every table entry (dx, dy, last) in order, k = position in its group,
//   g = group number (groups end at entries with last = 1):
//     SEND dest = tx + Nx*ty with tx = (x+dx) mod Nx, ty = (y+dy) mod Ny,
//          src = dest*m, dst = N*m + self*m, length m, controller k, tag g,
//          route_hint = torus and |dx| = Nx/2 exactly: direction of dx's sign
//          in dimension 0, same for dy in dimension 1 (a2at_route_hint)
//     and with GROUP_BARRIERS set, after the entry with last = 1:
//     BARRIER g                                         (key group_barriers)
//   SEND self, src = self*m, dst = N*m + self*m, length m, controller 0,
//        tag = number of groups                           (local copy)
//   END
//
// Register map: a2at_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package schedule_engine_a2at_regs_pkg are
// generated from it); ports and handshake: hls/schedule_engine.hpp.
// TABLE_DATA is written at TABLE_ADDR, which then increments; the last entry
// must have [16] = 1.
// Contract: N = Nx*Ny <= 257 (offset table of 256 entries), 2*N*m <= 2^20.
// Storage: offset table 256 x 17 bits; column table Nx <= 64 x 20 bits
// (t*m); row tables 64 x 16 bits (t*Nx) and 64 x 20 bits (t*Nx*m); every
// table has one write port and one synchronous read port (block RAM).
// nct is not a register: the table's group boundaries carry it.
//
// Timing: after start, (Nx + 1) + (Ny + 1) cycles fill the column and row
// tables by repeated addition (no multiplier; they also give self = x +
// y*Nx, self*m and N*m), then a three-stage pipeline (table read, row and
// column read, output register) stalled as a whole by the output: counting
// the CONTROL write as cycle 0, the first descriptor is offered in cycle
// Nx + Ny + 6, then one per cycle while the consumer is ready (II = 1); a
// group's BARRIER holds stage A for one cycle (one descriptor more, no bubble).
//
// Register names (_q, with _d the next value) are those of
// rtl/schedule_engine_a2at.sv.
#pragma once

#include <array>
#include <cstdint>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

namespace a2at_engine_reg {
/// TABLE_DATA word of one offset (the fields the engine's configure() takes apart).
constexpr std::uint32_t table_word(int dx, int dy, bool last) {
  return (static_cast<std::uint32_t>(dx) & 0xffu) | ((static_cast<std::uint32_t>(dy) & 0xffu) << 8) |
         (last ? 1u << 16 : 0u);
}
}  // namespace a2at_engine_reg

class A2atScheduleEngine : public ScheduleEngine<A2atScheduleEngine> {
 public:
  /// Outside a configuration write the tables are written only while they
  /// are filled (init_col, init_row), where every cycle advances `t` or the
  /// state: a cycle that leaves the registers as they were wrote no table.
  static constexpr bool tables_follow_registers = true;

  enum class State : std::uint8_t { idle = 0, init_col = 1, init_row = 2, run = 3 };
  /// What a pipeline stage holds.
  enum class Kind : std::uint8_t { none = 0, send = 1, copy = 2, end = 3, barrier = 4 };

 private:
  struct Registers {
    // configuration (config_registers)
    std::uint32_t message_words = 1;
    std::uint32_t size_x = 1, size_y = 1, coord_x = 0, coord_y = 0;  // Nx, Ny, x, y
    std::uint32_t torus = 0, group_barriers = 0;
    std::uint32_t table_count = 0, table_ptr = 0;  // offset table: entries, write pointer (TABLE_ADDR)
    State state = State::idle;
    // table fill
    std::uint32_t t = 0;
    bool t_size = false, t_coord = false;  // t == the size, t == the coordinate (of x, then of y)
    std::uint32_t acc = 0;    // t*Nx
    std::uint32_t acc_m = 0;  // t*m, then t*Nx*m
    std::uint32_t self_xm = 0;
    std::uint32_t nx_m = 0;
    std::uint32_t self_id = 0;
    std::uint32_t self_m = 0;
    std::uint32_t result_base = 0;  // N*m
    // follow COORD, SIZE and TORUS: c + n and c - n (9 bits, two's complement)
    // of each dimension, the wrap's corrected sums taken beside c + d; the
    // offsets of exactly half a torus ring, +n/2 and -n/2 (8 bits), and
    // whether there is one (n even, >= 2, on a torus)
    std::uint32_t x_up = 0, x_dn = 0, y_up = 0, y_dn = 0;
    std::uint32_t x_half = 0, y_half = 0, x_nhalf = 0, y_nhalf = 0;
    bool x_tie_ok = false, y_tie_ok = false;
    // stage A
    std::uint32_t fetch_index = 0;
    Kind fetch_done = Kind::none;  // copy and END issued after the table
    Kind a_kind = Kind::none;
    std::uint32_t a_entry = 0;
    std::uint32_t position = 0;  // place in the current group = controller
    std::uint32_t group = 0;     // group number = tag
    bool barrier_pending = false;  // a group just ended: its BARRIER goes next
    // stage B
    Kind b_kind = Kind::none;
    std::uint32_t b_tx = 0, b_row_id = 0;    // target column, id of the target row's first node
    std::uint32_t b_col_m = 0, b_row_m = 0;  // their multiples of m: the source offset's parts
    std::uint32_t b_hint = 0, b_controller = 0, b_tag = 0;
  };

  static constexpr const auto& map = a2at_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_register(map, "MESSAGE_WORDS", &Registers::message_words),
      config_register(map, "SIZE_X", &Registers::size_x),   config_register(map, "SIZE_Y", &Registers::size_y),
      config_register(map, "COORD_X", &Registers::coord_x), config_register(map, "COORD_Y", &Registers::coord_y),
      config_register(map, "TORUS", &Registers::torus),
      config_register(map, "GROUP_BARRIERS", &Registers::group_barriers),
      config_register(map, "TABLE_COUNT", &Registers::table_count),
      config_register(map, "TABLE_ADDR", &Registers::table_ptr)};

  void start(Registers& d) const {
    d.state = State::init_col;
    d.t = 0;
    d.t_size = r_.size_x == 0;
    d.t_coord = r_.coord_x == 0;
    d.acc = 0;
    d.acc_m = 0;
  }

  static constexpr std::string_view special_registers[] = {"TABLE_DATA"};
  /// TABLE_DATA: the offset table entry at TABLE_ADDR, which then increments.
  void configure_special(Registers& d, std::uint8_t addr, std::uint32_t w) {
    if (addr != a2at_engine_reg::table_data) return;
    offset_table_[r_.table_ptr] = map.field("TABLE_DATA", w);
    d.table_ptr = (r_.table_ptr + 1u) & 0xffu;
  }

  EngineLoad next_state(Registers& d, bool can_load) {
    d.x_up = (r_.coord_x + r_.size_x) & 0x1ffu;
    d.x_dn = (r_.coord_x - r_.size_x) & 0x1ffu;
    d.y_up = (r_.coord_y + r_.size_y) & 0x1ffu;
    d.y_dn = (r_.coord_y - r_.size_y) & 0x1ffu;
    d.x_half = (r_.size_x >> 1) & 0xffu;
    d.x_nhalf = (0u - (r_.size_x >> 1)) & 0xffu;
    d.y_half = (r_.size_y >> 1) & 0xffu;
    d.y_nhalf = (0u - (r_.size_y >> 1)) & 0xffu;
    d.x_tie_ok = r_.torus != 0 && (r_.size_x & 1u) == 0 && r_.size_x >= 2;
    d.y_tie_ok = r_.torus != 0 && (r_.size_y & 1u) == 0 && r_.size_y >= 2;
    switch (r_.state) {
      case State::idle: break;
      case State::init_col:
        // t*m for t = 0..Nx-1; x*m at t = x; Nx*m at t = Nx (t_size and
        // t_coord: t == Nx and t == x, set a cycle ahead).
        if (!r_.t_size) col_m_[r_.t] = r_.acc_m;
        if (r_.t_coord) d.self_xm = r_.acc_m;
        if (r_.t_size) {
          d.nx_m = r_.acc_m;
          d.state = State::init_row;
          d.t = 0;
          d.t_size = r_.size_y == 0;
          d.t_coord = r_.coord_y == 0;
          d.acc = 0;
          d.acc_m = 0;
        } else {
          d.t = r_.t + 1;
          d.t_size = r_.t + 1 == r_.size_x;
          d.t_coord = r_.t + 1 == r_.coord_x;
          d.acc_m = (r_.acc_m + r_.message_words) & mask(addr_width);
        }
        break;
      case State::init_row: init_row_step(d); break;
      case State::run:
        if (can_load) {  // the whole pipeline moves
          if (r_.barrier_pending) {
            // The group's BARRIER enters stage B; stage A holds its entry.
            d.barrier_pending = false;
            d.b_kind = Kind::barrier;
            d.b_tag = (r_.group - 1u) & mask(tag_width);  // the group that just ended
          } else {
            stage_a(d);
            stage_b(d);
          }
          return stage_c(d);
        }
        break;
    }
    return {};
  }

  /// t*Nx and t*Nx*m for t = 0..Ny-1; self at t = y; N and N*m at t = Ny.
  void init_row_step(Registers& d) {
    if (!r_.t_size) {
      row_id_[r_.t] = r_.acc;
      row_m_[r_.t] = r_.acc_m;
    }
    if (r_.t_coord) {
      d.self_id = (r_.acc + r_.coord_x) & mask(id_width);
      d.self_m = (r_.acc_m + r_.self_xm) & mask(addr_width);
    }
    if (r_.t_size) {
      d.result_base = r_.acc_m;
      d.state = State::run;
      d.fetch_index = 0;
      d.fetch_done = Kind::none;
      d.a_kind = Kind::none;
      d.b_kind = Kind::none;
      d.position = 0;
      d.group = 0;
      d.barrier_pending = false;
    } else {
      d.t = r_.t + 1;
      d.t_size = r_.t + 1 == r_.size_y;
      d.t_coord = r_.t + 1 == r_.coord_y;
      d.acc = (r_.acc + r_.size_x) & mask(id_width + 1);
      d.acc_m = (r_.acc_m + r_.nx_m) & mask(addr_width);
    }
  }

  /// Stage A: read the offset table (then the copy, then END).
  void stage_a(Registers& d) const {
    if (r_.fetch_index < r_.table_count) {
      d.a_kind = Kind::send;
      d.a_entry = offset_table_[r_.fetch_index & 0xffu];
      d.fetch_index = r_.fetch_index + 1;
    } else if (r_.fetch_done == Kind::none) {
      d.a_kind = Kind::copy;
      d.fetch_done = Kind::copy;
    } else if (r_.fetch_done == Kind::copy) {
      d.a_kind = Kind::end;
      d.fetch_done = Kind::end;
    } else {
      d.a_kind = Kind::none;
    }
  }

  /// Stage B: this node's target coordinates, read the row and column tables.
  void stage_b(Registers& d) const {
    d.b_kind = r_.a_kind;
    if (r_.a_kind == Kind::send) {
      const std::uint32_t dx = r_.a_entry & 0xffu;
      const std::uint32_t dy = (r_.a_entry >> 8) & 0xffu;
      const bool last = ((r_.a_entry >> 16) & 1u) != 0;
      const std::uint32_t tx = wrap(r_.coord_x, r_.x_up, r_.x_dn, dx);
      const std::uint32_t ty = wrap(r_.coord_y, r_.y_up, r_.y_dn, dy);
      d.b_tx = tx;
      d.b_row_id = row_id_[ty];
      d.b_col_m = col_m_[tx];
      d.b_row_m = row_m_[ty];
      // spec a2a-optimal: a component of exactly half a torus ring takes its sign's direction
      const std::uint32_t hint_x = !r_.x_tie_ok ? 0u : dx == r_.x_nhalf ? 2u : dx == r_.x_half ? 1u : 0u;
      const std::uint32_t hint_y = !r_.y_tie_ok ? 0u : dy == r_.y_nhalf ? 2u : dy == r_.y_half ? 1u : 0u;
      d.b_hint = hint_x | hint_y << 2;
      d.b_controller = r_.position;
      d.b_tag = r_.group;
      if (last) {
        d.position = 0;
        d.group = (r_.group + 1u) & mask(tag_width);
        d.barrier_pending = r_.group_barriers;
      } else {
        d.position = (r_.position + 1u) & 7u;
      }
    } else if (r_.a_kind == Kind::copy) {
      d.b_tag = r_.group;  // the table ends a group: group = number of groups
    }
  }

  /// Stage C: what stage B holds goes into the output register.
  EngineLoad stage_c(Registers& d) const {
    const std::uint32_t dst = (r_.result_base + r_.self_m) & mask(addr_width);
    switch (r_.b_kind) {
      case Kind::send: {
        Descriptor s = Descriptor::send((r_.b_tx + r_.b_row_id) & mask(id_width),
                                        (r_.b_col_m + r_.b_row_m) & mask(addr_width), dst, r_.message_words, r_.b_tag);
        s.controller = static_cast<std::uint8_t>(r_.b_controller);
        s.route_hint = static_cast<std::uint8_t>(r_.b_hint);
        return load(s);
      }
      case Kind::copy: return load(Descriptor::send(r_.self_id, r_.self_m, dst, r_.message_words, r_.b_tag));
      case Kind::barrier: return load(Descriptor::barrier(r_.b_tag));
      case Kind::end: return end_of_program(d);
      case Kind::none: break;
    }
    return {};
  }


  /// (c + delta) mod n for |delta| < n (delta: 8 bits, two's complement): one
  /// correction either way. The sums c + delta, (c + n) + delta and
  /// (c - n) + delta (up, dn: registers) are taken side by side in 9 bits,
  /// and their signs choose.
  static std::uint32_t wrap(std::uint32_t c, std::uint32_t up, std::uint32_t dn, std::uint32_t delta) {
    const std::uint32_t d9 = (delta & 0x80u) != 0 ? delta | 0x100u : delta;  // sign-extended to 9 bits
    const std::uint32_t sum = (c + d9) & 0x1ffu, sum_up = (up + d9) & 0x1ffu, sum_dn = (dn + d9) & 0x1ffu;
    if ((sum & 0x100u) != 0) return sum_up & 0x3fu;      // c + delta < 0
    if ((sum_dn & 0x100u) == 0) return sum_dn & 0x3fu;   // c + delta >= n
    return sum & 0x3fu;
  }

  friend class ScheduleEngine<A2atScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
  std::array<std::uint32_t, a2at_engine_reg::table_entries> offset_table_{};
  std::array<std::uint32_t, a2at_engine_reg::max_size> col_m_{};
  std::array<std::uint32_t, a2at_engine_reg::max_size> row_id_{};
  std::array<std::uint32_t, a2at_engine_reg::max_size> row_m_{};
};

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_a2at_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                                     std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<A2atScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo, out_desc_hi, busy);
}

}  // namespace collnet::hls
