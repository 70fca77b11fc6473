#include "testbench/model_keys.hpp"

namespace collnet::cli {

std::vector<KeyDoc> model_keys() {
  return {};
}

}  // namespace collnet::cli
