#include "systemc/waveform.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include <algorithm>
#include <fstream>
#include <map>

#include "collectives/params.hpp"
#include "systemc/network.hpp"

namespace collnet::systemc {

namespace {

std::string group_of(const topology::Link& l) {
  if (l.dim < 0) return "links";
  static constexpr const char* kDims[] = {"x", "y", "z", "w"};
  const std::string d = l.dim < 4 ? kDims[static_cast<int>(l.dim)] : "d" + std::to_string(l.dim);
  return d + (l.dir > 0 ? "_plus" : "_minus");
}

std::string group_title(const std::string& group) {
  const auto u = group.find('_');
  if (u == std::string::npos) return group;
  return group.substr(0, u) + (group.substr(u + 1) == "plus" ? "+" : "-");
}

/// VCD scope names: letters, digits and underscores, not starting with a digit.
std::string scope_name(const std::string& text) {
  std::string s;
  for (char c : text) s += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) != 0) s = "n" + s;
  return s;
}

std::string binary(std::uint32_t v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v >>= 1) s += static_cast<char>('0' + (v & 1u));
  std::reverse(s.begin(), s.end());
  return s;
}

}  // namespace

std::string WaveformTracer::next_id() {
  // Printable VCD identifiers '!'..'~', shortest first.
  std::string id;
  std::uint64_t n = next_id_++;
  do {
    id += static_cast<char>('!' + n % 94);
    n /= 94;
  } while (n != 0);
  return id;
}

WaveformTracer::WaveformTracer(const sc_core::sc_module_name& name, Network& network, const std::string& path,
                               Cycle flow_window)
    : Clocked(name, /*run_at_start=*/false), network_(network), flow_window_(flow_window) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw ConfigError("--vcd: cannot write '" + path + "'");
  const topology::Graph& g = network.topology().graph();

  // Links grouped by dimension and direction, in graph order inside a group.
  std::map<std::string, std::vector<int>> groups;
  std::vector<std::string> order;
  for (std::size_t l = 0; l < g.link_count(); ++l) {
    const std::string group = group_of(g.link(static_cast<topology::LinkId>(l)));
    if (groups.find(group) == groups.end()) order.push_back(group);
    groups[group].push_back(static_cast<int>(l));
  }
  std::sort(order.begin(), order.end(), [](const std::string& a, const std::string& b) {
    // x_plus, x_minus, y_plus, ... then links
    auto rank = [](const std::string& s) {
      if (s == "links") return std::string("~");
      return s.substr(0, 1) + (s.find("plus") != std::string::npos ? "0" : "1");
    };
    return rank(a) < rank(b);
  });
  links_.resize(g.link_count());
  std::vector<std::string> link_scope(g.link_count());

  std::string header = "$version collnet cycle-accurate network $end\n$timescale 1ns $end\n";
  header += "$scope module network $end\n";
  for (const std::string& group : order) {
    header += "$scope module " + group + " $end\n";
    std::map<std::string, int> used;
    for (int l : groups[group]) {
      const topology::Link& gl = g.link(l);
      std::string s = scope_name(g.node_name(gl.src)) + "_to_" + scope_name(g.node_name(gl.dst));
      if (gl.dim < 0) s = scope_name(g.node_name(gl.src)) + "_p" + std::to_string(gl.src_port) + "_to_" +
                          scope_name(g.node_name(gl.dst));
      if (used[s]++ > 0) s += "_l" + std::to_string(l);
      link_scope[static_cast<std::size_t>(l)] = s;
      LinkTrace& t = links_[static_cast<std::size_t>(l)];
      t.busy = next_id();
      t.source = next_id();
      t.hops = next_id();
      t.flows = next_id();
      header += "$scope module " + s + " $end\n";
      header += "$var wire 1 " + t.busy + " busy $end\n";
      header += "$var wire 16 " + t.source + " source $end\n";
      header += "$var wire 8 " + t.hops + " hops $end\n";
      header += "$var wire 16 " + t.flows + " flows $end\n";
      header += "$upscope $end\n";
    }
    header += "$upscope $end\n";
  }
  header += "$scope module routers $end\n";
  std::vector<std::string> router_scope;
  for (std::size_t n = 0; n < network.router_count(); ++n) {
    routers_.push_back(next_id());
    router_scope.push_back(scope_name(g.node_name(static_cast<topology::NodeId>(n))));
    header += "$scope module " + router_scope.back() + " $end\n$var wire 32 " + routers_.back() +
              " occupancy $end\n$upscope $end\n";
  }
  header += "$upscope $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (const LinkTrace& t : links_)
    header += "0" + t.busy + "\nb0 " + t.source + "\nb0 " + t.hops + "\nb0 " + t.flows + "\n";
  for (const std::string& id : routers_) header += "b0 " + id + "\n";
  header += "$end\n";
  std::fputs(header.c_str(), file_);
  written_time_ = 0;

  // GTKWave save file: one group per dimension and direction, one group per
  // link inside it, then the router occupancies.
  save_path_ = save_file_path(path);
  std::ostringstream save;
  save_head_ = "[*] GTKWave save file written by collnet: links grouped by dimension and direction\n[dumpfile] \"" +
               path + "\"\n[timestart] 0\n[size] 1400 900\n[pos] -1 -1\n";
  save << "[signals_width] 320\n[sst_width] 240\n[treeopen] network.\n";
  for (const std::string& group : order) {
    save << "@800200\n-" << group_title(group) << "\n";
    for (int l : groups[group]) {
      const std::string scope = "network." + group + "." + link_scope[static_cast<std::size_t>(l)];
      save << "@800200\n-" << g.link_name(l) << "\n";
      save << "@28\n" << scope << ".busy\n";
      save << "@24\n" << scope << ".source[15:0]\n" << scope << ".hops[7:0]\n" << scope << ".flows[15:0]\n";
      save << "@1000200\n-" << g.link_name(l) << "\n";
    }
    save << "@1000200\n-" << group_title(group) << "\n";
  }
  save << "@c00200\n-routers\n@24\n";
  for (const std::string& s : router_scope) save << "network.routers." << s << ".occupancy[31:0]\n";
  save << "@1401200\n-routers\n";
  save_body_ = save.str();
  write_save_file(std::nullopt);

  network.set_link_observer(this);
  network.set_router_observer(this);
}

