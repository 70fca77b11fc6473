// Scenario keys read by the cycle-accurate models (systemc/) and the
// hardware blocks; documented here so that the CLI can validate and list
// them. Each model adds its keys to model_keys.cpp.
#pragma once

#include <vector>

#include "collectives/params.hpp"

namespace collnet::cli {
std::vector<KeyDoc> model_keys();
}
