#include "topology/fattree.hpp"

#include <algorithm>
#include <string>

#include "topology/spec_keys.hpp"

namespace collnet::topology {

namespace {

constexpr const char* kForms = "fattree:k=K,n=N[,bandwidth_L=B for a level L in 0..N-1]";

int power(int base, int exp) {
  int v = 1;
  for (int i = 0; i < exp; ++i) v *= base;
  return v;
}

std::string fattree_name(int k, int n, const std::vector<Bandwidth>& bandwidth) {
  std::string name = "fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n);
  for (std::size_t l = 0; l < bandwidth.size(); ++l)
    if (!bandwidth[l].unit()) name += ",bandwidth_" + std::to_string(l) + "=" + to_string(bandwidth[l]);
  return name;
}

}  // namespace

FatTree::FatTree(int k, int n, std::vector<Bandwidth> bandwidth)
    : Topology(fattree_name(k, n, bandwidth)), k_(k), n_(n) {
  bandwidth.resize(static_cast<std::size_t>(std::max(n, 0)));
  const auto cable = [&](int level) {
    Link l{};
    l.bandwidth = bandwidth[static_cast<std::size_t>(level)];
    return l;
  };
  if (k < 2) throw TopologyError("topology: fattree k=" + std::to_string(k) + ": the arity must be at least 2");
  if (n < 1) throw TopologyError("topology: fattree n=" + std::to_string(n) + ": at least 1 level");
  long endpoints = 1;
  for (int i = 0; i < n; ++i) {
    endpoints *= k;
    if (endpoints > kMaxEndpoints)
      throw TopologyError("topology: fattree k=" + std::to_string(k) + ",n=" + std::to_string(n) +
                          " has more than " + std::to_string(kMaxEndpoints) + " endpoints (k^n)");
  }
  per_level_ = power(k, n - 1);
  const auto e_count = static_cast<int>(endpoints);
  int m = 1;
  while (m <= e_count - 1 || m <= per_level_ - 1) m *= 10;

  for (int e = 0; e < e_count; ++e) graph_.attach_endpoint(graph_.add_node(NodeKind::server, e));
  first_switch_ = static_cast<NodeId>(graph_.node_count());
  for (int l = 0; l < n; ++l)
    for (int w = 0; w < per_level_; ++w)
      graph_.add_node(l == n - 1 ? NodeKind::leaf : NodeKind::spine, (l + 1) * m + w);
  // Coordinates for reports and plots: servers on row 0 at x = e, a level's
  // switches on the row above the level below them, each centred over the K
  // positions it spans (level 0, the top, on row N).
  for (int e = 0; e < e_count; ++e) graph_.describe_node(graph_.endpoint_node(e), "", {double(e), 0.0});
  for (int l = 0; l < n; ++l)
    for (int w = 0; w < per_level_; ++w)
      graph_.describe_node(switch_node(l, w), "", {w * k + (k - 1) / 2.0, double(n - l)});

  // Servers under their leaves.
  for (int e = 0; e < e_count; ++e)
    graph_.add_duplex(graph_.endpoint_node(e), 0, switch_node(n - 1, e / k), e % k, cable(n - 1), cable(n - 1));
  // Level l down to level l+1.
  for (int l = 0; l + 1 < n; ++l) {
    const int r = power(k, n - 1 - l);
    const int child_r = r / k;
    for (int w = 0; w < per_level_; ++w) {
      const int b = w / r;
      const int q = w % r;
      for (int c = 0; c < k; ++c) {
        const int child = (b * k + c) * child_r + q % child_r;
        graph_.add_duplex(switch_node(l, w), c, switch_node(l + 1, child), k + q / child_r, cable(l), cable(l));
      }
    }
  }
}

NodeId FatTree::switch_node(int level, int position) const {
  if (level < 0 || level >= n_ || position < 0 || position >= per_level_)
    throw TopologyError("fattree: no switch at level " + std::to_string(level) + ", position " +
                        std::to_string(position));
  return first_switch_ + static_cast<NodeId>(level * per_level_ + position);
}

int FatTree::level(NodeId node) const {
  if (node < first_switch_) return n_;
  return (node - first_switch_) / per_level_;
}

int FatTree::position(NodeId node) const {
  if (node < first_switch_) return graph_.node(node).endpoint;
  return (node - first_switch_) % per_level_;
}

int FatTree::ancestor_level(EndpointId a, EndpointId b) const {
  // Leaves share a level-l ancestor when the endpoints agree above their
  // lowest N - l digits.
  int l = n_ - 1;
  int span = k_;
  while (a / span != b / span) {
    --l;
    span *= k_;
  }
  return l;
}

std::unique_ptr<Topology> make_fattree(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  std::vector<std::string> accepted{"k", "n"};
  for (int l = 0; l < 16; ++l) accepted.push_back("bandwidth_" + std::to_string(l));
  const SpecKeys keys(spec, rest, accepted, kForms);
  if (!keys.has("k") || !keys.has("n")) keys.fail("needs k=K and n=N");
  const auto k = static_cast<int>(keys.integer("k", 2, 2, 256));
  const auto n = static_cast<int>(keys.integer("n", 1, 1, 16));
  std::vector<Bandwidth> bandwidth;
  for (int l = 0; l < 16; ++l) {
    const std::string key = "bandwidth_" + std::to_string(l);
    if (l >= n && keys.has(key))
      keys.fail("key '" + key + "': no level " + std::to_string(l) + " with n=" + std::to_string(n) +
                "; accepted: bandwidth_0 .. bandwidth_" + std::to_string(n - 1));
    if (l < n) bandwidth.push_back(keys.bandwidth(key));
  }
  try {
    return std::make_unique<FatTree>(k, n, bandwidth);
  } catch (const TopologyError& e) {
    keys.fail(e.what());
  }
}

}  // namespace collnet::topology
