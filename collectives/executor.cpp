#include "collectives/executor.hpp"

#include <algorithm>
#include <bit>
#include <deque>
#include <memory>
#include <random>
#include <unordered_map>

#include <fmt/format.h>

namespace collnet::collectives {

Word combine(ReceiveOp op, DataType type, Word stored, Word received) {
  if (op == ReceiveOp::copy) return received;
  if (type == DataType::float64) {
    const double a = std::bit_cast<double>(stored);
    const double b = std::bit_cast<double>(received);
    switch (op) {
      case ReceiveOp::sum: return std::bit_cast<Word>(a + b);
      case ReceiveOp::product: return std::bit_cast<Word>(a * b);
      case ReceiveOp::max: return std::bit_cast<Word>(std::max(a, b));
      case ReceiveOp::min: return std::bit_cast<Word>(std::min(a, b));
      case ReceiveOp::divide: return std::bit_cast<Word>(a / b);
      default: break;
    }
  } else {
    const auto a = static_cast<std::int64_t>(stored);
    const auto b = static_cast<std::int64_t>(received);
    switch (op) {
      case ReceiveOp::sum: return stored + received;        // two's complement wrap, no UB
      case ReceiveOp::product: return stored * received;
      case ReceiveOp::max: return static_cast<Word>(std::max(a, b));
      case ReceiveOp::min: return static_cast<Word>(std::min(a, b));
      case ReceiveOp::divide:
        if (b == 0) throw ExecutionError("receive operation divide: int64 division by zero");
        if (b == -1) return Word{0} - stored;  // wraps like the other int64 ops (no overflow trap)
        return static_cast<Word>(a / b);
      default: break;
    }
  }
  throw ExecutionError(fmt::format("receive operation code {} is not defined", static_cast<int>(op)));
}

namespace {

/// A message in flight. Its payload is the sender's words at the SEND; they
/// are read from the sender's memory at delivery unless the sender's memory
/// under them is written first, in which case they are copied just before
/// that write (`captured`). So a step's messages do not hold a second copy of
/// the data they carry (a whole array per node in an allreduce's first step).
struct Message {
  EndpointId src = 0;
  EndpointId dst = 0;
  Descriptor d;
  bool captured = false;
  std::size_t slot = 0;     // its place in its sender's list of uncaptured messages
  std::vector<Word> words;  // the payload once captured
};

template <typename Memory>
class Machine {
 public:
  Machine(const Schedule& s, const ExecOptions& o) : s_(s), o_(o), rng_(o.seed) {
    const auto n = s.endpoints();
    result_.memory.resize(n);
    for (std::size_t e = 0; e < n; ++e) {
      auto& m = result_.memory[e];
      const std::uint32_t words = s.memory_of(static_cast<EndpointId>(e));
      m = Memory(words);
      // (A zero is not written: the memory is zero, and an unwritten page of
      // a NodeMemory stays unmapped.)
      if (s.initial)
        for (std::uint32_t a = 0; a < words; ++a)
          if (const Word w = s.initial(static_cast<EndpointId>(e), a); w != 0) m[a] = w;
    }
    pc_.assign(n, 0);
    uncaptured_.resize(n);
    arrivals_.resize(n);
    outstanding_.assign(n, 0);
    at_barrier_.assign(n, false);
    queued_.assign(n, false);
  }

  BasicExecResult<Memory> run() {
    const auto n = s_.endpoints();
    for (std::size_t e = 0; e < n; ++e) wake(e);
    for (;;) {
      bool progress = false;
      if (o_.order == DeliveryOrder::random) {
        // One random action at a time: a descriptor of a random node or a
        // random pending delivery.
        std::vector<std::size_t> runnable;
        for (std::size_t e = 0; e < n; ++e)
          if (can_step(e)) runnable.push_back(e);
        const std::size_t choices = runnable.size() + pending_.size();
        if (choices > 0) {
          const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, choices - 1)(rng_);
          if (pick < runnable.size()) step(runnable[pick]);
          else deliver(pick - runnable.size());
          progress = true;
        }
      } else {
        // Only nodes whose state may have changed are looked at (a delivery
        // wakes its sender and receiver), so a run costs O(descriptors +
        // messages), not O(nodes x messages).
        while (!worklist_.empty()) {
          const std::size_t e = worklist_.front();
          worklist_.pop_front();
          queued_[e] = false;
          while (can_step(e)) {
            step(e);
            progress = true;
          }
        }
      }
      if (try_release_barrier()) continue;
      if (progress) continue;
      if (!pending_.empty()) {
        deliver(0);  // lazy: the oldest message, only now that everyone waits
        continue;
      }
      if (ended_ == n) break;
      throw ExecutionError(describe_deadlock());
    }
    return std::move(result_);
  }

