// Test helper (tests/support/: fixtures several suites share, written once):
// mesh:4x4 as the text of a graph file, built from coordinates, independent
// of topology/grid.cpp: endpoints in the mesh's order (x fastest), the mesh's
// port numbers (2d: + direction, 2d+1: -) and a routing table that goes X
// first, then Y (dimension order).
#pragma once

#include <string>

namespace collnet::test {

inline std::string mesh_4x4_dor_file() {
  auto name = [](int x, int y) { return "r" + std::to_string(x) + "_" + std::to_string(y); };
  std::string s = "routing: table\nendpoints:\n";
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      s += "  - {name: " + name(x, y) + ", at: [" + std::to_string(x) + ", " + std::to_string(y) + "]}\n";
  s += "links:\n";
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      if (x < 3) s += "  - {between: [" + name(x, y) + ", " + name(x + 1, y) + "], ports: [0, 1]}\n";
      if (y < 3) s += "  - {between: [" + name(x, y) + ", " + name(x, y + 1) + "], ports: [2, 3]}\n";
    }
  s += "table:\n";
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      s += "  " + name(x, y) + ": {";
      for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx) {
          if (dx == x && dy == y) continue;
          const int nx = dx > x ? x + 1 : dx < x ? x - 1 : x;
          const int ny = dx != x ? y : dy > y ? y + 1 : y - 1;
          s += name(dx, dy) + ": " + name(nx, ny) + ", ";
        }
      s += "}\n";
    }
  return s;
}

}  // namespace collnet::test
