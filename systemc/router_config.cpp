#include "systemc/router_config.hpp"

#include "systemc/arbiter.hpp"

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
  (void)find_arbitration(arbitration);
}

const std::vector<KeyDoc>& router_keys() {
  static const std::vector<KeyDoc> keys = {
      {"vcs", "virtual channels per router input port (dateline on a torus needs 2)", "2", "1..16"},
      {"buffer_flits", "depth of each virtual-channel buffer, flits", "8", "1..4096"},
      {"switching", "flow control: wormhole (one free slot) or virtual cut-through (room for the packet)",
       "wormhole", "wormhole, vct"},
      {"arbitration", "VC and switch arbitration policy", "age", arbitration_names()},
      {"age_width", "bits of the age counter of the age arbiter (ages saturate); 0 = exact ages", "0", "0..63"},
      {"router_delay", "cycles a flit spends in a router at zero load (routing + allocation + traversal)", "1",
       "1..31"},
      {"routing_delay", "part of router_delay spent routing a head flit before allocation", "0",
       "0..router_delay-1"},
      {"allocation_delay", "part of router_delay from the allocation decision on (the rest, router_delay - "
                           "routing_delay - allocation_delay, is crossbar traversal)", "1",
       "1..router_delay-routing_delay"},
      {"link_latency", "cycles on every network link, for flits and credits", "1", "1..1000"},
      {"allocator", "switch allocator: input-first (each input port picks one ready VC, then each output one input "
                    "port) or output-first (every ready VC requests its output, each output grants one, each input "
                    "port accepts one grant)", "input-first", "input-first, output-first"},
      {"vc_allocation", "when a head may take a free output VC: non-atomic (as soon as the VC has a credit, "
                        "wormhole, or room for the packet, vct) or atomic (only once the VC's downstream buffer is "
                        "empty, so a VC buffer never holds two packets)", "non-atomic", "non-atomic, atomic"},
      {"allocator_iterations", "rounds of switch allocation per cycle (iSLIP-style): inputs and outputs "
       "left unmatched by a round try again with their other VCs; priorities move on first-round grants only", "1", "1..4"},
      {"dateline", "use the topology's dateline VC classes (torus); false lets a packet use any VC", "true",
       "true, false"},
      {"credit_release_delay", "cycles after a flit's allocation decision at which its input buffer slot is "
                               "freed and its credit leaves upstream: 0 = in the decision cycle; a router with "
                               "separate VC and switch allocation stages reads the flit out of its buffer at switch "
                               "allocation, 1 cycle after the VC allocation decision", "0",
       "0..allocation_delay"},
      {"vc_allocator_stage", "combined (one allocation decision gives a head its output VC and the switch), "
                             "separate (VC allocation is a pipeline stage of its own: an output VC released by a "
                             "tail is granted to a new head by the VC allocator in the next cycle, and that head "
                             "bids for the switch in the cycle after; zero-load latency stays router_delay) or "
                             "own-allocator (a VC allocator of its own, separable, one iteration, rotating "
                             "priorities, in the last cycle of routing_delay: a routed head takes a free output VC "
                             "of its class whether or not it has credits and holds it while it bids for the switch "
                             "from the next cycle on; needs routing_delay >= 1)",
       "combined", "combined, separate, own-allocator"},
      {"vc_bid", "which VCs of an input port bid for the switch: all (every ready VC; an output arbiter choosing "
                 "among VCs of one input port takes the lowest) or round-robin (one VC per input port and output, "
                 "picked by a pointer per input port that moves past the VC that last won: the per-input VC "
                 "arbiter in front of a separable switch allocator)",
       "all", "all, round-robin"},
      {"dateline_class", "torus: which hops of a packet take dateline VC class 1: from-wrap (the wrap link and "
                         "the hops after it in that dimension) or whole-dimension (every hop of a dimension whose "
                         "route wraps, chosen when the packet enters the dimension; class 0 otherwise)",
       "from-wrap", "from-wrap, whole-dimension"},
  };
  return keys;
}

RouterConfig router_config_from(const Params& params) {
  RouterConfig c;
  c.vcs = static_cast<int>(params.integer("vcs", c.vcs, 1, 16));
  c.buffer_flits = static_cast<int>(params.integer("buffer_flits", c.buffer_flits, 1, 4096));
  c.switching = params.choice("switching", "wormhole", {"wormhole", "vct"}) == "vct" ? Switching::virtual_cut_through
                                                                                     : Switching::wormhole;
  c.arbitration = params.text("arbitration", c.arbitration);
  (void)find_arbitration(c.arbitration);
  c.age_width = static_cast<int>(params.integer("age_width", 0, 0, 63));
  const int total = static_cast<int>(params.integer("router_delay", 1, 1, 31));
  c.routing_delay = static_cast<int>(params.integer("routing_delay", 0, 0, total - 1));
  c.allocation_delay = static_cast<int>(params.integer("allocation_delay", 1, 1, total - c.routing_delay));
  // The rest of the zero-load router delay is the crossbar pipeline.
  c.traversal_delay = total - c.routing_delay - c.allocation_delay;
  c.link_latency = static_cast<int>(params.integer("link_latency", 1, 1, 1000));
  c.dateline = params.boolean("dateline", true);
  const std::string vc_stage =
      params.choice("vc_allocator_stage", "combined", {"combined", "separate", "own-allocator"});
  c.separate_vc_allocation = vc_stage == "separate";
  c.vc_allocator_own = vc_stage == "own-allocator";
  c.credit_release_delay = static_cast<int>(params.integer("credit_release_delay", 0, 0, c.allocation_delay));
  c.round_robin_vc_bid = params.choice("vc_bid", "all", {"all", "round-robin"}) == "round-robin";
  c.dateline_whole_dimension =
      params.choice("dateline_class", "from-wrap", {"from-wrap", "whole-dimension"}) == "whole-dimension";
  c.allocator = params.choice("allocator", "input-first", {"input-first", "output-first"}) == "output-first"
                    ? Allocator::output_first
                    : Allocator::input_first;
  c.atomic_vc_allocation = params.choice("vc_allocation", "non-atomic", {"non-atomic", "atomic"}) == "atomic";
  c.allocator_iterations =
      static_cast<int>(params.integer("allocator_iterations", c.allocator_iterations, 1, 4));
  c.validate();
  return c;
}

}  // namespace collnet::systemc
