// The energy model (docs/guide/energy.md): the energy of a small run
// recomputed by hand from its events and the technology table, the events
// themselves against the report's independent counts (flit-hops, flits,
// packets, links); a bandwidth-bound collective's dynamic energy doubling
// with its size; the 65 nm file's per-flit router energy against its
// source's published figure; a bad technology file refused with status 2
// naming the key, the file and the entry.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "collectives/energy.hpp"

using namespace collnet::test;

namespace {

// Every entry a distinct value, leakage and area nonzero.
const char* kTable = R"(name: test-node
node_nm: 7
buffer_write_pj_per_bit: {value: 0.11, source: "test value"}
buffer_read_pj_per_bit: {value: 0.07, source: "test value"}
crossbar_pj_per_bit: {value: 0.13, source: "test value"}
crossbar_ports: {value: 4, source: "test value"}
switch_allocation_pj: {value: 1.7, source: "test value"}
vc_allocation_pj: {value: 2.9, source: "test value"}
link_pj_per_bit_mm: {value: 0.05, source: "test value"}
nic_descriptor_pj: {value: 31, source: "test value"}
dma_pj_per_bit: {value: 0.19, source: "test value"}
buffer_leakage_nw_per_bit: {value: 3.0, source: "test value"}
crossbar_leakage_nw_per_crosspoint_bit: {value: 0.5, source: "test value"}
link_leakage_nw_per_bit_mm: {value: 1.5, source: "test value"}
buffer_area_um2_per_bit: {value: 2.0, source: "test value"}
crossbar_area_um2_per_crosspoint_bit: {value: 0.25, source: "test value"}
link_area_um2_per_bit_mm: {value: 0.75, source: "test value"}
)";

double num(const nlohmann::json& j) { return j.get<double>(); }

}  // namespace

