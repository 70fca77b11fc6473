// Replays every file of the fuzz corpus (fuzz/corpus/<target>/: the seeds and
// every reproducer a fuzzer found) through the fuzz targets' entry points in
// the normal build: a reproducer of a fixed bug stays fixed. An entry point
// returns normally on input the CLI rejects with exit 2 and throws on a bug.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fuzz/entry.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus(const std::string& target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(COLLNET_SOURCE_DIR) / "fuzz" / "corpus" / target;
  if (!fs::is_directory(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  return files;
}

class CorpusReplay : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusReplay, EveryInputIsParsedOrRejectedWithoutABug) {
  const auto files = corpus(GetParam());
  // Seeds: a handful per target at least (what the fuzzer starts from).
  ASSERT_GE(files.size(), 4u) << "fuzz/corpus/" << GetParam() << " has too few seeds";
  const auto entry = collnet::fuzz::entry(GetParam());
  ASSERT_NE(entry, nullptr);
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NO_THROW(entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())) << f;
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzz, CorpusReplay, ::testing::ValuesIn(collnet::fuzz::targets()));

// The entry points do find what they look for: a descriptor that does not
// survive pack/unpack would throw (here: every opcode and a full word).
TEST(FuzzEntry, DescriptorRoundTripHoldsForEveryBitPattern) {
  for (int bit = 0; bit < 128; ++bit) {
    std::uint8_t word[16] = {};
    word[bit / 8] = static_cast<std::uint8_t>(1u << (bit % 8));
    EXPECT_NO_THROW(collnet::fuzz::descriptor(word, sizeof word)) << "bit " << bit;
  }
}

}  // namespace
