// The Verilator benches' command line (bench_main.hpp), parsed with CLI11 in
// one place so that the benches do not each compile it.
#include "bench/verilator/bench_main.hpp"

#include <CLI/CLI.hpp>

namespace collnet::bench {

std::optional<int> parse_bench_options(int argc, char** argv, BenchOptions& options, const AddOptions& add_options) {
  CLI::App app{"Verilator bench: RTL = HLS class = software reference"};
  app.add_option("--seed", options.seed, "seed of the random back-pressure and cases (default 1)");
  app.add_option("--trace", options.trace_file, "write an FST waveform of the run to FILE.fst");
  if (add_options) add_options(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

}  // namespace collnet::bench
