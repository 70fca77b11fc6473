#include "workload/lower.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "collectives/algorithm.hpp"

namespace collnet::workload {

using collectives::EndpointId;

const std::vector<std::string>& algorithms_for(CollectiveType type) {
  static const std::map<CollectiveType, std::vector<std::string>> table = {
      {CollectiveType::all_reduce, {"ring-allreduce", "rd-allreduce", "hd-allreduce", "hd-allreduce-conventional",
                                    "msccl"}},
      {CollectiveType::all_gather, {"ring-allgather", "msccl"}},
      {CollectiveType::reduce_scatter, {"ring-reduce-scatter", "msccl"}},
      {CollectiveType::all_to_all, {"pairwise-alltoall", "msccl"}},
      {CollectiveType::broadcast, {"binomial-bcast"}},
      {CollectiveType::reduce, {"binomial-reduce"}},
  };
  static const std::vector<std::string> none;
  const auto it = table.find(type);
  return it == table.end() ? none : it->second;
}

std::string algorithm_key_for(CollectiveType type) {
  switch (type) {
    case CollectiveType::all_reduce: return "allreduce_algorithm";
    case CollectiveType::all_gather: return "allgather_algorithm";
    case CollectiveType::reduce_scatter: return "reduce_scatter_algorithm";
    case CollectiveType::all_to_all: return "alltoall_algorithm";
    case CollectiveType::broadcast: return "broadcast_algorithm";
    case CollectiveType::reduce: return "reduce_algorithm";
    default: return "";
  }
}

namespace {

constexpr std::uint32_t kMaxTag = (1u << 16) - 1;
constexpr std::uint32_t kMaxAddress = (1u << 20) - 1;
constexpr std::uint32_t kScratchWords = 4096;
constexpr std::size_t kNone = ~std::size_t{0};  // a compute chunk: a copy of at most this many words

/// A built algorithm schedule, shared by every instance of the same size.
struct Built {
  collectives::Schedule schedule;
  std::uint32_t tags = 0;  // its largest tag + 1
  std::vector<std::uint32_t> used_controllers_mask;  // per endpoint: bit c = a SEND on controller c
};

/// A region of a rank's memory and what lives there.
struct Segment {
  std::uint32_t base = 0;
  std::uint32_t words = 0;
  enum Kind : std::uint8_t { collective, send, receive } kind = collective;
  std::uint32_t index = 0;  // collective: its instance; send/receive: the message
};

struct Instance {
  std::shared_ptr<const Built> built;
  std::uint32_t tag_base = 0;
  std::vector<std::uint32_t> base;  // per rank
  /// The group's ranks, ascending: member m runs the schedule's rank m.
  std::vector<int> members;
  std::vector<int> member_of;  // per rank: its member index, -1 outside the group
  bool whole = true;           // every rank: built for the network itself
  [[nodiscard]] std::size_t member(int rank) const {
    return static_cast<std::size_t>(member_of[static_cast<std::size_t>(rank)]);
  }
};

struct Message {
  int src = 0;
  int dst = 0;
  std::uint32_t words = 0;
};

std::uint32_t words_of(std::int64_t bytes, const LowerOptions& o) {
  const double scaled = std::ceil(static_cast<double>(bytes) * o.scale);
  return static_cast<std::uint32_t>(std::max<std::int64_t>(1, static_cast<std::int64_t>(
                                                                  std::ceil(scaled / o.flit_bytes))));
}


}  // namespace

Lowered lower(const Workload& w, const topology::Topology& topology, const LowerOptions& o) {
  const int ranks = static_cast<int>(w.ranks.size());
  if (ranks != topology.endpoint_count())
    throw ConfigError(fmt::format("key 'workload': the trace has {} ranks and {} has {} endpoints", ranks,
                                  topology.name(), topology.endpoint_count()));
  Lowered out;
  out.nodes.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) out.nodes[static_cast<std::size_t>(r)].resize(w.ranks[static_cast<std::size_t>(r)].nodes.size());

