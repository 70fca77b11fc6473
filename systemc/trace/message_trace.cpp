#include "systemc/trace/message_trace.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "systemc/network/network.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != nullptr) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_for_writing(const std::string& path, const char* what) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) throw std::runtime_error(std::string(what) + ": cannot write '" + path + "'");
  // Rows are small: a large buffer keeps the write calls few.
  std::setvbuf(f.get(), nullptr, _IOFBF, 1 << 20);
  return f;
}

void close_checked(File f, const std::string& path, const char* what) {
  const bool failed = std::ferror(f.get()) != 0;
  if (std::fclose(f.release()) != 0 || failed)
    throw std::runtime_error(std::string(what) + ": error writing '" + path + "'");
}

std::string cycle_text(Cycle c) { return c == kNever ? std::string() : std::to_string(c); }

}  // namespace

const char* MessageTrace::header() {
  return "message,src,dst,controller,tag,words,inject_cycle,first_arrival_cycle,deliver_cycle,hops,kind,packets";
}

void MessageTrace::started(std::uint32_t id, topology::EndpointId src, topology::EndpointId dst, int controller,
                           std::uint32_t tag, std::uint32_t words, bool local, Cycle now) {
  if (records_.size() <= id) records_.resize(static_cast<std::size_t>(id) + 1);
  Record& r = records_[id];
  r.src = src;
  r.dst = dst;
  r.controller = static_cast<std::uint8_t>(controller);
  r.tag = tag;
  r.words = words;
  r.local = local;
  r.listed = true;
  if (local) r.inject = now;  // a network message: its first flit's cycle (packet_injected)
}

void MessageTrace::write_csv(const std::string& path) const {
  File f = open_for_writing(path, "--trace");
  std::fprintf(f.get(), "%s\n", header());
  for (std::size_t id = 0; id < records_.size(); ++id) {
    const Record& r = records_[id];
    if (!r.listed) continue;
    std::fprintf(f.get(), "%zu,%u,%u,%u,%u,%u,%s,%s,%s,%u,%s,%u\n", id, static_cast<unsigned>(r.src),
                 static_cast<unsigned>(r.dst), static_cast<unsigned>(r.controller), r.tag, r.words,
                 cycle_text(r.inject).c_str(), cycle_text(r.first_arrival).c_str(), cycle_text(r.deliver).c_str(),
                 static_cast<unsigned>(r.hops), r.local ? "local" : "network", r.packets);
  }
  close_checked(std::move(f), path, "--trace");
}

// --- links ---

std::string LinkBusyTrace::path_for(const std::string& trace_path) {
  const std::string suffix = ".csv";
  if (trace_path.size() > suffix.size() &&
      trace_path.compare(trace_path.size() - suffix.size(), suffix.size(), suffix) == 0)
    return trace_path.substr(0, trace_path.size() - suffix.size()) + ".links.csv";
  return trace_path + ".links.csv";
}

const char* LinkBusyTrace::header() { return "link,from,to,start_cycle,end_cycle,flits,link_id,from_coord,to_coord"; }

LinkBusyTrace::LinkBusyTrace(const Network& network, LinkObserver* next)
    : next_(next), done_(network.link_count()), open_(network.link_count(), Interval{kNever, kNever}) {}

void LinkBusyTrace::on_flit(const Link& link, const Flit& flit, Cycle depart) {
  if (next_ != nullptr) next_->on_flit(link, flit, depart);
  const auto l = static_cast<std::size_t>(link.graph_link());
  if (l >= open_.size()) return;  // a NIC port
  Interval& open = open_[l];
  if (open.start == kNever) {
    open = {depart, depart};
  } else if (depart == open.end + 1) {
    open.end = depart;
  } else if (depart < open.start || depart > open.end) {
    done_[l].push_back(open);
    open = {depart, depart};
  }
}

std::vector<std::vector<LinkBusyTrace::Interval>> LinkBusyTrace::intervals() const {
  std::vector<std::vector<Interval>> all = done_;
  for (std::size_t l = 0; l < all.size(); ++l) {
    if (open_[l].start != kNever) all[l].push_back(open_[l]);
    std::sort(all[l].begin(), all[l].end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  }
  return all;
}

void LinkBusyTrace::write_csv(const std::string& path, const topology::Topology& topology) const {
  const topology::Graph& g = topology.graph();
  const auto* grid = dynamic_cast<const topology::Grid*>(&topology);
  const auto coord = [&](topology::NodeId n) {
    std::string s;
    const topology::EndpointId e = g.node(n).endpoint;
    if (grid == nullptr) {
      // Coordinates the topology gives its nodes (a graph file's `at`, a fat
      // tree's or dragonfly's drawing position), routers too, shortest form.
      for (const double c : g.node(n).at) {
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, c).ptr;
        s += (s.empty() ? "" : " ") + std::string(text, end);
      }
      return s;
    }
    if (e == topology::kNone) return s;
    for (const int c : grid->coord(e)) s += (s.empty() ? "" : " ") + std::to_string(c);
    return s;
  };
  File f = open_for_writing(path, "--trace-links");
  std::fprintf(f.get(), "%s\n", header());
  const auto all = intervals();
  for (std::size_t l = 0; l < all.size(); ++l) {
    if (all[l].empty()) continue;
    const auto id = static_cast<topology::LinkId>(l);
    const topology::Link& link = g.link(id);
    const std::string name = g.link_name(id);
    const std::string from = g.node_name(link.src);
    const std::string to = g.node_name(link.dst);
    const std::string from_coord = coord(link.src);
    const std::string to_coord = coord(link.dst);
    for (const Interval& i : all[l])
      std::fprintf(f.get(), "%s,%s,%s,%llu,%llu,%llu,%zu,%s,%s\n", name.c_str(), from.c_str(), to.c_str(),
                   static_cast<unsigned long long>(i.start), static_cast<unsigned long long>(i.end),
                   static_cast<unsigned long long>(i.end - i.start + 1), l, from_coord.c_str(), to_coord.c_str());
  }
  close_checked(std::move(f), path, "--trace-links");
}

}  // namespace collnet::systemc
