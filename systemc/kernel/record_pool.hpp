// Records taken and given back by the worker threads of a run (packet and
// message records): chunks that never move, and per-worker free lists that
// stay balanced when records are taken on one worker and given back on
// another.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <vector>

#include "systemc/kernel/stable_chunks.hpp"
#include "systemc/kernel/worker.hpp"

namespace collnet::systemc {

/// A pool of records named by ids of type `Id`. take() returns the id the
/// calling worker (worker.hpp) gave back last, so a worker reuses records
/// that are in its cache without a lock. A record is often taken on one
/// worker and given back on another (a packet is made at its source and
/// released at its destination): the giving worker's list would grow while
/// the taking worker kept using records never used before, so a list that
/// reaches 2 x kBatch ids hands kBatch of them (its oldest) to a shared list,
/// and a worker whose list is empty takes up to kBatch from there before
/// using a new record. Both take the lock that a new record takes. A new
/// record is made only when the taker's list and the shared list are empty,
/// so the pool makes at most the most records ever in use plus 2 x kBatch
/// for each other worker. With one worker nothing is shared.
template <class T, std::size_t ChunkBits, std::size_t MaxChunks, class Id>
class RecordPool {
 public:
  static constexpr std::size_t kBatch = 256;

  RecordPool() = default;
  RecordPool(const RecordPool&) = delete;
  RecordPool& operator=(const RecordPool&) = delete;

  /// Free lists for `workers` threads (before the run; 1 by default).
  void set_workers(int workers) { free_.resize(static_cast<std::size_t>(workers)); }

  /// A record id to write; throws std::length_error(`too_many`) when the
  /// chunks are exhausted.
  Id take(const char* too_many) {
    std::vector<Id>& own = free_[current_worker].ids;
    if (!own.empty()) {
      const Id id = own.back();
      own.pop_back();
      return id;
    }
    std::lock_guard<std::mutex> lock(lock_);
    if (!shared_.empty()) {
      const std::size_t n = std::min(kBatch, shared_.size());
      own.assign(shared_.end() - static_cast<std::ptrdiff_t>(n), shared_.end());
      shared_.resize(shared_.size() - n);
      const Id id = own.back();
      own.pop_back();
      return id;
    }
    const Id id = issued_.load(std::memory_order_relaxed);
    records_.ensure(id, too_many);
    issued_.store(id + 1, std::memory_order_relaxed);
    return id;
  }

  /// Record `id` is not read again until take() returns it.
  void give(Id id) {
    std::vector<Id>& own = free_[current_worker].ids;
    own.push_back(id);
    if (free_.size() > 1 && own.size() >= 2 * kBatch) {
      std::lock_guard<std::mutex> lock(lock_);
      shared_.insert(shared_.end(), own.begin(), own.begin() + static_cast<std::ptrdiff_t>(kBatch));
      own.erase(own.begin(), own.begin() + static_cast<std::ptrdiff_t>(kBatch));
    }
  }

  T& operator[](Id id) { return records_[id]; }
  const T& operator[](Id id) const { return records_[id]; }

  /// Ids handed out so far: the records that exist.
  [[nodiscard]] Id issued() const { return issued_.load(std::memory_order_relaxed); }
  /// Records given back and not yet taken again (between cycles).
  [[nodiscard]] std::size_t free_count() const {
    std::size_t n = shared_.size();
    for (const auto& f : free_) n += f.ids.size();
    return n;
  }

 private:
  struct alignas(64) FreeList {
    std::vector<Id> ids;
  };
  StableChunks<T, ChunkBits, MaxChunks> records_;
  std::atomic<Id> issued_{0};
  std::mutex lock_;  // issued_'s growth, records_'s chunks and shared_
  std::vector<Id> shared_;
  std::vector<FreeList> free_ = std::vector<FreeList>(1);  // per worker
};

}  // namespace collnet::systemc
