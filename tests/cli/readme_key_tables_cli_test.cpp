// The README's key tables are the ones `collnet list --markdown` generates
// from the key declarations (scripts/readme_key_tables.py puts them there),
// so that every declared key is documented with its default and accepted
// values; and every key the CLI accepts is in one of them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"
#include "testbench/scenario.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

TEST(ReadmeKeyTables, ReadmeHoldsTheGeneratedTables) {
  const CliRun r = run_words("list --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string readme = slurp(fs::path(COLLNET_SOURCE_DIR) / "README.md");
  // Each block runs from "<!-- keys:NAME -->" to "<!-- /keys:NAME -->"
  // (found with plain searches: std::regex recurses once per character and
  // overflows the stack on these tables under AddressSanitizer).
  int blocks = 0;
  const std::string open = "<!-- keys:";
  for (std::size_t at = r.out.find(open); at != std::string::npos; at = r.out.find(open, at + 1)) {
    const std::size_t name_end = r.out.find(" -->\n", at);
    ASSERT_NE(name_end, std::string::npos) << r.out.substr(at, 80);
    const std::string name = r.out.substr(at + open.size(), name_end - at - open.size());
    const std::string close = "<!-- /keys:" + name + " -->\n";
    const std::size_t end = r.out.find(close, name_end);
    ASSERT_NE(end, std::string::npos) << "no end of block '" << name << "'";
    ++blocks;
    EXPECT_THAT(readme, HasSubstr(r.out.substr(at, end + close.size() - at)))
        << "README.md's table '" << name << "' differs from the declarations: run "
        << "python3 scripts/readme_key_tables.py";
  }
  EXPECT_EQ(blocks, 4);
  // Every accepted key is in a table, with its default.
  for (const auto& k : collnet::cli::known_keys())
    EXPECT_THAT(r.out, HasSubstr("| `" + k.name + "` |")) << k.name;
}
