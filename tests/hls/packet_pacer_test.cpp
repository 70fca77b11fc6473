// The HLS packet pacer against closed forms from the spec and against the
// independent reference timing model (collectives/algorithms/pacer_timing.hpp).
#include "hls/packet_pacer.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "collectives/algorithms/pacer_timing.hpp"

namespace collnet::hls {

using collectives::PacedPacket;
using collectives::pacer_flit_cycles;

namespace {

struct PacedFlit {
  std::uint64_t cycle;
  std::uint64_t data;
  bool last;
};

/// Drives the class cycle by cycle: a controller that offers flit f from
/// cycle offered[f] on (and not before flit f-1 is taken), holding it stable
/// until taken, and a port that is not ready in the cycles `port_stalled`.
template <unsigned W = 12>
std::vector<PacedFlit> run_pacer(const std::vector<PacedPacket>& packets, const std::vector<std::uint64_t>& offered,
                                 const std::vector<bool>& port_stalled) {
  struct Flit {
    std::uint64_t data;
    bool last;
    PacedPacket packet;
  };
  std::vector<Flit> flits;
  for (const PacedPacket& p : packets)
    for (std::uint32_t i = 0; i < p.flits; ++i)
      flits.push_back({0x1000 * flits.size() + 7, i + 1 == p.flits, p});

  PacketPacer<W> pacer;
  std::vector<PacedFlit> out;
  std::size_t next = 0;
  for (std::uint64_t cycle = 0; next < flits.size(); ++cycle) {
    if (cycle > 10'000'000) {
      ADD_FAILURE() << "pacer made no progress";
      break;
    }
    PacketPacerInputs in;
    in.in_valid = cycle >= (next < offered.size() ? offered[next] : 0);
    in.in_data = flits[next].data;
    in.in_last = flits[next].last;
    // gap and slack count on the head flit only (contract): junk on the others
    const bool head = next == 0 || flits[next - 1].last;
    in.in_gap = head ? flits[next].packet.gap : static_cast<std::uint8_t>(cycle * 37 + 11);
    in.in_slack = head ? flits[next].packet.slack : static_cast<std::uint8_t>(cycle * 53 + 5);
    in.out_ready = !(cycle < port_stalled.size() && port_stalled[cycle]);
    const PacketPacerOutputs o = pacer.step(in);
    EXPECT_EQ(o.out_valid && in.out_ready, in.in_valid && o.in_ready) << "handshakes differ at cycle " << cycle;
    if (o.out_valid && in.out_ready) {
      out.push_back({cycle, o.out_data, o.out_last});
      ++next;
    }
  }
  return out;
}

}  // namespace

// Spec glossary: gap = 0 sends back to back; with a ready port every flit
// leaves one cycle after the previous one.
TEST(PacketPacer, GapZeroSendsBackToBack) {
  const std::vector<PacedPacket> packets(5, PacedPacket{4, 0, 0});
  const auto out = run_pacer(packets, {}, {});
  ASSERT_EQ(out.size(), 20u);
  for (std::size_t f = 0; f < out.size(); ++f) EXPECT_EQ(out[f].cycle, f);
}

// Spec glossary: after a packet of P flits the controller stays idle for
// gap x P flit times (+ slack cycles, spec a2a-hopgroup "Pacing"). Packet j
// of a flow therefore starts at j x (P x (gap+1) + slack).
TEST(PacketPacer, HeadOfPacketJStartsAfterJPeriods) {
  for (const std::uint32_t flits : {1u, 3u, 8u})
    for (const std::uint8_t gap : {0, 1, 3, 7})
      for (const std::uint8_t slack : {0, 1, 5}) {
        const std::vector<PacedPacket> packets(4, PacedPacket{flits, gap, slack});
        const auto out = run_pacer(packets, {}, {});
        ASSERT_EQ(out.size(), 4u * flits);
        for (std::uint32_t j = 0; j < 4; ++j)
          for (std::uint32_t i = 0; i < flits; ++i)
            EXPECT_EQ(out[j * flits + i].cycle, j * (flits * (gap + 1u) + slack) + i)
                << "P=" << flits << " gap=" << int{gap} << " slack=" << int{slack} << " packet " << j;
      }
}

// The hold after a packet uses the length of the packet just sent: a short
// last packet of a SEND is followed by a shorter hold.
TEST(PacketPacer, HoldScalesWithTheLengthOfThePacketJustSent) {
  const std::vector<PacedPacket> packets = {{5, 2, 0}, {2, 2, 0}, {1, 0, 0}};
  const auto out = run_pacer(packets, {}, {});
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[5].cycle, 5u + 2 * 5);          // head of packet 1 after 10 idle cycles
  EXPECT_EQ(out[7].cycle, out[6].cycle + 1 + 2 * 2);  // head of packet 2 after 4 idle cycles
}

// Spec a2a-hopgroup "Pacing": k flows over one link, each with gap k-1 and
// started one packet time apart, share the link like time slots: every cycle
// carries exactly one flit and no two flows ever want the same cycle.
TEST(PacketPacer, KFlowsWithGapKMinusOneFillTheLinkWithoutConflict) {
  for (std::uint32_t k = 1; k <= 7; ++k) {
    const std::uint32_t flits = 4, packets_per_flow = 6;
    std::vector<int> owner(k * flits * packets_per_flow, -1);
    for (std::uint32_t flow = 0; flow < k; ++flow) {
      const std::vector<PacedPacket> packets(packets_per_flow,
                                             PacedPacket{flits, static_cast<std::uint8_t>(k - 1), 0});
      const auto out = run_pacer(packets, std::vector<std::uint64_t>(1, flow * flits), {});
      for (const auto& f : out) {
        ASSERT_LT(f.cycle, owner.size());
        EXPECT_EQ(owner[f.cycle], -1) << "k=" << k << ": cycle " << f.cycle << " used twice";
        owner[f.cycle] = static_cast<int>(flow);
      }
    }
    for (std::size_t c = 0; c < owner.size(); ++c) EXPECT_NE(owner[c], -1) << "k=" << k << ": idle cycle " << c;
  }
}

