// Opens a VCD file and its save file in the real GTKWave, the way a user does
// (`gtkwave FILE.vcd FILE.vcd.gtkw`), on a virtual X server (xvfb-run), with
// tests/cli/gtkwave_report.tcl reporting what the window shows. Where
// GTKWave or Xvfb is not installed the caller skips, saying so; under
// CI=true it fails instead (gtkwave_missing(), COLLNET_SKIP_OUTSIDE_CI of
// tests/support/ci_guard.hpp).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/ci_guard.hpp"

namespace collnet::test {

struct GtkwaveTrace {
  std::uint64_t flags = 0;
  std::string name;  // group title, alias, or signal name
  // GTKWave's trace flags (analyzer.h): group rows and their open state.
  [[nodiscard]] bool group_begin() const { return (flags & 0x800000u) != 0; }
  [[nodiscard]] bool group_end() const { return (flags & 0x1000000u) != 0; }
  [[nodiscard]] bool closed() const { return (flags & 0x400000u) != 0; }
  [[nodiscard]] bool signal() const { return (flags & 0x200u) == 0; }  // not a blank/group row
};

struct GtkwaveChanges {
  int count = 0;                // value changes after time 0 GTKWave holds for the signal
  std::uint64_t max_value = 0;  // the largest value
};

struct GtkwaveReport {
  int status = -1;
  std::string output;  // everything GTKWave printed
  bool window_seen = false;
  long long window_start = -1, window_end = -1, max_time = -1;
  std::vector<GtkwaveTrace> traces;  // the rows of the signal pane, top to bottom
  std::vector<std::string> signals;  // the displayed signals, in order
  std::map<std::string, GtkwaveChanges> changes;
};

/// Empty when GTKWave and xvfb-run are installed, else what is missing.
inline std::string gtkwave_missing() {
  std::string missing;
  for (const char* tool : {"gtkwave", "xvfb-run", "xauth"})
    if (std::system(("command -v " + std::string(tool) + " > /dev/null 2>&1").c_str()) != 0)
      missing += std::string(missing.empty() ? "" : ", ") + tool;
  return missing;
}

/// `gtkwave -S gtkwave_report.tcl VCD SAVE` in a 1600x1000 virtual screen,
/// bounded to 120 s. `changes`: signals whose value changes to report.
inline GtkwaveReport run_gtkwave(const std::string& vcd, const std::string& save,
                                 const std::vector<std::string>& changes = {}) {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / ("collnet_gtkwave_" + std::to_string(::getpid()) + ".txt");
  std::string list;
  for (const auto& s : changes) list += (list.empty() ? "" : " ") + s;
  const std::string script = std::string(COLLNET_SOURCE_DIR) + "/tests/cli/gtkwave_report.tcl";
  const std::string command = "GTKWAVE_CHANGES='" + list +
                              "' timeout -k 5 120 xvfb-run -a -s '-screen 0 1600x1000x24' gtkwave -S '" + script +
                              "' '" + vcd + "' '" + save + "' > '" + out.string() + "' 2>&1";
  GtkwaveReport r;
  const int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(out);
  for (std::string line; std::getline(in, line);) {
    r.output += line + "\n";
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "WINDOW") {
      ls >> r.window_start >> r.window_end;
      r.window_seen = true;
    } else if (word == "MAXTIME") {
      ls >> r.max_time;
    } else if (word == "TRACE") {
      int row = 0;
      GtkwaveTrace t;
      ls >> row >> t.flags;
      std::getline(ls >> std::ws, t.name);
      r.traces.push_back(t);
    } else if (word == "SIGNAL") {
      std::string name;
      ls >> name;
      r.signals.push_back(name);
    } else if (word == "CHANGES") {
      std::size_t index = 0;
      GtkwaveChanges c;
      ls >> index >> c.count >> c.max_value;
      if (index < changes.size()) r.changes[changes[index]] = c;
    }
  }
  std::filesystem::remove(out);
  return r;
}

}  // namespace collnet::test
