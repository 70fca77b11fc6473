#include "systemc/trace/waveform.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "collectives/params.hpp"
#include "systemc/network/network.hpp"

namespace collnet::systemc {

namespace {

/// VCD scope names: letters, digits and underscores, not starting with a digit.
std::string scope_name(const std::string& text) {
  std::string s;
  for (char c : text) s += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) != 0) s = "n" + s;
  return s;
}

/// The group of a link: scope name (x_plus, ..., or server_to_leaf, ...),
/// title shown in GTKWave (x+, ..., server->leaf, ...) and sort rank.
struct LinkGroup {
  std::string scope, title, rank;
};

LinkGroup group_of(const topology::Graph& g, const topology::Link& l) {
  if (l.dim >= 0) {
    static constexpr const char* kDims[] = {"x", "y", "z", "w"};
    const std::string d = l.dim < 4 ? kDims[static_cast<int>(l.dim)] : "d" + std::to_string(l.dim);
    const bool plus = l.dir > 0;
    char rank[8];
    std::snprintf(rank, sizeof rank, "0%02d%d", static_cast<int>(l.dim), plus ? 0 : 1);
    return {d + (plus ? "_plus" : "_minus"), d + (plus ? "+" : "-"), rank};
  }
  // Other topologies: by layer, the kinds of the two ends.
  const std::string a = to_string(g.node(l.src).kind), b = to_string(g.node(l.dst).kind);
  return {scope_name(a) + "_to_" + scope_name(b), a + "->" + b,
          "1" + std::to_string(static_cast<int>(g.node(l.src).kind) * 16 + static_cast<int>(g.node(l.dst).kind) + 100)};
}

std::string binary(std::uint32_t v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v >>= 1) s += static_cast<char>('0' + (v & 1u));
  std::reverse(s.begin(), s.end());
  return s;
}

// GTKWave save-file trace flags (GTKWave's analyzer.h): right-justified
// decimal and binary values, and the blank rows that open and close groups.
constexpr const char* kDecimal = "@24";
constexpr const char* kBinary = "@28";
constexpr const char* kGroupOpen = "@800200";        // group begin, open
constexpr const char* kGroupClosed = "@c00200";      // group begin, closed
constexpr const char* kGroupEnd = "@1000200";        // end of an open group
constexpr const char* kGroupEndClosed = "@1401200";  // end of a closed group

