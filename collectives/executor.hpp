// The functional executor: applies every endpoint's program to real memory
// (payload words) and returns what each endpoint holds at the end: the golden
// result of a collective. No timing: only the order constraints the programs
// state (program order, WAIT, BARRIER) are honoured, and the moment a message
// lands is chosen by the delivery order, so that a program that relies on a
// timing accident (a buffer hazard) gives a wrong answer under some order.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "collectives/schedule.hpp"
#include "collectives/zero_pages.hpp"

namespace collnet::collectives {

enum class DeliveryOrder {
  lazy,    // deliver a message only when something waits for it (WAIT, BARRIER, END)
  eager,   // deliver a message the moment it is sent
  random,  // interleave sends and deliveries at random (seeded)
};

struct ExecOptions {
  DeliveryOrder order = DeliveryOrder::lazy;
  std::uint64_t seed = 1;
};

/// A node's memory whose pages are resident only once written
/// (zero_pages.hpp): the cycle model's NICs and its reference run hold these.
using NodeMemory = ZeroPageArray<Word>;

template <typename Memory>
struct BasicExecResult {
  std::vector<Memory> memory;     // per endpoint
  std::int64_t messages = 0;      // SENDs to another endpoint
  std::int64_t local_copies = 0;  // SENDs to the sender itself
  std::int64_t words_sent = 0;    // payload words put on the network
  std::int64_t barriers = 0;      // barriers released
};
using ExecResult = BasicExecResult<std::vector<Word>>;

/// A program that cannot finish (WAIT for messages that never come, barrier
/// numbers that disagree) or that addresses memory out of range.
class ExecutionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

ExecResult execute(const Schedule& schedule, const ExecOptions& options = {});
/// The same run in NodeMemory: the words a program never writes are never
/// resident (the cycle model's reference digests of a large network).
BasicExecResult<NodeMemory> execute_in_node_memory(const Schedule& schedule, const ExecOptions& options = {});

struct DataCheck {
  bool pass = true;
  std::int64_t words_checked = 0;
  std::int64_t mismatches = 0;
  std::vector<std::string> first_errors;  // at most 10, readable
};

/// Compares the memory with the schedule's expectation, word by word.
DataCheck check_data(const Schedule& schedule, const std::vector<std::vector<Word>>& memory);
DataCheck check_data(const Schedule& schedule, const std::vector<NodeMemory>& memory);

/// Combines a received word into a stored one (the receive operation).
Word combine(ReceiveOp op, DataType type, Word stored, Word received);

}  // namespace collnet::collectives
