// keq verify's last guard on --timeout: a thread that ends the run with UNKNOWN if it is still
// going well past its deadline.
//
// Every stage honours the deadline cooperatively (ir::Budget, Z3's timeouts and interrupts), but
// code keq does not control (Z3's tactics, GMP on huge numbers, a compiler) may poll rarely. A
// tool in a generation loop must answer in the time it was given, so past deadline + grace the
// watchdog prints an UNKNOWN report naming the stage it stopped in and exits the process.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace keq::cli {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  // `overrun(stage, seconds_over)` prints what the run has to say; the process then exits with
  // its return value. No thread starts for an unbounded timeout.
  Watchdog(double timeout_s, std::function<int(const char* stage, double over_s)> overrun,
           double grace_s = -1);  // negative: Watchdog::grace_s(timeout_s)
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  std::atomic<const char*>& stage() { return stage_; }  // verify::Options::stage
  // The run is over: from here on the watchdog stays quiet. Hold the lock while printing the
  // report, so the watchdog's and the run's never interleave.
  [[nodiscard]] std::unique_lock<std::mutex> finish();
  // How long past --timeout the run may go: process start, parsing and a stage's last poll.
  static double grace_s(double timeout_s);

 private:
  void watch(Clock::time_point until, Clock::time_point deadline);

  std::atomic<const char*> stage_{"start"};
  std::function<int(const char*, double)> overrun_;
  std::mutex output_, mutex_;
  std::condition_variable finished_changed_;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace keq::cli
