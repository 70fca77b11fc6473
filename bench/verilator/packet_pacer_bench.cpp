// Verilator bench of the packet pacer: rtl/packet_pacer.sv (Verilated), the
// HLS class hls/packet_pacer.hpp and the reference timing model
// collectives/algorithms/pacer_timing.hpp, side by side.
//
// Every cycle the RTL and the HLS class get the same inputs and must drive
// the same outputs (in_ready, out_valid, out_data, out_last). At the end of a
// stream the cycle of every flit at the output must equal the reference
// model's, and the flits must leave in order with their data and last
// markers. Streams: random packets, gaps, slacks, controller bubbles and port
// stalls; and the packets every controller of every endpoint injects when it
// runs a registered collective (a2a-hopgroup: gap = hops - 1), with and
// without random back-pressure.
//
//   collnet_packet_pacer_bench [--seed N] [--random N] [--no-collectives] [--trace FILE.fst] [--verbose]
// (--random 5 --no-collectives --trace pacer.fst gives a small waveform)
//
// Exit status 0 when everything agrees, 1 on the first mismatch (printed).
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <Vpacket_pacer.h>

#include "collectives/algorithm.hpp"
#include "collectives/algorithms/pacer_timing.hpp"
#include "hls/packet_pacer.hpp"
#include "bench/verilator/bench_main.hpp"
#include "topology/topology.hpp"

namespace {

using collnet::collectives::PacedPacket;

struct Stream {
  std::string name;
  std::vector<PacedPacket> packets;
  std::vector<std::uint64_t> offered;  // first cycle the controller offers flit f
  std::vector<bool> stalled;           // port not ready in cycle c
  std::uint64_t data_seed = 0;
};

using collnet::bench::Mismatch;

struct OutFlit {
  std::uint64_t cycle;
  std::uint64_t data;
  bool last;
};

/// Runs one stream through the RTL and the HLS class in lockstep.
class PacerHarness {
 public:
  explicit PacerHarness(const char* trace_file) : rtl_(trace_file) {}

  /// The RTL assertions are live: a controller that withdraws an offered
  /// flit before it is taken must be reported, a legal transfer must not.
  /// (Runs in the harness's own context: Verilator keeps one context per
  /// thread, so the check must not create a second one.)
  collnet::bench::AssertionCheck assertion_check() {
    const auto cycle = [&](bool valid, bool ready) {
      rtl_->in_valid_i = valid;
      rtl_->out_ready_i = ready;
      rtl_->in_data_i = 42;
      rtl_->in_last_i = 1;
      rtl_->in_gap_i = 0;
      rtl_->in_slack_i = 0;
      rtl_->eval();
      rtl_.clock_edge();
    };
    collnet::bench::AssertionCheck check{"a withdrawn flit"};
    check.legal_errors = rtl_.assertion_errors([&] {
      reset();
      cycle(true, true);  // legal: offered and taken
    });
    check.illegal_errors = rtl_.assertion_errors([&] {
      cycle(true, false);  // offered, not taken ...
      cycle(false, true);  // ... and withdrawn: a contract violation
      cycle(false, true);
    });
    return check;
  }

