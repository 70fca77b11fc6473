// The pool of packet and message records (systemc/kernel/record_pool.hpp) used by
// two threads at once, as the workers of a threaded run use it; in this
// suite so that the ThreadSanitizer build (scripts/tsan.sh) runs it.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "tests/support/small_record_pool.hpp"

using Pool = collnet::test::SmallRecordPool;
constexpr std::size_t kBatch = Pool::kBatch;

TEST(RecordPool, TwoThreadsTakingAndGivingConcurrently) {
  // Each thread takes records, writes its mark and gives them back in bursts
  // larger than the shared threshold: every record read back holds the mark
  // its taker wrote (no record is in use on two threads), and a new record is
  // made only while the other thread's list holds fewer than 2 x kBatch:
  // at most the 2 x 3 x kBatch in use plus those.
  Pool pool;
  pool.set_workers(2);
  std::atomic<int> errors{0};
  auto work = [&](unsigned worker) {
    collnet::systemc::current_worker = worker;
    std::vector<std::uint32_t> held;
    for (int round = 0; round < 200; ++round) {
      for (std::size_t i = 0; i < 3 * kBatch; ++i) {
        const auto id = pool.take("full");
        pool[id] = (std::uint64_t{worker} << 32) | id;
        held.push_back(id);
      }
      for (auto id : held)
        if (pool[id] != ((std::uint64_t{worker} << 32) | id)) ++errors;
      for (auto id : held) pool.give(id);
      held.clear();
    }
  };
  std::thread other(work, 1u);
  work(0u);
  other.join();
  collnet::systemc::current_worker = 0;
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(pool.free_count(), pool.issued());
  EXPECT_LE(pool.issued(), 2 * 3 * kBatch + 2 * kBatch);
}
