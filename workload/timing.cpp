#include "workload/timing.hpp"

#include <algorithm>
#include <map>

namespace collnet::workload {

namespace {

bool is_compute(NodeType t) { return t == NodeType::comp || t == NodeType::mem_load || t == NodeType::mem_store; }
bool is_communication(NodeType t) {
  return t == NodeType::comm_send || t == NodeType::comm_recv || t == NodeType::comm_coll;
}

/// Cycles in which some interval of `comm` runs, and of those the ones no
/// interval of `comp` covers ([start, finish) each).
std::pair<std::uint64_t, std::uint64_t> covered(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& comm,
                                                const std::vector<std::pair<std::uint64_t, std::uint64_t>>& comp) {
  struct Event {
    std::uint64_t at;
    int comm;
    int comp;
  };
  std::vector<Event> events;
  for (const auto& [a, b] : comm)
    if (b > a) events.push_back({a, 1, 0}), events.push_back({b, -1, 0});
  for (const auto& [a, b] : comp)
    if (b > a) events.push_back({a, 0, 1}), events.push_back({b, 0, -1});
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) { return x.at < y.at; });
  std::uint64_t any = 0, exposed = 0;
  int in_comm = 0, in_comp = 0;
  std::uint64_t last = 0;
  for (const Event& e : events) {
    if (in_comm > 0) {
      any += e.at - last;
      if (in_comp == 0) exposed += e.at - last;
    }
    in_comm += e.comm;
    in_comp += e.comp;
    last = e.at;
  }
  return {any, exposed};
}

}  // namespace

WorkloadTime time_workload(const Workload& w, const Lowered& lowered, const std::vector<Arrival>& arrivals,
                           const std::vector<Arrival>& sent) {
  WorkloadTime t;
  const std::size_t ranks = w.ranks.size();
  // Per rank and tag: the landing (leaving) cycles, sorted.
  std::vector<std::map<std::uint32_t, std::vector<std::uint64_t>>> landed(ranks), left(ranks);
  for (const Arrival& a : arrivals)
    if (a.rank < ranks) landed[a.rank][a.tag].push_back(a.cycle);
  for (const Arrival& a : sent)
    if (a.rank < ranks) left[a.rank][a.tag].push_back(a.cycle);
  for (auto* per_rank : {&landed, &left})
    for (auto& m : *per_rank)
      for (auto& [tag, cycles] : m) std::sort(cycles.begin(), cycles.end());
  t.ranks.resize(ranks);
  t.collectives.assign(lowered.collectives.size(), CollectiveTime{~std::uint64_t{0}, 0});
  for (std::size_t r = 0; r < ranks; ++r) {
    const RankTrace& trace = w.ranks[r];
    RankTime& rt = t.ranks[r];
    rt.nodes.resize(trace.nodes.size());
    for (std::size_t i = 0; i < trace.nodes.size(); ++i) {
      const LoweredNode& ln = lowered.nodes[r][i];
      NodeTime& nt = rt.nodes[i];
      if (ln.sent_side) {
        const auto s = left[r].find(ln.sent_tag);
        if (s != left[r].end() && s->second.size() > ln.sent_index) {
          nt.finish = s->second[ln.sent_index] + 1;
          nt.done = true;
        } else {
          t.complete = false;
        }
        continue;
      }
      const auto it = landed[r].find(ln.signal_tag);
      if (it != landed[r].end() && it->second.size() >= ln.signals) {
        nt.finish = it->second[ln.signals - 1] + 1;  // the cycle after its last signal landed
        nt.done = true;
      } else {
        t.complete = false;
      }
    }
    // Starts: the last dependency's finish, in topological order (a
    // receive, which waits for no send it depends on, finishes no earlier).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> comm, comp;
    for (const std::uint32_t i : lowered.orders[r]) {
      const Node& n = trace.nodes[i];
      NodeTime& nt = rt.nodes[i];
      if (!nt.done) continue;
      std::uint64_t ready = 0;
      for (const auto* deps : {&n.data_deps, &n.ctrl_deps})
        for (const std::uint64_t d : *deps) ready = std::max(ready, rt.nodes[trace.index.at(d)].finish);
      if (n.type == NodeType::comm_recv) nt.finish = std::max(nt.finish, ready);
      const std::int64_t cycles = lowered.nodes[r][i].compute_cycles;
      nt.start = std::min(nt.finish, is_compute(n.type) && nt.finish >= static_cast<std::uint64_t>(cycles)
                                         ? std::max(ready, nt.finish - static_cast<std::uint64_t>(cycles))
                                         : ready);
      rt.finish = std::max(rt.finish, nt.finish);
      if (is_compute(n.type)) {
        rt.compute += static_cast<std::uint64_t>(cycles);
        comp.emplace_back(nt.start, nt.finish);
      }
      if (is_communication(n.type)) comm.emplace_back(nt.start, nt.finish);
      if (const int c = lowered.nodes[r][i].collective; c >= 0) {
        CollectiveTime& ct = t.collectives[static_cast<std::size_t>(c)];
        ct.start = std::min(ct.start, nt.start);
        ct.finish = std::max(ct.finish, nt.finish);
      }
    }
    const auto [any, exposed] = covered(comm, comp);
    rt.communication = any;
    rt.exposed = exposed;
    t.total = std::max(t.total, rt.finish);
  }
  for (CollectiveTime& c : t.collectives)
    if (c.start > c.finish) c.start = c.finish;
  return t;
}

