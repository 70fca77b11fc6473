// A Verilator harness shared by the schedule engine benches: one Verilated
// RTL engine and its HLS class, clocked side by side with the same inputs;
// every cycle their outputs (out_valid, the 128-bit descriptor, busy) must
// be equal. `Model` is the Verilated class (the ports of
// rtl/schedule_engine_ports.svh), `Hls` the HLS class (the ports of
// hls/schedule_engine.hpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench/verilator/bench_main.hpp"

#include "collectives/descriptor.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine.hpp"

namespace collnet::bench {

inline std::string hex(const DescriptorWord& w) {
  char text[40];
  std::snprintf(text, sizeof text, "%016llx_%016llx", static_cast<unsigned long long>(w.hi),
                static_cast<unsigned long long>(w.lo));
  return text;
}

/// One register write of a configuration port: the benches load the engines
/// with the software loader's writes (driver/engine_loader.hpp), as the NIC does.
using CfgWrite = driver::EngineWrite;

/// `writes` (CONTROL last) with `extra` written just before CONTROL.
inline std::vector<CfgWrite> with_write_before_control(std::vector<CfgWrite> writes, const CfgWrite& extra) {
  writes.insert(writes.end() - 1, extra);
  return writes;
}

/// Compares a node's taken stream with its reference program.
template <typename Program>
void expect_program(const std::string& where, const std::vector<DescriptorWord>& taken, const Program& program) {
  if (taken.size() != program.size())
    throw Mismatch(where + ": " + std::to_string(taken.size()) + " descriptors, reference " +
                   std::to_string(program.size()));
  for (std::size_t i = 0; i < program.size(); ++i)
    if (taken[i] != program[i].pack())
      throw Mismatch(where + ": descriptor " + std::to_string(i) + " is " + hex(taken[i]) + ", reference " +
                     hex(program[i].pack()));
}

/// What an engine bench has checked: the endpoints run and the descriptors
/// they emitted (each equal in RTL, HLS and reference).
struct Tally {
  std::uint64_t endpoints = 0;
  std::uint64_t descriptors = 0;

  /// The bench's summary: "<engine>: RTL = HLS = reference on <cases>,
  /// E endpoints, D descriptors".
  [[nodiscard]] std::string summary(const std::string& engine, const std::string& cases) const {
    return engine + ": RTL = HLS = reference on " + cases + ", " + std::to_string(endpoints) + " endpoints, " +
           std::to_string(descriptors) + " descriptors";
  }
};

template <typename Model, typename Hls>
class EngineHarness {
  using Inputs = hls::EngineInputs;
  using Outputs = hls::EngineOutputs;

 public:
  explicit EngineHarness(const char* trace_file) : rtl_(trace_file) { reset(); }

  /// Loads one node with `writes` (CONTROL last), runs it to END with a
  /// consumer stalled with `stall_probability`; returns the descriptors taken.
  std::vector<DescriptorWord> run(const std::string& where, const std::vector<CfgWrite>& writes, std::mt19937_64& rng,
                                  double stall_probability) {
    for (const auto& w : writes) cycle(where, Inputs{true, w.addr, w.data, false});
    std::vector<DescriptorWord> taken;
    std::bernoulli_distribution stall(stall_probability);
    for (std::uint64_t c = 0;; ++c) {
      if (c > 4'000'000) throw Mismatch(where + ": no END after " + std::to_string(c) + " cycles");
      Inputs in;
      in.out_ready = !stall(rng);
      const Outputs out = cycle(where, in);
      if (out.out_valid && in.out_ready) {
        taken.push_back(out.out_desc);
        if (out.out_desc == DescriptorWord{}) break;  // END
      }
    }
    if (cycle(where, Inputs{}).busy) throw Mismatch(where + ": busy after END was taken");
    return taken;
  }

