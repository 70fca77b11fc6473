#include "systemc/kernel/kernel.hpp"

#include "systemc/kernel/clocked.hpp"
#include "systemc/kernel/run_progress.hpp"

#include <algorithm>
#include <stdexcept>

namespace collnet::systemc {

KernelSession::KernelSession() {
  context_ = new sc_core::sc_simcontext;
  sc_core::sc_curr_simcontext = context_;
  sc_core::sc_default_global_context = context_;
  // sc_stop() is how a run ends (all packets delivered, watchdog); its
  // "stopped by user" info message is not news to a collnet user.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (sc_core::sc_time(1.0, sc_core::SC_NS).value() != Clocked::kTicksPerCycle)
    throw std::logic_error("collnet expects SystemC's default time resolution of 1 ps");
  scheduler_ = std::make_unique<WakeScheduler>("collnet_wake_scheduler");
  WakeScheduler::current_ = scheduler_.get();
}

KernelSession::~KernelSession() {
  if (WakeScheduler::current_ == scheduler_.get()) WakeScheduler::current_ = nullptr;
  scheduler_.reset();
  // The context is not deleted: SystemC's function-static events (created on
  // first use in whichever context was current) unregister themselves from
  // their context at program exit, so every context must outlive main(). With
  // its modules gone a finished context is a few kilobytes.
  if (sc_core::sc_curr_simcontext == context_) {
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
  }
}

void run_for(std::uint64_t cycles) {
  sc_core::sc_start(sc_core::sc_time::from_value(cycles * Clocked::ticks_per_cycle()));
}

void run_for(std::uint64_t cycles, std::uint64_t slice, const std::function<void()>& between) {
  for (std::uint64_t done = 0; done < cycles && !interrupt_requested();) {
    const std::uint64_t step = std::min(slice, cycles - done);
    run_for(step);
    done += step;
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || sc_core::sc_end_of_simulation_invoked()) return;
    if (between) between();
  }
}

}  // namespace collnet::systemc
