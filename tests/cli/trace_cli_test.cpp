// `collnet run --trace FILE.csv [--trace-links]` and `collnet plot
// --timeline` (docs/guide/traces.md): the trace agrees with the run it
// records (rows = messages delivered, cycles in order and inside the run,
// words per destination = the all-to-all's definition, hops = the torus
// distance from coordinates, link flits = the run's flit-hops), a lone
// message's latency equals the zero-load closed form of
// tests/systemc/zero_load_test.cpp, the timeline's description agrees with
// the CSV files, and bad input exits 2 naming the option before anything
// runs. Runs the real binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

using ::testing::HasSubstr;
using namespace collnet::test;

namespace {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  [[nodiscard]] std::size_t column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw std::runtime_error("no column " + name);
    return static_cast<std::size_t>(it - header.begin());
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

Csv read_csv(const fs::path& path) {
  Csv csv;
  std::stringstream in(slurp(path));
  std::string line;
  if (std::getline(in, line)) csv.header = split(line);
  while (std::getline(in, line))
    if (!line.empty()) csv.rows.push_back(split(line));
  return csv;
}

std::int64_t number(const std::vector<std::string>& row, std::size_t column) {
  return std::stoll(row.at(column));
}

/// Links on the shortest way between two nodes of a k x k torus (ids x + k y).
int torus_hops(int k, int a, int b) {
  int hops = 0;
  for (const int d : {std::abs(a % k - b % k), std::abs(a / k - b / k)}) hops += std::min(d, k - d);
  return hops;
}

const std::vector<std::string> kContractColumns = {"message",  "src",           "dst",
                                                   "controller", "tag",         "words",
                                                   "inject_cycle", "first_arrival_cycle", "deliver_cycle",
                                                   "hops"};

}  // namespace

