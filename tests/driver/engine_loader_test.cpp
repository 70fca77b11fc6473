// The software loader of the schedule engines (driver/engine_loader.hpp).
// Independent expectations: the reference programs of collectives/ (an
// engine loaded by the loader must emit exactly its node's program), the
// register maps of the engines' headers (CONTROL last, the A2AT offset table
// holds N - 1 offsets), and the limits those maps document (a scenario
// beyond them is a ConfigError naming the key).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"
#include "driver/engine_loader.hpp"
#include "hls/schedule_engine_registers.hpp"
#include "topology/topology.hpp"

using namespace collnet;

namespace {

/// Loads the HLS class of the algorithm's engine (its catalog entry) with
/// `writes`, runs it to END with an always-ready consumer, returns the
/// descriptors taken.
std::vector<DescriptorWord> run_loaded(const std::string& algorithm, const topology::Topology& topo,
                                       const Params& params, topology::EndpointId node) {
  const auto writes = driver::engine_writes(algorithm, topo, params, node);
  const auto engine = driver::engine_entry(collectives::find_algorithm(algorithm).engine).make_hls();
  for (const auto& w : writes) engine->step(hls::EngineInputs{true, w.addr, w.data, false});
  std::vector<DescriptorWord> taken;
  for (int cycle = 0; cycle < 1'000'000; ++cycle) {
    const auto out = engine->outputs();
    engine->step(hls::EngineInputs{false, 0, 0, true});
    if (!out.out_valid) continue;
    taken.push_back(out.out_desc);
    if (out.out_desc == DescriptorWord{}) break;  // END
  }
  return taken;
}

struct Case {
  std::string algorithm;
  std::string topology;
  Params params;
};

TEST(EngineLoader, LoadedEnginesEmitTheReferencePrograms) {
  const std::vector<Case> cases = {
      {"a2a-optimal", "torus:4x4", {{"nct", "4"}, {"message_flits", "3"}}},
      {"a2a-optimal", "mesh:3x5", {{"group_order", "printed"}, {"nct", "1"}}},
      {"a2a-optimal", "torus:5x4", {{"group_barriers", "true"}, {"nct", "3"}}},
      {"a2a-optimal", "mesh:4x4", {{"group_barriers", "true"}}},
      {"a2a-spread", "torus:3x2x2", {{"nct", "3"}, {"message_flits", "2"}}},
      {"a2a-spread", "mesh:5x2", {{"nct", "4"}, {"group_barriers", "true"}}},
      {"a2a-nd", "torus:3x3", {{"nct", "3"}, {"group_barriers", "true"}}},
      {"a2a-nd", "mesh:2x2x2x2", {}},
      {"a2a-hopgroup", "torus:4x4", {{"gap_slack", "3"}, {"directions", "both"}, {"hop_order", "descending"}}},
      {"a2a-hopgroup", "mesh:3x2x2", {{"mode3d", "concurrent"}, {"pacing", "false"}}},
      {"a2a-hopgroup-direct", "torus:2x3x2x2", {{"barriers", "false"}, {"message_flits", "2"}}},
      {"hd-allreduce", "boards:2x2x1x1", {{"op", "max"}, {"dim_order", "bandwidth"}}},
      {"hd-allreduce", "boards:4x1x2x1", {{"op", "average"}, {"elements", "48"}, {"aggregation_units", "2"}}},
      {"hd-allreduce-conventional", "boards:2x2x2x1", {{"dtype", "float64"}, {"aggregation_units", "1"}}},
      {"twotree-hier", "leafspine:p=6", {{"processes", "32"}, {"blocks", "3"}, {"elements", "17"}}},
      {"twotree-hier", "leafspine:p=6",
       {{"collective", "reduce"}, {"op", "max"}, {"dtype", "float64"}, {"grouping", "leaf"}, {"processes", "20"}}},
      {"twotree-hier", "leafspine:p=8", {{"collective", "broadcast"}, {"spine_choice", "receiver_port"}}},
      {"twotree-flat", "leafspine:p=6", {{"placement", "grouped"}, {"spine_choice", "sender_port"}, {"blocks", "5"}}},
      {"tree-single", "leafspine:p=6", {{"op", "product"}, {"processes", "13"}}},
      {"twotree-flat", "torus:3x3", {{"collective", "reduce"}, {"elements", "9"}}},
  };
  for (const Case& c : cases) {
    const auto topo = topology::make_topology(c.topology);
    ASSERT_EQ(driver::engine_refusal(c.algorithm, *topo, c.params), "") << c.algorithm << " on " << c.topology;
    const collectives::Schedule schedule = collectives::find_algorithm(c.algorithm).build(*topo, c.params);
    for (topology::EndpointId node = 0; node < topo->endpoint_count(); ++node) {
      const auto taken = run_loaded(c.algorithm, *topo, c.params, node);
      const auto& program = schedule.programs[static_cast<std::size_t>(node)];
      ASSERT_EQ(taken.size(), program.size()) << c.algorithm << " on " << c.topology << " node " << node;
      for (std::size_t i = 0; i < program.size(); ++i)
        ASSERT_EQ(taken[i], program[i].pack()) << c.algorithm << " on " << c.topology << " node " << node
                                               << " descriptor " << i;
    }
  }
}

TEST(EngineLoader, WritesFollowTheRegisterMaps) {
  namespace R = hls::a2at_engine_reg;
  const auto topo = topology::make_topology("torus:4x4");
  const auto w = driver::engine_writes("a2a-optimal", *topo, Params{{"message_flits", "2"}}, 6);  // (2, 1)
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w.back().addr, R::control);  // CONTROL last: the engine starts on it
  EXPECT_EQ(w.back().data, 1u);
  std::uint32_t table_words = 0, table_count = 0, last_flags = 0;
  for (const auto& x : w) {
    if (x.addr == R::coord_x) {
      EXPECT_EQ(x.data, 2u);
    }
    if (x.addr == R::coord_y) {
      EXPECT_EQ(x.data, 1u);
    }
    if (x.addr == R::message_words) {
      EXPECT_EQ(x.data, 2u);
    }
    if (x.addr == R::table_count) table_count = x.data;
    if (x.addr == R::table_data) {
      ++table_words;
      last_flags += (x.data >> 16) & 1u;
    }
  }
  EXPECT_EQ(table_words, 15u);  // every other node once: N - 1 offsets
  EXPECT_EQ(table_count, 15u);
  EXPECT_EQ(last_flags, 4u);  // nct 4 on a 4x4 torus: 15 offsets in ceil(15 / 4) groups
  for (const char* algorithm : {"a2a-spread", "a2a-hopgroup", "a2a-hopgroup-direct"}) {
    const auto v = driver::engine_writes(algorithm, *topo, Params{}, 3);
    ASSERT_FALSE(v.empty());
    EXPECT_EQ(v.back().addr, 0u) << algorithm;  // every engine's CONTROL is 0x0
    EXPECT_EQ(v.back().data, 1u) << algorithm;
  }
}