nlohmann::json workload_json(const Workload& w, const Lowered& lowered, const WorkloadTime& t, double clock_ghz) {
  const auto us = [&](std::uint64_t cycles) { return static_cast<double>(cycles) / (clock_ghz * 1000.0); };
  nlohmann::json j;
  j["prefix"] = w.prefix;
  j["ranks"] = w.ranks.size();
  std::size_t nodes = 0;
  for (const auto& r : w.ranks) nodes += r.nodes.size();
  j["nodes"] = nodes;
  j["point_to_point_messages"] = lowered.messages;
  j["complete"] = t.complete;
  j["total_cycles"] = t.total;
  j["total_us"] = us(t.total);
  std::uint64_t compute = 0, communication = 0, exposed = 0;
  nlohmann::json per_rank = nlohmann::json::array();
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    const RankTime& rt = t.ranks[r];
    compute = std::max(compute, rt.compute);
    communication = std::max(communication, rt.communication);
    exposed = std::max(exposed, rt.exposed);
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < rt.nodes.size(); ++i) {
      const Node& n = w.ranks[r].nodes[i];
      const NodeTime& nt = rt.nodes[i];
      list.push_back({{"id", n.id},
                      {"name", n.name},
                      {"type", std::string(node_type_name(n.type))},
                      {"start_cycle", nt.done ? nlohmann::json(nt.start) : nlohmann::json(nullptr)},
                      {"finish_cycle", nt.done ? nlohmann::json(nt.finish) : nlohmann::json(nullptr)}});
    }
    per_rank.push_back({{"rank", r},
                        {"finish_cycle", rt.finish},
                        {"compute_cycles", rt.compute},
                        {"communication_cycles", rt.communication},
                        {"exposed_communication_cycles", rt.exposed},
                        {"nodes", std::move(list)}});
  }
  j["compute_cycles"] = compute;
  j["communication_cycles"] = communication;
  j["exposed_communication_cycles"] = exposed;
  j["per_rank"] = std::move(per_rank);
  nlohmann::json colls = nlohmann::json::array();
  for (std::size_t c = 0; c < lowered.collectives.size(); ++c) {
    const LoweredCollective& lc = lowered.collectives[c];
    colls.push_back({{"type", collective_type_name(static_cast<std::int64_t>(lc.type))},
                     {"algorithm", lc.algorithm},
                     {"group", lc.group},
                     {"ranks", lc.ranks},
                     {"words_per_rank", lc.words_per_rank},
                     {"nodes", lc.node_per_rank},
                     {"start_cycle", t.collectives[c].start},
                     {"finish_cycle", t.collectives[c].finish},
                     {"cycles", t.collectives[c].cycles()}});
  }
  j["collectives"] = std::move(colls);
  return j;
}

nlohmann::json chrome_trace(const Workload& w, const Lowered& lowered, const WorkloadTime& t, double clock_ghz,
                            const std::vector<LinkLoad>& links) {
  const auto us = [&](std::uint64_t cycles) { return static_cast<double>(cycles) / (clock_ghz * 1000.0); };
  nlohmann::json events = nlohmann::json::array();
  for (std::size_t r = 0; r < t.ranks.size(); ++r) {
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", r}, {"args", {{"name", "rank " + std::to_string(r)}}}});
    for (std::size_t i = 0; i < t.ranks[r].nodes.size(); ++i) {
      const NodeTime& nt = t.ranks[r].nodes[i];
      if (!nt.done) continue;
      const Node& n = w.ranks[r].nodes[i];
      nlohmann::json args = {{"id", n.id}, {"type", std::string(node_type_name(n.type))},
                             {"start_cycle", nt.start}, {"finish_cycle", nt.finish}};
      if (n.comm_size >= 0) args["comm_size"] = n.comm_size;
      if (const int c = lowered.nodes[r][i].collective; c >= 0)
        args["algorithm"] = lowered.collectives[static_cast<std::size_t>(c)].algorithm;
      events.push_back({{"ph", "X"},
                        {"name", n.name.empty() ? std::string(node_type_name(n.type)) + " " + std::to_string(n.id)
                                                : n.name},
                        {"cat", std::string(node_type_name(n.type))},
                        {"pid", r},
                        {"tid", lowered.nodes[r][i].thread},
                        {"ts", us(nt.start)},
                        {"dur", us(nt.finish - nt.start)},
                        {"args", std::move(args)}});
    }
  }
  if (!links.empty()) {
    const std::uint64_t span = std::max<std::uint64_t>(1, t.total);
    const std::uint64_t width = (span + kTimelineLinkBins - 1) / kTimelineLinkBins;
    const std::uint64_t bins = (span + width - 1) / width;
    const std::size_t pid = t.ranks.size();
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", "links"}}}});
    for (const LinkLoad& l : links) {
      if (l.busy.empty()) continue;
      std::vector<std::uint64_t> busy(bins, 0);
      for (const auto& [first, last] : l.busy)
        for (std::uint64_t b = first / width; b < bins && b * width <= last; ++b) {
          const std::uint64_t lo = std::max(first, b * width), hi = std::min(last, (b + 1) * width - 1);
          if (hi >= lo) busy[b] += hi - lo + 1;
        }
      for (std::uint64_t b = 0; b < bins; ++b) {
        const std::uint64_t cycles = std::min(width, span - b * width);
        events.push_back({{"ph", "C"},
                          {"name", l.name},
                          {"pid", pid},
                          {"ts", us(b * width)},
                          {"args", {{"busy", static_cast<double>(busy[b]) / static_cast<double>(cycles)}}}});
      }
    }
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

}  // namespace collnet::workload