// A ring allreduce on a 4x4 torus (every router: 4 network ports and one
// NIC's; messages of whole packets): each event counted from the report's
// other figures, the energy summed by hand from them and the table.
TEST(EnergyCli, SmallRunRecomputedByHandFromItsEventsAndTheTable) {
  const auto table = write_file("energy-test-node.yaml", kTable);
  const JsonRun r = run_words_json("run --set algorithm=ring-allreduce --set topology=torus:4x4 --set elements=256 "
                                   "--set packet_flits=4 --set flit_bytes=4 --set clock_ghz=2 --set link_mm=1.5 "
                                   "--set nic_link_mm=0.25 --set technology=" + table.string(),
                                   "energy-small.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const nlohmann::json& j = r.json;
  const nlohmann::json& e = j["energy"];
  ASSERT_TRUE(e.is_object()) << j.dump(1);
  ASSERT_EQ(j["local_copies"], 0);  // (no DMA copies: the DMA words are the flits')
  const double flits = num(j["flits"]), hops = num(j["flit_hops"]), packets = num(j["packets"]);
  const double endpoints = num(j["endpoints"]);
  const double routers = num(j["routers"]);
  const double network_links = static_cast<double>(j["link_utilization"]["per_link"].size());
  const double vcs = num(j["router"]["vcs"]), depth = num(j["router"]["buffer_flits"]);
  ASSERT_EQ(routers, 16);
  ASSERT_EQ(network_links, 64);  // 16 routers x 4 ports
  // The events, from the report's own counts: every flit is written into a
  // buffer at its first router and after every hop, read out as often,
  // delivered once; a head is VC-allocated wherever its packet is.
  const nlohmann::json& ev = e["events"];
  EXPECT_EQ(num(ev["network_link_flits"]), hops);
  EXPECT_EQ(num(ev["nic_link_flits"]), 2 * flits);
  EXPECT_EQ(num(ev["delivered_flits"]), flits);
  EXPECT_EQ(num(ev["buffer_writes"]), hops + flits);
  EXPECT_EQ(num(ev["buffer_reads"]), hops + flits);
  EXPECT_EQ(num(ev["vc_allocations"]), (hops + flits) / 4) << "packets of 4 flits: one head in 4";
  EXPECT_EQ(num(ev["descriptors"]), num(j["messages"]));
  EXPECT_EQ(num(ev["dma_words"]), 2 * flits);
  EXPECT_GT(packets, 0);

  // By hand: 32 bits a flit; a radix-5 crossbar against the table's 4 ports.
  const double bits = 32, ns = num(j["cycles"]) / 2.0;
  const double dynamic = bits * (hops + flits) * 0.11 + bits * (hops + flits) * 0.07 +
                         bits * (hops + flits) * 5.0 / 4.0 * 0.13 + (hops + flits) * 1.7 +
                         (hops + flits) / 4 * 2.9 + bits * (hops * 1.5 + 2 * flits * 0.25) * 0.05 +
                         num(j["messages"]) * 31 + 2 * flits * bits * 0.19;
  const double buffer_bits = (network_links + endpoints) * vcs * depth * bits;
  const double crosspoint_bits = routers * 25 * bits;
  const double link_bit_mm = bits * (network_links * 1.5 + 2 * endpoints * 0.25);
  const double leakage_nw = buffer_bits * 3.0 + crosspoint_bits * 0.5 + link_bit_mm * 1.5;
  const double stat = leakage_nw * ns * 1e-6;  // nW x ns = 1e-6 pJ
  EXPECT_NEAR(num(e["dynamic_pj"]), dynamic, 1e-9 * dynamic);
  EXPECT_NEAR(num(e["static_pj"]), stat, 1e-9 * stat);
  EXPECT_NEAR(num(e["total_pj"]), dynamic + stat, 1e-9 * (dynamic + stat));
  EXPECT_NEAR(num(e["per_flit_hop_pj"]), dynamic / hops, 1e-9 * dynamic / hops);
  EXPECT_NEAR(num(e["per_bit_delivered_pj"]), (dynamic + stat) / (flits * bits), 1e-9);
  EXPECT_NEAR(num(e["average_power_mw"]), (dynamic + stat) / ns, 1e-9 * (dynamic + stat) / ns);
  // pJ per byte of the collective: 256 elements of 4 bytes on each of 16 ranks.
  EXPECT_NEAR(num(e["pj_per_byte"]), (dynamic + stat) / (256.0 * 4 * 16), 1e-9 * (dynamic + stat));
  double parts = 0;
  for (const auto& [name, part] : e["by_component"].items()) parts += num(part["total_pj"]);
  EXPECT_NEAR(parts, dynamic + stat, 1e-9 * (dynamic + stat));
  EXPECT_NEAR(num(e["by_component"]["vc_allocator"]["dynamic_pj"]), (hops + flits) / 4 * 2.9, 1e-9);
  EXPECT_NEAR(num(e["area"]["router_mm2"]), (buffer_bits * 2.0 + crosspoint_bits * 0.25) * 1e-6, 1e-12);
  EXPECT_NEAR(num(e["area"]["link_mm2"]), link_bit_mm * 0.75 * 1e-6, 1e-12);
  EXPECT_NE(r.out.find("  energy            "), std::string::npos) << r.out;
}

TEST(EnergyCli, DoublingABandwidthBoundCollectiveDoublesItsDynamicEnergy) {
  const std::string run = "run --set algorithm=ring-allreduce --set topology=torus:3x3 --set technology=" +
                          std::string(COLLNET_SOURCE_DIR) + "/examples/technology/45nm.yaml --set elements=";
  const JsonRun one = run_words_json(run + "1152", "energy-1x.json");
  const JsonRun two = run_words_json(run + "2304", "energy-2x.json");
  ASSERT_EQ(one.status, 0) << one.out << one.err;
  ASSERT_EQ(two.status, 0) << two.out << two.err;
  // Bandwidth-bound: the time doubles too (within 5 %).
  EXPECT_NEAR(num(two.json["cycles"]) / num(one.json["cycles"]), 2.0, 0.1);
  EXPECT_NEAR(num(two.json["energy"]["dynamic_pj"]) / num(one.json["energy"]["dynamic_pj"]), 2.0, 0.1);
  EXPECT_GT(num(one.json["energy"]["dynamic_pj"]), 0);
}

// Each default file's router against its source's published figure: one
// flit through one radix-5 router (buffer write and read, crossbar, switch
// allocation). The 45 nm file's is the Intel SCC router [S11]: 550 mW at
// 2 GHz with 5 ports moving a 128-bit flit a cycle, 55 pJ a flit (confirmed
// from [S11]'s abstract); the 65 nm file's the Intel 80-tile router [V08]:
// 924 mW at 4 GHz, 39-bit flits, 46.2 pJ a flit. The model counts the
// buffers, crossbar and allocators (22 + 15 + 7 % of [V08]'s breakdown, 44
// of the router's own 83 % in [S11]'s), not the clock tree (33 %) or the
// mesochronous interfaces (6 %). The 924 mW and the breakdown's shares are
// NOT confirmed against [V08]'s text (docs/guide/energy.md, the sources):
// the 65 nm published figure and both expected shares are as the files
// state them, unconfirmed.
TEST(EnergyCli, RouterPerFlitEnergyAgainstThePublishedFigures) {
  const struct {
    const char* file;
    std::int64_t flit_bytes;
    double published_pj, modeled_share;
  } nodes[] = {{"45nm.yaml", 16, 550.0 / (2.0 * 5), 44.0 / 83}, {"65nm.yaml", 39, 924.0 / (4.0 * 5), 44.0 / 100}};
  for (const auto& n : nodes) {
    collnet::EnergySetting s;
    s.technology = collnet::load_technology(std::string(COLLNET_SOURCE_DIR) + "/examples/technology/" + n.file);
    collnet::EnergyCounts c;
    c.buffer_writes = c.buffer_reads = 1;
    c.crossbar_radix_flits = 5;
    collnet::Units u;
    u.flit_bytes = n.flit_bytes;  // 39: 312 bits, the per-bit parts 8 times a 39-bit flit's
    const double sa = s.technology.switch_allocation_pj.value;
    const double bits_scale = n.flit_bytes == 39 ? 8.0 : 1.0;
    const double per_flit = (collnet::compute_energy(c, s, u).dynamic_pj - sa) / bits_scale + sa;
    EXPECT_NEAR(per_flit / n.published_pj, n.modeled_share, 0.01)
        << n.file << ": " << per_flit << " pJ against the published " << n.published_pj << " pJ";
  }
}

TEST(EnergyCli, ABadTechnologyFileIsRefusedNamingTheKeyTheFileAndTheEntry) {
  std::string missing = kTable;
  missing.erase(missing.find("crossbar_pj_per_bit"), missing.find("crossbar_ports") - missing.find("crossbar_pj_per_bit"));
  std::string bad = kTable;
  bad.replace(bad.find("value: 0.05"), 11, "value: -0.05");
  std::string no_source = kTable;
  no_source.replace(no_source.find("{value: 31, source: \"test value\"}"), 33, "{value: 31}");
  const struct {
    std::string name, text, entry;
  } cases[] = {{"energy-missing.yaml", missing, "crossbar_pj_per_bit"},
               {"energy-negative.yaml", bad, "link_pj_per_bit_mm"},
               {"energy-nosource.yaml", no_source, "nic_descriptor_pj"},
               {"energy-typo.yaml", std::string(kTable) + "bufer_area: {value: 1, source: x}\n", "bufer_area"}};
  for (const auto& c : cases) {
    const auto file = write_file(c.name, c.text);
    const CliRun r = run_words("run --set algorithm=ring-allreduce --set topology=torus:3x3 --set technology=" +
                               file.string());
    EXPECT_EQ(r.status, 2) << c.name << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("key 'technology'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.entry), std::string::npos) << r.err;
  }
  for (const std::string& path : {std::string("/nonexistent.yaml"), scratch().string(), std::string("/dev/null")}) {
    const CliRun r = run_words("run --set algorithm=ring-allreduce --set topology=torus:3x3 --set technology=" + path);
    EXPECT_EQ(r.status, 2) << path << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("key 'technology': file '" + path + "'"), std::string::npos) << r.err;
  }
}

// Without the key: no energy, the report as before.
TEST(EnergyCli, WithoutATechnologyNoEnergyIsReported) {
  const JsonRun r = run_words_json("run --set algorithm=ring-allreduce --set topology=torus:3x3", "energy-none.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(r.json["energy"].is_null());
  EXPECT_EQ(r.out.find("energy"), std::string::npos) << r.out;
}
