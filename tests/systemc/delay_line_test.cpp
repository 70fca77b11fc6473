// The link's delay line (systemc/link/delay_line.hpp): its 32-bit arrivals widened
// against the oldest item agree with a 64-bit reference across the 2^32
// boundary, the ring grows beyond its inline capacity keeping FIFO order and
// arrival cycles, an arrival 2^30 cycles or more from the oldest one is
// refused, and a link built with too long a delay is a clear error.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <utility>

#include "systemc/link/delay_line.hpp"
#include "systemc/link/link.hpp"

using namespace collnet::systemc;

namespace {

// The same FIFO with full 64-bit arrivals.
struct Reference {
  std::deque<std::pair<std::uint32_t, Cycle>> items;
  [[nodiscard]] Cycle next_arrival() const { return items.empty() ? kNever : items.front().second; }
};

void expect_same(const DelayLine<std::uint32_t>& line, const Reference& ref) {
  ASSERT_EQ(line.size(), ref.items.size());
  EXPECT_EQ(line.next_arrival(), ref.next_arrival());
  for (std::size_t i = 0; i < ref.items.size(); ++i) {
    EXPECT_EQ(line.at(i), ref.items[i].first);
    EXPECT_EQ(line.arrival_at(i), ref.items[i].second);
  }
}

}  // namespace

TEST(DelayLine, WidenIsExactWithin2To31EitherSideAcrossThe2To32Boundary) {
  const Cycle nears[] = {0, (Cycle{1} << 32) - 1, Cycle{1} << 32, (Cycle{1} << 32) + 5, (Cycle{7} << 32) - 3,
                         Cycle{1} << 62};
  const std::int64_t deltas[] = {0, 1, -1, 2, 1000, -1000, (std::int64_t{1} << 30), -(std::int64_t{1} << 30),
                                 (std::int64_t{1} << 31) - 1, -(std::int64_t{1} << 31)};
  for (const Cycle near : nears)
    for (const std::int64_t d : deltas) {
      if (d < 0 && near < static_cast<Cycle>(-d)) continue;
      const Cycle full = near + static_cast<Cycle>(d);
      EXPECT_EQ(DelayLine<std::uint32_t>::widen(static_cast<std::uint32_t>(full), near), full)
          << "near " << near << " delta " << d;
    }
}

TEST(DelayLine, StreamAcrossThe2To32BoundaryMatchesA64BitReference) {
  DelayLine<std::uint32_t> line(3);  // inline ring
  Reference ref;
  std::uint32_t next = 0;
  // Arrivals 1..40 cycles apart, not monotonic (a later push may arrive up to
  // 3 cycles before an earlier one), crossing 2^32 and 2^33.
  for (Cycle now = (Cycle{1} << 32) - 200; now < (Cycle{1} << 33) + 200;) {
    const Cycle arrival = now + 3 + (next % 4 == 1 ? 0 : 3);
    line.push(next, arrival);
    ref.items.emplace_back(next, arrival);
    ++next;
    expect_same(line, ref);
    if (ref.items.size() >= 3 || next % 5 == 0) {
      ASSERT_EQ(line.pop(), ref.items.front().first);
      ref.items.pop_front();
      expect_same(line, ref);
    }
    now += next % 7 == 0 ? (Cycle{1} << 28) : 1 + next % 3;  // jumps skip most of the range
  }
}

RC_GTEST_PROP(DelayLine, AgreesWithA64BitReferenceFromAnyStart, (std::uint64_t start)) {
  DelayLine<std::uint32_t> line(*rc::gen::inRange<std::size_t>(1, 20));
  Reference ref;
  Cycle now = start >> 1;  // leaves room above for the run
  const auto steps = *rc::gen::inRange(1, 300);
  for (int s = 0; s < steps; ++s) {
    if (*rc::gen::inRange(0, 3) != 0) {
      const Cycle arrival = now + static_cast<Cycle>(*rc::gen::inRange(1, 1 << 20));
      const auto item = static_cast<std::uint32_t>(s);
      line.push(item, arrival);
      ref.items.emplace_back(item, arrival);
    } else if (!ref.items.empty()) {
      RC_ASSERT(line.pop() == ref.items.front().first);
      ref.items.pop_front();
    }
    RC_ASSERT(line.size() == ref.items.size());
    RC_ASSERT(line.next_arrival() == ref.next_arrival());
    for (std::size_t i = 0; i < ref.items.size(); ++i) RC_ASSERT(line.arrival_at(i) == ref.items[i].second);
    now += static_cast<Cycle>(*rc::gen::inRange(0, 1 << 20));
  }
}

