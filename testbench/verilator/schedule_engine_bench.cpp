// Verilator bench of the a2a schedule engine: rtl/schedule_engine_a2a.sv
// (Verilated), the HLS class hls/schedule_engine_a2a.hpp and the software
// reference programs (collectives/a2a_baselines.cpp), side by side.
//
// For every node of every size below, both models are loaded through their
// register port with the same writes and clocked with the same consumer
// (always ready, or randomly stalled); every cycle their outputs (out_valid,
// the 128-bit descriptor, busy) must be equal, and the stream of taken
// descriptors must equal the node's reference program word for word.
// Sizes: every 2-D size up to 8x8, every 3-D size up to 4x4x4, 1-D rings and
// 4-D boards up to 4x4x4x4; nct 1..4.
//
//   collnet_schedule_engine_bench [--seed N] [--trace FILE.fst]
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

#include <Vschedule_engine_a2a.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_a2a.hpp"
#include "topology/grid.hpp"

namespace {

using collnet::DescriptorWord;

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
  explicit EngineHarness(const char* trace_file) : rtl_(std::make_unique<Vschedule_engine_a2a>(&context_)) {
    if (trace_file != nullptr) {
      context_.traceEverOn(true);
      trace_ = std::make_unique<VerilatedFstC>();
      rtl_->trace(trace_.get(), 99);
      trace_->open(trace_file);
    }
    rtl_->clk_i = 0;
    rtl_->rst_ni = 0;
    rtl_->eval();
    clock_edge();
    clock_edge();
    rtl_->rst_ni = 1;
    rtl_->eval();
  }
  ~EngineHarness() {
    if (trace_) trace_->close();
    rtl_->final();
  }
  EngineHarness(const EngineHarness&) = delete;
  EngineHarness& operator=(const EngineHarness&) = delete;

  /// Loads one node, runs it to END; returns the descriptors taken.
  std::vector<DescriptorWord> run(const std::string& where, const std::vector<collnet::driver::EngineWrite>& writes,
                                  std::mt19937_64& rng, double stall_probability) {
    for (const auto& w : writes) cycle(where, {true, w.addr, w.data, false});
    std::vector<DescriptorWord> taken;
    std::bernoulli_distribution stall(stall_probability);
    for (std::uint64_t c = 0;; ++c) {
      if (c > 4'000'000) throw Mismatch(where + ": no END after " + std::to_string(c) + " cycles");
      collnet::hls::A2aEngineInputs in;
      in.out_ready = !stall(rng);
      const auto out = cycle(where, in);
      if (out.out_valid && in.out_ready) {
        taken.push_back(out.out_desc);
        if (out.out_desc == DescriptorWord{}) break;  // END
      }
    }
    // one idle cycle: busy must have dropped
    if (cycle(where, {}).busy) throw Mismatch(where + ": busy after END was taken");
    return taken;
  }

