// libFuzzer target: see fuzz/entry.hpp (chakra).
#include <cstddef>
#include <cstdint>

#include "fuzz/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  collnet::fuzz::chakra(data, size);
  return 0;
}