TEST(DelayLine, GrowsBeyondItsInlineCapacityKeepingOrderAndArrivals) {
  DelayLine<Flit> line(3);
  EXPECT_EQ(line.capacity(), 4u);
  const Cycle base = (Cycle{1} << 32) - 10;  // the growth copies 32-bit arrivals across the boundary
  for (std::uint32_t i = 0; i < 4; ++i) {  // a pop first, so the ring wraps before it grows
    line.push(Flit{i, 0, 0, 0, i * 3u}, base + i);
  }
  EXPECT_EQ(line.pop().packet, 0u);
  for (std::uint32_t i = 4; i < 100; ++i) line.push(Flit{i, 0, 0, 0, i * 3u}, base + i);
  EXPECT_EQ(line.size(), 99u);
  EXPECT_EQ(line.capacity(), 128u);  // 4 -> 8 -> ... -> 128
  for (std::uint32_t i = 1; i < 100; ++i) {
    EXPECT_EQ(line.next_arrival(), base + i);
    EXPECT_TRUE(line.ready(base + i));
    EXPECT_FALSE(line.ready(base + i - 1));
    const Flit f = line.pop();
    EXPECT_EQ(f.packet, i);
    EXPECT_EQ(f.payload, i * 3u);
  }
  EXPECT_TRUE(line.empty());
  EXPECT_EQ(line.next_arrival(), kNever);
}

TEST(DelayLine, LongDelaysStartOnTheHeapWithRoomForTheirFlits) {
  DelayLine<std::uint8_t> line(41);  // a latency-40 link's credits
  EXPECT_EQ(line.capacity(), 64u);
  for (int i = 0; i < 64; ++i) line.push(static_cast<std::uint8_t>(i), Cycle{1000} + static_cast<Cycle>(i));
  EXPECT_EQ(line.capacity(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(line.pop(), static_cast<std::uint8_t>(i));
}

TEST(DelayLine, RefusesAnArrival2To30CyclesFromTheOldest) {
  DelayLine<std::uint32_t> line;
  const Cycle t = (Cycle{1} << 32) + 17;
  line.push(1, t);
  line.push(2, t + DelayLine<std::uint32_t>::kMaxSpread - 1);  // the last one allowed
  line.push(3, t - DelayLine<std::uint32_t>::kMaxSpread + 1);
  EXPECT_THROW(line.push(4, t + DelayLine<std::uint32_t>::kMaxSpread), std::logic_error);
  EXPECT_THROW(line.push(4, t - DelayLine<std::uint32_t>::kMaxSpread), std::logic_error);
  EXPECT_EQ(line.size(), 3u);
  EXPECT_EQ(line.arrival_at(1), t + DelayLine<std::uint32_t>::kMaxSpread - 1);
  EXPECT_EQ(line.arrival_at(2), t - DelayLine<std::uint32_t>::kMaxSpread + 1);
}

TEST(DelayLine, ALinkWhoseDelaysReach2To30CyclesIsRefused) {
  MeasureWindow window;
  Link::Params params;
  params.latency = (1 << 30) - 8;
  params.max_pipeline_delay = 8;
  EXPECT_THROW(Link("too_long", params, collnet::topology::kNone, &window), std::invalid_argument);
  params.latency = 0;
  params.max_pipeline_delay = 0;
  EXPECT_THROW(Link("zero", params, collnet::topology::kNone, &window), std::invalid_argument);
}
