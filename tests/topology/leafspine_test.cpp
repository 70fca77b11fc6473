// Leaf/spine fabrics of document 002 (spec twotree-leafspine: fabric).
#include "topology/leafspine.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "tests/support/error_message.hpp"

using namespace collnet::topology;

namespace {

std::set<int> spine_labels_of_leaf(const LeafSpine& f, int leaf) {
  std::set<int> s;
  for (int spine : f.uplinks(leaf)) s.insert(f.graph().node(f.spine_node(spine)).label);
  return s;
}

int leaf_with_label(const LeafSpine& f, int label) {
  for (int l = 0; l < f.leaf_count(); ++l)
    if (f.graph().node(f.leaf_node(l)).label == label) return l;
  return -1;
}

EndpointId server_with_label(const LeafSpine& f, int label) {
  for (EndpointId e = 0; e < f.endpoint_count(); ++e)
    if (f.graph().node(f.graph().endpoint_node(e)).label == label) return e;
  return -1;
}

std::string message_of(const std::function<void()>& f) { return collnet::test::error_message<TopologyError>(f); }

// Route = directed links that chain from the source server to the destination server.
void expect_route_chains(const LeafSpine& f, EndpointId src, EndpointId dst, const Route& r) {
  ASSERT_FALSE(r.empty());
  const Graph& g = f.graph();
  EXPECT_EQ(g.link(r.front().link).src, g.endpoint_node(src));
  EXPECT_EQ(g.link(r.back().link).dst, g.endpoint_node(dst));
  for (std::size_t i = 1; i < r.size(); ++i) EXPECT_EQ(g.link(r[i - 1].link).dst, g.link(r[i].link).src);
  for (const auto& h : r) EXPECT_EQ(h.vc_class, 0);
}

}  // namespace

// spec fact 1: servers p^2(p+2)/8, leaves p(p+2)/4, spines p(p+2)/8
// (p=6: 36 / 12 + 6, p=8: 80 / 30 switches, p=10: 150 / 45, p=36: 6156 / 513).
TEST(LeafSpine, FabricSizesMatchTheDocument) {
  struct Case {
    int p, servers, switches;
  };
  for (const Case c : {Case{6, 36, 18}, Case{8, 80, 30}, Case{10, 150, 45}, Case{36, 6156, 513}}) {
    const auto f = LeafSpine::full_mesh(c.p);
    EXPECT_EQ(f->endpoint_count(), c.servers) << c.p;
    EXPECT_EQ(f->leaf_count() + f->spine_count(), c.switches) << c.p;
    EXPECT_EQ(f->leaf_count(), c.p * (c.p + 2) / 4) << c.p;
    EXPECT_EQ(f->spine_count(), c.p * (c.p + 2) / 8) << c.p;
    // Every switch has p ports, every server one; cables are full duplex.
    const Graph& g = f->graph();
    for (int l = 0; l < f->leaf_count(); ++l) EXPECT_EQ(g.port_count(f->leaf_node(l)), c.p);
    for (int s = 0; s < f->spine_count(); ++s) EXPECT_EQ(g.port_count(f->spine_node(s)), c.p);
    EXPECT_EQ(static_cast<int>(g.link_count()), 2 * (c.servers + f->leaf_count() * c.p / 2));
  }
  EXPECT_EQ(LeafSpine::full_mesh(6)->name(), "leafspine:p=6");
}

