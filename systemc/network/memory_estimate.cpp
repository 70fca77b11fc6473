#include "systemc/network/memory_estimate.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"

namespace collnet::systemc {

namespace {

constexpr std::uint64_t kFlitBytes = 16;
constexpr std::uint64_t kDescriptorBytes = 16;
constexpr std::uint64_t kWordBytes = 8;

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

std::uint64_t parse_size(const std::string& text) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') v = v * 10 + static_cast<std::uint64_t>(text[i++] - '0');
  if (i == 0) return 0;
  const std::string unit = text.substr(i);
  if (unit.empty() || unit == "B") return v;
  const std::string units = "KMGT";
  const auto u = units.find(unit[0]);
  if (u == std::string::npos) return 0;
  return v << (10 * (u + 1));
}

std::uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  if (!(in >> s) || s == "max") return 0;
  return parse_size(s);
}

/// The cgroup limit minus the cgroup's usage (0: none found).
std::uint64_t cgroup_room() {
  std::ifstream cg("/proc/self/cgroup");
  std::string line;
  while (std::getline(cg, line)) {
    if (line.rfind("0::", 0) == 0) {  // cgroup v2
      const std::string dir = "/sys/fs/cgroup" + line.substr(3);
      const std::uint64_t limit = read_number(dir + "/memory.max");
      if (limit != 0) return limit - std::min(limit, read_number(dir + "/memory.current"));
    }
  }
  const std::uint64_t limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (limit != 0 && limit < (std::uint64_t{1} << 62))
    return limit - std::min(limit, read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes"));
  return 0;
}

}  // namespace

std::uint64_t MemoryEstimate::total() const {
  std::uint64_t t = 0;
  for (const auto& p : parts) t = t > UINT64_MAX - p.bytes ? UINT64_MAX : t + p.bytes;
  return t;
}

MemoryEstimate estimate_network_memory(const topology::Topology& topology, const RouterConfig& router,
                                       int controllers) {
  const auto& g = topology.graph();
  // Each router holds vcs buffers per port, as deep as its deepest input
  // link's (Network: buffer_sizing round-trip deepens a long link's).
  std::uint64_t slots = 0;
  for (std::size_t n = 0; n < g.node_count(); ++n) {
    const topology::Node& node = g.node(static_cast<topology::NodeId>(n));
    const int nics = node.endpoint != topology::kNone ? controllers : 0;
    int depth = nics > 0 ? router.link_buffer_flits(router.nic_latency, router.injection_bandwidth) : router.buffer_flits;
    for (const topology::LinkId l : node.in_ports)
      if (l != topology::kNone) {
        const int latency = g.link(l).latency > 0 ? g.link(l).latency : router.link_latency;
        depth = std::max(depth, router.link_buffer_flits(latency, g.link(l).bandwidth));
      }
    const auto ports = static_cast<std::uint64_t>(g.port_count(static_cast<topology::NodeId>(n)) + nics);
    slots = sat_add(slots, sat_mul(ports, static_cast<std::uint64_t>(depth)));
  }
  MemoryEstimate e;
  e.parts.push_back({"network buffers", sat_mul(sat_mul(slots, static_cast<std::uint64_t>(router.vcs)), kFlitBytes),
                     "topology, vcs, buffer_flits, buffer_sizing"});
  return e;
}

MemoryEstimate estimate_collective_memory(const topology::Topology& topology, const std::string& algorithm,
                                          const Params& params, const RouterConfig& router, int controllers,
                                          int descriptor_queue) {
  MemoryEstimate e = estimate_network_memory(topology, router, std::max(controllers, 1));
  const auto endpoints = static_cast<std::uint64_t>(topology.endpoint_count());
  const collectives::Algorithm& a = collectives::find_algorithm(algorithm);
  if (!a.footprint)
    throw std::logic_error("algorithm '" + algorithm + "' declares no footprint (collectives/algorithm.hpp)");
  const collectives::Footprint l = a.footprint(topology, params);
  const std::uint64_t memories = sat_mul(sat_mul(endpoints, l.words), kWordBytes);
  e.parts.push_back({"NIC descriptor queues",
                     sat_mul(sat_mul(endpoints, std::min(static_cast<std::uint64_t>(descriptor_queue), l.sends)),
                             kDescriptorBytes),
                     "descriptor_queue"});
  e.parts.push_back({"node memories", memories, l.keys});
  e.parts.push_back({"descriptor programs", sat_mul(sat_mul(endpoints, l.sends), kDescriptorBytes),
                     "topology (endpoints), algorithm"});
  return e;
}

std::uint64_t available_memory() {
  if (const char* env = std::getenv("COLLNET_AVAILABLE_MEMORY"); env != nullptr && *env != '\0')
    return parse_size(env);
  std::uint64_t avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") avail = kib * 1024;
  }
  if (const std::uint64_t room = cgroup_room(); room != 0) avail = avail == 0 ? room : std::min(avail, room);
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const auto limit = static_cast<std::uint64_t>(as.rlim_cur);
    avail = avail == 0 ? limit : std::min(avail, limit);
  }
  return avail;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

void require_memory(const MemoryEstimate& estimate, const std::string& scenario_name) {
  const std::uint64_t need = estimate.total();
  const std::uint64_t avail = available_memory();
  if (avail == 0 || need <= avail) return;
  std::ostringstream why;
  why << scenario_name << " needs at least " << format_bytes(need) << " of memory, more than the "
      << format_bytes(avail) << " available; largest parts:";
  auto parts = estimate.parts;
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  for (const auto& p : parts)
    if (p.bytes > 0 && p.bytes >= need / 100)
      why << " " << p.what << " " << format_bytes(p.bytes) << " (keys: " << p.keys << ");";
  why << " make the scenario smaller by these keys";
  throw ConfigError(why.str());
}

}  // namespace collnet::systemc
