// Records in chunks that never move: a record stays where it is while more
// are added, so the workers of a threaded run may read records while one
// worker adds others (under the owner's lock). The packet table (packet.hpp)
// and the message table (nic.hpp) keep their records in one.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>

namespace collnet::systemc {

template <typename T, unsigned ChunkBits, std::size_t MaxChunks>
class StableChunks {
 public:
  StableChunks() : chunks_(new T*[MaxChunks]) {}
  ~StableChunks() {
    for (std::size_t c = 0; c < chunk_count_; ++c) delete[] chunks_[c];
  }
  StableChunks(const StableChunks&) = delete;
  StableChunks& operator=(const StableChunks&) = delete;

  /// Makes record `id` exist, allocating the chunks up to the one holding it;
  /// throws std::length_error(`too_many`) past MaxChunks chunks.
  void ensure(std::size_t id, const char* too_many) {
    if ((id >> ChunkBits) >= MaxChunks) throw std::length_error(too_many);
    while ((id >> ChunkBits) >= chunk_count_) chunks_[chunk_count_++] = new T[std::size_t{1} << ChunkBits];
  }
  T& operator[](std::size_t id) { return chunks_[id >> ChunkBits][id & kMask]; }
  const T& operator[](std::size_t id) const { return chunks_[id >> ChunkBits][id & kMask]; }

 private:
  static constexpr std::size_t kMask = (std::size_t{1} << ChunkBits) - 1;
  std::unique_ptr<T*[]> chunks_;  // MaxChunks pointers; the first chunk_count_ are set
  std::size_t chunk_count_ = 0;
};

}  // namespace collnet::systemc
