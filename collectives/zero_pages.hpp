// Node memory whose pages the kernel maps only when they are written.
//
// A node's memory is mostly zero until the collective writes it, and part
// of it may never be written at all: a two-tree node's receive slot is as
// long as the data, while a child sends only its tree's half of it
// (collectives/algorithms/tree_pipeline.cpp). A std::vector<Word> writes
// its zeros when it is made, so every page of every node's memory would be
// resident. ZeroPageArray takes an array of kMapFrom bytes or more straight
// from the kernel (an anonymous mapping, zero by definition) and does not
// write the zeros, so a page that is never written is never resident (a
// read of one maps the kernel's shared zero page, which is not counted
// either). Smaller arrays come from operator new, zeroed, and so does a
// large one when the kernel refuses the mapping.
//
// The mappings are of 4 KiB pages (MADV_NOHUGEPAGE): a transparent huge
// page would make the whole 2 MiB around a written word resident.
//
// The array has the length it is made with (no resize): a node's memory does
// not grow.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace collnet::collectives {

template <typename T>
class ZeroPageArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_arithmetic_v<T>,
                "ZeroPageArray holds numbers whose all-zero bytes are the value 0");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  /// Arrays of this many bytes or more are mapped pages of their own.
  static constexpr std::size_t kMapFrom = 16384;

  ZeroPageArray() noexcept = default;
  /// `n` elements, all zero.
  explicit ZeroPageArray(std::size_t n) : size_(n) {
    if (n == 0) return;
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kMapFrom) {
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED) {
        (void)madvise(p, bytes, MADV_NOHUGEPAGE);  // advice only: a kernel without THP refuses it
        data_ = static_cast<T*>(p);
        mapped_ = true;
        return;
      }
      // No mapping (the process's limit of mappings, vm.max_map_count, when
      // neighbouring ones could not be merged): an ordinary array, resident.
    }
    data_ = static_cast<T*>(::operator new(bytes));
    std::memset(static_cast<void*>(data_), 0, bytes);
  }
  ZeroPageArray(ZeroPageArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        mapped_(std::exchange(other.mapped_, false)) {}
  ZeroPageArray& operator=(ZeroPageArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      mapped_ = std::exchange(other.mapped_, false);
    }
    return *this;
  }
  ZeroPageArray(const ZeroPageArray&) = delete;  // a node's memory is never copied whole by accident
  ZeroPageArray& operator=(const ZeroPageArray&) = delete;
  ~ZeroPageArray() { release(); }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] T* data() noexcept { return data_; }
  [[nodiscard]] const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  [[nodiscard]] T* begin() noexcept { return data_; }
  [[nodiscard]] T* end() noexcept { return data_ + size_; }
  [[nodiscard]] const T* begin() const noexcept { return data_; }
  [[nodiscard]] const T* end() const noexcept { return data_ + size_; }

 private:
  void release() noexcept {
    if (data_ == nullptr) return;
    if (mapped_) (void)munmap(static_cast<void*>(data_), size_ * sizeof(T));
    else ::operator delete(static_cast<void*>(data_));
    data_ = nullptr;
    size_ = 0;
    mapped_ = false;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;  // an anonymous mapping of its own (else operator new)
};

}  // namespace collnet::collectives
