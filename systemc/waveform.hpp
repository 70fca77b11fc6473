// Waveforms of a network run (issue 4, item 6): a VCD file with, per directed
// graph link, `busy` (a flit departs on it in that cycle), `source` (source
// endpoint of the last flit), `hops` (route hop count of that flit's packet)
// and `flows` (distinct source->destination flows that sent a flit over the
// link in the last flow_window cycles: document 000's "links carry 1, 2, 3,
// 2, 1 flows"), and per router `occupancy` (flits in its input buffers). Next
// to it, FILE.gtkw: a GTKWave save file that opens the signals grouped by
// dimension and direction (x+, x-, ...; "links" for other topologies), one
// group per link, then the routers. One time unit = one cycle = 1 ns.
//
// The tracer exists only when a waveform is requested: with it off, links and
// routers test one null observer pointer per flit and per evaluation.
#pragma once

#include <cstdio>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "systemc/clocked.hpp"
#include "systemc/link.hpp"
#include "systemc/router.hpp"

namespace collnet::systemc {

class Network;

class WaveformTracer final : public Clocked, public LinkObserver, public RouterObserver {
 public:
  /// Opens `path` (throws ConfigError if it cannot) and writes the header
  /// and the GTKWave save file `path + ".gtkw"`.
  WaveformTracer(const sc_core::sc_module_name& name, Network& network, const std::string& path,
                 Cycle flow_window);
  ~WaveformTracer() override;

  void on_flit(const Link& link, const Flit& flit, Cycle depart) override;
  void on_occupancy(const Router& router, Cycle now, int flits) override;
  /// Writes every change up to and including `last` and closes the file.
  void finish(Cycle last);

  /// The save file written next to a VCD file.
  static std::string save_file_path(const std::string& vcd_path) { return vcd_path + ".gtkw"; }

  /// Width in pixels of GTKWave's wave pane in the saved window (1400 wide,
  /// less the signal and hierarchy panes and margins).
  static constexpr double kWavePanePixels = 760;
  /// The GTKWave zoom that shows cycles 0 .. end across the wave pane.
  static double fit_zoom(Cycle end);

 protected:
  Cycle evaluate(Cycle now) override;

 private:
  struct Event {
    Cycle time;
    std::uint64_t sequence;
    int link;            // -1: router occupancy
    int index;           // router index when link == -1
    std::uint32_t source;
    std::uint32_t destination;
    std::uint32_t value;  // hops, or occupancy
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : sequence > o.sequence; }
  };
  struct FlowSeen {
    std::uint64_t flow;
    Cycle last;
  };
  struct LinkTrace {
    std::string busy, source, hops, flows;  // VCD identifiers
    bool busy_now = false;
    Cycle last_depart = kNever;
    std::vector<FlowSeen> seen;
    std::uint32_t flow_count = 0;
    std::uint32_t source_value = 0;  // last written values
    std::uint32_t hops_value = 0;
  };
  void advance_to(Cycle last);
  void write_save_file(std::optional<Cycle> end);
  void emit_time(Cycle t);
  void change_bit(const std::string& id, bool value);
  void change_vector(const std::string& id, std::uint32_t value);
  [[nodiscard]] std::string next_id();

  Network& network_;
  std::FILE* file_ = nullptr;
  Cycle flow_window_;
  std::vector<LinkTrace> links_;
  std::vector<std::string> routers_;  // occupancy identifiers
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t sequence_ = 0;
  std::vector<int> busy_links_;   // links with busy = 1 now
  std::vector<int> flow_links_;   // links with a non-empty flow list
  Cycle processed_ = 0;           // every cycle < processed_ is written
  Cycle written_time_ = kNever;
  std::uint64_t next_id_ = 0;
  bool finished_ = false;
  std::string save_path_, save_head_, save_body_;  // the GTKWave save file, rewritten with the zoom at the end
};

}  // namespace collnet::systemc
