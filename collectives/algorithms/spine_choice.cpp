#include "collectives/algorithms/spine_choice.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "topology/leafspine.hpp"

namespace collnet::collectives {

namespace {

using topology::LeafSpine;

// Edge coloring of one phase's cross-leaf transfers (see the header).
class PhaseColoring {
 public:
  PhaseColoring(const LeafSpine& fabric, const Placement& placement, std::vector<Transfer>& transfers)
      : f_(fabric), pl_(placement), xs_(transfers) {}

  void run(const std::vector<std::size_t>& phase) {
    for (std::size_t i : phase) {
      Edge e;
      e.transfer = i;
      e.u = f_.leaf_of(pl_.endpoint(xs_[i].sender));
      e.v = f_.leaf_of(pl_.endpoint(xs_[i].receiver));
      if (e.u == e.v) continue;  // no spine on the way
      e.allowed = f_.shared_spines(e.u, e.v);
      edges_.push_back(std::move(e));
    }
    std::map<std::pair<std::size_t, std::vector<int>>, std::vector<int>> classes;
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      auto key = edges_[e].allowed;
      std::sort(key.begin(), key.end());
      classes[{key.size(), key}].push_back(static_cast<int>(e));
    }
    int c = 0;
    for (const auto& [key, members] : classes) {
      for (int e : members) edges_[static_cast<std::size_t>(e)].cls = c;
      for (int e : members) color(e);
      ++c;
    }
    for (const Edge& e : edges_)
      xs_[e.transfer].route_hint = LeafSpine::uplink_hint(f_.uplink_index(e.u, e.spine));
  }

 private:
  struct Edge {
    std::size_t transfer = 0;
    int u = 0, v = 0;  // source leaf (left vertex), destination leaf (right vertex)
    std::vector<int> allowed;
    int cls = 0;
    int spine = -1;
  };

  std::vector<int>& up(int leaf, int spine) { return up_[static_cast<long>(leaf) * f_.spine_count() + spine]; }
  std::vector<int>& down(int spine, int leaf) { return down_[static_cast<long>(spine) * f_.leaf_count() + leaf]; }

  void place(int e, int spine) {
    Edge& x = edges_[static_cast<std::size_t>(e)];
    x.spine = spine;
    up(x.u, spine).push_back(e);
    down(spine, x.v).push_back(e);
  }
  void unplace(int e) {
    Edge& x = edges_[static_cast<std::size_t>(e)];
    auto drop = [e](std::vector<int>& v) { v.erase(std::find(v.begin(), v.end(), e)); };
    drop(up(x.u, x.spine));
    drop(down(x.spine, x.v));
    x.spine = -1;
  }

  void color(int e) {
    const Edge& x = edges_[static_cast<std::size_t>(e)];
    for (int s : x.allowed)
      if (up(x.u, s).empty() && down(s, x.v).empty()) return place(e, s);
    int a = -1, b = -1;  // a free at u, b free at v
    for (int s : x.allowed) {
      if (a < 0 && up(x.u, s).empty()) a = s;
      if (b < 0 && down(s, x.v).empty()) b = s;
    }
    if (a >= 0 && b >= 0 && swap_path(x.v, a, b, x.cls) && up(x.u, a).empty() && down(a, x.v).empty())
      return place(e, a);
    // Outside Koenig's conditions: the least-loaded shared spine.
    int best = x.allowed.front();
    std::size_t best_load = SIZE_MAX;
    for (int s : x.allowed) {
      const std::size_t load = std::max(up(x.u, s).size(), down(s, x.v).size());
      if (load < best_load) {
        best = s;
        best_load = load;
      }
    }
    place(e, best);
  }

  // Koenig: the a/b alternating path from right vertex v (an a-edge at v,
  // then a b-edge at its source leaf, ...) swaps colors so that a becomes free
  // at v. Only edges of class `cls` may move; false if the path leaves it.
  bool swap_path(int v, int a, int b, int cls) {
    std::vector<int> path;
    int right = v;
    for (std::size_t guard = 0; guard <= edges_.size(); ++guard) {
      const auto& at_right = down(a, right);
      if (at_right.empty()) break;
      if (at_right.size() > 1 || edges_[static_cast<std::size_t>(at_right[0])].cls != cls) return false;
      const int e1 = at_right[0];
      path.push_back(e1);
      const auto& at_left = up(edges_[static_cast<std::size_t>(e1)].u, b);
      if (at_left.empty()) break;
      if (at_left.size() > 1 || edges_[static_cast<std::size_t>(at_left[0])].cls != cls) return false;
      const int e2 = at_left[0];
      path.push_back(e2);
      right = edges_[static_cast<std::size_t>(e2)].v;
    }
    std::vector<int> old(path.size());
    for (std::size_t i = 0; i < path.size(); ++i) {
      old[i] = edges_[static_cast<std::size_t>(path[i])].spine;
      unplace(path[i]);
    }
    for (std::size_t i = 0; i < path.size(); ++i) place(path[i], old[i] == a ? b : a);
    return true;
  }

  const LeafSpine& f_;
  const Placement& pl_;
  std::vector<Transfer>& xs_;
  std::vector<Edge> edges_;
  std::unordered_map<long, std::vector<int>> up_;    // (leaf, spine) -> edges on that uplink
  std::unordered_map<long, std::vector<int>> down_;  // (spine, leaf) -> edges on that downlink
};

}  // namespace

void choose_spines(const topology::Topology& topology, const Placement& placement, std::vector<Transfer>& transfers,
                   SpineChoice choice) {
  const auto* fabric = dynamic_cast<const LeafSpine*>(&topology);
  if (!fabric) {
    for (auto& x : transfers) x.route_hint = 0;
    return;
  }
  if (choice != SpineChoice::coloring) {
    const auto hint = choice == SpineChoice::sender_port ? LeafSpine::kHintSenderPort : LeafSpine::kHintReceiverPort;
    for (auto& x : transfers) x.route_hint = hint;
    return;
  }
  std::map<std::uint32_t, std::vector<std::size_t>> phases;
  for (std::size_t i = 0; i < transfers.size(); ++i) phases[transfers[i].phase].push_back(i);
  for (const auto& [phase, members] : phases) PhaseColoring(*fabric, placement, transfers).run(members);
}

}  // namespace collnet::collectives
