// Runs an HLS schedule engine the way its tests need: load it through its
// configuration port, then clock it to END with a consumer that stalls when
// `stall(cycle)`; every engine has the ports of hls/schedule_engine.hpp.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "collectives/descriptor.hpp"
#include "hls/schedule_engine.hpp"

namespace collnet::testing {

struct EngineRun {
  std::vector<DescriptorWord> words;
  std::vector<std::uint64_t> cycles;  // cycle (CONTROL write = 0) each word was taken
};

/// Writes `writes` (CONTROL last; the engine must be idle for each), then
/// collects the stream up to END; busy must hold from start until END is
/// taken and drop after it.
template <typename Engine, typename Stall>
EngineRun run_engine(Engine& engine, const std::vector<hls::EngineWrite>& writes, Stall stall,
                     std::uint64_t max_cycles = 1'000'000) {
  for (const auto& w : writes) {
    EXPECT_FALSE(engine.outputs().busy);
    engine.step({true, w.addr, w.data, false});
  }
  EngineRun run;
  for (std::uint64_t cycle = 1; cycle < max_cycles; ++cycle) {
    hls::EngineInputs in;
    in.out_ready = !stall(cycle);
    const hls::EngineOutputs out = engine.step(in);
    EXPECT_TRUE(out.busy);
    if (out.out_valid && in.out_ready) {
      run.words.push_back(out.out_desc);
      run.cycles.push_back(cycle);
      if (Descriptor::unpack(out.out_desc).opcode == Opcode::end) break;
    }
  }
  EXPECT_FALSE(engine.outputs().busy) << "busy after END was taken";
  return run;
}

/// Whether `words` is `program` (Descriptors) word for word; a failure
/// names the first difference.
template <typename Program>
::testing::AssertionResult equals_program(const std::vector<DescriptorWord>& words, const Program& program) {
  if (words.size() != program.size())
    return ::testing::AssertionFailure() << words.size() << " descriptors, reference " << program.size();
  for (std::size_t i = 0; i < program.size(); ++i)
    if (words[i] != program[i].pack()) return ::testing::AssertionFailure() << "descriptor " << i << " differs";
  return ::testing::AssertionSuccess();
}

/// Runs `engine` on endpoints 0..endpoints-1, loaded with `writes_of(e)`,
/// and requires each stream to be `programs[e]`; stops at the first
/// mismatch (a failure naming `where(e)`). Returns the descriptors compared.
template <typename Engine, typename WritesOf, typename Programs, typename Stall, typename Where>
std::int64_t compare_endpoints(Engine& engine, std::size_t endpoints, WritesOf&& writes_of, const Programs& programs,
                               Stall stall, Where&& where, std::uint64_t max_cycles = 1'000'000) {
  std::int64_t words = 0;
  for (std::size_t e = 0; e < endpoints; ++e) {
    const auto same = equals_program(run_engine(engine, writes_of(e), stall, max_cycles).words, programs[e]);
    EXPECT_TRUE(same) << where(e);
    if (!same) return words;
    words += static_cast<std::int64_t>(programs[e].size());
  }
  return words;
}

/// The `where` of compare_endpoints that names endpoint e as "LABEL node e".
inline auto node_of(const std::string& label) {
  return [label](std::size_t e) { return label + " node " + std::to_string(e); };
}

/// Sizes or coordinates of up to four dimensions as an engine's four
/// registers; the unused dimensions hold `fill`.
inline std::array<std::uint32_t, 4> padded(const std::vector<int>& v, std::uint32_t fill) {
  std::array<std::uint32_t, 4> a{fill, fill, fill, fill};
  for (std::size_t d = 0; d < v.size(); ++d) a[d] = static_cast<std::uint32_t>(v[d]);
  return a;
}

/// A consumer that is always ready.
inline bool never(std::uint64_t /*cycle*/) { return false; }

/// A consumer stalled in 3 cycles of 4 at random (seeded), or never.
struct RandomStall {
  bool back_pressure = true;
  std::uint64_t lcg = 7;
  bool operator()(std::uint64_t /*cycle*/) {
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return back_pressure && (lcg >> 62) != 0;
  }
};

/// Loads `engine` with `writes` and runs it to END the way the NIC's
/// descriptor source does while its consumer stalls (`stall(cycle)`): a
/// stalled cycle with a descriptor offered is `step_idle_registers()`, whose
/// claim that the engine is at rest (registers and output buffer unchanged)
/// is checked against the whole engine's bytes, tables included: one more
/// idle cycle must change none of them. Returns how often it claimed rest.
template <typename Engine, typename Stall>
int check_rest_claims(Engine& engine, const std::vector<hls::EngineWrite>& writes, Stall stall,
                      std::uint64_t max_cycles = 1'000'000) {
  static_assert(std::is_trivially_copyable_v<Engine>);
  for (const auto& w : writes) engine.step({true, w.addr, w.data, false});
  int claims = 0;
  for (std::uint64_t cycle = 1; cycle < max_cycles; ++cycle) {
    const bool ready = !stall(cycle);
    if (!ready && engine.outputs().out_valid) {
      if (engine.step_idle_registers()) {
        ++claims;
        std::array<unsigned char, sizeof(Engine)> before{};
        std::memcpy(before.data(), static_cast<const void*>(&engine), sizeof(Engine));
        engine.step(hls::EngineInputs{});
        EXPECT_EQ(std::memcmp(before.data(), static_cast<const void*>(&engine), sizeof(Engine)), 0)
            << "claimed at rest in cycle " << cycle << ", but the next idle cycle changed the engine";
        if (::testing::Test::HasFailure()) return claims;
      }
      continue;
    }
    hls::EngineInputs in;
    in.out_ready = ready;
    const hls::EngineOutputs out = engine.step(in);
    if (out.out_valid && ready && Descriptor::unpack(out.out_desc).opcode == Opcode::end) return claims;
  }
  ADD_FAILURE() << "no END within " << max_cycles << " cycles";
  return claims;
}

}  // namespace collnet::testing