void begin_group(std::ostringstream& save, const std::string& title, bool open) {
  save << (open ? kGroupOpen : kGroupClosed) << "\n-" << title << "\n";
}
void end_group(std::ostringstream& save, const std::string& title, bool open) {
  save << (open ? kGroupEnd : kGroupEndClosed) << "\n-" << title << "\n";
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

int WaveformTracer::add_pulse() {
  pulses_.push_back(Pulse{next_id()});
  return static_cast<int>(pulses_.size()) - 1;
}

int WaveformTracer::add_value(int width) {
  Value v;
  v.id = next_id();
  v.width = width;
  values_.push_back(v);
  return static_cast<int>(values_.size()) - 1;
}

WaveformTracer::WaveformTracer(const sc_core::sc_module_name& name, Network& network, const std::string& path,
                               Cycle flow_window, const std::vector<Nic*>& nics)
    : Clocked(name, /*run_at_start=*/false), network_(network), flow_window_(flow_window), nics_(nics) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw ConfigError("--vcd: cannot write '" + path + "'");
  const topology::Graph& g = network.topology().graph();

  // Links grouped by dimension and direction (or layer), in graph order
  // inside a group.
  std::map<std::string, std::vector<int>> groups;  // by rank
  std::map<std::string, LinkGroup> group_info;
  for (std::size_t l = 0; l < g.link_count(); ++l) {
    const LinkGroup group = group_of(g, g.link(static_cast<topology::LinkId>(l)));
    groups[group.rank].push_back(static_cast<int>(l));
    group_info[group.rank] = group;
  }
  links_.resize(g.link_count());
  std::vector<std::string> link_scope(g.link_count());

  std::string header =
      "$comment collnet cycle-accurate network: one time unit (1 ns) is one network cycle $end\n"
      "$version collnet $end\n$timescale 1ns $end\n$scope module network $end\n";
  auto var = [&header](const Value& v, const std::string& signal) {
    header += "$var wire " + std::to_string(v.width) + " " + v.id + " " + signal + " $end\n";
  };
  for (const auto& [rank, members] : groups) {
    const LinkGroup& group = group_info[rank];
    header += "$scope module " + group.scope + " $end\n";
    std::map<std::string, int> used;
    for (int l : members) {
      const topology::Link& gl = g.link(l);
      std::string s = scope_name(g.node_name(gl.src)) + "_to_" + scope_name(g.node_name(gl.dst));
      if (gl.dim < 0)
        s = scope_name(g.node_name(gl.src)) + "_p" + std::to_string(gl.src_port) + "_to_" +
            scope_name(g.node_name(gl.dst));
      if (used[s]++ > 0) s += "_l" + std::to_string(l);
      link_scope[static_cast<std::size_t>(l)] = s;
      LinkTrace& t = links_[static_cast<std::size_t>(l)];
      t.busy = add_pulse();
      t.source = add_value(16);
      t.hops = add_value(8);
      t.flows = add_value(16);
      header += "$scope module " + s + " $end\n";
      header += "$var wire 1 " + pulses_[static_cast<std::size_t>(t.busy)].id + " busy $end\n";
      var(values_[static_cast<std::size_t>(t.source)], "source");
      var(values_[static_cast<std::size_t>(t.hops)], "hops");
      var(values_[static_cast<std::size_t>(t.flows)], "flows");
      header += "$upscope $end\n";
    }
    header += "$upscope $end\n";
  }
  header += "$scope module routers $end\n";
  std::vector<std::string> router_scope;
  for (std::size_t n = 0; n < network.router_count(); ++n) {
    router_values_.push_back(add_value(32));
    router_scope.push_back(scope_name(g.node_name(static_cast<topology::NodeId>(n))));
    header += "$scope module " + router_scope.back() + " $end\n";
    var(values_.back(), "occupancy");
    header += "$upscope $end\n";
  }
  header += "$upscope $end\n";
  std::vector<std::string> node_scope;
  if (!nics_.empty()) {
    header += "$scope module nodes $end\n";
    for (std::size_t e = 0; e < nics_.size(); ++e) {
      node_scope.push_back(scope_name(g.node_name(g.endpoint_node(static_cast<topology::EndpointId>(e)))));
      NodeTrace t;
      header += "$scope module " + node_scope.back() + " $end\n";
      t.phase = add_value(16);
      var(values_.back(), "phase");
      t.barrier = add_value(1);
      var(values_.back(), "barrier");
      for (int k = 0; k < nics_[e]->controllers(); ++k) {
        t.busy.push_back(add_value(1));
        var(values_.back(), "c" + std::to_string(k) + "_busy");
        t.inject.push_back(add_pulse());
        header += "$var wire 1 " + pulses_.back().id + " c" + std::to_string(k) + "_inject $end\n";
      }
      header += "$upscope $end\n";
      nodes_.push_back(std::move(t));
    }
    header += "$upscope $end\n";
  }
  header += "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (const Pulse& p : pulses_) header += "0" + p.id + "\n";
  for (const Value& v : values_) header += (v.width == 1 ? "0" : "b0 ") + v.id + "\n";
  header += "$end\n";
  std::fputs(header.c_str(), file_);
  written_time_ = 0;

  // The GTKWave save file (layout in the header comment).
  save_path_ = save_file_path(path);
  // Group titles stay short: GTKWave widens its signal pane to the longest
  // displayed name, which narrows the wave pane the zoom was fitted to.
  save_head_ = "[*] GTKWave save file written by collnet. Time axis: 1 ns = 1 cycle (one VCD time unit per network "
               "cycle).\n[*] Rows: overview (flows per link), links (busy, source, hops, flows per link; closed), "
               "nodes: phase (tag of the SEND last started), barrier (1 = waiting in a barrier), inject (1 = flit "
               "injected, per controller), busy (SEND in progress, per controller; closed), routers: occupancy "
               "(closed).\n[dumpfile] \"" +
               path + "\"\n[timestart] 0\n[size] " + std::to_string(kWindowWidth) + " " +
               std::to_string(kWindowHeight) + "\n[pos] -1 -1\n";
  std::ostringstream save;
  save << "[signals_width] " << kSignalsWidth << "\n[sst_width] 200\n[treeopen] network.\n";
  auto link_signal = [&](int l, const char* signal) {
    const LinkGroup group = group_of(g, g.link(l));
    return "network." + group.scope + "." + link_scope[static_cast<std::size_t>(l)] + "." + signal;
  };
  const std::string overview = "overview: flows";
  begin_group(save, overview, true);
  for (const auto& [rank, members] : groups) {
    const std::string title = group_info[rank].title + " flows";
    begin_group(save, title, true);
    save << kDecimal << "\n";
    for (int l : members) save << "+{" << g.link_name(l) << "} " << link_signal(l, "flows") << "[15:0]\n";
    end_group(save, title, true);
  }
  end_group(save, overview, true);
  for (const auto& [rank, members] : groups) {
    const std::string title = "links " + group_info[rank].title;
    begin_group(save, title, false);
    for (int l : members) {
      begin_group(save, g.link_name(l), false);
      save << kBinary << "\n" << link_signal(l, "busy") << "\n";
      save << kDecimal << "\n" << link_signal(l, "source") << "[15:0]\n" << link_signal(l, "hops") << "[7:0]\n"
           << link_signal(l, "flows") << "[15:0]\n";
      end_group(save, g.link_name(l), false);
    }
    end_group(save, title, false);
  }
  if (!nodes_.empty()) {
    const std::string phase = "nodes: phase";
    begin_group(save, phase, true);
    save << kDecimal << "\n";
    for (const std::string& n : node_scope) save << "+{" << n << "} network.nodes." << n << ".phase[15:0]\n";
    end_group(save, phase, true);
    const std::string barrier = "nodes: barrier";
    begin_group(save, barrier, true);
    save << kBinary << "\n";
    for (const std::string& n : node_scope) save << "+{" << n << "} network.nodes." << n << ".barrier\n";
    end_group(save, barrier, true);
    // One bit per controller k of every node: signal c<k>_<suffix>, the
    // controllers `of` lists.
    const auto per_controller = [&](const std::string& title, bool closed, const char* suffix, auto of) {
      begin_group(save, title, closed);
      save << kBinary << "\n";
      for (std::size_t e = 0; e < nodes_.size(); ++e)
        for (std::size_t k = 0; k < of(nodes_[e]).size(); ++k)
          save << "+{" << node_scope[e] << ":c" << k << "} network.nodes." << node_scope[e] << ".c" << k << "_"
               << suffix << "\n";
      end_group(save, title, closed);
    };
    per_controller("nodes: inject", true, "inject", [](const auto& node) -> const auto& { return node.inject; });
    per_controller("nodes: busy", false, "busy", [](const auto& node) -> const auto& { return node.busy; });
  }
  begin_group(save, "routers: occupancy", false);
  save << kDecimal << "\n";
  for (const std::string& s : router_scope) save << "+{" << s << "} network.routers." << s << ".occupancy[31:0]\n";
  end_group(save, "routers: occupancy", false);
  save_body_ = save.str();
  write_save_file(std::nullopt);

  network.set_link_observer(this);
  network.set_router_observer(this);
  for (Nic* nic : nics_) nic->set_observer(this);
}

