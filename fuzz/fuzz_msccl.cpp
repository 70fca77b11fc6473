// libFuzzer target: see fuzz/entry.hpp (msccl).
#include <cstddef>
#include <cstdint>

#include "fuzz/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  collnet::fuzz::msccl(data, size);
  return 0;
}
