// What every Verilator bench does around its own checks: the command line
// (--seed N, --trace FILE.fst and the bench's own options, CLI11), the model
// with its waveform, the check that the RTL assertions fire (the `%Error`
// lines it provokes are expected), the first mismatch reported with exit
// status 1, and the summary line with the cycles run and the time taken.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>

namespace CLI {
class App;
}  // namespace CLI

namespace collnet::bench {

/// A difference between the RTL, the HLS class and the reference: the bench
/// stops at the first and prints it.
struct Mismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Whether a block with a valid/ready handshake on both sides gives the same
/// outputs in RTL (ports in_ready_o, out_valid_o) as its HLS class (in_ready,
/// out_valid) in one cycle, and while out_valid the same payload
/// (`same_payload()`).
template <typename Model, typename Outputs, typename SamePayload>
bool same_handshake(const Model& rtl, const Outputs& hls, SamePayload&& same_payload) {
  return rtl.in_ready_o == hls.in_ready && rtl.out_valid_o == hls.out_valid && (!hls.out_valid || same_payload());
}

/// A Verilated model in its own context, clocked by the bench through clk_i,
/// with an optional FST waveform of the whole run.
template <typename Model>
class VerilatedRtl {
 public:
  explicit VerilatedRtl(const char* trace_file) : model_(std::make_unique<Model>(&context_)) {
    if (trace_file != nullptr) {
      context_.traceEverOn(true);
      trace_ = std::make_unique<VerilatedFstC>();
      model_->trace(trace_.get(), 99);
      trace_->open(trace_file);
    }
  }
  ~VerilatedRtl() {
    if (trace_) trace_->close();
    model_->final();
  }
  VerilatedRtl(const VerilatedRtl&) = delete;
  VerilatedRtl& operator=(const VerilatedRtl&) = delete;

  Model* operator->() { return model_.get(); }
  const Model* operator->() const { return model_.get(); }
  const Model& operator*() const { return *model_; }

  /// A rising and a falling edge of clk_i (both in the waveform).
  void clock_edge() {
    if (trace_) trace_->dump(time_);
    context_.time(++time_);
    model_->clk_i = 1;
    model_->eval();
    if (trace_) trace_->dump(time_);
    context_.time(++time_);
    model_->clk_i = 0;
    model_->eval();
  }

  /// Synchronous reset: clk_i and rst_ni low with the inputs `idle` sets on
  /// the model, `edges` clock edges, then rst_ni high.
  template <typename Idle>
  void reset(Idle&& idle, int edges = 2) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    idle(*model_);
    model_->eval();
    for (int e = 0; e < edges; ++e) clock_edge();
    model_->rst_ni = 1;
    model_->eval();
  }

  /// Runs `body` counting the RTL assertion failures instead of stopping at
  /// the first; afterwards a failure stops the bench again.
  template <typename Body>
  int assertion_errors(Body&& body) {
    context_.errorLimit(1000);
    context_.errorCount(0);
    body();
    const int errors = context_.errorCount();
    context_.errorCount(0);
    context_.errorLimit(1);
    return errors;
  }

 private:
  VerilatedContext context_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::uint64_t time_ = 0;
};

/// The benches' command line: [--seed N] [--trace FILE.fst] and their own.
struct BenchOptions {
  std::uint64_t seed = 1;
  std::string trace_file;

  [[nodiscard]] const char* trace() const { return trace_file.empty() ? nullptr : trace_file.c_str(); }
};

/// Adds a bench's own options to the command line.
using AddOptions = std::function<void(CLI::App&)>;

/// Parses argv; returns the exit status when the bench must not run (0 after
/// --help, 2 on a bad command line, with the usage printed).
std::optional<int> parse_bench_options(int argc, char** argv, BenchOptions& options,
                                       const AddOptions& add_options = {});

/// A bench's check that the RTL assertions are live: the failures counted on
/// a legal input (there must be none) and on an illegal one (there must be
/// some), which `illegal` names.
struct AssertionCheck {
  std::string illegal;
  int legal_errors = 0;
  int illegal_errors = 0;
};

/// A bench's main: parses the command line, makes the Harness (from the trace
/// file name, or nullptr), checks the RTL assertions with
/// check_assertions(harness) -> AssertionCheck, runs the bench's checks with
/// run_checks(harness, rng, options) -> the summary (what agreed; throws
/// Mismatch), and prints the summary with harness.cycles() and the time taken.
/// Exit status 0 when everything agrees, 1 on the first mismatch (printed),
/// 2 on a bad command line.
template <typename Harness, typename CheckAssertions, typename RunChecks>
int bench_main(int argc, char** argv, CheckAssertions check_assertions, RunChecks run_checks,
               const AddOptions& add_options = {}) {
  BenchOptions options;
  if (const auto status = parse_bench_options(argc, argv, options, add_options)) return *status;
  Verilated::commandArgs(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  std::mt19937_64 rng(options.seed);
  Harness harness(options.trace());
  std::printf("checking that the RTL assertions fire (the %%Error lines below are expected):\n");
  std::fflush(stdout);
  const AssertionCheck assertions = check_assertions(harness);
  if (assertions.legal_errors != 0 || assertions.illegal_errors == 0) {
    std::fprintf(stderr, "MISMATCH: RTL assertions: %d errors on a legal input, %d on %s\n", assertions.legal_errors,
                 assertions.illegal_errors, assertions.illegal.c_str());
    return 1;
  }
  std::printf("RTL assertion reports %s: yes\n", assertions.illegal.c_str());
  std::string summary;
  try {
    summary = run_checks(harness, rng, options);
  } catch (const Mismatch& e) {
    std::fprintf(stderr, "MISMATCH: %s\n", e.what());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s, %llu cycles (%.1f s)\n", summary.c_str(), static_cast<unsigned long long>(harness.cycles()),
              seconds);
  return 0;
}

}  // namespace collnet::bench
