// The programmable schedule engine: a descriptor sequencer that replays a
// program software has written into its descriptor memory, one descriptor
// per cycle, until END. It runs any collective's program (SEND, WAIT,
// BARRIER, END; the reference programs of collectives/, the imported MSCCL
// schedules): the engine a NIC uses for the collectives it has no dedicated
// engine for. The dedicated engines compute their stream from a few
// registers; this one stores it, so its cost is memory, not logic.
//
// Loading (driver/engine_catalog.cpp, programmable_engine_writes below):
// PROG_ADDR = 0, then per descriptor word PROG_DATA0..PROG_DATA3 (bits
// [31:0] .. [127:96]; the PROG_DATA3 write stores the word at PROG_ADDR,
// which then increments), the program's END last, then CONTROL = 1.
// Register map: programmable_engine_registers, from hls/engine_registers.yaml
// (docs/engine_registers.md and the package
// schedule_engine_programmable_regs_pkg are generated from it); ports and
// handshake: hls/schedule_engine.hpp.
// Contract: the program ends with END (the zero word) within the memory;
// the program counter wraps at program_entries. The loader refuses a
// longer program (key program_depth).
// Storage: program_entries x 128 bits of descriptor memory (one RAM, one
// write port for the configuration, one read port with a read register),
// 140 bits of registers.
//
// Timing: start (the CONTROL write, cycle 0) sets the program counter to 0
// and reads word 0 into the read register; the word is loaded into the
// output register in cycle 1 and offered from cycle 2, then one descriptor
// per cycle while the consumer is ready (initiation interval 1): each cycle
// that loads a word reads the next one. While the output waits the read
// register re-reads the same word (the memory is written only while idle).
// The memory is read only while the engine runs, and written only while it
// is idle (the configuration gate), so a read never meets a write.
//
// Register names (_q, with _d the next value) are those of
// rtl/schedule_engine_programmable.sv.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::hls {

class ProgrammableScheduleEngine : public ScheduleEngine<ProgrammableScheduleEngine> {
 public:
  enum class State : std::uint8_t { idle = 0, run = 1 };
  static constexpr std::uint32_t program_entries = programmable_engine_reg::program_entries;
  static constexpr std::uint32_t pc_mask = program_entries - 1;
  static_assert((program_entries & pc_mask) == 0, "the descriptor memory has a power-of-two depth");

  /// An idle cycle (no write, ready low) changes nothing: the engine's
  /// output buffer is full (it cannot load, the offered descriptor stays and
  /// the read register re-reads its word) or the engine is idle (it loads
  /// nothing, and with ready low the buffer keeps what it holds).
  /// (For the NIC's source, which skips such cycles.)
  [[nodiscard]] bool idle_step_is_no_op() const { return output_full() || r_.state == State::idle; }

 private:
  struct Registers {
    // configuration (config_registers)
    std::uint32_t prog_addr = 0;           // PROG_ADDR: write pointer
    std::array<std::uint32_t, 4> data{};  // PROG_DATA0..3 (0..2 staged for the PROG_DATA3 write)
    State state = State::idle;
    std::uint32_t pc = 0;  // the word in the read register
  };

  static constexpr const auto& map = programmable_engine_registers;
  static constexpr ConfigRegister<Registers> config_registers[] = {
      config_register(map, "PROG_ADDR", &Registers::prog_addr), config_register(map, "PROG_DATA", &Registers::data)};

  void start(Registers& d) const {
    d.state = State::run;
    d.pc = 0;
  }

  static constexpr std::string_view special_registers[] = {"PROG_DATA"};
  /// PROG_DATA3: the word {PROG_DATA3 (this write), PROG_DATA2..0} at
  /// PROG_ADDR, which then increments.
  void configure_special(Registers& d, std::uint8_t addr, std::uint32_t w) {
    if (addr != programmable_engine_reg::prog_data0 + 3) return;
    DescriptorWord word;
    word.lo = std::uint64_t{r_.data[0]} | (std::uint64_t{r_.data[1]} << 32);
    word.hi = std::uint64_t{r_.data[2]} | (std::uint64_t{w} << 32);
    memory_[r_.prog_addr & pc_mask] = word;
    d.prog_addr = (r_.prog_addr + 1u) & pc_mask;
  }

  EngineLoad next_state(Registers& d, bool can_load) {
    EngineLoad next;
    const bool running = r_.state == State::run;
    if (running && can_load) {
      // the program counter advances past END too (the RTL's read address
      // does not wait for the END check of the word)
      next = read_q_ == DescriptorWord{} ? end_of_program(d) : load(read_q_);
      d.pc = (r_.pc + 1u) & pc_mask;
    }
    // The memory's read port: the word at the next program counter, read
    // while the engine runs and in the start cycle (in the cycle of an END,
    // the word after it, unused).
    if (running || d.state == State::run) read_q_ = memory_[d.pc];
    return next;
  }

  friend class ScheduleEngine<ProgrammableScheduleEngine>;  // runs the hooks above, commits r_
  Registers r_;
  DescriptorWord read_q_;  // the read register of the memory: memory_[r_.pc] while running
  std::array<DescriptorWord, program_entries> memory_{};
};

/// The writes that load `program` (ending with END) and start the engine.
inline std::vector<EngineWrite> programmable_engine_writes(const std::vector<DescriptorWord>& program) {
  namespace R = programmable_engine_reg;
  std::vector<EngineWrite> w;
  w.reserve(program.size() * 4 + 2);
  w.push_back({R::prog_addr, 0});
  for (const DescriptorWord& word : program) {
    w.push_back({R::prog_data0, static_cast<std::uint32_t>(word.lo)});
    w.push_back({static_cast<std::uint8_t>(R::prog_data0 + 1), static_cast<std::uint32_t>(word.lo >> 32)});
    w.push_back({static_cast<std::uint8_t>(R::prog_data0 + 2), static_cast<std::uint32_t>(word.hi)});
    w.push_back({static_cast<std::uint8_t>(R::prog_data0 + 3), static_cast<std::uint32_t>(word.hi >> 32)});
  }
  return then_start(std::move(w));
}

/// Top function for an HLS tool: one call is one clock cycle.
inline void schedule_engine_programmable_top(bool cfg_we, std::uint8_t cfg_addr, std::uint32_t cfg_wdata,
                                             bool out_ready, bool& out_valid, std::uint64_t& out_desc_lo,
                                             std::uint64_t& out_desc_hi, bool& busy) {
  COLLNET_HLS(INTERFACE ap_ctrl_none port = return)
  engine_top_cycle<ProgrammableScheduleEngine>(cfg_we, cfg_addr, cfg_wdata, out_ready, out_valid, out_desc_lo,
                                               out_desc_hi, busy);
}

}  // namespace collnet::hls
