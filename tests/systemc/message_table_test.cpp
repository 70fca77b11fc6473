// The NIC's message records (systemc/nic/nic.hpp, MessageTable): a released
// record is taken again by the next SEND of the worker that released it
// (another worker's only once the releasing worker holds many: record_pool_test),
// so the table holds the messages in flight; in SEND-order numbering
// (message traces) the n-th record is number n and nothing is taken twice.
#include <gtest/gtest.h>

#include <set>

#include "systemc/nic/nic.hpp"
#include "tests/support/on_worker.hpp"

using collnet::systemc::Message;
using collnet::systemc::MessageTable;
using collnet::test::OnWorker;

namespace {

Message message(int source, std::uint32_t tag) {
  Message m;
  m.source = source;
  m.destination = source + 1;
  m.tag = tag;
  m.packets_left = 3;
  return m;
}

}  // namespace

TEST(MessageTable, AReleasedRecordIsTakenByTheNextSendOfItsWorker) {
  MessageTable table;
  const std::uint32_t a = table.add(message(0, 10));
  const std::uint32_t b = table.add(message(1, 11));
  EXPECT_NE(a, b);
  table.release(a);
  const std::uint32_t c = table.add(message(2, 12));
  EXPECT_EQ(c, a);  // a's record again, now holding c's message
  EXPECT_EQ(table[c].source, 2);
  EXPECT_EQ(table[c].tag, 12u);
  EXPECT_EQ(table[b].tag, 11u);  // b untouched
  // 1000 SENDs, each delivered before the next: one record throughout.
  std::set<std::uint32_t> ids;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    const std::uint32_t id = table.add(message(3, i));
    ids.insert(id);
    EXPECT_EQ(table[id].tag, i);
    table.release(id);
  }
  EXPECT_EQ(ids.size(), 1u);
}

TEST(MessageTable, AWorkerTakesOnlyTheRecordsItReleased) {
  MessageTable table;
  table.set_workers(2);
  std::uint32_t released_by_1 = 0;
  {
    OnWorker one(1);
    released_by_1 = table.add(message(0, 1));
    table.release(released_by_1);
  }
  const std::uint32_t on_0 = table.add(message(1, 2));  // worker 0 has nothing to take again
  EXPECT_NE(on_0, released_by_1);
  OnWorker one(1);
  EXPECT_EQ(table.add(message(2, 3)), released_by_1);
}

TEST(MessageTable, InSendOrderTheNthRecordIsNumberN) {
  MessageTable table;
  table.number_in_order();
  for (std::uint32_t n = 0; n < 5000; ++n) {
    ASSERT_EQ(table.add(message(0, n)), n);
    table.release(n);
  }
  for (std::uint32_t n = 0; n < 5000; ++n) EXPECT_EQ(table[n].tag, n);
}
