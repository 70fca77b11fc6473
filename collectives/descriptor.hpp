// The descriptor: the one word every model shares (docs/architecture.md).
//
// A node's collective is a program of descriptors. The software reference
// emits them, the HLS schedule engine and its RTL emit them bit for bit the
// same, the SystemC NIC executes them. The packed layout below is defined
// here once; rtl/collnet_descriptor_pkg.sv mirrors it and a test checks that
// the two agree. This header depends on the C++ standard library only, so
// that the synthesizable blocks in hls/ may include it.
//
// Packed layout, 128 bits, bit 0 = least significant bit of `lo`:
//
//   field        bits      width  meaning
//   opcode       [1:0]       2    END=0, SEND=1, WAIT=2, BARRIER=3
//   controller   [4:2]       3    NIC controller that runs the SEND (0..7)
//   op           [7:5]       3    receive operation: copy, sum, product, max, min, divide
//   dtype        [8]         1    element type for reductions: 0 int64, 1 float64
//   route_hint   [16:9]      8    topology-specific (torus direction bits, spine uplink)
//   gap          [24:17]     8    pacing gap in packet times (spec: gap = hops - 1)
//   slack        [32:25]     8    extra idle cycles added to every pacing gap
//   dest         [48:33]    16    destination endpoint (SEND)
//   src_offset   [68:49]    20    source address in the sender's memory, in words
//   dst_offset   [88:69]    20    destination address in the receiver's memory, in words
//   length       [108:89]   20    SEND: words (one word per payload flit); WAIT: message count
//   tag          [124:109]  16    phase the transfer belongs to; WAIT counts arrivals by tag;
//                                 BARRIER carries its barrier number
//   (reserved)   [127:125]   3    zero
//
// Semantics:
//   SEND    read `length` words at src_offset and deliver them to `dest`, which
//           stores them at dst_offset (copy) or combines them element by
//           element with what is there (op). dest == own id is a local DMA copy.
//           op divide stores stored / received (the one division of an average
//           allreduce, spec hd-allreduce; int64 truncates toward zero).
//   WAIT    block until `length` messages tagged `tag` have arrived at this node.
//   BARRIER join global barrier number `tag`. A node enters it only when every
//           message it sent before has been delivered; it is released when every
//           node has entered it.
//   END     the program is finished.
#pragma once

#include <cstdint>

namespace collnet {

enum class Opcode : std::uint8_t { end = 0, send = 1, wait = 2, barrier = 3 };
enum class ReceiveOp : std::uint8_t { copy = 0, sum = 1, product = 2, max = 3, min = 4, divide = 5 };
enum class DataType : std::uint8_t { int64 = 0, float64 = 1 };

/// One descriptor field: position and width in the packed word.
struct DescriptorField {
  unsigned lsb;
  unsigned width;
  [[nodiscard]] constexpr std::uint64_t max() const { return (std::uint64_t{1} << width) - 1; }
};

namespace descriptor_layout {
// {lsb, width} of the table above: how the SEND is run, then what it moves
// (tests/collectives/descriptor_test.cpp checks that they tile the word).
inline constexpr DescriptorField opcode{0, 2}, controller{2, 3}, op{5, 3}, dtype{8, 1}, route_hint{9, 8}, gap{17, 8},
    slack{25, 8};
inline constexpr DescriptorField dest{33, 16}, src_offset{49, 20}, dst_offset{69, 20}, length{89, 20}, tag{109, 16};
inline constexpr unsigned used_bits = 125;
inline constexpr unsigned width = 128;
}  // namespace descriptor_layout

/// The packed 128-bit word (two 64-bit halves, `lo` holds bits 63..0).
struct DescriptorWord {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  constexpr bool operator==(const DescriptorWord&) const = default;

