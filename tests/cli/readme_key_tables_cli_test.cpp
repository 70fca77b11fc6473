// The README's key tables are the ones `collnet list --markdown` generates
// from the key declarations (scripts/readme_key_tables.py puts them there),
// so that every declared key is documented with its default and accepted
// values; and every key the CLI accepts is in one of them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "cli_runner.hpp"
#include "testbench/scenario.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

TEST(ReadmeKeyTables, ReadmeHoldsTheGeneratedTables) {
  const CliRun r = run_words("list --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string readme = slurp(fs::path(COLLNET_SOURCE_DIR) / "README.md");
  const std::regex block(R"(<!-- keys:(\w+) -->\n[\s\S]*?<!-- /keys:\1 -->\n)");
  int blocks = 0;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), block); it != std::sregex_iterator(); ++it) {
    ++blocks;
    EXPECT_THAT(readme, HasSubstr(it->str()))
        << "README.md's table '" << (*it)[1] << "' differs from the declarations: run "
        << "python3 scripts/readme_key_tables.py";
  }
  EXPECT_EQ(blocks, 4);
  // Every accepted key is in a table, with its default.
  for (const auto& k : collnet::cli::known_keys())
    EXPECT_THAT(r.out, HasSubstr("| `" + k.name + "` |")) << k.name;
}