// spec: "server = 100 + 10*col + 3*layer + port; leaf = 200 + 10*col + layer;
// spines 240..245 = column pairs (a,b) (a,c) (a,d) (b,c) (b,d) (c,d)".
TEST(LeafSpine, DocumentNumberingForP6) {
  const auto f = LeafSpine::full_mesh(6);
  const Graph& g = f->graph();
  EndpointId e = 0;
  for (int col = 0; col < 4; ++col)
    for (int layer = 0; layer < 3; ++layer)
      for (int port = 0; port < 3; ++port, ++e) {
        const Node& n = g.node(g.endpoint_node(e));
        EXPECT_EQ(n.kind, NodeKind::server);
        EXPECT_EQ(n.label, 100 + 10 * col + 3 * layer + port);
        EXPECT_EQ(g.node(f->leaf_node(f->leaf_of(e))).label, 200 + 10 * col + layer);
        EXPECT_EQ(f->port_of(e), port);
      }
  std::set<int> spines;
  for (int s = 0; s < f->spine_count(); ++s) {
    EXPECT_EQ(g.node(f->spine_node(s)).kind, NodeKind::spine);
    spines.insert(g.node(f->spine_node(s)).label);
  }
  EXPECT_EQ(spines, (std::set<int>{240, 241, 242, 243, 244, 245}));
  // Spine sets: a -> {240,241,242}, b -> {240,243,244}, c -> {241,243,245}, d -> {242,244,245}.
  const std::set<int> expected[4] = {{240, 241, 242}, {240, 243, 244}, {241, 243, 245}, {242, 244, 245}};
  for (int col = 0; col < 4; ++col)
    for (int layer = 0; layer < 3; ++layer) {
      const int leaf = leaf_with_label(*f, 200 + 10 * col + layer);
      ASSERT_GE(leaf, 0);
      EXPECT_EQ(f->column(leaf), col);
      EXPECT_EQ(f->layer(leaf), layer);
      EXPECT_EQ(spine_labels_of_leaf(*f, leaf), expected[col]) << "leaf " << 200 + 10 * col + layer;
    }
  // The document's examples: 201 and 231 meet at 242, 221 and 231 at 245, 202 and 232 at 242.
  auto shared_label = [&](int a, int b) {
    const auto s = f->shared_spines(leaf_with_label(*f, a), leaf_with_label(*f, b));
    return s.size() == 1 ? g.node(f->spine_node(s[0])).label : -1;
  };
  EXPECT_EQ(shared_label(201, 231), 242);
  EXPECT_EQ(shared_label(221, 231), 245);
  EXPECT_EQ(shared_label(202, 232), 242);
  EXPECT_EQ(shared_label(222, 212), 243);
}

// The generalised numbering keeps labels distinct and in the documented bands.
TEST(LeafSpine, GeneralNumberingForLargerRadix) {
  const auto f = LeafSpine::full_mesh(8);  // C = 100, M = 1000
  const Graph& g = f->graph();
  std::set<int> labels;
  for (const Node& n : g.nodes()) EXPECT_TRUE(labels.insert(n.label).second) << n.label;
  EXPECT_EQ(g.node(g.endpoint_node(0)).label, 1000);
  EXPECT_EQ(g.node(g.endpoint_node(79)).label, 1000 + 100 * 4 + 4 * 3 + 3);
  EXPECT_EQ(g.node(f->leaf_node(0)).label, 2000);
  EXPECT_EQ(g.node(f->leaf_node(19)).label, 2000 + 100 * 4 + 3);
  EXPECT_EQ(g.node(f->spine_node(0)).label, 2500);
  EXPECT_EQ(g.node(f->spine_node(9)).label, 2509);
  for (EndpointId e = 1; e < f->endpoint_count(); ++e)
    EXPECT_LT(g.node(g.endpoint_node(e - 1)).label, g.node(g.endpoint_node(e)).label);
}

// spec: "Leaves in different columns share exactly one spine; leaves in the
// same column share all p/2 spines."
TEST(LeafSpine, SharedSpinesByColumn) {
  for (int p : {6, 8, 10}) {
    const auto f = LeafSpine::full_mesh(p);
    for (int a = 0; a < f->leaf_count(); ++a)
      for (int b = 0; b < f->leaf_count(); ++b) {
        if (a == b) continue;
        const auto shared = f->shared_spines(a, b);
        EXPECT_EQ(static_cast<int>(shared.size()), f->column(a) == f->column(b) ? p / 2 : 1) << p << " " << a << " " << b;
        if (f->column(a) == f->column(b)) {
          EXPECT_EQ(shared, f->uplinks(a));
        }
      }
  }
}

