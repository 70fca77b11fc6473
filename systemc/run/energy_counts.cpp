#include "systemc/run/energy_counts.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "systemc/router/router.hpp"

namespace collnet::systemc {

// The router and link events of the energy model (collectives/energy.hpp)
// from the counts the links and routers keep: a flit on a link whose
// receiver is a router was written into its input buffer, one whose sender
// is a router was read out of a buffer, switch-allocated and sent through
// the crossbar; the others reached a NIC.
EnergyCounts energy_counts(Network& network, std::size_t endpoints) {
  std::vector<const Link*> links;
  for (std::size_t l = 0; l < network.link_count(); ++l) links.push_back(&network.link(static_cast<topology::LinkId>(l)));
  for (std::size_t e = 0; e < endpoints; ++e)
    for (int c = 0; c < network.controllers(); ++c)
      for (const Link* l : {&network.injection(static_cast<topology::EndpointId>(e), c),
                            &network.ejection(static_cast<topology::EndpointId>(e), c)})
        if (l->graph_link() == topology::kNone) links.push_back(l);  // (endpoint_attach direct: a graph link)
  // Per router: connected input and output ports.
  std::unordered_map<const Router*, std::pair<std::uint64_t, std::uint64_t>> ports;
  for (const Link* l : links) {
    if (const auto* r = dynamic_cast<const Router*>(l->receiver())) ++ports[r].first;
    if (const auto* r = dynamic_cast<const Router*>(l->sender())) ++ports[r].second;
  }
  EnergyCounts c;
  for (const Link* l : links) {
    const std::uint64_t flits = l->total_flits();
    const auto* to = dynamic_cast<const Router*>(l->receiver());
    const auto* from = dynamic_cast<const Router*>(l->sender());
    if (to != nullptr) {
      c.buffer_writes += flits;
      c.buffer_flit_slots += static_cast<std::uint64_t>(l->vcs()) * static_cast<std::uint64_t>(l->buffer_flits());
    } else {
      c.delivered_flits += flits;
    }
    if (from != nullptr) {
      c.buffer_reads += flits;
      const auto& [in, out] = ports[from];
      c.crossbar_radix_flits += static_cast<double>(flits) * static_cast<double>(std::max(in, out));
    }
    if (to != nullptr && from != nullptr) {
      c.network_link_flits += flits;
      ++c.network_links;
    } else {
      c.nic_link_flits += flits;
      ++c.nic_links;
    }
  }
  for (const auto& [router, io] : ports) {
    c.crosspoints += static_cast<double>(io.first) * static_cast<double>(io.second);
    c.vc_allocations += router->vc_allocations();
  }
  return c;
}

}  // namespace collnet::systemc