 private:
  static constexpr std::size_t kDone = static_cast<std::size_t>(-1);

  Descriptor current(std::size_t e) const {
    const auto& p = s_.programs[e];
    if (pc_[e] >= p.size())
      throw ExecutionError(fmt::format("endpoint {}: program runs past its end without END", e));
    return p[pc_[e]];
  }

  bool can_step(std::size_t e) const {
    if (pc_[e] == kDone || at_barrier_[e]) return false;
    const Descriptor& d = current(e);
    switch (d.opcode) {
      case Opcode::send: return true;
      case Opcode::wait: return arrived(e, d.tag) >= d.length;
      case Opcode::barrier: return outstanding_[e] == 0;
      case Opcode::end: return true;
    }
    return false;
  }

  std::uint32_t arrived(std::size_t e, std::uint32_t tag) const {
    const auto it = arrivals_[e].find(tag);
    return it == arrivals_[e].end() ? 0 : it->second;
  }

  void step(std::size_t e) {
    const Descriptor d = current(e);
    switch (d.opcode) {
      case Opcode::send: send(e, d); ++pc_[e]; break;
      case Opcode::wait: ++pc_[e]; break;
      case Opcode::barrier:
        at_barrier_[e] = true;
        ++at_barrier_count_;
        break;
      case Opcode::end:
        pc_[e] = kDone;
        ++ended_;
        break;
    }
  }

  /// A range of `owner`'s memory named by endpoint e's current descriptor.
  void check_range(std::size_t e, std::size_t owner, std::uint32_t offset, std::uint32_t length,
                   const char* what) const {
    const std::uint32_t words = s_.memory_of(static_cast<EndpointId>(owner));
    if (static_cast<std::uint64_t>(offset) + length > words)
      throw ExecutionError(fmt::format("endpoint {} descriptor {}: {} range [{}, {}) exceeds memory of {} words",
                                       e, pc_[e], what, offset, offset + length, words));
  }

  /// A SEND to kInNetwork: its words join the reduction of its block (tag
  /// and destination offset; taken now, as the switches take them); when the
  /// last contributor has sent, the result is one message to each receiver
  /// (delivered in the run's order).
  void send_in_network(std::size_t e, const Descriptor& d) {
    if (!s_.innet)
      throw ExecutionError(fmt::format("endpoint {} descriptor {}: SEND to the aggregation trees (destination {}) in "
                                       "a schedule without an in-network collective", e, pc_[e], d.dest));
    const InNetwork& in = *s_.innet;
    if (!in.contributes(static_cast<EndpointId>(e)))
      throw ExecutionError(fmt::format("endpoint {} descriptor {}: SEND to the aggregation trees from an endpoint "
                                       "that does not contribute", e, pc_[e]));
    if (d.route_hint >= in.trees)
      throw ExecutionError(fmt::format("endpoint {} descriptor {}: aggregation tree {} of {}", e, pc_[e],
                                       d.route_hint, in.trees));
    check_range(e, e, d.src_offset, d.length, "source");
    ++result_.messages;
    result_.words_sent += d.length;
    const std::uint64_t block = (std::uint64_t{d.tag} << 32) | d.dst_offset;
    Reduction& r = reductions_[block];
    const auto& mem = result_.memory[e];
    if (r.contributors == 0) {
      r.d = d;
      r.words.assign(mem.begin() + d.src_offset, mem.begin() + d.src_offset + d.length);
    } else {
      if (d.length != r.d.length || d.route_hint != r.d.route_hint)
        throw ExecutionError(fmt::format("endpoint {} descriptor {}: SEND to the aggregation trees tagged {} at {} "
                                         "differs from the block's first in length or tree", e, pc_[e], d.tag,
                                         d.dst_offset));
      for (std::uint32_t i = 0; i < d.length; ++i)
        r.words[i] = combine(in.op, DataType::int64, r.words[i], mem[d.src_offset + i]);
    }
    const std::size_t expected = in.kind == InNetwork::Kind::bcast ? 1 : s_.endpoints();
    if (++r.contributors < expected) return;
    for (std::size_t to = 0; to < s_.endpoints(); ++to) {
      if (!in.receives(static_cast<EndpointId>(to))) continue;
      check_range(e, to, d.dst_offset, d.length, "destination");
      // (the receiver waits for it: outstanding until delivered, as a message it sent)
      ++outstanding_[to];
      auto m = std::make_unique<Message>();
      m->src = static_cast<EndpointId>(to);
      m->dst = static_cast<EndpointId>(to);
      m->d = r.d;
      m->d.op = ReceiveOp::copy;
      m->captured = true;
      m->words = r.words;
      pending_.push_back(std::move(m));
      if (o_.order == DeliveryOrder::eager) deliver(pending_.size() - 1);
    }
    reductions_.erase(block);
  }

