// The models' scenario keys are declared once, as typed Keys
// (systemc/network/model_keys.hpp). The configuration structs keep member defaults
// for code that fills them in C++ (tests, benches); a scenario that sets no
// key must read to those same values, field by field, or a run configured in
// C++ and the same run from a scenario would differ. Also: every model key
// has one declaration, its documented default is the one it reads, and a bad
// value is refused naming the key and what it accepts.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <tuple>

#include "collectives/algorithm.hpp"
#include "systemc/nic/barrier_network.hpp"
#include "systemc/run/collective_run.hpp"
#include "systemc/link/link_faults.hpp"
#include "systemc/network/model_keys.hpp"
#include "systemc/router/router_config.hpp"
#include "systemc/run/synthetic.hpp"
#include "tests/support/error_message.hpp"

using namespace collnet;
using namespace collnet::systemc;

namespace {

// Each struct's fields as a tuple: one comparison covers them all.
auto fields(const RouterConfig& c) {
  return std::tuple(c.vcs, c.buffer_flits, c.switching, c.routing_delay, c.allocation_delay, c.traversal_delay,
                    c.link_latency, c.nic_latency, c.arbitration, c.age_width, c.dateline, c.dateline_whole_dimension,
                    c.credit_release_delay, c.separate_vc_allocation, c.vc_allocator_own, c.round_robin_vc_bid,
                    c.allocator, c.atomic_vc_allocation, c.allocator_iterations, c.routing_seed);
}

auto fields(const SyntheticScenario& s) {
  return std::tuple(s.topology, fields(s.router), s.traffic.pattern, s.traffic.shift, s.traffic.hotspot_node,
                    s.traffic.hotspot_fraction, s.load.injection_rate, s.load.packet_flits, s.load.packets_per_node,
                    s.load.periodic, s.load.seed, s.load.route_hint, s.load.random_ties, s.warmup_cycles,
                    s.measure_cycles, s.drain_cycles, s.watchdog_cycles, s.vcd_flow_window, s.route_direction);
}

// controllers is left out: 0 in a scenario that does not set it means "the
// schedule's", which the run decides.
auto fields(const CollectiveScenario& s) {
  const LinkFaultConfig& f = s.link_faults;
  return std::tuple(s.topology, s.algorithm, fields(s.router), s.nic.packet_flits, s.nic.descriptor_queue,
                    s.nic.blocks, s.dispatch, s.schedule_engine, s.barrier.kind, s.barrier.latency, f.error_rate,
                    f.retry, f.replay_flits, f.seed, f.down_text, f.enabled, s.watchdog_cycles, s.max_cycles,
                    s.vcd_flow_window);
}

/// The ConfigError message of `read`.
std::string refusal(const std::function<void()>& read) { return test::error_message<ConfigError>(read); }

}  // namespace

TEST(ModelKeys, AnEmptyScenarioReadsTheStructDefaults) {
  EXPECT_TRUE(fields(router_config_from(Params{})) == fields(RouterConfig{}));
  EXPECT_TRUE(fields(synthetic_from(Params{})) == fields(SyntheticScenario{}));
  EXPECT_TRUE(fields(collective_from(Params{})) == fields(CollectiveScenario{}));
}

// The comparison above can fail: a scenario that sets a key differs from the
// defaults in that field.
TEST(ModelKeys, ASetKeyChangesItsField) {
  EXPECT_FALSE(fields(router_config_from(Params{{"vcs", "3"}})) == fields(RouterConfig{}));
  EXPECT_FALSE(fields(synthetic_from(Params{{"hotspot_fraction", "0.5"}})) == fields(SyntheticScenario{}));
  EXPECT_FALSE(fields(collective_from(Params{{"fault_seed", "2"}})) == fields(CollectiveScenario{}));
}

// One key, `seed`, seeds the per-packet random words of randomized routing
// in both kinds of run (and a synthetic run's sources); its default is the
// seed both used before it applied to collectives.
TEST(ModelKeys, SeedSetsTheRoutingSeedOfBothKindsOfRun) {
  EXPECT_EQ(collective_from(Params{}).router.routing_seed, 1u);
  EXPECT_EQ(collective_from(Params{{"seed", "7"}}).router.routing_seed, 7u);
  EXPECT_EQ(synthetic_from(Params{}).router.routing_seed, 1u);
  const SyntheticScenario s = synthetic_from(Params{{"seed", "9"}});
  EXPECT_EQ(s.router.routing_seed, 9u);
  EXPECT_EQ(s.load.seed, 9u);
}

// One declaration per key: no name is declared twice across the models'
// lists, and packet_flits, which the a2a-optimal builder reads too, is the
// declaration of collectives/.
TEST(ModelKeys, EveryKeyIsDeclaredOnce) {
  std::set<std::string> names;
  for (const auto* keys : {&declared_list<RouterKeys>(), &declared_list<RunKeys>(), &declared_list<SyntheticKeys>(),
                           &declared_list<NicKeys>(), &declared_list<BarrierKeys>(), &declared_list<LinkFaultKeys>(),
                           &collective_keys()})
    for (const Key& k : *keys) EXPECT_TRUE(names.insert(k.name).second) << k.name << " is declared twice";
  EXPECT_EQ(&declared<RunKeys>().packet_flits, &collectives::packet_flits_key());
}

// A value is read as declared: the documented default when absent, the
// value when given, and a refusal naming the key and its range otherwise.
TEST(ModelKeys, ReadsFollowTheDeclaration) {
  EXPECT_EQ(declared<RunKeys>().watchdog_cycles.default_text(), "1000");
  EXPECT_EQ(synthetic_from(Params{{"watchdog_cycles", "77"}}).watchdog_cycles, 77u);
  EXPECT_EQ(collective_from(Params{{"watchdog_cycles", "77"}}).watchdog_cycles, 77u);
  EXPECT_EQ(collective_from(Params{{"packet_flits", "9"}}).nic.packet_flits, 9);
  EXPECT_EQ(synthetic_from(Params{{"packet_flits", "9"}}).load.packet_flits, 9);
  // The refusals name the key and what it accepts.
  const std::string window = refusal([] { (void)synthetic_from(Params{{"vcd_flow_window", "0"}}); });
  EXPECT_NE(window.find("'vcd_flow_window'"), std::string::npos) << window;
  EXPECT_NE(window.find("1000000"), std::string::npos) << window;
  const std::string policy = refusal([] { (void)router_config_from(Params{{"arbitration", "fifo"}}); });
  EXPECT_NE(policy.find("'arbitration'"), std::string::npos) << policy;
  EXPECT_NE(policy.find("round-robin"), std::string::npos) << policy;
}
