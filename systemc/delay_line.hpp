// FIFO of timestamped items in a power-of-two ring (a link's wires: items
// leave in the order they entered, each at its own arrival cycle). Grows only
// if the bound computed at construction is exceeded, so steady state never
// allocates.
#pragma once

#include <cstddef>
#include <vector>

#include "systemc/cycle.hpp"

namespace collnet::systemc {

template <typename T>
class DelayLine {
 public:
  explicit DelayLine(std::size_t expected_in_flight = 4) {
    std::size_t cap = 4;
    while (cap < expected_in_flight + 1) cap *= 2;
    entries_.resize(cap);
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] std::size_t size() const { return count_; }
  /// Arrival cycle of the oldest item (kNever when empty).
  [[nodiscard]] Cycle next_arrival() const { return count_ ? entries_[head_].arrival : kNever; }
  [[nodiscard]] bool ready(Cycle now) const { return count_ != 0 && entries_[head_].arrival <= now; }
  [[nodiscard]] const T& front() const { return entries_[head_].item; }
  /// Item i positions after the oldest (0 = front), with its arrival cycle.
  [[nodiscard]] const T& at(std::size_t i) const { return entries_[(head_ + i) & (entries_.size() - 1)].item; }
  [[nodiscard]] Cycle arrival_at(std::size_t i) const {
    return entries_[(head_ + i) & (entries_.size() - 1)].arrival;
  }

  void push(const T& item, Cycle arrival) {
    if (count_ == entries_.size()) grow();
    entries_[(head_ + count_) & (entries_.size() - 1)] = Entry{item, arrival};
    ++count_;
  }
  T pop() {
    T item = entries_[head_].item;
    head_ = (head_ + 1) & (entries_.size() - 1);
    --count_;
    return item;
  }

 private:
  struct Entry {
    T item;
    Cycle arrival;
  };
  void grow() {
    std::vector<Entry> entries(entries_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) entries[i] = entries_[(head_ + i) & (entries_.size() - 1)];
    entries_ = std::move(entries);
    head_ = 0;
  }

  std::vector<Entry> entries_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace collnet::systemc
