// MSCCL-IR export (see msccl_export.hpp, docs/guide/msccl.md "Export").
//
// Mapping. Endpoint e is gpu e, all gpus take part (MSCCL-IR has no idle
// rank). Chunk = the greatest common divisor of every SEND's offsets and
// length (and of the buffer bounds below), so that word addresses are kept.
// Buffers, by what the schedule's definition (its initial memory and
// `expected`) says the collective is; coll names it:
//   allreduce       every gpu ends with the sum over all gpus of its words
//                   [0, L): in place, [0, L) is buffer i, the rest scratch s
//   reduce_scatter  gpu e ends with words [e L/n, (e+1) L/n) of that sum at
//                   their place: in place, as allreduce
//   allgather       gpu e starts with its own slot of [0, L) (0 elsewhere)
//                   and ends with every gpu's slot: in place, [0, L) is
//                   buffer o (the input is the gpu's slot of it)
//   alltoall        gpu e ends with block e of every gpu's [0, S) at S + q S/n:
//                   [0, S) is buffer i, [S, 2S) buffer o, the rest scratch
//   custom          anything else (broadcast and reduce too: MSCCL-IR has no
//                   root attribute): the whole memory is buffer i
// Thread blocks of gpu e: one per peer it sends to (send=peer), one per peer
// it receives from (recv=peer), one for its local copies.
//   SEND to q      's' in e's tb for q; the receiving step 'r' (copy) or
//                  'rrc' (sum) in q's tb for e, in the order of e's sends
//   SEND to self   'cpy' (copy) or 're' (sum) in the local tb
//   WAIT tag n     the receiving steps of the first n messages tagged
//                  `tag` (per sender, in order); every later SEND or local
//                  copy of e depends on them: the last new dependency on
//                  the step itself, the others as 'nop' steps before it
//   BARRIER        a dissemination barrier of 1-chunk tokens in one scratch
//                  chunk per gpu: in round j = 0 .. ceil(log2 n)-1 gpu e
//                  sends a token to e + 2^j and receives one from e - 2^j
//                  (mod n); round 0's send depends on every earlier step of e
//                  and on the receipt of every message sent to e before its
//                  sender's barrier (a collnet barrier lets a node in once its
//                  messages are delivered), round j's on round j-1's token,
//                  and every later step of e on the last token
// Pacing gaps, slack, route hints and controllers have no MSCCL form: they
// are dropped with a warning. The chunk is the <algo> attribute chunk_words,
// which the import takes as its chunk_words.
#include "collectives/msccl_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

