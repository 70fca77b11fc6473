// The NIC's per-tag arrival counts (systemc/nic/tag_counter.hpp) agree with a
// std::map over any sequence of tags, small (the dense array, which grows)
// and large (the sorted vector behind it), including tags never seen.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <map>

#include "systemc/nic/tag_counter.hpp"

using collnet::systemc::TagCounter;

RC_GTEST_PROP(TagCounter, CountsAsAMapDoes, ()) {
  TagCounter counter;
  std::map<std::uint32_t, std::uint32_t> reference;
  auto tag = [] {
    return *rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0, 64),
                           rc::gen::inRange<std::uint32_t>(TagCounter::kDense - 8, TagCounter::kDense + 8),
                           rc::gen::arbitrary<std::uint32_t>());
  };
  const int steps = *rc::gen::inRange(0, 400);
  for (int s = 0; s < steps; ++s) {
    const std::uint32_t t = tag();
    counter.add(t);
    ++reference[t];
    const std::uint32_t probe = tag();
    const auto it = reference.find(probe);
    RC_ASSERT(counter.count(probe) == (it == reference.end() ? 0u : it->second));
  }
  for (const auto& [t, n] : reference) RC_ASSERT(counter.count(t) == n);
}

TEST(TagCounter, TheBoundaryTagsAndUnseenTagsCountRight) {
  TagCounter counter;
  EXPECT_EQ(counter.count(0), 0u);
  EXPECT_EQ(counter.count(TagCounter::kDense), 0u);
  counter.add(TagCounter::kDense - 1);
  counter.add(TagCounter::kDense);
  counter.add(TagCounter::kDense);
  counter.add(0xFFFFFFFFu);
  EXPECT_EQ(counter.count(TagCounter::kDense - 1), 1u);
  EXPECT_EQ(counter.count(TagCounter::kDense), 2u);
  EXPECT_EQ(counter.count(0xFFFFFFFFu), 1u);
  EXPECT_EQ(counter.count(TagCounter::kDense - 2), 0u);  // inside the grown array, never added
  EXPECT_EQ(counter.count(5), 0u);
}
