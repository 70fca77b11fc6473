#include "systemc/nic/descriptor_source.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "driver/engine_block.hpp"
#include "driver/engine_catalog.hpp"
#include "systemc/nic/forwarding_rule.hpp"
#include "systemc/nic/rtl_blocks.hpp"

namespace collnet::systemc {

using driver::EngineBlock;
using driver::EngineInputs;
using driver::EngineOutputs;

namespace {

/// The reference program, one descriptor per cycle.
class ProgramSource final : public DescriptorSource {
 public:
  explicit ProgramSource(const collectives::Program& program) : program_(program) {}
  std::optional<Descriptor> peek(Cycle /*now*/) override {
    if (next_ >= program_.size()) return std::nullopt;
    return program_[next_];
  }
  void take(Cycle /*now*/) override { ++next_; }
  [[nodiscard]] std::size_t taken() const override { return next_; }
  [[nodiscard]] bool exhausted() const override { return next_ >= program_.size(); }

 private:
  const collectives::Program& program_;
  std::size_t next_ = 0;
};

/// The endpoint's threads (Schedule::threads), each a reference program of
/// its own: one stream per thread.
class ThreadSource final : public DescriptorSource {
 public:
  explicit ThreadSource(const std::vector<collectives::Thread>& threads)
      : threads_(threads), next_(threads.size(), 0) {
    for (const collectives::Thread& t : threads_)
      for (const std::uint32_t f : t.forwards) cut_through_ = cut_through_ || f != 0;
  }
  std::optional<Descriptor> peek(Cycle now) override { return peek_stream(now, 0); }
  void take(Cycle now) override { take_stream(now, 0); }
  [[nodiscard]] std::size_t taken() const override {
    std::size_t n = 0;
    for (const std::size_t k : next_) n += k;
    return n;
  }
  [[nodiscard]] bool exhausted() const override {
    for (std::size_t s = 0; s < threads_.size(); ++s)
      if (!stream_exhausted(s)) return false;
    return true;
  }
  [[nodiscard]] std::size_t streams() const override { return threads_.size(); }
  std::optional<Descriptor> peek_stream(Cycle /*now*/, std::size_t s) override {
    if (next_[s] >= threads_[s].program.size()) return std::nullopt;
    return threads_[s].program[next_[s]];
  }
  void take_stream(Cycle /*now*/, std::size_t s) override { ++next_[s]; }
  [[nodiscard]] bool stream_exhausted(std::size_t s) const override {
    return next_[s] >= threads_[s].program.size();
  }
  [[nodiscard]] std::uint32_t forwards(std::size_t s) const override {
    const collectives::Thread& t = threads_[s];
    return next_[s] < t.forwards.size() ? t.forwards[next_[s]] : 0;
  }
  [[nodiscard]] bool cut_through() const override { return cut_through_; }

 private:
  const std::vector<collectives::Thread>& threads_;
  std::vector<std::size_t> next_;
  bool cut_through_ = false;
};

/// A schedule engine (HLS or RTL), stepped once per cycle from cycle 0.
class EngineSource final : public DescriptorSource {
 public:
  EngineSource(std::unique_ptr<EngineBlock> engine, const std::vector<driver::EngineWrite>& writes)
      : engine_(std::move(engine)) {
    // Register writes before cycle 0: software loads the NIC's engine before
    // the collective starts.
    for (const driver::EngineWrite& w : writes) engine_->step(EngineInputs{true, w.addr, w.data, false});
  }

  std::optional<Descriptor> peek(Cycle now) override {
    // Cycles [stepped_, now) had ready low; replay them exactly (the engine
    // may keep computing while its output waits). Once an idle cycle leaves
    // the engine's state unchanged (its offer waiting for the NIC), the
    // remaining idle cycles are no-ops until the next take.
    if (!at_rest_) {
      while (stepped_ < now) {
        ++stepped_;
        // Only an engine holding its offer is likely at rest (one comparison
        // per take); one still computing is stepped plainly.
        if (!engine_->outputs().out_valid) {
          engine_->step(EngineInputs{});
        } else if (engine_->step_idle()) {
          at_rest_ = true;
          break;
        }
      }
    }
    if (at_rest_) stepped_ = std::max(stepped_, now);
    const EngineOutputs out = engine_->outputs();
    if (!out.out_valid) return std::nullopt;
    if (!unpacked_ || !(out.out_desc == word_)) {
      word_ = out.out_desc;
      descriptor_ = Descriptor::unpack(word_);
      unpacked_ = true;
    }
    return descriptor_;
  }