  void send(std::size_t e, const Descriptor& d) {
    if (d.dest == kInNetwork) {
      send_in_network(e, d);
      return;
    }
    if (d.dest >= s_.endpoints())
      throw ExecutionError(fmt::format("endpoint {} descriptor {}: destination {} does not exist", e, pc_[e], d.dest));
    check_range(e, e, d.src_offset, d.length, "source");
    check_range(e, d.dest, d.dst_offset, d.length, "destination");
    if (d.dest == e) ++result_.local_copies;
    else {
      ++result_.messages;
      result_.words_sent += d.length;
    }
    ++outstanding_[e];
    auto m = std::make_unique<Message>();
    m->src = static_cast<EndpointId>(e);
    m->dst = static_cast<EndpointId>(d.dest);
    m->d = d;
    pending_.push_back(std::move(m));
    Uncaptured& u = uncaptured_[e];
    if (u.messages.empty()) {
      u.lo = d.src_offset;
      u.hi = d.src_offset + d.length;
    } else {
      u.lo = std::min(u.lo, d.src_offset);
      u.hi = std::max(u.hi, d.src_offset + d.length);
    }
    pending_.back()->slot = u.messages.size();
    u.messages.push_back(pending_.back().get());
    if (o_.order == DeliveryOrder::eager) deliver(pending_.size() - 1);
  }

  /// Before words [offset, offset + length) of endpoint e's memory are
  /// written: copies the payload of every message e sent that is still in
  /// flight and reads from them.
  void capture_before_write(std::size_t e, std::uint32_t offset, std::uint32_t length) {
    Uncaptured& u = uncaptured_[e];
    if (u.messages.empty() || offset >= u.hi || offset + length <= u.lo) return;
    const auto& mem = result_.memory[e];
    for (std::size_t i = 0; i < u.messages.size();) {
      Message& m = *u.messages[i];
      if (offset >= m.d.src_offset + m.d.length || offset + length <= m.d.src_offset) {
        ++i;
        continue;
      }
      m.words.assign(mem.begin() + m.d.src_offset, mem.begin() + m.d.src_offset + m.d.length);
      m.captured = true;
      unlist(m);  // moves the last one to i
    }
  }

  void unlist(Message& m) {
    auto& list = uncaptured_[static_cast<std::size_t>(m.src)].messages;
    list[m.slot] = list.back();
    list[m.slot]->slot = m.slot;
    list.pop_back();
  }

  void deliver(std::size_t index) {
    std::unique_ptr<Message> owned = std::move(pending_[index]);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
    Message& m = *owned;
    const auto src = static_cast<std::size_t>(m.src);
    const auto dst = static_cast<std::size_t>(m.dst);
    capture_before_write(dst, m.d.dst_offset, m.d.length);  // captures m too when it reads what it writes
    if (!m.captured) unlist(m);
    const Word* words = m.captured ? m.words.data() : result_.memory[src].data() + m.d.src_offset;
    auto& mem = result_.memory[dst];
    for (std::size_t i = 0; i < m.d.length; ++i) {
      Word& w = mem[m.d.dst_offset + i];
      w = combine(m.d.op, m.d.dtype, w, words[i]);
    }
    ++arrivals_[static_cast<std::size_t>(m.dst)][m.d.tag];
    --outstanding_[static_cast<std::size_t>(m.src)];
    wake(static_cast<std::size_t>(m.dst));
    wake(static_cast<std::size_t>(m.src));
  }

  void wake(std::size_t e) {
    if (queued_[e]) return;
    queued_[e] = true;
    worklist_.push_back(e);
  }

