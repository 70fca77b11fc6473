#include "collectives/zero_pages.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "collectives/executor.hpp"

namespace collnet::collectives {
namespace {

// Pages of [data, data + bytes) the kernel has mapped (mincore).
std::size_t resident_pages(const void* data, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
  const std::size_t pages = (end - begin + page - 1) / page;
  std::vector<unsigned char> in(pages);
  if (mincore(reinterpret_cast<void*>(begin), end - begin, in.data()) != 0) return static_cast<std::size_t>(-1);
  std::size_t n = 0;
  for (unsigned char c : in) n += c & 1u;
  return n;
}

}  // namespace

// A large node memory is mapped by the kernel only where it is written: two
// written words on two pages make two resident pages, the rest of the 2 MiB
// stays unmapped, and every word reads as a std::vector<Word>'s would.
TEST(ZeroPages, OnlyWrittenPagesAreResident) {
  const auto page_words = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) / sizeof(Word);
  const std::size_t words = 256 * page_words;
  NodeMemory m(words);
  ASSERT_EQ(m.size(), words);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(m.data()) % static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)), 0u);
  EXPECT_EQ(resident_pages(m.data(), words * sizeof(Word)), 0u);
  m[3 * page_words + 5] = 42;
  m[200 * page_words] = 7;
  EXPECT_EQ(resident_pages(m.data(), words * sizeof(Word)), 2u);
  std::vector<Word> expected(words, 0);
  expected[3 * page_words + 5] = 42;
  expected[200 * page_words] = 7;
  EXPECT_TRUE(std::equal(m.begin(), m.end(), expected.begin(), expected.end()));
}

// A small array (operator new, below kMapFrom) is zero too, and a moved
// array keeps its words and leaves the source empty.
TEST(ZeroPages, SmallArraysAreZeroAndMovesKeepTheWords) {
  for (const std::size_t words : {std::size_t{16}, ZeroPageArray<Word>::kMapFrom / sizeof(Word) + 3}) {
    NodeMemory m(words);
    ASSERT_EQ(m.size(), words);
    for (std::size_t i = 0; i < words; ++i) ASSERT_EQ(m[i], 0u) << words << " " << i;
    for (std::size_t i = 0; i < words; ++i) m[i] = 1000 + i;
    NodeMemory moved = std::move(m);
    EXPECT_TRUE(m.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    ASSERT_EQ(moved.size(), words);
    for (std::size_t i = 0; i < words; ++i) ASSERT_EQ(moved[i], 1000 + i) << words << " " << i;
    NodeMemory assigned(1);
    assigned = std::move(moved);
    ASSERT_EQ(assigned.size(), words);
    EXPECT_EQ(assigned[words - 1], 1000 + words - 1);
  }
}

// The executor in node memory computes the same memories as in
// std::vector<Word> (a ring shift written by hand, memories large enough to
// be mapped pages, most of them never written).
TEST(ZeroPages, ExecutorInNodeMemoryGivesTheSameMemory) {
  Schedule s;
  s.algorithm = "test-ring-shift-large";
  const int n = 4;
  s.memory_words = 8192;
  s.programs.resize(n);
  for (int i = 0; i < n; ++i) {
    auto& p = s.programs[static_cast<std::size_t>(i)];
    p.push_back(Descriptor::send(static_cast<std::uint32_t>((i + 1) % n), 0, 5000, 100, 0));
    p.push_back(Descriptor::wait(0, 1));
    p.push_back(Descriptor::end());
  }
  s.initial = [](EndpointId e, std::uint32_t a) { return a < 100 ? Word(1000 * (e + 1) + a) : Word(0); };
  s.expected = [](EndpointId e) {
    Region r{5000, {}};
    for (std::uint32_t a = 0; a < 100; ++a) r.words.push_back(Word(1000 * ((e + n - 1) % n + 1) + a));
    return std::vector<Region>{r};
  };
  const ExecResult plain = execute(s);
  const BasicExecResult<NodeMemory> lazy = execute_in_node_memory(s);
  ASSERT_EQ(lazy.memory.size(), plain.memory.size());
  for (std::size_t e = 0; e < plain.memory.size(); ++e)
    EXPECT_TRUE(std::equal(lazy.memory[e].begin(), lazy.memory[e].end(), plain.memory[e].begin(),
                           plain.memory[e].end()))
        << "endpoint " << e;
  EXPECT_TRUE(check_data(s, lazy.memory).pass);
  EXPECT_EQ(lazy.messages, plain.messages);
  EXPECT_EQ(lazy.words_sent, 400);
}

}  // namespace collnet::collectives