void expect_refused(const std::string& algorithm, const std::string& topology, const Params& params,
                    const std::string& key, const std::string& mentions) {
  const auto topo = topology::make_topology(topology);
  const std::string why = driver::engine_refusal(algorithm, *topo, params);
  EXPECT_NE(why.find("key '" + key + "'"), std::string::npos) << why;
  EXPECT_NE(why.find(mentions), std::string::npos) << why;
  EXPECT_FALSE(driver::engine_covering(algorithm, *topo, params).has_value());
  try {
    (void)driver::engine_writes(algorithm, *topo, params, 0);
    ADD_FAILURE() << "no ConfigError for " << algorithm << " on " << topology;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'" + key + "'"), std::string::npos) << e.what();
  }
}

TEST(EngineLoader, ScenariosBeyondTheEnginesAreConfigErrors) {
  // A2AT offset table: 256 entries (hls/schedule_engine_a2at.hpp).
  expect_refused("a2a-optimal", "torus:16x17", {}, "topology", "at most 256 offsets");
  expect_refused("a2a-optimal", "mesh:2x65", {}, "topology", "at most 64");
  expect_refused("a2a-optimal", "torus:4x4x2", {}, "topology", "2-D");
  // Hop-group coordinate tables: 64 entries per dimension; 3-D at most.
  expect_refused("a2a-hopgroup", "torus:65", {}, "topology", "at most 64");
  expect_refused("a2a-hopgroup", "torus:2x2x2x2", {}, "topology", "1-D to 3-D");
  // The algorithms' own keys keep their ranges.
  expect_refused("a2a-spread", "torus:4x4", {{"nct", "5"}}, "nct", "1 to 4");
  expect_refused("a2a-hopgroup", "torus:4x4", {{"gap_slack", "256"}}, "gap_slack", "255");
  expect_refused("a2a-nd", "torus:8x8", {{"message_flits", "65536"}}, "message_flits", "");
  expect_refused("hd-allreduce", "torus:4x4", {}, "topology", "boards");
  expect_refused("hd-allreduce", "boards:2x2x1x1", {{"elements", "20"}}, "elements", "multiple");
  // The engine runs the document's in-board order on one controller only.
  expect_refused("hd-allreduce", "boards:2x2x1x1", {{"plane_order", "rotated"}}, "plane_order", "document");
  expect_refused("hd-allreduce-conventional", "boards:2x2x1x1", {{"link_controllers", "per-link"}},
                 "link_controllers", "one");
  // Two-tree route hint table: 1024 SENDs per rank (an allreduce sends up to
  // 8 per block); every rank is checked, not only endpoint 0.
  expect_refused("twotree-hier", "leafspine:p=6", {{"blocks", "200"}, {"elements", "1000"}}, "blocks",
                 "1024 route hints");
  expect_refused("twotree-hier", "torus:4x4", {}, "topology", "leafspine:p=P");
  // No engine: the message lists what is covered.
  expect_refused("tree-bcast", "tree:kary=2,n=7", {}, "algorithm", "a2a-optimal");
  // The largest tables are accepted: 255 offsets, sides of 64, 4-D boards.
  for (const auto& [algorithm, topology] : std::vector<std::pair<std::string, std::string>>{
           {"a2a-optimal", "torus:16x16"}, {"a2a-optimal", "mesh:64x4"}, {"a2a-hopgroup", "torus:64"},
           {"a2a-hopgroup-direct", "mesh:4x4x4x4"}, {"a2a-nd", "torus:4x4x4x4"}})
    EXPECT_EQ(driver::engine_refusal(algorithm, *topology::make_topology(topology), Params{}), "") << topology;
}

