#include <algorithm>

#include "collectives/algorithm.hpp"

namespace collnet::collectives {

// One factory per algorithm, each defined in the algorithm's own file.
// Add two lines here (a declaration and an entry) when an algorithm is added.
// declarations:
Algorithm make_a2a_hopgroup();
Algorithm make_a2a_hopgroup_direct();
Algorithm make_a2a_optimal();
Algorithm make_a2a_spread();
Algorithm make_a2a_nd();
Algorithm make_tree_bcast();
Algorithm make_hd_allreduce();
Algorithm make_hd_allreduce_conventional();
Algorithm make_twotree_hier();
Algorithm make_twotree_flat();
Algorithm make_tree_single();
// (end of declarations)
const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> v;
    for (auto make : std::initializer_list<Algorithm (*)()>{
             // entries:
             make_a2a_hopgroup,
             make_a2a_hopgroup_direct,
             make_a2a_optimal,
             make_a2a_spread,
             make_a2a_nd,
             make_tree_bcast,
             make_hd_allreduce,
             make_hd_allreduce_conventional,
             make_twotree_hier,
             make_twotree_flat,
             make_tree_single,
             // (end of entries)
         })
      v.push_back(make());
    return v;
  }();
  return all;
}

const Algorithm& find_algorithm(std::string_view name) {
  const auto& all = algorithms();
  const auto it = std::find_if(all.begin(), all.end(), [&](const Algorithm& a) { return a.name == name; });
  if (it != all.end()) return *it;
  std::vector<std::string> names;
  for (const auto& a : all) names.push_back(a.name);
  throw ConfigError("key 'algorithm': unknown algorithm '" + std::string(name) + "'; accepted values: " +
                    join(names));
}

const std::vector<KeyDoc>& common_keys() {
  static const std::vector<KeyDoc> keys = {
      {"topology", "network the collective runs on", "torus:8x8", [] {
         std::vector<std::string> forms;
         for (const auto& f : topology::topology_forms()) forms.push_back(f.prefix + ":...");
         return join(forms) + " (see `collnet list`)";
       }()},
      {"algorithm", "collective algorithm", "a2a-optimal", "see `collnet list`"},
      {"message_flits", "payload words (= payload flits) of one message (all-to-all: per pair of nodes)", "16",
       "1..65536"},
  };
  return keys;
}

}  // namespace collnet::collectives