  void take(Cycle now) override {
    if (now != stepped_ || !engine_->outputs().out_valid) throw std::logic_error("schedule engine: take without offer");
    engine_->step(EngineInputs{false, 0, 0, true});
    at_rest_ = false;
    ++stepped_;
    ++taken_;
  }
  [[nodiscard]] std::size_t taken() const override { return taken_; }
  /// The engines go idle (busy low) once END has been taken.
  [[nodiscard]] bool exhausted() const override { return taken_ > 0 && !engine_->outputs().busy; }

 private:
  std::unique_ptr<EngineBlock> engine_;
  Cycle stepped_ = 0;  // the engine has been stepped through cycle stepped_ - 1
  bool at_rest_ = false;  // an idle cycle left the engine unchanged (since the last take)
  bool unpacked_ = false;
  DescriptorWord word_;   // the last offered word and its unpacked descriptor
  Descriptor descriptor_;
  std::size_t taken_ = 0;
};

/// A receipt-driven broadcast node (make_rule_source in the header).
class RuleSource final : public DescriptorSource {
 public:
  RuleSource(std::unique_ptr<ForwardingRuleBlock> block, const collectives::ForwardingNode& node,
             topology::EndpointId self)
      : block_(std::move(block)), node_(node), self_(self) {
    hls::TreeBcastRuleConfig config;
    config.is_root = node.parent_port < 0;
    config.parent_port = static_cast<std::uint8_t>(config.is_root ? 0 : node.parent_port);
    for (const std::int32_t p : node.child_ports) config.child_mask |= std::uint64_t{1} << p;
    block_->configure(config);
    if (node.originates) {
      // spec tree-broadcast: the logical root starts, with no sender.
      stage_ = Stage::asking;
      from_none_ = true;
    }
  }

  std::optional<Descriptor> peek(Cycle now) override {
    if (stage_ == Stage::asking && now >= request_cycle_) {
      // The request, in the cycle the message arrived (the block is idle
      // before it: no cycle to replay).
      hls::TreeBcastRuleInputs in;
      in.in_valid = true;
      in.from_none = from_none_;
      in.from_port = from_port_;
      if (!block_->step(in).in_ready) throw std::logic_error("tree_bcast_rule: request refused");
      stage_ = Stage::answering;
      asked_at_ = now;
      return std::nullopt;  // latency 1: the answer is a register
    }
    if (stage_ == Stage::answering && now > asked_at_) {
      // The answer, taken in the cycle after the request (out_ready high);
      // the NIC latches the mask and walks it.
      hls::TreeBcastRuleInputs in;
      in.out_ready = true;
      const hls::TreeBcastRuleOutputs out = block_->step(in);
      if (!out.out_valid) throw std::logic_error("tree_bcast_rule: no answer one cycle after the request");
      mask_ = out.out_mask;
      stage_ = Stage::forwarding;
    }
    if (stage_ == Stage::forwarding) {
      if (mask_ == 0) return Descriptor::end();
      const auto port = static_cast<std::size_t>(std::countr_zero(mask_));
      const topology::EndpointId to =
          port < node_.port_neighbour.size() ? node_.port_neighbour[port] : topology::kNone;
      if (to == topology::kNone)
        throw std::logic_error("tree_bcast_rule: endpoint " + std::to_string(self_) + " forwards on port " +
                               std::to_string(port) + ", which has no link");
      return Descriptor::send(static_cast<std::uint32_t>(to), 0, 0, node_.message_words, tag_);
    }
    return std::nullopt;
  }

  void take(Cycle /*now*/) override {
    if (stage_ != Stage::forwarding) throw std::logic_error("tree_bcast_rule: take without offer");
    if (mask_ == 0) stage_ = Stage::done;
    else mask_ &= mask_ - 1;  // the lowest port is sent
    ++taken_;
  }
  [[nodiscard]] std::size_t taken() const override { return taken_; }
  [[nodiscard]] bool exhausted() const override { return stage_ == Stage::done; }
  [[nodiscard]] bool waiting_for_arrival() const override { return stage_ == Stage::waiting; }

