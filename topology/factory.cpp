#include <charconv>
#include <string>

#include "topology/boards.hpp"
#include "topology/dragonfly.hpp"
#include "topology/fattree.hpp"
#include "topology/graph_file.hpp"
#include "topology/grid.hpp"
#include "topology/leafspine.hpp"
#include "topology/spec_keys.hpp"
#include "topology/topology.hpp"
#include "topology/tree.hpp"

namespace collnet::topology {

std::vector<int> parse_size_list(std::string_view text,
                                 const std::function<TopologyError(std::string_view part)>& unreadable) {
  std::vector<int> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('x', start), text.size());
    const std::string_view part = text.substr(start, end - start);
    int v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc{} || ptr != part.data() + part.size()) throw unreadable(part);
    sizes.push_back(v);
    start = end + 1;
  }
  return sizes;
}

namespace {
std::vector<int> parse_sizes(std::string_view text, std::string_view spec) {
  const std::vector<int> sizes = parse_size_list(text, [&](std::string_view) {
    return TopologyError("topology: cannot read sizes in '" + std::string(spec) +
                         "': expected NXxNY[xNZ[xNW]], e.g. torus:8x8");
  });
  for (int v : sizes)
    if (v < 1)
      throw TopologyError("topology: size " + std::to_string(v) + " in '" + std::string(spec) + "' must be at least 1");
  return sizes;
}
}  // namespace

namespace {
// torus:/mesh:SIZES[,bandwidth_D=B ...]: per dimension D its cables' bandwidth.
std::unique_ptr<Topology> make_grid(std::string_view spec, bool torus, std::string_view rest) {
  const std::size_t comma = rest.find(',');
  const std::vector<int> sizes = parse_sizes(rest.substr(0, comma), spec);
  std::vector<Bandwidth> bandwidth;
  if (comma != std::string_view::npos) {
    std::vector<std::string> accepted;
    for (std::size_t d = 0; d < sizes.size(); ++d) accepted.push_back("bandwidth_" + std::to_string(d));
    const SpecKeys keys(spec, rest.substr(comma + 1), accepted,
                        std::string(torus ? "torus" : "mesh") + ":NXxNY[xNZ[xNW]][,bandwidth_D=B for a dimension D "
                        "in 0.." + std::to_string(sizes.size() - 1) + "]");
    for (const std::string& key : accepted) bandwidth.push_back(keys.bandwidth(key));
  }
  return std::make_unique<Grid>(sizes, torus, bandwidth);
}
}  // namespace

const std::vector<TopologyForm>& topology_forms() {
  static const std::vector<TopologyForm> forms = {
      {"torus", "torus:NXxNY[xNZ[xNW]][,bandwidth_D=B]", "N-D torus"},
      {"mesh", "mesh:NXxNY[xNZ[xNW]][,bandwidth_D=B]", "N-D mesh"},
      {"tree", "tree:parents=P0,P1,...[,root=R] | tree:kary=K,n=N[,root=R] | tree:random=N[,seed=S][,root=R]",
       "tree network (every node an endpoint and a switch), physical root R"},
      {"boards", "boards:WxXxYxZ (sizes 1, 2, 4)",
       "4-D torus of boards, 8 main + 4 aggregation units each"},
      {"leafspine",
       "leafspine:p=P[,policy=destination_mod|sender_port|receiver_port][,uplink_bandwidth=B] (P even, 6..64)",
       "multi-layer full-mesh leaf/spine (document 002), spine from the route hint or a static policy"},
      {"fattree", "fattree:k=K,n=N[,bandwidth_L=B]",
       "k-ary n-tree (k^n endpoints, n levels of k^(n-1) switches)"},
      {"dragonfly",
       "dragonfly:p=P[,a=A,h=H,g=G][,local_latency=L][,global_latency=L][,local_bandwidth=B][,global_bandwidth=B]",
       "dragonfly: g groups of a fully connected routers with p endpoints and h global cables each "
       "(defaults a=2p, h=p, g=a*h+1)"},
      {"leafspine-wiring", "leafspine-wiring:FILE",
       "two-level leaf/spine from a wiring list (lines 'server S leaf L', 'uplink LEAF SPINE')"},
      {"graph", "graph:FILE.yaml",
       "any network from a YAML file: endpoints, routers, links (latency, bandwidth, ports), up*/down* shortest routes "
       "or a routing table"},
  };
  return forms;
}

std::unique_ptr<Topology> make_topology(std::string_view spec) {
  const auto colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  if (kind == "torus" || kind == "mesh") return make_grid(spec, kind == "torus", rest);
  if (kind == "tree") return make_tree(spec);
  if (kind == "boards") return make_boards(spec);
  if (kind == "leafspine" || kind == "leafspine-wiring") return make_leafspine(spec);
  if (kind == "fattree") return make_fattree(spec);
  if (kind == "dragonfly") return make_dragonfly(spec);
  if (kind == "graph") return make_graph_file(spec);
  std::string accepted;
  for (const auto& f : topology_forms()) accepted += (accepted.empty() ? "" : ", ") + f.syntax;
  throw TopologyError("topology: unknown form '" + std::string(spec) + "'; accepted: " + accepted);
}

}  // namespace collnet::topology