WaveformTracer::~WaveformTracer() {
  network_.set_link_observer(nullptr);
  network_.set_router_observer(nullptr);
  if (file_ != nullptr) std::fclose(file_);
}

void WaveformTracer::on_flit(const Link& link, const Flit& flit, Cycle depart) {
  if (link.graph_link() < 0) return;
  const Packet& p = network_.packets()[flit.packet];
  events_.push(Event{depart, sequence_++, link.graph_link(), 0, static_cast<std::uint32_t>(p.header.source),
                     static_cast<std::uint32_t>(p.header.destination), p.header.hops});
  wake_at(depart + 1);
}

void WaveformTracer::on_occupancy(const Router& router, Cycle now, int flits) {
  events_.push(Event{now, sequence_++, -1, router.node(), 0, 0, static_cast<std::uint32_t>(flits)});
  wake_at(now + 1);
}

void WaveformTracer::emit_time(Cycle t) {
  if (written_time_ == t) return;
  std::fprintf(file_, "#%llu\n", static_cast<unsigned long long>(t));
  written_time_ = t;
}

void WaveformTracer::change_bit(const std::string& id, bool value) {
  std::fprintf(file_, "%c%s\n", value ? '1' : '0', id.c_str());
}

void WaveformTracer::change_vector(const std::string& id, std::uint32_t value) {
  std::fprintf(file_, "b%s %s\n", binary(value).c_str(), id.c_str());
}

