// libFuzzer target: see fuzz/entry.hpp (scenario).
#include <cstddef>
#include <cstdint>

#include "fuzz/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  collnet::fuzz::scenario(data, size);
  return 0;
}
