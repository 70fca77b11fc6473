#include "systemc/link/link_faults.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <zlib.h>

#include "systemc/network/model_keys.hpp"

namespace collnet::systemc {

LinkFaultConfig link_faults_from(const Params& params) {
  LinkFaultConfig c;
  const LinkFaultKeys& k = declared<LinkFaultKeys>();
  c.error_rate = k.link_error_rate.real(params);
  c.retry = k.link_retry.choice(params) == "none" ? LinkRetry::none : LinkRetry::go_back_n;
  c.replay_flits = static_cast<int>(k.link_replay_flits.integer(params));
  c.seed = static_cast<std::uint64_t>(k.fault_seed.integer(params));
  c.down_text = k.link_down.text(params);
  c.enabled = c.error_rate > 0 || !c.down_text.empty() || params.has(k.link_replay_flits.name);
  return c;
}

std::vector<LinkDown> resolve_link_down(const std::string& text, const topology::Topology& topology) {
  std::vector<LinkDown> downs;
  const topology::Graph& g = topology.graph();
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto at = item.rfind('@');
    const std::string examples = g.link_count() > 1 ? g.link_name(0) + "@500, " + g.link_name(1) + "@0" : "";
    if (at == std::string_view::npos || at == 0)
      throw ConfigError("key 'link_down': '" + std::string(item) + "' is not LINK@CYCLE (e.g. " + examples + ")");
    LinkDown d;
    d.name = std::string(item.substr(0, at));
    const std::string_view cycle = item.substr(at + 1);
    const auto [ptr, ec] = std::from_chars(cycle.data(), cycle.data() + cycle.size(), d.at);
    if (cycle.empty() || ec != std::errc{} || ptr != cycle.data() + cycle.size())
      throw ConfigError("key 'link_down': cycle '" + std::string(cycle) + "' in '" + std::string(item) +
                        "' is not a non-negative integer");
    for (std::size_t l = 0; l < g.link_count() && d.link == topology::kNone; ++l)
      if (g.link_name(static_cast<topology::LinkId>(l)) == d.name) d.link = static_cast<topology::LinkId>(l);
    if (d.link == topology::kNone)
      throw ConfigError("key 'link_down': " + topology.name() + " has no link '" + d.name +
                        "'; links are named as in the report's link_utilization.per_link, e.g. " + examples);
    downs.push_back(d);
  }
  return downs;
}

std::uint32_t flit_crc(const Flit& flit) {
  unsigned char bytes[sizeof(Flit)];
  std::memcpy(bytes, &flit, sizeof(Flit));
  return static_cast<std::uint32_t>(crc32(0L, bytes, sizeof bytes));
}

LinkFaults::LinkFaults(const LinkFaultConfig& config, int latency, std::uint64_t link_id, Cycle down_at)
    : retry_(config.retry),
      rate_(config.error_rate),
      round_trip_(2 * static_cast<Cycle>(latency)),
      replay_depth_(static_cast<std::size_t>(config.replay_flits > 0 ? config.replay_flits : 2 * latency)),
      down_at_(down_at),
      random_(config.seed, 0xF4A17000ull + link_id) {}

Cycle LinkFaults::transmit(Flit& flit, Cycle submitted) {
  Cycle t = std::max(submitted, next_);
  // The flit enters the wires once the replay buffer has room: the oldest
  // held flit leaves it when its ACK arrives, a round trip after it crossed.
  while (!unacked_.empty() && unacked_.front() + round_trip_ <= t) unacked_.pop_front();
  if (unacked_.size() >= replay_depth_) {
    t = std::max(t, unacked_.front() + round_trip_);
    unacked_.pop_front();
  }
  if (t >= down_at_) {
    ++held_flits_;
    next_ = kNever - 1;
    return kNever;
  }
  // Go-back-n: while an earlier flit's NAK is on its way, the sender goes on
  // sending what it has; the receiver drops those copies and they are sent
  // again after the replay.
  while (!windows_.empty() && windows_.front().end <= submitted) windows_.pop_front();
  for (Window& w : windows_) {
    const Cycle slot = std::max(submitted, w.slot);
    if (slot < w.end) {
      w.slot = slot + 1;
      ++retransmitted_;
    }
  }
  for (;;) {
    if (rate_ <= 0 || random_.unit() > rate_) break;
    // The wire flips one bit; the receiver's CRC check finds it.
    const std::uint32_t sent_crc = flit_crc(flit);
    Flit received = flit;
    received.payload ^= std::uint64_t{1} << random_.below(64);
    ++corrupted_;
    const bool detected = flit_crc(received) != sent_crc;
    if (retry_ == LinkRetry::none || !detected) {
      flit = received;  // delivered as it arrived
      break;
    }
    ++retransmitted_;
    windows_.push_back(Window{t + 1, t + round_trip_});
    t += round_trip_;
    if (t >= down_at_) {
      ++held_flits_;
      next_ = kNever - 1;
      return kNever;
    }
  }
  next_ = t + 1;
  unacked_.push_back(t);
  return t;
}

}  // namespace collnet::systemc
