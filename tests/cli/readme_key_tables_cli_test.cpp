// The documentation's key reference (docs/reference/keys.md) says, for every
// scenario key, the default and accepted values the code declares. This test
// reads the Markdown tables of that page row by row and compares each row's
// cells, field by field, with the declarations themselves
// (collnet::cli::known_keys(), the algorithms' declared keys and the common
// keys): a row that differs, a declared key without a row and a row without a
// declaration all fail. scripts/readme_key_tables.py regenerates the tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "collectives/algorithm.hpp"
#include "cli/scenario.hpp"

using namespace collnet::test;

namespace {

const char* const kPage = "docs/reference/keys.md";

struct Row {
  int line = 0;                     // 1-based line in the page
  std::vector<std::string> cells;   // unescaped, trimmed
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

/// "| a | b \| c |" -> {"a", "b | c"}: cells split on unescaped '|'.
std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  for (std::size_t i = 1; i < line.size(); ++i) {  // line[0] is the leading '|'
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cur += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(trim(cur));
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return cells;
}

/// The table rows between <!-- keys:NAME --> and <!-- /keys:NAME -->, header
/// and separator left out. Empty when the block is missing.
std::map<std::string, std::vector<Row>> tables(const std::string& page) {
  std::map<std::string, std::vector<Row>> out;
  std::string current;
  int n = 0;
  int row_in_block = 0;
  std::size_t at = 0;
  while (at <= page.size()) {
    const std::size_t end = std::min(page.find('\n', at), page.size());
    const std::string line = page.substr(at, end - at);
    ++n;
    at = end + 1;
    if (line.rfind("<!-- keys:", 0) == 0) {
      current = line.substr(10, line.find(" -->") - 10);
      out[current];
      row_in_block = 0;
    } else if (line.rfind("<!-- /keys:", 0) == 0) {
      current.clear();
    } else if (!current.empty() && line.rfind("|", 0) == 0) {
      if (++row_in_block <= 2) continue;  // header and |---| line
      out[current].push_back({n, split_row(line)});
    }
    if (end == page.size()) break;
  }
  return out;
}

std::string key_name(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') return cell.substr(1, cell.size() - 2);
  return cell;
}

/// The page writes an empty default as "(empty)".
std::string default_cell(const std::string& cell) { return cell == "(empty)" ? "" : cell; }

std::vector<std::string> split_names(const std::string& cell) {
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at <= cell.size()) {
    const std::size_t comma = std::min(cell.find(',', at), cell.size());
    names.push_back(trim(cell.substr(at, comma - at)));
    at = comma + 1;
    if (comma == cell.size()) break;
  }
  return names;
}

void expect_row_matches(const Row& row, const std::string& name, const std::string& default_value,
                        const std::string& accepted, const std::string& meaning, const collnet::KeyDoc& declared,
                        const std::string& who) {
  const std::string where = std::string(kPage) + ":" + std::to_string(row.line) + " key '" + name + "' (" + who + ")";
  EXPECT_EQ(default_cell(default_value), declared.default_value) << where << ": default";
  EXPECT_EQ(accepted, declared.accepted) << where << ": accepted values";
  EXPECT_EQ(meaning, declared.meaning) << where << ": meaning";
}

const std::string& page_text() {
  static const std::string text = slurp(fs::path(COLLNET_SOURCE_DIR) / kPage);
  return text;
}

}  // namespace

// The model tables: key | default | accepted | meaning, each row against
// the declaration of that key.
TEST(ReadmeKeyTables, ModelTablesEqualTheDeclarations) {
  const auto t = tables(page_text());
  ASSERT_FALSE(page_text().empty()) << kPage << " is missing";
  std::map<std::string, collnet::KeyDoc> declared;
  for (const auto& k : collnet::cli::known_keys()) declared.emplace(k.name, k);
  int rows = 0;
  for (const char* table : {"units", "router", "collective", "synthetic"}) {
    ASSERT_TRUE(t.count(table)) << kPage << " has no block <!-- keys:" << table << " -->";
    std::set<std::string> seen;
    for (const Row& row : t.at(table)) {
      ASSERT_EQ(row.cells.size(), 4u) << kPage << ":" << row.line << ": a row of table '" << table
                                      << "' has key, default, accepted, meaning";
      const std::string name = key_name(row.cells[0]);
      EXPECT_TRUE(seen.insert(name).second) << kPage << ":" << row.line << ": key '" << name << "' twice";
      const auto it = declared.find(name);
      if (it == declared.end()) {
        ADD_FAILURE() << kPage << ":" << row.line << ": key '" << name << "' is declared nowhere";
        continue;
      }
      expect_row_matches(row, name, row.cells[1], row.cells[2], row.cells[3], it->second, table);
      ++rows;
    }
  }
  EXPECT_GT(rows, 20);
}