// Handshake contract: out_valid never depends on out_ready.
TEST(PacketPacer, ValidDoesNotDependOnReady) {
  PacketPacer<> pacer;
  std::uint64_t seed = 12345;
  for (int cycle = 0; cycle < 5000; ++cycle) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    PacketPacerInputs in;
    in.in_valid = (seed >> 33) & 1;
    in.in_last = ((seed >> 34) & 3) == 0;
    in.in_gap = static_cast<std::uint8_t>((seed >> 40) & 3);
    in.in_slack = static_cast<std::uint8_t>((seed >> 44) & 3);
    in.in_data = seed;
    in.out_ready = false;
    const bool valid_not_ready = pacer.outputs(in).out_valid;
    in.out_ready = true;
    EXPECT_EQ(pacer.outputs(in).out_valid, valid_not_ready);
    in.out_ready = (seed >> 50) & 1;
    pacer.step(in);
  }
}

// The HLS top function is the class (one call = one cycle).
TEST(PacketPacer, TopFunctionMatchesTheClass) {
  PacketPacer<> pacer;
  std::uint64_t seed = 99;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const PacketPacerInputs in{((seed >> 33) & 1) != 0, seed, ((seed >> 35) & 3) == 0,
                               static_cast<std::uint8_t>((seed >> 40) & 3),
                               static_cast<std::uint8_t>((seed >> 44) & 3), ((seed >> 50) & 1) != 0};
    const PacketPacerOutputs expected = pacer.step(in);
    bool in_ready = false, out_valid = false, out_last = false;
    std::uint64_t out_data = 0;
    packet_pacer_top(in.in_valid, in.in_data, in.in_last, in.in_gap, in.in_slack, in.out_ready,
                                   in_ready, out_valid, out_data, out_last);
    EXPECT_EQ(in_ready, expected.in_ready);
    EXPECT_EQ(out_valid, expected.out_valid);
    EXPECT_EQ(out_data, expected.out_data);
    EXPECT_EQ(out_last, expected.out_last);
  }
}

// The reference model itself against the closed form, with back-pressure:
// a port stalled for the first s cycles delays everything by s.
TEST(PacerTiming, StalledPortShiftsEverything) {
  const std::vector<PacedPacket> packets(3, PacedPacket{2, 1, 1});
  const auto free_run = pacer_flit_cycles(packets, {}, {});
  const auto stalled = pacer_flit_cycles(packets, {}, std::vector<bool>(9, true));
  ASSERT_EQ(free_run.size(), 6u);
  const std::vector<std::uint64_t> expected = {0, 1, 5, 6, 10, 11};  // period 2 x 2 + 1
  EXPECT_EQ(free_run, expected);
  for (std::size_t f = 0; f < free_run.size(); ++f) EXPECT_EQ(stalled[f], free_run[f] + 9);
}

// Random packets, gaps, slacks, controller bubbles and port stalls: the class
// and the reference agree on the cycle of every flit, and the flits leave in
// order, each once, with their last markers (nothing lost or reordered).
RC_GTEST_PROP(PacketPacer, MatchesReferenceTimingUnderBackPressure, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(1, 12);
  std::vector<PacedPacket> packets;
  std::uint32_t total = 0;
  for (std::size_t j = 0; j < count; ++j) {
    PacedPacket p;
    p.flits = *rc::gen::inRange<std::uint32_t>(1, 9);
    p.gap = *rc::gen::inRange<std::uint8_t>(0, 6);
    p.slack = *rc::gen::element<std::uint8_t>(0, 0, 1, 3, 255);
    total += p.flits;
    packets.push_back(p);
  }
  std::vector<std::uint64_t> offered;
  std::uint64_t t = 0;
  for (std::uint32_t f = 0; f < total; ++f) offered.push_back(t += *rc::gen::inRange<std::uint64_t>(0, 4));
  const auto stalled = *rc::gen::container<std::vector<bool>>(*rc::gen::inRange<std::size_t>(0, 400),
                                                              rc::gen::arbitrary<bool>());

  const auto out = run_pacer(packets, offered, stalled);
  const auto reference = pacer_flit_cycles(packets, offered, stalled);
  RC_ASSERT(out.size() == reference.size());
  std::size_t f = 0;
  for (const PacedPacket& p : packets)
    for (std::uint32_t i = 0; i < p.flits; ++i, ++f) {
      RC_ASSERT(out[f].cycle == reference[f]);
      RC_ASSERT(out[f].data == 0x1000 * f + 7);
      RC_ASSERT(out[f].last == (i + 1 == p.flits));
    }
}

// Packets up to the documented maximum length do not wrap the accumulator:
// gap 255 and slack 255 after a packet of 2^W - 1 flits (W = 4 here).
TEST(PacketPacer, LongestPacketWithLargestGapDoesNotWrap) {
  using Small = PacketPacer<4>;
  const std::vector<PacedPacket> packets = {{Small::max_packet_flits, 255, 255}, {1, 0, 0}};
  const auto out = run_pacer<4>(packets, {}, {});
  ASSERT_EQ(out.size(), 16u);
  EXPECT_EQ(out[15].cycle, 15u + 255u * 15u + 255u);
}

}  // namespace collnet::hls
