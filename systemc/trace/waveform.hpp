// Waveforms of a network run: a VCD file and FILE.gtkw, a GTKWave save file
// that opens it (docs/guide/waveforms.md is the user's guide).
//
// One VCD time unit is one network cycle. VCD has no unit "cycle", so the
// timescale is 1 ns and GTKWave's axis reads ns: 1 ns = 1 cycle.
//
// Signals (hierarchy network.*):
//   <dir or layer>.<link>.busy    a flit departs on the directed link in that cycle
//                        .source  source endpoint of the last flit
//                        .hops    route hop count of that flit's packet
//                        .flows   distinct source->destination flows that sent a
//                                 flit over the link in the last flow_window
//                                 cycles (document 000's "links carry 1, 2, 3,
//                                 2, 1 flows")
//   routers.<r>.occupancy         flits in the router's input buffers
//   nodes.<n>.phase               tag of the SEND the node last started (its step)
//            .barrier             1 while the node waits inside a barrier
//            .c<k>_busy           controller k has a SEND (or local copy) in progress
//            .c<k>_inject         controller k puts a flit on its injection link
// The nodes.* signals exist in collective runs (NICs); synthetic runs have none.
//
// Links are grouped by dimension and direction (x+, x-, ...) on tori and
// meshes and by layer (the kinds of the two ends: server->leaf, leaf->spine,
// ...) elsewhere. The save file shows, in this order: the overview (one row
// per link: its `flows`, grouped as above, open), the per-link detail groups
// (closed), the nodes (phase, barrier and inject groups, one row per node or
// controller, open; busy, closed) and the router occupancies (closed). It opens on the
// whole run from cycle 0: the zoom is written when the run ends.
//
// The tracer exists only when a waveform is requested: with it off, links,
// routers and NICs test one null observer pointer per event.
#pragma once

#include <cstdio>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "systemc/kernel/clocked.hpp"
#include "systemc/link/link.hpp"
#include "systemc/nic/nic.hpp"
#include "systemc/router/router.hpp"

namespace collnet::systemc {

class Network;

class WaveformTracer final : public Clocked, public LinkObserver, public RouterObserver, public NicObserver {
 public:
  /// Opens `path` (throws ConfigError if it cannot) and writes the header
  /// and the GTKWave save file `path + ".gtkw"`. `nics`: the run's NICs in
  /// endpoint order (empty for synthetic traffic: no node signals).
  WaveformTracer(const sc_core::sc_module_name& name, Network& network, const std::string& path,
                 Cycle flow_window, const std::vector<Nic*>& nics = {});
  ~WaveformTracer() override;

  void on_flit(const Link& link, const Flit& flit, Cycle depart) override;
  void on_occupancy(const Router& router, Cycle now, int flits) override;
  void on_send_start(topology::EndpointId node, int controller, std::uint32_t tag, bool busy, Cycle now) override;
  void on_inject(topology::EndpointId node, int controller, Cycle now) override;
  void on_send_end(topology::EndpointId node, int controller, Cycle from) override;
  void on_barrier(topology::EndpointId node, std::uint32_t tag, bool inside, Cycle now) override;
  /// Writes every change up to and including `last` and closes the file.
  void finish(Cycle last);

  /// The save file written next to a VCD file.
  static std::string save_file_path(const std::string& vcd_path) { return vcd_path + ".gtkw"; }

  /// The GTKWave window the save file asks for, and its signal pane.
  static constexpr int kWindowWidth = 1400;
  static constexpr int kWindowHeight = 900;
  static constexpr int kSignalsWidth = 280;
  /// The save-file zoom that shows cycles 0 .. end (and a little more) in
  /// that window. GTKWave 3.3 reads the zoom z as 2^-z time units per frame
  /// of 200 pixels; its wave pane is the window width less the signal pane
  /// less 300 pixels (measured in GTKWave 3.3.118; tests/cli/gtkwave_test.cpp
  /// checks the visible window in GTKWave itself).
  static double fit_zoom(Cycle end);

 protected:
  Cycle evaluate(Cycle now) override;

 private:
  enum class Kind : std::uint8_t { flit, pulse, value };
  struct Event {
    Cycle time;
    std::uint64_t sequence;
    Kind kind;
    int index;  // graph link (flit), pulse or value signal
    std::uint32_t source;
    std::uint32_t destination;
    std::uint32_t value;  // hops (flit), or the new value
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : sequence > o.sequence; }
  };
  /// A 1-bit signal that is 1 exactly in the cycles with an event.
  struct Pulse {
    std::string id;
    bool on = false;
    Cycle last = kNever;
  };
  /// A signal holding its last value; written once per cycle if it changed.
  struct Value {
    std::string id;
    int width = 1;
    std::uint32_t written = 0;
    std::uint32_t pending = 0;
    bool dirty = false;
  };
  struct FlowSeen {
    std::uint64_t flow;
    Cycle last;
  };
  struct LinkTrace {
    int busy = -1;                       // pulse
    int source = -1, hops = -1, flows = -1;  // values
    std::vector<FlowSeen> seen;
  };
  struct NodeTrace {
    int phase = -1, barrier = -1;  // values
    std::vector<int> busy;         // values, per controller
    std::vector<int> inject;       // pulses, per controller
  };
  int add_pulse();
  int add_value(int width);
  void push(Cycle time, Kind kind, int index, std::uint32_t value, std::uint32_t source = 0,
            std::uint32_t destination = 0);
  void set(int value, std::uint32_t v);
  void advance_to(Cycle last);
  void write_save_file(std::optional<Cycle> end);
  void emit_time(Cycle t);
  void write_value(const Value& v);
  [[nodiscard]] std::string next_id();

  Network& network_;
  std::FILE* file_ = nullptr;
  Cycle flow_window_;
  std::vector<LinkTrace> links_;
  std::vector<NodeTrace> nodes_;  // per endpoint (collective runs)
  std::vector<Pulse> pulses_;
  std::vector<Value> values_;
  std::vector<int> router_values_;  // occupancy, per router
  std::vector<Nic*> nics_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t sequence_ = 0;
  std::vector<int> active_pulses_;  // pulses at 1 now
  std::vector<int> flow_links_;     // links with a non-empty flow list
  std::vector<int> dirty_;          // values changed in the cycle being written
  Cycle processed_ = 0;             // every cycle < processed_ is written
  Cycle written_time_ = kNever;
  std::uint64_t next_id_ = 0;
  bool finished_ = false;
  std::string save_path_, save_head_, save_body_;  // the GTKWave save file, rewritten with the zoom at the end
};

}  // namespace collnet::systemc
