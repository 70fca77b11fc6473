// Replays every file of the fuzz corpus (fuzz/corpus/<target>/: the seeds and
// every reproducer a fuzzer found) through the fuzz targets' entry points in
// the normal build: a reproducer of a fixed bug stays fixed. An entry point
// returns normally on input the CLI rejects with exit 2 and throws on a bug.
// Each file also has its expectation in fuzz/corpus/<target>.expected
// (accepted, and what it was parsed and routed to; or refused, and a text
// the message holds, naming the key): a parser that refused everything, or
// accepted everything, fails.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
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

struct Expectation {
  bool accepted = false;
  std::string detail;  // accepted: what the input is parsed to, exactly; refused: a part of the message
};

/// fuzz/corpus/<target>.expected: `FILE accepted DETAIL` or `FILE refused TEXT`
/// per line; `#` starts a comment line.
std::map<std::string, Expectation> expectations(const std::string& target) {
  std::map<std::string, Expectation> m;
  std::ifstream in(fs::path(COLLNET_SOURCE_DIR) / "fuzz" / "corpus" / (target + ".expected"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string file, verdict;
    words >> file >> verdict;
    std::string detail;
    std::getline(words >> std::ws, detail);
    EXPECT_TRUE(verdict == "accepted" || verdict == "refused") << line;
    EXPECT_FALSE(detail.empty()) << "no detail: " << line;
    EXPECT_TRUE(m.emplace(file, Expectation{verdict == "accepted", detail}).second) << "listed twice: " << file;
  }
  return m;
}

TEST_P(CorpusReplay, EverySeedIsParsedOrRefusedAsItsManifestSays) {
  const auto files = corpus(GetParam());
  const auto expected = expectations(GetParam());
  const auto check = collnet::fuzz::check(GetParam());
  ASSERT_NE(check, nullptr);
  int accepted = 0;
  int refused = 0;
  for (const auto& f : files) {
    const auto it = expected.find(f.filename().string());
    if (it == expected.end()) {
      ADD_FAILURE() << f << " has no line in fuzz/corpus/" << GetParam() << ".expected";
      continue;
    }
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto outcome = check(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    EXPECT_EQ(outcome.accepted, it->second.accepted) << f << ": " << outcome.detail;
    if (it->second.accepted) {
      EXPECT_EQ(outcome.detail, it->second.detail) << f;
      ++accepted;
    } else {
      EXPECT_NE(outcome.detail.find(it->second.detail), std::string::npos) << f << ": " << outcome.detail;
      ++refused;
    }
  }
  for (const auto& [name, e] : expected)
    EXPECT_TRUE(fs::exists(fs::path(COLLNET_SOURCE_DIR) / "fuzz" / "corpus" / GetParam() / name))
        << "fuzz/corpus/" << GetParam() << ".expected lists " << name << ", which is not in the corpus";
  // Every target has seeds it accepts; every parser that can refuse has seeds it refuses.
  EXPECT_GE(accepted, 2) << GetParam();
  if (GetParam() != "descriptor") {
    EXPECT_GE(refused, 2) << GetParam();
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
