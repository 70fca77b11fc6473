#include "cli/key_tables.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "collectives/algorithm.hpp"
#include "collectives/units.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/network/model_keys.hpp"
#include "cli/run_jobs.hpp"
#include "workload/keys.hpp"
#include "cli/run_collective.hpp"
#include "cli/scenario.hpp"

namespace collnet::cli {

namespace {

std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string code(const std::string& text) { return text.empty() ? "(empty)" : "`" + cell(text) + "`"; }

std::string table(const std::vector<KeyDoc>& keys) {
  std::string t = "| key | default | accepted | meaning |\n|---|---|---|---|\n";
  for (const auto& k : keys)
    t += "| " + code(k.name) + " | " + cell(k.default_value.empty() ? "(empty)" : k.default_value) + " | " +
         cell(k.accepted) + " | " + cell(k.meaning) + " |\n";
  return t;
}

bool same_doc(const KeyDoc& a, const KeyDoc& b) {
  return a.name == b.name && a.meaning == b.meaning && a.default_value == b.default_value && a.accepted == b.accepted;
}

/// One row per distinct declaration, with the algorithms that declare it.
std::string algorithm_table() {
  std::string t = "| key | algorithms | default | accepted | meaning |\n|---|---|---|---|---|\n";
  for (const Key& k : collectives::common_keys()) {
    if (k.name == "controllers" || k.name == "dispatch") continue;  // in the collective-run table
    t += "| " + code(k.name) + " | all | " + cell(k.default_value) + " | " + cell(k.accepted) + " | " +
         cell(k.meaning) + " |\n";
  }
  std::vector<std::pair<KeyDoc, std::vector<std::string>>> rows;
  for (const auto& a : collectives::algorithms())
    for (const Key& k : a.keys) {
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return same_doc(r.first, k); });
      if (it != rows.end()) it->second.push_back(a.name);
      else rows.push_back({k.doc(), {a.name}});
    }
  for (const auto& [k, names] : rows)
    t += "| " + code(k.name) + " | " + cell(join(names)) + " | " + cell(k.default_value) + " | " + cell(k.accepted) +
         " | " + cell(k.meaning) + " |\n";
  return t;
}

}  // namespace

std::vector<KeyTable> key_tables() {
  auto docs = [](std::initializer_list<const std::vector<Key>*> lists) {
    std::vector<KeyDoc> out;
    for (const auto* keys : lists)
      for (const Key& k : *keys) out.push_back(k.doc());
    return out;
  };
  // Keys both kinds of run read sit with the router keys.
  const std::vector<KeyDoc> router = docs({&declared_list<systemc::RouterKeys>(), &declared_list<systemc::RunKeys>()});
  const std::vector<KeyDoc> synthetic = docs({&declared_list<systemc::SyntheticKeys>()});
  std::vector<KeyDoc> collective;
  for (const auto* k : {&collectives::controllers_key(), &collectives::dispatch_key()}) collective.push_back(k->doc());
  for (const KeyDoc& k : docs({&declared_list<systemc::NicKeys>(), &declared_list<systemc::BarrierKeys>(), &declared_list<systemc::LinkFaultKeys>(),
                               &systemc::collective_keys()}))
    collective.push_back(k);
  collective.push_back(jobs_key().doc());

  std::vector<KeyTable> tables{{"units", table(docs({&unit_keys()}))},
                               {"router", table(router)},
                               {"collective", table(collective)},
                               {"synthetic", table(synthetic)},
                               {"workload", table(docs({&workload::workload_keys()}))},
                               {"algorithm", algorithm_table()}};
  // Every known key is in a table.
  for (const auto& k : known_keys())
    if (std::none_of(tables.begin(), tables.end(), [&](const KeyTable& t) {
          return t.markdown.find("| `" + k.name + "` |") != std::string::npos;
        }))
      throw std::logic_error("key_tables: key '" + k.name + "' is in no table");
  return tables;
}

std::string key_tables_markdown() {
  std::string out;
  for (const auto& t : key_tables()) out += "<!-- keys:" + t.name + " -->\n" + t.markdown + "<!-- /keys:" + t.name + " -->\n";
  return out;
}

}  // namespace collnet::cli