  // Collectives: build each (algorithm, words) once; every instance gets
  // its own tag range and, on every rank, its own region.
  std::map<std::pair<std::string, std::int64_t>, std::shared_ptr<Built>> cache;
  std::vector<Instance> instances;
  std::uint32_t next_tag = 1;  // tag 0: the compute chunks (nothing waits for it)
  int comm_controllers = 1;
  {
    // Instance k of a group is the k-th collective of that group in the file
    // of every rank of the group (check_workload matched type and size). A
    // group of every rank runs the algorithm built for the network; a group
    // of part of them runs it built for a shape of its size, mesh:Kx1 (its
    // member m the shape's rank m), on the network's own routes.
    std::map<std::pair<std::vector<int>, std::size_t>, int> instance_of;  // (group, k) -> instance
    std::map<std::pair<int, std::vector<int>>, std::size_t> seen;          // (rank, group) -> collectives so far
    for (int r0 = 0; r0 < ranks; ++r0) {
      const RankTrace& t0 = w.ranks[static_cast<std::size_t>(r0)];
      for (std::size_t i0 = 0; i0 < t0.nodes.size(); ++i0) {
        const Node& n0 = t0.nodes[i0];
        if (n0.type != NodeType::comm_coll) continue;
        const std::vector<int>& members = group_ranks(w, r0, n0);
        const std::size_t k = seen[{r0, members}]++;
        if (const auto found = instance_of.find({members, k}); found != instance_of.end()) {
          out.nodes[static_cast<std::size_t>(r0)][i0].collective = found->second;
          out.collectives[static_cast<std::size_t>(found->second)].node_per_rank.push_back(n0.id);
          continue;
        }
        const bool whole = static_cast<int>(members.size()) == ranks;
        std::unique_ptr<topology::Topology> shape;
        if (!whole) shape = topology::make_topology(fmt::format("mesh:{}x1", members.size()));
        const topology::Topology& built_for = whole ? topology : *shape;
        const auto type = static_cast<CollectiveType>(n0.comm_type);
        const std::string key = algorithm_key_for(type);
        const auto& accepted = algorithms_for(type);
        if (key.empty() || accepted.empty())
          throw ConfigError(where(t0, n0) + fmt::format("field 'attr' comm_type: {} has no registered algorithm; "
                                                        "accepted collectives: ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, "
                                                        "ALL_TO_ALL, BROADCAST, REDUCE",
                                                        collective_type_name(n0.comm_type)));
        const auto chosen = o.algorithms.find(type);
        const std::string name = chosen != o.algorithms.end() ? chosen->second : accepted.front();
        const std::uint32_t words = words_of(n0.comm_size, o);
        auto& built = cache[{name + (whole ? std::string() : fmt::format("@{}", members.size())), words}];
        if (!built) {
          const collectives::Algorithm& a = collectives::find_algorithm(name, key);
          try {
            collectives::require_topology(a, built_for);
          } catch (const ConfigError& e) {
            throw ConfigError(fmt::format("key '{}': {}", key, e.what()));
          }
          if (a.nic.dispatch == collectives::Dispatch::next_idle)
            throw ConfigError(fmt::format("key '{}': {} hands its SENDs to the next idle controller, which a "
                                          "workload's NIC (controllers by name) does not do; accepted values: {}",
                                          key, name, join(accepted)));
          Params p = o.params;
          p.set("algorithm", name);
          try {
            if (a.size.key.empty()) {
              // No key sets its size (msccl: its file's chunks x chunk_words): it must be the node's.
              const std::int64_t has = collectives::words_per_rank(a, built_for, p);
              if (has != words)
                throw ConfigError(fmt::format("{} runs {} words a rank ({}); set its keys so that it runs {}", name,
                                              has, collectives::words_per_rank_text(a, built_for, p), words));
            } else {
              collectives::apply_words_per_rank(a, built_for, p, words, a);
            }
          } catch (const ConfigError& e) {
            throw ConfigError(where(t0, n0) + fmt::format("field 'attr' comm_size: {} runs no {} of {} words a rank "
                                                          "(comm_size {} bytes x workload_scale / flit_bytes): {}",
                                                          name, collective_type_name(n0.comm_type), words,
                                                          n0.comm_size, e.what()));
          }
          built = std::make_shared<Built>();
          try {
            built->schedule = a.build(built_for, p);
          } catch (const ConfigError& e) {
            throw ConfigError(where(t0, n0) + fmt::format("field 'attr' comm_size: {} runs no {} of {} words a rank "
                                                          "(comm_size {} bytes x workload_scale / flit_bytes): {}",
                                                          name, collective_type_name(n0.comm_type), words,
                                                          n0.comm_size, e.what()));
          }
          built->used_controllers_mask.assign(members.size(), 0);
          const auto scan = [&](const collectives::Program& program, std::size_t e) {
            for (const Descriptor& d : program) {
              if (d.opcode == Opcode::barrier)
                throw ConfigError(fmt::format("key '{}': {} synchronizes with barriers, which the concurrent threads of "
                                              "a workload do not run; accepted values: {}",
                                              key, name, join(accepted)));
              built->tags = std::max(built->tags, d.tag + 1);
              if (d.opcode == Opcode::send) {
                built->used_controllers_mask[e] |= 1u << d.controller;
                comm_controllers = std::max(comm_controllers, static_cast<int>(d.controller) + 1);
              }
            }
          };
          for (std::size_t e = 0; e < built->schedule.programs.size(); ++e) {
            scan(built->schedule.programs[e], e);
            if (e < built->schedule.threads.size())
              for (const auto& th : built->schedule.threads[e]) scan(th.program, e);
          }
        }
        Instance inst;
        inst.built = built;
        inst.members = members;
        inst.whole = whole;
        inst.member_of.assign(static_cast<std::size_t>(ranks), -1);
        for (std::size_t m = 0; m < members.size(); ++m)
          inst.member_of[static_cast<std::size_t>(members[m])] = static_cast<int>(m);
        inst.tag_base = next_tag;
        next_tag += built->tags;
        if (next_tag > kMaxTag)
          throw ConfigError(fmt::format("key 'workload': the collectives need more than {} tags (the descriptor's tag "
                                        "field); a workload with fewer collectives runs",
                                        kMaxTag));
        LoweredCollective c;
        c.type = type;
        c.algorithm = name;
        c.group = n0.pg_name;
        c.words_per_rank = words;
        c.ranks = members;
        c.node_per_rank.push_back(n0.id);
        const int id = static_cast<int>(instances.size());
        instance_of[{members, k}] = id;
        out.nodes[static_cast<std::size_t>(r0)][i0].collective = id;
        instances.push_back(std::move(inst));
        out.collectives.push_back(std::move(c));
      }
    }
  }
  out.compute_controller = comm_controllers;
  out.signal_controller = comm_controllers + 1;
  if (out.signal_controller >= 8)
    throw ConfigError(fmt::format("key 'workload': the collectives use {} NIC controllers and a workload needs two "
                                  "more (compute and signals), beyond the NIC's 8",
                                  comm_controllers));

