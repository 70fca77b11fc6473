// Verilator bench of the hd-allreduce schedule engine: rtl/schedule_engine_hd.sv
// (Verilated), the HLS class hls/schedule_engine_hd.hpp and the software
// reference programs (collectives/hd_allreduce.cpp build_hd_allreduce), side
// by side.
//
// For every endpoint of the boards 2x2x2x2, 4x1x1x1, 4x2x4x2, 4x4x4x4 (and
// small extra shapes), both variants, both dimension orders, every op and
// A = 1, 2, 4 (4x4x4x4: fewer combinations), both models are loaded with the
// same configuration writes and clocked with the same (sometimes randomly
// stalled) consumer; every cycle their outputs (out_valid, the 128-bit
// descriptor, busy) must be equal, and the stream of taken descriptors must
// equal the endpoint's reference program word for word. Also checks that the
// RTL assertion reports AGG_UNITS = 3.
//
//   collnet_schedule_engine_hd_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Vschedule_engine_hd.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "collectives/hd_allreduce.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_hd.hpp"
#include "topology/boards.hpp"

namespace {

using collnet::DescriptorWord;
namespace cc = collnet::collectives;
using collnet::topology::Boards;

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
  explicit EngineHarness(const char* trace_file) : rtl_(std::make_unique<Vschedule_engine_hd>(&context_)) {
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

  std::vector<DescriptorWord> run(const std::string& where, const std::vector<collnet::driver::EngineWrite>& writes,
                                  std::mt19937_64& rng, double stall_probability) {
    for (const auto& w : writes) cycle(where, {true, w.addr, w.data, false});
    std::vector<DescriptorWord> taken;
    std::bernoulli_distribution stall(stall_probability);
    for (std::uint64_t c = 0;; ++c) {
      if (c > 1'000'000) throw Mismatch(where + ": no END");
      collnet::hls::HdEngineInputs in;
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

  /// The RTL assertion is live: starting with AGG_UNITS = 3 must be reported.
  bool assertion_catches_bad_agg_units() {
    const auto errors_for = [&](std::uint32_t agg) {
      context_.errorLimit(1000);
      context_.errorCount(0);
      reset();
      for (const auto& w : collnet::hls::hd_engine_writes(false, false, 0, false, 8, 16, agg, {2, 1, 1, 1}, {0, 0, 0, 0})) {
        rtl_->cfg_we_i = 1;
        rtl_->cfg_addr_i = w.addr;
        rtl_->cfg_wdata_i = w.data;
        rtl_->out_ready_i = 1;
        rtl_->eval();
        clock_edge();
      }
      rtl_->cfg_we_i = 0;
      for (int c = 0; c < 60; ++c) {
        rtl_->eval();
        clock_edge();
      }
      const int errors = context_.errorCount();
      context_.errorCount(0);
      context_.errorLimit(1);
      reset();
      return errors;
    };
    return errors_for(2) == 0 && errors_for(3) > 0;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  collnet::hls::HdEngineOutputs cycle(const std::string& where, const collnet::hls::HdEngineInputs& in) {
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
  std::unique_ptr<Vschedule_engine_hd> rtl_;
  std::unique_ptr<VerilatedFstC> trace_;
  collnet::hls::HdScheduleEngine hls_;
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
  if (!harness.assertion_catches_bad_agg_units()) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report AGG_UNITS = 3\n");
    return 1;
  }
  std::printf("RTL assertion reports AGG_UNITS = 3: yes\n");
  struct Case {
    std::array<int, 4> shape;
    cc::HdOptions options;
  };
  std::vector<Case> cases;
  for (const auto& shape : std::vector<std::array<int, 4>>{{2, 2, 2, 2}, {4, 1, 1, 1}, {4, 2, 4, 2}, {1, 1, 1, 1},
                                                          {1, 2, 1, 4}})
    for (auto v : {cc::HdVariant::hierarchical, cc::HdVariant::conventional})
      for (const char* order : {"wxyz", "bandwidth"})
        for (auto op : {cc::HdOp::sum, cc::HdOp::product, cc::HdOp::max, cc::HdOp::min, cc::HdOp::average})
          for (int A : {1, 2, 4}) {
            cc::HdOptions o;
            o.variant = v;
            o.dim_order = order;
            o.op = op;
            o.dtype = (static_cast<int>(op) + A) % 2 ? collnet::DataType::float64 : collnet::DataType::int64;
            o.aggregation_units = A;
            int boards = 1;
            for (int n : shape) boards *= n;
            o.elements = static_cast<std::uint32_t>(A * boards * (A == 2 ? 3 : 1 + (A == 4)));
            cases.push_back({shape, o});
          }
  for (auto v : {cc::HdVariant::hierarchical, cc::HdVariant::conventional})
    for (const char* order : {"wxyz", "bandwidth"}) {
      cc::HdOptions o;
      o.variant = v;
      o.dim_order = order;
      o.op = cc::HdOp::average;
      o.aggregation_units = 4;
      o.elements = 4 * 256;
      cases.push_back({{4, 4, 4, 4}, o});
    }
  std::uint64_t endpoints = 0, descriptors = 0;
  int case_number = 0;
  try {
    for (const auto& c : cases) {
      ++case_number;
      const Boards boards(c.shape);
      const auto& o = c.options;
      const auto reference = cc::build_hd_allreduce(boards, o);
      // The case as scenario keys: the engine is loaded by the software
      // loader (driver/engine_loader.hpp), as the NIC loads it.
      static const char* const op_names[] = {"sum", "product", "max", "min", "average"};
      const collnet::Params params{{"dim_order", o.dim_order},
                                   {"op", op_names[static_cast<int>(o.op)]},
                                   {"dtype", o.dtype == collnet::DataType::float64 ? "float64" : "int64"},
                                   {"elements", std::to_string(o.elements)},
                                   {"aggregation_units", std::to_string(o.aggregation_units)}};
      const std::string algorithm =
          o.variant == cc::HdVariant::conventional ? "hd-allreduce-conventional" : "hd-allreduce";
      for (collnet::topology::EndpointId e = 0; e < boards.endpoint_count(); ++e) {
        const auto writes = collnet::driver::engine_writes(algorithm, boards, params, e);
        const std::string where = "case " + std::to_string(case_number) + " endpoint " + std::to_string(e);
        const auto taken = harness.run(where, writes, rng, case_number % 3 == 0 ? 0.3 : 0.0);
        const auto& ref = reference.programs[static_cast<std::size_t>(e)];
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
  std::printf("schedule_engine_hd: %zu cases, %llu endpoints, %llu descriptors equal (RTL = HLS every cycle = "
              "reference), %llu cycles, %.2f s\n",
              cases.size(), static_cast<unsigned long long>(endpoints), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
