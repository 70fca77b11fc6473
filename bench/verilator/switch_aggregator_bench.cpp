// Verilator bench of the switch's aggregation engine: rtl/switch_aggregator.sv
// (Verilated), the HLS class hls/switch_aggregator.hpp and the software
// reference (collectives::combine of the children's packets, word by word),
// side by side.
//
// The bench plays the switch at the root of a reduction tree: its children
// each send one packet per block, blocks in one global order (collective by
// collective, block by block), at random rates, so that fast children run
// ahead and fill the table; the switch's arbiter offers one child's packet
// at a time and moves on to the next child when a head is refused; the
// reduced packets the engine sends up come back down (the root's parent is
// itself) after a random delay; the parent and the children take words with
// random stalls. Random writes of OP while the engine is busy must be
// ignored. Every cycle the RTL and HLS outputs must be equal; every reduced
// packet must be the reference's reduction of its block, sent up once, and
// come down unchanged; at the end every slot is free. Runs with more blocks
// in flight than slots, every op, packets of 1 to 32 words (the short ones
// exercise the pipeline's read-after-write wait), 1 to 8 children.
// Also checks that the RTL assertion reports a packet from a port that is
// not a child.
//
//   collnet_switch_aggregator_bench [--seed N] [--trace FILE.fst]
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <Vswitch_aggregator.h>

#include "bench/verilator/bench_main.hpp"
#include "collectives/descriptor.hpp"
#include "collectives/executor.hpp"
#include "hls/switch_aggregator.hpp"

namespace {

using collnet::bench::Mismatch;
using collnet::hls::SwitchAggregatorInputs;
using collnet::hls::SwitchAggregatorOutputs;
namespace reg = collnet::hls::switch_aggregator_reg;

using Packet = std::vector<std::uint64_t>;

struct Scenario {
  std::uint8_t child_mask = 0;
  std::uint8_t op = 1;
  unsigned words = 1;
  unsigned collectives = 1;
  unsigned blocks = 1;  // per collective
};

class AggregatorHarness {
 public:
  explicit AggregatorHarness(const char* trace_file) : rtl_(trace_file) { reset(); }

  void reset() {
    rtl_.reset(
        [](Vswitch_aggregator& m) {
          m.cfg_we_i = 0;
          m.in_valid_i = 0;
          m.dn_valid_i = 0;
          m.up_ready_i = 0;
          m.out_ready_i = 0;
        },
        1);
    hls_.reset();
  }

  /// One cycle: HLS and RTL with the same inputs; their outputs must agree.
  SwitchAggregatorOutputs cycle(const std::string& where, const SwitchAggregatorInputs& in) {
    const SwitchAggregatorOutputs hls = hls_.step(in);
    rtl_->cfg_we_i = in.cfg_we;
    rtl_->cfg_addr_i = in.cfg_addr;
    rtl_->cfg_wdata_i = in.cfg_wdata;
    rtl_->in_valid_i = in.in_valid;
    rtl_->in_child_i = in.in_child;
    rtl_->in_key_i = in.in_key;
    rtl_->in_data_i = in.in_data;
    rtl_->up_ready_i = in.up_ready;
    rtl_->dn_valid_i = in.dn_valid;
    rtl_->dn_key_i = in.dn_key;
    rtl_->dn_data_i = in.dn_data;
    rtl_->out_ready_i = in.out_ready;
    rtl_->eval();
    const auto& r = *rtl_;
    const bool same =
        r.in_ready_o == hls.in_ready && r.up_valid_o == hls.up_valid &&
        (!hls.up_valid || (r.up_key_o == hls.up_key && r.up_data_o == hls.up_data && r.up_last_o == hls.up_last)) &&
        r.dn_ready_o == hls.dn_ready && r.out_valid_o == hls.out_valid &&
        (!hls.out_valid ||
         (r.out_key_o == hls.out_key && r.out_data_o == hls.out_data && r.out_last_o == hls.out_last)) &&
        r.busy_o == hls.busy;
    if (!same) throw Mismatch(where + ": RTL and HLS differ at cycle " + std::to_string(cycles_));
    rtl_.clock_edge();
    ++cycles_;
    return hls;
  }

  void write(const std::string& where, std::uint8_t addr, std::uint32_t data) {
    SwitchAggregatorInputs in;
    in.cfg_we = true;
    in.cfg_addr = addr;
    in.cfg_wdata = data;
    cycle(where, in);
  }

