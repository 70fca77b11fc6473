// algorithm msccl: MSCCL-IR import (see msccl.hpp, docs/guide/msccl.md).
//
// Translation, twice:
//  - Schedule::threads (the cycle model): each thread block is a thread of
//    its rank's NIC, its steps in order, run concurrently with the rank's
//    other thread blocks; fused steps forward packet by packet; a
//    dependency waits for what completes the step it names (see the
//    comments below and docs/guide/msccl.md "The mapping").
//  - Schedule::programs (functional executor, static checks, schedule
//    engines): one sequential program per rank. The builder executes the
//    MSCCL program symbolically, in rounds: in each round every thread block
//    whose next step can run (its dependency done, the matching send of a
//    receive issued in an earlier round) runs it. Each rank's program is its
//    steps in that order (within a round, plain sends first). The order is a
//    valid execution of the whole program; a round without progress is a
//    dependency cycle (or a receive whose send waits on it) and is refused.
//
// Step -> descriptors of the programs (tags are unique per receiving rank,
// one per message):
//   s      SEND src chunk(s) to the peer, landing at the matched receive's
//          dst, with the receive's operation (copy for r/rcs, sum for
//          rrc/rrs/rrcs)
//   r/rrc  WAIT for that message (it was stored / reduced into dst on arrival)
//   rcs, rrs, rrcs  WAIT, then SEND the dst chunk(s) on to the send peer
//          (in a thread: the forwarding SEND first, then the WAIT)
//   cpy/re SEND to self (copy / sum) src -> dst, then WAIT for it
//   nop    nothing: its dependency orders the program
#include "collectives/algorithms/msccl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "collectives/algorithm.hpp"
#include "collectives/executor.hpp"
#include "collectives/keys.hpp"

namespace collnet::collectives {

namespace {

const std::vector<std::string>& step_types() {
  static const std::vector<std::string> t = {"s", "r", "re", "cpy", "nop", "rrc", "rrs", "rcs", "rrcs"};
  return t;
}

bool receives(const std::string& t) { return t == "r" || t == "rrc" || t == "rrs" || t == "rcs" || t == "rrcs"; }
bool sends(const std::string& t) { return t == "s" || t == "rrs" || t == "rcs" || t == "rrcs"; }
bool reduces(const std::string& t) { return t == "rrc" || t == "rrs" || t == "rrcs"; }
bool local(const std::string& t) { return t == "cpy" || t == "re"; }

std::string where(const MscclProgram& p, int line) {
  return fmt::format("key 'schedule': {} line {}: ", p.file, line);
}

std::string step_name(const MscclGpu& g, const MscclThreadBlock& tb, const MscclStep& st) {
  return fmt::format("gpu {} tb {} step {}", g.id, tb.id, st.s);
}

/// Line numbers of byte offsets: the newlines are found once, each lookup
/// is a binary search (a per-element count from the start made parsing
/// quadratic in the file's size).
class LineIndex {
 public:
  explicit LineIndex(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') newlines_.push_back(static_cast<std::ptrdiff_t>(i));
  }
  /// 1-based line of `offset`; 0 for an unknown offset (negative).
  [[nodiscard]] int operator()(std::ptrdiff_t offset) const {
    if (offset < 0) return 0;
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin());
  }

