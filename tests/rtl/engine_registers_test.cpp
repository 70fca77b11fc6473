// The schedule engines' register maps exist once, as hls/engine_registers.yaml;
// the build renders from it (scripts/engine_registers.py) the C++ header of
// the HLS engines and the loader, the SystemVerilog packages of the RTL
// engines and docs/engine_registers.md. This suite reads the YAML a second
// time, with yaml-cpp, and fails when a rendering drifts from it: the
// compiled tables (hls::*_engine_registers) or the packages the build made
// differ, the committed docs/engine_registers.md is not the build's rendering,
// a map is malformed, an RTL engine declares register addresses of its own or
// does not decode a register of its package, a comment in an engine's source
// lists a register at an address the map does not give it (as the header of
// rtl/schedule_engine_a2a.sv once left out GROUP_BARRIERS, 0xC), or the
// renderer accepts a malformed map without naming engine, register and field.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hls/schedule_engine_registers.hpp"

namespace {

struct Register {
  std::string name;
  unsigned address = 0, count = 1, width = 0;
  std::string meaning;
  bool operator==(const Register&) const = default;
};

struct Map {
  std::string block;
  std::vector<Register> registers;
};

std::string read(const std::string& path) {
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string source(const std::string& path) { return read(std::string(COLLNET_SOURCE_DIR) + "/" + path); }
std::string generated(const std::string& path) { return read(std::string(COLLNET_GENERATED_DIR) + "/" + path); }

/// hls/engine_registers.yaml as yaml-cpp reads it.
std::vector<Map> yaml_maps() {
  std::vector<Map> maps;
  for (const auto& engine : YAML::LoadFile(std::string(COLLNET_SOURCE_DIR) + "/hls/engine_registers.yaml")["engines"]) {
    Map map{engine["block"].as<std::string>(), {}};
    for (const auto& r : engine["registers"])
      map.registers.push_back({r["name"].as<std::string>(), r["address"].as<unsigned>(),
                               r["count"] ? r["count"].as<unsigned>() : 1u, r["width"].as<unsigned>(),
                               r["meaning"].as<std::string>()});
    maps.push_back(map);
  }
  return maps;
}

template <std::size_t N>
std::pair<std::string, std::vector<Register>> compiled(const collnet::hls::EngineRegisterMap<N>& map) {
  std::vector<Register> registers;
  for (const auto& r : map.registers)
    registers.push_back({std::string(r.name), r.address, r.count, r.width, std::string(r.meaning)});
  return {std::string(map.block), registers};
}

/// "MESSAGE_WORDS" -> "MessageWords": the SystemVerilog parameter stem (lowRISC UpperCamelCase).
std::string camel(const std::string& name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c != '_') out += upper ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    upper = c == '_';
  }
  return out;
}

std::string package_name(const Map& map) { return map.block + "_regs_pkg"; }
/// The localparam of a register's (first) address: RegControl, RegSize0.
std::string address_param(const Register& r) { return "Reg" + camel(r.name) + (r.count > 1 ? "0" : ""); }

std::string hex(unsigned a) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", a);
  return text;
}

/// The lines of `text` with their comments removed.
std::string code_only(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += line.substr(0, line.find("//")) + "\n";
  return out;
}

}  // namespace

TEST(EngineRegisters, CompiledTablesAreTheYaml) {
  const std::map<std::string, std::vector<Register>> tables{
      compiled(collnet::hls::a2a_engine_registers), compiled(collnet::hls::a2at_engine_registers),
      compiled(collnet::hls::hopgroup_engine_registers), compiled(collnet::hls::hd_engine_registers),
      compiled(collnet::hls::twotree_engine_registers), compiled(collnet::hls::programmable_engine_registers),
      compiled(collnet::hls::switch_aggregator_registers)};
  const auto maps = yaml_maps();
  EXPECT_EQ(maps.size(), tables.size());
  for (const auto& map : maps) {
    ASSERT_TRUE(tables.count(map.block)) << map.block << " has no compiled table";
    EXPECT_EQ(tables.at(map.block), map.registers) << map.block << ": the compiled table differs from the YAML";
  }
  // The constants the code uses are the table's addresses.
  EXPECT_EQ(collnet::hls::a2a_engine_reg::group_barriers, 0x0C);
  EXPECT_EQ(collnet::hls::twotree_engine_reg::entry0, 0x10);
  EXPECT_EQ(collnet::hls::switch_aggregator_reg::block_words, 0x03);
}

