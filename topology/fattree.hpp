// k-ary n-tree, `fattree:k=K,n=N[,bandwidth_L=B ...]`: the
// folded Clos network of Petrini and Vanneschi, the same network as
// BookSim2's `topology = fattree` (k, n).
//
// K^N endpoints; N levels of K^(N-1) switches, level 0 at the top, level N-1
// the leaves. Every switch has K down ports (0..K-1) and, below the top, K up
// ports (K..2K-1). Each endpoint is a server node (NodeKind::server) on one
// down port of a leaf: endpoint e hangs under leaf e / K, on its down port
// e % K (port 0 of the server).
//   A switch at level l, position w (0..K^(N-1)-1), written w = b*R + q with
//   R = K^(N-1-l) and q < R, covers the endpoints b*K^(N-l) .. (b+1)*K^(N-l)-1.
//   Its down port c goes to level l+1, position (b*K + c)*(R/K) + q mod (R/K),
//   arriving on that switch's up port K + q / (R/K).
// Bandwidth per level: bandwidth_L (L = 0..N-1) is the bandwidth, flits per
// cycle each way, of the cables below the switches of level L (to level L+1,
// or for L = N-1 to the servers); default 1 (graph.hpp, Bandwidth).
// Labels (node names in reports, plots and waveforms): M = the smallest power
// of ten above both K^N - 1 and K^(N-1) - 1; server = endpoint id; switch
// at level l, position w = (l+1)*M + w. k=4,n=3: servers 0..63, top
// switches 100..115, middle 200..215, leaves 300..315; "305:5->205" is the
// cable from leaf 5's second up port (port K+1) to middle switch 5.
//
// Routing (key `routing`, topology/routing/fattree.cpp; VC class 0
// everywhere: up*/down* routes are deadlock free):
//   nca         (default) up to the nearest common ancestor, then down (the
//               only path down). The up port of the j-th up hop (j = 0 at the
//               leaf) is digit j of the destination in base K,
//               (dst / K^j) mod K ("destination mod k"): a deterministic
//               route that spreads the destinations of one leaf over all
//               top switches.
//   nca-random  as nca, but the up ports are drawn at random per packet
//               (from the packet's random word, itself drawn from the run's
//               seed), as BookSim2's fattree `nca`.
// A non-zero route hint overrides the up ports: hint - 1 = the up port of
// every up hop (0..K-1).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "topology/topology.hpp"

namespace collnet::topology {

class FatTree final : public Topology {
 public:
  /// `bandwidth`: per level L, the cables below its switches (absent: 1).
  FatTree(int k, int n, std::vector<Bandwidth> bandwidth = {});

  [[nodiscard]] int k() const { return k_; }
  [[nodiscard]] int n() const { return n_; }
  [[nodiscard]] int switches_per_level() const { return per_level_; }
  /// Graph node of the switch at `level` (0 = top), `position`.
  [[nodiscard]] NodeId switch_node(int level, int position) const;
  /// Level of a node: 0..N-1 for switches, N for a server.
  [[nodiscard]] int level(NodeId node) const;
  /// Position of a switch in its level, or the endpoint id of a server.
  [[nodiscard]] int position(NodeId node) const;
  /// Level of the nearest common ancestor of two endpoints' leaves (N-1 when
  /// they share a leaf).
  [[nodiscard]] int ancestor_level(EndpointId a, EndpointId b) const;

  static constexpr int kMaxEndpoints = 65536;

 private:
  int k_;
  int n_;
  int per_level_;  // K^(N-1)
  NodeId first_switch_ = 0;
};

/// Parses `fattree:k=K,n=N`.
std::unique_ptr<Topology> make_fattree(std::string_view spec);

}  // namespace collnet::topology
