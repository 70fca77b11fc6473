#include "systemc/run/watchdog.hpp"

#include <algorithm>
#include <functional>

#include "systemc/network/network.hpp"

namespace collnet::systemc {

Watchdog::Watchdog(const sc_core::sc_module_name& name, const NetworkActivity& activity, Cycle threshold)
    : Clocked(name, /*run_at_start=*/true), activity_(activity), threshold_(threshold) {}

Cycle Watchdog::evaluate(Cycle now) {
  // No move in cycles [now - threshold, now - 1]; moves in the current cycle
  // (already counted or not) cannot change this verdict.
  const std::int64_t flits = activity_.flits();
  const Cycle last_move = activity_.latest_move();
  if (flits > 0 && now > last_move + threshold_) {
    fired_ = true;
    fired_at_ = now;
    sc_core::sc_stop();
    return kNever;
  }
  // An empty network cannot fire before a flit enters it (a move at >= now)
  // plus the threshold: sleep that long instead of waking every cycle while
  // the NICs pace or wait (the fire cycle stays exact: last_move + threshold + 1).
  const Cycle from = flits > 0 ? last_move : std::max(last_move, now);
  return std::max(from + threshold_ + 1, now + 1);
}

namespace {

struct VcId {
  topology::NodeId node;
  int port;
  int vc;
  bool operator==(const VcId&) const = default;
};

std::string port_name(const Network& net, topology::NodeId node, int port) {
  const Router& r = net.router(node);
  if (port >= r.network_ports()) return "injection c" + std::to_string(port - r.network_ports());
  const Link* l = r.input_link(port);
  return "from " + net.topology().graph().link_name(l->graph_link());
}

std::string describe(const Network& net, const VcId& id) {
  const Router& r = net.router(id.node);
  const Router::VcView v = r.input_vc(id.port, id.vc);
  std::string s = net.topology().graph().node_name(id.node) + " input " + port_name(net, id.node, id.port) +
                  " vc" + std::to_string(id.vc) + " [" + std::to_string(v.flits) + " flits";
  if (v.front != nullptr) {
    const PacketHeader& h = net.packets()[v.front->packet].header;
    s += std::string(", front: ") + (v.front->head() ? "head" : "body") + " of packet " + std::to_string(h.source) +
         "->" + std::to_string(h.destination);
  }
  return s + "]";
}

}  // namespace

DeadlockReport diagnose_deadlock(const Network& net, Cycle now) {
  DeadlockReport report;
  report.detected_at = now;
  report.last_move = net.activity().latest_move();
  const topology::Graph& g = net.topology().graph();

  // Wait-for graph over input VCs holding flits: a front flit waits for the
  // downstream input VC(s) it needs a credit or an allocation from.
  std::vector<std::size_t> base(net.router_count() + 1, 0);
  for (std::size_t n = 0; n < net.router_count(); ++n) {
    const Router& r = net.router(static_cast<topology::NodeId>(n));
    base[n + 1] = base[n] + static_cast<std::size_t>(r.ports() * r.vcs());
  }
  auto key = [&](const VcId& id) {
    return base[static_cast<std::size_t>(id.node)] +
           static_cast<std::size_t>(id.port * net.router(id.node).vcs() + id.vc);
  };
  std::vector<VcId> ids(base.back());
  std::vector<std::vector<std::size_t>> waits(base.back());
  std::vector<std::string> terminal(base.back());
  for (std::size_t n = 0; n < net.router_count(); ++n) {
    const auto node = static_cast<topology::NodeId>(n);
    const Router& r = net.router(node);
    for (int p = 0; p < r.ports(); ++p)
      for (int v = 0; v < r.vcs(); ++v) {
        const VcId id{node, p, v};
        ids[key(id)] = id;
        const Router::VcView view = r.input_vc(p, v);
        if (view.flits == 0) continue;
        ++report.blocked_vcs;
        const int o = view.out_port >= 0 ? view.out_port : view.want_port;
        std::vector<int> out_vcs;
        if (view.out_port >= 0) {
          out_vcs.push_back(view.out_vc);
        } else {
          const auto [first, end] = r.vc_range(o, view.want_class);
          for (int ov = first; ov < end; ++ov) out_vcs.push_back(ov);
        }
        if (o >= r.network_ports()) {
          terminal[key(id)] = "the NIC of " + g.node_name(node) + " (ejection c" +
                              std::to_string(o - r.network_ports()) + ")";
          continue;
        }
        const topology::Link& gl = g.link(r.output_link(o)->graph_link());
        for (int ov : out_vcs) waits[key(id)].push_back(key(VcId{gl.dst, gl.dst_port, ov}));
      }
  }
  // Iterative DFS for one cycle.
  std::vector<std::uint8_t> color(ids.size(), 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::size_t> parent(ids.size(), 0);
  for (std::size_t start = 0; start < ids.size() && report.cycle.empty(); ++start) {
    if (color[start] != 0 || waits[start].empty()) continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};
    color[start] = 1;
    while (!stack.empty() && report.cycle.empty()) {
      auto& [u, next] = stack.back();
      if (next == waits[u].size()) {
        color[u] = 2;
        stack.pop_back();
        continue;
      }
      const std::size_t w = waits[u][next++];
      if (net.router(ids[w].node).input_vc(ids[w].port, ids[w].vc).flits == 0) continue;
      if (color[w] == 0) {
        color[w] = 1;
        parent[w] = u;
        stack.push_back({w, 0});
      } else if (color[w] == 1) {
        std::vector<std::size_t> loop{w};
        for (std::size_t x = u; x != w; x = parent[x]) loop.push_back(x);
        std::reverse(loop.begin() + 1, loop.end());
        for (std::size_t i = 0; i < loop.size(); ++i)
          report.cycle.push_back(describe(net, ids[loop[i]]) + " waits for " +
                                 describe(net, ids[loop[(i + 1) % loop.size()]]));
      }
    }
  }
  for (std::size_t k = 0; k < ids.size() && report.blocked.size() < 64; ++k) {
    if (net.router(ids[k].node).input_vc(ids[k].port, ids[k].vc).flits == 0) continue;
    std::string line = describe(net, ids[k]) + " waits for ";
    if (!terminal[k].empty()) {
      line += terminal[k];
    } else {
      std::string targets;
      for (std::size_t w : waits[k]) targets += (targets.empty() ? "" : " or ") + describe(net, ids[w]);
      line += targets.empty() ? "nothing (not blocked)" : targets;
    }
    report.blocked.push_back(std::move(line));
  }
  return report;
}

}  // namespace collnet::systemc