TEST(TraceCli, TraceAgreesWithTheRun) {
  const fs::path dir = scratch() / "agree";
  fs::create_directories(dir);
  const fs::path trace = dir / "a2a.csv";
  const fs::path json = dir / "a2a.json";
  // An all-to-all on a 4x4 torus: every node receives message_flits words
  // from each of the 16 nodes (its own block by a local copy).
  constexpr int k = 4;
  constexpr int words = 12;
  constexpr int packet_flits = 4;
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "algorithm=a2a-spread", "--set",
                                "message_flits=" + std::to_string(words), "--set",
                                "packet_flits=" + std::to_string(packet_flits), "--trace", trace.string(),
                                "--trace-links", "--json", json.string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto j = read_json(json);
  const Csv csv = read_csv(trace);
  ASSERT_GE(csv.header.size(), kContractColumns.size());
  EXPECT_EQ(std::vector<std::string>(csv.header.begin(), csv.header.begin() + 10), kContractColumns);

  // One row per message delivered: the network messages and local copies.
  const auto messages = j["messages"].get<std::uint64_t>();
  const auto copies = j["local_copies"].get<std::uint64_t>();
  EXPECT_EQ(messages, static_cast<std::uint64_t>(k * k * (k * k - 1)));
  EXPECT_EQ(copies, static_cast<std::uint64_t>(k * k));
  EXPECT_EQ(csv.rows.size(), messages + copies);
  EXPECT_EQ(j["trace"]["messages"].get<std::uint64_t>(), csv.rows.size());
  EXPECT_EQ(j["trace"]["file"].get<std::string>(), trace.string());

  const auto cycles = j["cycles"].get<std::int64_t>();  // last cycle + 1
  const std::size_t c_inject = csv.column("inject_cycle");
  const std::size_t c_first = csv.column("first_arrival_cycle");
  const std::size_t c_deliver = csv.column("deliver_cycle");
  std::map<std::int64_t, std::int64_t> words_to;
  std::vector<bool> seen(csv.rows.size(), false);
  std::int64_t network_rows = 0;
  for (const auto& row : csv.rows) {
    ASSERT_EQ(row.size(), csv.header.size());
    const std::int64_t inject = number(row, c_inject);
    const std::int64_t first = number(row, c_first);
    const std::int64_t deliver = number(row, c_deliver);
    EXPECT_LE(inject, first) << row[0];
    EXPECT_LE(first, deliver) << row[0];
    EXPECT_LT(deliver, cycles) << row[0];  // at or before the run's last cycle
    const std::int64_t src = number(row, csv.column("src"));
    const std::int64_t dst = number(row, csv.column("dst"));
    const std::int64_t w = number(row, csv.column("words"));
    EXPECT_EQ(w, words);
    words_to[dst] += w;
    const bool local = row[csv.column("kind")] == "local";
    EXPECT_EQ(local, src == dst);
    EXPECT_EQ(number(row, csv.column("hops")), torus_hops(k, static_cast<int>(src), static_cast<int>(dst)))
        << src << "->" << dst;
    EXPECT_EQ(number(row, csv.column("packets")), local ? 0 : (words + packet_flits - 1) / packet_flits);
    network_rows += local ? 0 : 1;
    // A network message takes at least the zero-load time of its words.
    if (!local) {
      EXPECT_GE(deliver - inject, words - 1);
    }
    const auto id = static_cast<std::size_t>(number(row, 0));
    ASSERT_LT(id, seen.size());
    EXPECT_FALSE(seen[id]) << "message " << id << " listed twice";
    seen[id] = true;
  }
  EXPECT_EQ(network_rows, static_cast<std::int64_t>(messages));
  // Words per destination: what the data check compares there (its regions,
  // from the definition of the all-to-all: k*k blocks of message_flits).
  ASSERT_EQ(words_to.size(), static_cast<std::size_t>(k * k));
  std::int64_t total = 0;
  for (const auto& [dst, w] : words_to) {
    EXPECT_EQ(w, static_cast<std::int64_t>(k * k * words)) << "destination " << dst;
    total += w;
  }
  EXPECT_THAT(r.out, HasSubstr("(" + std::to_string(total) + " words checked"));

  // The links file: beside the trace, every busy interval once, the flits
  // summing to the run's flit-hops and per link to its utilization.
  const fs::path links = dir / "a2a.links.csv";
  ASSERT_TRUE(fs::exists(links));
  EXPECT_EQ(j["trace"]["links_file"].get<std::string>(), links.string());
  const Csv lc = read_csv(links);
  ASSERT_GE(lc.header.size(), 6u);
  EXPECT_EQ(std::vector<std::string>(lc.header.begin(), lc.header.begin() + 6),
            (std::vector<std::string>{"link", "from", "to", "start_cycle", "end_cycle", "flits"}));
  EXPECT_EQ(lc.rows.size(), j["trace"]["link_intervals"].get<std::size_t>());
  std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> per_link;
  std::int64_t flits = 0;
  for (const auto& row : lc.rows) {
    const std::int64_t start = number(row, 3);
    const std::int64_t end = number(row, 4);
    EXPECT_LE(start, end);
    EXPECT_LT(end, cycles);
    EXPECT_EQ(number(row, 5), end - start + 1);
    EXPECT_EQ(row[0], row[1] + ":" + row[0].substr(row[1].size() + 1, 2) + "->" + row[2]);
    per_link[row[0]].emplace_back(start, end);
    flits += number(row, 5);
  }
  EXPECT_EQ(flits, j["flit_hops"].get<std::int64_t>());
  const auto& utilization = j["link_utilization"]["per_link"];
  for (auto& [name, intervals] : per_link) {
    std::sort(intervals.begin(), intervals.end());
    std::int64_t busy = 0;
    for (std::size_t i = 0; i < intervals.size(); ++i) {
      busy += intervals[i].second - intervals[i].first + 1;
      // Maximal intervals: separated by at least one idle cycle.
      if (i > 0) {
        EXPECT_GT(intervals[i].first, intervals[i - 1].second + 1) << name;
      }
    }
    ASSERT_TRUE(utilization.contains(name)) << name;
    EXPECT_NEAR(static_cast<double>(busy) / static_cast<double>(cycles), utilization[name].get<double>(), 1e-9)
        << name;
  }
}