  /// Runs one stream; adds the cycles it took to cycles().
  void run(const Stream& s) {
    struct Flit {
      std::uint64_t data;
      bool last;
      std::uint8_t gap;
      std::uint8_t slack;
    };
    std::vector<Flit> flits;
    for (const PacedPacket& p : s.packets)
      for (std::uint32_t i = 0; i < p.flits; ++i)
      {
        // gap and slack count on the head flit only: drive junk on the others
        const std::uint64_t data = collnet::collectives::payload_word(s.data_seed, p.flits, flits.size());
        const bool head = i == 0;
        flits.push_back({data, i + 1 == p.flits, head ? p.gap : static_cast<std::uint8_t>(data >> 8),
                         head ? p.slack : static_cast<std::uint8_t>(data >> 16)});
      }

    reset();
    std::vector<OutFlit> rtl_out;
    std::vector<OutFlit> hls_out;
    std::size_t next = 0;  // the flit the controller offers
    std::uint64_t cycle = 0;
    for (; next < flits.size(); ++cycle) {
      if (cycle > limit_cycles(s)) throw Mismatch(s.name + ": no progress after " + std::to_string(cycle) + " cycles");
      const Flit& f = flits[next];
      collnet::hls::PacketPacerInputs in;
      in.in_valid = cycle >= (next < s.offered.size() ? s.offered[next] : 0);
      in.in_data = f.data;
      in.in_last = f.last;
      in.in_gap = f.gap;
      in.in_slack = f.slack;
      in.out_ready = !(cycle < s.stalled.size() && s.stalled[cycle]);

      const collnet::hls::PacketPacerOutputs hls = hls_.step(in);

      rtl_->in_valid_i = in.in_valid;
      rtl_->in_data_i = in.in_data;
      rtl_->in_last_i = in.in_last;
      rtl_->in_gap_i = in.in_gap;
      rtl_->in_slack_i = in.in_slack;
      rtl_->out_ready_i = in.out_ready;
      rtl_->eval();
      const auto same_flit = [&] { return rtl_->out_data_o == hls.out_data && rtl_->out_last_o == hls.out_last; };
      if (!collnet::bench::same_handshake(*rtl_, hls, same_flit))
        throw Mismatch(s.name + ": RTL and HLS outputs differ at cycle " + std::to_string(cycle) +
                       " (RTL in_ready " + std::to_string(rtl_->in_ready_o) + " out_valid " +
                       std::to_string(rtl_->out_valid_o) + ", HLS in_ready " + std::to_string(hls.in_ready) +
                       " out_valid " + std::to_string(hls.out_valid) + ")");
      if (hls.out_valid && in.out_ready) hls_out.push_back({cycle, hls.out_data, hls.out_last});
      if (rtl_->out_valid_o && in.out_ready) rtl_out.push_back({cycle, rtl_->out_data_o, rtl_->out_last_o != 0});
      // the controller sees the transfer on its own side of the gate
      if (in.in_valid && rtl_->in_ready_o) ++next;
      rtl_.clock_edge();
    }
    cycles_ += cycle;

    const std::vector<std::uint64_t> reference =
        collnet::collectives::pacer_flit_cycles(s.packets, s.offered, s.stalled);
    if (rtl_out.size() != flits.size() || hls_out.size() != flits.size() || reference.size() != flits.size())
      throw Mismatch(s.name + ": flit counts differ (offered " + std::to_string(flits.size()) + ", RTL " +
                     std::to_string(rtl_out.size()) + ", HLS " + std::to_string(hls_out.size()) + ", reference " +
                     std::to_string(reference.size()) + ")");
    for (std::size_t i = 0; i < flits.size(); ++i) {
      const auto where = s.name + ": flit " + std::to_string(i);
      if (rtl_out[i].cycle != reference[i] || hls_out[i].cycle != reference[i])
        throw Mismatch(where + " leaves at cycle " + std::to_string(rtl_out[i].cycle) + " (RTL), " +
                       std::to_string(hls_out[i].cycle) + " (HLS); reference " + std::to_string(reference[i]));
      if (rtl_out[i].data != flits[i].data || rtl_out[i].last != flits[i].last || hls_out[i].data != flits[i].data ||
          hls_out[i].last != flits[i].last)
        throw Mismatch(where + ": data or last marker lost, duplicated or reordered");
    }
  }

  [[nodiscard]] std::uint64_t cycles() const { return cycles_; }

 private:
  static std::uint64_t limit_cycles(const Stream& s) {
    std::uint64_t bound = s.stalled.size() + (s.offered.empty() ? 0 : s.offered.back()) + 16;
    for (const PacedPacket& p : s.packets) bound += std::uint64_t{p.flits} * (p.gap + 1u) + p.slack + 1;
    return bound;
  }

  void reset() {
    hls_.reset();
    rtl_.reset([](Vpacket_pacer& m) {
      m.in_valid_i = 0;
      m.out_ready_i = 0;
    });
  }

