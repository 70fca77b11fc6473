// Schedule engine for the pipelined tree collectives of document 002:
// twotree-hier (reduce, broadcast, allreduce), twotree-flat and tree-single
// (spec twotree-leafspine: two-tree, pipelined reduce, procedure tables,
// composition). It expands one rank's program into its descriptor stream,
// at most one descriptor per cycle; collectives/tree_pipeline.cpp
// (`tree_schedule`) is the reference it must equal word for word.
//
// What software loads is the procedure tables (spec tables 174-177,
// collectives/twotree_tables.hpp) of this rank, stage by stage: for each
// color c, the partner it sends to and the partner it receives from, with
// the tree (T1/T2) of that edge. A reduce stage loads the send entries from
// table 174 (local) or 175 (global) and the receive entries from 176 / 177; a
// broadcast stage swaps the roles (spec: a broadcast receives from the
// send-table partner and sends to the receive-table partners). Each entry
// also carries what the tables do not hold and the pipeline needs:
//   level  the first local phase of the edge is 2*level + c: the sending
//          node's height h_t(v) in a reduce, D-1-h_t(v) of the receiving node
//          in a broadcast (twotree.hpp: pipelining)
//   slot   reduce: the child's index among its parent's children (T1 first),
//          the slot of the parent's memory it writes (tree_pipeline.hpp)
// plus the stage's first global phase (stage_transfers' StagePhases) and the
// spine hints: the route hint of every SEND this rank makes, in program
// order (spine_choice.hpp: the coloring differs per phase, so it is a table).
// Partners are loaded as endpoint ids (the placement's rank -> endpoint).
//
// The stream: for every stage, phase q = 0, 1, ... (tag = stage base + q):
//   send entry c fires at q = 2(level + k) + c for block k = 0..n_t-1:
//     SEND partner, src = off_k, dst = (reduce ? L(1 + 2r + slot) : 0) + off_k,
//          len_k, tag, dtype, route hint = next table entry
//   receive entry c fires at the same rule:
//     WAIT tag, 1;  reduce: SEND self, src = L(1 + 2r + slot) + off_k,
//     dst = off_k, len_k, op, dtype, tag 0x8000 + tag; WAIT 0x8000 + tag, 1
//   (send before receive within a phase; r = the stage's reduce index);
//   END after the last stage.
// Blocks (tree_pipeline.hpp block_ranges): tree t carries H_t words (two
// trees: H_1 = ceil(L/2) at offset 0, H_2 = L - H_1 at H_1; single tree:
// H_1 = L), block k has H_t div B + (k < H_t mod B) words; blocks of 0 words
// are not sent, so a stream has n_t = min(B, H_t) blocks. The division is a
// 17-step restoring divider at start (no multiplier or divider in the
// datapath: L(1 + 2r + slot) is L shifted, or 2L + L).
//
// Register map: twotree_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package schedule_engine_twotree_regs_pkg are
// generated from it); ports and handshake: hls/schedule_engine.hpp.
// Contract: at most 1024 SENDs per rank (B <= 128 for an allreduce), memory
// L(1 + 2 x reduce stages) < 2^20 and phases < 0x8000 (tree_schedule checks
// both); in a phase at most one send and one receive entry fire (spec: a
// node sends at most once and receives at most once per phase).
// Storage: the stage words and the entries are a 32 x 32-bit procedure
// table RAM (entry 4s + e at 4s + e, STAGE s at 16 + s; 20 words used), the
// route hints a 1024 x 8-bit RAM, held twice (read at the pointer and at the
// pointer + 1, both addressed by registers: the SEND takes the second's word
// when the pointer advanced in the previous cycle); each has one write port
// (the configuration port) and one synchronous read port, so all map to
// block RAM. The procedure table is read a cycle ahead of the load (the
// stage word in the cycle before it), and its word passes one more register
// before the load uses it. The
// stage being run is copied into registers (broadcast, reduce index, first
// phase) and four stream registers; 68 other configuration bits.
//
// Timing: the CONTROL write is cycle 0; cycles 1-17 divide, cycle 18 sets
// up, then per stage six cycles load it (one table read per cycle: the
// stage word, then the four entries, one stream per cycle), and the stage
// runs one cycle per descriptor plus one cycle per phase in which this rank
// does not send (the send check of that phase; a phase without any event
// costs just that cycle). Not initiation interval 1: the reference
// interleaves at most 4 descriptors per phase, and the bubbles are few next
// to the network time of a phase. A first version held the tables in
// 640 flip-flops and loaded the four streams in one cycle through 4:1
// multiplexers; it did not route on an iCE40 HX8K (docs/synthesis.md,
// "Notes for RTL writers").
// Each stream keeps its next block's length and whether it is its last in
// registers (updated as the block leaves), so that no adder or comparator
// sits between the stream selection and the next-stage decision.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

