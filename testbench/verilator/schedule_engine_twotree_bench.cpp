// Verilator bench of the two-tree schedule engine: rtl/schedule_engine_twotree.sv
// (Verilated), the HLS class hls/schedule_engine_twotree.hpp and the
// software reference programs (collectives/tree_pipeline.cpp, as the
// registered twotree-hier, twotree-flat and tree-single build them), side by
// side.
//
// For every endpoint of leafspine:p=6 and p=8 with several P, B, L and every
// collective, both models are loaded with the same configuration writes
// (tests/hls/twotree_engine_load.hpp) and clocked with the same randomly
// stalled consumer; every cycle their outputs (out_valid, the 128-bit
// descriptor, busy) must be equal, and the stream of taken descriptors must
// equal the endpoint's reference program word for word. Also checks that the
// RTL assertion reports BLOCKS = 0.
//
//   collnet_schedule_engine_twotree_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Vschedule_engine_twotree.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "hls/schedule_engine_twotree.hpp"
#include "tests/hls/twotree_engine_load.hpp"

namespace {

using collnet::DescriptorWord;
namespace cc = collnet::collectives;

struct Mismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string hex(const DescriptorWord& w) {
  char text[40];
  std::snprintf(text, sizeof text, "%016llx_%016llx", static_cast<unsigned long long>(w.hi),
                static_cast<unsigned long long>(w.lo));
  return text;
}

class EngineHarness {
 public:
  explicit EngineHarness(const char* trace_file) : rtl_(std::make_unique<Vschedule_engine_twotree>(&context_)) {
    if (trace_file != nullptr) {
      context_.traceEverOn(true);
      trace_ = std::make_unique<VerilatedFstC>();
      rtl_->trace(trace_.get(), 99);
      trace_->open(trace_file);
    }
    reset();
  }
  ~EngineHarness() {
    if (trace_) trace_->close();
    rtl_->final();
  }
  EngineHarness(const EngineHarness&) = delete;
  EngineHarness& operator=(const EngineHarness&) = delete;

  void reset() {
    rtl_->clk_i = 0;
    rtl_->rst_ni = 0;
    rtl_->cfg_we_i = 0;
    rtl_->eval();
    clock_edge();
    rtl_->rst_ni = 1;
    rtl_->eval();
    hls_.reset();
  }

  std::vector<DescriptorWord> run(const std::string& where, const std::vector<collnet::hls::TwotreeEngineWrite>& writes,
                                  std::mt19937_64& rng, double stall_probability) {
    for (const auto& w : writes) cycle(where, {true, w.addr, w.data, false});
    std::vector<DescriptorWord> taken;
    std::bernoulli_distribution stall(stall_probability);
    for (std::uint64_t c = 0;; ++c) {
      if (c > 1'000'000) throw Mismatch(where + ": no END");
      collnet::hls::TwotreeEngineInputs in;
      in.out_ready = !stall(rng);
      const auto out = cycle(where, in);
      if (out.out_valid && in.out_ready) {
        taken.push_back(out.out_desc);
        if (out.out_desc == DescriptorWord{}) break;  // END
      }
    }
    if (cycle(where, {}).busy) throw Mismatch(where + ": busy after END was taken");
    return taken;
  }