  collnet::bench::VerilatedRtl<Vpacket_pacer> rtl_;
  collnet::hls::PacketPacer<> hls_;
  std::uint64_t cycles_ = 0;
};

std::vector<std::uint64_t> bubbles(std::mt19937_64& rng, std::size_t flits, double probability) {
  std::vector<std::uint64_t> offered;
  std::bernoulli_distribution bubble(probability);
  std::uint64_t t = 0;
  for (std::size_t f = 0; f < flits; ++f) {
    while (bubble(rng)) ++t;
    offered.push_back(t);
  }
  return offered;
}

std::vector<bool> stalls(std::mt19937_64& rng, const std::vector<PacedPacket>& packets, double probability) {
  if (probability <= 0) return {};
  std::uint64_t busy = 0;
  for (const PacedPacket& p : packets) busy += std::uint64_t{p.flits} * (p.gap + 1u) + p.slack;
  std::vector<bool> stalled(static_cast<std::size_t>(static_cast<double>(busy) / (1 - probability)) + 64);
  std::bernoulli_distribution stall(probability);
  for (std::size_t c = 0; c < stalled.size(); ++c) stalled[c] = stall(rng);
  return stalled;
}

std::size_t flit_count(const std::vector<PacedPacket>& packets) {
  std::size_t n = 0;
  for (const PacedPacket& p : packets) n += p.flits;
  return n;
}

std::vector<Stream> random_streams(std::mt19937_64& rng, int count) {
  std::vector<Stream> streams;
  const std::uint8_t slacks[] = {0, 0, 1, 2, 5, 255};
  const double stall_probabilities[] = {0.0, 0.1, 0.5, 0.9};
  for (int i = 0; i < count; ++i) {
    Stream s;
    s.name = "random stream " + std::to_string(i);
    const int packets = std::uniform_int_distribution<int>(1, 40)(rng);
    for (int j = 0; j < packets; ++j) {
      PacedPacket p;
      p.flits = std::uniform_int_distribution<std::uint32_t>(1, 17)(rng);
      p.gap = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 7)(rng));
      if (i % 10 == 0) p.gap = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng));
      p.slack = slacks[std::uniform_int_distribution<int>(0, 5)(rng)];
      s.packets.push_back(p);
    }
    s.offered = bubbles(rng, flit_count(s.packets), i % 3 == 0 ? 0.0 : 0.3);
    s.stalled = stalls(rng, s.packets, stall_probabilities[i % 4]);
    s.data_seed = rng();
    streams.push_back(std::move(s));
  }
  // The longest packet the RTL parameters allow, with the largest gap and
  // slack: the hold accumulator must not wrap.
  Stream longest;
  longest.name = "longest packet";
  longest.packets = {{collnet::hls::PacketPacer<>::max_packet_flits, 255, 255}, {1, 255, 255}, {2, 0, 0}};
  longest.data_seed = 1;
  streams.push_back(std::move(longest));
  return streams;
}

/// Collectives the bench paces: every registered algorithm on the
/// topologies below that it accepts (ConfigError = not supported: skipped);
/// together they cover every algorithm of collectives/ (the bench fails if one
/// is left without a stream).
struct CollectiveCase {
  std::string topology;
  collnet::Params params;
};

std::vector<CollectiveCase> collective_cases() {
  return {
      {"torus:4x4", {{"message_flits", "12"}}},
      {"torus:4x4", {{"message_flits", "12"}, {"gap_slack", "3"}}},
      {"torus:4x4", {{"message_flits", "12"}, {"directions", "both"}}},
      {"mesh:4x4", {{"message_flits", "12"}}},
      {"torus:5x3", {{"message_flits", "7"}}},
      {"torus:4x4x4", {{"message_flits", "6"}}},
      {"torus:4x4x4", {{"message_flits", "6"}, {"mode3d", "concurrent"}}},
      {"leafspine:p=6", {}},
      {"leafspine:p=8", {{"elements", "40"}}},
      {"tree:kary=2,n=15", {}},
      {"tree:random=20,seed=3", {}},
      {"boards:2x2x1x1", {}},
      {"boards:2x2x2x2", {}},
      // imported MSCCL-IR programs (examples/msccl): 8 channels on 8 controllers; scratch buffers and local reduces
      {"torus:4x2", {{"schedule", COLLNET_SOURCE_DIR "/examples/msccl/allreduce_ring_llp128_8ch_8.xml"}}},
      {"torus:4x4", {{"schedule", COLLNET_SOURCE_DIR "/examples/msccl/hier_allreduce_4x4.xml"}}},
  };
}

/// The pacer bench's own options.
struct PacerOptions {
  int random_count = 400;
  bool no_collectives = false;
  bool verbose = false;
};

