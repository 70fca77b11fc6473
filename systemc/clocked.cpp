#include "systemc/clocked.hpp"

namespace collnet::systemc {

std::uint64_t Clocked::ticks_per_cycle() {
  // The resolution is fixed for the whole life of a kernel context (kernel.hpp);
  // compute once per context would be cheaper, but one division is negligible.
  static const std::uint64_t ticks =
      static_cast<std::uint64_t>(sc_core::sc_time(1.0, sc_core::SC_NS).value());
  return ticks;
}

Clocked::Clocked(const sc_core::sc_module_name& name, bool run_at_start) : sc_core::sc_module(name) {
  SC_METHOD(process);
  sensitive << wake_;
  if (!run_at_start) dont_initialize();
}

void Clocked::wake_at(Cycle at) {
  const Cycle current = now();
  // scheduled_ <= current: the pending notification has fired already (this
  // module is runnable or has run in this cycle); a new one is needed.
  if (at < scheduled_ || scheduled_ <= current) {
    scheduled_ = at;
    wake_.notify(sc_core::sc_time::from_value((at - current) * ticks_per_cycle()));
  }
}

void Clocked::process() {
  const Cycle current = now();
  scheduled_ = kNever;
  const Cycle next = evaluate(current);
  if (next != kNever) wake_at(next);
}

}  // namespace collnet::systemc
