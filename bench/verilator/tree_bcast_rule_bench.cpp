// Verilator bench of the tree-bcast forwarding rule: rtl/tree_bcast_rule.sv
// (Verilated), the HLS class hls/tree_bcast_rule.hpp and the software
// reference tree_bcast_targets (collectives/algorithms/tree_bcast.cpp), side by side.
//
// For every node of random trees up to 64 nodes, every physical root, the
// node's links on random ports, the logical-root request and a request from
// every neighbour, fed with random gaps and a randomly stalled consumer:
// every cycle the RTL and HLS outputs (in_ready, out_valid, out_mask) must be
// equal, and every answer taken must name exactly the reference's targets.
// Also checks that the RTL assertion reports a message from a non-tree port.
//
//   collnet_tree_bcast_rule_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <Vtree_bcast_rule.h>

#include "collectives/algorithms/tree_bcast.hpp"
#include "hls/tree_bcast_rule.hpp"
#include "bench/verilator/bench_main.hpp"
#include "topology/tree.hpp"

namespace {

using collnet::topology::EndpointId;
using collnet::hls::TreeBcastRuleConfig;
using collnet::hls::TreeBcastRuleInputs;
using collnet::hls::TreeBcastRuleOutputs;
using collnet::topology::kNone;
using collnet::topology::Tree;

using collnet::bench::Mismatch;

class RuleHarness {
 public:
  explicit RuleHarness(const char* trace_file) : rtl_(trace_file) { reset(); }

  void reset() {
    rtl_.reset([](Vtree_bcast_rule& m) { m.in_valid_i = 0; }, 1);
    hls_.reset();
  }

  void configure(const TreeBcastRuleConfig& c) {
    hls_.configure(c);
    rtl_->parent_port_i = c.parent_port;
    rtl_->is_root_i = c.is_root;
    rtl_->child_mask_i = c.child_mask;
  }

  /// Feeds the requests (from_none, from_port) with random gaps and stalls;
  /// returns the answers taken, in order.
  std::vector<std::uint64_t> run(const std::string& where, const std::vector<std::pair<bool, std::uint8_t>>& requests,
                                 std::mt19937_64& rng) {
    std::bernoulli_distribution stall(0.3), gap(0.2);
    std::vector<std::uint64_t> taken;
    std::size_t next = 0;
    for (std::uint64_t c = 0; taken.size() < requests.size(); ++c) {
      if (c > 100'000) throw Mismatch(where + ": answers missing");
      TreeBcastRuleInputs in;
      in.in_valid = next < requests.size() && !gap(rng);
      if (in.in_valid) {
        in.from_none = requests[next].first;
        in.from_port = requests[next].second;
      }
      in.out_ready = !stall(rng);
      const auto out = cycle(where, in);
      if (in.in_valid && out.in_ready) ++next;
      if (out.out_valid && in.out_ready) taken.push_back(out.out_mask);
    }
    return taken;
  }

  /// The RTL assertion is live: a request from a port that is no tree link
  /// must be reported (port 7), legal ones (the parent's 1, the child's 2)
  /// must not.
  collnet::bench::AssertionCheck assertion_check() {
    const auto errors_for = [&](std::uint8_t port) {
      const int errors = rtl_.assertion_errors([&] {
        rtl_->parent_port_i = 1;
        rtl_->is_root_i = 0;
        rtl_->child_mask_i = 0x4;  // child on port 2
        rtl_->in_valid_i = 1;
        rtl_->from_none_i = 0;
        rtl_->from_port_i = port;
        rtl_->out_ready_i = 1;
        rtl_->eval();
        rtl_.clock_edge();
        rtl_->in_valid_i = 0;
        rtl_->eval();
        rtl_.clock_edge();
      });
      reset();
      return errors;
    };
    collnet::bench::AssertionCheck check{"a non-tree port"};
    check.legal_errors = errors_for(2);
    check.legal_errors += errors_for(1);
    check.illegal_errors = errors_for(7);
    return check;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  TreeBcastRuleOutputs cycle(const std::string& where, const TreeBcastRuleInputs& in) {
    const auto hls = hls_.step(in);
    rtl_->in_valid_i = in.in_valid;
    rtl_->from_none_i = in.from_none;
    rtl_->from_port_i = in.from_port;
    rtl_->out_ready_i = in.out_ready;
    rtl_->eval();
    if (!collnet::bench::same_handshake(*rtl_, hls, [&] { return rtl_->out_mask_o == hls.out_mask; }))
      throw Mismatch(where + ": RTL and HLS differ at cycle " + std::to_string(cycles_));
    rtl_.clock_edge();
    ++cycles_;
    return hls;
  }

  collnet::bench::VerilatedRtl<Vtree_bcast_rule> rtl_;
  collnet::hls::TreeBcastRule hls_;
  std::uint64_t cycles_ = 0;
};

std::string run_checks(RuleHarness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions& options) {
  std::uint64_t answers = 0;
  for (std::int32_t n : {1, 2, 3, 6, 11, 25, 40, 64}) {
    const auto parents = Tree::random_parents(n, options.seed + static_cast<std::uint64_t>(n));
    for (EndpointId root = 0; root < n; ++root) {
      const Tree tree(parents, root);
      for (EndpointId v = 0; v < n; ++v) {
        std::vector<std::uint8_t> ports(64);
        for (std::uint8_t p = 0; p < 64; ++p) ports[p] = p;
        std::shuffle(ports.begin(), ports.end(), rng);
        std::map<EndpointId, std::uint8_t> port_of;
        std::map<std::uint8_t, EndpointId> node_at;
        std::size_t i = 0;
        for (EndpointId nb : tree.neighbours(v)) {
          port_of[nb] = ports[i];
          node_at[ports[i]] = nb;
          ++i;
        }
        TreeBcastRuleConfig c;
        c.is_root = tree.parent(v) == kNone;
        if (!c.is_root) c.parent_port = port_of.at(tree.parent(v));
        for (EndpointId ch : tree.children(v)) c.child_mask |= std::uint64_t{1} << port_of.at(ch);
        harness.configure(c);

        std::vector<EndpointId> froms{kNone};
        for (EndpointId nb : tree.neighbours(v)) froms.push_back(nb);
        std::vector<std::pair<bool, std::uint8_t>> requests;
        for (EndpointId f : froms) requests.emplace_back(f == kNone, f == kNone ? 0 : port_of.at(f));
        const std::string where = "n " + std::to_string(n) + " root " + std::to_string(root) + " node " +
                                  std::to_string(v);
        const auto taken = harness.run(where, requests, rng);
        for (std::size_t r = 0; r < froms.size(); ++r) {
          std::set<EndpointId> got;
          for (unsigned p = 0; p < 64; ++p)
            if ((taken[r] >> p) & 1u) {
              auto it = node_at.find(static_cast<std::uint8_t>(p));
              if (it == node_at.end()) throw Mismatch(where + ": mask names unused port " + std::to_string(p));
              got.insert(it->second);
            }
          const auto ref = collnet::collectives::tree_bcast_targets(tree, v, froms[r]);
          if (got != std::set<EndpointId>(ref.begin(), ref.end()) || got.size() != ref.size())
            throw Mismatch(where + " from " + std::to_string(froms[r]) + ": mask differs from tree_bcast_targets");
          ++answers;
        }
      }
    }
  }
  return "tree bcast rule: RTL = HLS = tree_bcast_targets on " + std::to_string(answers) + " answers";
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<RuleHarness>(
      argc, argv, [](RuleHarness& harness) { return harness.assertion_check(); }, run_checks);
}