  /// The RTL assertion is live: a packet from port 3 must be reported when
  /// CHILD_MASK holds ports 0 and 1 only, one from port 1 must not.
  collnet::bench::AssertionCheck assertion_check() {
    const auto errors_for = [&](std::uint8_t child) {
      reset();
      write("assertion check", reg::child_mask, 0x3);
      write("assertion check", reg::block_words, 1);
      write("assertion check", reg::control, 1);
      const int errors = rtl_.assertion_errors([&] {
        rtl_->cfg_we_i = 0;
        rtl_->in_valid_i = 1;
        rtl_->in_child_i = child;
        rtl_->in_key_i = 5;
        rtl_->in_data_i = 7;
        rtl_->up_ready_i = 1;
        rtl_->dn_valid_i = 0;
        rtl_->out_ready_i = 1;
        rtl_->eval();
        rtl_.clock_edge();  // the head's probe
        rtl_->eval();
        rtl_.clock_edge();  // taken
        rtl_->in_valid_i = 0;
        rtl_->eval();
        rtl_.clock_edge();
      });
      reset();
      return errors;
    };
    collnet::bench::AssertionCheck check{"a packet from a port that is not a child"};
    check.legal_errors = errors_for(1);
    check.illegal_errors = errors_for(3);
    return check;
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }
  [[nodiscard]] unsigned slots_in_use() const { return hls_.slots_in_use(); }
  [[nodiscard]] bool busy() const { return hls_.busy(); }

