#include "cli/run_progress_display.hpp"

#include <unistd.h>

#include <iostream>

#include <fmt/format.h>

namespace collnet::cli {

RunProgressDisplay::RunProgressDisplay(bool forced, double delay_seconds)
    : on_(forced || ::isatty(2) != 0), tty_(::isatty(2) != 0), delay_(delay_seconds),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

RunProgressDisplay::~RunProgressDisplay() { finish(); }

systemc::RunProgressFn RunProgressDisplay::callback() {
  if (!on_) return {};
  return [this](const systemc::RunSnapshot& s) { show(s); };
}

void RunProgressDisplay::show(const systemc::RunSnapshot& s) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (s.cycle < last_cycle_) last_cycle_ = 0;  // the next run of a comparison
  if (elapsed < delay_ || (shown_ && since < (tty_ ? 0.25 : 1.0))) return;
  shown_ = true;
  const double rate = since > 0 ? static_cast<double>(s.routers) * static_cast<double>(s.cycle - last_cycle_) / since : 0;
  const std::string line = fmt::format("run: cycle {}, {} delivered, {:.3f} M router-cycles/s, {:.1f} s", s.cycle,
                                       s.delivered, rate / 1e6, elapsed);
  if (tty_) {
    std::cerr << "\r\033[K" << line << std::flush;
    drawn_ = true;
  } else {
    std::cerr << line << "\n" << std::flush;
  }
  last_ = now;
  last_cycle_ = s.cycle;
}

void RunProgressDisplay::finish() {
  if (drawn_) std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace collnet::cli
