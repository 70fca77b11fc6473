// A node's descriptor program: the packed 128-bit words of descriptor.hpp,
// 16 bytes a descriptor, read and written as Descriptors. The programs of a
// run at the documents' scale hold over a million descriptors (two-tree on
// leafspine:p=36: 1,186,893), which as unpacked Descriptors took 28 bytes
// each. A descriptor is packed when it is stored, so every field must fit
// its width (Descriptor::fits); the schedule builders check the sizes that
// drive the fields (memory words, tags, endpoints) and refuse a scenario
// beyond them before they emit anything, so a descriptor that does not fit
// is a builder's bug (std::logic_error).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "collectives/descriptor.hpp"

namespace collnet::collectives {

class Program {
 public:
  /// Reads the descriptors in order (unpacked, by value).
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Descriptor;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Descriptor;

    const_iterator() = default;
    explicit const_iterator(const DescriptorWord* at) : at_(at) {}
    Descriptor operator*() const { return Descriptor::unpack(*at_); }
    Descriptor operator[](difference_type n) const { return Descriptor::unpack(at_[n]); }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator operator++(int) { const_iterator old = *this; ++at_; return old; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator--(int) { const_iterator old = *this; --at_; return old; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const_iterator a, const_iterator b) { return a.at_ - b.at_; }
    friend auto operator<=>(const const_iterator&, const const_iterator&) = default;

   private:
    const DescriptorWord* at_ = nullptr;
  };
  using iterator = const_iterator;
  using value_type = Descriptor;
  using size_type = std::size_t;

  Program() = default;
  Program(std::initializer_list<Descriptor> descriptors) : Program(descriptors.begin(), descriptors.end()) {}
  template <typename It>
  Program(It first, It last) {
    assign(first, last);
  }

  template <typename It>
  void assign(It first, It last) {
    words_.clear();
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>)
      words_.reserve(static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first) push_back(*first);
  }
  void push_back(const Descriptor& d) { words_.push_back(packed(d)); }
  /// Descriptor i, and replaces it (fields are read by value: to change one,
  /// read, change, set).
  [[nodiscard]] Descriptor operator[](std::size_t i) const { return Descriptor::unpack(words_[i]); }
  void set(std::size_t i, const Descriptor& d) { words_[i] = packed(d); }
  /// Applies `change` (a function of Descriptor&) to every descriptor.
  template <typename F>
  void update(F change) {
    for (DescriptorWord& w : words_) {
      Descriptor d = Descriptor::unpack(w);
      change(d);
      w = packed(d);
    }
  }
  [[nodiscard]] Descriptor front() const { return (*this)[0]; }
  [[nodiscard]] Descriptor back() const { return (*this)[words_.size() - 1]; }
  [[nodiscard]] Descriptor at(std::size_t i) const { return Descriptor::unpack(words_.at(i)); }
  void insert(const_iterator at, const Descriptor& d) { insert(at, {d}); }
  void insert(const_iterator at, std::initializer_list<Descriptor> ds) {
    std::vector<DescriptorWord> w;
    w.reserve(ds.size());
    for (const Descriptor& d : ds) w.push_back(packed(d));
    words_.insert(words_.begin() + (at - begin()), w.begin(), w.end());
  }
  void erase(const_iterator first, const_iterator last) {
    words_.erase(words_.begin() + (first - begin()), words_.begin() + (last - begin()));
  }

  [[nodiscard]] std::size_t size() const { return words_.size(); }
  [[nodiscard]] bool empty() const { return words_.empty(); }
  [[nodiscard]] std::size_t capacity() const { return words_.capacity(); }
  void reserve(std::size_t n) { words_.reserve(n); }
  void clear() { words_.clear(); }
  [[nodiscard]] const_iterator begin() const { return const_iterator(words_.data()); }
  [[nodiscard]] const_iterator end() const { return const_iterator(words_.data() + words_.size()); }
  /// The packed words, as the schedule engines emit them.
  [[nodiscard]] const std::vector<DescriptorWord>& words() const { return words_; }

  bool operator==(const Program&) const = default;

 private:
  static DescriptorWord packed(const Descriptor& d) {
    if (!d.fits()) throw std::logic_error("descriptor program: a descriptor field is wider than its slot in the packed word");
    return d.pack();
  }
  std::vector<DescriptorWord> words_;
};

}  // namespace collnet::collectives
