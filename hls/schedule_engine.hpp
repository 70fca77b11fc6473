// What every schedule engine shares (hls/schedule_engine_a2a.hpp, _a2at,
// _hopgroup, _hd, _twotree, _programmable): the port types, the skeleton that owns the
// configuration gate and decode, start, output buffer and reset, and the
// register map type of each engine's constexpr table (rendered with the
// engine's constants, its SystemVerilog package and docs/engine_registers.md
// from hls/engine_registers.yaml).
//
// Ports (the same in every engine and its RTL, rtl/schedule_engine_ports.svh):
//   cfg_we, cfg_addr [7:0], cfg_wdata [31:0]  configuration write port;
//                      write-only; a write is taken only while busy is 0
//   out_valid, out_desc, out_ready            descriptor output, valid/ready:
//                      out_valid is a register output and never depends on
//                      out_ready; an offered descriptor stays offered and
//                      unchanged until taken (hls/output_register.hpp)
//   busy               1 from start (CONTROL bit 0) until END has been taken
//
// The skeleton (ScheduleEngine, CRTP): each cycle it computes the outputs from
// the registers, copies every register (_d starts as its _q), decodes an
// accepted configuration write, lets the engine compute its next state
// (`next_state`, which returns the descriptor to load into the output
// buffer, if any, and may load only when `can_load`: the buffer is not
// full, a register; OutputBuffer in hls/output_register.hpp),
// then commits. The write decode is the engine's table
// `config_registers` (which register, run or bit field of the map sets which
// member of its `Registers`), CONTROL bit 0 calls the engine's `start`, and
// the writes that store more than bits (a table RAM behind a data register, a
// register kept decoded) go to the engine's `configure_special`. An engine
// writes only these over its own `Registers` (with a `state` whose `idle`
// value means not started).
// rtl/common/schedule_engine_skeleton.sv is the same skeleton in
// SystemVerilog (registers, output buffer, busy, gate).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/hls_pragma.hpp"
#include "hls/output_register.hpp"

namespace collnet::hls {

/// Inputs of one cycle.
struct EngineInputs {
  bool cfg_we = false;
  std::uint8_t cfg_addr = 0;
  std::uint32_t cfg_wdata = 0;
  bool out_ready = false;
};

/// Register outputs: they depend on no input of the same cycle.
struct EngineOutputs {
  bool out_valid = false;
  DescriptorWord out_desc;
  bool busy = false;
};

/// One write of the configuration port (cfg_we high for one cycle).
struct EngineWrite {
  std::uint8_t addr = 0;
  std::uint32_t data = 0;
};

/// What next_state loads into the output buffer this cycle.
struct EngineLoad {
  bool valid = false;
  DescriptorWord word;
};

/// CONTROL (bit 0: start) is at this address in every map (tests/rtl/engine_registers_test.cpp).
inline constexpr std::uint8_t engine_control_address = 0x0;

inline EngineLoad load(const DescriptorWord& word) { return {true, word}; }
inline EngineLoad load(const Descriptor& descriptor) { return {true, descriptor.pack()}; }

/// A descriptor word from its fields, each truncated to its width by
/// Descriptor::pack (as the RTL's assignments to the packed struct's members
/// truncate).
inline DescriptorWord descriptor_word(Opcode opcode, std::uint32_t dest, std::uint32_t src, std::uint32_t dst,
                                      std::uint32_t length, std::uint32_t tag, std::uint32_t op, bool float64,
                                      std::uint32_t hint) {
  Descriptor d = Descriptor::send(dest, src, dst, length, tag);
  d.opcode = opcode;
  d.op = static_cast<ReceiveOp>(op & descriptor_layout::op.max());
  d.dtype = float64 ? DataType::float64 : DataType::int64;
  d.route_hint = static_cast<std::uint8_t>(hint);
  return d.pack();
}

constexpr std::uint32_t mask(unsigned width) {
  return width >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << width) - 1;
}

/// n_d - 2, c_d - 1 and the flags of t = 0 (c_d = 0, n_d = 0, n_d = 1) of
/// one dimension: what the stride computation takes on entering it, kept
/// beside the dimension's SIZE and COORD registers (rtl/common/
/// schedule_engine_strides.sv: dim_size_m2_q, ...; they follow SIZE and COORD
/// a cycle later).
struct StridesEntry {
  std::uint32_t size_m2 = 0, coord_m1 = 0;
  bool coord_zero = false, size_zero = false, size_one = false;

