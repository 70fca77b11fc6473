#include "topology/tree.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <deque>
#include <map>

namespace collnet::topology {

namespace {

std::string parents_name(const std::vector<std::int32_t>& parents, EndpointId list_root, EndpointId root) {
  std::string s = "tree:parents=";
  for (std::size_t v = 0; v < parents.size(); ++v) s += (v ? "," : "") + std::to_string(parents[v]);
  if (root != list_root) s += ",root=" + std::to_string(root);
  return s;
}

// splitmix64: a fixed, documented generator, so that `tree:random=N,seed=S`
// names the same tree on every platform and standard library.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Tree::Tree(const std::vector<std::int32_t>& parents, EndpointId physical_root, std::string name)
    : Topology(std::move(name)) {
  const auto n = static_cast<std::int64_t>(parents.size());
  if (n < 1 || n > kMaxNodes)
    throw TopologyError("topology: a tree needs 1 to " + std::to_string(kMaxNodes) + " nodes, got " +
                        std::to_string(n));
  EndpointId list_root = kNone;
  std::vector<std::vector<EndpointId>> adjacent(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int32_t p = parents[static_cast<std::size_t>(v)];
    if (p == -1) {
      if (list_root != kNone)
        throw TopologyError("topology: tree parent list has two roots (-1 at nodes " + std::to_string(list_root) +
                            " and " + std::to_string(v) + "); exactly one node must have parent -1");
      list_root = static_cast<EndpointId>(v);
      continue;
    }
    if (p < 0 || p >= n || p == v)
      throw TopologyError("topology: tree node " + std::to_string(v) + " has parent " + std::to_string(p) +
                          "; a parent must be another node 0.." + std::to_string(n - 1) + " or -1 for the root");
    adjacent[static_cast<std::size_t>(v)].push_back(p);
    adjacent[static_cast<std::size_t>(p)].push_back(static_cast<EndpointId>(v));
  }
  if (list_root == kNone) throw TopologyError("topology: tree parent list has no root (no parent -1)");
  root_ = physical_root == kNone ? list_root : physical_root;
  if (root_ < 0 || root_ >= n)
    throw TopologyError("topology: tree root " + std::to_string(root_) + " is not a node; accepted: 0.." +
                        std::to_string(n - 1));
  if (name_.empty()) name_ = parents_name(parents, list_root, root_);

  // Breadth-first from the physical root: N-1 edges and every node reached
  // means the list is a tree (a parent cycle leaves its nodes unreached).
  parent_.assign(static_cast<std::size_t>(n), kNone);
  depth_.assign(static_cast<std::size_t>(n), -1);
  children_.assign(static_cast<std::size_t>(n), {});
  std::deque<EndpointId> queue{root_};
  depth_[static_cast<std::size_t>(root_)] = 0;
  while (!queue.empty()) {
    const EndpointId v = queue.front();
    queue.pop_front();
    for (EndpointId u : adjacent[static_cast<std::size_t>(v)]) {
      if (depth_[static_cast<std::size_t>(u)] >= 0) continue;
      depth_[static_cast<std::size_t>(u)] = depth_[static_cast<std::size_t>(v)] + 1;
      parent_[static_cast<std::size_t>(u)] = v;
      children_[static_cast<std::size_t>(v)].push_back(u);
      queue.push_back(u);
    }
  }
  for (std::int64_t v = 0; v < n; ++v)
    if (depth_[static_cast<std::size_t>(v)] < 0)
      throw TopologyError("topology: tree parent list has a cycle: node " + std::to_string(v) +
                          " does not reach the root");
  for (auto& c : children_) std::sort(c.begin(), c.end());

  for (std::int64_t v = 0; v < n; ++v)
    graph_.attach_endpoint(graph_.add_node(NodeKind::tree_node, static_cast<std::int32_t>(v)));
  for (std::int64_t v = 0; v < n; ++v) {
    const auto& c = children_[static_cast<std::size_t>(v)];
    for (std::size_t i = 0; i < c.size(); ++i)
      graph_.add_duplex(static_cast<NodeId>(v), static_cast<std::int32_t>(1 + i), c[i], 0);
  }
}

std::vector<std::int32_t> Tree::complete_kary_parents(std::int32_t k, std::int32_t n) {
  if (k < 1) throw TopologyError("topology: tree kary=" + std::to_string(k) + ": the arity must be at least 1");
  if (n < 1 || n > kMaxNodes)
    throw TopologyError("topology: tree n=" + std::to_string(n) + ": accepted 1.." + std::to_string(kMaxNodes));
  std::vector<std::int32_t> p(static_cast<std::size_t>(n));
  p[0] = -1;
  for (std::int32_t i = 1; i < n; ++i) p[static_cast<std::size_t>(i)] = (i - 1) / k;
  return p;
}

std::vector<std::int32_t> Tree::random_parents(std::int32_t n, std::uint64_t seed) {
  if (n < 1 || n > kMaxNodes)
    throw TopologyError("topology: tree random=" + std::to_string(n) + ": accepted 1.." + std::to_string(kMaxNodes));
  std::vector<std::int32_t> p(static_cast<std::size_t>(n));
  p[0] = -1;
  for (std::int32_t i = 1; i < n; ++i)
    p[static_cast<std::size_t>(i)] =
        static_cast<std::int32_t>(mix(seed * 0x100000001b3ULL + static_cast<std::uint64_t>(i)) %
                                  static_cast<std::uint64_t>(i));
  return p;
}

std::size_t Tree::index(EndpointId v) const {
  if (v < 0 || v >= size())
    throw TopologyError("tree node " + std::to_string(v) + " does not exist; accepted 0.." +
                        std::to_string(size() - 1));
  return static_cast<std::size_t>(v);
}

std::vector<EndpointId> Tree::neighbours(EndpointId v) const {
  std::vector<EndpointId> n;
  if (parent(v) != kNone) n.push_back(parent(v));
  const auto& c = children(v);
  n.insert(n.end(), c.begin(), c.end());
  return n;
}

std::int32_t Tree::distance(EndpointId a, EndpointId b) const {
  std::int32_t d = 0;
  while (a != b) {
    if (depth(a) >= depth(b)) a = parent(a);
    else b = parent(b);
    ++d;
  }
  return d;
}

std::int32_t Tree::eccentricity(EndpointId v) const {
  // Breadth-first over the undirected shape.
  std::vector<std::int32_t> dist(static_cast<std::size_t>(size()), -1);
  std::deque<EndpointId> queue{v};
  dist[index(v)] = 0;
  std::int32_t far = 0;
  while (!queue.empty()) {
    const EndpointId u = queue.front();
    queue.pop_front();
    far = std::max(far, dist[static_cast<std::size_t>(u)]);
    for (EndpointId w : neighbours(u))
      if (dist[static_cast<std::size_t>(w)] < 0) {
        dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(u)] + 1;
        queue.push_back(w);
      }
  }
  return far;
}

std::vector<std::int32_t> Tree::parents_rooted_at(EndpointId root) const {
  std::vector<std::int32_t> p(static_cast<std::size_t>(size()), -1);
  std::vector<bool> seen(static_cast<std::size_t>(size()), false);
  std::deque<EndpointId> queue{root};
  seen[index(root)] = true;
  while (!queue.empty()) {
    const EndpointId u = queue.front();
    queue.pop_front();
    for (EndpointId w : neighbours(u))
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = true;
        p[static_cast<std::size_t>(w)] = u;
        queue.push_back(w);
      }
  }
  return p;
}

