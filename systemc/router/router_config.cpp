#include "systemc/router/router_config.hpp"

#include "systemc/router/arbiter.hpp"
#include "systemc/network/model_keys.hpp"

namespace collnet::systemc {

namespace {
void require(bool ok, const std::string& key, const std::string& accepted, int got) {
  if (!ok) throw ConfigError("key '" + key + "': expected " + accepted + ", got " + std::to_string(got));
}
}  // namespace

void RouterConfig::validate() const {
  require(vcs >= 1 && vcs <= 16, "vcs", "1..16", vcs);
  require(buffer_flits >= 1 && buffer_flits <= 4096, "buffer_flits", "1..4096", buffer_flits);
  require(routing_delay >= 0 && routing_delay <= 30, "routing_delay", "0..30", routing_delay);
  require(allocation_delay >= 1 && allocation_delay <= 15, "allocation_delay", "1..15", allocation_delay);
  require(traversal_delay >= 0 && traversal_delay <= 30, "traversal_delay", "0..30", traversal_delay);
  require(link_latency >= 1 && link_latency <= 1000, "link_latency", "1..1000", link_latency);
  require(nic_latency >= 1 && nic_latency <= 1000, "nic_latency", "1..1000", nic_latency);
  require(age_width >= 0 && age_width <= 63, "age_width", "0..63", age_width);
  require(credit_release_delay >= 0 && credit_release_delay <= allocation_delay, "credit_release_delay",
          "0..allocation_delay", credit_release_delay);
  require(allocator_iterations >= 1 && allocator_iterations <= 4, "allocator_iterations", "1..4",
          allocator_iterations);
  if (vc_allocator_own && routing_delay < 1)
    throw ConfigError("key 'vc_allocator_stage': own-allocator allocates VCs in the last cycle of routing_delay; "
                      "expected routing_delay >= 1, got 0");
  if (vc_allocator_selects && !vc_allocator_own)
    throw ConfigError("key 'output_selection': vc-allocator leaves the choice among allowed outputs to the VC "
                      "allocator of its own; expected vc_allocator_stage own-allocator with it (or "
                      "output_selection most-credits)");
  (void)find_arbitration(arbitration);
}

RouterConfig router_config_from(const Params& params) {
  const RouterKeys& k = declared<RouterKeys>();
  RouterConfig c;
  c.vcs = static_cast<int>(k.vcs.integer(params));
  c.buffer_flits = static_cast<int>(k.buffer_flits.integer(params));
  c.buffer_round_trip = k.buffer_sizing.choice(params) == "round-trip";
  c.switching = k.switching.choice(params) == "vct" ? Switching::virtual_cut_through : Switching::wormhole;
  c.arbitration = k.arbitration.choice(params);
  c.age_width = static_cast<int>(k.age_width.integer(params));
  const int total = static_cast<int>(k.router_delay.integer(params));
  c.routing_delay = static_cast<int>(k.routing_delay.integer_within(params, 0, total - 1));
  c.allocation_delay = static_cast<int>(k.allocation_delay.integer_within(params, 1, total - c.routing_delay));
  // The rest of the zero-load router delay is the crossbar pipeline.
  c.traversal_delay = total - c.routing_delay - c.allocation_delay;
  c.link_latency = static_cast<int>(k.link_latency.integer(params));
  c.dateline = k.dateline.boolean(params);
  const std::string vc_stage = k.vc_allocator_stage.choice(params);
  c.separate_vc_allocation = vc_stage == "separate";
  c.vc_allocator_own = vc_stage == "own-allocator";
  c.credit_release_delay = static_cast<int>(k.credit_release_delay.integer_within(params, 0, c.allocation_delay));
  c.round_robin_vc_bid = k.vc_bid.choice(params) == "round-robin";
  c.vc_allocator_selects = k.output_selection.choice(params) == "vc-allocator";
  c.weighed_threshold = k.ugal_threshold.integer(params);
  c.weighed_once = k.ugal_rule.choice(params) == "booksim2";
  c.dateline_whole_dimension = k.dateline_class.choice(params) == "whole-dimension";
  c.allocator = k.allocator.choice(params) == "output-first" ? Allocator::output_first : Allocator::input_first;
  c.atomic_vc_allocation = k.vc_allocation.choice(params) == "atomic";
  c.allocator_iterations = static_cast<int>(k.allocator_iterations.integer(params));
  c.routing = k.routing.text(params);
  std::string unused;
  c.injection_bandwidth = topology::parse_bandwidth(k.injection_bandwidth.text(params), unused);
  c.ejection_bandwidth = topology::parse_bandwidth(k.ejection_bandwidth.text(params), unused);
  c.validate();
  return c;
}

}  // namespace collnet::systemc