 private:
  std::vector<std::ptrdiff_t> newlines_;
};

/// An integer attribute; ConfigError naming the element when missing or not a number.
int attr_int(const pugi::xml_node& n, const char* name, const std::string& prefix, const std::string& who,
             std::optional<int> fallback = std::nullopt) {
  const pugi::xml_attribute a = n.attribute(name);
  if (!a) {
    if (fallback) return *fallback;
    throw ConfigError(prefix + who + ": missing attribute '" + name + "'");
  }
  const std::string v = a.value();
  try {
    std::size_t used = 0;
    const long x = std::stol(v, &used);
    if (used != v.size() || x < -1000000000L || x > 1000000000L) throw std::invalid_argument(v);
    return static_cast<int>(x);
  } catch (const std::exception&) {
    throw ConfigError(prefix + who + ": attribute '" + name + "' is '" + v + "', expected an integer");
  }
}

char attr_buf(const pugi::xml_node& n, const char* name, const std::string& prefix, const std::string& who) {
  const std::string v = n.attribute(name).value();
  if (v == "i" || v == "o" || v == "s") return v[0];
  throw ConfigError(prefix + who + ": attribute '" + name + "' is '" + v +
                    "'; accepted values: i (input), o (output), s (scratch)");
}

struct Keys {
  Key schedule = Key::text("schedule", "msccl: the MSCCL-IR XML file (MSCCLang's output) to run", "",
                           "a readable MSCCL-IR .xml file (e.g. examples/msccl/allreduce_ring_8.xml)",
                           [](const std::string& v) -> std::string {
                             if (v.empty()) return "algorithm msccl needs an MSCCL-IR XML file";
                             if (!std::ifstream(v)) return "cannot read '" + v + "' (missing or unreadable file)";
                             return "";
                           })
                     .default_from("none (required)");
  Key placement = Key::text("placement",
                            "msccl: which endpoint runs each rank: identity (rank r on endpoint r) or a comma list "
                            "of endpoint ids, one per rank",
                            "identity", "identity, or ngpus distinct endpoint ids separated by commas",
                            [](const std::string& v) -> std::string {
                              if (v == "identity") return "";
                              if (v.empty() || v.find_first_not_of("0123456789,") != std::string::npos ||
                                  v.front() == ',' || v.back() == ',' || v.find(",,") != std::string::npos)
                                return "'" + v + "' is neither identity nor a comma list of endpoint ids; accepted "
                                       "values: identity, or ngpus distinct endpoint ids separated by commas";
                              return "";
                            });
  Key chunk_words = Key::integer("chunk_words", "msccl: words (payload flits) of one MSCCL chunk", 16, 1, 65536,
                                 "words")
                        .default_from("the file's chunk_words attribute (collnet export writes it), else 16");
  [[nodiscard]] std::vector<Key> list() const { return {schedule, placement, chunk_words}; }
};

const Keys& msccl_keys() { return declared<Keys>(); }

std::vector<EndpointId> read_placement(const Params& params, int ngpus, std::size_t endpoints) {
  const std::string v = msccl_keys().placement.text(params);
  std::vector<EndpointId> out;
  if (v == "identity") {
    if (static_cast<std::size_t>(ngpus) > endpoints)
      throw ConfigError(fmt::format("key 'placement': identity places {} ranks but the topology has {} endpoints; "
                                    "choose a topology with at least {} endpoints",
                                    ngpus, endpoints, ngpus));
    for (int r = 0; r < ngpus; ++r) out.push_back(static_cast<EndpointId>(r));
    return out;
  }
  std::stringstream ss(v);
  std::string item;
  std::set<long> seen;
  while (std::getline(ss, item, ',')) {
    long x = -1;
    try {
      std::size_t used = 0;
      x = std::stol(item, &used);
      if (used != item.size()) x = -1;
    } catch (const std::exception&) {
      x = -1;
    }
    if (x < 0 || static_cast<std::size_t>(x) >= endpoints)
      throw ConfigError(fmt::format("key 'placement': '{}' is not an endpoint id; accepted values: identity, or {} "
                                    "distinct endpoint ids from 0 to {} separated by commas",
                                    item, ngpus, endpoints - 1));
    if (!seen.insert(x).second)
      throw ConfigError(
          fmt::format("key 'placement': endpoint {} is named twice; each rank needs its own endpoint", x));
    out.push_back(static_cast<EndpointId>(x));
  }
  if (static_cast<int>(out.size()) != ngpus)
    throw ConfigError(fmt::format("key 'placement': {} endpoint ids for {} ranks; accepted values: identity, or {} "
                                  "distinct endpoint ids separated by commas",
                                  out.size(), ngpus, ngpus));
  return out;
}

/// chunk_words of a run: the file's attribute chunk_words where it has one
/// (the key, where set, must equal it: the file's word addresses are those of
/// its chunk), else the key (default 16).
std::uint32_t read_chunk_words(const MscclProgram& prog, const Params& params) {
  const Key& key = msccl_keys().chunk_words;
  if (prog.chunk_words == 0) return static_cast<std::uint32_t>(key.integer(params));
  if (params.has(key.name)) {
    const std::int64_t given = key.integer(params);
    if (given != prog.chunk_words)
      throw ConfigError(fmt::format("key 'chunk_words': {} differs from the chunk_words=\"{}\" of {} line {} (<algo>: "
                                    "the chunk its word addresses were written for); remove chunk_words or set it "
                                    "to {}",
                                    given, prog.chunk_words, prog.file, prog.line, prog.chunk_words));
  }
  return static_cast<std::uint32_t>(prog.chunk_words);
}

}  // namespace

