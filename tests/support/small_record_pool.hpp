// A record pool of small chunks (64 records each) for the pool's tests, so
// that a few hundred records span several chunks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "systemc/kernel/record_pool.hpp"

namespace collnet::test {

using SmallRecordPool = collnet::systemc::RecordPool<std::uint64_t, 6, 1024, std::uint32_t>;

}  // namespace collnet::test
