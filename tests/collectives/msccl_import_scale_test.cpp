// algorithm msccl: the import of a large generated MSCCL-IR program takes
// time linear in its size. The program is a pipelined chain broadcast
// written here: gpu 0 sends K chunks to gpu 1, every other gpu receives
// each chunk and forwards it (rcs) to the next, the last one receives (r);
// K x G steps whose dependency chain is K + G long. The imported programs
// must leave gpu 0's K chunks on every gpu (the expectation is gpu 0's
// input, read from the schedule's initial memory), and parsing, checking
// and translating a document of 64000 steps must take a small fraction of
// what a per-step scan of the file or of the program (quadratic: minutes)
// would.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

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

TEST(MscclImportScale, LargeGeneratedProgramImportsInLinearTime) {
  constexpr int kGpus = 16, kChunks = 4000;  // 64000 steps, about 7 MB of XML
  const fs::path file = fs::temp_directory_path() / ("collnet_chain_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(file) << chain_broadcast(kGpus, kChunks);
  const auto start = std::chrono::steady_clock::now();
  const MscclProgram prog = parse_msccl(file.string());
  MscclOptions o;
  o.chunk_words = 1;
  const Schedule s = build_msccl(prog, kGpus, o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::remove(file);
  std::size_t steps = 0;
  for (const auto& g : prog.gpus)
    for (const auto& tb : g.tbs) steps += tb.steps.size();
  EXPECT_EQ(steps, static_cast<std::size_t>(kGpus) * kChunks);
  // Linear work is well under a second here (and a few under sanitizers);
  // the quadratic line count took minutes at this size.
  EXPECT_LT(seconds, 20.0);
  // Gpu 0's chunks everywhere.
  const ExecResult r = execute(s);
  for (int g = 0; g < kGpus; ++g)
    for (std::uint32_t w = 0; w < static_cast<std::uint32_t>(kChunks); w += 397)
      ASSERT_EQ(r.memory[static_cast<std::size_t>(g)][w], s.initial(0, w)) << "gpu " << g << " word " << w;
  EXPECT_NE(s.initial(0, 1), s.initial(1, 1));  // the inputs differ, so the check can fail
}

}  // namespace
}  // namespace collnet::collectives
