// Messages arrived per tag at one NIC (what a WAIT counts). Programs use
// small, dense tags (a step, a group, a block index), so tags below kDense
// live in an array grown to the largest one seen and a count is one indexed
// load; larger tags go to a map. An all-to-all on 32x32 with one-flit
// messages counted a million arrivals through a hash map (6.5 % of its run).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace collnet::systemc {

class TagCounter {
 public:
  static constexpr std::uint32_t kDense = 4096;

  void add(std::uint32_t tag) {
    if (tag < kDense) {
      if (tag >= dense_.size()) dense_.resize(std::size_t{tag} + 1, 0);
      ++dense_[tag];
    } else {
      ++sparse_[tag];
    }
  }
  [[nodiscard]] std::uint32_t count(std::uint32_t tag) const {
    if (tag < kDense) return tag < dense_.size() ? dense_[tag] : 0;
    const auto it = sparse_.find(tag);
    return it == sparse_.end() ? 0 : it->second;
  }

 private:
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint32_t, std::uint32_t> sparse_;
};

}  // namespace collnet::systemc
