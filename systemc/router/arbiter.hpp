// Arbitration policies of the router's separable allocator, chosen by name
// (BookSim-style registry; the scenario key `arbitration`).
//
// Every output port and every input port of a router owns one Arbiter. The
// input stage chooses one of an input port's ready VCs; the output stage
// chooses one of the input ports that request the output. pick() is the
// decision and changes nothing; granted() commits the priority update once
// the grant is final (BookSim's decide()/update() split, which is also how an
// HLS or RTL arbiter is written).
//
//   age            oldest packet first (smallest injection cycle); ties by
//                  input port, then VC. With age_width w > 0 the age
//                  now - inject_cycle saturates at 2^w - 1 as in a hardware
//                  age counter, and packets older than that tie.
//   round-robin    rotating priority over the slots (VCs or input ports).
//   local-through  document 000 [0041]: when both local injection and through
//                  traffic request an output, they alternate (50/50 split);
//                  round robin inside each class.
//   through-first  through traffic has strict priority over local injection
//                  (round robin inside each class).
// In the input stage (VCs of one port, all of one class) the last two are
// round robin.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "systemc/kernel/cycle.hpp"

namespace collnet::systemc {

struct ArbiterRequest {
  std::uint16_t port = 0;     // input port
  std::uint8_t vc = 0;        // input VC
  bool local = false;         // from an injection port (the node's own NIC)
  Cycle inject_cycle = 0;     // of the packet the flit belongs to
};

enum class ArbiterStage : std::uint8_t { input, output };

class Arbiter {
 public:
  virtual ~Arbiter() = default;
  /// Index of the winner among `requests` (not empty) in cycle `now`.
  virtual std::size_t pick(std::span<const ArbiterRequest> requests, Cycle now) = 0;
  /// The request last picked was granted: commit the priority update.
  virtual void granted(const ArbiterRequest& request) = 0;
};

/// The `age` policy's decision, shared by its Arbiter and the router (which
/// calls it directly, without a virtual call or an arbiter object to load,
/// when the policy is `age`): the oldest request wins, its age now -
/// inject_cycle saturating at `saturation`; on equal age the lower input
/// port, then the lower VC.
/// The age the `age` policy compares: now - inject_cycle, saturating.
inline Cycle arbitration_age(Cycle inject_cycle, Cycle now, Cycle saturation) {
  const Cycle a = now >= inject_cycle ? now - inject_cycle : 0;
  return a < saturation ? a : saturation;
}
inline std::size_t pick_oldest(std::span<const ArbiterRequest> requests, Cycle now, Cycle saturation) {
  auto age = [&](const ArbiterRequest& r) { return arbitration_age(r.inject_cycle, now, saturation); };
  std::size_t best = 0;
  Cycle best_age = age(requests[0]);
  for (std::size_t i = 1; i < requests.size(); ++i) {
    const Cycle a = age(requests[i]);
    const ArbiterRequest& r = requests[i];
    const ArbiterRequest& b = requests[best];
    if (a > best_age || (a == best_age && (r.port < b.port || (r.port == b.port && r.vc < b.vc)))) {
      best = i;
      best_age = a;
    }
  }
  return best;
}
/// Largest age an `age_width`-bit counter holds (kNever: 0 bits, exact ages).
inline Cycle age_saturation(int age_width) {
  return age_width > 0 && age_width < 64 ? (Cycle{1} << age_width) - 1 : kNever;
}

struct ArbiterOptions {
  int age_width = 0;  // 0 = exact ages
};

struct ArbitrationPolicy {
  std::string name;  // contract: value of the scenario key `arbitration`
  std::string description;
  /// `slots`: VCs (input stage) or input ports (output stage).
  std::function<std::unique_ptr<Arbiter>(ArbiterStage, int slots, const ArbiterOptions&)> make;
};

const std::vector<ArbitrationPolicy>& arbitration_policies();
/// Throws ConfigError naming the key `arbitration` and the accepted names.
const ArbitrationPolicy& find_arbitration(std::string_view name);
/// "age, round-robin, ..." for documentation and errors.
std::string arbitration_names();

}  // namespace collnet::systemc
