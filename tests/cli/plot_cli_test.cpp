// collnet plot: what the user gets. The script's report (plot-report.json:
// what each PNG shows, read back from the figure) is compared with the sweep
// records and run JSON it came from, read here independently; bad input ends
// in one line `collnet plot: error: ...` with exit status 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "tests/cli/cli_runner.hpp"

namespace collnet::test {
namespace {

using nlohmann::json;

std::vector<json> read_lines(const fs::path& p) {
  std::vector<json> lines;
  std::istringstream in(slurp(p));
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(json::parse(l));
  return lines;
}

bool is_png(const fs::path& p) {
  const std::string data = slurp(p);
  return data.size() > 8 && data.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

/// The results of `collnet sweep` on `yaml` (made once per test process).
fs::path sweep_results(const std::string& name, const std::string& yaml) {
  const fs::path jsonl = scratch() / "plot" / (name + ".jsonl");
  if (!fs::exists(jsonl)) {
    const auto file = write_file("plot/" + name + ".yaml", yaml);
    const auto r = run_collnet({"sweep", file.string(), "--out", jsonl.string(), "--jobs", "2"});
    EXPECT_EQ(r.status, 0) << r.err;
  }
  return jsonl;
}

const char* const kSynthetic =
    "base: {topology: mesh:4x4, traffic: uniform, measure_cycles: 1000}\n"
    "axes:\n  injection_rate: [0.1, 0.3]\n  vcs: [1, 2]\n";
const char* const kCollective =
    "base: {topology: torus:4x4}\n"
    "axes:\n  algorithm: [a2a-optimal, a2a-spread]\n  message_flits: [4, 16]\n";

/// A run field by dotted path (null when absent).
json field(const json& run, const std::string& dotted) {
  const json* node = &run;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    const auto dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return *node;
}

/// What a plot of `y` against point key `x`, one series per point key `by`,
/// must show: by value (as JSON text) -> (x, y) sorted by x, from the `ok`
/// records only.
std::map<std::string, std::vector<std::pair<json, double>>> expected_series(const std::vector<json>& records,
                                                                           const std::string& x,
                                                                           const std::string& y,
                                                                           const std::string& by) {
  std::map<std::string, std::vector<std::pair<json, double>>> out;
  for (const auto& r : records) {
    if (r["status"] != "ok") continue;
    const json xv = r["point"].contains(x) ? r["point"][x] : field(r["run"], x);
    out[r["point"][by].dump()].emplace_back(xv, field(r["run"], y).get<double>());
  }
  for (auto& [_, pts] : out)
    std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

/// The report's entry for PNG `file` (fails the test when missing).
json entry_for(const json& report, const std::string& file) {
  for (const auto& p : report["plots"])
    if (p["file"] == file) return p;
  ADD_FAILURE() << "no report entry for " << file << " in " << report.dump().substr(0, 400);
  return json::object();
}

/// The series of a report entry compare with the records' values; `sorted_x`:
/// lines (sorted by x) rather than bars (in record order).
void expect_series(const json& entry, const std::map<std::string, std::vector<std::pair<json, double>>>& expect,
                   const std::string& by, const std::string& context) {
  ASSERT_EQ(entry["series"].size(), expect.size()) << context;
  for (const auto& s : entry["series"]) {
    const auto key = s["by"][by].dump();
    ASSERT_TRUE(expect.count(key)) << context << ": a series for " << by << "=" << key << " that no record has";
    std::vector<std::pair<json, double>> drawn;
    for (std::size_t i = 0; i < s["x"].size(); ++i) drawn.emplace_back(s["x"][i], s["y"][i].get<double>());
    std::sort(drawn.begin(), drawn.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const auto& want = expect.at(key);
    ASSERT_EQ(drawn.size(), want.size()) << context << " " << key;
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(drawn[i].first, want[i].first) << context << " " << key;
      EXPECT_DOUBLE_EQ(drawn[i].second, want[i].second) << context << " " << key << " at x=" << want[i].first;
    }
  }
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PlotCli, HelpPrintsEveryOptionOfTheScript) {
  for (const char* flag : {"--help", "-h"}) {
    const auto r = run_collnet({"plot", flag});
    EXPECT_EQ(r.status, 0) << flag << r.err;
    for (const char* option : {"--x", "--y", "--by", "--out", "--links", "--record", "--sweep", "--table", "--report",
                               "--timeline", "--relative", "--cdf", "RESULTS.jsonl", "plot-report.json", "examples:",
                               "flits/node/cycle", "seeds", "saturated"})
      EXPECT_TRUE(contains(r.out, option)) << flag << " does not mention " << option << ":\n" << r.out;
  }
}

TEST(PlotCli, SyntheticSeriesAreTheRecordsWithUnitsAndFixedKeys) {
  const auto jsonl = sweep_results("syn", kSynthetic);
  const auto records = read_lines(jsonl);
  ASSERT_EQ(records.size(), 4U);
  const fs::path out = scratch() / "plot" / "syn";
  const auto r = run_collnet({"plot", jsonl.string(), "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const json report = read_json(out / "plot-report.json");
  ASSERT_EQ(report["plots"].size(), 2U);
  for (const auto& [y, label] : std::vector<std::pair<std::string, std::string>>{
           {"avg_latency", "average latency (cycles)"}, {"accepted_rate", "accepted throughput (flits/node/cycle)"}}) {
    const std::string file = y + "_vs_injection_rate.png";
    EXPECT_TRUE(is_png(out / file)) << file;
    const json e = entry_for(report, file);
    EXPECT_EQ(e["x_label"], "injection rate (flits/node/cycle)");
    EXPECT_EQ(e["y_label"], label);
    expect_series(e, expected_series(records, "injection_rate", y, "vcs"), "vcs", file);
    // The keys equal in every record are in the title; the varying ones are not.
    const std::string title = e["title"];
    for (const char* fixed : {"topology=mesh:4x4", "traffic=uniform", "measure_cycles=1000"})
      EXPECT_TRUE(contains(title, fixed)) << title;
    EXPECT_FALSE(contains(title, "vcs=")) << title;
    EXPECT_FALSE(contains(title, "injection_rate=")) << title;
    EXPECT_EQ(e["fixed"], (json{{"measure_cycles", 1000}, {"topology", "mesh:4x4"}, {"traffic", "uniform"}}));
  }

  // x a run field, series by vcs: injection_rate varies without being on an
  // axis of the plot, so it is not a fixed key.
  const fs::path measured = scratch() / "plot" / "syn_offered";
  const auto r2 = run_collnet({"plot", jsonl.string(), "--x", "offered_rate", "--y", "p99_latency", "--by", "vcs",
                               "--out", measured.string()});
  ASSERT_EQ(r2.status, 0) << r2.err;
  const json e = entry_for(read_json(measured / "plot-report.json"), "p99_latency_vs_offered_rate.png");
  EXPECT_EQ(e["x_label"], "offered load (flits/node/cycle)");
  EXPECT_EQ(e["y_label"], "99th-percentile latency (cycles)");
  expect_series(e, expected_series(records, "offered_rate", "p99_latency", "vcs"), "vcs", "offered_rate");
  EXPECT_EQ(e["fixed"], (json{{"measure_cycles", 1000}, {"topology", "mesh:4x4"}, {"traffic", "uniform"}}));
  EXPECT_FALSE(contains(e["title"].get<std::string>(), "injection_rate=")) << e["title"];
}

TEST(PlotCli, CollectiveSeriesSkipFailedRecordsAndBarsCarryTextX) {
  const auto jsonl = sweep_results("col", kCollective);
  auto records = read_lines(jsonl);
  ASSERT_EQ(records.size(), 4U);
  // A failed point keeps its run JSON but must not be drawn.
  records[1]["status"] = "data-check-failed";
  std::string text;
  for (const auto& rec : records) text += rec.dump() + "\n";
  const auto edited = write_file("plot/col_edited.jsonl", text);

  const fs::path out = scratch() / "plot" / "col";
  auto r = run_collnet({"plot", edited.string(), "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  json report = read_json(out / "plot-report.json");
  for (const auto& [y, label] : std::vector<std::pair<std::string, std::string>>{
           {"cycles", "completion time (cycles)"}, {"efficiency", "efficiency (fraction of the bound)"}}) {
    const std::string file = y + "_vs_message_flits.png";
    EXPECT_TRUE(is_png(out / file));
    const json e = entry_for(report, file);
    EXPECT_EQ(e["x_label"], "message size (flits)");
    EXPECT_EQ(e["y_label"], label);
    EXPECT_EQ(e["kind"], "lines");
    expect_series(e, expected_series(records, "message_flits", y, "algorithm"), "algorithm", file);
    EXPECT_TRUE(contains(e["title"].get<std::string>(), "topology=torus:4x4")) << e["title"];
  }

  const fs::path bars = scratch() / "plot" / "bars";
  r = run_collnet({"plot", jsonl.string(), "--x", "algorithm", "--y", "link_utilization.max", "--by", "message_flits",
                   "--out", bars.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  report = read_json(bars / "plot-report.json");
  const json e = entry_for(report, "link_utilization_max_vs_algorithm.png");
  EXPECT_TRUE(is_png(bars / "link_utilization_max_vs_algorithm.png"));
  EXPECT_EQ(e["kind"], "bars");
  EXPECT_EQ(e["x_label"], "algorithm");
  EXPECT_EQ(e["y_label"], "maximum link utilization (busy fraction)");
  expect_series(e, expected_series(read_lines(jsonl), "algorithm", "link_utilization.max", "message_flits"),
                "message_flits", "bars");
}

TEST(PlotCli, SweepFilePlotsAndTableFollowTheFile) {
  const std::string sweep_text = std::string(kSynthetic) +
                                 "table:\n  rows: [injection_rate]\n  columns: vcs\n"
                                 "  cell: \"{accepted_rate:.3f}\"\n"
                                 "plot:\n"
                                 "  - {x: injection_rate, y: avg_latency, by: vcs, file: lat, title: \"latency\"}\n"
                                 "  - {x: injection_rate, y: [accepted_rate], where: {vcs: 2}, file: acc2}\n";
  const auto jsonl = sweep_results("syn", kSynthetic);
  const auto records = read_lines(jsonl);
  const auto sweep = write_file("plot/syn_plots.yaml", sweep_text);
  const fs::path out = scratch() / "plot" / "sweepfile";
  const auto r = run_collnet({"plot", jsonl.string(), "--sweep", sweep.string(), "--table", "--out", out.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const json report = read_json(out / "plot-report.json");
  ASSERT_EQ(report["plots"].size(), 2U);

  const json lat = entry_for(report, "lat.png");
  EXPECT_TRUE(is_png(out / "lat.png"));
  EXPECT_EQ(lat["title"].get<std::string>().rfind("latency\n", 0), 0U) << lat["title"];
  expect_series(lat, expected_series(records, "injection_rate", "avg_latency", "vcs"), "vcs", "lat");

  // where: {vcs: 2}: one series of the vcs=2 records; vcs=2 is then a fixed key.
  const json acc = entry_for(report, "acc2.png");
  EXPECT_TRUE(is_png(out / "acc2.png"));
  std::vector<json> vcs2;
  for (const auto& rec : records)
    if (rec["point"]["vcs"] == 2) vcs2.push_back(rec);
  const auto want = expected_series(vcs2, "injection_rate", "accepted_rate", "vcs");
  ASSERT_EQ(acc["series"].size(), 1U);
  std::vector<double> xs = acc["series"][0]["x"], ys = acc["series"][0]["y"];
  ASSERT_EQ(xs.size(), want.begin()->second.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_DOUBLE_EQ(xs[i], want.begin()->second[i].first.get<double>());
    EXPECT_DOUBLE_EQ(ys[i], want.begin()->second[i].second);
  }
  EXPECT_EQ(acc["fixed"]["vcs"], 2);
  EXPECT_TRUE(contains(acc["title"].get<std::string>(), "vcs=2")) << acc["title"];

  // The table: one row per injection rate, one column per vcs, the cell format of the file.
  std::map<double, std::map<int, double>> cells;
  for (const auto& rec : records)
    cells[rec["point"]["injection_rate"].get<double>()][rec["point"]["vcs"].get<int>()] =
        rec["run"]["accepted_rate"].get<double>();
  std::string table = "| injection_rate | 1 | 2 |\n|---|---|---|\n";
  for (const auto& [rate, by_vcs] : cells) {
    char row[128];
    std::snprintf(row, sizeof row, "| %g | %.3f | %.3f |\n", rate, by_vcs.at(1), by_vcs.at(2));
    table += row;
  }
  EXPECT_EQ(r.out, table);
}

TEST(PlotCli, TimelineGoesToTheTimelineModule) {
  // A copy of the script next to a stand-in collnet_timeline.py: --timeline
  // hands every argument to its main(argv) and exits with what it returns.
  const auto script = write_file("plot/timeline/collnet_plot.py",
                                 slurp(fs::path(COLLNET_SOURCE_DIR) / "scripts" / "collnet_plot.py"));
  write_file("plot/timeline/collnet_timeline.py",
             "import json\n"
             "def main(argv):\n"
             "    print(json.dumps(argv))\n"
             "    return 7\n");
  auto r = run_collnet({"plot", "--timeline", "t.csv", "--out", "dir"}, {"COLLNET_PLOT_SCRIPT=" + script.string()});
  EXPECT_EQ(r.status, 7) << r.err;
  EXPECT_EQ(json::parse(r.out), (json{"--timeline", "t.csv", "--out", "dir"})) << r.out;

  // Without the module: one line naming it, exit 2.
  fs::remove(script.parent_path() / "collnet_timeline.py");
  r = run_collnet({"plot", "--timeline", "t.csv", "--out", "dir"}, {"COLLNET_PLOT_SCRIPT=" + script.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "timeline plots need scripts/collnet_timeline.py")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

/// Every cell of a link map's report: link name -> the cell.
std::map<std::string, json> cells_of(const json& entry) {
  std::map<std::string, json> cells;
  for (const auto& panel : entry["panels"])
    for (const auto& c : panel["cells"]) {
      EXPECT_FALSE(cells.count(c["link"])) << "link " << c["link"] << " drawn twice";
      cells[c["link"]] = c;
    }
  return cells;
}

// Node names hold no ':' and no '>' (topology/graph_file.cpp): the source
// ends at the first ':', the destination follows the last "->".
std::string source_node(const std::string& link) { return link.substr(0, link.find(':')); }
std::string destination_node(const std::string& link) { return link.substr(link.rfind("->") + 2); }

/// The link map of `run` (one run's JSON) as the report gives it: every link
/// of per_link drawn once with its utilization; on grids each cell at its
/// source router's coordinates, with integer ticks and the router's name;
/// the colour scale (or a bar panel's axis) absolute, from 0 to 1.
void expect_link_map(const json& entry, const json& run, const std::string& context) {
  const json& per_link = run["link_utilization"]["per_link"];
  const auto cells = cells_of(entry);
  const json& scale = entry["colour_scale"];
  EXPECT_EQ(scale["relative"], false) << context;
  if (entry["layout"] == "bars") {
    for (const auto& panel : entry["panels"])
      EXPECT_DOUBLE_EQ(panel["y_limits"][1].get<double>(), 1.05) << context << ": the axis is not 0 to 1";
  } else {
    EXPECT_EQ(scale["colour_bar"]["min"], 0.0) << context;
    EXPECT_EQ(scale["colour_bar"]["max"], 1.0) << context;
    EXPECT_EQ(scale["colour_bar"]["label"], "link utilization (busy fraction; absolute scale: 0 to 1)") << context;
  }
  ASSERT_EQ(cells.size(), per_link.size()) << context;
  for (const auto& [link, u] : per_link.items()) {
    ASSERT_TRUE(cells.count(link)) << context << ": link " << link << " not drawn";
    const json& c = cells.at(link);
    EXPECT_DOUBLE_EQ(c["value"].get<double>(), u.get<double>()) << context << " " << link;
    EXPECT_EQ(c["node"], source_node(link)) << context;
  }
  const std::string topology = run["topology"];
  if (topology.rfind("mesh:", 0) == 0 || topology.rfind("torus:", 0) == 0) {
    EXPECT_EQ(entry["layout"], "grid") << context;
    std::vector<int> dims;
    std::istringstream in(topology.substr(topology.find(':') + 1));
    for (std::string d; std::getline(in, d, 'x');) dims.push_back(std::stoi(d));
    const int nx = dims[0];
    const int ny = dims.size() > 1 ? dims[1] : 1;
    int slices = 1;
    for (std::size_t d = 2; d < dims.size(); ++d) slices *= dims[d];
    for (const auto& [link, c] : cells) {
      const int n = std::stoi(source_node(link).substr(1));  // r<number>
      EXPECT_EQ(c["x"], n % nx) << context << " " << link;
      EXPECT_EQ(c["y"], (n / nx) % ny) << context << " " << link;
      EXPECT_EQ(c["z"], n / (nx * ny)) << context << " " << link;
    }
    for (const auto& panel : entry["panels"]) {
      std::vector<double> want_x(static_cast<std::size_t>(nx * slices)), want_y(static_cast<std::size_t>(ny));
      for (std::size_t i = 0; i < want_x.size(); ++i) want_x[i] = static_cast<double>(i);
      for (std::size_t i = 0; i < want_y.size(); ++i) want_y[i] = static_cast<double>(i);
      EXPECT_EQ(panel["x_ticks"].get<std::vector<double>>(), want_x) << context << " " << panel["name"];
      EXPECT_EQ(panel["y_ticks"].get<std::vector<double>>(), want_y) << context << " " << panel["name"];
      for (std::size_t i = 0; i < want_x.size(); ++i)
        EXPECT_EQ(panel["x_tick_labels"][i], std::to_string(static_cast<int>(i) % nx)) << context;
      EXPECT_TRUE(panel["node_names"].get<bool>()) << context;
    }
  } else if (topology.rfind("leafspine", 0) == 0) {
    EXPECT_EQ(entry["layout"], "leafspine") << context;
    std::set<std::string> named;
    for (const auto& n : entry["nodes"]) named.insert(n["node"]);
    for (const auto& [link, _] : per_link.items()) {
      EXPECT_TRUE(named.count(source_node(link))) << context << ": node of " << link << " not named";
      EXPECT_TRUE(named.count(destination_node(link))) << context << ": node of " << link << " not named";
    }
  } else if (run["link_utilization"].contains("node_positions")) {
    // Nodes where the run places them: every cell a segment between the
    // positions of its two nodes, every node at most once in one place.
    EXPECT_EQ(entry["layout"], "positions") << context;
    const json& at = run["link_utilization"]["node_positions"];
    std::set<std::pair<double, double>> places;
    for (const auto& [node, xy] : at.items())
      EXPECT_TRUE(places.insert({xy[0].get<double>(), xy[1].get<double>()}).second) << context << ": " << node;
    for (const auto& [link, c] : cells) {
      EXPECT_EQ(c["from_xy"], at.at(source_node(link))) << context << " " << link;
      EXPECT_EQ(c["to_xy"], at.at(destination_node(link))) << context << " " << link;
    }
    EXPECT_EQ(entry["nodes"].size(), at.size()) << context;
    if (topology.rfind("fattree:", 0) == 0) {  // a k-ary n-tree links adjacent levels only: rows one apart
      for (const auto& [link, c] : cells)
        EXPECT_EQ(std::abs(c["from_xy"][1].get<double>() - c["to_xy"][1].get<double>()), 1.0) << link;
    }
  } else {
    EXPECT_EQ(entry["layout"], "bars") << context;
    for (const auto& panel : entry["panels"]) {
      for (const auto& t : panel["x_ticks"]) EXPECT_EQ(t.get<double>(), std::floor(t.get<double>())) << context;
      // Every tick names a link or its source node.
      for (const auto& label : panel["x_tick_labels"])
        EXPECT_TRUE(contains(label.get<std::string>(), "->") || std::isalpha(label.get<std::string>().back()) ||
                    contains(label.get<std::string>(), "\n"))
            << context << ": tick label " << label;
    }
  }
}

TEST(PlotCli, LinkMapCellsAreTheRunsLinkUtilization) {
  const std::vector<std::pair<std::string, std::string>> runs{
      {"torus:4x4", "algorithm=a2a-optimal"},       {"mesh:4x4x2", "algorithm=a2a-spread"},
      {"leafspine:p=6", "algorithm=twotree-hier"}, {"boards:2x2x2x2", "algorithm=hd-allreduce"},
      {"tree:parents=-1,0,0,1,1", "traffic=uniform"}, {"fattree:k=2,n=3", "traffic=uniform"},
      {"dragonfly:p=1", "traffic=uniform"}};
  const fs::path dir = scratch() / "plot";
  fs::create_directories(dir);
  for (const auto& [topology, what] : runs) {
    const auto run_json = dir / "run.json";
    ASSERT_EQ(run_collnet({"run", "--set", "topology=" + topology, "--set", what, "--json", run_json.string()}).status,
              0)
        << topology;
    const json run = read_json(run_json);
    const auto links = dir / "links";
    fs::remove_all(links);
    const auto r = run_collnet({"plot", "--links", run_json.string(), "--out", links.string()});
    ASSERT_EQ(r.status, 0) << topology << r.err;
    const json report = read_json(links / "plot-report.json");
    ASSERT_EQ(report["plots"].size(), 1U) << topology;
    const json& entry = report["plots"][0];
    EXPECT_TRUE(is_png(links / entry["file"].get<std::string>())) << topology;
    EXPECT_EQ(entry["value_label"], "link utilization (busy fraction)");
    expect_link_map(entry, run, topology);
  }
}

// Every graph file of examples/graphs (free node names such as "core-1",
// with and without `at` coordinates, a routing table) draws: the run's
// per_link cell by cell.
TEST(PlotCli, EveryExampleGraphFileDraws) {
  const fs::path dir = scratch() / "plot" / "graphs";
  fs::create_directories(dir);
  int drawn = 0;
  for (const auto& file : fs::directory_iterator(fs::path(COLLNET_SOURCE_DIR) / "examples" / "graphs")) {
    if (file.path().extension() != ".yaml") continue;
    const std::string name = file.path().stem().string();
    const auto run_json = dir / (name + ".json");
    const auto r = run_collnet({"run", "--set", "topology=graph:" + file.path().string(), "--set", "traffic=uniform",
                                "--set", "injection_rate=0.2", "--set", "measure_cycles=500", "--json",
                                run_json.string()});
    ASSERT_EQ(r.status, 0) << name << r.err;
    const json run = read_json(run_json);
    const auto out = dir / name;
    const auto p = run_collnet({"plot", "--links", run_json.string(), "--out", out.string()});
    ASSERT_EQ(p.status, 0) << name << ": " << p.err;
    const json report = read_json(out / "plot-report.json");
    ASSERT_EQ(report["plots"].size(), 1U) << name;
    const json& entry = report["plots"][0];
    EXPECT_TRUE(is_png(out / entry["file"].get<std::string>())) << name;
    // A file that places every node (`at`) is drawn on its coordinates.
    EXPECT_EQ(entry["layout"], run["link_utilization"].contains("node_positions") ? "positions" : "bars") << name;
    expect_link_map(entry, run, name);
    ++drawn;
  }
  EXPECT_EQ(drawn, 4) << "examples/graphs holds four graph files";
}

TEST(PlotCli, RelativeScaleRunsToTheBusiestLink) {
  const fs::path dir = scratch() / "plot" / "relative";
  fs::create_directories(dir);
  const auto run_json = dir / "run.json";
  ASSERT_EQ(run_collnet({"run", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-optimal", "--json",
                         run_json.string()}).status, 0);
  const json run = read_json(run_json);
  double busiest = 0;
  for (const auto& [_, u] : run["link_utilization"]["per_link"].items()) busiest = std::max(busiest, u.get<double>());
  ASSERT_GT(busiest, 0.0);
  ASSERT_LT(busiest, 1.0);
  const auto r = run_collnet({"plot", "--links", run_json.string(), "--relative", "--out", (dir / "out").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const json entry = read_json(dir / "out" / "plot-report.json")["plots"][0];
  EXPECT_EQ(entry["colour_scale"]["relative"], true);
  EXPECT_DOUBLE_EQ(entry["colour_scale"]["colour_bar"]["max"].get<double>(), busiest);
  EXPECT_TRUE(contains(entry["colour_scale"]["colour_bar"]["label"].get<std::string>(),
                       "relative scale: 0 to the busiest link"))
      << entry["colour_scale"];
}

TEST(PlotCli, LinksOfOneSweepRecordNeedRecord) {
  const auto jsonl = sweep_results("syn", kSynthetic);
  const auto records = read_lines(jsonl);
  const fs::path out = scratch() / "plot" / "record";

  auto r = run_collnet({"plot", "--links", jsonl.string(), "--out", out.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--record")) << r.err;
  EXPECT_TRUE(contains(r.err, "holds " + std::to_string(records.size()) + " sweep records")) << r.err;
  EXPECT_FALSE(fs::exists(out)) << "an error made the output directory";

  for (const int index : {0, 3}) {
    fs::remove_all(out);
    r = run_collnet({"plot", "--links", jsonl.string(), "--record", std::to_string(index), "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const json report = read_json(out / "plot-report.json");
    EXPECT_EQ(report["record"], index);
    const auto chosen = std::find_if(records.begin(), records.end(), [&](const json& rec) { return rec["index"] == index; });
    ASSERT_NE(chosen, records.end());
    expect_link_map(report["plots"][0], (*chosen)["run"], "record " + std::to_string(index));
  }

  for (const auto& [args, part] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--record", "4"}, "--record: no record with index 4"},
           {{"--record", "x"}, "--record"},
           {{"--record", "1", "--x", "vcs"}, "--x does not apply to --links"},
           {{"--record", "1", "--y", "cycles"}, "--y does not apply to --links"},
           {{"--record", "1", "--by", "vcs"}, "--by does not apply to --links"}}) {
    std::vector<std::string> a{"plot", "--links", jsonl.string(), "--out", out.string()};
    a.insert(a.end(), args.begin(), args.end());
    r = run_collnet(a);
    EXPECT_EQ(r.status, 2) << part;
    EXPECT_TRUE(contains(r.err, part)) << r.err;
  }
}

TEST(PlotCli, BadInputIsOneLineNamingTheOptionBeforeAnythingIsDrawn) {
  const auto jsonl = sweep_results("syn", kSynthetic).string();
  const auto a_file = write_file("plot/not_a_dir", "x").string();
  const std::string fresh = (scratch() / "plot" / "never_made").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{jsonl, "--out", "/proc/collnet_plot_test"}, "--out: cannot create the directory '/proc/collnet_plot_test'"},
      {{jsonl, "--out", a_file}, "--out: '" + a_file + "' exists and is not a directory"},
      {{jsonl, "--bogus", "--out", fresh}, "unrecognized arguments: --bogus"},
      {{jsonl, "--out"}, "argument --out: expected one argument"},
      {{(scratch() / "plot" / "missing.jsonl").string(), "--out", fresh}, "does not exist"},
      {{scratch().string(), "--out", fresh}, "is a directory, not a file"},
      {{jsonl, "--y", "nosuchfield", "--out", fresh}, "--y: field 'nosuchfield'"},
      {{jsonl, "--x", "nosuchkey", "--out", fresh}, "--x: key 'nosuchkey'"},
      {{jsonl, "--by", "nosuchkey", "--out", fresh}, "--by: key 'nosuchkey'"},
      {{jsonl, "--table", "--out", fresh}, "--table needs --sweep"},
      {{jsonl, "--record", "1", "--out", fresh}, "--record goes with --links"},
      {{jsonl, "--relative", "--out", fresh}, "--relative goes with --links"},
      {{jsonl, "--cdf", "--x", "offered_rate", "--out", fresh}, "--x does not apply to --cdf"},
      {{jsonl, "--out", fresh, "--report", "/proc/collnet_plot_test.json"}, "--report: cannot write"},
      {{jsonl}, "--out DIR is required"},
      {{"--links", (scratch() / "plot" / "missing.json").string(), "--out", fresh}, "--links: '"},
      {{}, "give RESULTS.jsonl"}};
  for (const auto& [args, part] : cases) {
    std::vector<std::string> a{"plot"};
    a.insert(a.end(), args.begin(), args.end());
    const auto r = run_collnet(a);
    std::string shown;
    for (const auto& w : args) shown += w + " ";
    EXPECT_EQ(r.status, 2) << shown << r.err;
    EXPECT_EQ(r.err.rfind("collnet plot: error: ", 0), 0U) << shown << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << shown << ": not one line:\n" << r.err;
    EXPECT_TRUE(contains(r.err, part)) << shown << ": wanted '" << part << "' in " << r.err;
    EXPECT_FALSE(fs::exists(fresh)) << shown << ": the output directory was made before the error";
  }
}

}  // namespace
}  // namespace collnet::test
