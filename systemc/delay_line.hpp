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
    items_.resize(cap);
    arrivals_.resize(cap);
  }
  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] std::size_t size() const { return count_; }
  /// Arrival cycle of the oldest item (kNever when empty).
  [[nodiscard]] Cycle next_arrival() const { return count_ ? arrivals_[head_] : kNever; }
  [[nodiscard]] bool ready(Cycle now) const { return count_ != 0 && arrivals_[head_] <= now; }
  [[nodiscard]] const T& front() const { return items_[head_]; }
  /// Item i positions after the oldest (0 = front), with its arrival cycle.
  [[nodiscard]] const T& at(std::size_t i) const { return items_[(head_ + i) & (items_.size() - 1)]; }
  [[nodiscard]] Cycle arrival_at(std::size_t i) const { return arrivals_[(head_ + i) & (items_.size() - 1)]; }

  void push(const T& item, Cycle arrival) {
    if (count_ == items_.size()) grow();
    const std::size_t tail = (head_ + count_) & (items_.size() - 1);
    items_[tail] = item;
    arrivals_[tail] = arrival;
    ++count_;
  }
  T pop() {
    T item = items_[head_];
    head_ = (head_ + 1) & (items_.size() - 1);
    --count_;
    return item;
  }

 private:
  void grow() {
    std::vector<T> items(items_.size() * 2);
    std::vector<Cycle> arrivals(items_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) {
      items[i] = at(i);
      arrivals[i] = arrival_at(i);
    }
    items_ = std::move(items);
    arrivals_ = std::move(arrivals);
    head_ = 0;
  }

  std::vector<T> items_;
  std::vector<Cycle> arrivals_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace collnet::systemc
