// graph:FILE.yaml: the reader (every refusal names its line), up*/down*
// shortest routes against a brute-force search over simple paths, and a
// routing table that gives a mesh dimension-order routes.
#include "topology/graph_file.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <string>

#include "tests/support/mesh_graph_file.hpp"
#include "topology/grid.hpp"
#include "topology/routing.hpp"

using namespace collnet::topology;

namespace {

std::unique_ptr<GraphNetwork> read(const std::string& text) { return GraphNetwork::from_text(text, "t.yaml", "graph:t"); }

std::string example(const std::string& name) {
  return std::string(COLLNET_SOURCE_DIR) + "/examples/graphs/" + name;
}

/// The message of the TopologyError `text` is refused with ("" if accepted).
std::string refusal(const std::string& text) {
  try {
    (void)read(text);
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "";
}

/// The node names a route visits, the source first.
std::vector<std::string> visits(const GraphNetwork& net, EndpointId s, EndpointId d) {
  const Graph& g = net.graph();
  std::vector<std::string> names{g.node_name(g.endpoint_node(s))};
  for (const Hop& h : net.route(s, d)) names.push_back(g.node_name(g.link(h.link).dst));
  return names;
}

/// Length of the shortest up*/down* path from a to b, by trying every simple
/// path: "up" is toward a smaller (distance from the root, node id), the
/// distances from a breadth-first search of the cables ignoring direction.
int brute_force_updown(const Graph& g, NodeId root, NodeId a, NodeId b) {
  std::vector<int> level(g.node_count(), -1);
  std::deque<NodeId> q{root};
  level[static_cast<std::size_t>(root)] = 0;
  while (!q.empty()) {
    const NodeId n = q.front();
    q.pop_front();
    for (const Link& l : g.links()) {
      NodeId m = kNone;
      if (l.src == n) m = l.dst;
      if (l.dst == n) m = l.src;
      if (m != kNone && level[static_cast<std::size_t>(m)] < 0) {
        level[static_cast<std::size_t>(m)] = level[static_cast<std::size_t>(n)] + 1;
        q.push_back(m);
      }
    }
  }
  auto up = [&](const Link& l) {
    return std::make_pair(level[static_cast<std::size_t>(l.dst)], l.dst) <
           std::make_pair(level[static_cast<std::size_t>(l.src)], l.src);
  };
  int best = 1 << 30;
  std::vector<bool> on(g.node_count(), false);
  std::function<void(NodeId, bool, int)> walk = [&](NodeId n, bool went_down, int length) {
    if (n == b) {
      best = std::min(best, length);
      return;
    }
    on[static_cast<std::size_t>(n)] = true;
    for (const Link& l : g.links()) {
      if (l.src != n || on[static_cast<std::size_t>(l.dst)]) continue;
      if (up(l) && went_down) continue;
      walk(l.dst, went_down || !up(l), length + 1);
    }
    on[static_cast<std::size_t>(n)] = false;
  };
  walk(a, false, 0);
  return best;
}

void expect_updown_shortest(const GraphNetwork& net) {
  const Graph& g = net.graph();
  for (EndpointId s = 0; s < net.endpoint_count(); ++s)
    for (EndpointId d = 0; d < net.endpoint_count(); ++d) {
      const Route r = net.route(s, d);
      NodeId at = g.endpoint_node(s);
      bool went_down = false;
      for (const Hop& h : r) {
        EXPECT_EQ(g.link(h.link).src, at);
        EXPECT_EQ(h.vc_class, 0);
        EXPECT_FALSE(went_down && net.goes_up(h.link)) << s << " -> " << d << " goes up after down";
        went_down = went_down || !net.goes_up(h.link);
        at = g.link(h.link).dst;
      }
      EXPECT_EQ(at, g.endpoint_node(d));
      EXPECT_EQ(static_cast<int>(r.size()), brute_force_updown(g, net.root(), g.endpoint_node(s), g.endpoint_node(d)))
          << g.node_name(g.endpoint_node(s)) << " -> " << g.node_name(g.endpoint_node(d));
    }
}

}  // namespace

TEST(GraphFile, RingRoutesAvoidTurningUpAfterDown) {
  const auto net = GraphNetwork::from_file(example("ring-8.yaml"));
  ASSERT_EQ(net->endpoint_count(), 8);
  EXPECT_EQ(net->name(), "graph:" + example("ring-8.yaml"));
  EXPECT_EQ(net->graph().node_name(net->root()), "n0");
  // Up*/down* from n0: no route passes through n4, the node farthest from
  // the root (that would be down into n4 and up out of it).
  for (int s = 0; s < 8; ++s)
    for (int d = 0; d < 8; ++d) {
      const int cw = (d - s + 8) % 8;
      const bool cw_through_4 = cw > 0 && (4 - s + 8) % 8 > 0 && (4 - s + 8) % 8 < cw;
      const int ccw = (8 - cw) % 8;
      const bool ccw_through_4 = ccw > 0 && (s - 4 + 8) % 8 > 0 && (s - 4 + 8) % 8 < ccw;
      int expected = 99;
      if (!cw_through_4) expected = cw;
      if (!ccw_through_4) expected = std::min(expected, ccw);
      EXPECT_EQ(static_cast<int>(net->route(s, d).size()), expected) << s << " -> " << d;
    }
  EXPECT_EQ(visits(*net, 3, 5), (std::vector<std::string>{"n3", "n2", "n1", "n0", "n7", "n6", "n5"}));
  EXPECT_EQ(net->graph().node(0).at, (std::vector<double>{0, 0}));
  EXPECT_EQ(net->graph().link_name(0), "n0:0->n1");
  expect_updown_shortest(*net);
}

TEST(GraphFile, FatTreeGoesUpToTheFirstSpineAndDown) {
  const auto net = GraphNetwork::from_file(example("fat-tree-2level.yaml"));
  ASSERT_EQ(net->endpoint_count(), 8);
  EXPECT_EQ(net->graph().node_name(net->root()), "s0");
  EXPECT_EQ(visits(*net, 0, 1), (std::vector<std::string>{"e0", "l0", "e1"}));
  EXPECT_EQ(visits(*net, 0, 7), (std::vector<std::string>{"e0", "l0", "s0", "l3", "e7"}));
  EXPECT_EQ(visits(*net, 6, 3), (std::vector<std::string>{"e6", "l3", "s0", "l1", "e3"}));
  // The uplinks carry the file's latency, the server cables none (the scenario's).
  const Graph& g = net->graph();
  for (LinkId l = 0; l < static_cast<LinkId>(g.link_count()); ++l) {
    const bool uplink = g.node_name(g.link(l).src)[0] != 'e' && g.node_name(g.link(l).dst)[0] != 'e';
    EXPECT_EQ(g.link(l).latency, uplink ? 3 : 0) << g.link_name(l);
  }
  expect_updown_shortest(*net);
}

TEST(GraphFile, IrregularNetworkWithOneWayLinks) {
  const auto net = GraphNetwork::from_file(example("irregular.yaml"));
  ASSERT_EQ(net->endpoint_count(), 5);
  EXPECT_EQ(net->graph().node_name(net->root()), "b");
  // g reaches f only through c (g -> c is its one way out).
  EXPECT_EQ(visits(*net, 4, 3), (std::vector<std::string>{"g", "c", "f"}));
  EXPECT_EQ(visits(*net, 3, 4), (std::vector<std::string>{"f", "g"}));
  expect_updown_shortest(*net);
}

TEST(GraphFile, TableRoutesAreFollowed) {
  const auto net = GraphNetwork::from_file(example("star-table.yaml"));
  EXPECT_TRUE(net->has_table());
  EXPECT_EQ(default_routing(*net).name, "table");
  EXPECT_EQ(visits(*net, 4, 2), (std::vector<std::string>{"x", "p0", "hub", "p2"}));
  EXPECT_EQ(visits(*net, 3, 4), (std::vector<std::string>{"p3", "hub", "p0", "x"}));
  EXPECT_EQ(visits(*net, 1, 0), (std::vector<std::string>{"p1", "hub", "p0"}));
}

using collnet::test::mesh_4x4_dor_file;

TEST(GraphFile, MeshTableGivesTheMeshsDimensionOrderRoutes) {
  const auto net = read(mesh_4x4_dor_file());
  const Grid mesh({4, 4}, false);
  ASSERT_EQ(net->endpoint_count(), 16);
  for (EndpointId s = 0; s < 16; ++s)
    for (EndpointId d = 0; d < 16; ++d) {
      const Route a = net->route(s, d);
      const Route b = mesh.route(s, d);
      ASSERT_EQ(a.size(), b.size()) << s << " -> " << d;
      for (std::size_t i = 0; i < a.size(); ++i) {
        const Link& la = net->graph().link(a[i].link);
        const Link& lb = mesh.graph().link(b[i].link);
        EXPECT_EQ(std::make_tuple(la.src, la.src_port, la.dst, la.dst_port),
                  std::make_tuple(lb.src, lb.src_port, lb.dst, lb.dst_port));
      }
    }
  for (NodeId n = 0; n < 16; ++n) EXPECT_EQ(net->graph().port_count(n), mesh.graph().port_count(n));
}

TEST(GraphFile, BadFilesAreRefusedNamingTheLine) {
  const std::string head = "endpoints: [a, b, c]\nlinks:\n  - [a, b]\n";  // lines 1-3
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {head + "  - [b, z]\n", "line 4: unknown node 'z'"},
      {head + "  - [b, a]\n", "line 4: duplicate link 'b' -> 'a' (first on line 3)"},
      {head + "  - {from: a, to: b}\n", "line 4: duplicate link 'a' -> 'b'"},
      {head + "  - [c, c]\n", "line 4: link from 'c' to itself"},
      {head, "line 1: endpoint 'c' is not connected to 'a'"},
      {"endpoints:\n  - a\n  - b\n  - a\nlinks: [[a, b]]\n", "line 4: node 'a' is declared twice (first on line 2)"},
      {head + "  - [b, c]\nwires: 3\n", "line 5: unknown key 'wires'; accepted: endpoints, routers, links, routing"},
      {head + "  - {between: [b, c], latency: 0}\n", "line 4: 'latency' (cycles) must be an integer from 1"},
      {head + "  - {between: [b, c], speed: 2}\n", "line 4: unknown key 'speed' of a link; accepted: between"},
      {head + "  - {between: [b, c], bandwidth: 0}\n", "line 4: 'bandwidth': bandwidth 0 is out of range; accepted"},
      {head + "  - {between: [b, c], bandwidth: 1/2000}\n", "line 4: 'bandwidth': bandwidth 1/2000 is out of range"},
      {head + "  - {between: [b, c], bandwidth: -2}\n", "line 4: 'bandwidth': '-2' is not a bandwidth; accepted"},
      {head + "  - {between: [b, c], ports: [0, 0]}\n  - {between: [c, a], ports: [0, 1]}\n",
       "line 5: output port 0 of 'c' is already taken by the link on line 4"},
      {head + "  - [b, c]\nrouting: fastest\n", "line 5: unknown routing 'fastest'; accepted: shortest, table"},
      {head + "  - [b, c]\nroot: q\n", "line 5: unknown node 'q' in 'root'"},
      {"endpoints: [a, b\n", "line 2: not readable as YAML"},
      {"endpoints: [a, 'b c']\n", "line 1: node name 'b c' must be"},
      {"endpoints: [a, b, c]\nlinks:\n  - {from: a, to: b}\n  - {from: b, to: c}\n  - {from: c, to: a}\n",
       "line 1: no up*/down* route from 'b' to 'a' (root 'a')"},
      // tables
      {head + "  - [b, c]\nrouting: table\n", "line 5: routing 'table' needs a 'table'"},
      {head + "  - [b, c]\ntable:\n  a: {'*': b}\n  b: {a: a, c: c}\n",
       "line 5: the table misses destination 'a' at 'c' (on the route from 'c')"},
      {head + "  - [b, c]\ntable:\n  a: {'*': b}\n  b: {a: a, c: c}\n  c: {'*': a}\n",
       "line 8: dead end: 'c' has no link to 'a'"},
      {head + "  - [b, c]\ntable:\n  a: {'*': b}\n  b: {a: c, c: c}\n  c: {'*': b}\n",
       "line 8: the table loops toward 'a': b -> c -> b"},
      {head + "  - [b, c]\ntable:\n  a: {'*': b}\n  b: {a: a, c: c, a: c}\n  c: {'*': b}\n",
       "line 7: destination 'a' is given twice in the row of 'b'"},
      {head + "  - [b, c]\ntable:\n  a: {'*': b}\n  b: {a: a, c: c}\n  c: {'*': b}\n  b: {'*': a}\n",
       "line 9: the table has two rows for 'b' (first on line 7)"},
      {head + "  - [b, c]\nrouting: shortest\ntable:\n  a: {'*': b}\n",
       "line 6: a 'table' is given but routing is 'shortest'"},
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text);
    EXPECT_NE(message.find("graph file 't.yaml' " + c.expected), std::string::npos)
        << "input:\n" << c.text << "message: " << message;
  }
}