  /// The RTL assertion is live: starting with BLOCKS = 0 must be reported.
  bool assertion_catches_zero_blocks() {
    const auto errors_for = [&](std::uint32_t blocks) {
      context_.errorLimit(1000);
      context_.errorCount(0);
      reset();
      const auto write = [&](std::uint8_t addr, std::uint32_t data) {
        rtl_->cfg_we_i = 1;
        rtl_->cfg_addr_i = addr;
        rtl_->cfg_wdata_i = data;
        rtl_->out_ready_i = 1;
        rtl_->eval();
        clock_edge();
      };
      namespace reg = collnet::hls::twotree_engine_reg;
      write(reg::elements, 8);
      write(reg::blocks, blocks);
      write(reg::stages, 0);
      write(reg::control, 1);
      rtl_->cfg_we_i = 0;
      for (int c = 0; c < 40; ++c) {
        rtl_->eval();
        clock_edge();
      }
      const int errors = context_.errorCount();
      context_.errorCount(0);
      context_.errorLimit(1);
      reset();
      return errors;
    };
    return errors_for(3) == 0 && errors_for(0) > 0;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  collnet::hls::TwotreeEngineOutputs cycle(const std::string& where, const collnet::hls::TwotreeEngineInputs& in) {
    const auto hls = hls_.step(in);
    rtl_->cfg_we_i = in.cfg_we;
    rtl_->cfg_addr_i = in.cfg_addr;
    rtl_->cfg_wdata_i = in.cfg_wdata;
    rtl_->out_ready_i = in.out_ready;
    rtl_->eval();
    DescriptorWord rtl_word;
    rtl_word.lo = std::uint64_t{rtl_->out_desc_o[0]} | (std::uint64_t{rtl_->out_desc_o[1]} << 32);
    rtl_word.hi = std::uint64_t{rtl_->out_desc_o[2]} | (std::uint64_t{rtl_->out_desc_o[3]} << 32);
    if (rtl_->out_valid_o != hls.out_valid || rtl_->busy_o != hls.busy || (hls.out_valid && rtl_word != hls.out_desc))
      throw Mismatch(where + ": RTL and HLS differ at cycle " + std::to_string(cycles_) + " (RTL valid " +
                     std::to_string(rtl_->out_valid_o) + " busy " + std::to_string(rtl_->busy_o) + " " +
                     hex(rtl_word) + ", HLS valid " + std::to_string(hls.out_valid) + " busy " +
                     std::to_string(hls.busy) + " " + hex(hls.out_desc) + ")");
    clock_edge();
    ++cycles_;
    return hls;
  }

  void clock_edge() {
    if (trace_) trace_->dump(time_);
    context_.time(++time_);
    rtl_->clk_i = 1;
    rtl_->eval();
    if (trace_) trace_->dump(time_);
    context_.time(++time_);
    rtl_->clk_i = 0;
    rtl_->eval();
  }

  VerilatedContext context_;
  std::unique_ptr<Vschedule_engine_twotree> rtl_;
  std::unique_ptr<VerilatedFstC> trace_;
  collnet::hls::TwotreeScheduleEngine hls_;
  std::uint64_t time_ = 0;
  std::uint64_t cycles_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  const char* trace_file = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--trace" && i + 1 < argc) trace_file = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--seed N] [--trace FILE.fst]\n", argv[0]);
      return 2;
    }
  }
  Verilated::commandArgs(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(seed);
  EngineHarness harness(trace_file);
  std::printf("checking that the RTL assertion fires (the %%Error lines below are expected):\n");
  std::fflush(stdout);
  if (!harness.assertion_catches_zero_blocks()) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report BLOCKS = 0\n");
    return 1;
  }
  std::printf("RTL assertion reports BLOCKS = 0: yes\n");
  std::vector<collnet::testing::Case> cases;
  for (int p : {6, 8})
    for (int P : {2, 13, p == 6 ? 36 : 80})
      for (auto coll : {cc::Collective::reduce, cc::Collective::broadcast, cc::Collective::allreduce}) {
        cases.push_back({"twotree-hier", p, P, 15, 4, coll});
        cases.push_back({"twotree-hier", p, P, 23, 7, coll});
      }
  for (const char* algorithm : {"twotree-flat", "tree-single"})
    for (const char* placement : {"consecutive", "grouped"})
      cases.push_back({algorithm, 6, 32, 15, 4, cc::Collective::allreduce, placement});
  std::uint64_t endpoints = 0, descriptors = 0;
  int case_number = 0;
  try {
    for (const auto& c : cases) {
      ++case_number;
      const auto op = case_number % 2 ? collnet::ReceiveOp::sum : collnet::ReceiveOp::max;
      const auto dtype = case_number % 3 ? collnet::DataType::int64 : collnet::DataType::float64;
      const auto build = collnet::testing::build_twotree_case(c, op, dtype);
      for (std::size_t e = 0; e < build.writes.size(); ++e) {
        const std::string where = collnet::testing::describe(c) + " endpoint " + std::to_string(e);
        const auto taken = harness.run(where, build.writes[e], rng, case_number % 2 ? 0.0 : 0.3);
        const auto& ref = build.reference.programs[e];
        if (taken.size() != ref.size())
          throw Mismatch(where + ": " + std::to_string(taken.size()) + " descriptors, reference " +
                         std::to_string(ref.size()));
        for (std::size_t i = 0; i < ref.size(); ++i)
          if (taken[i] != ref[i].pack())
            throw Mismatch(where + " descriptor " + std::to_string(i) + ": " + hex(taken[i]) + ", reference " +
                           hex(ref[i].pack()));
        ++endpoints;
        descriptors += ref.size();
      }
    }
  } catch (const Mismatch& e) {
    std::fprintf(stderr, "MISMATCH: %s\n", e.what());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("schedule_engine_twotree: %zu cases, %llu endpoints, %llu descriptors equal (RTL = HLS every cycle = "
              "reference), %llu cycles, %.2f s\n",
              cases.size(), static_cast<unsigned long long>(endpoints), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
