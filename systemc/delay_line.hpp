// FIFO of timestamped items in a power-of-two ring (a link's wires: items
// leave in the order they entered, each at its own arrival cycle). The ring
// lives inside the object while it fits (short links: the link's state is one
// block of memory, which matters on large networks) and moves to the heap
// only for long latencies or if the bound computed at construction is
// exceeded, so steady state never allocates.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

template <typename T>
class DelayLine {
 public:
  explicit DelayLine(std::size_t expected_in_flight = 4) {
    data_ = inline_.data();  // here, not in data_'s initializer: inline_ is declared after it
    std::size_t cap = 4;
    while (cap < expected_in_flight + 1) cap *= 2;
    if (cap > kInline) {
      heap_.resize(cap);
      data_ = heap_.data();
    }
    mask_ = cap - 1;
  }
  DelayLine(const DelayLine&) = delete;
  DelayLine& operator=(const DelayLine&) = delete;

  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] std::size_t size() const { return count_; }
  /// Arrival cycle of the oldest item (kNever when empty).
  [[nodiscard]] Cycle next_arrival() const { return front_arrival_; }
  [[nodiscard]] bool ready(Cycle now) const { return front_arrival_ <= now; }
  [[nodiscard]] const T& front() const { return data_[head_].item; }
  /// Item i positions after the oldest (0 = front), with its arrival cycle.
  [[nodiscard]] const T& at(std::size_t i) const { return data_[(head_ + i) & mask_].item; }
  [[nodiscard]] Cycle arrival_at(std::size_t i) const { return data_[(head_ + i) & mask_].arrival; }

  void push(const T& item, Cycle arrival) {
    if (count_ == mask_ + 1) grow();
    data_[(head_ + count_) & mask_] = Entry{item, arrival};
    if (count_++ == 0) front_arrival_ = arrival;
  }
  T pop() {
    T item = data_[head_].item;
    head_ = (head_ + 1) & mask_;
    front_arrival_ = --count_ != 0 ? data_[head_].arrival : kNever;
    return item;
  }

 private:
  struct Entry {
    T item;
    Cycle arrival;
  };
  static constexpr std::size_t kInline = 8;

  void grow() {
    std::vector<Entry> entries((mask_ + 1) * 2);
    for (std::size_t i = 0; i < count_; ++i) entries[i] = data_[(head_ + i) & mask_];
    heap_ = std::move(entries);
    data_ = heap_.data();
    mask_ = heap_.size() - 1;
    head_ = 0;
  }

  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::size_t mask_ = 0;
  Entry* data_ = nullptr;
  // Arrival cycle of the oldest item, kNever when empty: ready() and
  // next_arrival() read it without following data_ to the ring.
  Cycle front_arrival_ = kNever;
  std::array<Entry, kInline> inline_{};
  std::vector<Entry> heap_;
};

}  // namespace collnet::systemc