MscclProgram parse_msccl(const std::string& path) {
  MscclProgram p;
  p.file = path;
  if (path.empty())
    throw ConfigError(
        "key 'schedule': algorithm msccl needs an MSCCL-IR XML file "
        "(e.g. schedule=examples/msccl/allreduce_ring_8.xml)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("key 'schedule': cannot read '" + path + "' (missing or unreadable file)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_msccl_text(ss.str(), path);
}

MscclProgram parse_msccl_text(const std::string& text, const std::string& path) {
  MscclProgram p;
  p.file = path;
  pugi::xml_document doc;
  const pugi::xml_parse_result ok = doc.load_buffer(text.data(), text.size());
  if (!ok)
    throw ConfigError(fmt::format("key 'schedule': {} line {}: not well-formed XML: {}", path,
                                  LineIndex(text)(ok.offset), ok.description()));
  const pugi::xml_node algo = doc.child("algo");
  if (!algo) throw ConfigError("key 'schedule': " + path + ": no <algo> element (not an MSCCL-IR file)");
  const LineIndex line_index(text);
  const auto line = [&](const pugi::xml_node& n) { return line_index(n.offset_debug()); };
  const std::string top = where(p, line(algo));
  p.name = algo.attribute("name").value();
  p.coll = algo.attribute("coll").value();
  p.proto = algo.attribute("proto").value();
  p.nchannels = attr_int(algo, "nchannels", top, "<algo>", 1);
  p.nchunksperloop = attr_int(algo, "nchunksperloop", top, "<algo>");
  p.ngpus = attr_int(algo, "ngpus", top, "<algo>");
  p.inplace = attr_int(algo, "inplace", top, "<algo>", 0) != 0;
  p.line = line(algo);
  // collnet's own attribute (MSCCL's parsers look attributes up by name and
  // ignore the others): the chunk the document's word addresses assume.
  if (algo.attribute("chunk_words")) {
    p.chunk_words = attr_int(algo, "chunk_words", top, "<algo>");
    if (p.chunk_words < 1 || p.chunk_words > 65536)
      throw ConfigError(top + "<algo> attribute 'chunk_words' must be from 1 to 65536 (words of one chunk)");
  }
  static const std::vector<std::string> colls = {"allreduce", "allgather", "reduce_scatter", "alltoall", "custom"};
  if (p.coll == "reducescatter") p.coll = "reduce_scatter";
  if (std::find(colls.begin(), colls.end(), p.coll) == colls.end())
    throw ConfigError(top + "<algo> attribute 'coll' is '" + p.coll + "'; accepted values: " + join(colls));
  if (p.ngpus < 1 || p.ngpus > 65536) throw ConfigError(top + "<algo> attribute 'ngpus' must be from 1 to 65536");
  if (p.nchunksperloop < 1) throw ConfigError(top + "<algo> attribute 'nchunksperloop' must be at least 1");
  if (p.nchannels < 1) throw ConfigError(top + "<algo> attribute 'nchannels' must be at least 1");
  p.gpus.resize(static_cast<std::size_t>(p.ngpus));
  std::vector<bool> have(static_cast<std::size_t>(p.ngpus), false);
  for (const pugi::xml_node gn : algo.children("gpu")) {
    const std::string at = where(p, line(gn));
    const int id = attr_int(gn, "id", at, "<gpu>");
    const std::string gw = fmt::format("gpu {}", id);
    if (id < 0 || id >= p.ngpus) throw ConfigError(at + gw + ": id out of range 0.." + std::to_string(p.ngpus - 1));
    if (have[static_cast<std::size_t>(id)]) throw ConfigError(at + gw + ": defined twice");
    have[static_cast<std::size_t>(id)] = true;
    MscclGpu& g = p.gpus[static_cast<std::size_t>(id)];
    g.id = id;
    g.line = line(gn);
    g.i_chunks = attr_int(gn, "i_chunks", at, gw);
    g.o_chunks = attr_int(gn, "o_chunks", at, gw);
    g.s_chunks = attr_int(gn, "s_chunks", at, gw, 0);
    if (g.i_chunks < 0 || g.o_chunks < 0 || g.s_chunks < 0) throw ConfigError(at + gw + ": negative chunk count");
    std::set<int> tb_ids;
    for (const pugi::xml_node tn : gn.children("tb")) {
      const std::string tt = where(p, line(tn));
      MscclThreadBlock tb;
      tb.id = attr_int(tn, "id", tt, gw + " <tb>");
      const std::string tw = fmt::format("gpu {} tb {}", id, tb.id);
      if (!tb_ids.insert(tb.id).second) throw ConfigError(tt + tw + ": defined twice");
      tb.send = attr_int(tn, "send", tt, tw);
      tb.recv = attr_int(tn, "recv", tt, tw);
      tb.chan = attr_int(tn, "chan", tt, tw, 0);
      tb.line = line(tn);
      for (const int peer : {tb.send, tb.recv})
        if (peer < -1 || peer >= p.ngpus || peer == id)
          throw ConfigError(fmt::format("{}{}: peer {} is not another gpu (-1 or 0..{} except {})", tt, tw, peer,
                                        p.ngpus - 1, id));
      if (tb.chan < 0) throw ConfigError(tt + tw + ": negative channel");
      for (const pugi::xml_node sn : tn.children("step")) {
        const std::string st = where(p, line(sn));
        MscclStep s;
        s.s = attr_int(sn, "s", st, tw + " <step>");
        const std::string sw = fmt::format("{} step {}", tw, s.s);
        s.line = line(sn);
        s.type = sn.attribute("type").value();
        if (std::find(step_types().begin(), step_types().end(), s.type) == step_types().end())
          throw ConfigError(st + sw + ": unknown step type '" + s.type + "'; accepted values: " + join(step_types()));
        if (s.s != static_cast<int>(tb.steps.size()))
          throw ConfigError(fmt::format("{}{}: steps must be numbered 0, 1, ... in order; expected s=\"{}\"", st, sw,
                                        tb.steps.size()));
        s.cnt = attr_int(sn, "cnt", st, sw);
        s.depid = attr_int(sn, "depid", st, sw, -1);
        s.deps = attr_int(sn, "deps", st, sw, -1);
        if (s.type != "nop") {
          s.srcbuf = attr_buf(sn, "srcbuf", st, sw);
          s.dstbuf = attr_buf(sn, "dstbuf", st, sw);
          s.srcoff = attr_int(sn, "srcoff", st, sw);
          s.dstoff = attr_int(sn, "dstoff", st, sw);
          if (s.cnt < 1) throw ConfigError(st + sw + ": cnt must be at least 1");
        }
        if (sends(s.type) && tb.send < 0)
          throw ConfigError(st + sw + ": step type '" + s.type + "' sends but the thread block has send=\"-1\"");
        if (receives(s.type) && tb.recv < 0)
          throw ConfigError(st + sw + ": step type '" + s.type + "' receives but the thread block has recv=\"-1\"");
        tb.steps.push_back(s);
      }
      g.tbs.push_back(std::move(tb));
    }
  }
  for (int r = 0; r < p.ngpus; ++r)
    if (!have[static_cast<std::size_t>(r)])
      throw ConfigError(fmt::format("{}gpu {} is missing (ngpus=\"{}\")", top, r, p.ngpus));
  return p;
}

namespace {

struct Layout {
  int in = 0, out = 0, scratch = 0;  // chunks of each buffer as addressed
  int base_i = 0, base_o = 0, base_s = 0, total = 0;
};

Layout layout_of(const MscclProgram& p, const MscclGpu& g) {
  Layout l;
  if (p.inplace) {
    l.in = l.out = std::max(g.i_chunks, g.o_chunks);
    l.base_i = l.base_o = 0;
    l.base_s = l.in;
  } else {
    l.in = g.i_chunks;
    l.out = g.o_chunks;
    l.base_i = 0;
    l.base_o = g.i_chunks;
    l.base_s = g.i_chunks + g.o_chunks;
  }
  l.scratch = g.s_chunks;
  l.total = l.base_s + l.scratch;
  return l;
}

int chunks_of(const Layout& l, char buf) { return buf == 'i' ? l.in : buf == 'o' ? l.out : l.scratch; }
int base_of(const Layout& l, char buf) { return buf == 'i' ? l.base_i : buf == 'o' ? l.base_o : l.base_s; }

struct StepRef {
  int g = -1, t = -1, k = -1;  // gpu, tb index, step index
};

/// What the schedule needs to know about the collective's data, shared by
/// the initial and expected functions.
struct DataModel {
  std::string coll;
  int ngpus = 0, nchunks = 0;
  std::uint32_t cw = 0;
  std::vector<Layout> layouts;        // by rank
  std::vector<int> rank_of;           // by endpoint, -1 for none
  std::vector<std::vector<Word>> custom;  // executor result (custom)

  int in_chunks() const { return coll == "allgather" ? nchunks / ngpus : nchunks; }
  Word input(int rank, int chunk, std::uint32_t word) const {
    return payload_word(static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(rank),
                        static_cast<std::uint64_t>(chunk) * cw + word);
  }
  /// First word of the input at rank r (the allgather input sits in its slot
  /// of the output when in place).
  std::uint32_t input_base(int r, bool inplace) const {
    const Layout& l = layouts[static_cast<std::size_t>(r)];
    if (coll == "allgather" && inplace) return static_cast<std::uint32_t>((l.base_o + r * in_chunks())) * cw;
    return static_cast<std::uint32_t>(l.base_i) * cw;
  }
};

}  // namespace

Schedule build_msccl(const MscclProgram& p, std::size_t endpoints, const MscclOptions& opt) {
  const std::uint32_t cw = opt.chunk_words;
  std::vector<EndpointId> place = opt.placement;
  if (place.empty()) {
    if (static_cast<std::size_t>(p.ngpus) > endpoints)
      throw ConfigError(fmt::format("key 'placement': {} has {} ranks but the topology has {} endpoints", p.file,
                                    p.ngpus, endpoints));
    for (int r = 0; r < p.ngpus; ++r) place.push_back(static_cast<EndpointId>(r));
  }
  const int controllers = opt.controllers > 0 ? opt.controllers : std::clamp(p.nchannels, 1, 8);
  const auto G = static_cast<std::size_t>(p.ngpus);

  std::vector<Layout> lay;
  for (const MscclGpu& g : p.gpus) lay.push_back(layout_of(p, g));

  // Chunk ranges and dependency targets.
  for (const MscclGpu& g : p.gpus) {
    const Layout& l = lay[static_cast<std::size_t>(g.id)];
    for (const MscclThreadBlock& tb : g.tbs)
      for (const MscclStep& st : tb.steps) {
        const std::string at = where(p, st.line) + step_name(g, tb, st);
        if (st.depid >= 0 || st.deps >= 0) {
          const auto it = std::find_if(g.tbs.begin(), g.tbs.end(), [&](const auto& x) { return x.id == st.depid; });
          if (it == g.tbs.end() || st.deps < 0 || st.deps >= static_cast<int>(it->steps.size()))
            throw ConfigError(fmt::format("{}: depends on tb {} step {}, which gpu {} does not have", at, st.depid,
                                          st.deps, g.id));
          if (it->id == tb.id) throw ConfigError(at + ": depends on its own thread block (use step order)");
        }
        if (st.type == "nop") continue;
        const auto check = [&](char buf, int off, const char* what) {
          const int n = chunks_of(l, buf);
          if (off < 0 || off + st.cnt > n)
            throw ConfigError(fmt::format("{}: {} chunks [{}, {}) of buffer '{}' out of range (gpu {} has {} chunks "
                                          "there)",
                                          at, what, off, off + st.cnt, buf, g.id, n));
        };
        if (!receives(st.type)) check(st.srcbuf, st.srcoff, "source");
        if (receives(st.type) || local(st.type)) check(st.dstbuf, st.dstoff, "destination");
      }
  }
  // Collective sizes.
  const int per_rank = p.nchunksperloop / p.ngpus;
  if (p.coll != "custom" && p.coll != "allreduce" && p.nchunksperloop % p.ngpus != 0)
    throw ConfigError(fmt::format("{}{}: nchunksperloop {} is not a multiple of ngpus {}", where(p, 1), p.coll,
                                  p.nchunksperloop, p.ngpus));
  for (const MscclGpu& g : p.gpus) {
    const Layout& l = lay[static_cast<std::size_t>(g.id)];
    int need_in = p.nchunksperloop, need_out = p.nchunksperloop;
    if (p.coll == "allgather") need_in = per_rank;
    if (p.coll == "reduce_scatter") need_out = per_rank;
    if (p.coll == "custom") need_in = need_out = 0;
    if (p.inplace) need_in = need_out = std::max(need_in, need_out);
    if (l.in < need_in || l.out < need_out)
      throw ConfigError(fmt::format("{}gpu {}: a {} of {} chunks needs {} input and {} output chunks, the gpu has {} "
                                    "and {}",
                                    where(p, g.line), g.id, p.coll, p.nchunksperloop, need_in, need_out, l.in, l.out));
  }

  // Match sends to receives: the k-th sending step of (g, tb: send=p, chan=c)
  // with the k-th receiving step of the tb of gpu p with recv=g, chan=c.
  std::map<std::tuple<int, int, int>, int> receiver_tb;  // (gpu, recv peer, chan) -> tb index
  for (const MscclGpu& g : p.gpus)
    for (std::size_t t = 0; t < g.tbs.size(); ++t) {
      const auto& tb = g.tbs[t];
      if (tb.recv < 0) continue;
      if (!receiver_tb.emplace(std::make_tuple(g.id, tb.recv, tb.chan), static_cast<int>(t)).second)
        throw ConfigError(fmt::format("{}gpu {} tb {}: a second thread block receiving from gpu {} on channel {}",
                                      where(p, tb.line), g.id, tb.id, tb.recv, tb.chan));
    }
  // match[g][t][k] = receiving step of a sending step
  std::vector<std::vector<std::vector<StepRef>>> match(G), matched_by(G);
  for (std::size_t g = 0; g < G; ++g) {
    match[g].resize(p.gpus[g].tbs.size());
    matched_by[g].resize(p.gpus[g].tbs.size());
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t) {
      match[g][t].resize(p.gpus[g].tbs[t].steps.size());
      matched_by[g][t].resize(p.gpus[g].tbs[t].steps.size());
    }
  }
  std::set<std::pair<int, int>> used_receivers;
  for (const MscclGpu& g : p.gpus)
    for (std::size_t t = 0; t < g.tbs.size(); ++t) {
      const MscclThreadBlock& tb = g.tbs[t];
      std::vector<int> out;
      for (std::size_t k = 0; k < tb.steps.size(); ++k)
        if (sends(tb.steps[k].type)) out.push_back(static_cast<int>(k));
      if (tb.send < 0) continue;
      const auto it = receiver_tb.find({tb.send, g.id, tb.chan});
      std::vector<int> in;
      const MscclThreadBlock* rtb = nullptr;
      if (it != receiver_tb.end()) {
        rtb = &p.gpus[static_cast<std::size_t>(tb.send)].tbs[static_cast<std::size_t>(it->second)];
        used_receivers.insert({tb.send, it->second});
        for (std::size_t k = 0; k < rtb->steps.size(); ++k)
          if (receives(rtb->steps[k].type)) in.push_back(static_cast<int>(k));
      }
      for (std::size_t n = 0; n < out.size(); ++n) {
        const MscclStep& st = tb.steps[static_cast<std::size_t>(out[n])];
        if (n >= in.size())
          throw ConfigError(fmt::format("{}{}: send to gpu {} on channel {} has no matching receive ({} receiving "
                                        "steps there for {} sends)",
                                        where(p, st.line), step_name(g, tb, st), tb.send, tb.chan, in.size(),
                                        out.size()));
        const MscclStep& rs = rtb->steps[static_cast<std::size_t>(in[n])];
        if (rs.cnt != st.cnt)
          throw ConfigError(fmt::format("{}{}: sends {} chunks but its receive, gpu {} tb {} step {} (line {}), "
                                        "takes {}",
                                        where(p, st.line), step_name(g, tb, st), st.cnt, tb.send, rtb->id, rs.s,
                                        rs.line, rs.cnt));
        match[static_cast<std::size_t>(g.id)][t][static_cast<std::size_t>(out[n])] = {tb.send, it->second, in[n]};
        matched_by[static_cast<std::size_t>(tb.send)][static_cast<std::size_t>(it->second)]
                  [static_cast<std::size_t>(in[n])] = {g.id, static_cast<int>(t), out[n]};
      }
      if (in.size() > out.size()) {
        const MscclStep& rs = rtb->steps[static_cast<std::size_t>(in[out.size()])];
        throw ConfigError(fmt::format("{}{}: receive from gpu {} on channel {} has no matching send",
                                      where(p, rs.line), step_name(p.gpus[static_cast<std::size_t>(tb.send)], *rtb, rs),
                                      g.id, tb.chan));
      }
    }
  for (const MscclGpu& g : p.gpus)
    for (std::size_t t = 0; t < g.tbs.size(); ++t)
      for (const MscclStep& st : g.tbs[t].steps)
        if (receives(st.type) && !used_receivers.count({g.id, static_cast<int>(t)}))
          throw ConfigError(fmt::format("{}{}: receive from gpu {} on channel {} has no matching send (no thread "
                                        "block of gpu {} sends to gpu {} on that channel)",
                                        where(p, st.line), step_name(g, g.tbs[t], st), g.tbs[t].recv, g.tbs[t].chan,
                                        g.tbs[t].recv, g.id));

  // Tags: one per message a rank receives (remote and local), from 1.
  std::vector<std::vector<std::vector<std::uint32_t>>> tag(G);
  for (std::size_t g = 0; g < G; ++g) {
    std::uint32_t next = 1;
    tag[g].resize(p.gpus[g].tbs.size());
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t)
      for (const MscclStep& st : p.gpus[g].tbs[t].steps) {
        tag[g][t].push_back(receives(st.type) || local(st.type) ? next++ : 0);
        if (next > descriptor_layout::tag.max())
          throw ConfigError(fmt::format("{}gpu {}: more than {} receives, beyond the descriptor's tag field",
                                        where(p, p.gpus[g].line), g, descriptor_layout::tag.max() - 1));
      }
  }
  const auto word_of = [&](int g, char buf, int off) -> std::uint32_t {
    const std::uint64_t w = static_cast<std::uint64_t>(base_of(lay[static_cast<std::size_t>(g)], buf) + off) * cw;
    if (w > descriptor_layout::dst_offset.max())
      throw ConfigError(fmt::format("key 'chunk_words': gpu {} needs word offset {}, beyond the descriptor's 20-bit "
                                    "offsets; use a smaller chunk_words",
                                    g, w));
    return static_cast<std::uint32_t>(w);
  };
  const auto length_of = [&](int cnt) {
    const std::uint64_t n = static_cast<std::uint64_t>(cnt) * cw;
    if (n > descriptor_layout::length.max())
      throw ConfigError(fmt::format("key 'chunk_words': a step of {} chunks is {} words, beyond the descriptor's "
                                    "length field; use a smaller chunk_words",
                                    cnt, n));
    return static_cast<std::uint32_t>(n);
  };
  const auto at = [](int i) { return static_cast<std::size_t>(i); };
  const auto send_of = [&](int g, int t, int k, char buf, int off) {
    const MscclThreadBlock& tb = p.gpus[at(g)].tbs[at(t)];
    const StepRef r = match[at(g)][at(t)][at(k)];
    const MscclStep& rs = p.gpus[at(r.g)].tbs[at(r.t)].steps[at(r.k)];
    Descriptor d = Descriptor::send(place[at(r.g)], word_of(g, buf, off), word_of(r.g, rs.dstbuf, rs.dstoff),
                                    length_of(tb.steps[at(k)].cnt), tag[at(r.g)][at(r.t)][at(r.k)]);
    d.op = reduces(rs.type) ? ReceiveOp::sum : ReceiveOp::copy;
    d.controller = static_cast<std::uint8_t>(tb.chan % controllers);
    return d;
  };

  // The symbolic execution in rounds.
  constexpr int kNever = -1;
  std::vector<std::vector<std::vector<int>>> round_done(G);  // round a step ran, kNever before
  std::vector<std::vector<std::size_t>> next(G);
  std::size_t total = 0, ran = 0;
  for (std::size_t g = 0; g < G; ++g) {
    next[g].assign(p.gpus[g].tbs.size(), 0);
    round_done[g].resize(p.gpus[g].tbs.size());
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t) {
      round_done[g][t].assign(p.gpus[g].tbs[t].steps.size(), kNever);
      total += p.gpus[g].tbs[t].steps.size();
    }
  }
  std::vector<Program> rank_programs(G);
  const auto tb_index = [&](std::size_t g, int id) {
    const auto& tbs = p.gpus[g].tbs;
    return static_cast<std::size_t>(std::find_if(tbs.begin(), tbs.end(), [&](const auto& x) { return x.id == id; }) -
                                    tbs.begin());
  };
  for (int round = 0; ran < total; ++round) {
    std::vector<std::pair<std::size_t, std::size_t>> runnable;  // (g, t)
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t) {
        const std::size_t k = next[g][t];
        const auto& steps = p.gpus[g].tbs[t].steps;
        if (k >= steps.size()) continue;
        const MscclStep& st = steps[k];
        if (st.depid >= 0) {
          const int r = round_done[g][tb_index(g, st.depid)][static_cast<std::size_t>(st.deps)];
          if (r == kNever || r >= round) continue;
        }
        if (receives(st.type)) {
          const StepRef s = matched_by[g][t][k];
          const int r = round_done[at(s.g)][at(s.t)][at(s.k)];
          if (r == kNever || r >= round) continue;
        }
        runnable.emplace_back(g, t);
      }
    if (runnable.empty()) {
      std::vector<std::string> stuck;
      for (std::size_t g = 0; g < G && stuck.size() < 4; ++g)
        for (std::size_t t = 0; t < p.gpus[g].tbs.size() && stuck.size() < 4; ++t) {
          const auto& tb = p.gpus[g].tbs[t];
          if (next[g][t] >= tb.steps.size()) continue;
          const MscclStep& st = tb.steps[next[g][t]];
          stuck.push_back(fmt::format("{} (line {}{})", step_name(p.gpus[g], tb, st), st.line,
                                      st.depid >= 0 ? fmt::format(", waits for tb {} step {}", st.depid, st.deps)
                                                    : receives(st.type) ? ", waits for its receive" : ""));
        }
      throw ConfigError(fmt::format("key 'schedule': {}: dependency cycle: no step can run; blocked: {}", p.file,
                                    join(stuck, "; ")));
    }
    // Plain sends first, so that a WAIT of one thread block holds no send of another.
    std::stable_partition(runnable.begin(), runnable.end(), [&](const auto& gt) {
      return p.gpus[gt.first].tbs[gt.second].steps[next[gt.first][gt.second]].type == "s";
    });
    for (const auto& [g, t] : runnable) {
      const std::size_t k = next[g][t];
      const MscclStep& st = p.gpus[g].tbs[t].steps[k];
      Program& prog = rank_programs[g];
      const int gi = static_cast<int>(g), ti = static_cast<int>(t), ki = static_cast<int>(k);
      if (st.type == "s") prog.push_back(send_of(gi, ti, ki, st.srcbuf, st.srcoff));
      if (receives(st.type)) prog.push_back(Descriptor::wait(tag[g][t][k], 1));
      if (sends(st.type) && st.type != "s") prog.push_back(send_of(gi, ti, ki, st.dstbuf, st.dstoff));
      if (local(st.type)) {
        Descriptor d = Descriptor::send(place[g], word_of(gi, st.srcbuf, st.srcoff), word_of(gi, st.dstbuf, st.dstoff),
                                        length_of(st.cnt), tag[g][t][k]);
        d.op = st.type == "re" ? ReceiveOp::sum : ReceiveOp::copy;
        d.controller = static_cast<std::uint8_t>(p.gpus[g].tbs[t].chan % controllers);
        prog.push_back(d);
        prog.push_back(Descriptor::wait(tag[g][t][k], 1));
      }
      round_done[g][t][k] = round;
      ++next[g][t];
      ++ran;
    }
  }

  // The thread blocks as concurrent threads of the NIC (the cycle model):
  // each thread block's steps in its own order. A dependency on a step waits
  // for what completes it: the message of a receiving or local step (its
  // tag), or for a step that sends, a marker (a zero-length SEND to the node
  // itself, on the thread block's controller after the step's SEND, so that
  // it is counted once that SEND has left), or for a nop what completes the
  // nop (its own dependency and its thread block's previous step).
  std::vector<std::uint32_t> next_tag(G, 1);
  for (std::size_t g = 0; g < G; ++g)
    for (const auto& tags : tag[g])
      for (const std::uint32_t x : tags) next_tag[g] = std::max(next_tag[g], x + 1);
  using StepKey = std::tuple<std::size_t, std::size_t, std::size_t>;  // gpu, tb index, step index
  // What completes each nop, as the steps other than nops it waits for,
  // computed in the order of the rounds (a step's dependency and its
  // thread block's previous step ran in earlier rounds), without recursion.
  std::map<StepKey, std::vector<StepKey>> nop_waits;
  {
    std::vector<std::tuple<int, std::size_t, std::size_t, std::size_t>> nops;
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t)
        for (std::size_t k = 0; k < p.gpus[g].tbs[t].steps.size(); ++k)
          if (p.gpus[g].tbs[t].steps[k].type == "nop") nops.emplace_back(round_done[g][t][k], g, t, k);
    std::sort(nops.begin(), nops.end());
    const auto waits_of = [&](std::size_t g, std::size_t t, std::size_t k) {
      if (p.gpus[g].tbs[t].steps[k].type != "nop") return std::vector<StepKey>{StepKey{g, t, k}};
      return nop_waits[StepKey{g, t, k}];
    };
    for (const auto& [round, g, t, k] : nops) {
      const MscclStep& st = p.gpus[g].tbs[t].steps[k];
      std::vector<StepKey> out;
      if (st.depid >= 0) out = waits_of(g, tb_index(g, st.depid), static_cast<std::size_t>(st.deps));
      if (k > 0)
        for (const StepKey& x : waits_of(g, t, k - 1))
          if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
      nop_waits[StepKey{g, t, k}] = std::move(out);
    }
  }
  std::map<StepKey, std::uint32_t> marker;
  const auto completion = [&](std::size_t g0, std::size_t t0, std::size_t k0) {
    std::vector<StepKey> steps{StepKey{g0, t0, k0}};
    if (p.gpus[g0].tbs[t0].steps[k0].type == "nop") steps = nop_waits.at(StepKey{g0, t0, k0});
    std::vector<std::uint32_t> out;
    for (const StepKey& key : steps) {
      const auto& [g, t, k] = key;
      if (!sends(p.gpus[g].tbs[t].steps[k].type)) {
        out.push_back(tag[g][t][k]);
        continue;
      }
      if (!marker.count(key)) {
        if (next_tag[g] > descriptor_layout::tag.max())
          throw ConfigError(fmt::format("{}gpu {}: more than {} receives and dependencies on sends, beyond the "
                                        "descriptor's tag field",
                                        where(p, p.gpus[g].line), g, descriptor_layout::tag.max() - 1));
        marker[key] = next_tag[g]++;
      }
      out.push_back(marker[key]);
    }
    return out;
  };
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t)
      for (const MscclStep& st : p.gpus[g].tbs[t].steps)
        if (st.depid >= 0) (void)completion(g, tb_index(g, st.depid), static_cast<std::size_t>(st.deps));
  // A receive whose step has a dependency must not take its data before the
  // dependency completed (MSCCL moves the data when the step runs; here it
  // lands on arrival): its thread clears the sender to send, with a
  // zero-length message that the sender's thread waits for before its SEND.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::uint32_t> clear_tag;  // by sending step
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t)
      for (std::size_t k = 0; k < p.gpus[g].tbs[t].steps.size(); ++k) {
        const MscclStep& st = p.gpus[g].tbs[t].steps[k];
        if (!receives(st.type) || st.depid < 0) continue;
        const StepRef from = matched_by[g][t][k];
        std::uint32_t& x = next_tag[at(from.g)];
        if (x > descriptor_layout::tag.max())
          throw ConfigError(fmt::format("{}gpu {}: more than {} receives and dependencies, beyond the descriptor's "
                                        "tag field",
                                        where(p, p.gpus[at(from.g)].line), from.g, descriptor_layout::tag.max() - 1));
        clear_tag[std::make_tuple(at(from.g), at(from.t), at(from.k))] = x++;
      }
  std::vector<std::vector<Thread>> rank_threads(G);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t t = 0; t < p.gpus[g].tbs.size(); ++t) {
      const MscclThreadBlock& tb = p.gpus[g].tbs[t];
      Thread th;
      const auto emit = [&](const Descriptor& d, std::uint32_t forwards = 0) {
        th.program.push_back(d);
        th.forwards.push_back(forwards);
      };
      const int gi = static_cast<int>(g), ti = static_cast<int>(t);
      for (std::size_t k = 0; k < tb.steps.size(); ++k) {
        const MscclStep& st = tb.steps[k];
        const int ki = static_cast<int>(k);
        if (st.depid >= 0)
          for (const std::uint32_t x : completion(g, tb_index(g, st.depid), static_cast<std::size_t>(st.deps)))
            emit(Descriptor::wait(x, 1));
        if (receives(st.type) && st.depid >= 0) {
          const StepRef from = matched_by[g][t][k];
          Descriptor d = Descriptor::send(place[at(from.g)], 0, 0, 0,
                                          clear_tag.at(std::make_tuple(at(from.g), at(from.t), at(from.k))));
          d.controller = static_cast<std::uint8_t>(tb.chan % controllers);
          emit(d);
        }
        if (const auto it = clear_tag.find(std::make_tuple(g, t, k)); it != clear_tag.end())
          emit(Descriptor::wait(it->second, 1));
        if (st.type == "s") emit(send_of(gi, ti, ki, st.srcbuf, st.srcoff));
        if (sends(st.type) && st.type != "s") {
          // Fused: each packet goes on as it arrives, then the step waits for the whole message.
          emit(send_of(gi, ti, ki, st.dstbuf, st.dstoff), tag[g][t][k]);
          emit(Descriptor::wait(tag[g][t][k], 1));
        } else if (receives(st.type)) {
          emit(Descriptor::wait(tag[g][t][k], 1));
        }
        if (local(st.type)) {
          Descriptor d = Descriptor::send(place[g], word_of(gi, st.srcbuf, st.srcoff),
                                          word_of(gi, st.dstbuf, st.dstoff), length_of(st.cnt), tag[g][t][k]);
          d.op = st.type == "re" ? ReceiveOp::sum : ReceiveOp::copy;
          d.controller = static_cast<std::uint8_t>(tb.chan % controllers);
          emit(d);
          emit(Descriptor::wait(tag[g][t][k], 1));
        }
        if (const auto it = marker.find(std::make_tuple(g, t, k)); it != marker.end()) {
          Descriptor d = Descriptor::send(place[g], 0, 0, 0, it->second);
          d.controller = static_cast<std::uint8_t>(tb.chan % controllers);
          emit(d);
        }
      }
      emit(Descriptor::end());
      rank_threads[g].push_back(std::move(th));
    }

  Schedule s;
  s.algorithm = "msccl";
  s.controllers = controllers;
  s.programs.assign(endpoints, Program{Descriptor::end()});
  s.threads.assign(endpoints, {});
  std::uint32_t mem = 1;
  for (std::size_t g = 0; g < G; ++g) {
    rank_programs[g].push_back(Descriptor::end());
    s.programs[place[g]] = std::move(rank_programs[g]);
    s.threads[place[g]] = std::move(rank_threads[g]);
    mem = std::max(mem, static_cast<std::uint32_t>(lay[g].total) * cw);
  }
  s.memory_words = mem;
  auto model = std::make_shared<DataModel>();
  model->coll = p.coll;
  model->ngpus = p.ngpus;
  model->nchunks = p.nchunksperloop;
  model->cw = cw;
  model->layouts = lay;
  model->rank_of.assign(endpoints, -1);
  for (std::size_t g = 0; g < G; ++g) model->rank_of[place[g]] = static_cast<int>(g);
  const bool inplace = p.inplace;
  s.initial = [model, inplace](EndpointId e, std::uint32_t address) -> Word {
    const int r = model->rank_of[static_cast<std::size_t>(e)];
    if (r < 0) return 0;
    const Layout& l = model->layouts[static_cast<std::size_t>(r)];
    const std::uint32_t base = model->input_base(r, inplace);
    const std::uint32_t n = static_cast<std::uint32_t>(model->coll == "custom" ? l.in : model->in_chunks()) * model->cw;
    if (address < base || address >= base + n) return 0;
    const std::uint32_t w = address - base;
    return model->input(r, static_cast<int>(w / model->cw), w % model->cw);
  };
  if (p.coll == "custom") {
    s.expected = [](EndpointId) { return std::vector<Region>{}; };
    const ExecResult golden = execute(s);
    model->custom = golden.memory;
    s.expected = [model](EndpointId e) {
      return std::vector<Region>{Region{0, model->custom[static_cast<std::size_t>(e)]}};
    };
  } else {
    s.expected = [model, inplace](EndpointId e) {
      const int r = model->rank_of[static_cast<std::size_t>(e)];
      if (r < 0) return std::vector<Region>{};
      const DataModel& m = *model;
      const Layout& l = m.layouts[static_cast<std::size_t>(r)];
      const std::uint32_t words = m.cw;
      const int per = m.nchunks / m.ngpus;
      Region out;
      out.offset = static_cast<std::uint32_t>(l.base_o) * words;
      const auto sum_over_ranks = [&](int chunk, std::uint32_t w) {
        Word x = 0;
        for (int q = 0; q < m.ngpus; ++q) x += m.input(q, chunk, w);
        return x;
      };
      if (m.coll == "allreduce") {
        for (int c = 0; c < m.nchunks; ++c)
          for (std::uint32_t w = 0; w < words; ++w) out.words.push_back(sum_over_ranks(c, w));
      } else if (m.coll == "allgather") {
        for (int q = 0; q < m.ngpus; ++q)
          for (int c = 0; c < per; ++c)
            for (std::uint32_t w = 0; w < words; ++w) out.words.push_back(m.input(q, c, w));
      } else if (m.coll == "alltoall") {
        for (int q = 0; q < m.ngpus; ++q)
          for (int c = 0; c < per; ++c)
            for (std::uint32_t w = 0; w < words; ++w) out.words.push_back(m.input(q, r * per + c, w));
      } else {  // reduce_scatter
        if (inplace) out.offset += static_cast<std::uint32_t>(r * per) * words;
        for (int c = 0; c < per; ++c)
          for (std::uint32_t w = 0; w < words; ++w) out.words.push_back(sum_over_ranks(r * per + c, w));
      }
      return std::vector<Region>{out};
    };
  }
  return s;
}

