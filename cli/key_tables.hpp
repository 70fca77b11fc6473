// The README's scenario-key tables, generated from the key declarations
// (collectives/ Keys, the models' KeyDocs): `collnet list --markdown`
// prints them, scripts/readme_key_tables.py puts them into README.md, and
// test_cli ReadmeKeyTables checks that README.md holds them unchanged.
#pragma once

#include <string>
#include <vector>

namespace collnet::cli {

struct KeyTable {
  std::string name;      // marker: <!-- keys:NAME --> ... <!-- /keys:NAME -->
  std::string markdown;  // the table, one line per key, ending in a newline
};

/// router, collective, synthetic, algorithm: together every known key.
std::vector<KeyTable> key_tables();

/// Every table between its markers.
std::string key_tables_markdown();

}  // namespace collnet::cli
