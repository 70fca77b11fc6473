#include "collectives/descriptor.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "tests/support/any_descriptor.hpp"

using namespace collnet;

// The layout table must tile the word without overlap, in the documented
// order, within 128 bits: an independent recount of the header comment.
TEST(Descriptor, FieldsTileTheWordWithoutOverlap) {
  namespace L = descriptor_layout;
  const DescriptorField fields[] = {L::opcode, L::controller, L::op, L::dtype, L::route_hint, L::gap,
                                    L::slack, L::dest, L::src_offset, L::dst_offset, L::length, L::tag};
  unsigned next = 0;
  for (const auto& f : fields) {
    EXPECT_EQ(f.lsb, next);
    next = f.lsb + f.width;
  }
  EXPECT_EQ(next, L::used_bits);
  EXPECT_LE(L::used_bits, L::width);
}

TEST(Descriptor, EndIsTheZeroWord) {
  EXPECT_EQ(Descriptor::end().pack(), DescriptorWord{});
}

TEST(Descriptor, KnownWordPacksToKnownBits) {
  Descriptor d = Descriptor::send(/*dest=*/5, /*src=*/1, /*dst=*/2, /*length=*/3, /*tag=*/1);
  d.controller = 1;
  const DescriptorWord w = d.pack();
  // opcode 1 at bit 0, controller 1 at bit 2, dest 5 at bit 33, src 1 at bit 49
  const std::uint64_t lo = 1u | (1u << 2) | (5ULL << 33) | (1ULL << 49);
  // dst_offset 2 at bit 69 (hi bit 5), length 3 at bit 89 (hi bit 25), tag 1 at bit 109 (hi bit 45)
  const std::uint64_t hi = (2ULL << 5) | (3ULL << 25) | (1ULL << 45);
  EXPECT_EQ(w.lo, lo);
  EXPECT_EQ(w.hi, hi);
}

RC_GTEST_PROP(Descriptor, PackUnpackRoundTrips, ()) {
  namespace L = descriptor_layout;
  const Descriptor d = test::any_fitting_descriptor();
  RC_ASSERT(d.fits());
  const DescriptorWord w = d.pack();
  RC_ASSERT(Descriptor::unpack(w) == d);
  RC_ASSERT((w.hi >> (L::used_bits - 64)) == 0u);  // reserved bits stay zero
}

TEST(Descriptor, FitsRejectsOversizedFields) {
  Descriptor d = Descriptor::send(1 << 16, 0, 0, 1, 0);
  EXPECT_FALSE(d.fits());
  d.dest = 0;
  d.length = 1 << 20;
  EXPECT_FALSE(d.fits());
}

// src_offset (bits 49..68) straddles the two halves: 15 bits in lo, 5 in hi.
TEST(Descriptor, StraddlingFieldSplitsAcrossTheHalves) {
  DescriptorWord w;
  w.set(descriptor_layout::src_offset, 0xFFFFF);
  EXPECT_EQ(w.lo, 0x7FFFULL << 49);
  EXPECT_EQ(w.hi, 0x1FULL);
  EXPECT_EQ(w.get(descriptor_layout::src_offset), 0xFFFFFu);
  w.set(descriptor_layout::src_offset, 0x8001);  // bit 0 -> word bit 49, bit 15 -> word bit 64
  EXPECT_EQ(w.lo, 1ULL << 49);
  EXPECT_EQ(w.hi, 1ULL);
}

// get/set against the definition read bit by bit: bit i of a field is bit
// lsb + i of the 128-bit word; set changes no other bit and ignores the
// value's bits above the field's width.
RC_GTEST_PROP(Descriptor, FieldAccessMatchesBitByBitDefinition, ()) {
  namespace L = descriptor_layout;
  const DescriptorField fields[] = {L::opcode, L::controller, L::op, L::dtype, L::route_hint, L::gap,
                                    L::slack, L::dest, L::src_offset, L::dst_offset, L::length, L::tag};
  const DescriptorField f = fields[*rc::gen::inRange<std::size_t>(0, std::size(fields))];
  DescriptorWord w{*rc::gen::arbitrary<std::uint64_t>(), *rc::gen::arbitrary<std::uint64_t>()};
  const auto bit = [](const DescriptorWord& x, unsigned b) { return b < 64 ? (x.lo >> b) & 1u : (x.hi >> (b - 64)) & 1u; };
  std::uint64_t expected = 0;
  for (unsigned i = 0; i < f.width; ++i) expected |= bit(w, f.lsb + i) << i;
  RC_ASSERT(w.get(f) == expected);
  const std::uint64_t v = *rc::gen::arbitrary<std::uint64_t>();
  const DescriptorWord before = w;
  w.set(f, v);
  for (unsigned b = 0; b < 128; ++b) {
    const bool inside = b >= f.lsb && b < f.lsb + f.width;
    RC_ASSERT(bit(w, b) == (inside ? (v >> (b - f.lsb)) & 1u : bit(before, b)));
  }
}