  // Point to point: channels (source, destination, comm_tag), each a tag.
  std::map<std::tuple<int, int, std::int64_t>, std::uint32_t> channel_tag;
  std::vector<Message> messages;
  for (int r = 0; r < ranks; ++r)
    for (const Node& n : w.ranks[static_cast<std::size_t>(r)].nodes)
      if (n.type == NodeType::comm_send) {
        const auto key = std::make_tuple(r, static_cast<int>(n.comm_dst), n.comm_tag);
        if (channel_tag.emplace(key, next_tag).second) ++next_tag;
      }
  const std::uint32_t first_signal_tag = next_tag;

  // Memory of each rank: the signal word, the compute scratch, then the
  // regions in node order.
  std::int64_t longest_compute = 0;
  for (const RankTrace& t : w.ranks)
    for (const Node& n : t.nodes)
      longest_compute = std::max<std::int64_t>(longest_compute, static_cast<std::int64_t>(std::llround(
                                                                    static_cast<double>(n.duration_micros) *
                                                                    o.clock_ghz * 1000.0)));
  const std::uint32_t scratch = static_cast<std::uint32_t>(std::min<std::int64_t>(longest_compute, kScratchWords));
  constexpr std::uint32_t signal_word = 0;
  std::vector<std::vector<Segment>> segments(static_cast<std::size_t>(ranks));
  std::vector<std::uint64_t> top(static_cast<std::size_t>(ranks), 1 + scratch);
  const auto place = [&](int r, std::uint32_t words, Segment::Kind kind, std::uint32_t index, const Node& n) {
    auto& at = top[static_cast<std::size_t>(r)];
    if (at + words > kMaxAddress)
      throw ConfigError(where(w.ranks[static_cast<std::size_t>(r)], n) +
                        fmt::format("field 'attr' comm_size: rank {} needs more than {} words of memory for the "
                                    "workload's buffers (each transfer and collective has its own, so that the data "
                                    "check sees every word); a smaller workload_scale runs",
                                    r, kMaxAddress));
    segments[static_cast<std::size_t>(r)].push_back({static_cast<std::uint32_t>(at), words, kind, index});
    const auto base = static_cast<std::uint32_t>(at);
    at += words;
    return base;
  };