  /// run(), then the stream taken must be the node's reference `program`
  /// (expect_program); returns the number of descriptors.
  template <typename Program>
  std::size_t check(const std::string& where, const std::vector<CfgWrite>& writes, std::mt19937_64& rng,
                    double stall_probability, const Program& program) {
    const auto taken = run(where, writes, rng, stall_probability);
    expect_program(where, taken, program);
    return taken.size();
  }

  /// check() for every endpoint e of one case (one reference program each in
  /// `programs`): loaded with writes_of(e), its consumer stalled with
  /// probability stall_of(e); `label` names the case in a mismatch.
  template <typename Programs, typename WritesOf, typename StallOf>
  void check_endpoints(Tally& tally, const std::string& label, const Programs& programs, std::mt19937_64& rng,
                       WritesOf&& writes_of, StallOf&& stall_of) {
    for (std::size_t e = 0; e < programs.size(); ++e) {
      tally.descriptors += check(label + " endpoint " + std::to_string(e), writes_of(e), rng, stall_of(e), programs[e]);
      ++tally.endpoints;
    }
  }

  /// Runs `writes` on the RTL alone (the HLS class never sees them) for
  /// `cycles` cycles, counting assertion failures; resets the RTL afterwards.
  int rtl_assertion_errors(const std::vector<CfgWrite>& writes, int cycles) {
    const int errors = rtl_.assertion_errors([&] {
      reset();
      const auto rtl_cycle = [&](const Inputs& in) {
        drive(in);
        rtl_.clock_edge();
      };
      for (const auto& w : writes) rtl_cycle({true, w.addr, w.data, true});
      for (int c = 0; c < cycles; ++c) rtl_cycle({false, 0, 0, true});
    });
    reset();
    return errors;
  }

  /// An AssertionCheck of `legal` against `illegal` writes (each run for
  /// `cycles` cycles); `what` names the illegal input.
  AssertionCheck assertion_check(std::string what, const std::vector<CfgWrite>& legal,
                                 const std::vector<CfgWrite>& illegal, int cycles) {
    AssertionCheck check{std::move(what)};
    check.legal_errors = rtl_assertion_errors(legal, cycles);
    check.illegal_errors = rtl_assertion_errors(illegal, cycles);
    return check;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  void reset() {
    rtl_.reset([](Model& m) {
      m.cfg_we_i = 0;
      m.out_ready_i = 0;
    });
  }

  /// The RTL's inputs of this cycle, evaluated (the clock still low).
  void drive(const Inputs& in) {
    rtl_->cfg_we_i = in.cfg_we;
    rtl_->cfg_addr_i = in.cfg_addr;
    rtl_->cfg_wdata_i = in.cfg_wdata;
    rtl_->out_ready_i = in.out_ready;
    rtl_->eval();
  }

  Outputs cycle(const std::string& where, const Inputs& in) {
    const Outputs hls = hls_.step(in);
    drive(in);
    DescriptorWord rtl_word;
    rtl_word.lo = std::uint64_t{rtl_->out_desc_o[0]} | (std::uint64_t{rtl_->out_desc_o[1]} << 32);
    rtl_word.hi = std::uint64_t{rtl_->out_desc_o[2]} | (std::uint64_t{rtl_->out_desc_o[3]} << 32);
    if (rtl_->out_valid_o != hls.out_valid || rtl_->busy_o != hls.busy || (hls.out_valid && rtl_word != hls.out_desc))
      throw Mismatch(where + ": RTL and HLS differ at cycle " + std::to_string(cycles_) + " (RTL valid " +
                     std::to_string(rtl_->out_valid_o) + " busy " + std::to_string(rtl_->busy_o) + " " +
                     hex(rtl_word) + ", HLS valid " + std::to_string(hls.out_valid) + " busy " +
                     std::to_string(hls.busy) + " " + hex(hls.out_desc) + ")");
    rtl_.clock_edge();
    ++cycles_;
    return hls;
  }

  VerilatedRtl<Model> rtl_;
  Hls hls_;
  std::uint64_t cycles_ = 0;
};

}  // namespace collnet::bench
