#include "cli/watchdog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace keq::cli {

double Watchdog::grace_s(double timeout_s) {
  return std::max(5.0, 0.25 * timeout_s);
}

Watchdog::Watchdog(double timeout_s, std::function<int(const char*, double)> overrun, double grace)
    : overrun_(std::move(overrun)) {
  if (!std::isfinite(timeout_s) || timeout_s > 1e7) return;  // unbounded: nothing to guard
  auto to = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  Clock::time_point deadline = Clock::now() + to(timeout_s);
  thread_ = std::thread(&Watchdog::watch, this,
                        deadline + to(grace < 0 ? grace_s(timeout_s) : grace), deadline);
}

std::unique_lock<std::mutex> Watchdog::finish() {
  std::unique_lock out(output_);
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  finished_changed_.notify_one();
  return out;
}

Watchdog::~Watchdog() {
  if (!thread_.joinable()) return;
  { auto out = finish(); }
  thread_.join();
}

void Watchdog::watch(Clock::time_point until, Clock::time_point deadline) {
  {
    std::unique_lock lock(mutex_);
    if (finished_changed_.wait_until(lock, until, [this] { return finished_; })) return;
  }
  std::lock_guard out(output_);  // the run may be printing its report: let it finish
  {
    std::lock_guard lock(mutex_);
    if (finished_) return;
  }
  double over = std::chrono::duration<double>(Clock::now() - deadline).count();
  int code = overrun_(stage_.load(), over);
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);  // the run's threads may be inside Z3: no destructors, no unwinding
}

}  // namespace keq::cli
