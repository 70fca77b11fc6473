#include "topology/routing/selection.hpp"

#include <bit>

namespace collnet::topology {

namespace {

// most-credits: among the non-escape options, the one whose free VC holds
// the most credits (at least `need`, or any with the own VC allocator
// stage), the first listed on a tie; else the first escape option; else the
// first option (it waits there).
int most_credits(const Selection& s) {
  int best = -1;
  int escape = -1;
  int best_credits = -1;
  for (int i = 0; i < s.count; ++i) {
    if (s.options[i].escape) {
      if (escape < 0) escape = i;
      continue;
    }
    const HopOption& o = s.options[i];
    const std::int32_t* credits = s.credits + static_cast<std::ptrdiff_t>(o.port) * s.vcs;
    for (std::uint32_t bits = s.free_vcs[o.port] & s.class_vcs[o.vc_class]; bits != 0; bits &= bits - 1) {
      const int c = credits[std::countr_zero(bits)];
      if ((c >= s.need || s.any_credits) && c > best_credits) {
        best_credits = c;
        best = i;
      }
    }
  }
  return best >= 0 ? best : escape >= 0 ? escape : 0;
}

// queued-x-hops: UGAL's comparison (ugal.cpp). The option with the least
// (flits queued at its output, as its credits show: slots of every VC of the
// far-end buffer not given back) x HopOption::hops, plus the threshold for
// every option but the first (the minimal path); the first on a tie,
// whatever its VCs' state. It applies to decisions with hop weights (the
// first option's is not 0).
bool weighed(const HopOption* options, int /*count*/) { return options[0].hops != 0; }

int queued_x_hops(const Selection& s) {
  int least = 0;
  long least_cost = -1;
  for (int i = 0; i < s.count; ++i) {
    const std::int32_t* credits = s.credits + static_cast<std::ptrdiff_t>(s.options[i].port) * s.vcs;
    long queued = 0;
    const std::int32_t depth = s.depths[s.options[i].port];
    for (int v = 0; v < s.vcs; ++v) queued += depth - credits[v];
    const long weight = s.minimal_weights ? (i == 0 ? 1 : 2) : s.options[i].hops;
    const long cost = queued * weight + (i == 0 ? 0 : s.threshold);
    if (least_cost < 0 || cost < least_cost) {
      least_cost = cost;
      least = i;
    }
  }
  return least;
}

std::vector<SelectionRule> make_rules() {
  std::vector<SelectionRule> rules;
  rules.push_back({"most-credits",
                   "the non-escape output whose free VC holds the most credits, else the first escape output; the VC "
                   "allocator then allocates a VC of that output",
                   &most_credits, nullptr, false});
  rules.push_back({"vc-allocator",
                   "every free VC of every allowed output is requested and the VC allocator's arbitration decides, "
                   "escape outputs included (needs vc_allocator_stage own-allocator)",
                   nullptr, nullptr, false});
  rules.push_back({"queued-x-hops",
                   "the output with the fewest flits queued (credits not given back) x the path's hops "
                   "(HopOption::hops), plus ugal_threshold off the first (minimal) option, the first on a tie; options "
                   "without hop weights: the key output_selection's rule",
                   &queued_x_hops, &weighed, true});
  return rules;
}

}  // namespace

const std::vector<SelectionRule>& selection_rules() {
  static const std::vector<SelectionRule> rules = make_rules();
  return rules;
}

const SelectionRule& find_selection(std::string_view name) {
  std::string accepted;
  for (const auto& r : selection_rules()) {
    if (r.name == name) return r;
    accepted += (accepted.empty() ? "" : ", ") + r.name;
  }
  throw TopologyError("unknown selection rule '" + std::string(name) + "'; accepted: " + accepted);
}

}  // namespace collnet::topology