  static StridesEntry of(std::uint32_t size, std::uint32_t coord, unsigned size_width, unsigned coord_width);
};

/// The current dimension of the stride computation the a2a and hopgroup
/// engines share (rtl/common/schedule_engine_strides.sv): n_d and c_d, with
/// n_d - 2 and c_d - 1 beside them, and the flags of the counter t (t = c_d,
/// t = n_d, t + 1 = n_d), each set a step ahead so that no adder or compare
/// precedes the enables they drive.
struct StridesDim {
  std::uint32_t size_cur = 0, coord_cur = 0;
  std::uint32_t size_m2 = 0, coord_m1 = 0;  // n_d - 2 and c_d - 1
  bool at_coord = false, at_size = false, at_last = false;

  /// Entering a dimension of size `size` at coordinate `coord`, with its
  /// values of t = 0 `e` (registers): t = 0.
  static StridesDim enter(std::uint32_t size, std::uint32_t coord, const StridesEntry& e, unsigned size_width,
                          unsigned coord_width) {
    StridesDim s;
    s.size_cur = size & mask(size_width);
    s.coord_cur = coord & mask(coord_width);
    s.at_coord = e.coord_zero;
    s.at_size = e.size_zero;
    s.at_last = e.size_one;
    s.size_m2 = e.size_m2;
    s.coord_m1 = e.coord_m1;
    return s;
  }

  /// Entering a dimension of size `size` at coordinate `coord`: t = 0.
  static StridesDim enter(std::uint32_t size, std::uint32_t coord, unsigned size_width, unsigned coord_width) {
    return enter(size, coord, StridesEntry::of(size, coord, size_width, coord_width), size_width, coord_width);
  }

  /// The flags of t + 1, from the registers `r` of t (this = the next registers).
  void step(const StridesDim& r, std::uint32_t t) {
    at_coord = t == r.coord_m1;  // t + 1 = c_d
    at_size = r.at_last;
    at_last = t == r.size_m2;  // t + 2 = n_d
  }
};

inline StridesEntry StridesEntry::of(std::uint32_t size, std::uint32_t coord, unsigned size_width,
                                     unsigned coord_width) {
  const std::uint32_t n = size & mask(size_width), c = coord & mask(coord_width);
  return {(n - 2) & mask(size_width), (c - 1) & mask(size_width), c == 0, n == 0, n == 1};
}

/// The skeleton of a schedule engine. `Engine` derives from it, befriends
/// it and defines `State` (with `idle` = not started), `struct Registers`
/// (with `State state`), the registers `Registers r_`, its register `map`,
/// the write decode `config_registers` (an array of ConfigRegister<Registers>,
/// below), `void start(Registers& d)` (CONTROL bit 0), `EngineLoad
/// next_state(Registers& d, bool can_load)` and, where a write stores more
/// than bits (table RAMs behind data registers, a register kept decoded),
/// `special_registers` (their names) and `void configure_special(Registers& d,
/// std::uint8_t addr, std::uint32_t data)`; all read `r_` and write only `d`
/// (and the engine's tables). Every register of the map must be decoded
/// (a static_assert).
template <typename Engine>
class ScheduleEngine {
 public:
  static constexpr unsigned addr_width = descriptor_layout::src_offset.width;  // word addresses (20)
  static constexpr unsigned id_width = descriptor_layout::dest.width;          // endpoint ids (16)
  static constexpr unsigned tag_width = descriptor_layout::tag.width;          // tags (16)

  /// The outputs of this cycle (registers only).
  [[nodiscard]] EngineOutputs outputs() const {
    return {out_.valid(), out_.value(), engine().r_.state != Engine::State::idle || out_.valid()};
  }

  /// One clock cycle: returns this cycle's outputs, then commits.
  EngineOutputs step(const EngineInputs& in) {
    COLLNET_HLS(INLINE)
    Engine& e = engine();
    const EngineOutputs out = outputs();
    typename Engine::Registers d = e.r_;  // every _d starts as its _q
    if (in.cfg_we && !out.busy) decode_write(d, in.cfg_addr, in.cfg_wdata);
    const EngineLoad next = e.next_state(d, out_.can_load());
    out_.clock(next.valid, next.word, in.out_ready);
    e.r_ = d;
    return out;
  }

  /// Reset: the registers and the output buffer (tables keep their contents).
  void reset() {
    engine().r_ = typename Engine::Registers{};
    out_.reset();
  }

