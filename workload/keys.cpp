#include "workload/keys.hpp"

#include "workload/lower.hpp"

namespace collnet::workload {

std::string chakra_prefix(const std::string& value) {
  return value.rfind("chakra:", 0) == 0 ? value.substr(7) : std::string();
}

const Key& workload_key() {
  static const Key k = Key::text(
      "workload",
      "collnet run: the workload to run instead of one collective: chakra:PREFIX reads Chakra execution traces, rank "
      "r from PREFIX.r.et (one rank per endpoint; a path relative to the working directory); see "
      "docs/guide/workloads.md",
      "", "chakra:PREFIX",
      [](const std::string& v) -> std::string {
        if (v.rfind("chakra:", 0) != 0 || v.size() == 7)
          return "'" + v + "' is not a workload; accepted values: chakra:PREFIX (rank r reads PREFIX.r.et)";
        return "";
      });
  return k;
}

const Key& comm_groups_key() {
  static const Key k = Key::text(
      "comm_groups",
      "workload: the process groups of the collectives, a JSON file {\"1\": [0, 1, 2, 3], ...} (ASTRA-sim's "
      "comm_groups); pg_name empty or \"0\" is every rank; the traces' METADATA_NODE may list groups too; empty: none",
      "", "a readable JSON file, or empty");
  return k;
}

const Key& workload_scale_key() {
  static const Key k = Key::real("workload_scale",
                                 "workload: every comm_size is multiplied by this before it becomes words (flit_bytes "
                                 "bytes a word, rounded up, at least one): a smaller run of the same graph",
                                 1.0, 1e-9, 1.0);
  return k;
}

namespace {

struct TypeKey {
  CollectiveType type;
  Key key;
};

const std::vector<TypeKey>& type_keys() {
  static const std::vector<TypeKey> keys = [] {
    std::vector<TypeKey> v;
    const std::pair<CollectiveType, const char*> types[] = {
        {CollectiveType::all_reduce, "ALL_REDUCE"}, {CollectiveType::all_gather, "ALL_GATHER"},
        {CollectiveType::reduce_scatter, "REDUCE_SCATTER"}, {CollectiveType::all_to_all, "ALL_TO_ALL"},
        {CollectiveType::broadcast, "BROADCAST"}, {CollectiveType::reduce, "REDUCE"}};
    for (const auto& [type, name] : types) {
      const auto& accepted = algorithms_for(type);
      v.push_back({type, Key::choice(algorithm_key_for(type),
                                     std::string("workload: the registered algorithm that runs every ") + name +
                                         " collective (COMM_COLL_NODE) on the ranks of its process group",
                                     accepted.front(), accepted)});
    }
    return v;
  }();
  return keys;
}

}  // namespace

const Key* algorithm_key(CollectiveType type) {
  for (const auto& t : type_keys())
    if (t.type == type) return &t.key;
  return nullptr;
}

const std::vector<Key>& workload_keys() {
  static const std::vector<Key> keys = [] {
    std::vector<Key> v = {workload_key(), comm_groups_key(), workload_scale_key()};
    for (const auto& t : type_keys()) v.push_back(t.key);
    return v;
  }();
  return keys;
}

}  // namespace collnet::workload