class TwotreeScheduleEngine : public ScheduleEngine<TwotreeScheduleEngine> {
 public:
  static constexpr unsigned hint_entries = 1024;
  static constexpr unsigned table_entries = 32;  // procedure table RAM
  static constexpr unsigned table_stage0 = 16;   // STAGE s at table_stage0 + s
  static constexpr unsigned load_cycles = 6;     // per stage: stage word, 4 entries (read latency 1)
  static constexpr unsigned div_steps = 17;
  static constexpr std::uint32_t local_tag = 0x8000;
  /// The tables are written only by configuration writes, which the engine
  /// takes only while idle with an empty output; a busy engine's idle cycle
  /// also leaves `hint_written_` false, as the cycle before it did.
  static constexpr bool tables_follow_registers = true;

  enum class State : std::uint8_t { idle, divide, setup, stage_load, phase_send, phase_recv, combine, combine_wait, end };

 private:
  struct Stream {
    bool active = false;
    std::uint32_t tree = 0, slot = 0, partner = 0;
    std::uint32_t next = 0;  // local phase of the next block
    std::uint32_t k = 0;     // next block, 0-based
    std::uint32_t off = 0;   // its first word
    std::uint32_t len = 0;   // its words: H_t div B + (k < H_t mod B)
    bool last = false;       // block k is the stream's last: k + 1 >= min(B, H_t)
    // kept with the stream's registers (RTL s_match, s_dst):
    bool match = false;      // next == q: the block leaves in this phase
    std::uint32_t dst = 0;   // the block's address in the slot: L(1 + 2r + slot) + off (broadcast: off)
    // the compares for block k + 1, a cycle after k (RTL s_long1, s_last1):
    // it has one more word (k + 1 < H_t mod B); it is the last (k + 2 >= min(B, H_t))
    bool long1 = false, last1 = false;
  };

  struct Registers {
    // configuration (config_registers)
    std::uint32_t float64 = 0, op = 1, single = 0;  // the fields of MODE
    std::uint32_t self = 0, elements = 1, blocks = 1, stages = 0;
    std::uint32_t hint_ptr = 0;  // HINT_ADDR: write pointer of the hint table
    State state = State::idle;
    // read ports of the tables (no reset in the RTL: read before use): the
    // procedure table's, and the hint table's two copies, read at hint_ptr
    // and hint_ptr + 1
    std::uint32_t table_rd = 0;
    std::uint32_t hint_rd = 0, hint_rd1 = 0;
    // table_rd a cycle later (the stage's load reads it), and whether
    // hint_ptr advanced in the previous cycle (a SEND: HINT[hint_ptr] is then
    // hint_rd1)
    std::uint32_t table_w = 0;
    bool hint_adv = false;
    // block division: H_t = quot_t x B + rem_t (half: H_t, shifted left one
    // bit per step, which divides its top bit)
    std::array<std::uint32_t, 2> half{}, quot{}, rem{}, tree_base{};
    std::uint32_t div_bit = 0;
    std::array<std::uint32_t, 4> slot_base{};
    // follow the division and the slot bases, per tree t: a stream's first
    // block length, whether it has blocks, whether its first is its last;
    // per slot base j and tree t (at 2j + t): L(1 + j) + the tree's first word
    std::array<std::uint32_t, 2> t_len0{};
    std::array<bool, 2> t_any{}, t_last0{};
    // and what a stream's next block needs, per tree: H_t div B + 1,
    // H_t mod B - 1 and whether H_t mod B is non-zero, min(B, H_t) - 2 and
    // whether min(B, H_t) <= 2
    // (t_sb2 and t_sb_le2 from t_sb = min(B, H_t), a cycle later)
    std::array<std::uint32_t, 2> t_quot1{}, t_rem1{}, t_sb{}, t_sb2{};
    std::array<bool, 2> t_rem_nz{}, t_sb_le2{};
    std::array<std::uint32_t, 8> dst_base{};
    // walk: the stage being run
    std::uint32_t stage = 0;
    std::uint32_t ld = 0;  // stage_load cycle, 0..load_cycles-1
    bool broadcast = false;
    std::uint32_t reduce_index = 0;
    std::uint32_t base_phase = 0;
    std::uint32_t q = 0;
    std::uint32_t tag = 0;  // base_phase + q, kept beside q
    std::uint32_t q1 = 0;   // q + 1, kept beside q
    std::array<Stream, 4> streams{};
    std::uint32_t comb_src = 0, comb_dst = 0, comb_len = 0;
  };

