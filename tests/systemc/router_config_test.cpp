// Scenario keys of the router (router_config.hpp): router_delay is the total
// zero-load delay, split into routing, allocation and traversal; bad values
// are ConfigErrors naming the key.
#include <gtest/gtest.h>

#include "systemc/router/router_config.hpp"

using namespace collnet;
using namespace collnet::systemc;

TEST(RouterConfig, DelayKeysSplitTheTotal) {
  const RouterConfig d = router_config_from(Params{});
  EXPECT_EQ(d.routing_delay, 0);
  EXPECT_EQ(d.allocation_delay, 1);
  EXPECT_EQ(d.traversal_delay, 0);
  EXPECT_EQ(d.vcs, 2);
  EXPECT_EQ(d.buffer_flits, 8);
  EXPECT_EQ(d.arbitration, "age");
  const RouterConfig c = router_config_from(
      Params{{"router_delay", "5"}, {"routing_delay", "1"}, {"allocation_delay", "2"}, {"switching", "vct"},
             {"vcs", "4"}, {"arbitration", "local-through"}, {"dateline", "false"}, {"age_width", "6"}});
  EXPECT_EQ(c.routing_delay, 1);
  EXPECT_EQ(c.allocation_delay, 2);
  EXPECT_EQ(c.traversal_delay, 2);
  EXPECT_EQ(c.router_delay(), 5);
  EXPECT_EQ(c.pipeline_delay(), 4);
  EXPECT_EQ(c.switching, Switching::virtual_cut_through);
  EXPECT_EQ(c.vcs, 4);
  EXPECT_FALSE(c.dateline);
  EXPECT_EQ(c.age_width, 6);
}

TEST(RouterConfig, BadValuesNameTheKey) {
  const auto fails = [](Params p, const std::string& key) {
    try {
      (void)router_config_from(p);
      ADD_FAILURE() << key;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + key + "'"), std::string::npos) << e.what();
    }
  };
  fails({{"router_delay", "0"}}, "router_delay");
  fails({{"router_delay", "2"}, {"routing_delay", "2"}}, "routing_delay");
  fails({{"router_delay", "3"}, {"routing_delay", "1"}, {"allocation_delay", "3"}}, "allocation_delay");
  fails({{"vcs", "0"}}, "vcs");
  fails({{"vcs", "17"}}, "vcs");
  fails({{"buffer_flits", "0"}}, "buffer_flits");
  fails({{"switching", "store-and-forward"}}, "switching");
  fails({{"arbitration", "oldest"}}, "arbitration");
  fails({{"link_latency", "0"}}, "link_latency");
  fails({{"dateline", "maybe"}}, "dateline");
  fails({{"age_width", "64"}}, "age_width");
  fails({{"vc_bid", "lowest"}}, "vc_bid");
  fails({{"vc_allocator_stage", "speculative"}}, "vc_allocator_stage");
  // own-allocator allocates VCs in the last routing cycle: it needs one.
  fails({{"router_delay", "2"}, {"vc_allocator_stage", "own-allocator"}}, "vc_allocator_stage");
  const RouterConfig own = router_config_from(Params{{"router_delay", "4"}, {"routing_delay", "2"},
                                                     {"vc_allocator_stage", "own-allocator"}, {"vc_bid", "round-robin"}});
  EXPECT_TRUE(own.vc_allocator_own);
  EXPECT_FALSE(own.separate_vc_allocation);
  EXPECT_TRUE(own.round_robin_vc_bid);
}
