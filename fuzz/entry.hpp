// Entry points of the fuzz targets (fuzz/fuzz_*.cpp) and of their corpus
// replay test (tests/fuzz/): each feeds one input a user controls to the code
// that parses it. Rejected input (ConfigError, TopologyError: the CLI's exit
// 2) returns normally; anything else (another exception, a sanitizer report,
// a broken invariant checked here) is a bug the fuzzer reports as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace collnet::fuzz {

/// A scenario: YAML text, then optionally a NUL byte and one `key=value`
/// override (`--set`) per line.
void scenario(const std::uint8_t* data, std::size_t size);
/// A `topology` key value (every form but leafspine-wiring:FILE and
/// graph:FILE, which read a file: see wiring() and graph()); a topology that builds is routed between a few pairs.
void topology(const std::uint8_t* data, std::size_t size);
/// The text of a leafspine-wiring list.
void wiring(const std::uint8_t* data, std::size_t size);
/// The YAML text of a graph file (graph:FILE.yaml).
void graph(const std::uint8_t* data, std::size_t size);
/// A 128-bit descriptor word (16 bytes, lo half first; shorter input is
/// zero-padded): unpack, and pack back when every field is in range.
void descriptor(const std::uint8_t* data, std::size_t size);
/// One rank's Chakra execution trace (.et bytes): read (workload/workload.hpp)
/// and checked as a workload of one rank.
void chakra(const std::uint8_t* data, std::size_t size);
/// An MSCCL-IR XML file's text (algorithm msccl's schedule): parsed and
/// built into a schedule on its own ranks.
void msccl(const std::uint8_t* data, std::size_t size);

/// What an entry point made of one input: accepted (`detail`: what it was
/// parsed to: the run a scenario is routed to, "collective a2a-optimal,
/// a2a-spread" or "synthetic"; a topology's canonical name; a wiring's
/// endpoint count; a descriptor's opcode) or refused (`detail`: the message
/// the CLI prints with exit 2). Each corpus seed's expectation is in
/// fuzz/corpus/<target>.expected.
struct Outcome {
  bool accepted = false;
  std::string detail;
};
Outcome scenario_outcome(const std::uint8_t* data, std::size_t size);
Outcome topology_outcome(const std::uint8_t* data, std::size_t size);
Outcome wiring_outcome(const std::uint8_t* data, std::size_t size);
Outcome graph_outcome(const std::uint8_t* data, std::size_t size);
Outcome descriptor_outcome(const std::uint8_t* data, std::size_t size);
Outcome chakra_outcome(const std::uint8_t* data, std::size_t size);
Outcome msccl_outcome(const std::uint8_t* data, std::size_t size);
using Check = Outcome (*)(const std::uint8_t*, std::size_t);
Check check(const std::string& target);

/// The entry point of a target by its name ("scenario", ...); nullptr if none.
using Entry = void (*)(const std::uint8_t*, std::size_t);
Entry entry(const std::string& target);
std::vector<std::string> targets();

}  // namespace collnet::fuzz
