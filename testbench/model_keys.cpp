#include "testbench/model_keys.hpp"

#include "systemc/barrier_network.hpp"
#include "systemc/collective_run.hpp"
#include "systemc/nic.hpp"
#include "systemc/router_config.hpp"
#include "systemc/synthetic.hpp"

namespace collnet::cli {

std::vector<KeyDoc> model_keys() {
  std::vector<KeyDoc> keys;
  // systemc/: each model documents its keys next to the code that reads them
  // (router_config.cpp: router microarchitecture; synthetic.cpp: `collnet
  // run` traffic, windows, watchdog, waveforms; nic.cpp, barrier_network.cpp,
  // collective_run.cpp: collectives on the NICs).
  for (const auto* docs : {&systemc::router_keys(), &systemc::synthetic_keys(), &systemc::nic_keys(),
                           &systemc::barrier_keys()})
    keys.insert(keys.end(), docs->begin(), docs->end());
  for (const Key& k : systemc::collective_keys()) keys.push_back(k.doc());
  return keys;
}

}  // namespace collnet::cli
