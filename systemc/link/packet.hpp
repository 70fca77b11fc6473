// Packet and flit format of every cycle-accurate model (one source of truth).
//
// A packet is `flits` >= 1 flits that travel on one virtual channel per link:
// flit 0 is the head, flit flits-1 the tail (one flit is both). Every flit
// carries one 64-bit payload word, so a message of M payload words is M flits
// (the `message_flits` convention of the collectives). The header rides as
// sideband with the head flit (a wider head phit in hardware, not an extra
// flit); its fields and widths:
//
//   field         bits  meaning
//   source         16   endpoint that injected the packet
//   destination    16   endpoint that receives it
//   controller      4   ejection port (NIC controller) at the destination
//   area           16   destination memory area (collectives: per peer/block)
//   offset         32   word offset of payload word 0 inside the area
//   tag            16   phase / step / block tag of the SEND (WAIT matches it)
//   inject_cycle   32   cycle the packet was created at its source; the age
//                       arbiter compares it (saturated to `age_width` bits)
//   hops            8   route length in network links (the hop count of
//                       document 000: every packet of a step has the same)
//   route_hint      8   topology route hint of the SEND (grid.hpp)
//   flits          16   packet length
//
// Routing is source routing: the route (Topology::route) is computed once when
// the packet is created and each router reads the step for its position; in
// hardware it is the routing function of the same topology evaluated per hop.
//
// In the simulator a flit is 16 bytes and names its packet by a handle into
// the PacketTable (no per-flit heap allocation; packet records are recycled).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "systemc/kernel/cycle.hpp"
#include "systemc/kernel/record_pool.hpp"
#include "topology/graph.hpp"

namespace collnet::systemc {

using PacketId = std::uint32_t;

struct Flit {
  PacketId packet = 0;
  // Flit index in the packet (0 = head). Inside the network a head flit
  // carries its route position here instead (hops taken so far), so that a
  // router finds its route step without a per-hop write to the packet
  // record; the router puts 0 back when the head leaves for its ejection port.
  std::uint16_t index = 0;
  std::uint8_t vc = 0;      // virtual channel on the link it currently crosses
  std::uint8_t flags = 0;   // kHead | kTail
  std::uint64_t payload = 0;

  static constexpr std::uint8_t kHead = 1;
  static constexpr std::uint8_t kTail = 2;
  [[nodiscard]] bool head() const { return (flags & kHead) != 0; }
  [[nodiscard]] bool tail() const { return (flags & kTail) != 0; }
};
static_assert(sizeof(Flit) == 16, "a flit is 16 bytes in the simulator");

/// One hop of a source route as the routers see it: the output port to take
/// at the router the head is in, and the VC class required downstream.
struct RouteStep {
  std::uint16_t port = 0;
  std::uint8_t vc_class = 0;
};

// The fields of the table above, ordered by size so that the record packs
// into 32 bytes.
struct PacketHeader {
  Cycle inject_cycle = 0;
  topology::EndpointId source = 0;
  topology::EndpointId destination = 0;
  std::uint32_t offset = 0;
  std::uint16_t area = 0;
  std::uint16_t tag = 0;
  std::uint16_t flits = 1;
  std::uint8_t controller = 0;
  std::uint8_t hops = 0;
  std::uint8_t route_hint = 0;
};
static_assert(sizeof(PacketHeader) == 32);

/// The route of a packet as the routers read it: its steps stored inside the
/// packet record (kInline of them; a longer route keeps the rest on the heap),
/// so that a head reaching the front of a VC reads one record, not a record
/// and then a separate route array.
class PacketRoute {
 public:
  static constexpr std::size_t kInline = 28;
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const RouteStep& operator[](std::size_t i) const {
    return i < kInline ? inline_[i] : overflow_[i - kInline];
  }
  void assign(const std::vector<RouteStep>& steps) {
    size_ = static_cast<std::uint16_t>(steps.size());
    const std::size_t n = std::min(steps.size(), kInline);
    std::copy_n(steps.begin(), n, inline_.begin());
    if (steps.size() > kInline) overflow_.assign(steps.begin() + static_cast<std::ptrdiff_t>(kInline), steps.end());
    else overflow_.clear();
  }

 private:
  std::uint16_t size_ = 0;
  std::array<RouteStep, kInline> inline_{};
  std::vector<RouteStep> overflow_;
};

/// Simulation record of a packet in flight: the header plus bookkeeping that
/// hardware keeps implicitly (route position, delivery check). Aligned to the
/// cache line: the header and the first steps of the route
/// share its first line.
struct alignas(64) Packet {
  PacketHeader header;
  std::uint16_t received = 0;     // flits delivered to the destination so far
  bool measured = false;          // created inside the measurement window
  bool live = false;
  // Per-hop routing functions that draw per packet (ugal): the packet's
  // random word (its low 32 bits; topology::HopState::random).
  std::uint32_t random = 0;
  std::uint64_t serial = 0;       // unique per run (source << 40 | sequence)
  PacketRoute route;              // network hops only; ejection is implicit
};
static_assert(sizeof(Packet) == 192, "a packet record is three cache lines");


/// Pool of packet records, recycled so that steady state allocates nothing.
/// The records live in chunks that never move (a threaded run reads records
/// on one worker while another allocates), and each worker thread of a
/// threaded run (worker.hpp) allocates from and releases to its own free
/// list, balanced through a shared one (record_pool.hpp). Which id a packet
/// gets changes no figure: ids only name records.
class PacketTable {
 public:
  PacketTable() = default;
  PacketTable(const PacketTable&) = delete;
  PacketTable& operator=(const PacketTable&) = delete;

  /// Free lists for `workers` threads (call before the run; 1 by default).
  void set_workers(int workers) { records_.set_workers(workers); }

  PacketId allocate() {
    const PacketId id = records_.take("more than 2^26 packets in flight");
    Packet& p = records_[id];
    p.received = 0;
    p.measured = false;
    p.live = true;
    return id;
  }
  void release(PacketId id) {
    if (id >= records_.issued()) throw std::out_of_range("packet id out of range");
    Packet& p = records_[id];
    if (!p.live) throw std::logic_error("packet released twice");
    p.live = false;
    records_.give(id);
  }
  Packet& operator[](PacketId id) { return records_[id]; }
  const Packet& operator[](PacketId id) const { return records_[id]; }
  [[nodiscard]] std::size_t live_count() const { return records_.issued() - records_.free_count(); }

 private:
  RecordPool<Packet, 10, std::size_t{1} << 16, PacketId> records_;  // 1024 records (192 KiB) a chunk, 2^26 at most
};

/// Payload word `index` of the packet with `serial`: synthetic traffic fills
/// and checks payloads with it (nothing lost, duplicated or misplaced).
inline std::uint64_t synthetic_payload(std::uint64_t serial, std::uint32_t index) {
  std::uint64_t z = serial * 0x9E3779B97F4A7C15ull + index + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace collnet::systemc