  [[nodiscard]] auto state_q() const { return engine().r_.state; }

  /// One cycle with idle inputs (no write, ready low) of a busy engine: true
  /// when it left the registers and the output buffer as they were. For an
  /// engine whose cycles without a configuration write change its tables only
  /// together with its registers (`Engine::tables_follow_registers`), every
  /// further idle cycle then changes nothing either, and the tables, the
  /// large part of its state, need not be compared (driver/engine_block.hpp).
  bool step_idle_registers() {
    static_assert(std::is_trivially_copyable_v<typename Engine::Registers> &&
                  std::is_trivially_copyable_v<OutputBuffer<DescriptorWord>>);
    Engine& e = engine();
    std::array<unsigned char, sizeof(typename Engine::Registers)> r{};
    std::array<unsigned char, sizeof(OutputBuffer<DescriptorWord>)> o{};
    std::memcpy(r.data(), static_cast<const void*>(&e.r_), r.size());
    std::memcpy(o.data(), static_cast<const void*>(&out_), o.size());
    step(EngineInputs{});
    return std::memcmp(r.data(), static_cast<const void*>(&e.r_), r.size()) == 0 &&
           std::memcmp(o.data(), static_cast<const void*>(&out_), o.size()) == 0;
  }

  /// The output buffer is full (a descriptor waits behind the one offered):
  /// the engine cannot load.
  [[nodiscard]] bool output_full() const { return !out_.can_load(); }

 protected:
  /// The END descriptor (the zero word); the engine is idle after it.
  template <typename Registers>
  static EngineLoad end_of_program(Registers& d) {
    d.state = Engine::State::idle;
    return load(Descriptor::end());
  }

 private:
  Engine& engine() { return static_cast<Engine&>(*this); }
  const Engine& engine() const { return static_cast<const Engine&>(*this); }

  /// The write decode: CONTROL, then the engine's table of registers (a
  /// fixed loop over a constant table: one comparator and one enable per
  /// entry), then its special writes.
  template <typename Registers>
  void decode_write(Registers& d, std::uint8_t addr, std::uint32_t data) {
    static_assert(decodes_every_register(), "a register of the engine's map is neither in config_registers nor in "
                                            "special_registers");
    Engine& e = engine();
    if (addr == engine_control_address) {
      if (data & 1u) e.start(d);
      return;
    }
    for (const auto& r : Engine::config_registers) {
      COLLNET_HLS(UNROLL)
      if (addr >= r.address && addr < r.address + r.count) {
        const std::uint32_t value = (data >> r.lsb) & r.mask;
        if (r.run != nullptr) (d.*r.run)[addr - r.address] = value;
        else d.*r.word = value;
      }
    }
    if constexpr (requires { e.configure_special(d, addr, data); }) e.configure_special(d, addr, data);
  }

  /// Every address of the engine's `map` is decoded: CONTROL, an entry of
  /// config_registers, or a register named in `special_registers` (the
  /// writes configure_special takes).
  static constexpr bool decodes_every_register() {
    for (const auto& r : Engine::map.registers) {
      bool special = false;
      if constexpr (requires { Engine::special_registers; })
        for (std::string_view name : Engine::special_registers) special = special || name == r.name;
      for (unsigned a = r.address; a < r.address + r.count; ++a) {
        bool decoded = special || a == engine_control_address;
        for (const auto& c : Engine::config_registers) decoded = decoded || (a >= c.address && a < c.address + c.count);
        if (!decoded) return false;
      }
    }
    return true;
  }

  OutputBuffer<DescriptorWord> out_;
};

/// `writes`, then CONTROL = 1: every engine is loaded this way (start last).
inline std::vector<EngineWrite> then_start(std::vector<EngineWrite> writes) {
  writes.push_back({engine_control_address, 1});
  return writes;
}

/// The writes that load an engine whose map has the runs SIZE0..3 and
/// COORD0..3: `registers`, the sizes, the coordinates, `more`, then CONTROL
/// = 1 (start, last).
inline std::vector<EngineWrite> grid_engine_writes(std::initializer_list<EngineWrite> registers, std::uint8_t size0,
                                                   const std::array<std::uint32_t, 4>& sizes, std::uint8_t coord0,
                                                   const std::array<std::uint32_t, 4>& coord,
                                                   std::initializer_list<EngineWrite> more = {}) {
  std::vector<EngineWrite> w(registers);
  for (std::uint8_t d = 0; d < 4; ++d) w.push_back({static_cast<std::uint8_t>(size0 + d), sizes[d]});
  for (std::uint8_t d = 0; d < 4; ++d) w.push_back({static_cast<std::uint8_t>(coord0 + d), coord[d]});
  w.insert(w.end(), more);
  return then_start(std::move(w));
}