  static constexpr const auto& map = twotree_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_field(map, "MODE", 0, 1, &Registers::float64), config_field(map, "MODE", 1, 3, &Registers::op),
      config_field(map, "MODE", 4, 1, &Registers::single),
      config_register(map, "SELF", &Registers::self),         config_register(map, "ELEMENTS", &Registers::elements),
      config_register(map, "BLOCKS", &Registers::blocks),     config_register(map, "STAGES", &Registers::stages),
      config_register(map, "HINT_ADDR", &Registers::hint_ptr)};

  static constexpr std::string_view special_registers[] = {"STAGE", "ENTRY", "HINT_DATA"};
  /// STAGE and ENTRY: the procedure table RAM; HINT_DATA: the hint RAM at
  /// HINT_ADDR, which then increments.
  void configure_special(Registers& d, std::uint8_t a, std::uint32_t w) {
    namespace reg = twotree_engine_reg;
    // the RTL decodes STAGE and ENTRY by their upper address bits
    static_assert(reg::stage0 % 4 == 0 && reg::entry0 % 16 == 0, "STAGE and ENTRY are aligned blocks of the map");
    if (a >= reg::stage0 && a < reg::stage0 + 4) {
      table_[table_stage0 + (a & 3u)] = w;
    } else if (a >= reg::entry0 && a < reg::entry0 + 16) {
      table_[a & 15u] = w;
    } else if (a == reg::hint_data) {
      hints_[r_.hint_ptr] = static_cast<std::uint8_t>(w);
      hint_written_ = true;
      d.hint_ptr = (r_.hint_ptr + 1) & (hint_entries - 1);
    }
  }

  EngineLoad next_state(Registers& d, bool can_load) {
    // Procedure table read port: synchronous, addressed by this cycle's
    // registers (writes happen only while idle, reads only while running),
    // then one more register before the load uses the word.
    if (r_.state != State::idle) d.table_rd = table_[table_read_address()];
    d.table_w = r_.table_rd;
    // an entry's word (load cycles 1-4) loses its tree bit in single-tree mode
    if (r_.single && r_.state == State::stage_load && r_.ld != 0) d.table_w &= ~2u;
    d.hint_adv = false;
    for (std::uint32_t t = 0; t < 2; ++t) {
      d.t_len0[t] = block_len(t, 0) & ((1u << div_steps) - 1);
      d.t_any[t] = stream_blocks(t) != 0;
      d.t_last0[t] = stream_blocks(t) <= 1;
      d.t_quot1[t] = (r_.quot[t] + 1) & ((1u << div_steps) - 1);
      d.t_rem1[t] = (r_.rem[t] - 1) & 0x7ffu;
      d.t_rem_nz[t] = r_.rem[t] != 0;
      d.t_sb[t] = stream_blocks(t) & 0x7ffu;
      d.t_sb2[t] = (r_.t_sb[t] - 2) & 0x7ffu;
      d.t_sb_le2[t] = r_.t_sb[t] <= 2;
    }
    // every stream's compares for its block k + 1, from the registers that
    // follow the division (current whenever the stream fires: it fires at
    // most every other cycle, and not in the cycle after its load)
    for (std::size_t i = 0; i < 4; ++i) {
      const Stream& s = r_.streams[i];
      d.streams[i].long1 = r_.t_rem_nz[s.tree] && s.k < r_.t_rem1[s.tree];
      d.streams[i].last1 = r_.t_sb_le2[s.tree] || s.k >= r_.t_sb2[s.tree];
    }
    for (std::size_t j = 0; j < 4; ++j) {
      d.dst_base[2 * j] = r_.slot_base[j] & 0xfffffu;
      d.dst_base[2 * j + 1] = (r_.slot_base[j] + r_.tree_base[1]) & 0xfffffu;
    }
    const EngineLoad out = descriptor_step(d, can_load);
    // Hint table read ports: synchronous, addressed by this cycle's pointer
    // and the pointer + 1 (two copies of the table), so that HINT[hint_ptr]
    // is hint_rd or, after a SEND, hint_rd1 in every cycle of a run (no read
    // in a cycle that writes the table).
    if (!hint_written_) {
      d.hint_rd = hints_[r_.hint_ptr];
      d.hint_rd1 = hints_[(r_.hint_ptr + 1) & (hint_entries - 1)];
    }
    hint_written_ = false;
    return out;
  }

  EngineLoad descriptor_step(Registers& d, bool can_load) const {
    const std::uint32_t tag = r_.tag;
    switch (r_.state) {
      case State::idle: break;
      case State::divide: divide_step(d); break;
      case State::setup:
        // slot bases L(1 + 2r + j): shifts and one addition (2L + L), as the
        // RTL computes them; stage 0 next
        d.slot_base = {r_.elements, r_.elements << 1, (r_.elements << 1) + r_.elements, r_.elements << 2};
        d.stage = 0;
        d.ld = 0;
        d.state = r_.stages == 0 ? State::end : State::stage_load;
        break;
      case State::stage_load: load_stage(d); break;
      case State::phase_send: return phase_send_step(d, can_load, tag);
      case State::phase_recv:
        if (can_load) {
          const int e = firing(2);
          const Stream& s = r_.streams[static_cast<std::size_t>(e)];
          d.comb_src = s.dst;
          d.comb_dst = s.off;
          d.comb_len = s.len;
          fire(d, e);
          if (r_.broadcast) next_phase(d);
          else d.state = State::combine;
          return make(Opcode::wait, 0, 0, 0, 1, tag, 0, false, 0);
        }
        break;
      case State::combine:
        if (can_load) {
          // spec twotree-leafspine: fixed-order reduction, one arrival at a time
          d.state = State::combine_wait;
          return make(Opcode::send, r_.self, r_.comb_src, r_.comb_dst, r_.comb_len, (local_tag + tag) & 0xffffu, r_.op, true, 0);
        }
        break;
      case State::combine_wait:
        if (can_load) {
          next_phase(d);
          return make(Opcode::wait, 0, 0, 0, 1, (local_tag + tag) & 0xffffu, 0, false, 0);
        }
        break;
      case State::end:
        if (can_load) return end_of_program(d);
        break;
    }
    return {};
  }

  /// The phase's SEND (when a send stream fires; it waits for the output),
  /// then its receive, or the next phase.
  EngineLoad phase_send_step(Registers& d, bool can_load, std::uint32_t tag) const {
    const int e = firing(0);
    EngineLoad out;
    if (e >= 0) {
      if (!can_load) return {};
      const Stream& s = r_.streams[static_cast<std::size_t>(e)];
      out = make(Opcode::send, s.partner, s.off, s.dst, s.len, tag, 0, true,
                 r_.hint_adv ? r_.hint_rd1 : r_.hint_rd);
      d.hint_ptr = (r_.hint_ptr + 1) & (hint_entries - 1);
      d.hint_adv = true;
      fire(d, e);
    }
    if (firing(2) >= 0) d.state = State::phase_recv;
    else next_phase(d);
    return out;
  }


  void start(Registers& d) const {
    const std::uint32_t L = d.elements;
    const std::uint32_t h1 = d.single ? L : (L + 1) >> 1;  // spec: T1 gets the extra element
    d.half = {h1, L - h1};
    d.tree_base = {0, h1};
    d.quot = {0, 0};
    d.rem = {0, 0};
    d.div_bit = div_steps;
    d.hint_ptr = 0;
    d.state = State::divide;
  }

  // One restoring-division step for both trees: bit div_bit - 1 of H_t (the
  // top bit of half, which shifts left one bit per step).
  void divide_step(Registers& d) const {
    const std::uint32_t b = r_.div_bit - 1;
    for (std::size_t t = 0; t < 2; ++t) {
      const std::uint32_t rem = (r_.rem[t] << 1) | ((r_.half[t] >> (div_steps - 1)) & 1u);
      d.half[t] = (r_.half[t] << 1) & ((1u << div_steps) - 1);
      const bool ge = rem >= r_.blocks;
      d.rem[t] = ge ? rem - r_.blocks : rem;
      d.quot[t] = (r_.quot[t] << 1) | (ge ? 1u : 0u);
    }
    d.div_bit = b;
    if (b == 0) d.state = State::setup;
  }

  // Blocks of a stream of tree t: min(B, H_t) (blocks of 0 words are not sent).
  [[nodiscard]] std::uint32_t stream_blocks(std::uint32_t t) const { return r_.quot[t] != 0 ? r_.blocks : r_.rem[t]; }
  // Words of block k of tree t (tree_pipeline.hpp block_ranges).
  [[nodiscard]] std::uint32_t block_len(std::uint32_t t, std::uint32_t k) const {
    return r_.quot[t] + (k < r_.rem[t] ? 1u : 0u);
  }
  [[nodiscard]] std::uint32_t slot_offset(std::uint32_t slot) const {
    return r_.slot_base[((r_.reduce_index & 1u) << 1) | (slot & 1u)];
  }

  // A cycle ahead of the load: load cycles 0-3 read entries 4s + 0..3, every
  // other cycle of a run STAGE s + 1 (the setup: STAGE 0), the first word of
  // the next stage's load; the word read in cycle c is in table_rd in cycle
  // c + 1 and in table_w in cycle c + 2.
  [[nodiscard]] std::uint32_t table_read_address() const {
    if (r_.state == State::stage_load && r_.ld < 4) return 4 * (r_.stage & 3u) + r_.ld;
    return table_stage0 + (r_.state == State::setup ? 0u : (r_.stage + 1) & 3u);
  }

  void load_stage(Registers& d) const {
    const std::uint32_t w = r_.table_w;
    if (r_.ld == 1) {
      d.broadcast = w & 1u;
      d.reduce_index = (w >> 1) & 1u;
      d.base_phase = w >> 16;
    } else if (r_.ld >= 2) {
      const std::uint32_t e = r_.ld - 2;
      Stream& st = d.streams[e];
      st.tree = (w >> 1) & 1u;  // (cleared in single-tree mode)
      st.slot = (w >> 2) & 1u;
      st.partner = w >> 16;
      st.next = 2 * ((w >> 3) & 0x3ffu) + (e & 1u);  // color = e mod 2
      st.k = 0;
      st.off = r_.tree_base[st.tree];
      st.len = r_.t_len0[st.tree];
      st.active = (w & 1u) && r_.t_any[st.tree];
      st.last = r_.t_last0[st.tree];
      // a broadcast sends to the block's offset: dst follows off
      st.dst = r_.broadcast ? st.off : r_.dst_base[2 * (((r_.reduce_index & 1u) << 1) | (st.slot & 1u)) + st.tree];
    }
    // every stream's match against the phase the stage starts with (q = 0)
    for (Stream& s : d.streams) s.match = s.next == 0;
    if (r_.ld + 1 < load_cycles) {
      d.ld = r_.ld + 1;
      return;
    }
    bool any = false;
    for (const Stream& s : d.streams) any = any || s.active;
    d.q = 0;
    d.tag = r_.base_phase;
    d.q1 = 1;
    if (any) {
      d.state = State::phase_send;
    } else {
      advance_stage(d);
    }
  }

  void advance_stage(Registers& d) const {
    d.stage = r_.stage + 1;
    d.ld = 0;
    d.state = r_.stage + 1 == r_.stages ? State::end : State::stage_load;
  }

  // The stream among {first, first+1} whose next block leaves in phase q.
  [[nodiscard]] int firing(int first) const {
    for (int e = first; e < first + 2; ++e) {
      const Stream& s = r_.streams[static_cast<std::size_t>(e)];
      if (s.active && s.match) return e;
    }
    return -1;
  }

  void fire(Registers& d, int e) const {
    const Stream& s = r_.streams[static_cast<std::size_t>(e)];
    Stream& n = d.streams[static_cast<std::size_t>(e)];
    n.off = s.off + s.len;
    n.k = s.k + 1;
    // block k + 1: one more word when k + 1 < H_t mod B; the last when
    // k + 2 >= min(B, H_t) (the stream's compares of the previous cycle)
    n.len = s.long1 ? r_.t_quot1[s.tree] : r_.quot[s.tree];
    n.next = s.next + 2;
    n.active = !s.last;
    n.last = s.last1;
    n.dst = (s.dst + s.len) & 0xfffffu;
    n.match = false;  // next + 2 is neither q nor q + 1
  }

  // Next phase, or next stage once every stream of this one is done (the
  // streams' updates of this cycle are already in d).
  void next_phase(Registers& d) const {
    bool any = false;
    for (const Stream& s : d.streams) any = any || s.active;
    d.q = r_.q + 1;
    d.tag = (r_.tag + 1) & 0xffffu;
    d.q1 = (r_.q1 + 1) & 0xffffu;
    // a stream that did not fire in this phase matches the next one at q + 1
    for (std::size_t i = 0; i < d.streams.size(); ++i)
      if (d.streams[i].next == r_.streams[i].next)
        d.streams[i].match = r_.streams[i].next == r_.q1;
    if (any) d.state = State::phase_send;
    else advance_stage(d);
  }

  [[nodiscard]] EngineLoad make(Opcode opcode, std::uint32_t dest, std::uint32_t src, std::uint32_t dst,
                                std::uint32_t length, std::uint32_t tag, std::uint32_t op, bool typed,
                                std::uint32_t hint) const {
    return load(descriptor_word(opcode, dest, src, dst, length, tag, op, typed && r_.float64, hint));
  }

  friend class ScheduleEngine<TwotreeScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
  std::array<std::uint32_t, table_entries> table_{};  // procedure table RAM
  std::array<std::uint8_t, hint_entries> hints_{};    // spine hint RAM
  bool hint_written_ = false;                         // this cycle's write is HINT_DATA (a wire)
};

