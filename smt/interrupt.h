// Interrupts a Z3 context when its query's time is up (internal to smt/).
//
// Z3's "timeout" parameter arms a timer around check() only, and a timeout of 0 means none.
// Building a model, evaluating it (algebraic numbers from nonlinear arithmetic) and converting
// its values run outside that timer, so a query could run on past --timeout by minutes on a
// loaded machine. Z3_interrupt cancels whatever the context is doing, at its next poll.
#pragma once

#include <z3++.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace keq::smt {

class InterruptAt {
 public:
  // Declare it after the context it guards: it must stop before the context is destroyed.
  InterruptAt(z3::context& c, std::chrono::steady_clock::time_point at)
      : thread_([this, &c, at] {
          std::unique_lock lock(mutex_);
          if (!done_changed_.wait_until(lock, at, [this] { return done_; })) c.interrupt();
        }) {}
  ~InterruptAt() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_one();
    thread_.join();
  }
  InterruptAt(const InterruptAt&) = delete;
  InterruptAt& operator=(const InterruptAt&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members it reads exist
};

// Z3's reason, with its ways of saying "out of time" (its timer, the interrupt) made one.
inline std::string why_unknown(z3::solver& s, const std::string& prefix = "Z3") {
  std::string r = s.reason_unknown();
  if (r == "timeout" || r == "canceled" || r == "interrupted")
    return prefix + ": timeout (the query's share of --timeout)";
  return prefix + ": " + r;
}

inline std::chrono::steady_clock::time_point after_ms(unsigned ms) {
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
}

}  // namespace keq::smt
