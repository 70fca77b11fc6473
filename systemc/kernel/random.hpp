// Deterministic random numbers for the models: each source owns a generator
// seeded from (scenario seed, stream id), so results do not depend on the
// order in which SystemC evaluates modules, nor on the standard library's
// distributions (which differ between implementations).
#pragma once

#include <cmath>
#include <cstdint>

namespace collnet::systemc {

class Random {
 public:
  Random(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (auto& s : state_) s = split(x);
  }
  /// xoshiro256** step.
  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }
  /// Uniform in (0, 1].
  double unit() { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }
  /// Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; the bias is
  /// below 2^-32 for the sizes used here).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }
  /// Cycles until the next success of a Bernoulli trial with probability p
  /// per cycle (>= 1; geometric distribution).
  std::uint64_t geometric(double p) {
    if (p >= 1.0) return 1;
    const double k = std::floor(std::log(unit()) / std::log1p(-p));
    return 1 + static_cast<std::uint64_t>(k);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t split(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_[4];
};

}  // namespace collnet::systemc