// One message at a time on an idle network: tree-bcast on a chain forwards
// the message on receipt, hop by hop. From the cycle its head leaves the
// source NIC to the cycle its tail is written at the destination, a message
// of one packet of P flits over H links takes
//   H * (router_delay + link_latency) + router_delay + 2 * nic_latency + (P - 1)
// (tests/systemc/zero_load_test.cpp).
TEST(TraceCli, LoneMessageLatencyEqualsTheZeroLoadClosedForm) {
  // router_delay = routing + allocation + traversal; nic_latency is 1 (no
  // scenario key changes it).
  struct Pipeline {
    int router_delay, routing, allocation, link, flits;
  };
  constexpr int nic_latency = 1;
  const std::vector<Pipeline> pipelines = {{1, 0, 1, 1, 4}, {4, 2, 1, 3, 3}, {3, 1, 2, 2, 1}};
  int checked = 0;
  for (const Pipeline& p : pipelines) {
    const fs::path trace = scratch() / ("lone_" + std::to_string(checked) + ".csv");
    const CliRun r = run_collnet(
        {"run", "--set", "topology=tree:parents=-1,0,1,2", "--set", "algorithm=tree-bcast", "--set",
         "message_flits=" + std::to_string(p.flits), "--set", "packet_flits=4", "--set",
         "router_delay=" + std::to_string(p.router_delay), "--set", "routing_delay=" + std::to_string(p.routing),
         "--set", "allocation_delay=" + std::to_string(p.allocation), "--set",
         "link_latency=" + std::to_string(p.link), "--trace", trace.string()});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const Csv csv = read_csv(trace);
    ASSERT_EQ(csv.rows.size(), 3u);  // 3 -> 2 -> 1 -> 0
    const int router_delay = p.router_delay;
    std::int64_t previous_deliver = -1;
    for (const auto& row : csv.rows) {
      const int hops = static_cast<int>(number(row, csv.column("hops")));
      EXPECT_EQ(hops, 1);  // neighbours on the tree
      EXPECT_EQ(number(row, csv.column("src")), number(row, csv.column("dst")) + 1);
      const std::int64_t inject = number(row, csv.column("inject_cycle"));
      const std::int64_t deliver = number(row, csv.column("deliver_cycle"));
      EXPECT_EQ(deliver - inject, hops * (router_delay + p.link) + router_delay + 2 * nic_latency + (p.flits - 1))
          << "router delay " << router_delay << " routing " << p.routing << " allocation " << p.allocation
          << " link " << p.link << " flits " << p.flits;
      // The head arrives P - 1 cycles before the tail.
      EXPECT_EQ(deliver - number(row, csv.column("first_arrival_cycle")), p.flits - 1);
      EXPECT_GT(inject, previous_deliver);  // the network was idle: sent after the last one arrived
      previous_deliver = deliver;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 9);
}

TEST(TraceCli, TimelineDescriptionAgreesWithTheCsv) {
  const fs::path dir = scratch() / "timeline";
  fs::create_directories(dir);
  const fs::path trace = dir / "t.csv";
  const CliRun r = run_collnet({"run", "--set", "topology=torus:4x4", "--set", "compare=", "--set",
                                "message_flits=8", "--trace", trace.string(), "--trace-links"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const fs::path out = dir / "plots";
  const CliRun p = run_collnet({"plot", "--timeline", trace.string(), "--out", out.string(), "--bins", "7"});
  ASSERT_EQ(p.status, 0) << p.out << p.err;
  EXPECT_TRUE(fs::exists(out / "timeline.png"));
  const auto d = read_json(out / "timeline.json");
  EXPECT_EQ(d["files"].size(), 2u);
  EXPECT_EQ(d["links_file"].get<std::string>(), (dir / "t.links.csv").string());

  // Bars per node: the rows it sent.
  const Csv csv = read_csv(trace);
  std::map<std::string, int> sent;
  std::int64_t last = 0;
  for (const auto& row : csv.rows) {
    ++sent[row[csv.column("src")]];
    last = std::max(last, number(row, csv.column("deliver_cycle")));
  }
  EXPECT_EQ(d["messages"].get<std::size_t>(), csv.rows.size());
  EXPECT_EQ(d["nodes"].size(), 16u);
  for (const auto& [node, n] : sent) EXPECT_EQ(d["nodes"][node].get<int>(), n) << "node " << node;
  EXPECT_THAT(p.out, HasSubstr(std::to_string(csv.rows.size()) + " messages on 16 nodes"));

  // Busy cycles per bin: recomputed here from the intervals.
  const Csv lc = read_csv(dir / "t.links.csv");
  for (const auto& row : lc.rows) last = std::max(last, number(row, 4));
  EXPECT_EQ(d["end_cycle"].get<std::int64_t>(), last);
  const auto bin = d["bin_cycles"].get<std::int64_t>();
  const auto bins = d["bins"].get<std::int64_t>();
  EXPECT_EQ(bin, (last + 1 + 6) / 7);  // 7 bins asked for
  EXPECT_GE(bins * bin, last + 1);
  std::map<std::string, std::vector<std::int64_t>> busy;
  for (const auto& row : lc.rows) {
    auto& b = busy[row[0]];
    b.resize(static_cast<std::size_t>(bins), 0);
    for (std::int64_t c = number(row, 3); c <= number(row, 4); ++c) ++b[static_cast<std::size_t>(c / bin)];
  }
  ASSERT_EQ(d["links"].size(), busy.size());
  for (const auto& [name, b] : busy) EXPECT_EQ(d["links"][name].get<std::vector<std::int64_t>>(), b) << name;

  // Every row of the link panel is named by its link, in the file's order.
  std::vector<std::string> order;
  for (const auto& row : lc.rows)
    if (std::find(order.begin(), order.end(), row[0]) == order.end()) order.push_back(row[0]);
  ASSERT_EQ(d["link_rows"].size(), order.size());
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(d["link_rows"][std::to_string(i)], order[i]) << i;
  // Every tag of the trace has a look (colour, hatch) no other tag has.
  std::set<std::string> tags;
  for (const auto& row : csv.rows) tags.insert(row[csv.column("tag")]);
  ASSERT_EQ(d["styles"].size(), tags.size());
  std::set<std::string> looks;
  for (const auto& [tag, style] : d["styles"].items()) {
    EXPECT_TRUE(tags.count(tag)) << tag;
    looks.insert(style["colour"].dump() + style["hatch"].get<std::string>());
  }
  EXPECT_EQ(looks.size(), tags.size()) << d["styles"];
}

TEST(TraceCli, BadInputExitsTwoNamingTheOptionBeforeTheRun) {
  const fs::path dir = scratch() / "bad";
  fs::create_directories(dir);
  const std::string run = "run --set topology=torus:4x4 --set compare=";
  struct Case {
    std::vector<std::string> extra;
    std::string option;
    std::string detail;
  };
  const std::vector<Case> cases = {
      {{"--trace", (dir / "missing" / "t.csv").string()}, "--trace", "does not exist"},
      {{"--trace", dir.string()}, "--trace", "is a directory"},
      {{"--trace-links"}, "--trace-links", "goes with --trace"},
  };
  for (const Case& c : cases) {
    const fs::path json = dir / "never.json";
    std::vector<std::string> extra = c.extra;
    extra.push_back("--json");
    extra.push_back(json.string());
    const CliRun r = run_words(run, extra);
    EXPECT_EQ(r.status, 2) << c.option << r.out << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.option + ":")) << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.detail)) << r.err;
    EXPECT_EQ(r.out, "") << "nothing ran";
    EXPECT_FALSE(fs::exists(json)) << "nothing ran";
  }
  // The links file's directory is the trace's: a directory in its place.
  fs::create_directories(dir / "x.links.csv");
  CliRun r = run_words(run, {"--trace", (dir / "x.csv").string(), "--trace-links"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--trace-links: '" + (dir / "x.links.csv").string() + "' is a directory"));
  EXPECT_FALSE(fs::exists(dir / "x.csv"));
  // Synthetic traffic is refused by name.
  r = run_words("run --set traffic=uniform --set measure_cycles=100", {"--trace", (dir / "s.csv").string()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--trace: synthetic-traffic runs (key 'traffic') are not traced"));
  EXPECT_FALSE(fs::exists(dir / "s.csv"));
}

TEST(TraceCli, TimelineBadInputExitsTwoWithOneLine) {
  const fs::path dir = scratch() / "badplot";
  fs::create_directories(dir);
  const fs::path wrong = write_file("badplot/wrong.csv", "a,b,c\n1,2,3\n");
  const fs::path good = write_file("badplot/good.csv",
                                   "message,src,dst,controller,tag,words,inject_cycle,first_arrival_cycle,"
                                   "deliver_cycle,hops\n0,0,1,0,0,4,3,5,8,1\n");
  const fs::path file = write_file("badplot/afile", "x");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--timeline", (dir / "none.csv").string(), "--out", dir.string()}, "--timeline: '"},
      {{"--timeline", wrong.string(), "--out", dir.string()}, "--timeline: '" + wrong.string() + "' is not a"},
      {{"--timeline", good.string(), "--out", file.string()}, "--out: '" + file.string() + "' is a file"},
      {{"--timeline", good.string()}, "--out:"},
      {{"--timeline", good.string(), "--out", dir.string(), "--bins", "0"}, "--bins:"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"plot"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliRun r = run_collnet(args);
    EXPECT_EQ(r.status, 2) << c.message << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr("Traceback")));
  }
  // The one-message file draws: one bar on node 0, none on node 1.
  const CliRun ok = run_collnet({"plot", "--timeline", good.string(), "--out", (dir / "ok").string()});
  ASSERT_EQ(ok.status, 0) << ok.err;
  const auto d = read_json(dir / "ok" / "timeline.json");
  EXPECT_EQ(d["nodes"]["0"].get<int>(), 1);
  EXPECT_EQ(d["nodes"]["1"].get<int>(), 0);
  EXPECT_TRUE(d["links"].is_null());
}

// The links' one observer is shared: with --vcd and --trace-links together
// the waveform is the same as without the trace, and the links file is
// written too.
TEST(TraceCli, WaveformUnchangedByTheLinksTrace) {
  const fs::path dir = scratch() / "vcd";
  fs::create_directories(dir);
  const std::string run = "run --set topology=mesh:3x3 --set compare= --set message_flits=4 --vcd";
  const CliRun plain = run_words(run, {(dir / "plain.vcd").string()});
  ASSERT_EQ(plain.status, 0) << plain.err;
  const CliRun traced =
      run_words(run, {(dir / "traced.vcd").string(), "--trace", (dir / "t.csv").string(), "--trace-links"});
  ASSERT_EQ(traced.status, 0) << traced.err;
  EXPECT_EQ(slurp(dir / "plain.vcd"), slurp(dir / "traced.vcd"));
  const Csv links = read_csv(dir / "t.links.csv");
  EXPECT_FALSE(links.rows.empty());
}