// Every package of build/generated/rtl/schedule_engine_regs_pkg.sv holds, per
// register, exactly Reg<Name> (Reg<Name>0 for a run) = its address,
// Reg<Name>Width and, for a run, Reg<Name>Count.
TEST(EngineRegisters, GeneratedPackagesAreTheYaml) {
  const std::string text = generated("rtl/schedule_engine_regs_pkg.sv");
  const std::regex package(R"(package\s+(\w+);([\s\S]*?)endpackage)");
  const std::regex param(R"(localparam\s+(?:logic\s*\[7:0\]|int\s+unsigned)\s+(\w+)\s*=\s*(?:8'h)?([0-9A-Fa-f]+);)");
  std::map<std::string, std::map<std::string, std::string>> packages;
  for (auto p = std::sregex_iterator(text.begin(), text.end(), package); p != std::sregex_iterator(); ++p) {
    const std::string body = (*p)[2];
    for (auto it = std::sregex_iterator(body.begin(), body.end(), param); it != std::sregex_iterator(); ++it)
      packages[(*p)[1]][(*it)[1]] = (*it)[2];
  }
  const auto maps = yaml_maps();
  EXPECT_EQ(packages.size(), maps.size());
  for (const auto& map : maps) {
    std::map<std::string, std::string> expected;
    for (const auto& r : map.registers) {
      expected[address_param(r)] = hex(r.address).substr(2);
      expected["Reg" + camel(r.name) + "Width"] = std::to_string(r.width);
      if (r.count > 1) expected["Reg" + camel(r.name) + "Count"] = std::to_string(r.count);
    }
    EXPECT_EQ(packages[package_name(map)], expected) << package_name(map);
  }
}

TEST(EngineRegisters, CommittedDocumentationIsTheBuildsRendering) {
  const std::string docs = source("docs/engine_registers.md");
  EXPECT_EQ(docs, generated("docs/engine_registers.md"))
      << "docs/engine_registers.md differs from the rendering of hls/engine_registers.yaml: "
         "cp build/generated/docs/engine_registers.md docs/";
  for (const auto& map : yaml_maps())
    for (const auto& r : map.registers) {
      const std::string address =
          r.count > 1 ? hex(r.address) + ".." + hex(r.address + r.count - 1) : hex(r.address);
      const std::string name = r.count > 1 ? r.name + "0.." + std::to_string(r.count - 1) : r.name;
      EXPECT_NE(docs.find("| " + address + " | " + name + " | "), std::string::npos)
          << "docs/engine_registers.md lacks " << map.block << " " << name << " at " << address;
    }
}

TEST(EngineRegisters, EveryMapIsWellFormed) {
  for (const auto& map : yaml_maps()) {
    std::set<unsigned> used;
    ASSERT_FALSE(map.registers.empty()) << map.block;
    EXPECT_EQ(map.registers.front().name, "CONTROL") << map.block;
    EXPECT_EQ(map.registers.front().address, 0u) << map.block << ": CONTROL is at 0x00";
    for (const auto& r : map.registers) {
      EXPECT_GE(r.count, 1u) << map.block << " " << r.name;
      EXPECT_TRUE(r.width >= 1 && r.width <= 32) << map.block << " " << r.name;
      EXPECT_FALSE(r.meaning.empty()) << map.block << " " << r.name;
      for (unsigned k = 0; k < r.count; ++k) {
        EXPECT_LT(r.address + k, 256u) << map.block << " " << r.name << ": cfg_addr has 8 bits";
        EXPECT_TRUE(used.insert(r.address + k).second)
            << map.block << " " << r.name << ": address " << hex(r.address + k) << " used twice";
      }
    }
  }
}

// The RTL takes every register address from its package and decodes each.
TEST(EngineRegisters, EveryRtlEngineDecodesEveryRegisterOfItsPackage) {
  for (const auto& map : yaml_maps()) {
    const std::string rtl = code_only(source("rtl/" + map.block + ".sv"));
    EXPECT_FALSE(std::regex_search(rtl, std::regex(R"(localparam\s+logic\s*\[[^\]]*\]\s+Reg[A-Z])")))
        << map.block << ".sv declares register addresses of its own";
    for (const auto& r : map.registers)
      EXPECT_NE(rtl.find(package_name(map) + "::" + address_param(r)), std::string::npos)
          << map.block << ".sv does not decode " << r.name << " (" << package_name(map) << "::" << address_param(r)
          << ")";
  }
}