void WaveformTracer::advance_to(Cycle last) {
  Cycle t = processed_;
  while (t <= last) {
    if (busy_links_.empty() && flow_links_.empty()) {
      // Nothing changes until the next event.
      if (events_.empty() || events_.top().time > last) break;
      t = std::max(t, events_.top().time);
    }
    while (!events_.empty() && events_.top().time <= t) {
      const Event e = events_.top();
      events_.pop();
      emit_time(t);
      if (e.link < 0) {
        change_vector(routers_[static_cast<std::size_t>(e.index)], e.value);
        continue;
      }
      LinkTrace& lt = links_[static_cast<std::size_t>(e.link)];
      if (!lt.busy_now) {
        change_bit(lt.busy, true);
        lt.busy_now = true;
        busy_links_.push_back(e.link);
      }
      lt.last_depart = t;
      if (lt.source_value != e.source) change_vector(lt.source, lt.source_value = e.source);
      if (lt.hops_value != e.value) change_vector(lt.hops, lt.hops_value = e.value);
      const std::uint64_t flow = (static_cast<std::uint64_t>(e.source) << 32) | e.destination;
      auto it = std::find_if(lt.seen.begin(), lt.seen.end(), [&](const FlowSeen& f) { return f.flow == flow; });
      if (it == lt.seen.end()) {
        if (lt.seen.empty()) flow_links_.push_back(e.link);
        lt.seen.push_back(FlowSeen{flow, t});
      } else {
        it->last = t;
      }
    }
    // A link is busy only in the cycles in which a flit departs on it.
    for (std::size_t i = 0; i < busy_links_.size();) {
      LinkTrace& lt = links_[static_cast<std::size_t>(busy_links_[i])];
      if (lt.last_depart < t) {
        emit_time(t);
        change_bit(lt.busy, false);
        lt.busy_now = false;
        busy_links_[i] = busy_links_.back();
        busy_links_.pop_back();
      } else {
        ++i;
      }
    }
    // A flow shares a link for flow_window cycles after its last flit there.
    for (std::size_t i = 0; i < flow_links_.size();) {
      LinkTrace& lt = links_[static_cast<std::size_t>(flow_links_[i])];
      std::erase_if(lt.seen, [&](const FlowSeen& f) { return f.last + flow_window_ <= t; });
      const auto count = static_cast<std::uint32_t>(lt.seen.size());
      if (count != lt.flow_count) {
        emit_time(t);
        change_vector(lt.flows, count);
        lt.flow_count = count;
      }
      if (lt.seen.empty()) {
        flow_links_[i] = flow_links_.back();
        flow_links_.pop_back();
      } else {
        ++i;
      }
    }
    ++t;
  }
  processed_ = std::max(processed_, last + 1);
}

Cycle WaveformTracer::evaluate(Cycle now) {
  // Everything of cycle now-1 is known in cycle now: routers report
  // occupancy in the cycle they run, flits are reported before departing.
  if (now > 0) advance_to(now - 1);
  if (!events_.empty() || !busy_links_.empty() || !flow_links_.empty()) return now + 1;
  return kNever;
}

double WaveformTracer::fit_zoom(Cycle end) {
  // GTKWave shows zoombase^(-zoom) time units per pixel (zoombase 2).
  const double per_pixel = static_cast<double>(std::max<Cycle>(end, 1)) / kWavePanePixels;
  return -std::log2(per_pixel);
}

void WaveformTracer::write_save_file(std::optional<Cycle> end) {
  std::ofstream save(save_path_);
  if (!save) throw ConfigError("--vcd: cannot write '" + save_path_ + "'");
  save << save_head_;
  // The zoom that fits the whole run (0 .. end) into the wave pane; no markers.
  if (end) {
    save << "*" << std::fixed << std::setprecision(6) << fit_zoom(*end) << " -1";
    for (int i = 0; i < 26; ++i) save << " -1";
    save << "\n";
  }
  save << save_body_;
}

void WaveformTracer::finish(Cycle last) {
  if (finished_) return;
  finished_ = true;
  advance_to(last);
  emit_time(last + 1);
  std::fclose(file_);
  file_ = nullptr;
  write_save_file(last + 1);
}

}  // namespace collnet::systemc