LinkId Tree::link_between(EndpointId a, EndpointId b) const {
  const LinkId l = graph_.find_link(graph_.endpoint_node(a), graph_.endpoint_node(b));
  if (l == kNone)
    throw TopologyError("tree nodes " + std::to_string(a) + " and " + std::to_string(b) + " are not adjacent");
  return l;
}

}  // namespace collnet::topology

namespace collnet::topology {

namespace {

constexpr const char* kTreeForms =
    "tree:parents=P0,P1,...[,root=R], tree:kary=K,n=N[,root=R], tree:random=N[,seed=S][,root=R]";

[[noreturn]] void tree_form_error(std::string_view spec, const std::string& what) {
  throw TopologyError("topology '" + std::string(spec) + "': " + what + "; accepted forms: " + kTreeForms);
}

std::int64_t tree_number(std::string_view text, std::string_view key, std::string_view spec) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
    tree_form_error(spec, "cannot read '" + std::string(text) + "' as an integer for '" + std::string(key) + "'");
  return v;
}

}  // namespace

std::unique_ptr<Tree> make_tree(std::string_view spec) {
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos || spec.substr(0, colon) != "tree") tree_form_error(spec, "not a tree form");
  const std::string_view rest = spec.substr(colon + 1);
  std::map<std::string, std::vector<std::int64_t>> values;
  std::string last;
  std::size_t start = 0;
  while (start <= rest.size()) {
    const std::size_t end = std::min(rest.find(',', start), rest.size());
    const std::string_view token = rest.substr(start, end - start);
    start = end + 1;
    const auto eq = token.find('=');
    if (eq == std::string_view::npos) {
      // A bare number continues the list of `parents`.
      if (last != "parents") tree_form_error(spec, "expected key=value, got '" + std::string(token) + "'");
      values[last].push_back(tree_number(token, last, spec));
      continue;
    }
    last = std::string(token.substr(0, eq));
    if (last != "parents" && last != "kary" && last != "n" && last != "random" && last != "seed" && last != "root")
      tree_form_error(spec, "unknown key '" + last + "' (keys: parents, kary, n, random, seed, root)");
    if (values.count(last)) tree_form_error(spec, "key '" + last + "' is given twice");
    values[last].push_back(tree_number(token.substr(eq + 1), last, spec));
  }
  const int shapes = static_cast<int>(values.count("parents") + values.count("kary") + values.count("random"));
  if (shapes != 1) tree_form_error(spec, "give exactly one of parents=, kary= or random=");
  auto single = [&](const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
    const auto it = values.find(key);
    if (it == values.end()) return fallback;
    const std::int64_t v = it->second.front();
    if (v < lo || v > hi)
      tree_form_error(spec, "'" + key + "' = " + std::to_string(v) + " is out of range; accepted " +
                                std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  };
  if (values.count("n") && !values.count("kary")) tree_form_error(spec, "'n' belongs to the kary form");
  if (values.count("seed") && !values.count("random")) tree_form_error(spec, "'seed' belongs to the random form");

  std::vector<std::int32_t> parents;
  std::string canonical;
  if (values.count("parents")) {
    for (std::int64_t p : values["parents"]) {
      if (p < -1 || p >= Tree::kMaxNodes) tree_form_error(spec, "parent " + std::to_string(p) + " is out of range");
      parents.push_back(static_cast<std::int32_t>(p));
    }
    canonical = "tree:parents=";
    for (std::size_t i = 0; i < parents.size(); ++i) canonical += (i ? "," : "") + std::to_string(parents[i]);
  } else if (values.count("kary")) {
    if (!values.count("n")) tree_form_error(spec, "the kary form needs n=N");
    const auto k = single("kary", 2, 1, Tree::kMaxNodes);
    const auto n = single("n", 1, 1, Tree::kMaxNodes);
    parents = Tree::complete_kary_parents(static_cast<std::int32_t>(k), static_cast<std::int32_t>(n));
    canonical = "tree:kary=" + std::to_string(k) + ",n=" + std::to_string(n);
  } else {
    const auto n = single("random", 1, 1, Tree::kMaxNodes);
    const auto seed = single("seed", 1, 0, INT64_MAX);
    parents = Tree::random_parents(static_cast<std::int32_t>(n), static_cast<std::uint64_t>(seed));
    canonical = "tree:random=" + std::to_string(n) + ",seed=" + std::to_string(seed);
  }
  EndpointId root = kNone;
  if (values.count("root")) {
    root = static_cast<EndpointId>(single("root", 0, 0, static_cast<std::int64_t>(parents.size()) - 1));
    canonical += ",root=" + std::to_string(root);
  }
  return std::make_unique<Tree>(parents, root, canonical);
}

}  // namespace collnet::topology
