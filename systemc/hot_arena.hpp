// One allocation for a module's per-port arrays, laid out one after another
// in the order they are declared, so that the arrays a cycle's evaluation
// reads together share cache lines instead of each starting a heap block of
// its own (docs/performance.md, "Cache layout"). The arrays are of
// trivially destructible types, filled when the arena is allocated; their
// sizes are fixed for the module's life.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace collnet::systemc {

class HotArena {
 public:
  static constexpr std::size_t kAlign = 64;  // a cache line

  /// Declares an array of `n` values `fill`, to be stored at `*target` once
  /// the arena is allocated.
  template <typename T>
  void add(T*& target, std::size_t n, const T& fill) {
    static_assert(std::is_trivially_destructible_v<T>, "arena arrays are never destroyed one by one");
    static_assert(alignof(T) <= kAlign);
    const std::size_t offset = (size_ + alignof(T) - 1) / alignof(T) * alignof(T);
    size_ = offset + n * sizeof(T);
    fills_.push_back([&target, offset, n, fill](std::byte* base) {
      T* p = reinterpret_cast<T*>(base + offset);
      for (std::size_t i = 0; i < n; ++i) new (p + i) T(fill);
      target = p;
    });
  }

  /// Allocates the arena (cache-line aligned) and fills every declared array.
  void allocate() {
    memory_.reset(static_cast<std::byte*>(::operator new(size_ == 0 ? 1 : size_, std::align_val_t{kAlign})));
    for (const auto& fill : fills_) fill(memory_.get());
    fills_.clear();
    fills_.shrink_to_fit();
  }

  [[nodiscard]] std::size_t bytes() const { return size_; }

 private:
  struct Free {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{kAlign}); }
  };
  std::unique_ptr<std::byte, Free> memory_;
  std::size_t size_ = 0;
  std::vector<std::function<void(std::byte*)>> fills_;
};

}  // namespace collnet::systemc