  std::string arrived(topology::EndpointId from, std::uint32_t tag, Cycle now) override {
    const std::string who = "endpoint " + std::to_string(self_) + " (forwarding rule): ";
    // spec tree-broadcast fact 1: the logical root never receives the
    // message back; every other node receives it exactly once.
    if (node_.originates) return who + "the logical root received the broadcast back from " + std::to_string(from);
    if (received_) return who + "received the broadcast a second time, from " + std::to_string(from);
    const auto it = std::find(node_.port_neighbour.begin(), node_.port_neighbour.end(), from);
    if (it == node_.port_neighbour.end())
      return who + "received the broadcast from " + std::to_string(from) + ", which is not a tree neighbour";
    received_ = true;
    stage_ = Stage::asking;
    request_cycle_ = now;
    from_port_ = static_cast<std::uint8_t>(it - node_.port_neighbour.begin());
    tag_ = tag + 1;
    return "";
  }

 private:
  enum class Stage : std::uint8_t { waiting, asking, answering, forwarding, done };
  std::unique_ptr<ForwardingRuleBlock> block_;
  collectives::ForwardingNode node_;
  topology::EndpointId self_;
  Stage stage_ = Stage::waiting;
  Cycle request_cycle_ = 0;
  Cycle asked_at_ = 0;  // the cycle the request was presented
  bool from_none_ = false;
  std::uint8_t from_port_ = 0;
  bool received_ = false;
  std::uint32_t tag_ = 0;   // tag of the forwarded SENDs
  std::uint64_t mask_ = 0;  // ports still to send to
  std::size_t taken_ = 0;
};

}  // namespace

std::string forwarding_rule_refusal(const std::vector<collectives::ForwardingNode>& nodes) {
  for (std::size_t v = 0; v < nodes.size(); ++v) {
    std::int32_t highest = nodes[v].parent_port;
    for (const std::int32_t p : nodes[v].child_ports) highest = std::max(highest, p);
    if (highest >= static_cast<std::int32_t>(hls::TreeBcastRule::ports))
      return "key 'topology': node " + std::to_string(v) + " has a tree link on port " + std::to_string(highest) +
             ", and the forwarding-rule block (hls/tree_bcast_rule.hpp) numbers ports 0.." +
             std::to_string(hls::TreeBcastRule::ports - 1) + " (at most " +
             std::to_string(hls::TreeBcastRule::ports - 1) + " children per node)";
  }
  return "";
}

std::unique_ptr<DescriptorSource> make_rule_source(SourceKind kind, const collectives::ForwardingNode& node,
                                                   topology::EndpointId endpoint) {
  return std::make_unique<RuleSource>(make_forwarding_rule(kind == SourceKind::rtl ? NicBlocks::rtl : NicBlocks::hls),
                                      node, endpoint);
}

std::unique_ptr<DescriptorSource> make_descriptor_source(SourceKind kind, const collectives::Schedule& schedule,
                                                         const std::vector<driver::EngineWrite>& writes,
                                                         topology::EndpointId endpoint) {
  const auto e = static_cast<std::size_t>(endpoint);
  if (kind == SourceKind::reference && e < schedule.threads.size() && !schedule.threads[e].empty())
    return std::make_unique<ThreadSource>(schedule.threads[e]);
  if (kind == SourceKind::reference)
    return std::make_unique<ProgramSource>(schedule.programs.at(static_cast<std::size_t>(endpoint)));
  const std::string& engine = collectives::find_algorithm(schedule.algorithm).engine;
  if (engine.empty()) throw std::logic_error("no schedule engine covers " + schedule.algorithm);
  return make_engine_source(kind, engine, writes);
}

std::unique_ptr<DescriptorSource> make_engine_source(SourceKind kind, std::string_view engine,
                                                     const std::vector<driver::EngineWrite>& writes) {
  return std::make_unique<EngineSource>(kind == SourceKind::rtl ? make_rtl_engine(engine)
                                                                : driver::engine_entry(engine).make_hls(),
                                        writes);
}

}  // namespace collnet::systemc