std::string run_checks(PacerHarness& harness, std::mt19937_64& rng, const PacerOptions& options) {
  std::uint64_t streams = 0, flits = 0;
  for (const Stream& s : random_streams(rng, options.random_count)) {
    harness.run(s);
    flits += flit_count(s.packets);
    ++streams;
  }
  std::printf("random streams: %llu streams, %llu flits, %llu cycles agree\n",
              static_cast<unsigned long long>(streams), static_cast<unsigned long long>(flits),
              static_cast<unsigned long long>(harness.cycles()));

  for (const auto& algorithm : collnet::collectives::algorithms()) {
    if (options.no_collectives) break;
    std::uint64_t algorithm_streams = 0;
    for (const CollectiveCase& c : collective_cases()) {
      // a case that sets a key the algorithm does not read would repeat another
      bool reads_every_key = true;
      for (const auto& entry : c.params.values()) {
        bool known = false;
        for (const auto& key : collnet::collectives::common_keys()) known = known || key.name == entry.first;
        for (const auto& key : algorithm.keys) known = known || key.name == entry.first;
        reads_every_key = reads_every_key && known;
      }
      if (!reads_every_key) continue;
      const auto topology = collnet::topology::make_topology(c.topology);
      collnet::collectives::Schedule schedule;
      try {
        schedule = algorithm.build(*topology, c.params);
      } catch (const collnet::ConfigError& e) {
        if (options.verbose)
          std::printf("  %s on %s: skipped (%s)\n", algorithm.name.c_str(), c.topology.c_str(), e.what());
        continue;
      }
      std::string label = algorithm.name + " on " + c.topology;
      for (const auto& [key, value] : c.params.values()) label += " " + key + "=" + value;
      std::uint64_t case_flits = 0, case_streams = 0, max_gap = 0;
      for (std::size_t e = 0; e < schedule.endpoints(); ++e)
        for (int controller = 0; controller < schedule.controllers; ++controller)
          for (const std::uint32_t packet_flits : {4u, 16u}) {
            Stream s;
            s.packets = collnet::collectives::controller_packets(
                schedule.programs[e], static_cast<collnet::topology::EndpointId>(e), controller, packet_flits);
            if (s.packets.empty()) continue;
            for (const PacedPacket& p : s.packets) max_gap = std::max<std::uint64_t>(max_gap, p.gap);
            s.data_seed = e * 8 + static_cast<std::uint64_t>(controller);
            const std::string where = label + " endpoint " + std::to_string(e) + " controller " +
                                      std::to_string(controller) + " packets of " + std::to_string(packet_flits);
            s.name = where + " (port always ready)";
            harness.run(s);
            // and under back-pressure with controller bubbles
            s.name = where + " (random back-pressure)";
            s.offered = bubbles(rng, flit_count(s.packets), 0.2);
            s.stalled = stalls(rng, s.packets, 0.3);
            harness.run(s);
            case_flits += 2 * flit_count(s.packets);
            case_streams += 2;
          }
      flits += case_flits;
      streams += case_streams;
      algorithm_streams += case_streams;
      std::printf("%s: %llu streams, %llu flits agree (largest gap %llu)\n", label.c_str(),
                  static_cast<unsigned long long>(case_streams), static_cast<unsigned long long>(case_flits),
                  static_cast<unsigned long long>(max_gap));
    }
    if (algorithm_streams == 0)
      throw Mismatch(algorithm.name + ": no topology of the bench gives it a packet stream (add one to "
                     "collective_cases())");
  }
  return "packet pacer: RTL = HLS = reference on " + std::to_string(streams) + " streams, " + std::to_string(flits) +
         " flits";
}

}  // namespace

int main(int argc, char** argv) {
  PacerOptions options;
  return collnet::bench::bench_main<PacerHarness>(
      argc, argv, [](PacerHarness& harness) { return harness.assertion_check(); },
      [&](PacerHarness& harness, std::mt19937_64& rng, const collnet::bench::BenchOptions&) {
        return run_checks(harness, rng, options);
      },
      [&](CLI::App& app) {
        app.add_option("--random", options.random_count, "random streams (default 400)");
        app.add_flag("--no-collectives", options.no_collectives,
                     "only the random streams, not the collectives' packets");
        app.add_flag("--verbose", options.verbose, "name the collectives skipped");
      });
}
