// algorithm msccl: the import of a large generated MSCCL-IR program takes
// time linear in its size. The program is a pipelined chain broadcast
// written here: gpu 0 sends K chunks to gpu 1, every other gpu receives
// each chunk and forwards it (rcs) to the next, the last one receives (r);
// K x G steps whose dependency chain is K + G long. The imported programs
// must leave gpu 0's K chunks on every gpu (the expectation is gpu 0's
// input, read from the schedule's initial memory), and parsing, checking
// and translating must scale linearly: 4 times the steps (16000 and 64000)
// take less than 8 times as long (a per-step scan of the file or of the
// program, quadratic, takes 16 times).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <time.h>
#include <unistd.h>

#include "collectives/algorithms/msccl.hpp"
#include "collectives/executor.hpp"

namespace collnet::collectives {
namespace {

namespace fs = std::filesystem;

std::string chain_broadcast(int gpus, int chunks) {
  std::ostringstream x;
  x << "<algo name=\"chain\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"" << chunks << "\" ngpus=\"" << gpus
    << "\" coll=\"custom\" inplace=\"0\">\n";
  for (int g = 0; g < gpus; ++g) {
    x << "  <gpu id=\"" << g << "\" i_chunks=\"" << chunks << "\" o_chunks=\"0\" s_chunks=\"0\">\n";
    const int send = g + 1 < gpus ? g + 1 : -1, recv = g > 0 ? g - 1 : -1;
    x << "    <tb id=\"0\" send=\"" << send << "\" recv=\"" << recv << "\" chan=\"0\">\n";
    const char* type = g == 0 ? "s" : send < 0 ? "r" : "rcs";
    for (int k = 0; k < chunks; ++k)
      x << "      <step s=\"" << k << "\" type=\"" << type << "\" srcbuf=\"i\" srcoff=\"" << k
        << "\" dstbuf=\"i\" dstoff=\"" << k << "\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n";
    x << "    </tb>\n  </gpu>\n";
  }
  x << "</algo>\n";
  return x.str();
}

/// CPU seconds of this thread (time the scheduler gave other work is not
/// counted: the machine may be busy).
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// CPU seconds to parse, check and translate `file`.
double import_seconds(const fs::path& file, int gpus) {
  const double start = thread_seconds();
  const MscclProgram prog = parse_msccl(file.string());
  MscclOptions o;
  o.chunk_words = 1;
  const Schedule s = build_msccl(prog, static_cast<std::size_t>(gpus), o);
  const double seconds = thread_seconds() - start;
  EXPECT_EQ(s.endpoints(), static_cast<std::size_t>(gpus));
  return seconds;
}

TEST(MscclImportScale, LargeGeneratedProgramImportsInLinearTime) {
  // n and 4n steps: linear work takes about 4 times as long on the larger
  // program (4.8 to 5.2 measured on a busy 2-core machine, also with two
  // copies of this test at once), quadratic work (a per-element scan of the
  // file or of the program) 16 times. The bound, 8, lies between them with
  // room for noise: each size is timed as the best of five runs, the two
  // sizes taking turns so that both see the same load, in CPU time.
  constexpr int kGpus = 16, kSmall = 1000, kLarge = 4 * kSmall;  // 16000 and 64000 steps (7 MB of XML)
  constexpr int kRepeats = 5;
  const std::string stem = "collnet_chain_" + std::to_string(::getpid());
  const fs::path small = fs::temp_directory_path() / (stem + "_small.xml");
  const fs::path large = fs::temp_directory_path() / (stem + "_large.xml");
  std::ofstream(small) << chain_broadcast(kGpus, kSmall);
  std::ofstream(large) << chain_broadcast(kGpus, kLarge);
  double t_small = 1e300, t_large = 1e300;
  for (int i = 0; i < kRepeats; ++i) {
    t_small = std::min(t_small, import_seconds(small, kGpus));
    t_large = std::min(t_large, import_seconds(large, kGpus));
  }
  const MscclProgram prog = parse_msccl(large.string());
  fs::remove(small);
  fs::remove(large);
  std::size_t steps = 0;
  for (const auto& g : prog.gpus)
    for (const auto& tb : g.tbs) steps += tb.steps.size();
  ASSERT_EQ(steps, static_cast<std::size_t>(kGpus) * kLarge);
  const double ratio = t_large / t_small;
  std::cout << "msccl import: " << kGpus * kSmall << " steps " << t_small << " s, " << kGpus * kLarge << " steps "
            << t_large << " s, ratio " << ratio << " (linear 4, quadratic 16)\n";
  EXPECT_LT(ratio, 8.0) << "import time grows faster than linearly: " << t_small << " s for " << kGpus * kSmall
                        << " steps, " << t_large << " s for " << kGpus * kLarge;
  // And an absolute bound far above linear work (well under a second here,
  // a few under sanitizers): the quadratic line count took minutes.
  EXPECT_LT(t_large, 20.0);
  // Gpu 0's chunks everywhere.
  MscclOptions o;
  o.chunk_words = 1;
  const Schedule s = build_msccl(prog, kGpus, o);
  const ExecResult r = execute(s);
  for (int g = 0; g < kGpus; ++g)
    for (std::uint32_t w = 0; w < static_cast<std::uint32_t>(kLarge); w += 397)
      ASSERT_EQ(r.memory[static_cast<std::size_t>(g)][w], s.initial(0, w)) << "gpu " << g << " word " << w;
  EXPECT_NE(s.initial(0, 1), s.initial(1, 1));  // the inputs differ, so the check can fail
}

}  // namespace
}  // namespace collnet::collectives
