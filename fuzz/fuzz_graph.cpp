// libFuzzer target: see fuzz/entry.hpp (graph).
#include <cstddef>
#include <cstdint>

#include "fuzz/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  collnet::fuzz::graph(data, size);
  return 0;
}
