#include "systemc/network/model_keys.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "collectives/algorithm.hpp"
#include "systemc/router/allocator.hpp"
#include "systemc/router/arbiter.hpp"
#include "systemc/run/traffic_pattern.hpp"
#include "topology/routing.hpp"

namespace collnet::systemc {

namespace {

constexpr std::int64_t kMaxSeed = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxCycles = 100000000;

std::vector<std::string> arbitration_policy_names() {
  std::vector<std::string> names;
  for (const auto& p : arbitration_policies()) names.push_back(p.name);
  return names;
}

template <typename List>
std::vector<std::string> names_of(const List& list) {
  std::vector<std::string> names;
  for (const auto& e : list) names.push_back(e.name);
  return names;
}

std::string routing_names_text() {
  std::string names;
  std::vector<std::string> seen;
  for (const auto& f : topology::routing_functions()) {
    if (std::find(seen.begin(), seen.end(), f.name) != seen.end()) continue;  // one name on several topologies
    seen.push_back(f.name);
    names += (names.empty() ? "" : ", ") + f.name;
  }
  return names + " (each on the topologies it runs on)";
}

// Keys injection_bandwidth, ejection_bandwidth (topology::parse_bandwidth).
std::string bandwidth_problem(const std::string& text) {
  std::string error;
  (void)topology::parse_bandwidth(text, error);
  return error;
}
std::string injection_bandwidth_problem(const std::string& text) {
  std::string error;
  const topology::Bandwidth b = topology::parse_bandwidth(text, error);
  if (error.empty() && b.flits > b.cycles)
    error = "bandwidth " + text + " is above 1; accepted: 1/" + std::to_string(topology::kMaxBandwidthCycles) +
            " to 1 flit per cycle (a NIC controller offers one flit a cycle; key controllers adds controllers, "
            "each with its own injection link)";
  return error;
}

std::string routing_name_problem(const std::string& name) {
  for (const auto& f : topology::routing_functions())
    if (f.name == name) return "";
  return "unknown routing function '" + name + "'; accepted: " + routing_names_text();
}

}  // namespace

RouterKeys::RouterKeys()
    : vcs(Key::integer("vcs", "virtual channels per router input port (dateline on a torus needs 2)", 2, 1, 16)),
      buffer_flits(Key::integer("buffer_flits",
                                "depth of each virtual-channel buffer, flits (with buffer_sizing round-trip the "
                                "least: a link whose credit round trip is longer gets that)",
                                8, 1, 4096)),
      buffer_sizing(Key::choice("buffer_sizing",
                                "round-trip (the VC buffers at the end of each link hold at least its credit round "
                                "trip, 2 x latency + allocation_delay + traversal delay + credit_release_delay "
                                "flits, so that one VC keeps any link busy: a dragonfly's 100-cycle cables get 201 "
                                "at router_delay 1) or fixed (buffer_flits on every link: a VC carries at most "
                                "buffer_flits / round trip flits a cycle over a longer link)",
                                "round-trip", {"round-trip", "fixed"})),
      switching(Key::choice("switching",
                            "flow control: wormhole (one free slot) or virtual cut-through (room for the packet)",
                            "wormhole", {"wormhole", "vct"})),
      arbitration(Key::choice("arbitration", "VC and switch arbitration policy", "age", arbitration_policy_names())),
      age_width(Key::integer("age_width",
                             "bits of the age counter of the age arbiter (ages saturate); 0 = exact ages", 0, 0, 63)),
      router_delay(Key::integer("router_delay",
                                "cycles a flit spends in a router at zero load (routing + allocation + traversal)", 1,
                                1, 31)),
      routing_delay(Key::integer("routing_delay", "part of router_delay spent routing a head flit before allocation",
                                 0, 0, 30)
                        .accepting("0..router_delay-1")),
      allocation_delay(Key::integer("allocation_delay",
                                    "part of router_delay from the allocation decision on (the rest, router_delay - "
                                    "routing_delay - allocation_delay, is crossbar traversal)",
                                    1, 1, 31)
                           .accepting("1..router_delay-routing_delay")),
      link_latency(Key::integer("link_latency", "cycles on every network link, for flits and credits", 1, 1, 1000)),
      allocator(Key::choice("allocator",
                            "switch allocator: input-first (each input port picks one ready VC, then each output one "
                            "input port) or output-first (every ready VC requests its output, each output grants one, "
                            "each input port accepts one grant)",
                            "input-first", names_of(switch_allocators()))),
      vc_allocation(Key::choice("vc_allocation",
                                "when a head may take a free output VC: non-atomic (as soon as the VC has a credit, "
                                "wormhole, or room for the packet, vct) or atomic (only once the VC's downstream "
                                "buffer is empty, so a VC buffer never holds two packets)",
                                "non-atomic", {"non-atomic", "atomic"})),
      allocator_iterations(Key::integer("allocator_iterations",
                                        "rounds of switch allocation per cycle (iSLIP-style): inputs and outputs left "
                                        "unmatched by a round try again with their other VCs; priorities move on "
                                        "first-round grants only",
                                        1, 1, 4)),
      dateline(Key::boolean("dateline",
                            "use the topology's dateline VC classes (torus); false lets a packet use any VC", true)),
      credit_release_delay(
          Key::integer("credit_release_delay",
                       "cycles after a flit's allocation decision at which its input buffer slot is freed and its "
                       "credit leaves upstream: 0 = in the decision cycle; a router with separate VC and switch "
                       "allocation stages reads the flit out of its buffer at switch allocation, 1 cycle after the VC "
                       "allocation decision",
                       0, 0, 31)
              .accepting("0..allocation_delay")),
      vc_allocator_stage(Key::choice("vc_allocator_stage",
                                     "combined (one allocation decision gives a head its output VC and the switch), "
                                     "separate (VC allocation is a pipeline stage of its own: an output VC released by "
                                     "a tail is granted to a new head by the VC allocator in the next cycle, and that "
                                     "head bids for the switch in the cycle after; zero-load latency stays "
                                     "router_delay) or own-allocator (a VC allocator of its own, separable, one "
                                     "iteration, rotating priorities, in the last cycle of routing_delay: a routed "
                                     "head takes a free output VC of its class whether or not it has credits and "
                                     "holds it while it bids for the switch from the next cycle on; needs "
                                     "routing_delay >= 1)",
                                     "combined", names_of(vc_allocator_stages()))),
      vc_bid(Key::choice("vc_bid",
                         "which VCs of an input port bid for the switch: all (every ready VC; an output arbiter "
                         "choosing among VCs of one input port takes the lowest) or round-robin (one VC per input port "
                         "and output, picked by a pointer per input port that moves past the VC that last won: the "
                         "per-input VC arbiter in front of a separable switch allocator)",
                         "all", {"all", "round-robin"})),
      dateline_class(Key::choice("dateline_class",
                                 "torus: which hops of a packet take dateline VC class 1: from-wrap (the wrap link "
                                 "and the hops after it in that dimension) or whole-dimension (every hop of a "
                                 "dimension whose route wraps, chosen when the packet enters the dimension; class 0 "
                                 "otherwise)",
                                 "from-wrap", {"from-wrap", "whole-dimension"})),
      routing(Key::text("routing",
                        "routing function (`collnet list` shows each with the topologies it runs on): " +
                            topology::routing_names_by_kind(),
                        "", routing_names_text(), &routing_name_problem)
                  .default_from("the topology's own: " + topology::routing_defaults_by_kind())),
      output_selection(Key::choice("output_selection",
                                   "per-hop routing: how a routed head picks among the outputs its routing function "
                                   "allows: most-credits (the router picks one first: the non-escape output whose "
                                   "free VC holds the most credits, else the escape output; the VC allocator then "
                                   "allocates a VC of that output) or vc-allocator (the head requests every free VC "
                                   "of every allowed output and the VC allocator's arbitration decides, escape "
                                   "outputs included, as a route set offered to BookSim2's VC allocator; needs "
                                   "vc_allocator_stage own-allocator). Options weighed by hops (ugal, "
                                   "ugal-booksim2) are always weighed",
                                   "most-credits", {"most-credits", "vc-allocator"})),
      ugal_threshold(Key::integer("ugal_threshold",
                                  "routing ugal, ugal-booksim2: flits added to the non-minimal path's (flits "
                                  "queued x hops) before the comparison, so the minimal path is kept until the "
                                  "other is clearly emptier (the threshold of Kim et al. 2008, BookSim2's "
                                  "adaptive_threshold); 0: the plain comparison",
                                  0, 0, 1000000)
                         .accepting("0..1000000 (flits x hops)")),
      ugal_rule(Key::choice("ugal_rule",
                            "routing ugal, ugal-booksim2: how the source router weighs the minimal path against "
                            "the non-minimal one: queue-hops (flits queued at each path's output x the path's "
                            "router-to-router hops, weighed again every cycle until the head leaves) or booksim2 "
                            "(BookSim2's "
                            "ugal_dragonflynew: the minimal path while its output's queue <= 2 x the other's + "
                            "ugal_threshold, decided once when the head is routed and kept while it waits; "
                            "BookSim2's threshold is 30)",
                            "queue-hops", {"queue-hops", "booksim2"})),
      injection_bandwidth(Key::text("injection_bandwidth",
                                    "flits per cycle of each NIC controller's injection link (into its router): below 1 "
                                    "the link serializes, a flit every 1/bandwidth cycles on average (see the guide's "
                                    "links of different speeds)",
                                    "1", "1/1024 to 1, as a fraction (1/4), a decimal (0.5) or 1",
                                    &injection_bandwidth_problem)),
      ejection_bandwidth(Key::text("ejection_bandwidth",
                                   "flits per cycle of each NIC controller's ejection link (from its router): below 1 "
                                   "the link serializes, above 1 the router's port sends up to ceil(bandwidth) flits "
                                   "a cycle to the NIC (see the guide's links of different speeds)",
                                   "1", "1/1024 to 16, as a fraction (1/4), a decimal (0.5) or an integer (2)",
                                   &bandwidth_problem)) {}

std::vector<Key> RouterKeys::list() const {
  return {vcs,       buffer_flits,  buffer_sizing, switching,     arbitration,          age_width, router_delay,
          routing_delay, allocation_delay, link_latency, allocator, vc_allocation, allocator_iterations,
          dateline,  credit_release_delay, vc_allocator_stage, vc_bid, dateline_class, routing, output_selection,
          ugal_threshold, ugal_rule, injection_bandwidth, ejection_bandwidth};
}

RunKeys::RunKeys()
    : packet_flits(collectives::packet_flits_key()),
      watchdog_cycles(Key::integer("watchdog_cycles",
                                   "deadlock watchdog: cycles without any flit moving while flits are buffered", 1000,
                                   1, kMaxCycles)),
      vcd_flow_window(Key::integer("vcd_flow_window",
                                   "waveforms: cycles a flow keeps counting as sharing a link after its last flit",
                                   100, 1, 1000000)),
      seed(Key::integer("seed",
                        "random seed: the traffic sources of a synthetic run and, in both kinds of run, the "
                        "per-packet random words of randomized routing (valiant, nca-random, ugal, "
                        "ugal-booksim2); the same seed gives the same run",
                        1, 0, kMaxSeed)),
      threads(Key::integer("threads",
                           "worker threads evaluating each cycle's routers, endpoints and NICs, every figure identical "
                           "to one thread; 0 (the default): the cores this process may use less the one-minute load "
                           "average, at most one thread per 128 routers (smaller networks run on one); a cycle whose "
                           "workers lack a core runs on the main thread alone (see the performance page); "
                           "waveforms, message traces, nic_blocks=rtl, link faults and "
                           "collectives with watchdog_cycles below 64 run on one thread",
                           0, 0, 256)
                  .accepting("0 (automatic) or 1..256")) {}

std::vector<Key> RunKeys::list() const { return {packet_flits, watchdog_cycles, vcd_flow_window, seed, threads}; }

SyntheticKeys::SyntheticKeys()
    : traffic(Key::choice("traffic",
                          "synthetic traffic pattern of `collnet run`; beside 'algorithm', 'workload' or 'jobs', "
                          "background traffic of that pattern for the whole run (on a NIC port of its own; its load "
                          "from injection_rate)",
                          "uniform", pattern_names())),
      injection_rate(Key::real("injection_rate", "offered load: flits created per endpoint per cycle", 0.3, 0.0, 1.0)),
      injection_process(Key::choice("injection_process",
                                    "packet creation: bernoulli (each cycle with probability injection_rate / "
                                    "packet_flits) or periodic (every packet_flits / injection_rate cycles)",
                                    "bernoulli", {"bernoulli", "periodic"})),
      warmup_cycles(Key::integer("warmup_cycles", "cycles before the measurement window", 1000, 0, kMaxCycles)),
      measure_cycles(Key::integer("measure_cycles", "cycles of the measurement window", 10000, 1, kMaxCycles)),
      drain_cycles(Key::integer("drain_cycles", "longest drain after the window before the run gives up waiting",
                                50000, 0, kMaxCycles)),
      packets_per_node(Key::integer("packets_per_node",
                                    "closed run: each endpoint sends this many packets, then the run ends when all "
                                    "arrive (0: open loop with warm-up and window)",
                                    0, 0, kMaxCycles)),
      route_direction(Key::choice("route_direction",
                                  "torus/mesh route hint of every packet: minimal (a half-way tie goes +), "
                                  "minimal-random-tie (a half-way tie goes + or - at random, drawn per packet and "
                                  "dimension), plus or minus only",
                                  "minimal", {"minimal", "minimal-random-tie", "plus", "minus"})),
      traffic_shift(
          Key::integer("traffic_shift", "offset per dimension of the neighbour pattern", 1, -65536, 65536)),
      hotspot_node(Key::integer("hotspot_node", "destination endpoint of the hotspot pattern", 0, 0, 65535)
                       .accepting("0..endpoints-1")),
      hotspot_fraction(Key::real("hotspot_fraction", "share of packets sent to the hotspot", 0.2, 0.0, 1.0)),
      self_packets(Key::choice("self_packets",
                               "a packet the pattern sends to its own source (the diagonal of transpose): drop (never "
                               "created, not offered) or inject (offered and measured; it goes through the source's "
                               "own router from its injection port to its ejection port, as in BookSim2)",
                               "drop", {"drop", "inject"})),
      latency_by(Key::choice("latency_by",
                             "latency of the measured packets also per source (JSON latency_by_source) or per "
                             "source-destination pair (latency_by_source and latency_by_flow); none: only the "
                             "network's",
                             "none", {"none", "source", "flow"})),
      endpoint_attach(Key::choice("endpoint_attach",
                                  "how an endpoint that is a server node (fat tree, dragonfly, leaf/spine, a graph "
                                  "file's servers) joins its switch: server (a router stage of its own on its cable: "
                                  "a packet crosses that stage and cable at both ends, 2 x (router_delay + the "
                                  "cable's latency) cycles more than a NIC at its router) or direct (the NIC sends "
                                  "on the cable straight into the switch's input port and receives from the "
                                  "switch's output port, as BookSim2's terminals; a mesh or torus NIC is at its "
                                  "router already)",
                                  "server", {"server", "direct"})) {}

std::vector<Key> SyntheticKeys::list() const {
  return {traffic,        injection_rate,   injection_process, warmup_cycles, measure_cycles,
          drain_cycles,   packets_per_node, route_direction,   traffic_shift,
          hotspot_node,   hotspot_fraction, self_packets,      latency_by,    endpoint_attach};
}

NicKeys::NicKeys()
    : descriptor_queue(Key::integer("descriptor_queue",
                                    "SEND descriptors each NIC FIFO holds before the schedule engine stalls", 256, 1,
                                    65536)),
      reduce_words_per_cycle(Key::integer("reduce_words_per_cycle",
                                          "words a local SEND that combines (op other than copy: sum, product, max, "
                                          "min, divide) reduces per cycle; 1 = one word a cycle, as a local copy; "
                                          "8 = the rate at which 8 links deliver (document 004's aggregation unit)",
                                          1, 1, 64)) {}

std::vector<Key> NicKeys::list() const { return {descriptor_queue, reduce_words_per_cycle}; }

BarrierKeys::BarrierKeys()
    : barrier(Key::choice("barrier",
                          "side-band barrier network: ideal (every node released barrier_latency cycles after the "
                          "last entry) or recursive-doubling (dissemination over the torus axes, one link latency per "
                          "step)",
                          "ideal", {"ideal", "recursive-doubling"})),
      barrier_latency(Key::integer("barrier_latency", "ideal barrier: cycles from the last node's entry to the release",
                                   10, 1, 1000000)) {}

std::vector<Key> BarrierKeys::list() const { return {barrier, barrier_latency}; }

LinkFaultKeys::LinkFaultKeys()
    : link_error_rate(Key::real("link_error_rate",
                                "probability that a flit is corrupted (one payload bit flips) on one traversal of a "
                                "network link; the receiving end finds it by the flit's CRC-32",
                                0.0, 0.0, 0.5)
                          .accepting("0..0.5 (go-back-n retries a flit until it crosses intact)")),
      link_retry(Key::choice("link_retry",
                             "what a link does with a flit whose CRC fails: go-back-n (NAK, the sender replays from "
                             "its replay buffer; costs the link a round trip of 2 x link_latency cycles per error) or "
                             "none (the corrupted flit is delivered and the data check fails)",
                             "go-back-n", {"go-back-n", "none"})),
      // 0 (not set): 2 x link_latency, the round trip, full rate.
      link_replay_flits(Key::integer("link_replay_flits",
                                     "replay buffer per link: flits the sender keeps until the receiver acknowledges "
                                     "them (fewer than 2 x link_latency throttle the link)",
                                     0, 1, 65536)
                            .default_from("2 x link_latency")),
      fault_seed(Key::integer("fault_seed",
                              "seed of the link error generators (same scenario and seed: same errors, same cycles)",
                              1, 0, kMaxSeed)),
      link_down(Key::text("link_down",
                          "links that fail at a cycle, LINK@CYCLE[,LINK@CYCLE...], LINK named as in "
                          "link_utilization.per_link (e.g. r0:x+->r1@500); traffic that needs the link stalls and the "
                          "run reports a deadlock naming it",
                          "", "link@cycle list")
                    .default_from("none")) {}

std::vector<Key> LinkFaultKeys::list() const {
  return {link_error_rate, link_retry, link_replay_flits, fault_seed, link_down};
}

}  // namespace collnet::systemc