// The registry has one entry per engine file of driver/engines/, and one per
// RTL engine of rtl/ (rtl/schedule_engine_NAME.sv: the Verilated model the
// NIC runs for nic_blocks=rtl), each under its file's name, in name order,
// with a block name of its own; every algorithm's engine is an entry.
TEST(EngineCatalog, OneEntryPerEngineFileAndRtlModule) {
  std::set<std::string> files, modules;
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(COLLNET_SOURCE_DIR) / "driver/engines"))
    if (f.path().extension() == ".cpp") files.insert(f.path().stem().string());
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(COLLNET_SOURCE_DIR) / "rtl")) {
    const std::string name = f.path().stem().string();
    if (f.path().extension() == ".sv" && name.rfind("schedule_engine_", 0) == 0)
      modules.insert(name.substr(std::string("schedule_engine_").size()));
  }
  EXPECT_EQ(files, modules);
  const auto& catalog = driver::engine_catalog();
  std::set<std::string> names, blocks;
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    names.insert(catalog[i].name);
    if (i > 0) {
      EXPECT_LT(catalog[i - 1].name, catalog[i].name);
    }
    EXPECT_TRUE(blocks.insert(catalog[i].block()).second) << catalog[i].block();
    EXPECT_EQ(&driver::engine_entry(catalog[i].name), &catalog[i]);
    EXPECT_EQ(catalog[i].make_hls()->outputs().busy, false) << catalog[i].block() << " after reset";
  }
  EXPECT_EQ(names, files);
  EXPECT_EQ(driver::engine_block("a2at"), "schedule_engine_a2at");
  EXPECT_THROW((void)driver::engine_entry("no-such-engine"), std::logic_error);
  for (const auto& a : collectives::algorithms()) {
    if (!a.engine.empty()) {
      EXPECT_FALSE(driver::engine_entry(a.engine).runs_programs) << a.name;
    }
  }
}

// The programmable engine takes any algorithm's programs, up to the
// descriptor memory the scenario gives it (program_depth, at most the map's
// program_entries); a longer program is refused naming the key and the
// limits.
TEST(EngineCatalog, ProgrammableEngineRefusesProgramsBeyondItsMemory) {
  const auto topo = topology::make_topology("torus:4x4");
  const auto& a = collectives::find_algorithm("pairwise-alltoall");
  const Params fits{{"program_depth", "4096"}};
  const collectives::Schedule s = a.build(*topo, fits);
  std::size_t longest = 0;
  for (const auto& program : s.programs) longest = std::max(longest, program.size());
  ASSERT_GT(longest, 2u);
  const Params exact{{"program_depth", std::to_string(longest)}};
  EXPECT_EQ(driver::load_engine("programmable", {&a, &s, topo.get(), &exact}).size(), 16u);
  const Params short_memory{{"program_depth", std::to_string(longest - 1)}};
  try {
    (void)driver::load_engine("programmable", {&a, &s, topo.get(), &short_memory});
    ADD_FAILURE() << "no ConfigError for a program longer than program_depth";
  } catch (const ConfigError& e) {
    const std::string why = e.what();
    EXPECT_NE(why.find("key 'program_depth'"), std::string::npos) << why;
    EXPECT_NE(why.find("has " + std::to_string(longest)), std::string::npos) << why;
    EXPECT_NE(why.find(std::to_string(hls::programmable_engine_reg::program_entries)), std::string::npos) << why;
  }
  // Beyond the engine's memory the key itself is refused.
  const Params too_deep{{"program_depth", std::to_string(hls::programmable_engine_reg::program_entries + 1)}};
  EXPECT_THROW((void)driver::load_engine("programmable", {&a, &s, topo.get(), &too_deep}),
               ConfigError);
}

}  // namespace