 private:
  collnet::bench::VerilatedRtl<Vswitch_aggregator> rtl_;
  collnet::hls::SwitchAggregator<> hls_;
  std::uint64_t cycles_ = 0;
};

std::uint64_t random_word(std::mt19937_64& rng) {
  // extremes of int64 now and then, for max and min
  switch (rng() % 8) {
    case 0: return std::uint64_t{1} << 63;
    case 1: return ~(std::uint64_t{1} << 63);
    case 2: return rng() % 5;
    case 3: return ~std::uint64_t{0} - rng() % 5;
    default: return rng();
  }
}

/// Runs one scenario; returns the blocks reduced. `max_in_flight` records
/// the most slots in use at once.
unsigned run_scenario(AggregatorHarness& h, const Scenario& sc, std::mt19937_64& rng, unsigned& max_in_flight) {
  char mask_hex[8];
  std::snprintf(mask_hex, sizeof mask_hex, "%02x", sc.child_mask);
  const std::string where = "children 0x" + std::string(mask_hex) + " op " + std::to_string(sc.op) + " W " +
                            std::to_string(sc.words) + " blocks " + std::to_string(sc.collectives) + "x" +
                            std::to_string(sc.blocks);
  h.write(where, reg::child_mask, sc.child_mask);
  h.write(where, reg::op, sc.op);
  h.write(where, reg::block_words, sc.words);
  h.write(where, reg::control, 1);

  // every child's packets, in the global order; the reference reduction
  std::vector<std::uint8_t> children;
  for (std::uint8_t c = 0; c < 8; ++c)
    if ((sc.child_mask >> c) & 1u) children.push_back(c);
  std::map<std::uint16_t, Packet> expected;
  std::vector<std::deque<std::pair<std::uint16_t, Packet>>> streams(8);
  for (unsigned k = 0; k < sc.collectives; ++k) {
    for (unsigned b = 0; b < sc.blocks; ++b) {
      const auto key = static_cast<std::uint16_t>((k << 12) | b);
      Packet reduced(sc.words);
      bool first = true;
      for (std::uint8_t c : children) {
        Packet p(sc.words);
        for (auto& w : p) w = random_word(rng);
        for (unsigned i = 0; i < sc.words; ++i)
          reduced[i] = first ? p[i]
                             : collnet::collectives::combine(static_cast<collnet::ReceiveOp>(sc.op),
                                                             collnet::DataType::int64, reduced[i], p[i]);
        first = false;
        streams[c].emplace_back(key, std::move(p));
      }
      expected[key] = reduced;
    }
  }
  // each child's rate: fast children run ahead
  std::vector<double> rate(8);
  for (auto& r : rate) r = std::uniform_real_distribution<double>(0.2, 1.0)(rng);
  std::bernoulli_distribution up_stall(0.25), out_stall(0.25), dn_gap(0.2), op_write(0.01);

  int in_child = -1;  // the child whose packet is in progress
  unsigned in_word = 0, rr = 0;
  bool offered = false;  // a word of the packet is offered and not yet taken: it stays offered
  unsigned head_cycles = 0;  // cycles the head has been offered and refused
  std::map<std::uint16_t, Packet> went_up, came_down;
  Packet up_words, down_words;
  std::deque<std::pair<std::uint64_t, std::pair<std::uint16_t, Packet>>> to_parent;  // (release cycle, packet)
  unsigned dn_word = 0;
  std::uint64_t cycle = 0;
  const std::uint64_t limit = 200'000;
  while (came_down.size() < expected.size()) {
    if (++cycle > limit) throw Mismatch(where + ": no progress (deadlock?) after " + std::to_string(limit) + " cycles");
    SwitchAggregatorInputs in;
    // the arbiter: the packet in progress, else the next child with one waiting
    if (in_child < 0) {
      for (unsigned n = 0; n < 8; ++n) {
        const unsigned c = (rr + n) % 8;
        if (!streams[c].empty() && std::bernoulli_distribution(rate[c])(rng)) {
          in_child = static_cast<int>(c);
          in_word = 0;
          break;
        }
      }
    }
    if (in_child >= 0 && (in_word == 0 || offered || std::bernoulli_distribution(rate[in_child])(rng))) {
      const auto& [key, packet] = streams[in_child].front();
      in.in_valid = true;
      in.in_child = static_cast<std::uint8_t>(in_child);
      in.in_key = key;
      in.in_data = packet[in_word];
    }
    in.up_ready = !up_stall(rng);
    if (!to_parent.empty() && to_parent.front().first <= cycle && !dn_gap(rng)) {
      in.dn_valid = true;
      in.dn_key = to_parent.front().second.first;
      in.dn_data = to_parent.front().second.second[dn_word];
    }
    in.out_ready = !out_stall(rng);
    if (h.busy() && op_write(rng)) {  // ignored while busy
      in.cfg_we = true;
      in.cfg_addr = reg::op;
      in.cfg_wdata = std::array<std::uint32_t, 3>{reg::op_sum, reg::op_max, reg::op_min}[rng() % 3];
    }

    const SwitchAggregatorOutputs out = h.cycle(where, in);
    if (h.slots_in_use() > max_in_flight) max_in_flight = h.slots_in_use();

    offered = in.in_valid && !out.in_ready;
    if (in.in_valid) {
      if (out.in_ready) {
        head_cycles = 0;
        if (++in_word == sc.words) {
          streams[in_child].pop_front();
          in_child = -1;
          rr = (rr + 1) % 8;
        }
      } else if (in_word == 0 && ++head_cycles >= 2) {
        // a head refused in the second cycle it is offered (its table
        // lookup done in the first) is withdrawn: the arbiter moves on
        in_child = -1;
        offered = false;
        head_cycles = 0;
        rr = (rr + 1) % 8;
      }
    }
    if (out.up_valid && in.up_ready) {
      up_words.push_back(out.up_data);
      if (out.up_last != (up_words.size() == sc.words))
        throw Mismatch(where + ": up packet of block " + std::to_string(out.up_key) + ": last flag on word " +
                       std::to_string(up_words.size() - 1));
      if (out.up_last) {
        const auto it = expected.find(out.up_key);
        if (it == expected.end() || went_up.count(out.up_key))
          throw Mismatch(where + ": block " + std::to_string(out.up_key) + " went up unexpected or twice");
        if (up_words != it->second)
          throw Mismatch(where + ": block " + std::to_string(out.up_key) + ": reduced words differ from the reference");
        went_up[out.up_key] = up_words;
        to_parent.emplace_back(cycle + rng() % 8, std::make_pair(out.up_key, up_words));
        up_words.clear();
      }
    }
    if (in.dn_valid && out.dn_ready) {
      if (++dn_word == sc.words) {
        dn_word = 0;
        to_parent.pop_front();
      }
    }
    if (out.out_valid && in.out_ready) {
      down_words.push_back(out.out_data);
      if (out.out_last != (down_words.size() == sc.words))
        throw Mismatch(where + ": down packet of block " + std::to_string(out.out_key) + ": last flag misplaced");
      if (out.out_last) {
        if (came_down.count(out.out_key) || !went_up.count(out.out_key) || went_up[out.out_key] != down_words)
          throw Mismatch(where + ": down packet of block " + std::to_string(out.out_key) + " differs from its result");
        came_down[out.out_key] = down_words;
        down_words.clear();
      }
    }
  }
  // the output register empties, every slot is free
  for (int c = 0; c < 4 && h.busy(); ++c) {
    SwitchAggregatorInputs in;
    in.out_ready = true;
    h.cycle(where, in);
  }
  if (h.busy() || h.slots_in_use() != 0) throw Mismatch(where + ": slots still in use after every block came down");
  return static_cast<unsigned>(expected.size());
}

std::string run_checks(AggregatorHarness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
  unsigned blocks = 0, scenarios = 0, max_in_flight = 0;
  const std::array<std::uint8_t, 3> ops{reg::op_sum, reg::op_max, reg::op_min};
  for (unsigned words : {1u, 2u, 3u, 4u, 5u, 8u, 32u}) {
    for (std::uint8_t op : ops) {
      for (unsigned n_children : {1u, 2u, 3u, 8u}) {
        Scenario sc;
        // n_children random ports of 8
        std::vector<std::uint8_t> ports{0, 1, 2, 3, 4, 5, 6, 7};
        std::shuffle(ports.begin(), ports.end(), rng);
        for (unsigned i = 0; i < n_children; ++i) sc.child_mask |= static_cast<std::uint8_t>(1u << ports[i]);
        sc.op = op;
        sc.words = words;
        sc.collectives = 2;
        sc.blocks = words >= 32 ? 6 : 12;  // 12 to 24 blocks through 8 slots
        blocks += run_scenario(harness, sc, rng, max_in_flight);
        ++scenarios;
      }
    }
  }
  if (max_in_flight != collnet::hls::switch_aggregator_reg::slots)
    throw Mismatch("the table never filled (at most " + std::to_string(max_in_flight) + " slots in use)");
  return "switch aggregator: RTL = HLS = reference on " + std::to_string(blocks) + " blocks of " +
         std::to_string(scenarios) + " scenarios (table full: " + std::to_string(max_in_flight) + " slots)";
}

}  // namespace

int main(int argc, char** argv) {
  return collnet::bench::bench_main<AggregatorHarness>(
      argc, argv, [](AggregatorHarness& harness) { return harness.assertion_check(); }, run_checks);
}