  // Threads.
  out.schedule.algorithm = "workload";
  out.schedule.programs.resize(static_cast<std::size_t>(ranks));
  out.schedule.threads.resize(static_cast<std::size_t>(ranks));
  // The k-th send of a channel is message number (channel's first + k): messages numbered as sent.
  std::map<std::tuple<int, int, std::int64_t>, std::vector<std::uint32_t>> channel_messages;
  for (int r = 0; r < ranks; ++r)
    for (const Node& n : w.ranks[static_cast<std::size_t>(r)].nodes)
      if (n.type == NodeType::comm_send) {
        channel_messages[{r, static_cast<int>(n.comm_dst), n.comm_tag}].push_back(
            static_cast<std::uint32_t>(messages.size()));
        messages.push_back({r, static_cast<int>(n.comm_dst), words_of(n.comm_size, o)});
      }
  out.messages = messages.size();
  std::vector<std::uint32_t> send_base(messages.size(), 0), recv_base(messages.size(), 0);

  // Regions in file order, on every rank before any program is written (a
  // SEND names the receiver's address).
  std::vector<std::vector<std::uint32_t>> message_of_node(static_cast<std::size_t>(ranks));
  // A receive's number on its channel (the k-th receive waits for k arrivals).
  std::vector<std::vector<std::uint32_t>> receive_index(static_cast<std::size_t>(ranks));
  std::vector<std::vector<std::uint32_t>> send_index(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const RankTrace& t = w.ranks[static_cast<std::size_t>(r)];
    auto& lowered = out.nodes[static_cast<std::size_t>(r)];
    std::map<std::tuple<int, int, std::int64_t>, std::uint32_t> sends_seen, recvs_seen;
    auto& message_of = message_of_node[static_cast<std::size_t>(r)];
    message_of.assign(t.nodes.size(), 0);
    receive_index[static_cast<std::size_t>(r)].assign(t.nodes.size(), 0);
    send_index[static_cast<std::size_t>(r)].assign(t.nodes.size(), 0);
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      const Node& n = t.nodes[i];
      if (n.type == NodeType::comm_send) {
        const auto key = std::make_tuple(r, static_cast<int>(n.comm_dst), n.comm_tag);
        send_index[static_cast<std::size_t>(r)][i] = sends_seen[key];
        const std::uint32_t m = channel_messages.at(key)[sends_seen[key]++];
        message_of[i] = m;
        send_base[m] = place(r, messages[m].words, Segment::send, m, n);
      } else if (n.type == NodeType::comm_recv) {
        const auto key = std::make_tuple(static_cast<int>(n.comm_src), r, n.comm_tag);
        const std::uint32_t k = recvs_seen[key]++;
        receive_index[static_cast<std::size_t>(r)][i] = k;
        const std::uint32_t m = channel_messages.at(key)[k];
        message_of[i] = m;
        recv_base[m] = place(r, messages[m].words, Segment::receive, m, n);
      } else if (n.type == NodeType::comm_coll) {
        Instance& inst = instances[static_cast<std::size_t>(lowered[i].collective)];
        inst.base.resize(static_cast<std::size_t>(ranks), 0);
        inst.base[static_cast<std::size_t>(r)] =
            place(r, inst.built->schedule.memory_of(static_cast<EndpointId>(inst.member(r))), Segment::collective,
                  static_cast<std::uint32_t>(lowered[i].collective), n);
      }
    }
  }
  for (int r = 0; r < ranks; ++r) {
    const RankTrace& t = w.ranks[static_cast<std::size_t>(r)];
    auto& lowered = out.nodes[static_cast<std::size_t>(r)];
    const auto& message_of = message_of_node[static_cast<std::size_t>(r)];
    // Signal tags and counts.
    std::uint32_t tag = first_signal_tag;
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      if (tag > kMaxTag)
        throw ConfigError(fmt::format("key 'workload': {}: {} nodes and their transfers need more than {} tags (the "
                                      "descriptor's tag field)",
                                      t.file, t.nodes.size(), kMaxTag));
      lowered[i].signal_tag = tag++;
      const Node& n = t.nodes[i];
      if (n.type == NodeType::comm_send) {
        // Timed by its message's last flit leaving (the k-th of its channel)
        // unless a dependent needs its signal (below).
        lowered[i].sent_side = true;
        lowered[i].sent_tag = channel_tag.at({r, static_cast<int>(n.comm_dst), n.comm_tag});
        lowered[i].sent_index = send_index[static_cast<std::size_t>(r)][i];
      }
      if (n.type == NodeType::comm_recv) {
        // A receive signals nothing: it is done when the k-th message of its
        // channel has arrived, which is what a dependent waits for.
        lowered[i].signal_tag = channel_tag.at({static_cast<int>(n.comm_src), r, n.comm_tag});
        lowered[i].signals = receive_index[static_cast<std::size_t>(r)][i] + 1;
      }
      if (n.type == NodeType::comp || n.type == NodeType::mem_load || n.type == NodeType::mem_store)
        lowered[i].compute_cycles =
            static_cast<std::int64_t>(std::llround(static_cast<double>(n.duration_micros) * o.clock_ghz * 1000.0));
      if (n.type == NodeType::comm_coll) {
        const Instance& inst = instances[static_cast<std::size_t>(lowered[i].collective)];
        const std::size_t m = inst.member(r);
        const std::uint32_t mask = inst.built->used_controllers_mask[m];
        const auto& th = inst.built->schedule.threads;
        const std::size_t streams = m < th.size() && !th[m].empty() ? th[m].size() : 1;
        lowered[i].signals = static_cast<std::uint32_t>(std::popcount(mask)) + static_cast<std::uint32_t>(streams);
      }
    }

    // The body of node i: appended to `p` (and `fw`, the forwards, one per descriptor).
    // Waits for node i's dependencies, except where nothing is to wait for:
    // a receive right before it on the thread (the thread passed its WAIT),
    // and a send that a receive depends on (the receive's own message is
    // what it waits for; its finish is reported no earlier than the send's).
    const auto wait_deps = [&](std::size_t i, std::size_t previous, collectives::Program& p,
                               std::vector<std::uint32_t>& fw) {
      for (const auto* deps : {&t.nodes[i].data_deps, &t.nodes[i].ctrl_deps})
        for (const std::uint64_t d : *deps) {
          const std::size_t j = t.index.at(d);
          if (t.nodes[j].type == NodeType::comm_recv && j == previous) continue;
          if (t.nodes[j].type == NodeType::comm_send &&
              (t.nodes[i].type == NodeType::comm_recv || lowered[j].sent_side))
            continue;
          const LoweredNode& dep = lowered[j];
          p.push_back(Descriptor::wait(dep.signal_tag, dep.signals));
          fw.push_back(0);
        }
    };
    const auto signal = [&](std::uint32_t tag_, int controller) {
      Descriptor d = Descriptor::send(static_cast<std::uint32_t>(r), signal_word, signal_word, 1, tag_);
      d.controller = static_cast<std::uint8_t>(controller);
      return d;
    };
    const auto relocate = [&](Descriptor d, const Instance& inst) {
      if (d.opcode == Opcode::send || d.opcode == Opcode::wait) d.tag += inst.tag_base;
      if (d.opcode == Opcode::send) {
        // The schedule's rank d.dest is the group's member d.dest.
        const auto to = static_cast<std::size_t>(inst.members[d.dest]);
        d.dest = static_cast<std::uint32_t>(to);
        d.src_offset += inst.base[static_cast<std::size_t>(r)];
        d.dst_offset += inst.base[to];
        if (!inst.whole) d.route_hint = 0;  // the shape's hint means nothing on the network's routes
      }
      return d;
    };
    // Body of node i on thread (p, fw); extra threads (a collective's further
    // streams) go to `extra`.
    std::vector<collectives::Thread> threads;
    const auto body = [&](std::size_t i, collectives::Program& p, std::vector<std::uint32_t>& fw, bool sequential) {
      const Node& n = t.nodes[i];
      const LoweredNode& ln = lowered[i];
      switch (n.type) {
        case NodeType::comm_send: {
          const Message& m = messages[message_of[i]];
          Descriptor d = Descriptor::send(static_cast<std::uint32_t>(m.dst), send_base[message_of[i]],
                                          recv_base[message_of[i]], m.words,
                                          channel_tag.at({r, m.dst, n.comm_tag}));
          p.push_back(d);
          fw.push_back(0);
          if (!ln.sent_side) {
            p.push_back(signal(ln.signal_tag, 0));
            fw.push_back(0);
          }
          return;
        }
        case NodeType::comm_recv: {
          const auto key = std::make_tuple(static_cast<int>(n.comm_src), r, n.comm_tag);
          const std::uint32_t k = receive_index[static_cast<std::size_t>(r)][i];
          p.push_back(Descriptor::wait(channel_tag.at(key), k + 1));
          fw.push_back(0);
          return;
        }
        case NodeType::comm_coll: {
          const Instance& inst = instances[static_cast<std::size_t>(ln.collective)];
          const collectives::Schedule& s = inst.built->schedule;
          const std::size_t e = inst.member(r);
          const bool streams = e < s.threads.size() && !s.threads[e].empty();
          const auto append = [&](const collectives::Program& prog, const std::vector<std::uint32_t>& forwards,
                                  collectives::Program& into, std::vector<std::uint32_t>& into_fw) {
            for (std::size_t k = 0; k < prog.size(); ++k) {
              const Descriptor d = prog[k];
              if (d.opcode == Opcode::end) break;
              into.push_back(relocate(d, inst));
              into_fw.push_back(k < forwards.size() && forwards[k] != 0 ? forwards[k] + inst.tag_base : 0);
            }
            into.push_back(signal(ln.signal_tag, out.signal_controller));
            into_fw.push_back(0);
          };
          if (!streams || sequential) {
            append(s.programs[e], {}, p, fw);
            if (streams) {  // the sequential program signals once per stream
              for (std::size_t k = 1; k < s.threads[e].size(); ++k) {
                p.push_back(signal(ln.signal_tag, out.signal_controller));
                fw.push_back(0);
              }
            }
          } else {
            append(s.threads[e][0].program, s.threads[e][0].forwards, p, fw);
            for (std::size_t k = 1; k < s.threads[e].size(); ++k) {
              collectives::Thread extra;
              wait_deps(i, kNone, extra.program, extra.forwards);
              append(s.threads[e][k].program, s.threads[e][k].forwards, extra.program, extra.forwards);
              extra.program.push_back(Descriptor::end());
              extra.forwards.push_back(0);
              threads.push_back(std::move(extra));
            }
          }
          // A signal behind the SENDs on every controller the rank's part used.
          for (int c = 0; c < 8; ++c)
            if ((inst.built->used_controllers_mask[e] >> c) & 1u) {
              p.push_back(signal(ln.signal_tag, c));
              fw.push_back(0);
            }
          return;
        }
        case NodeType::comp:
        case NodeType::mem_load:
        case NodeType::mem_store: {
          std::int64_t left = ln.compute_cycles;
          while (left > 0) {
            const auto chunk = static_cast<std::uint32_t>(std::min<std::int64_t>(left, scratch));
            left -= chunk;
            Descriptor d = Descriptor::send(static_cast<std::uint32_t>(r), 1, 1, chunk, left == 0 ? ln.signal_tag : 0);
            d.controller = static_cast<std::uint8_t>(out.compute_controller);
            p.push_back(d);
            fw.push_back(0);
          }
          if (ln.compute_cycles == 0) {
            p.push_back(signal(ln.signal_tag, out.signal_controller));
            fw.push_back(0);
          }
          return;
        }
        case NodeType::metadata:
        case NodeType::invalid:
          p.push_back(signal(ln.signal_tag, out.signal_controller));
          fw.push_back(0);
          return;
      }
    };

    // Path cover: a node continues the thread of a dependency that no other
    // node has continued yet; else it opens a thread.
    const std::vector<std::uint32_t> order = topological_order(t);  // every node: cycles were refused
    std::vector<int> thread_of(t.nodes.size(), -1);
    std::vector<std::size_t> previous_of(t.nodes.size(), kNone);  // the node before it on its thread
    std::vector<bool> continued(t.nodes.size(), false);
    std::vector<std::uint32_t> tail;  // per thread: its last node
    for (const std::uint32_t i : order) {
      int th = -1;
      for (const auto* deps : {&t.nodes[i].data_deps, &t.nodes[i].ctrl_deps}) {
        for (const std::uint64_t d : *deps) {
          const std::size_t j = t.index.at(d);
          if (!continued[j] && thread_of[j] >= 0 && tail[static_cast<std::size_t>(thread_of[j])] == j) {
            th = thread_of[j];
            continued[j] = true;
            previous_of[i] = j;
            break;
          }
        }
        if (th >= 0) break;
      }
      if (th < 0) {
        th = static_cast<int>(tail.size());
        tail.push_back(i);
      }
      thread_of[i] = th;
      lowered[i].thread = th;
      tail[static_cast<std::size_t>(th)] = i;
    }
    // A send signals only where a dependent waits for it: not a receive, nor
    // a send right after it on its thread (controller 0 takes them in order).
    for (std::size_t i = 0; i < t.nodes.size(); ++i)
      for (const auto* deps : {&t.nodes[i].data_deps, &t.nodes[i].ctrl_deps})
        for (const std::uint64_t d : *deps) {
          const std::size_t j = t.index.at(d);
          if (t.nodes[j].type != NodeType::comm_send) continue;
          const bool waits = !(t.nodes[i].type == NodeType::comm_recv ||
                               (t.nodes[i].type == NodeType::comm_send && previous_of[i] == j));
          if (waits) lowered[j].sent_side = false;
        }
    std::vector<collectives::Thread> chain(tail.size());
    collectives::Program sequential;
    std::vector<std::uint32_t> unused;
    std::size_t previous_in_order = kNone;
    for (const std::uint32_t i : order) {
      auto& thread = chain[static_cast<std::size_t>(thread_of[i])];
      wait_deps(i, previous_of[i], thread.program, thread.forwards);
      body(i, thread.program, thread.forwards, false);
      wait_deps(i, previous_in_order, sequential, unused);
      body(i, sequential, unused, true);
      previous_in_order = i;
    }
    out.orders.push_back(order);
    for (auto& c : chain) {
      c.program.push_back(Descriptor::end());
      c.forwards.push_back(0);
    }
    for (auto& extra : threads) chain.push_back(std::move(extra));
    if (chain.empty()) {
      collectives::Thread idle;
      idle.program.push_back(Descriptor::end());
      chain.push_back(std::move(idle));
    }
    // A thread whose SENDs forward nothing keeps no forwards.
    for (auto& c : chain)
      if (std::all_of(c.forwards.begin(), c.forwards.end(), [](std::uint32_t f) { return f == 0; })) c.forwards.clear();
    sequential.push_back(Descriptor::end());
    out.schedule.programs[static_cast<std::size_t>(r)] = std::move(sequential);
    out.schedule.threads[static_cast<std::size_t>(r)] = std::move(chain);
  }

  // Memory, initial contents and expectation.
  out.schedule.node_memory_words.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    out.schedule.node_memory_words[static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(top[static_cast<std::size_t>(r)]);
  out.schedule.memory_words =
      *std::max_element(out.schedule.node_memory_words.begin(), out.schedule.node_memory_words.end());
  out.schedule.controllers = out.signal_controller + 1;
  auto shared_segments = std::make_shared<std::vector<std::vector<Segment>>>(std::move(segments));
  auto shared_instances = std::make_shared<std::vector<Instance>>(std::move(instances));
  auto shared_messages = std::make_shared<std::vector<Message>>(std::move(messages));
  out.schedule.initial = [shared_segments, shared_instances](EndpointId e, std::uint32_t a) -> collectives::Word {
    const auto& segs = (*shared_segments)[static_cast<std::size_t>(e)];
    const auto it = std::upper_bound(segs.begin(), segs.end(), a,
                                     [](std::uint32_t x, const Segment& s) { return x < s.base; });
    if (it == segs.begin()) return 0;
    const Segment& s = *(it - 1);
    if (a >= s.base + s.words) return 0;
    switch (s.kind) {
      case Segment::collective: {
        const Instance& inst = (*shared_instances)[s.index];
        return inst.built->schedule.initial
                   ? inst.built->schedule.initial(static_cast<EndpointId>(inst.member(static_cast<int>(e))), a - s.base)
                   : 0;
      }
      case Segment::send: return collectives::payload_word(s.index, static_cast<std::uint64_t>(e), a - s.base);
      case Segment::receive: return 0;
    }
    return 0;
  };
  out.schedule.expected = [shared_segments, shared_instances, shared_messages](EndpointId e) {
    std::vector<collectives::Region> regions;
    for (const Segment& s : (*shared_segments)[static_cast<std::size_t>(e)]) {
      if (s.kind == Segment::collective) {
        const Instance& inst = (*shared_instances)[s.index];
        const auto member = static_cast<EndpointId>(inst.member(static_cast<int>(e)));
        for (collectives::Region r : inst.built->schedule.expected(member)) {
          r.offset += s.base;
          regions.push_back(std::move(r));
        }
      } else if (s.kind == Segment::receive) {
        const Message& m = (*shared_messages)[s.index];
        collectives::Region r;
        r.offset = s.base;
        r.words.resize(s.words);
        for (std::uint32_t k = 0; k < s.words; ++k)
          r.words[k] = collectives::payload_word(s.index, static_cast<std::uint64_t>(m.src), k);
        regions.push_back(std::move(r));
      }
    }
    return regions;
  };
  return out;
}

}  // namespace collnet::workload