// The algorithm table: key | algorithms | default | accepted | meaning. A
// row naming "all" is a common key; otherwise every algorithm it names must
// declare that key with exactly those cells, and every key every algorithm
// declares must have a row naming the algorithm.
TEST(ReadmeKeyTables, AlgorithmTableEqualsEachAlgorithmsDeclarations) {
  const auto t = tables(page_text());
  ASSERT_TRUE(t.count("algorithm")) << kPage << " has no block <!-- keys:algorithm -->";
  std::set<std::pair<std::string, std::string>> documented;  // (algorithm, key)
  std::set<std::string> documented_common;
  for (const Row& row : t.at("algorithm")) {
    ASSERT_EQ(row.cells.size(), 5u) << kPage << ":" << row.line
                                    << ": a row of the algorithm table has key, algorithms, default, accepted, meaning";
    const std::string name = key_name(row.cells[0]);
    if (row.cells[1] == "all") {
      const auto& common = collnet::collectives::common_keys();
      const auto it = std::find_if(common.begin(), common.end(), [&](const auto& k) { return k.name == name; });
      if (it == common.end()) {
        ADD_FAILURE() << kPage << ":" << row.line << ": '" << name << "' is marked 'all' but is no common key";
        continue;
      }
      documented_common.insert(name);
      expect_row_matches(row, name, row.cells[2], row.cells[3], row.cells[4], it->doc(), "all algorithms");
      continue;
    }
    for (const std::string& algo : split_names(row.cells[1])) {
      const auto& all = collnet::collectives::algorithms();
      const auto a = std::find_if(all.begin(), all.end(), [&](const auto& x) { return x.name == algo; });
      if (a == all.end()) {
        ADD_FAILURE() << kPage << ":" << row.line << ": no algorithm '" << algo << "'";
        continue;
      }
      const auto k = std::find_if(a->keys.begin(), a->keys.end(), [&](const auto& x) { return x.name == name; });
      if (k == a->keys.end()) {
        ADD_FAILURE() << kPage << ":" << row.line << ": algorithm '" << algo << "' declares no key '" << name << "'";
        continue;
      }
      EXPECT_TRUE(documented.insert({algo, name}).second)
          << kPage << ":" << row.line << ": key '" << name << "' of '" << algo << "' has two rows";
      expect_row_matches(row, name, row.cells[2], row.cells[3], row.cells[4], k->doc(), algo);
    }
  }
  for (const auto& a : collnet::collectives::algorithms()) {
    for (const auto& k : a.keys) {
      EXPECT_TRUE(documented.count({a.name, k.name})) << kPage << ": no row for key '" << k.name << "' of " << a.name;
    }
  }
  // controllers and dispatch are common keys documented with the collective run.
  for (const auto& k : collnet::collectives::common_keys()) {
    if (k.name == "controllers" || k.name == "dispatch") continue;
    EXPECT_TRUE(documented_common.count(k.name)) << kPage << ": no 'all' row for common key '" << k.name << "'";
  }
}

// Every key the CLI accepts has a row somewhere on the page.
TEST(ReadmeKeyTables, EveryAcceptedKeyHasARow) {
  std::set<std::string> rows;
  for (const auto& [name, table] : tables(page_text())) {
    for (const Row& row : table) {
      if (!row.cells.empty()) rows.insert(key_name(row.cells[0]));
    }
  }
  EXPECT_GT(rows.size(), 40u);
  for (const auto& k : collnet::cli::known_keys()) {
    EXPECT_TRUE(rows.count(k.name)) << kPage << ": no row for key '" << k.name << "'";
  }
}
