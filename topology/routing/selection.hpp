// Selection rules: how a router picks among the options of one per-hop
// routing decision (RoutingFunction::next_hops, routing.hpp). The router
// hands a rule the options and, per option, the state of its output port as
// plain values (free-VC mask of the option's class, credits of every VC);
// the rule returns the option to request. A routing function names the
// rule its options need (RoutingFunction::selection, e.g. UGAL's
// queued-x-hops); the others take the key output_selection's (most-credits
// or vc-allocator). The router has no rule of its own.
//
// Adding a rule: a function below (selection.cpp) and one entry in
// selection_rules(); a routing function then names it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/routing.hpp"

namespace collnet::topology {

/// One decision: its options, the state of the router's output ports as
/// plain values, and the router's terms. The rule reads an option's port
/// state by its port and class: free VCs free_vcs[port] & class_vcs[class],
/// credits credits[port * vcs + v].
struct Selection {
  const HopOption* options = nullptr;    // in the routing function's preference order
  int count = 0;                         // options, 1..HopOptions::kMax
  const std::uint16_t* free_vcs = nullptr;   // per output port: its free VCs (bit v: VC v)
  const std::uint16_t* class_vcs = nullptr;  // per VC class: its VCs (bit v)
  const std::int32_t* credits = nullptr;     // per output port and VC: credits
  int vcs = 0;                           // VCs per port
  const std::int32_t* depths = nullptr;  // per output port: slots of each VC of its far-end buffer
  int need = 1;                          // credits a free VC must hold to be taken (wormhole 1, vct the packet)
  bool any_credits = false;              // a free VC is taken whatever its credits (own VC allocator stage)
  long threshold = 0;                    // key ugal_threshold (rules that read it)
  /// Key ugal_rule booksim2 (rules that read the threshold): the minimal
  /// option weighs 1 and the others 2, as BookSim2's ugal_dragonflynew, in
  /// place of the options' hops.
  bool minimal_weights = false;
};

struct SelectionRule {
  std::string name;
  std::string description;  // one line for `collnet list`
  /// The index of the option to request now; null: the router requests
  /// every free VC of every option and its VC allocator decides.
  int (*select)(const Selection& selection) = nullptr;
  /// Whether the rule applies to a decision of these options (null: to
  /// every one); asked once per routed head. Where it does not, the key
  /// output_selection's rule decides.
  bool (*applies)(const HopOption* options, int count) = nullptr;
  bool reads_threshold = false;  // reads the key ugal_threshold
};

/// Every selection rule, in `collnet list` order.
const std::vector<SelectionRule>& selection_rules();

/// The rule `name`; throws TopologyError naming the accepted ones.
const SelectionRule& find_selection(std::string_view name);

}  // namespace collnet::topology
