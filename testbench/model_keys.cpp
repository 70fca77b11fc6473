#include "testbench/model_keys.hpp"

#include "systemc/router_config.hpp"
#include "systemc/synthetic.hpp"

namespace collnet::cli {

std::vector<KeyDoc> model_keys() {
  std::vector<KeyDoc> keys;
  // systemc/: each model documents its keys next to the code that reads them
  // (router_config.cpp: router microarchitecture; synthetic.cpp: `collnet
  // run` traffic, windows, watchdog, waveforms).
  for (const auto* docs : {&systemc::router_keys(), &systemc::synthetic_keys()})
    keys.insert(keys.end(), docs->begin(), docs->end());
  return keys;
}

}  // namespace collnet::cli