TEST(GraphFile, RingTableWithMinimalRoutesIsRefusedAsADeadlock) {
  // Four nodes in a ring, every packet one or two hops clockwise: the four
  // clockwise links wait for each other in a cycle.
  const std::string text =
      "endpoints: [a, b, c, d]\n"
      "links: [[a, b], [b, c], [c, d], [d, a]]\n"
      "table:\n"  // line 3
      "  a: {'*': b}\n"
      "  b: {'*': c}\n"
      "  c: {'*': d}\n"
      "  d: {'*': a}\n";
  const std::string message = refusal(text);
  EXPECT_NE(message.find("line 3: the table's routes can deadlock: the links a:0->b, b:1->c, c:1->d, d:1->a, then "
                         "a:0->b again wait for each other"),
            std::string::npos)
      << message;
}

TEST(GraphFile, FactoryFormReadsTheFile) {
  const auto t = make_topology("graph:" + example("ring-8.yaml"));
  EXPECT_EQ(t->endpoint_count(), 8);
  EXPECT_THROW((void)make_topology("graph:"), TopologyError);
  try {
    (void)make_topology("graph:/nonexistent/x.yaml");
    FAIL();
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open graph file '/nonexistent/x.yaml'"), std::string::npos);
  }
  try {
    (void)make_topology("graph:/dev/zero");  // endless: refused after 16 MiB
    FAIL();
  } catch (const TopologyError& e) {
    EXPECT_NE(std::string(e.what()).find("'/dev/zero' is larger than 16 MiB"), std::string::npos) << e.what();
  }
}
