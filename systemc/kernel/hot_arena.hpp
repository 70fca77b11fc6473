// One allocation for a module's per-port arrays, laid out one after another
// in the order they are declared, so that the arrays a cycle's evaluation
// reads together share cache lines instead of each starting a heap block of
// its own (docs/performance.md, "What bounds them": cache misses). The arrays are of
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

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define COLLNET_HOT_ARENA_ASAN 1
#else
#define COLLNET_HOT_ARENA_ASAN 0
#endif

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
    // (sanitizer builds: every array starts on a shadow granule of 8 bytes)
    constexpr std::size_t align = kRedZone != 0 && alignof(T) < 8 ? 8 : alignof(T);
    const std::size_t gap = size_;
    const std::size_t offset = (size_ + kRedZone + align - 1) / align * align;
    size_ = offset + n * sizeof(T);
    fills_.push_back([&target, gap, offset, n, fill](std::byte* base) {
      T* p = reinterpret_cast<T*>(base + offset);
      for (std::size_t i = 0; i < n; ++i) new (p + i) T(fill);
      target = p;
#if COLLNET_HOT_ARENA_ASAN
      // AddressSanitizer builds: the gap before the array is poisoned, so that
      // an index past the array before it is reported as the heap overflow it
      // would be between separate blocks.
      ASAN_POISON_MEMORY_REGION(base + gap, offset - gap);
#else
      static_cast<void>(gap);
#endif
    });
  }

  /// Allocates the arena (cache-line aligned) and fills every declared array.
  void allocate() {
    memory_.reset(static_cast<std::byte*>(::operator new(size_ == 0 ? 1 : size_, std::align_val_t{kAlign})));
    for (const auto& fill : fills_) fill(memory_.get());
    fills_.clear();
    fills_.shrink_to_fit();
  }

  HotArena() = default;
  HotArena(const HotArena&) = delete;
  HotArena& operator=(const HotArena&) = delete;
  ~HotArena() {
#if COLLNET_HOT_ARENA_ASAN
    if (memory_) ASAN_UNPOISON_MEMORY_REGION(memory_.get(), size_);
#endif
  }

 private:
  struct Free {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{kAlign}); }
  };
#if COLLNET_HOT_ARENA_ASAN
  static constexpr std::size_t kRedZone = 32;
#else
  static constexpr std::size_t kRedZone = 0;
#endif
  std::unique_ptr<std::byte, Free> memory_;
  std::size_t size_ = 0;
  std::vector<std::function<void(std::byte*)>> fills_;
};

}  // namespace collnet::systemc
