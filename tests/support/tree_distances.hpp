// Test helper (tests/support/: fixtures several suites share, written once):
// distances in a tree given as a parent list, by breadth-first search over
// its undirected edges, an expectation independent of topology/tree.cpp and
// of the tree algorithms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace collnet::test {

/// Hops from `from` to every node; -1 for a node not connected to it.
inline std::vector<int> tree_distances(const std::vector<std::int32_t>& parents, int from) {
  std::vector<std::vector<int>> adj(parents.size());
  for (std::size_t v = 0; v < parents.size(); ++v)
    if (parents[v] >= 0) {
      adj[v].push_back(parents[v]);
      adj[static_cast<std::size_t>(parents[v])].push_back(static_cast<int>(v));
    }
  std::vector<int> d(parents.size(), -1);
  std::deque<int> q{from};
  d[static_cast<std::size_t>(from)] = 0;
  while (!q.empty()) {
    const int u = q.front();
    q.pop_front();
    for (int w : adj[static_cast<std::size_t>(u)])
      if (d[static_cast<std::size_t>(w)] < 0) {
        d[static_cast<std::size_t>(w)] = d[static_cast<std::size_t>(u)] + 1;
        q.push_back(w);
      }
  }
  return d;
}

}  // namespace collnet::test