// A comment such as `//   0xC GROUP_BARRIERS [0] ...` in an engine's HLS
// header or RTL names a register of the map at its address.
TEST(EngineRegisters, CommentsNameRegistersAtTheirMappedAddresses) {
  const std::regex listed(R"(\b0x([0-9A-Fa-f]{1,2})(?:\.\.0x[0-9A-Fa-f]{1,2})?\s+([A-Z][A-Z_]*[A-Z])(\d*))");
  for (const auto& map : yaml_maps()) {
    for (const std::string& path : {"hls/" + map.block + ".hpp", "rtl/" + map.block + ".sv"}) {
      std::string text;  // the comments of the file
      std::istringstream in(source(path));
      for (std::string line; std::getline(in, line);)
        if (line.find("//") != std::string::npos) text += line.substr(line.find("//")) + "\n";
      for (auto it = std::sregex_iterator(text.begin(), text.end(), listed); it != std::sregex_iterator(); ++it) {
        const unsigned address = static_cast<unsigned>(std::stoul((*it)[1], nullptr, 16));
        const std::string name = (*it)[2];
        bool found = false;
        for (const auto& r : map.registers)
          if (r.name == name) {
            found = true;
            const unsigned index = (*it)[3].length() > 0 ? static_cast<unsigned>(std::stoul((*it)[3])) : 0;
            EXPECT_EQ(address, r.address + index) << path << ": " << (*it)[0];
          }
        EXPECT_TRUE(found) << path << " lists " << name << ", which " << map.block << "'s map does not hold";
      }
    }
  }
}

// A malformed map stops the renderer (and so the build) with a message naming
// the engine, the register and the field, and nothing is written.
TEST(EngineRegisters, RendererRefusesMalformedMapsNamingEngineRegisterAndField) {
  struct Case {
    std::string what, from, to, message;
  };
  const std::array<Case, 5> cases{{
      {"unknown field", "{name: NCT, address: 0x02, width: 3,", "{name: NCT, address: 0x02, width: 3, colour: red,",
       "engine schedule_engine_a2a, register NCT: unknown field 'colour'"},
      {"duplicate address", "{name: COORD_Y, address: 0x05,", "{name: COORD_Y, address: 0x04,",
       "engine schedule_engine_a2at, register COORD_Y: field 'address': 0x04 is also COORD_X's address"},
      {"missing meaning", R"({name: SELF, address: 0x02, width: 16, meaning: "this rank's endpoint"})",
       "{name: SELF, address: 0x02, width: 16}", "engine schedule_engine_twotree, register SELF: field 'meaning' is missing"},
      {"key given twice", "{name: DTYPE, address: 0x04, width: 1,", "{name: DTYPE, address: 0x04, width: 1, width: 2,",
       "engine schedule_engine_hd, register DTYPE: field 'width' is given twice"},
      {"unknown block", "- block: switch_aggregator", "- block: switch_aggregatr",
       "engine switch_aggregatr: field 'block' is 'switch_aggregatr'; accepted values: names matching"},
  }};
  const std::string good = source("hls/engine_registers.yaml");
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "collnet_engine_registers_test";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::string bad = good;
    const auto at = bad.find(c.from);
    ASSERT_NE(at, std::string::npos) << "the map no longer holds " << c.from;
    bad.replace(at, c.from.size(), c.to);
    std::ofstream(dir / "map.yaml") << bad;
    const std::string command = std::string(COLLNET_PYTHON3) + " " + COLLNET_SOURCE_DIR +
                                "/scripts/engine_registers.py " + (dir / "map.yaml").string() + " " +
                                (dir / "out").string() + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    for (char buffer[256]; std::fgets(buffer, sizeof buffer, pipe);) output += buffer;
    const int status = pclose(pipe);
    EXPECT_NE(status, 0) << output;
    EXPECT_NE(output.find(c.message), std::string::npos) << output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out")) << "a malformed map was rendered";
  }
  std::filesystem::remove_all(dir);
}
