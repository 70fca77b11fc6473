// A first-in first-out queue in a power-of-two ring that grows by doubling
// and allocates nothing while it has never held an item. A NIC holds two
// (a controller's and the shared descriptor queue): std::deque allocates a
// 512-byte block and its map when it is made, 7 MB on 6156 NICs that mostly
// queue a handful of descriptors.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace collnet::systemc {

template <typename T>
class Fifo {
 public:
  Fifo() = default;
  Fifo(Fifo&& other) noexcept { swap(other); }
  Fifo& operator=(Fifo&& other) noexcept {
    Fifo(std::move(other)).swap(*this);
    return *this;
  }
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;

  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] const T& front() const { return ring_[head_]; }
  void push_back(const T& item) {
    if (count_ == capacity_) grow();
    ring_[(head_ + count_) & (capacity_ - 1)] = item;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (capacity_ - 1);
    --count_;
  }

 private:
  void grow() {
    const std::size_t capacity = capacity_ == 0 ? 4 : 2 * capacity_;
    auto ring = std::make_unique<T[]>(capacity);
    for (std::size_t i = 0; i < count_; ++i) ring[i] = std::move(ring_[(head_ + i) & (capacity_ - 1)]);
    ring_ = std::move(ring);
    capacity_ = capacity;
    head_ = 0;
  }
  void swap(Fifo& other) noexcept {
    std::swap(ring_, other.ring_);
    std::swap(capacity_, other.capacity_);
    std::swap(head_, other.head_);
    std::swap(count_, other.count_);
  }

  std::unique_ptr<T[]> ring_;
  std::size_t capacity_ = 0;  // a power of two, or 0
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace collnet::systemc
