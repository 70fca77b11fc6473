// FIFO of timestamped items in a power-of-two ring (a link's wires: items
// leave in the order they entered, each at its own arrival cycle). The ring
// lives inside the object while it fits (short links: the link's state is a
// few cache lines, which matters on large networks) and moves to the heap
// only for long latencies or if the bound computed at construction is
// exceeded, so steady state never allocates.
//
// Compact entries: the items and their arrival cycles are kept in two arrays,
// an arrival as its low 32 bits. The full 64-bit arrival of the oldest item is
// kept beside the ring (ready() and next_arrival() read only it); when the
// oldest item leaves, the next one's full arrival is rebuilt from the signed
// 32-bit difference to the one that left. That is exact while any two items
// in the ring arrive less than 2^31 cycles apart; push() enforces the
// stronger bound that every item arrives less than kMaxSpread = 2^30 cycles
// from the oldest one (either side) (a link's items arrive within latency + pipeline delay of
// each other: at most about a thousand cycles).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "systemc/kernel/cycle.hpp"

namespace collnet::systemc {

template <typename T, std::size_t kInline = 4>
class DelayLine {
  static_assert(std::is_trivially_copyable_v<T>, "ring items are copied as bytes when the ring grows");
  static_assert(kInline >= 2 && (kInline & (kInline - 1)) == 0, "the inline ring is a power of two");

 public:
  /// Largest distance between the arrival of an item pushed and the oldest one.
  static constexpr Cycle kMaxSpread = Cycle{1} << 30;

  explicit DelayLine(std::size_t expected_in_flight = 4) {
    std::size_t cap = kInline;
    while (cap < expected_in_flight + 1) cap *= 2;
    if (cap > kMaxCapacity) throw std::invalid_argument("delay line: too many items in flight");
    if (cap > kInline) heap_ = allocate(cap);
    mask_ = static_cast<std::uint32_t>(cap - 1);
  }
  DelayLine(const DelayLine&) = delete;
  DelayLine& operator=(const DelayLine&) = delete;

  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] std::size_t size() const { return count_; }
  /// Items the ring holds without growing.
  [[nodiscard]] std::size_t capacity() const { return std::size_t{mask_} + 1; }
  /// Arrival cycle of the oldest item (kNever when empty).
  [[nodiscard]] Cycle next_arrival() const { return front_arrival_; }
  [[nodiscard]] bool ready(Cycle now) const { return front_arrival_ <= now; }
  [[nodiscard]] const T& front() const { return items()[head_]; }
  /// Item i positions after the oldest (0 = front), with its arrival cycle.
  [[nodiscard]] const T& at(std::size_t i) const { return items()[(head_ + i) & mask_]; }
  [[nodiscard]] Cycle arrival_at(std::size_t i) const {
    return widen(arrivals()[(head_ + i) & mask_], front_arrival_);
  }

  void push(const T& item, Cycle arrival) {
    if (count_ == 0) {
      front_arrival_ = arrival;
    } else if (arrival - front_arrival_ + (kMaxSpread - 1) > 2 * kMaxSpread - 2) [[unlikely]] {  // |difference| >= kMaxSpread
      spread_exceeded();
    }
    if (count_ == mask_ + 1) grow();
    const std::uint32_t slot = (head_ + count_) & mask_;
    if (inline_ring()) {
      inline_arrivals_[slot] = static_cast<std::uint32_t>(arrival);
      inline_items_[slot] = item;
    } else {
      heap_arrivals()[slot] = static_cast<std::uint32_t>(arrival);
      heap_items()[slot] = item;
    }
    ++count_;
  }
  T pop() {
    const std::uint32_t old = head_;
    head_ = (head_ + 1) & mask_;
    if (inline_ring()) [[likely]] {
      front_arrival_ = --count_ != 0 ? widen(inline_arrivals_[head_], front_arrival_) : kNever;
      return inline_items_[old];
    }
    front_arrival_ = --count_ != 0 ? widen(heap_arrivals()[head_], front_arrival_) : kNever;
    return heap_items()[old];
  }

  /// The full arrival cycle whose low 32 bits are `low`, for an arrival less
  /// than 2^31 cycles from `near` (either side).
  [[nodiscard]] static Cycle widen(std::uint32_t low, Cycle near) {
    const auto delta = static_cast<std::int32_t>(low - static_cast<std::uint32_t>(near));
    return near + static_cast<Cycle>(static_cast<std::int64_t>(delta));
  }

 private:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;
  // A heap ring: cap arrivals, then cap items (cap >= 8, so the items start
  // on a 32-byte boundary).
  static std::unique_ptr<std::byte[]> allocate(std::size_t cap) {
    static_assert(alignof(T) <= 32);
    return std::make_unique<std::byte[]>(cap * (sizeof(std::uint32_t) + sizeof(T)));
  }
  // The ring is inline while its capacity is kInline (a predictable branch on
  // a field of the header, instead of a pointer beside it).
  [[nodiscard]] bool inline_ring() const { return mask_ < kInline; }
  [[nodiscard]] std::uint32_t* heap_arrivals() const { return reinterpret_cast<std::uint32_t*>(heap_.get()); }
  [[nodiscard]] T* heap_items() const {
    return reinterpret_cast<T*>(heap_.get() + capacity() * sizeof(std::uint32_t));
  }
  [[nodiscard]] const std::uint32_t* arrivals() const { return inline_ring() ? inline_arrivals_ : heap_arrivals(); }
  [[nodiscard]] const T* items() const { return inline_ring() ? inline_items_ : heap_items(); }

  void grow() {
    const std::size_t cap = capacity() * 2;
    if (cap > kMaxCapacity) throw std::length_error("delay line: too many items in flight");
    auto bigger = allocate(cap);
    auto* arrivals_out = reinterpret_cast<std::uint32_t*>(bigger.get());
    auto* items_out = reinterpret_cast<T*>(bigger.get() + cap * sizeof(std::uint32_t));
    for (std::uint32_t i = 0; i < count_; ++i) {
      arrivals_out[i] = arrivals()[(head_ + i) & mask_];
      std::memcpy(static_cast<void*>(items_out + i), &items()[(head_ + i) & mask_], sizeof(T));
    }
    heap_ = std::move(bigger);
    mask_ = static_cast<std::uint32_t>(cap - 1);
    head_ = 0;
  }
  [[noreturn]] static void spread_exceeded() {
    throw std::logic_error("delay line: an item arrives 2^30 cycles or more from the oldest one");
  }

  // Arrival cycle of the oldest item, kNever when empty.
  Cycle front_arrival_ = kNever;
  std::uint32_t head_ = 0;
  std::uint32_t count_ = 0;
  std::uint32_t mask_ = 0;
  std::uint32_t inline_arrivals_[kInline]{};  // NOLINT: fixed inline storage
  T inline_items_[kInline]{};                 // NOLINT: fixed inline storage
  std::unique_ptr<std::byte[]> heap_;         // after the hot fields: read only when grown
};

}  // namespace collnet::systemc
