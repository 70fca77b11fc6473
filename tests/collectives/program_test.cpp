// A descriptor program (collectives/program.hpp) stores packed words and
// reads back Descriptors: under any sequence of edits it holds what a
// std::vector<Descriptor> given the same edits holds, each word being that
// descriptor's pack(); a descriptor wider than its fields is refused.
#include "collectives/program.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <stdexcept>
#include <vector>

#include "tests/support/any_descriptor.hpp"

using namespace collnet;
using collnet::collectives::Program;
using collnet::test::any_fitting_descriptor;

namespace {

void expect_same(const Program& program, const std::vector<Descriptor>& reference) {
  RC_ASSERT(program.size() == reference.size());
  RC_ASSERT(program.words().size() == reference.size());
  std::size_t i = 0;
  for (const Descriptor d : program) {
    RC_ASSERT(d == reference[i]);
    RC_ASSERT(program[i] == reference[i]);
    RC_ASSERT(program.words()[i] == reference[i].pack());
    ++i;
  }
  RC_ASSERT(static_cast<std::size_t>(program.end() - program.begin()) == reference.size());
}

}  // namespace

RC_GTEST_PROP(Program, HoldsWhatAVectorOfDescriptorsHolds, ()) {
  Program program;
  std::vector<Descriptor> reference;
  const int steps = *rc::gen::inRange(0, 60);
  for (int s = 0; s < steps; ++s) {
    const int what = *rc::gen::inRange(0, 6);
    if (what <= 1 || reference.empty()) {  // push_back, most often
      const Descriptor d = any_fitting_descriptor();
      program.push_back(d);
      reference.push_back(d);
    } else if (what == 2) {
      const auto i = *rc::gen::inRange<std::size_t>(0, reference.size());
      const Descriptor d = any_fitting_descriptor();
      program.set(i, d);
      reference[i] = d;
    } else if (what == 3) {
      const auto i = *rc::gen::inRange<std::size_t>(0, reference.size() + 1);
      const Descriptor d = any_fitting_descriptor();
      program.insert(program.begin() + static_cast<std::ptrdiff_t>(i), d);
      reference.insert(reference.begin() + static_cast<std::ptrdiff_t>(i), d);
    } else if (what == 4) {
      const auto first = *rc::gen::inRange<std::size_t>(0, reference.size() + 1);
      const auto last = *rc::gen::inRange<std::size_t>(first, reference.size() + 1);
      program.erase(program.begin() + static_cast<std::ptrdiff_t>(first),
                    program.begin() + static_cast<std::ptrdiff_t>(last));
      reference.erase(reference.begin() + static_cast<std::ptrdiff_t>(first),
                      reference.begin() + static_cast<std::ptrdiff_t>(last));
    } else {
      const auto tag = static_cast<std::uint32_t>(*rc::gen::inRange(0, 1 << 16));
      program.update([&](Descriptor& d) { d.tag = tag; });
      for (Descriptor& d : reference) d.tag = tag;
    }
    expect_same(program, reference);
  }
  RC_ASSERT(Program(reference.begin(), reference.end()) == program);
}

TEST(Program, ADescriptorWiderThanItsFieldsIsRefused) {
  Program program{Descriptor::send(1, 0, 0, 4, 0)};
  EXPECT_THROW(program.push_back(Descriptor::send(1 << 16, 0, 0, 4, 0)), std::logic_error);  // dest has 16 bits
  EXPECT_THROW(program.set(0, Descriptor::send(1, 0, 0, 1 << 20, 0)), std::logic_error);     // length has 20
  EXPECT_THROW(program.update([](Descriptor& d) { d.tag = 1 << 16; }), std::logic_error);    // tag has 16
  ASSERT_EQ(program.size(), 1u);
  EXPECT_EQ(program[0], Descriptor::send(1, 0, 0, 4, 0));
}

TEST(Program, ADescriptorTakesOnePackedWord) {
  static_assert(sizeof(DescriptorWord) == 16);
  const Program program{Descriptor::wait(3, 2), Descriptor::barrier(1), Descriptor::end()};
  EXPECT_EQ(program.capacity(), 3u);
  EXPECT_EQ(program.back(), Descriptor::end());
  EXPECT_EQ(program.front(), Descriptor::wait(3, 2));
  EXPECT_EQ(program.words().back(), DescriptorWord{});
}