TEST(LeafSpine, PortsAreServersThenUplinksAscending) {
  const auto f = LeafSpine::full_mesh(6);
  const Graph& g = f->graph();
  const int leaf = leaf_with_label(*f, 211);
  const Node& n = g.node(f->leaf_node(leaf));
  ASSERT_EQ(n.out_ports.size(), 6u);
  for (int port = 0; port < 3; ++port) EXPECT_EQ(g.node(g.link(n.out_ports[static_cast<std::size_t>(port)]).dst).label, 113 + port);
  const int up[3] = {240, 243, 244};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(g.node(g.link(n.out_ports[static_cast<std::size_t>(3 + i)]).dst).label, up[i]);
  // Spine 243 = (b, c): port 2*layer + side, side 0 = column b.
  const Node& s = g.node(f->spine_node(3));
  ASSERT_EQ(s.label, 243);
  const int expected[6] = {210, 220, 211, 221, 212, 222};
  for (int port = 0; port < 6; ++port)
    EXPECT_EQ(g.node(g.link(s.out_ports[static_cast<std::size_t>(port)]).dst).label, expected[port]);
  EXPECT_EQ(g.link_name(g.find_link(f->leaf_node(leaf_with_label(*f, 201)), f->spine_node(0))), "201:3->240");
}

