#include "systemc/nic/barrier_network.hpp"

#include <algorithm>

#include "systemc/network/model_keys.hpp"
#include "topology/grid.hpp"

namespace collnet::systemc {

BarrierConfig barrier_config_from(const Params& params, int link_latency) {
  BarrierConfig c;
  const BarrierKeys& k = declared<BarrierKeys>();
  c.kind = k.barrier.choice(params) == "ideal" ? BarrierKind::ideal : BarrierKind::recursive_doubling;
  c.latency = static_cast<Cycle>(k.barrier_latency.integer(params));
  c.step_latency = static_cast<Cycle>(std::max(link_latency, 1));
  return c;
}

std::string barrier_kind_name(BarrierKind kind) {
  return kind == BarrierKind::ideal ? "ideal" : "recursive-doubling";
}

BarrierNetwork::BarrierNetwork(const topology::Topology& topology, const BarrierConfig& config,
                               std::function<void(topology::EndpointId, Cycle)> wake)
    : config_(config), nodes_(static_cast<std::size_t>(topology.endpoint_count())), wake_(std::move(wake)) {
  if (config_.latency < 1 || config_.step_latency < 1)
    throw ConfigError("key 'barrier_latency': expected at least 1 cycle");
  if (const auto* grid = dynamic_cast<const topology::Grid*>(&topology)) {
    int stride = 1;
    for (int d = 0; d < grid->dims(); ++d) {
      if (grid->size(d) > 1) {
        axis_size_.push_back(grid->size(d));
        axis_stride_.push_back(stride);
      }
      stride *= grid->size(d);
    }
  } else if (nodes_ > 1) {
    axis_size_.push_back(static_cast<int>(nodes_));
    axis_stride_.push_back(1);
  }
  round_of_.assign(nodes_, 0);
  inside_.assign(nodes_, false);
  release_.assign(nodes_, kNever);
}

std::vector<Cycle> BarrierNetwork::release_cycles(const std::vector<Cycle>& entries) const {
  const Cycle last = *std::max_element(entries.begin(), entries.end());
  if (config_.kind == BarrierKind::ideal) return std::vector<Cycle>(entries.size(), last + config_.latency);
  // Dissemination, axis after axis; t[i] = the cycle node i has heard from
  // every node its flags have reached so far.
  std::vector<Cycle> t = entries;
  std::vector<Cycle> next(t.size());
  for (std::size_t a = 0; a < axis_size_.size(); ++a) {
    const int n = axis_size_[a];
    const int stride = axis_stride_[a];
    for (int distance = 1; distance < n; distance *= 2) {
      for (std::size_t i = 0; i < t.size(); ++i) {
        const int c = static_cast<int>(i / static_cast<std::size_t>(stride)) % n;
        const int from = (c - distance % n + n) % n;
        const std::size_t j = i + static_cast<std::size_t>((from - c) * stride);
        next[i] = std::max(t[i], t[j]) + config_.step_latency;
      }
      t.swap(next);
    }
  }
  // One node alone (or axes of size 1 only): nothing to wait for but the
  // flag itself.
  if (axis_size_.empty())
    for (auto& c : t) c += config_.step_latency;
  return t;
}

void BarrierNetwork::enter(topology::EndpointId node, std::uint32_t number, Cycle now) {
  const auto i = static_cast<std::size_t>(node);
  Round& round = rounds_[round_of_[i]];
  if (round.entered == 0) {
    round.number = number;
    round.entries.assign(nodes_, kNever);
  } else if (round.number != number) {
    if (error_.empty())
      error_ = "barrier mismatch: endpoint " + std::to_string(node) + " entered barrier " + std::to_string(number) +
               " while the others are in barrier " + std::to_string(round.number);
    return;
  }
  round.entries[i] = now;
  ++round.entered;
  inside_[i] = true;
  release_[i] = kNever;
  if (round.entered < nodes_) return;

  const std::vector<Cycle> release = release_cycles(round.entries);
  BarrierRecord r;
  r.number = number;
  r.first_entry = *std::min_element(round.entries.begin(), round.entries.end());
  r.last_entry = *std::max_element(round.entries.begin(), round.entries.end());
  r.first_release = *std::min_element(release.begin(), release.end());
  r.last_release = *std::max_element(release.begin(), release.end());
  records_.push_back(r);
  for (std::size_t k = 0; k < nodes_; ++k) {
    release_[k] = release[k];
    wake_(static_cast<topology::EndpointId>(k), release[k]);
  }
}

bool BarrierNetwork::released(topology::EndpointId node, Cycle now) const {
  const auto i = static_cast<std::size_t>(node);
  return inside_[i] && release_[i] <= now;
}

void BarrierNetwork::leave(topology::EndpointId node) {
  const auto i = static_cast<std::size_t>(node);
  inside_[i] = false;
  release_[i] = kNever;
  const std::size_t r = round_of_[i]++;
  Round& round = rounds_[r];
  if (++round.left == nodes_) rounds_.erase(r);
}

}  // namespace collnet::systemc
