#include "cli/model_keys.hpp"

#include "systemc/run/collective_run.hpp"
#include "systemc/network/model_keys.hpp"
#include "workload/keys.hpp"
#include "cli/run_jobs.hpp"

namespace collnet::cli {

std::vector<KeyDoc> model_keys() {
  std::vector<KeyDoc> keys;
  // systemc/: the models' keys, declared once in systemc/network/model_keys.hpp
  // (router microarchitecture; keys both runs read; `collnet run` traffic;
  // NIC, barrier network, link faults) and collective_run.cpp (the
  // collective run itself).
  for (const auto* declared : {&declared_list<systemc::RouterKeys>(), &declared_list<systemc::RunKeys>(), &declared_list<systemc::SyntheticKeys>(),
                               &declared_list<systemc::NicKeys>(), &declared_list<systemc::BarrierKeys>(), &declared_list<systemc::LinkFaultKeys>(),
                               &systemc::collective_keys(), &workload::workload_keys()})
    for (const Key& k : *declared) keys.push_back(k.doc());
  keys.push_back(jobs_key().doc());  // cli/run_jobs.hpp
  return keys;
}

}  // namespace collnet::cli
