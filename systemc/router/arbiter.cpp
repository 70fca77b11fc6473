#include "systemc/router/arbiter.hpp"

#include <algorithm>

#include "collectives/params.hpp"

namespace collnet::systemc {

namespace {

int slot_of(const ArbiterRequest& r, ArbiterStage stage) { return stage == ArbiterStage::input ? r.vc : r.port; }

/// Rotating priority: the slot after the last granted one wins.
class RoundRobin final : public Arbiter {
 public:
  RoundRobin(ArbiterStage stage, int slots) : stage_(stage), slots_(std::max(slots, 1)) {}
  std::size_t pick(std::span<const ArbiterRequest> requests, Cycle /*now*/) override {
    return pick_among(requests, [](const ArbiterRequest&) { return true; });
  }
  void granted(const ArbiterRequest& r) override { last_ = slot_index(r); }

  template <typename Filter>
  std::size_t pick_among(std::span<const ArbiterRequest> requests, Filter&& eligible) const {
    std::size_t best = requests.size();
    int best_distance = slots_ + 1;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (!eligible(requests[i])) continue;
      const int distance = (slot_index(requests[i]) - last_ - 1 + 2 * slots_) % slots_;
      if (distance < best_distance) {
        best_distance = distance;
        best = i;
      }
    }
    return best;
  }

 private:
  [[nodiscard]] int slot_index(const ArbiterRequest& r) const { return slot_of(r, stage_) % slots_; }
  ArbiterStage stage_;
  int slots_;
  int last_ = -1;
};

class Age final : public Arbiter {
 public:
  explicit Age(int age_width) : saturation_(age_saturation(age_width)) {}
  std::size_t pick(std::span<const ArbiterRequest> requests, Cycle now) override {
    return pick_oldest(requests, now, saturation_);
  }
  void granted(const ArbiterRequest& /*request*/) override {}

 private:
  Cycle saturation_;
};

/// Two classes, local injection and through traffic, each with round robin.
class ClassArbiter final : public Arbiter {
 public:
  enum class Mode : std::uint8_t { alternate, through_first };
  ClassArbiter(Mode mode, int slots)
      : mode_(mode), local_(ArbiterStage::output, slots), through_(ArbiterStage::output, slots) {}
  std::size_t pick(std::span<const ArbiterRequest> requests, Cycle /*now*/) override {
    const bool any_local = std::any_of(requests.begin(), requests.end(), [](auto& r) { return r.local; });
    const bool any_through = std::any_of(requests.begin(), requests.end(), [](auto& r) { return !r.local; });
    contended_ = any_local && any_through;
    const bool want_local = contended_ ? mode_ == Mode::alternate && prefer_local_ : any_local;
    return (want_local ? local_ : through_).pick_among(requests, [&](const ArbiterRequest& r) {
      return r.local == want_local;
    });
  }
  void granted(const ArbiterRequest& r) override {
    (r.local ? local_ : through_).granted(r);
    // spec a2a-hopgroup, router fairness: the split alternates only when both
    // classes wanted the output.
    if (contended_) prefer_local_ = !r.local;
  }

 private:
  Mode mode_;
  RoundRobin local_;    // among injection ports (several NIC controllers)
  RoundRobin through_;  // among network input ports
  bool prefer_local_ = true;
  bool contended_ = false;
};

}  // namespace

const std::vector<ArbitrationPolicy>& arbitration_policies() {
  static const std::vector<ArbitrationPolicy> policies = {
      {"age", "oldest packet first (injection cycle), ties by input port then VC; optional saturating age_width",
       [](ArbiterStage, int, const ArbiterOptions& o) -> std::unique_ptr<Arbiter> {
         return std::make_unique<Age>(o.age_width);
       }},
      {"round-robin", "rotating priority over VCs and input ports",
       [](ArbiterStage stage, int slots, const ArbiterOptions&) -> std::unique_ptr<Arbiter> {
         return std::make_unique<RoundRobin>(stage, slots);
       }},
      {"local-through", "document 000: 50/50 split of each output between local injection and through traffic",
       [](ArbiterStage stage, int slots, const ArbiterOptions&) -> std::unique_ptr<Arbiter> {
         if (stage == ArbiterStage::input) return std::make_unique<RoundRobin>(stage, slots);
         return std::make_unique<ClassArbiter>(ClassArbiter::Mode::alternate, slots);
       }},
      {"through-first", "through traffic has strict priority over local injection",
       [](ArbiterStage stage, int slots, const ArbiterOptions&) -> std::unique_ptr<Arbiter> {
         if (stage == ArbiterStage::input) return std::make_unique<RoundRobin>(stage, slots);
         return std::make_unique<ClassArbiter>(ClassArbiter::Mode::through_first, slots);
       }},
  };
  return policies;
}

std::string arbitration_names() {
  std::vector<std::string> names;
  for (const auto& p : arbitration_policies()) names.push_back(p.name);
  return join(names);
}

const ArbitrationPolicy& find_arbitration(std::string_view name) {
  for (const auto& p : arbitration_policies())
    if (p.name == name) return p;
  throw ConfigError("key 'arbitration': unknown policy '" + std::string(name) + "'; accepted values: " +
                    arbitration_names());
}

}  // namespace collnet::systemc
