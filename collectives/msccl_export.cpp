// MSCCL-IR export (see msccl_export.hpp, docs/guide/msccl.md "Export").
//
// Mapping. Endpoint e is gpu e. Its whole memory is the input buffer 'i'
// (chunk = the greatest common divisor of every SEND's offsets and length,
// so that word addresses are kept: word w is chunk w / chunk), coll is
// "custom". Thread blocks of gpu e: one per peer it sends to (send=peer),
// one per peer it receives from (recv=peer), one for its local copies.
//   SEND to q      's' in e's tb for q; the receiving step 'r' (copy) or
//                  'rrc' (sum) in q's tb for e, in the order of e's sends
//   SEND to self   'cpy' (copy) or 're' (sum) in the local tb
//   WAIT tag n     the receiving steps of the first n messages tagged
//                  `tag` (per sender, in order); every later SEND or local
//                  copy of e depends on them: the last new dependency on
//                  the step itself, the others as 'nop' steps before it
//   BARRIER        refused (no MSCCL form)
// Pacing gaps, slack, route hints and controllers have no MSCCL form: they
// are dropped with a warning.
#include "collectives/msccl_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

namespace collnet::collectives {

namespace {

struct Step {
  std::string type;
  std::uint32_t srcoff = 0, dstoff = 0, cnt = 0;
  int depid = -1, deps = -1;
  bool hasdep = false;
};

struct Tb {
  int send = -1, recv = -1;
  std::vector<Step> steps;
};

// A thread block of a gpu, by role: kind 0 send to peer, 1 receive from peer, 2 local.
using TbKey = std::pair<int, long>;  // (kind, peer)

struct Gpu {
  std::vector<Tb> tbs;
  std::map<TbKey, int> index;
  int tb(int kind, long peer) {
    const auto [it, fresh] = index.emplace(TbKey{kind, peer}, static_cast<int>(tbs.size()));
    if (fresh) {
      Tb t;
      if (kind == 0) t.send = static_cast<int>(peer);
      if (kind == 1) t.recv = static_cast<int>(peer);
      tbs.push_back(t);
    }
    return it->second;
  }
};

struct Arrival {
  int tb = -1;    // receiving thread block at the receiver
  int step = -1;  // its step index
  long sender = -1;
};

std::string op_name(ReceiveOp op) {
  switch (op) {
    case ReceiveOp::copy: return "copy";
    case ReceiveOp::sum: return "sum";
    case ReceiveOp::product: return "product";
    case ReceiveOp::max: return "max";
    case ReceiveOp::min: return "min";
    case ReceiveOp::divide: return "divide";
  }
  return "?";
}

}  // namespace

MscclExport export_msccl(const Schedule& s, const std::string& algorithm, const std::vector<std::string>& key_names) {
  const std::size_t E = s.endpoints();
  const std::string who = "algorithm '" + algorithm + "'";
  MscclExport out;

  // Refusals and what is dropped.
  bool gaps = false, hints = false, controllers = false;
  for (std::size_t e = 0; e < E; ++e)
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode == Opcode::barrier) {
        std::vector<std::string> off;
        for (const auto& k : key_names)
          if (k.find("barrier") != std::string::npos) off.push_back(k + "=false");
        throw ConfigError(fmt::format(
            "{} cannot be exported: its programs use BARRIER descriptors, which MSCCL-IR has no form for; {}", who,
            off.empty() ? std::string("the algorithm has no key that turns them off")
                        : "build it without barriers (--set " + join(off, " --set ") + ")"));
      }
      if (d.opcode != Opcode::send) continue;
      if (d.op != ReceiveOp::copy && d.op != ReceiveOp::sum)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} sends with receive operation '{}'; MSCCL-IR "
                                      "receives copy (r) or sum (rrc, re) only (use op=sum)",
                                      who, e, op_name(d.op)));
      if (d.dtype == DataType::float64 && d.op != ReceiveOp::copy)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} reduces float64 elements; MSCCL-IR steps "
                                      "carry no element type and the import sums int64 (use dtype=int64)",
                                      who, e));
      gaps = gaps || d.gap != 0 || d.slack != 0;
      hints = hints || d.route_hint != 0;
      controllers = controllers || d.controller != 0;
    }
  if (gaps) out.warnings.push_back("pacing gaps and slack dropped (MSCCL-IR has no pacing)");
  if (hints) out.warnings.push_back("route hints dropped (the importer's network routes every message)");
  if (controllers)
    out.warnings.push_back(fmt::format("the programs use {} NIC controllers; MSCCL-IR gets one channel (chan 0)",
                                       s.controllers));

  // Chunk: gcd of every offset and length.
  std::uint32_t chunk = 0;
  for (std::size_t e = 0; e < E; ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send) chunk = std::gcd(chunk, std::gcd(d.length, std::gcd(d.src_offset, d.dst_offset)));
  if (chunk == 0) chunk = 1;
  out.chunk_words = chunk;

  std::vector<Gpu> gpus(E);
  // Pass 1: every remote message gets its receiving step, in the sender's order.
  // arrivals[q][tag] = the messages tagged `tag` that reach q (remote first).
  std::vector<std::map<std::uint32_t, std::vector<Arrival>>> arrivals(E);
  std::vector<std::map<std::uint32_t, std::size_t>> locals_of(E);  // local messages per tag
  for (std::size_t e = 0; e < E; ++e)
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode != Opcode::send) continue;
      if (d.dest >= E)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} sends to {}, beyond the {} endpoints", who, e,
                                      d.dest, E));
      if (d.dest == e) {
        ++locals_of[e][d.tag];
        continue;
      }
      Gpu& q = gpus[d.dest];
      const int t = q.tb(1, static_cast<long>(e));
      Step st;
      st.type = d.op == ReceiveOp::sum ? "rrc" : "r";
      st.srcoff = d.src_offset / chunk;
      st.dstoff = d.dst_offset / chunk;
      st.cnt = d.length / chunk;
      q.tbs[static_cast<std::size_t>(t)].steps.push_back(st);
      arrivals[d.dest][d.tag].push_back(
          {t, static_cast<int>(q.tbs[static_cast<std::size_t>(t)].steps.size()) - 1, static_cast<long>(e)});
    }

  // Pass 2: sends, local copies and their dependencies, per endpoint in program order.
  for (std::size_t e = 0; e < E; ++e) {
    Gpu& g = gpus[e];
    std::map<int, int> covered;                    // receiving tb -> last step a WAIT so far covers
    std::map<int, std::map<int, int>> synced;      // issuing tb -> receiving tb -> step it depends on already
    std::map<std::uint32_t, std::size_t> consumed;  // tag -> messages the WAITs so far cover
    std::map<std::uint32_t, std::size_t> local_seen;
    const auto add_with_deps = [&](int t, Step st) {
      std::vector<std::pair<int, int>> need;
      for (const auto& [rt, k] : covered) {
        if (rt == t) continue;  // same thread block: its step order suffices
        const auto& mine = synced[t];
        const auto have = mine.find(rt);
        if (have == mine.end() || have->second < k) need.emplace_back(rt, k);
      }
      Tb& tb = g.tbs[static_cast<std::size_t>(t)];
      for (std::size_t i = 0; i < need.size(); ++i) {
        const auto [rt, k] = need[i];
        synced[t][rt] = k;
        g.tbs[static_cast<std::size_t>(rt)].steps[static_cast<std::size_t>(k)].hasdep = true;
        if (i + 1 < need.size()) {
          Step nop;
          nop.type = "nop";
          nop.depid = rt;
          nop.deps = k;
          tb.steps.push_back(nop);
        } else {
          st.depid = rt;
          st.deps = k;
        }
      }
      tb.steps.push_back(st);
      return static_cast<int>(tb.steps.size()) - 1;
    };
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode == Opcode::send) {
        Step st;
        st.srcoff = d.src_offset / chunk;
        st.dstoff = d.dst_offset / chunk;
        st.cnt = d.length / chunk;
        if (d.dest == e) {
          st.type = d.op == ReceiveOp::sum ? "re" : "cpy";
          const int t = g.tb(2, -1);
          const int k = add_with_deps(t, st);
          auto& list = arrivals[e][d.tag];
          // Local copies of a tag follow its remote messages in the list, in program order.
          list.push_back({t, k, static_cast<long>(e)});
          ++local_seen[d.tag];
        } else {
          st.type = "s";
          add_with_deps(g.tb(0, static_cast<long>(d.dest)), st);
        }
      } else if (d.opcode == Opcode::wait) {
        auto& list = arrivals[e][d.tag];
        std::size_t& used = consumed[d.tag];
        const std::size_t total = list.size() - local_seen[d.tag] + locals_of[e][d.tag];
        if (d.length <= used) continue;
        if (d.length > total)
          throw ConfigError(fmt::format("{} cannot be exported: endpoint {} waits for {} messages tagged {}, only {} "
                                        "are sent to it",
                                        who, e, d.length, d.tag, total));
        std::set<long> senders;
        for (std::size_t i = used; i < list.size(); ++i) senders.insert(list[i].sender);
        const bool all = d.length == total && list.size() == total;
        if (!all && senders.size() > 1)
          throw ConfigError(fmt::format("{} cannot be exported: endpoint {} waits for {} of the {} messages tagged {} "
                                        "from {} senders; MSCCL-IR matches receives per sender, so which ones is "
                                        "not expressible",
                                        who, e, d.length, total, d.tag, senders.size()));
        if (d.length > list.size())
          throw ConfigError(fmt::format("{} cannot be exported: endpoint {} waits for a local copy tagged {} that it "
                                        "issues later",
                                        who, e, d.tag));
        for (std::size_t i = used; i < d.length; ++i) {
          int& c = covered.try_emplace(list[i].tb, -1).first->second;
          c = std::max(c, list[i].step);
        }
        used = d.length;
      }
    }
  }

  // The document.
  std::ostringstream x;
  std::size_t max_chunks = 1;
  for (std::size_t e = 0; e < E; ++e)
    max_chunks = std::max<std::size_t>(max_chunks, (s.memory_of(static_cast<EndpointId>(e)) + chunk - 1) / chunk);
  x << "<!-- collnet export of " << algorithm << ": chunk = " << chunk
    << " words; import with algorithm=msccl chunk_words=" << chunk << " -->\n";
  x << fmt::format(
      "<algo name=\"collnet-{}\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"{}\" ngpus=\"{}\" coll=\"custom\" "
      "inplace=\"0\">\n",
      algorithm, max_chunks, E);
  for (std::size_t e = 0; e < E; ++e) {
    const std::size_t chunks = (s.memory_of(static_cast<EndpointId>(e)) + chunk - 1) / chunk;
    x << fmt::format("  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"0\" s_chunks=\"0\">\n", e, chunks);
    for (std::size_t t = 0; t < gpus[e].tbs.size(); ++t) {
      const Tb& tb = gpus[e].tbs[t];
      x << fmt::format("    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"0\">\n", t, tb.send, tb.recv);
      for (std::size_t k = 0; k < tb.steps.size(); ++k) {
        const Step& st = tb.steps[k];
        if (st.type == "nop")
          x << fmt::format("      <step s=\"{}\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"i\" dstoff=\"-1\" "
                           "cnt=\"0\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"/>\n",
                           k, st.depid, st.deps, st.hasdep ? 1 : 0);
        else
          x << fmt::format("      <step s=\"{}\" type=\"{}\" srcbuf=\"i\" srcoff=\"{}\" dstbuf=\"i\" dstoff=\"{}\" "
                           "cnt=\"{}\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"/>\n",
                           k, st.type, st.srcoff, st.dstoff, st.cnt, st.depid, st.deps, st.hasdep ? 1 : 0);
        ++out.steps;
      }
      x << "    </tb>\n";
      ++out.thread_blocks;
    }
    x << "  </gpu>\n";
  }
  x << "</algo>\n";
  out.xml = x.str();
  return out;
}

}  // namespace collnet::collectives
