// The register maps of the schedule engines, rendered from their one table
// (EngineRegisterMap in hls/schedule_engine_*.hpp) as the SystemVerilog
// packages the RTL engines decode (rtl/schedule_engine_regs_pkg.sv: one
// package per engine, schedule_engine_<name>_regs_pkg) and as
// the register documentation (docs/engine_registers.md). The files are
// written by `collnet_engine_registers --write SOURCE_DIR`;
// tests/rtl/engine_registers_test.cpp fails when a committed file differs
// from its rendering, so that no map can drift from the table.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "hls/schedule_engine.hpp"
#include "hls/schedule_engine_registers.hpp"

namespace collnet::registers {

/// One engine's map, as plain data.
struct RegisterMapView {
  std::string block;  // "schedule_engine_a2a"
  std::vector<hls::EngineRegister> registers;
};

template <std::size_t N>
RegisterMapView view(const hls::EngineRegisterMap<N>& map) {
  return {std::string(map.block), std::vector<hls::EngineRegister>(map.registers, map.registers + N)};
}

inline std::vector<RegisterMapView> engine_register_maps() {
  return {view(hls::a2a_engine_registers), view(hls::a2at_engine_registers), view(hls::hopgroup_engine_registers),
          view(hls::hd_engine_registers), view(hls::twotree_engine_registers)};
}

/// "MESSAGE_WORDS" -> "MessageWords" (the SystemVerilog parameter stem).
inline std::string camel(std::string_view name) {
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? c : static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    upper = false;
  }
  return out;
}

/// The localparam of a register's (first) address: RegControl, RegSize0.
inline std::string address_param(const hls::EngineRegister& r) {
  return "Reg" + camel(r.name) + (r.count > 1 ? "0" : "");
}

inline std::string hex_address(unsigned a) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", a);
  return text;
}

/// NAME or NAME0..N-1.
inline std::string documented_name(const hls::EngineRegister& r) {
  return std::string(r.name) + (r.count > 1 ? "0.." + std::to_string(r.count - 1) : "");
}

inline std::string bits(const hls::EngineRegister& r) {
  return r.width == 1 ? "[0]" : "[" + std::to_string(r.width - 1) + ":0]";
}

inline std::string package_name(const RegisterMapView& map) { return map.block + "_regs_pkg"; }
inline std::string packages_path() { return "rtl/schedule_engine_regs_pkg.sv"; }
inline std::string documentation_path() { return "docs/engine_registers.md"; }

/// One package: per register its address (Reg<Name>, Reg<Name>0 for a
/// run), its width (Reg<Name>Width) and, for a run, Reg<Name>Count.
inline std::string sv_package(const RegisterMapView& map) {
  std::string s = "\n// " + map.block + ": the table " + map.block.substr(std::string("schedule_engine_").size()) +
                  "_engine_registers.\npackage " + package_name(map) + ";\n";
  s += "  /* verilator lint_off UNUSEDPARAM */\n";
  for (const hls::EngineRegister& r : map.registers) {
    const std::string stem = "Reg" + camel(r.name);
    s += "  /// " + documented_name(r) + " " + bits(r) + ": " + std::string(r.meaning) + "\n";
    s += "  localparam logic [7:0] " + address_param(r) + " = 8'h" + hex_address(r.address).substr(2) + ";\n";
    if (r.count > 1) s += "  localparam int unsigned " + stem + "Count = " + std::to_string(r.count) + ";\n";
    s += "  localparam int unsigned " + stem + "Width = " + std::to_string(r.width) + ";\n";
  }
  s += "  /* verilator lint_on UNUSEDPARAM */\nendpackage\n";
  return s;
}

/// rtl/schedule_engine_regs_pkg.sv: every engine's package.
inline std::string sv_packages(const std::vector<RegisterMapView>& maps) {
  std::string s =
      "// The register maps of the schedule engines, one package per engine, rendered\n"
      "// from the tables in hls/schedule_engine_registers.hpp by\n"
      "// `collnet_engine_registers --write .`; do not edit (tests/rtl/engine_registers_test.cpp\n"
      "// fails when this file differs from the tables).\n"
      "/* verilator lint_off DECLFILENAME */\n";
  for (const RegisterMapView& map : maps) s += sv_package(map);
  return s;
}

/// docs/engine_registers.md: one table per engine.
inline std::string documentation(const std::vector<RegisterMapView>& maps) {
  std::string s =
      "# Schedule engine register maps\n\n"
      "Generated from the tables in `hls/schedule_engine_registers.hpp` by\n"
      "`./build/collnet_engine_registers --write .` (do not edit:\n"
      "`tests/rtl/engine_registers_test.cpp` fails when this page, or the packages in\n"
      "`rtl/schedule_engine_regs_pkg.sv`, differ from the tables). Every engine has the\n"
      "ports of `hls/schedule_engine.hpp` (`rtl/schedule_engine_ports.svh`): an 8-bit\n"
      "`cfg_addr`, a 32-bit `cfg_wdata`, write-only, a write is taken only while `busy`\n"
      "is 0; a register keeps bits `[width-1:0]` of the write. The software loader\n"
      "(`driver/engine_loader.cpp`) computes the writes of a scenario, CONTROL last.\n";
  for (const RegisterMapView& map : maps) {
    s += "\n## " + map.block + "\n\n";
    s += "Engine `hls/" + map.block + ".hpp`, `rtl/" + map.block + ".sv`; package `" + package_name(map) + "`.\n\n";
    s += "| address | register | bits | meaning |\n|---|---|---|---|\n";
    for (const hls::EngineRegister& r : map.registers) {
      const std::string address = r.count > 1 ? hex_address(r.address) + ".." + hex_address(r.address + r.count - 1u)
                                              : hex_address(r.address);
      s += "| " + address + " | " + documented_name(r) + " | " + bits(r) + " | " + std::string(r.meaning) + " |\n";
    }
  }
  return s;
}

}  // namespace collnet::registers