  /// The RTL assertions are live: starting with NCT = 0 (outside the
  /// register map's 1..4) must be reported, a legal start must not. (Runs in
  /// the harness's own context: Verilator keeps one context per thread.)
  bool assertion_catches_bad_nct() {
    const auto errors_after_start = [&](std::uint32_t nct) {
      context_.errorLimit(1000);  // count assertion failures instead of stopping
      context_.errorCount(0);
      rtl_->rst_ni = 0;
      rtl_->cfg_we_i = 0;
      rtl_->eval();
      clock_edge();
      rtl_->rst_ni = 1;
      const auto cycle = [&](bool we, std::uint8_t addr, std::uint32_t data) {
        rtl_->cfg_we_i = we;
        rtl_->cfg_addr_i = addr;
        rtl_->cfg_wdata_i = data;
        rtl_->out_ready_i = 1;
        rtl_->eval();
        clock_edge();
      };
      for (const auto& w : collnet::hls::a2a_engine_writes(0, nct, 1, {2, 2, 1, 1}, {0, 1, 0, 0}))
        cycle(true, w.addr, w.data);
      for (int c = 0; c < 40; ++c) cycle(false, 0, 0);
      const int errors = context_.errorCount();
      // back to a clean, reset engine (the HLS class never saw this run)
      context_.errorCount(0);
      context_.errorLimit(1);
      rtl_->rst_ni = 0;
      rtl_->cfg_we_i = 0;
      rtl_->eval();
      clock_edge();
      rtl_->rst_ni = 1;
      rtl_->eval();
      return errors;
    };
    const int legal = errors_after_start(2);
    const int illegal = errors_after_start(0);
    return legal == 0 && illegal > 0;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  collnet::hls::A2aEngineOutputs cycle(const std::string& where, const collnet::hls::A2aEngineInputs& in) {
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
  std::unique_ptr<Vschedule_engine_a2a> rtl_;
  std::unique_ptr<VerilatedFstC> trace_;
  collnet::hls::A2aScheduleEngine hls_;
  std::uint64_t time_ = 0;
  std::uint64_t cycles_ = 0;
};

std::vector<std::string> topologies() {
  std::vector<std::string> list;
  for (int n = 1; n <= 9; ++n) list.push_back("torus:" + std::to_string(n));
  for (int x = 1; x <= 8; ++x)
    for (int y = 1; y <= 8; ++y) list.push_back("torus:" + std::to_string(x) + "x" + std::to_string(y));
  for (int x = 1; x <= 4; ++x)
    for (int y = 1; y <= 4; ++y)
      for (int z = 1; z <= 4; ++z)
        list.push_back("torus:" + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z));
  for (const char* t : {"mesh:4x4", "mesh:3x5x2", "torus:2x2x2x2", "torus:4x2x3x2", "torus:4x4x4x4"})
    list.push_back(t);
  return list;
}

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
  std::uint64_t nodes = 0, descriptors = 0;
  int case_number = 0;
  std::printf("checking that the RTL assertions fire (the %%Error lines below are expected):\n");
  std::fflush(stdout);
  if (!harness.assertion_catches_bad_nct()) {
    std::fprintf(stderr, "MISMATCH: the RTL assertion did not report NCT = 0\n");
    return 1;
  }
  std::printf("RTL assertion reports NCT = 0: yes\n");
  try {
    for (const char* algorithm : {"a2a-spread", "a2a-nd"}) {
      std::uint64_t algorithm_nodes = 0;
      for (const std::string& topology : topologies()) {
        ++case_number;
        const int nct = 1 + case_number % 4;
        const std::uint32_t m = 1 + static_cast<std::uint32_t>(case_number % 7);
        const auto topo = collnet::topology::make_topology(topology);
        const auto& grid = dynamic_cast<const collnet::topology::Grid&>(*topo);
        const collnet::Params params{{"nct", std::to_string(nct)}, {"message_flits", std::to_string(m)}};
        const auto schedule = collnet::collectives::find_algorithm(algorithm).build(*topo, params);
        for (std::int32_t node = 0; node < grid.endpoint_count(); ++node) {
          const std::string where = std::string(algorithm) + " on " + topology + " nct " + std::to_string(nct) +
                                    " node " + std::to_string(node);
          // loaded by the software loader, as the NIC loads it
          const auto taken = harness.run(where, collnet::driver::engine_writes(algorithm, grid, params, node), rng,
                                         node % 2 ? 0.4 : 0.0);
          const auto& program = schedule.programs[static_cast<std::size_t>(node)];
          if (taken.size() != program.size())
            throw Mismatch(where + ": " + std::to_string(taken.size()) + " descriptors, reference " +
                           std::to_string(program.size()));
          for (std::size_t i = 0; i < program.size(); ++i)
            if (taken[i] != program[i].pack())
              throw Mismatch(where + ": descriptor " + std::to_string(i) + " is " + hex(taken[i]) + ", reference " +
                             hex(program[i].pack()));
          descriptors += taken.size();
          ++algorithm_nodes;
        }
      }
      nodes += algorithm_nodes;
      std::printf("%s: RTL = HLS = reference for %llu nodes on %zu sizes\n", algorithm,
                  static_cast<unsigned long long>(algorithm_nodes), topologies().size());
    }
  } catch (const Mismatch& e) {
    std::fprintf(stderr, "MISMATCH: %s\n", e.what());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("schedule engine a2a: RTL = HLS = reference on %llu node programs, %llu descriptors, %llu cycles "
              "(%.1f s)\n",
              static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(descriptors),
              static_cast<unsigned long long>(harness.cycles()), seconds);
  return 0;
}
