// Tearing down a run's SystemC objects (TeardownSentinel, network.hpp):
// SystemC 2.3.4 finds a destroyed object by a search from the front of the
// top-level objects, so the teardown is linear only while destroying a module
// removes that module alone. A module's own child processes would stay alive
// and be appended to the top-level objects when it is destroyed; collnet's
// modules keep their method process under the calendar instead.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "systemc/kernel/kernel.hpp"
#include "systemc/network/network.hpp"
#include "topology/topology.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

std::size_t top_level_objects() { return sc_core::sc_get_top_level_objects().size(); }

TEST(Teardown, DestroyingTheNetworkRemovesItsRoutersAndLeavesNothingBehind) {
  const auto topo = topology::make_topology("mesh:3x2");
  const topology::Graph& g = topo->graph();
  const int controllers = 2;
  KernelSession session;
  const std::size_t before = top_level_objects();
  auto network = std::make_unique<Network>(*topo, RouterConfig{}, controllers);
  // The routers are the network's SystemC objects; its links (network links
  // and each controller's injection and ejection links) are plain objects.
  ASSERT_EQ(top_level_objects(), before + g.node_count());
  EXPECT_EQ(network->link_count(), g.link_count());
  EXPECT_EQ(network->injection(topo->endpoint_count() - 1, controllers - 1).name(),
            "inject" + std::to_string(topo->endpoint_count() - 1) + "_" + std::to_string(controllers - 1));
  network.reset();
  // A router's process orphaned into the top-level objects would stay here.
  EXPECT_EQ(top_level_objects(), before);
  for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects())
    EXPECT_EQ(std::string(o->name()).find("process"), std::string::npos) << o->name();
}

}  // namespace