Algorithm make_msccl() {
  Algorithm a;
  a.name = "msccl";
  a.document = "-";
  a.description = "runs an MSCCL-IR program (MSCCLang's XML: ranks, thread blocks, steps) on any topology: each "
                  "thread block runs concurrently on its rank's NIC, each channel a NIC controller";
  a.topologies = "any (ranks placed on endpoints by key placement)";
  const Keys& k = msccl_keys();
  a.keys = k.list();
  a.nic.controllers = "the file's nchannels (at most 8)";
  a.build = [](const topology::Topology& topo, const Params& params) {
    const Keys& keys = msccl_keys();
    const MscclProgram prog = parse_msccl(keys.schedule.text(params));
    MscclOptions o;
    o.chunk_words = read_chunk_words(prog, params);
    o.placement = read_placement(params, prog.ngpus, static_cast<std::size_t>(topo.endpoint_count()));
    if (params.has("controllers")) o.controllers = static_cast<int>(controllers_key().integer(params));
    return build_msccl(prog, static_cast<std::size_t>(topo.endpoint_count()), o);
  };
  a.footprint = [](const topology::Topology& topo, const Params& params) {
    const Keys& keys = msccl_keys();
    const MscclProgram prog = parse_msccl(keys.schedule.text(params));
    const auto cw = static_cast<std::uint64_t>(read_chunk_words(prog, params));
    std::uint64_t words = 0, sends_per_rank = 0;
    for (const MscclGpu& g : prog.gpus) {
      words = std::max(words, static_cast<std::uint64_t>(layout_of(prog, g).total) * cw);
      std::uint64_t n = 0;
      for (const auto& tb : g.tbs)
        for (const auto& st : tb.steps) n += (sends(st.type) || local(st.type)) ? 1 : 0;
      sends_per_rank = std::max(sends_per_rank, n);
    }
    (void)topo;
    return Footprint{words, sends_per_rank, "schedule, chunk_words"};
  };
  // Words a rank: the collective's nchunksperloop chunks (allreduce: the
  // vector; allgather: the output; reduce_scatter: the input; alltoall: a
  // block for every rank); a custom program has none.
  a.size.words = [](const topology::Topology&, const Params& params) -> std::int64_t {
    const MscclProgram prog = parse_msccl(msccl_keys().schedule.text(params));
    const std::uint32_t cw = read_chunk_words(prog, params);
    return prog.coll == "custom" ? -1 : static_cast<std::int64_t>(prog.nchunksperloop) * cw;
  };
  a.collective = [](const topology::Topology&, const Params& params) {
    const MscclProgram prog = parse_msccl(msccl_keys().schedule.text(params));
    return CollectiveKind{prog.coll == "custom"           ? ""
                          : prog.coll == "reduce_scatter" ? "reduce-scatter"
                                                          : prog.coll,
                          prog.ngpus};
  };
  a.size.text = [](const topology::Topology&, const Params& params) {
    const MscclProgram prog = parse_msccl(msccl_keys().schedule.text(params));
    const std::uint32_t cw = read_chunk_words(prog, params);
    return prog.coll == "custom" ? fmt::format("coll custom, chunk_words={}", cw)
                                 : fmt::format("{} chunks of chunk_words={}", prog.nchunksperloop, cw);
  };
  return a;
}

}  // namespace collnet::collectives