TEST(LeafSpine, RoutesCrossTheHintedSpine) {
  const auto f = LeafSpine::full_mesh(6);
  const Graph& g = f->graph();
  const EndpointId s100 = server_with_label(*f, 100), s102 = server_with_label(*f, 102);
  const EndpointId s104 = server_with_label(*f, 104), s126 = server_with_label(*f, 126);
  const EndpointId s117 = server_with_label(*f, 117);
  // Same leaf: server -> leaf -> server, whatever the hint.
  for (RouteHint h : {RouteHint{0}, RouteHint{2}, LeafSpine::kHintReceiverPort}) {
    const auto r = f->route(s100, s102, h);
    EXPECT_EQ(r.size(), 2u);
    expect_route_chains(*f, s100, s102, r);
  }
  EXPECT_TRUE(f->route(s100, s100).empty());
  // Same column, other leaf: the hint picks the uplink (index + 1).
  for (int i = 0; i < 3; ++i) {
    const auto r = f->route(s100, s104, LeafSpine::uplink_hint(i));
    ASSERT_EQ(r.size(), 4u);
    expect_route_chains(*f, s100, s104, r);
    EXPECT_EQ(g.node(g.link(r[1].link).dst).label, 240 + i);
    EXPECT_EQ(f->route_spine(s100, s104, LeafSpine::uplink_hint(i)), i);
  }
  // Different columns: only the shared spine is valid (c -> b: 243 = uplink 1 of leaf 222).
  const auto r = f->route(s126, s117, LeafSpine::uplink_hint(1));
  ASSERT_EQ(r.size(), 4u);
  expect_route_chains(*f, s126, s117, r);
  EXPECT_EQ(g.link_name(r[1].link), "222:4->243");
  EXPECT_EQ(g.node(g.link(r[2].link).dst).label, 212);
  const std::string wrong = message_of([&] { (void)f->route(s126, s117, LeafSpine::uplink_hint(0)); });
  EXPECT_NE(wrong.find("241"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("does not reach"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("243"), std::string::npos) << wrong;  // names the valid choice
  EXPECT_NE(message_of([&] { (void)f->route(s126, s117, LeafSpine::uplink_hint(3)); }).find("3 uplinks"),
            std::string::npos);
  // Every policy gives a valid route between every pair.
  for (RouteHint h : {RouteHint{0}, LeafSpine::kHintSenderPort, LeafSpine::kHintReceiverPort,
                      LeafSpine::kHintDestinationMod})
    for (EndpointId a = 0; a < f->endpoint_count(); a += 5)
      for (EndpointId b = 0; b < f->endpoint_count(); ++b)
        if (a != b) expect_route_chains(*f, a, b, f->route(a, b, h));
}

// The static policies inside one column: spine = uplink[key mod p/2].
TEST(LeafSpine, StaticPoliciesInsideAColumn) {
  const auto f = LeafSpine::full_mesh(6);
  const Graph& g = f->graph();
  auto spine_label = [&](EndpointId a, EndpointId b, RouteHint h) {
    return g.node(f->spine_node(f->route_spine(a, b, h))).label;
  };
  const EndpointId s104 = server_with_label(*f, 104), s105 = server_with_label(*f, 105);
  const EndpointId s100 = server_with_label(*f, 100), s106 = server_with_label(*f, 106);
  EXPECT_EQ(spine_label(s104, s100, LeafSpine::kHintSenderPort), 241);    // port 1 of leaf 201
  EXPECT_EQ(spine_label(s105, s106, LeafSpine::kHintSenderPort), 242);    // port 2
  EXPECT_EQ(spine_label(s104, s100, LeafSpine::kHintReceiverPort), 240);  // 100 is port 0
  EXPECT_EQ(spine_label(s105, s106, LeafSpine::kHintReceiverPort), 240);  // 106 is port 0
  EXPECT_EQ(spine_label(s104, s106, LeafSpine::kHintDestinationMod), 240 + s106 % 3);
  // The fabric-wide default policy is chosen when the fabric is built.
  const auto by_sender = LeafSpine::full_mesh(6, SpinePolicy::sender_port);
  EXPECT_EQ(by_sender->name(), "leafspine:p=6,policy=sender_port");
  EXPECT_EQ(by_sender->route_spine(s105, s106, 0), 2);
  EXPECT_EQ(f->route_spine(s105, s106, 0), s106 % 3);  // default destination_mod
}

// spec: the first embodiment, nodes 11..18 on leaves 21..24; uplinks
// 21,22 -> {25,26}; 23,24 -> {26,27}.
constexpr const char* kFirstEmbodiment = R"(# document 002, first embodiment (FIG. 1)
server 11 leaf 21
server 12 leaf 21
server 13 leaf 22
server 14 leaf 22
server 15 leaf 23
server 16 leaf 23
server 17 leaf 24
server 18 leaf 24
uplink 21 25
uplink 21 26
uplink 22 25
uplink 22 26
uplink 23 26
uplink 23 27
uplink 24 26
uplink 24 27
spine 28   # relay device 28 of the figure, not wired in the text
)";

TEST(LeafSpine, FirstEmbodimentWiring) {
  const auto f = LeafSpine::from_wiring(kFirstEmbodiment, "first", "leafspine-wiring:first");
  const Graph& g = f->graph();
  ASSERT_EQ(f->endpoint_count(), 8);
  EXPECT_EQ(f->leaf_count(), 4);
  EXPECT_EQ(f->spine_count(), 4);
  EXPECT_EQ(f->radix(), 0);
  for (EndpointId e = 0; e < 8; ++e) {
    EXPECT_EQ(g.node(g.endpoint_node(e)).label, 11 + e);
    EXPECT_EQ(g.node(f->leaf_node(f->leaf_of(e))).label, 21 + e / 2);
    EXPECT_EQ(f->port_of(e), e % 2);
  }
  EXPECT_EQ(spine_labels_of_leaf(*f, 0), (std::set<int>{25, 26}));
  EXPECT_EQ(spine_labels_of_leaf(*f, 1), (std::set<int>{25, 26}));
  EXPECT_EQ(spine_labels_of_leaf(*f, 2), (std::set<int>{26, 27}));
  EXPECT_EQ(spine_labels_of_leaf(*f, 3), (std::set<int>{26, 27}));
  EXPECT_EQ(f->shared_spines(0, 1).size(), 2u);
  ASSERT_EQ(f->shared_spines(0, 2).size(), 1u);
  EXPECT_EQ(g.node(f->spine_node(f->shared_spines(0, 2)[0])).label, 26);
  EXPECT_THROW((void)f->column(0), TopologyError);
  // 11 -> 15 must cross 26, whatever the policy.
  for (RouteHint h : {RouteHint{0}, LeafSpine::kHintSenderPort, LeafSpine::kHintReceiverPort}) {
    const auto r = f->route(0, 4, h);
    ASSERT_EQ(r.size(), 4u);
    expect_route_chains(*f, 0, 4, r);
    EXPECT_EQ(g.node(g.link(r[1].link).dst).label, 26);
  }
  EXPECT_THROW((void)f->route(0, 4, LeafSpine::uplink_hint(0)), TopologyError);  // 25 does not reach leaf 23
}

TEST(LeafSpine, WiringErrorsNameTheLine) {
  auto error = [](const std::string& text) {
    return message_of([&] { (void)LeafSpine::from_wiring(text, "w", "leafspine-wiring:w"); });
  };
  EXPECT_NE(error("server 1 leaf 2\nuplink 2 3\nbogus 4\n").find("line 3"), std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\nserver 1 leaf 5\n").find("line 2: server 1 is already under leaf 2 (line 1)"),
            std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\nuplink 1 3\n").find("line 2: label 1 is a server (line 1)"), std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\nuplink 2 x\n").find("line 2: 'x' is not a label"), std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\nuplink 2 3\nuplink 2 3\n").find("line 3: uplink 2 -> 3 is listed twice"),
            std::string::npos);
  EXPECT_NE(error("server 1 leaf\n").find("line 1: expected 'server S leaf L'"), std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\npolicy fastest\n").find("line 2"), std::string::npos);
  EXPECT_NE(error("# nothing\n").find("no 'server S leaf L' line"), std::string::npos);
  EXPECT_NE(error("server 1 leaf 2\nserver 3 leaf 4\nuplink 2 5\nuplink 4 6\n").find("leaves 2 and 4 share no spine"),
            std::string::npos);
  // A policy line sets the fabric default.
  const auto f = LeafSpine::from_wiring("server 1 leaf 2\nserver 3 leaf 4\nuplink 2 5\nuplink 4 5\npolicy receiver_port\n",
                                        "w", "leafspine-wiring:w");
  EXPECT_EQ(f->default_policy(), SpinePolicy::receiver_port);
}

TEST(LeafSpine, FactoryFormsAndBadRadix) {
  const auto t = make_topology("leafspine:p=8");
  ASSERT_NE(dynamic_cast<const LeafSpine*>(t.get()), nullptr);
  EXPECT_EQ(t->endpoint_count(), 80);
  EXPECT_EQ(make_topology("leafspine:p=6,policy=receiver_port")->name(), "leafspine:p=6,policy=receiver_port");
  for (const char* bad : {"leafspine:p=7", "leafspine:p=4", "leafspine:p=5", "leafspine:p=66", "leafspine:p=x",
                          "leafspine:p=", "leafspine:"}) {
    const std::string m = message_of([&] { (void)make_topology(bad); });
    EXPECT_NE(m.find("'p'"), std::string::npos) << bad << ": " << m;
    if (std::string(bad) != "leafspine:") {
      EXPECT_NE(m.find("6, 8, 10"), std::string::npos) << bad << ": " << m;
    }
  }
  EXPECT_NE(message_of([] { (void)make_topology("leafspine:p=6,q=1"); }).find("unknown key 'q'"), std::string::npos);
  EXPECT_NE(message_of([] { (void)make_topology("leafspine:p=6,policy=any"); }).find("sender_port"), std::string::npos);
  const auto& forms = topology_forms();
  EXPECT_TRUE(std::any_of(forms.begin(), forms.end(), [](const TopologyForm& f) { return f.prefix == "leafspine"; }));
  EXPECT_TRUE(std::any_of(forms.begin(), forms.end(), [](const TopologyForm& f) { return f.prefix == "leafspine-wiring"; }));

  const std::string path = ::testing::TempDir() + "first_embodiment.wiring";
  {
    std::ofstream out(path);
    out << kFirstEmbodiment;
  }
  const auto w = make_topology("leafspine-wiring:" + path);
  EXPECT_EQ(w->name(), "leafspine-wiring:" + path);
  EXPECT_EQ(w->endpoint_count(), 8);
  std::remove(path.c_str());
  EXPECT_NE(message_of([&] { (void)make_topology("leafspine-wiring:" + path); }).find("cannot open"), std::string::npos);
}
