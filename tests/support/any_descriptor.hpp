// Test helper (tests/support/: fixtures several suites share, written once):
// a RapidCheck generator of descriptors whose every field fits its width in
// the packed word (collectives/descriptor.hpp), for property tests.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "collectives/descriptor.hpp"

namespace collnet::test {

/// Any descriptor that fits: each field drawn over its whole range.
inline Descriptor any_fitting_descriptor() {
  namespace L = descriptor_layout;
  Descriptor d;
  d.opcode = static_cast<Opcode>(*rc::gen::inRange(0, 4));
  d.controller = static_cast<std::uint8_t>(*rc::gen::inRange(0, 8));
  d.op = static_cast<ReceiveOp>(*rc::gen::inRange(0, 6));
  d.dtype = static_cast<DataType>(*rc::gen::inRange(0, 2));
  d.route_hint = *rc::gen::arbitrary<std::uint8_t>();
  d.gap = *rc::gen::arbitrary<std::uint8_t>();
  d.slack = *rc::gen::arbitrary<std::uint8_t>();
  d.dest = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(L::dest.max()) + 1);
  d.src_offset = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(L::src_offset.max()) + 1);
  d.dst_offset = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(L::dst_offset.max()) + 1);
  d.length = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(L::length.max()) + 1);
  d.tag = *rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(L::tag.max()) + 1);
  return d;
}

}  // namespace collnet::test