WaveformTracer::~WaveformTracer() {
  network_.set_link_observer(nullptr);
  network_.set_router_observer(nullptr);
  for (Nic* nic : nics_) nic->set_observer(nullptr);
  if (file_ != nullptr) std::fclose(file_);
}

void WaveformTracer::push(Cycle time, Kind kind, int index, std::uint32_t value, std::uint32_t source,
                          std::uint32_t destination) {
  events_.push(Event{time, sequence_++, kind, index, source, destination, value});
  wake_at(time + 1);
}

void WaveformTracer::on_flit(const Link& link, const Flit& flit, Cycle depart) {
  if (link.graph_link() < 0) return;
  const Packet& p = network_.packets()[flit.packet];
  push(depart, Kind::flit, link.graph_link(), p.header.hops, static_cast<std::uint32_t>(p.header.source),
       static_cast<std::uint32_t>(p.header.destination));
}

void WaveformTracer::on_occupancy(const Router& router, Cycle now, int flits) {
  push(now, Kind::value, router_values_[static_cast<std::size_t>(router.node())], static_cast<std::uint32_t>(flits));
}

void WaveformTracer::on_send_start(topology::EndpointId node, int controller, std::uint32_t tag, bool busy,
                                   Cycle now) {
  const NodeTrace& t = nodes_[static_cast<std::size_t>(node)];
  push(now, Kind::value, t.phase, tag);
  if (busy) push(now, Kind::value, t.busy[static_cast<std::size_t>(controller)], 1);
}

void WaveformTracer::on_inject(topology::EndpointId node, int controller, Cycle now) {
  push(now, Kind::pulse, nodes_[static_cast<std::size_t>(node)].inject[static_cast<std::size_t>(controller)], 1);
}

void WaveformTracer::on_send_end(topology::EndpointId node, int controller, Cycle from) {
  push(from, Kind::value, nodes_[static_cast<std::size_t>(node)].busy[static_cast<std::size_t>(controller)], 0);
}

void WaveformTracer::on_barrier(topology::EndpointId node, std::uint32_t /*tag*/, bool inside, Cycle now) {
  push(now, Kind::value, nodes_[static_cast<std::size_t>(node)].barrier, inside ? 1 : 0);
}

void WaveformTracer::emit_time(Cycle t) {
  if (written_time_ == t) return;
  std::fprintf(file_, "#%llu\n", static_cast<unsigned long long>(t));
  written_time_ = t;
}

