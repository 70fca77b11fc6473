// Messages arrived per tag at one NIC (what a WAIT counts). Programs use
// small, dense tags (a step, a group, a block index), so tags below kDense
// live in an array grown to the largest one seen and a count is one indexed
// load; larger tags are kept sorted in a vector of (tag, count) and found by
// binary search. An all-to-all on 32x32 with one-flit messages counts a
// million arrivals, each of which a hash map would hash and probe for; a
// two-tree node on leafspine:p=36 sees about 30 large tags, 8 bytes each
// here where a hash map node and its bucket took about 48.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace collnet::systemc {

class TagCounter {
 public:
  static constexpr std::uint32_t kDense = 4096;

  void add(std::uint32_t tag) {
    if (tag < kDense) {
      if (tag >= dense_.size()) dense_.resize(std::size_t{tag} + 1, 0);
      ++dense_[tag];
      return;
    }
    // Tags mostly arrive in increasing order: a new largest one goes at the end.
    const auto it = sparse_.empty() || sparse_.back().first < tag ? sparse_.end() : sparse_.begin() + place(tag);
    if (it != sparse_.end() && it->first == tag) ++it->second;
    else sparse_.insert(it, {tag, 1});
  }
  [[nodiscard]] std::uint32_t count(std::uint32_t tag) const {
    if (tag < kDense) return tag < dense_.size() ? dense_[tag] : 0;
    const std::size_t i = place(tag);
    return i < sparse_.size() && sparse_[i].first == tag ? sparse_[i].second : 0;
  }

 private:
  using Entry = std::pair<std::uint32_t, std::uint32_t>;  // tag, count
  /// Index of the first entry whose tag is not below `tag`.
  [[nodiscard]] std::size_t place(std::uint32_t tag) const {
    return static_cast<std::size_t>(
        std::lower_bound(sparse_.begin(), sparse_.end(), tag,
                         [](const Entry& e, std::uint32_t t) { return e.first < t; }) -
        sparse_.begin());
  }
  std::vector<std::uint32_t> dense_;
  std::vector<Entry> sparse_;
};

}  // namespace collnet::systemc