/// One procedure-table entry as the engine reads it.
struct TwotreeEngineEntry {
  bool valid = false;
  std::uint32_t tree = 0;
  std::uint32_t slot = 0;
  std::uint32_t level = 0;
  std::uint32_t partner = 0;  // endpoint
  [[nodiscard]] std::uint32_t word() const {
    return (valid ? 1u : 0u) | (tree & 1u) << 1 | (slot & 1u) << 2 | (level & 0x3ffu) << 3 | (partner & 0xffffu) << 16;
  }
};

struct TwotreeEngineStage {
  bool broadcast = false;
  std::uint32_t reduce_index = 0;
  std::uint32_t base_phase = 0;
  std::array<TwotreeEngineEntry, 4> entries{};  // send c0, send c1, receive c0, receive c1
};

/// The configuration writes that load one rank and start it (CONTROL last).
inline std::vector<EngineWrite> twotree_engine_writes(bool float64, std::uint32_t receive_op, bool single_tree,
                                                             std::uint32_t self, std::uint32_t elements,
                                                             std::uint32_t blocks,
                                                             const std::vector<TwotreeEngineStage>& stages,
                                                             const std::vector<std::uint8_t>& hints) {
  namespace r = twotree_engine_reg;
  std::vector<EngineWrite> w{
      {r::mode, (float64 ? 1u : 0u) | (receive_op & 7u) << 1 | (single_tree ? 1u : 0u) << 4},
      {r::self, self},
      {r::elements, elements},
      {r::blocks, blocks},
      {r::stages, static_cast<std::uint32_t>(stages.size())}};
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const auto& st = stages[s];
    w.push_back({static_cast<std::uint8_t>(r::stage0 + s),
                 (st.broadcast ? 1u : 0u) | (st.reduce_index & 1u) << 1 | (st.base_phase & 0xffffu) << 16});
    for (std::size_t e = 0; e < 4; ++e)
      w.push_back({static_cast<std::uint8_t>(r::entry0 + 4 * s + e), st.entries[e].word()});
  }
  w.push_back({r::hint_addr, 0});
  for (std::uint8_t h : hints) w.push_back({r::hint_data, h});
  return then_start(std::move(w));
}

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_twotree_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                                        std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<TwotreeScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo, out_desc_hi, busy);
}

}  // namespace collnet::hls