namespace collnet::collectives {

namespace {

struct Step {
  std::string type;
  char srcbuf = 'i', dstbuf = 'i';
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
  int epoch = 0;  // barriers the sender passed before it sent
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

/// What the schedule's definition says the collective is (file comment):
/// coll and the word bound of its buffers (L, or S for alltoall).
struct Collective {
  std::string coll = "custom";
  std::uint32_t words = 0;
};

bool zero_from(const Schedule& s, std::size_t e, std::uint32_t from) {
  for (std::uint32_t a = from; a < s.memory_of(static_cast<EndpointId>(e)); ++a)
    if (s.initial(static_cast<EndpointId>(e), a) != 0) return false;
  return true;
}

Collective classify(const Schedule& s, bool reduces, bool float_data) {
  const std::size_t n = s.endpoints();
  if (n == 0 || !s.initial || !s.expected) return {};
  std::vector<Region> ex(n);
  for (std::size_t e = 0; e < n; ++e) {
    std::vector<Region> r = s.expected(static_cast<EndpointId>(e));
    if (r.size() != 1 || r.front().words.empty()) return {};
    ex[e] = std::move(r.front());
  }
  const auto words = static_cast<std::uint32_t>(ex.front().words.size());
  const auto init = [&](std::size_t e, std::uint32_t a) -> Word {
    return a < s.memory_of(static_cast<EndpointId>(e)) ? s.initial(static_cast<EndpointId>(e), a) : 0;
  };
  const auto sum_at = [&](std::uint32_t a) {
    Word x = 0;
    for (std::size_t q = 0; q < n; ++q) x += init(q, a);
    return x;
  };
  bool same = true;
  for (std::size_t e = 0; e < n && same; ++e)
    same = ex[e].offset == 0 && ex[e].words == ex.front().words && s.memory_of(static_cast<EndpointId>(e)) >= words;
  // allreduce: every gpu, the sum of [0, L), by reducing sends (int64 sums
  // only: the import's check adds int64). An allgather or broadcast of
  // zero-padded inputs ends with that sum too, but copies: it is no
  // allreduce of inputs that are all nonzero.
  if (same && reduces && !float_data) {
    bool ok = true;
    for (std::uint32_t a = 0; a < words && ok; ++a) ok = ex.front().words[a] == sum_at(a);
    for (std::size_t e = 0; e < n && ok; ++e) ok = zero_from(s, e, words);
    if (ok) return {"allreduce", words};
  }
  // allgather: gpu e starts with its slot of L/n words (0 elsewhere), all end with every slot.
  if (same && !reduces && words % n == 0) {
    const auto per = static_cast<std::uint32_t>(words / n);
    bool ok = true;
    for (std::size_t e = 0; e < n && ok; ++e)
      for (std::uint32_t a = 0; a < words && ok; ++a) {
        const bool own = a / per == e;
        ok = init(e, a) == (own ? ex.front().words[a] : 0);
      }
    for (std::size_t e = 0; e < n && ok; ++e) ok = zero_from(s, e, words);
    if (ok) return {"allgather", words};
  }
  // reduce_scatter: gpu e ends with slot e of the sum over all gpus of [0, n*per).
  {
    const auto per = words;
    bool ok = reduces && !float_data && static_cast<std::uint64_t>(per) * n <= (std::uint64_t{1} << 31);
    for (std::size_t e = 0; e < n && ok; ++e)
      ok = ex[e].offset == e * per && ex[e].words.size() == per &&
           s.memory_of(static_cast<EndpointId>(e)) >= n * per;
    for (std::size_t e = 0; e < n && ok; ++e)
      for (std::uint32_t j = 0; j < per && ok; ++j)
        ok = ex[e].words[j] == sum_at(static_cast<std::uint32_t>(e * per + j));
    for (std::size_t e = 0; e < n && ok; ++e) ok = zero_from(s, e, static_cast<std::uint32_t>(n * per));
    if (ok && n > 1) return {"reduce_scatter", static_cast<std::uint32_t>(n * per)};
  }
  // alltoall: gpu e ends with block e of every gpu's [0, S) at S + q S/n.
  if (!reduces && words % n == 0) {
    const std::uint32_t S = words;
    const auto M = static_cast<std::uint32_t>(S / n);
    bool ok = true;
    for (std::size_t e = 0; e < n && ok; ++e)
      ok = ex[e].offset == S && ex[e].words.size() == S && s.memory_of(static_cast<EndpointId>(e)) >= 2 * S;
    for (std::size_t e = 0; e < n && ok; ++e)
      for (std::size_t q = 0; q < n && ok; ++q)
        for (std::uint32_t j = 0; j < M && ok; ++j)
          ok = ex[e].words[q * M + j] == init(q, static_cast<std::uint32_t>(e * M + j));
    for (std::size_t e = 0; e < n && ok; ++e) ok = zero_from(s, e, S);
    if (ok) return {"alltoall", S};
  }
  return {};
}

}  // namespace

MscclExport export_msccl(const Schedule& s, const std::string& algorithm, const std::vector<std::string>& key_names) {
  (void)key_names;
  const std::size_t E = s.endpoints();
  const std::string who = "algorithm '" + algorithm + "'";
  MscclExport out;

  // Refusals and what is dropped.
  if (s.innet)
    throw ConfigError(fmt::format("{} cannot be exported: it reduces in the switches (SENDs to the aggregation trees); "
                                  "MSCCL-IR steps move data between GPUs only and have no form for a switch that "
                                  "combines or multicasts (NVLS/SHARP collectives are not part of MSCCL-IR)",
                                  who));
  bool gaps = false, hints = false, controllers = false, reduces = false, float_data = false;
  std::vector<std::size_t> barriers(E, 0);
  for (std::size_t e = 0; e < E; ++e)
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode == Opcode::barrier) ++barriers[e];
      if (d.opcode != Opcode::send) continue;
      if (d.op != ReceiveOp::copy && d.op != ReceiveOp::sum)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} sends with receive operation '{}'; MSCCL-IR "
                                      "receives copy (r) or sum (rrc, re) only (use op=sum)",
                                      who, e, op_name(d.op)));
      if (d.dtype == DataType::float64 && d.op != ReceiveOp::copy)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} reduces float64 elements; MSCCL-IR steps "
                                      "carry no element type and the import sums int64 (use dtype=int64)",
                                      who, e));
      if (d.dest >= E)
        throw ConfigError(fmt::format("{} cannot be exported: endpoint {} sends to {}, beyond the {} endpoints", who, e,
                                      d.dest, E));
      reduces = reduces || d.op == ReceiveOp::sum;
      float_data = float_data || d.dtype == DataType::float64;
      gaps = gaps || d.gap != 0 || d.slack != 0;
      hints = hints || d.route_hint != 0;
      controllers = controllers || d.controller != 0;
    }
  for (std::size_t e = 1; e < E; ++e)
    if (barriers[e] != barriers[0])
      throw ConfigError(fmt::format("{} cannot be exported: endpoint 0 joins {} barriers, endpoint {} joins {}; a "
                                    "barrier needs every endpoint",
                                    who, barriers[0], e, barriers[e]));
  const std::size_t nbarriers = E == 0 ? 0 : barriers[0];
  if (gaps) out.warnings.push_back("pacing gaps and slack dropped (MSCCL-IR has no pacing)");
  if (hints) out.warnings.push_back("route hints dropped (the importer's network routes every message)");
  if (controllers)
    out.warnings.push_back(fmt::format("the programs use {} NIC controllers; MSCCL-IR gets one channel (chan 0)",
                                       s.controllers));
  const int rounds = E <= 1 ? 0 : std::bit_width(E - 1);  // ceil(log2 E)
  if (nbarriers > 0)
    out.warnings.push_back(fmt::format("{} barriers become dissemination barriers of 1-chunk tokens ({} rounds each)",
                                       nbarriers, rounds));

  const Collective coll = classify(s, reduces, float_data);
  out.coll = coll.coll;
  const bool custom = coll.coll == "custom";
  const std::uint32_t bound = coll.coll == "alltoall" ? 2 * coll.words : coll.words;  // scratch from here

  // Chunk: gcd of every offset and length, and of the buffer bounds.
  std::uint32_t chunk = 0;
  for (std::size_t e = 0; e < E; ++e)
    for (const Descriptor& d : s.programs[e])
      if (d.opcode == Opcode::send) chunk = std::gcd(chunk, std::gcd(d.length, std::gcd(d.src_offset, d.dst_offset)));
  if (!custom) {
    chunk = std::gcd(chunk, coll.words);
    if (coll.coll != "allreduce") chunk = std::gcd(chunk, coll.words / static_cast<std::uint32_t>(E));
  }
  if (chunk == 0) chunk = 1;
  out.chunk_words = chunk;

  // Buffers of each gpu, in chunks: the data buffers, then scratch (data
  // beyond the buffers, then the barrier token).
  const auto chunks_of = [&](std::uint64_t words) { return static_cast<std::uint32_t>((words + chunk - 1) / chunk); };
  std::vector<std::uint32_t> scratch_data(E, 0);
  for (std::size_t e = 0; e < E; ++e) {
    const std::uint32_t mem = s.memory_of(static_cast<EndpointId>(e));
    scratch_data[e] = custom ? 0 : (mem > bound ? chunks_of(mem - bound) : 0);
  }
  const auto token_slot = [&](std::size_t e) { return scratch_data[e]; };
  // A barrier token from e's scratch slot to q's (type "s" at e, "r" at q).
  const auto token_step = [&](const char* type, std::size_t e, std::size_t q) {
    Step st;
    st.type = type;
    st.srcbuf = st.dstbuf = 's';
    st.srcoff = token_slot(e);
    st.dstoff = token_slot(q);
    st.cnt = 1;
    return st;
  };
  const auto locate = [&](std::size_t e, std::uint32_t word) -> std::pair<char, std::uint32_t> {
    if (custom) return {'i', word / chunk};
    if (word < coll.words) return {coll.coll == "allgather" ? 'o' : 'i', word / chunk};
    if (coll.coll == "alltoall" && word < 2 * coll.words) return {'o', (word - coll.words) / chunk};
    (void)e;
    return {'s', (word - bound) / chunk};
  };

  std::vector<Gpu> gpus(E);
  // Pass 1: every remote message and barrier token gets its receiving step,
  // in the sender's order. arrivals[q][tag] = the messages tagged `tag` that
  // reach q (remote first); tokens[q][b * rounds + j] = the receipt at q of
  // round j of barrier b.
  std::vector<std::map<std::uint32_t, std::vector<Arrival>>> arrivals(E);
  std::vector<std::map<std::uint32_t, std::size_t>> locals_of(E);  // local messages per tag
  std::vector<std::vector<std::pair<int, int>>> tokens(E, std::vector<std::pair<int, int>>(nbarriers * rounds));
  const auto token_index = [rounds](int epoch, int j) {
    return static_cast<std::size_t>(epoch) * static_cast<std::size_t>(rounds) + static_cast<std::size_t>(j);
  };
  for (std::size_t e = 0; e < E; ++e) {
    int epoch = 0;
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode == Opcode::barrier) {
        for (int j = 0; j < rounds; ++j) {
          const std::size_t q = (e + (std::size_t{1} << j)) % E;
          Gpu& g = gpus[q];
          const int t = g.tb(1, static_cast<long>(e));
          const Step st = token_step("r", e, q);
          g.tbs[static_cast<std::size_t>(t)].steps.push_back(st);
          tokens[q][token_index(epoch, j)] = {t, static_cast<int>(g.tbs[static_cast<std::size_t>(t)].steps.size()) - 1};
        }
        ++epoch;
        continue;
      }
      if (d.opcode != Opcode::send) continue;
      if (d.dest == e) {
        ++locals_of[e][d.tag];
        continue;
      }
      Gpu& q = gpus[d.dest];
      const int t = q.tb(1, static_cast<long>(e));
      Step st;
      st.type = d.op == ReceiveOp::sum ? "rrc" : "r";
      std::tie(st.srcbuf, st.srcoff) = locate(e, d.src_offset);
      std::tie(st.dstbuf, st.dstoff) = locate(d.dest, d.dst_offset);
      st.cnt = d.length / chunk;
      q.tbs[static_cast<std::size_t>(t)].steps.push_back(st);
      arrivals[d.dest][d.tag].push_back(
          {t, static_cast<int>(q.tbs[static_cast<std::size_t>(t)].steps.size()) - 1, static_cast<long>(e), epoch});
    }
  }

  // Pass 2: sends, local copies, barrier tokens and their dependencies, per
  // endpoint in program order.
  for (std::size_t e = 0; e < E; ++e) {
    Gpu& g = gpus[e];
    std::map<int, int> covered;                    // tb -> last step every later step depends on
    std::map<int, std::map<int, int>> synced;      // issuing tb -> tb -> step it depends on already
    std::map<std::uint32_t, std::size_t> consumed;  // tag -> messages the WAITs so far cover
    std::map<std::uint32_t, std::size_t> local_seen;
    const auto cover = [&](int t, int k) {
      int& c = covered.try_emplace(t, -1).first->second;
      c = std::max(c, k);
    };
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
    int epoch = 0;
    for (const Descriptor& d : s.programs[e]) {
      if (d.opcode == Opcode::barrier) {
        // Entry (round 0's token): every message sent to e before its
        // sender's barrier `epoch` has been received, e's local copies are
        // done, and so is everything e's WAITs covered. A receipt implies
        // its send, so e's own sends need no dependency here: their
        // receivers' round-0 tokens carry them.
        for (const auto& [tag, list] : arrivals[e])
          for (const Arrival& a : list)
            if (a.sender != static_cast<long>(e) && a.epoch <= epoch) cover(a.tb, a.step);
        if (const auto local = g.index.find(TbKey{2, -1}); local != g.index.end())
          if (const auto& steps = g.tbs[static_cast<std::size_t>(local->second)].steps; !steps.empty())
            cover(local->second, static_cast<int>(steps.size()) - 1);
        // Round j's token depends on round j-1's token in and out, so the
        // last ones carry the whole barrier: every later step of e depends on
        // those two alone.
        for (int j = 0; j < rounds; ++j) {
          const std::size_t q = (e + (std::size_t{1} << j)) % E;
          const Step st = token_step("s", e, q);
          const int t = g.tb(0, static_cast<long>(q));
          const int k = add_with_deps(t, st);
          const auto [rt, rk] = tokens[e][token_index(epoch, j)];
          covered.clear();
          cover(t, k);
          cover(rt, rk);
        }
        ++epoch;
        continue;
      }
      if (d.opcode == Opcode::send) {
        Step st;
        std::tie(st.srcbuf, st.srcoff) = locate(e, d.src_offset);
        std::tie(st.dstbuf, st.dstoff) = locate(d.dest, d.dst_offset);
        st.cnt = d.length / chunk;
        if (d.dest == e) {
          st.type = d.op == ReceiveOp::sum ? "re" : "cpy";
          const int t = g.tb(2, -1);
          const int k = add_with_deps(t, st);
          auto& list = arrivals[e][d.tag];
          // Local copies of a tag follow its remote messages in the list, in program order.
          list.push_back({t, k, static_cast<long>(e), epoch});
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
        for (std::size_t i = used; i < d.length; ++i) cover(list[i].tb, list[i].step);
        used = d.length;
      }
    }
  }

  // The document.
  std::ostringstream x;
  std::vector<std::uint32_t> in(E), outc(E), scratch(E);
  std::size_t max_chunks = 1;
  for (std::size_t e = 0; e < E; ++e) {
    const std::uint32_t mem = s.memory_of(static_cast<EndpointId>(e));
    const std::uint32_t token = nbarriers > 0 && rounds > 0 ? 1 : 0;
    if (custom) {
      in[e] = chunks_of(mem);
      max_chunks = std::max<std::size_t>(max_chunks, in[e]);
    } else if (coll.coll == "allgather") {
      in[e] = coll.words / static_cast<std::uint32_t>(E) / chunk;
      outc[e] = coll.words / chunk;
    } else if (coll.coll == "alltoall") {
      in[e] = outc[e] = coll.words / chunk;
    } else {
      in[e] = coll.words / chunk;
    }
    scratch[e] = scratch_data[e] + token;
  }
  if (!custom) max_chunks = coll.words / chunk;
  const bool inplace = !custom && coll.coll != "alltoall";
  // The chunk travels as an attribute of <algo>, which the import reads as
  // its chunk_words; MSCCL's parsers look attributes up by name and ignore
  // the others.
  x << "<!-- collnet export of " << algorithm << ": chunk = " << chunk << " words (attribute chunk_words) -->\n";
  x << fmt::format(
      "<algo name=\"collnet-{}\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"{}\" ngpus=\"{}\" coll=\"{}\" "
      "inplace=\"{}\" chunk_words=\"{}\">\n",
      algorithm, max_chunks, E, coll.coll, inplace ? 1 : 0, chunk);
  for (std::size_t e = 0; e < E; ++e) {
    x << fmt::format("  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">\n", e, in[e], outc[e],
                     scratch[e]);
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
          x << fmt::format("      <step s=\"{}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" dstoff=\"{}\" "
                           "cnt=\"{}\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"/>\n",
                           k, st.type, st.srcbuf, st.srcoff, st.dstbuf, st.dstoff, st.cnt, st.depid, st.deps,
                           st.hasdep ? 1 : 0);
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