  // Whole-word shifts and masks; a field may straddle the two halves
  // (fields are at most 20 bits wide, see descriptor_layout).
  [[nodiscard]] constexpr std::uint64_t get(DescriptorField f) const {
    if (f.lsb >= 64) return (hi >> (f.lsb - 64)) & f.max();
    std::uint64_t v = lo >> f.lsb;
    if (f.lsb + f.width > 64) v |= hi << (64 - f.lsb);
    return v & f.max();
  }
  constexpr void set(DescriptorField f, std::uint64_t v) {
    v &= f.max();
    if (f.lsb >= 64) {
      hi = (hi & ~(f.max() << (f.lsb - 64))) | (v << (f.lsb - 64));
      return;
    }
    lo = (lo & ~(f.max() << f.lsb)) | (v << f.lsb);
    if (f.lsb + f.width > 64) {
      const unsigned low_bits = 64 - f.lsb;  // bits of the field held in lo
      const std::uint64_t high_mask = f.max() >> low_bits;
      hi = (hi & ~high_mask) | (v >> low_bits);
    }
  }
};

/// The unpacked descriptor. Field widths are those of descriptor_layout;
/// `fits()` says whether every value fits its field.
struct Descriptor {
  Opcode opcode = Opcode::end;
  std::uint8_t controller = 0;
  ReceiveOp op = ReceiveOp::copy;
  DataType dtype = DataType::int64;
  std::uint8_t route_hint = 0;
  std::uint8_t gap = 0;
  std::uint8_t slack = 0;
  std::uint32_t dest = 0;
  std::uint32_t src_offset = 0;
  std::uint32_t dst_offset = 0;
  std::uint32_t length = 0;
  std::uint32_t tag = 0;

  constexpr bool operator==(const Descriptor&) const = default;

  [[nodiscard]] constexpr bool fits() const {
    namespace L = descriptor_layout;
    return controller <= L::controller.max() && static_cast<unsigned>(op) <= L::op.max() &&
           dest <= L::dest.max() && src_offset <= L::src_offset.max() &&
           dst_offset <= L::dst_offset.max() && length <= L::length.max() && tag <= L::tag.max() &&
           slack <= L::slack.max();
  }

  [[nodiscard]] constexpr DescriptorWord pack() const {
    namespace L = descriptor_layout;
    DescriptorWord w;
    w.set(L::opcode, static_cast<std::uint64_t>(opcode));
    w.set(L::controller, controller);
    w.set(L::op, static_cast<std::uint64_t>(op));
    w.set(L::dtype, static_cast<std::uint64_t>(dtype));
    w.set(L::route_hint, route_hint);
    w.set(L::gap, gap);
    w.set(L::slack, slack);
    w.set(L::dest, dest);
    w.set(L::src_offset, src_offset);
    w.set(L::dst_offset, dst_offset);
    w.set(L::length, length);
    w.set(L::tag, tag);
    return w;
  }

  [[nodiscard]] static constexpr Descriptor unpack(const DescriptorWord& w) {
    namespace L = descriptor_layout;
    Descriptor d;
    d.opcode = static_cast<Opcode>(w.get(L::opcode));
    d.controller = static_cast<std::uint8_t>(w.get(L::controller));
    d.op = static_cast<ReceiveOp>(w.get(L::op));
    d.dtype = static_cast<DataType>(w.get(L::dtype));
    d.route_hint = static_cast<std::uint8_t>(w.get(L::route_hint));
    d.gap = static_cast<std::uint8_t>(w.get(L::gap));
    d.slack = static_cast<std::uint8_t>(w.get(L::slack));
    d.dest = static_cast<std::uint32_t>(w.get(L::dest));
    d.src_offset = static_cast<std::uint32_t>(w.get(L::src_offset));
    d.dst_offset = static_cast<std::uint32_t>(w.get(L::dst_offset));
    d.length = static_cast<std::uint32_t>(w.get(L::length));
    d.tag = static_cast<std::uint32_t>(w.get(L::tag));
    return d;
  }

  // Builders, so that generators read like the specs.
  static constexpr Descriptor send(std::uint32_t dest, std::uint32_t src_offset, std::uint32_t dst_offset,
                                   std::uint32_t length, std::uint32_t tag) {
    Descriptor d;
    d.opcode = Opcode::send;
    d.dest = dest;
    d.src_offset = src_offset;
    d.dst_offset = dst_offset;
    d.length = length;
    d.tag = tag;
    return d;
  }
  static constexpr Descriptor wait(std::uint32_t tag, std::uint32_t count) {
    Descriptor d;
    d.opcode = Opcode::wait;
    d.tag = tag;
    d.length = count;
    return d;
  }
  static constexpr Descriptor barrier(std::uint32_t number) {
    Descriptor d;
    d.opcode = Opcode::barrier;
    d.tag = number;
    return d;
  }
  static constexpr Descriptor end() { return Descriptor{}; }
};

}  // namespace collnet
