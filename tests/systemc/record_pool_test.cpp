// The pool of packet and message records (systemc/kernel/record_pool.hpp): an id is
// never handed out twice while in use, a worker takes back what it gave last,
// and records taken on one worker and given back on another are used again,
// so the pool holds the records in use plus the free lists' bound of
// 2 x kBatch per worker, not one record per take. Two threads at once:
// tests/threads/record_pool_threads_test.cpp.
#include "systemc/kernel/record_pool.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "tests/support/on_worker.hpp"
#include "tests/support/small_record_pool.hpp"

using collnet::systemc::RecordPool;
using collnet::test::OnWorker;
using Pool = collnet::test::SmallRecordPool;
constexpr std::size_t kBatch = Pool::kBatch;

TEST(RecordPool, AWorkerTakesBackWhatItGaveLast) {
  Pool pool;
  const auto a = pool.take("full");
  const auto b = pool.take("full");
  EXPECT_NE(a, b);
  pool.give(a);
  pool.give(b);
  EXPECT_EQ(pool.take("full"), b);
  EXPECT_EQ(pool.take("full"), a);
  EXPECT_EQ(pool.issued(), 2u);
}

TEST(RecordPool, OneWorkerKeepsEverythingItGaveBack) {
  // With one worker nothing is shared, however long the free list grows.
  Pool pool;
  std::vector<std::uint32_t> ids;
  for (std::size_t i = 0; i < 4 * kBatch; ++i) ids.push_back(pool.take("full"));
  for (auto id : ids) pool.give(id);
  EXPECT_EQ(pool.free_count(), 4 * kBatch);
  for (std::size_t i = 0; i < 4 * kBatch; ++i) pool.take("full");
  EXPECT_EQ(pool.issued(), 4 * kBatch);
}

TEST(RecordPool, RecordsGivenBackOnAnotherWorkerAreTakenAgain) {
  // A producer on worker 0 and a consumer on worker 1, 100 records in use at
  // a time, 100,000 in all: without sharing every take of worker 0 would be
  // a new record. A new record is made only when worker 0's list and the
  // shared list are empty, when worker 1 holds fewer than 2 x kBatch.
  Pool pool;
  pool.set_workers(2);
  std::deque<std::uint32_t> in_use;
  for (int n = 0; n < 100000; ++n) {
    in_use.push_back(pool.take("full"));
    if (in_use.size() == 100) {
      OnWorker consumer(1);
      pool.give(in_use.front());
      in_use.pop_front();
    }
  }
  EXPECT_LE(pool.issued(), 100 + 2 * kBatch - 1);
  EXPECT_GE(pool.issued(), 100 + kBatch);  // worker 1 holds kBatch at least once it has shared
  EXPECT_EQ(pool.free_count() + in_use.size(), pool.issued());
}

TEST(RecordPool, ThrowsTheCallersMessageWhenFull) {
  RecordPool<int, 2, 2, std::uint32_t> pool;  // 8 records at most
  for (int i = 0; i < 8; ++i) pool.take("no more");
  try {
    pool.take("no more");
    FAIL() << "a ninth record was made";
  } catch (const std::length_error& e) {
    EXPECT_STREQ(e.what(), "no more");
  }
}

RC_GTEST_PROP(RecordPool, NoIdIsInUseTwiceAndNoneIsLost, ()) {
  // Any sequence of takes and gives on three workers: the ids in use are
  // distinct, in use plus free is every record made, and the pool never makes
  // more than the most in use at once plus the free lists' bound.
  Pool pool;
  const unsigned workers = 3;
  pool.set_workers(static_cast<int>(workers));
  std::vector<std::uint32_t> in_use;
  std::size_t most_in_use = 0;
  const int steps = *rc::gen::inRange(0, 3000);
  for (int s = 0; s < steps; ++s) {
    OnWorker on(*rc::gen::inRange(0u, workers));
    if (in_use.empty() || *rc::gen::inRange(0, 2) == 0) {
      const auto id = pool.take("full");
      RC_ASSERT(std::find(in_use.begin(), in_use.end(), id) == in_use.end());
      RC_ASSERT(id < pool.issued());
      in_use.push_back(id);
      pool[id] = id;
    } else {
      const auto k = static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, in_use.size()));
      RC_ASSERT(pool[in_use[k]] == in_use[k]);  // nobody else wrote it
      pool.give(in_use[k]);
      in_use.erase(in_use.begin() + static_cast<std::ptrdiff_t>(k));
    }
    most_in_use = std::max(most_in_use, in_use.size());
    RC_ASSERT(pool.free_count() + in_use.size() == pool.issued());
  }
  RC_ASSERT(pool.issued() <= most_in_use + workers * 2 * kBatch);
}