  bool try_release_barrier() {
    if (at_barrier_count_ == 0 || at_barrier_count_ != pc_.size()) return false;
    const auto number = current(0).tag;
    for (std::size_t e = 0; e < pc_.size(); ++e)
      if (current(e).tag != number)
        throw ExecutionError(fmt::format("barrier mismatch: endpoint 0 is at barrier {}, endpoint {} at barrier {}",
                                         number, e, current(e).tag));
    for (std::size_t e = 0; e < pc_.size(); ++e) {
      at_barrier_[e] = false;
      ++pc_[e];
      wake(e);
    }
    at_barrier_count_ = 0;
    ++result_.barriers;
    return true;
  }

  std::string describe_deadlock() const {
    std::string s = "deadlock: the programs cannot finish;";
    int shown = 0;
    for (std::size_t e = 0; e < pc_.size() && shown < 8; ++e) {
      if (pc_[e] == kDone) continue;
      const Descriptor& d = current(e);
      ++shown;
      if (at_barrier_[e]) s += fmt::format(" endpoint {} waits at barrier {};", e, d.tag);
      else if (d.opcode == Opcode::wait)
        s += fmt::format(" endpoint {} waits for {} messages tagged {} (has {});", e, d.length, d.tag, arrived(e, d.tag));
      else s += fmt::format(" endpoint {} is blocked at descriptor {};", e, pc_[e]);
    }
    std::size_t ended = static_cast<std::size_t>(std::count(pc_.begin(), pc_.end(), kDone));
    if (ended) s += fmt::format(" {} endpoints have ended", ended);
    return s;
  }

  /// An in-network reduction collecting its contributions (by tag).
  struct Reduction {
    Descriptor d;             // the first contributor's SEND
    std::vector<Word> words;  // the reduction so far
    std::size_t contributors = 0;
  };

  const Schedule& s_;
  ExecOptions o_;
  std::unordered_map<std::uint64_t, Reduction> reductions_;  // by (tag << 32 | destination offset)
  std::mt19937_64 rng_;
  BasicExecResult<Memory> result_;
  std::vector<std::size_t> pc_;
  std::vector<std::unordered_map<std::uint32_t, std::uint32_t>> arrivals_;
  std::vector<std::int64_t> outstanding_;
  std::vector<bool> at_barrier_;
  std::deque<std::unique_ptr<Message>> pending_;
  /// Per endpoint: its messages in flight whose payload is still read from
  /// its memory, and the hull [lo, hi) of their source ranges.
  struct Uncaptured {
    std::vector<Message*> messages;
    std::uint32_t lo = 0;
    std::uint32_t hi = 0;
  };
  std::vector<Uncaptured> uncaptured_;
  std::deque<std::size_t> worklist_;   // nodes to look at (lazy and eager orders)
  std::vector<bool> queued_;
  std::size_t at_barrier_count_ = 0;
  std::size_t ended_ = 0;
};

}  // namespace

ExecResult execute(const Schedule& schedule, const ExecOptions& options) {
  return Machine<std::vector<Word>>(schedule, options).run();
}

BasicExecResult<NodeMemory> execute_in_node_memory(const Schedule& schedule, const ExecOptions& options) {
  return Machine<NodeMemory>(schedule, options).run();
}

namespace {

template <typename Memory>
DataCheck check_memories(const Schedule& schedule, const std::vector<Memory>& memory) {
  DataCheck c;
  if (memory.size() != schedule.endpoints()) {
    c.pass = false;
    c.first_errors.push_back(fmt::format("memory of {} endpoints, expected {}", memory.size(), schedule.endpoints()));
    return c;
  }
  for (std::size_t e = 0; e < memory.size(); ++e) {
    for (const Region& r : schedule.expected(static_cast<EndpointId>(e))) {
      for (std::size_t i = 0; i < r.words.size(); ++i) {
        ++c.words_checked;
        const std::size_t a = r.offset + i;
        if (a < memory[e].size() && memory[e][a] == r.words[i]) continue;
        ++c.mismatches;
        c.pass = false;
        if (c.first_errors.size() < 10)
          c.first_errors.push_back(fmt::format("endpoint {} word {}: holds {:#x}, expected {:#x}", e, a,
                                               a < memory[e].size() ? memory[e][a] : 0, r.words[i]));
      }
    }
  }
  return c;
}

}  // namespace

DataCheck check_data(const Schedule& schedule, const std::vector<std::vector<Word>>& memory) {
  return check_memories(schedule, memory);
}

DataCheck check_data(const Schedule& schedule, const std::vector<NodeMemory>& memory) {
  return check_memories(schedule, memory);
}

}  // namespace collnet::collectives
