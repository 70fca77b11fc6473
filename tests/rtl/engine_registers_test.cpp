// The schedule engines' register maps exist once, as the tables in
// hls/schedule_engine_registers.hpp. This suite fails when a rendering of
// them drifts: the SystemVerilog packages (rtl/schedule_engine_regs_pkg.sv)
// or docs/engine_registers.md differ from what the tables render to (run
// `./build/collnet_engine_registers --write .`), an RTL engine declares
// register addresses of its own or does not decode a register of its map, or
// a comment in an engine's source lists a register at an address the map
// does not give it (as the header of rtl/schedule_engine_a2a.sv once left out
// GROUP_BARRIERS, 0xC).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "testbench/engine_registers.hpp"

namespace {

namespace reg = collnet::registers;

std::string source(const std::string& path) {
  std::ifstream file(std::string(COLLNET_SOURCE_DIR) + "/" + path);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

/// The lines of `text` with their comments removed.
std::string code_only(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += line.substr(0, line.find("//")) + "\n";
  return out;
}

}  // namespace

TEST(EngineRegisters, CommittedPackagesAndDocumentationAreTheTablesRendering) {
  const auto maps = reg::engine_register_maps();
  EXPECT_EQ(source(reg::packages_path()), reg::sv_packages(maps))
      << reg::packages_path() << " differs from the tables: run ./build/collnet_engine_registers --write .";
  EXPECT_EQ(source(reg::documentation_path()), reg::documentation(maps))
      << reg::documentation_path() << " differs from the tables: run ./build/collnet_engine_registers --write .";
}

TEST(EngineRegisters, EveryMapIsWellFormed) {
  for (const auto& map : reg::engine_register_maps()) {
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
            << map.block << " " << r.name << ": address " << reg::hex_address(r.address + k) << " used twice";
      }
    }
  }
}

// The RTL takes every register address from its package and decodes each.
TEST(EngineRegisters, EveryRtlEngineDecodesEveryRegisterOfItsPackage) {
  for (const auto& map : reg::engine_register_maps()) {
    const std::string rtl = code_only(source("rtl/" + map.block + ".sv"));
    EXPECT_FALSE(std::regex_search(rtl, std::regex(R"(localparam\s+logic\s*\[[^\]]*\]\s+Reg[A-Z])")))
        << map.block << ".sv declares register addresses of its own";
    for (const auto& r : map.registers)
      EXPECT_NE(rtl.find(reg::package_name(map) + "::" + reg::address_param(r)), std::string::npos)
          << map.block << ".sv does not decode " << reg::documented_name(r) << " ("
          << reg::package_name(map) << "::" << reg::address_param(r) << ")";
  }
}

// A comment such as `//   0xC GROUP_BARRIERS [0] ...` in an engine's HLS
// header or RTL names a register of the map at its address.
TEST(EngineRegisters, CommentsNameRegistersAtTheirMappedAddresses) {
  const std::regex listed(R"(\b0x([0-9A-Fa-f]{1,2})(?:\.\.0x[0-9A-Fa-f]{1,2})?\s+([A-Z][A-Z_]*[A-Z])(\d*))");
  for (const auto& map : reg::engine_register_maps()) {
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
