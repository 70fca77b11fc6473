// collnet_engine_registers [--write SOURCE_DIR]: prints the schedule
// engines' SystemVerilog register packages and docs/engine_registers.md as
// rendered from the tables in hls/ (testbench/engine_registers.hpp), or
// writes them into the source tree.
#include <cstdio>
#include <fstream>
#include <string>

#include "testbench/engine_registers.hpp"

int main(int argc, char** argv) {
  namespace reg = collnet::registers;
  const auto maps = reg::engine_register_maps();
  if (argc == 1) {
    std::printf("%s", reg::sv_packages(maps).c_str());
    std::printf("%s", reg::documentation(maps).c_str());
    return 0;
  }
  if (argc != 3 || std::string(argv[1]) != "--write") {
    std::fprintf(stderr, "usage: collnet_engine_registers [--write SOURCE_DIR]\n");
    return 2;
  }
  const std::string root = argv[2];
  const auto write = [&](const std::string& path, const std::string& text) {
    std::ofstream file(root + "/" + path);
    file << text;
    if (!file) {
      std::fprintf(stderr, "collnet_engine_registers: cannot write %s/%s\n", root.c_str(), path.c_str());
      return false;
    }
    std::printf("wrote %s\n", path.c_str());
    return true;
  };
  bool ok = true;
  ok = write(reg::packages_path(), reg::sv_packages(maps)) && ok;
  ok = write(reg::documentation_path(), reg::documentation(maps)) && ok;
  return ok ? 0 : 1;
}