/// One cycle of engine class `Engine` (one instance per class) with the flat
/// ports of an engine's top function for an HLS tool
/// (schedule_engine_<name>_top).
template <typename Engine>
void engine_top_cycle(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata, bool out_ready, bool& out_valid,
                      std::uint64_t& out_desc_lo, std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INLINE)
  COLLNET_HLS(PIPELINE II = 1)
  static Engine engine;
  const EngineOutputs out = engine.step({cfg_we, cfg_addr, cfg_wdata, out_ready});
  out_valid = out.out_valid;
  out_desc_lo = out.out_desc.lo;
  out_desc_hi = out.out_desc.hi;
  busy = out.busy;
}


/// One entry of an engine's register map: a register, or `count` registers
/// at consecutive addresses (NAME0, NAME1, ...).
struct EngineRegister {
  std::string_view name;   // upper case, as documented: "GROUP_BARRIERS"
  std::uint8_t address;
  std::uint8_t count;      // 1, or the registers name0 .. name{count-1}
  std::uint8_t width;      // bits [width-1:0] of the write are used
  std::string_view meaning;
};

/// An engine's register map: the module it configures and its registers.
template <std::size_t N>
struct EngineRegisterMap {
  std::string_view block;  // "schedule_engine_a2a"
  EngineRegister registers[N];

  /// The register named `name` (a name missing from the map does not compile
  /// where the result is a constant).
  [[nodiscard]] constexpr const EngineRegister& operator[](std::string_view name) const {
    for (const EngineRegister& r : registers)
      if (r.name == name) return r;
    throw "no such register";  // not a constant expression: a compile error
  }
  [[nodiscard]] constexpr std::uint8_t address(std::string_view name) const { return (*this)[name].address; }
  /// The bits of a write that register `name` keeps.
  [[nodiscard]] constexpr std::uint32_t field(std::string_view name, std::uint32_t data) const {
    return data & mask((*this)[name].width);
  }
  [[nodiscard]] static constexpr std::size_t size() { return N; }
};

template <std::size_t N>
EngineRegisterMap(std::string_view, const EngineRegister (&)[N]) -> EngineRegisterMap<N>;

/// One entry of an engine's write decode: the register (or run of `count`
/// registers) of its map at `address`, and the member of the engine's
/// Registers it sets: bits [lsb + width - 1 : lsb] of the write go to `word`,
/// or to `run[addr - address]` for a run.
template <typename Registers>
struct ConfigRegister {
  std::uint8_t address = 0;
  std::uint8_t count = 1;
  unsigned lsb = 0;
  std::uint32_t mask = 0;
  std::uint32_t Registers::*word = nullptr;
  std::array<std::uint32_t, 4> Registers::*run = nullptr;
};

/// Register `name` of `map` (its width) into `member`.
template <typename Registers, std::size_t N>
constexpr ConfigRegister<Registers> config_register(const EngineRegisterMap<N>& map, std::string_view name,
                                                    std::uint32_t Registers::*member) {
  const EngineRegister& r = map[name];
  return {r.address, 1, 0, mask(r.width), member, nullptr};
}

/// The run `name` of four registers of `map` into the elements of `member`.
template <typename Registers, std::size_t N>
constexpr ConfigRegister<Registers> config_register(const EngineRegisterMap<N>& map, std::string_view name,
                                                    std::array<std::uint32_t, 4> Registers::*member) {
  const EngineRegister& r = map[name];
  if (r.count > 4) throw "a run of more than four registers";  // not a constant expression: a compile error
  return {r.address, r.count, 0, mask(r.width), nullptr, member};
}

/// Bits [lsb + width - 1 : lsb] of register `name` of `map` into `member`
/// (a register that holds several fields).
template <typename Registers, std::size_t N>
constexpr ConfigRegister<Registers> config_field(const EngineRegisterMap<N>& map, std::string_view name,
                                                 unsigned lsb, unsigned width, std::uint32_t Registers::*member) {
  return {map[name].address, 1, lsb, mask(width), member, nullptr};
}

}  // namespace collnet::hls