void WaveformTracer::write_value(const Value& v) {
  if (v.width == 1) std::fprintf(file_, "%c%s\n", v.written != 0 ? '1' : '0', v.id.c_str());
  else std::fprintf(file_, "b%s %s\n", binary(v.written).c_str(), v.id.c_str());
}

void WaveformTracer::set(int value, std::uint32_t v) {
  Value& s = values_[static_cast<std::size_t>(value)];
  s.pending = v;
  if (!s.dirty) {
    s.dirty = true;
    dirty_.push_back(value);
  }
}

void WaveformTracer::advance_to(Cycle last) {
  Cycle t = processed_;
  auto pulse_on = [&](int index, Cycle at) {
    Pulse& p = pulses_[static_cast<std::size_t>(index)];
    if (!p.on) {
      emit_time(at);
      std::fprintf(file_, "1%s\n", p.id.c_str());
      p.on = true;
      active_pulses_.push_back(index);
    }
    p.last = at;
  };
  while (t <= last) {
    if (active_pulses_.empty() && flow_links_.empty()) {
      // Nothing changes until the next event.
      if (events_.empty() || events_.top().time > last) break;
      t = std::max(t, events_.top().time);
    }
    while (!events_.empty() && events_.top().time <= t) {
      const Event e = events_.top();
      events_.pop();
      if (e.kind == Kind::value) {
        set(e.index, e.value);
        continue;
      }
      if (e.kind == Kind::pulse) {
        pulse_on(e.index, t);
        continue;
      }
      LinkTrace& lt = links_[static_cast<std::size_t>(e.index)];
      pulse_on(lt.busy, t);
      set(lt.source, e.source);
      set(lt.hops, e.value);
      const std::uint64_t flow = (static_cast<std::uint64_t>(e.source) << 32) | e.destination;
      auto it = std::find_if(lt.seen.begin(), lt.seen.end(), [&](const FlowSeen& f) { return f.flow == flow; });
      if (it == lt.seen.end()) {
        if (lt.seen.empty()) flow_links_.push_back(e.index);
        lt.seen.push_back(FlowSeen{flow, t});
      } else {
        it->last = t;
      }
    }
    // A pulse is 1 only in the cycles of its events.
    for (std::size_t i = 0; i < active_pulses_.size();) {
      Pulse& p = pulses_[static_cast<std::size_t>(active_pulses_[i])];
      if (p.last < t) {
        emit_time(t);
        std::fprintf(file_, "0%s\n", p.id.c_str());
        p.on = false;
        active_pulses_[i] = active_pulses_.back();
        active_pulses_.pop_back();
      } else {
        ++i;
      }
    }
    // A flow shares a link for flow_window cycles after its last flit there.
    for (std::size_t i = 0; i < flow_links_.size();) {
      LinkTrace& lt = links_[static_cast<std::size_t>(flow_links_[i])];
      std::erase_if(lt.seen, [&](const FlowSeen& f) { return f.last + flow_window_ <= t; });
      set(lt.flows, static_cast<std::uint32_t>(lt.seen.size()));
      if (lt.seen.empty()) {
        flow_links_[i] = flow_links_.back();
        flow_links_.pop_back();
      } else {
        ++i;
      }
    }
    // Values: the last one set in the cycle, written if it changed.
    for (const int index : dirty_) {
      Value& v = values_[static_cast<std::size_t>(index)];
      v.dirty = false;
      if (v.pending == v.written) continue;
      v.written = v.pending;
      emit_time(t);
      write_value(v);
    }
    dirty_.clear();
    ++t;
  }
  processed_ = std::max(processed_, last + 1);
}

Cycle WaveformTracer::evaluate(Cycle now) {
  // Everything of cycle now-1 is known in cycle now: routers report
  // occupancy in the cycle they run, flits are reported before departing,
  // NICs report in the cycle they act (or for a later cycle).
  if (now > 0) advance_to(now - 1);
  if (!events_.empty() || !active_pulses_.empty() || !flow_links_.empty()) return now + 1;
  return kNever;
}

double WaveformTracer::fit_zoom(Cycle end) {
  // GTKWave: nsperframe = 2^-zoom time units per 200-pixel frame (at least
  // 1), so a pane of P pixels shows P / 200 * 2^-zoom units. Aim at 5 % more
  // than the run so that its end stays inside a slightly narrower pane.
  const double pane = kWindowWidth - kSignalsWidth - 300;
  const double per_frame = std::max(1.0, 1.05 * static_cast<double>(std::max<Cycle>(end, 1)) * 200.0 / pane);
  return -std::log2(per_frame);
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
