// The run's budget: a deadline and a memory ceiling that every stage honours cooperatively.
//
// --timeout and --max-memory must bound the whole run, not only the stages that check a clock:
// term construction, the interpreters, pair dedup, the e-graph, the witness search and replay
// all call Budget::tick() in their loops, which throws BudgetExceeded once the deadline has
// passed or the resident memory is over the ceiling. verify turns that into UNKNOWN with what
// was done. The throw happens in keq's own code only, never inside GMP, MPFR or Z3 callbacks
// (which cannot unwind), so their sizes are bounded before they are called instead.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "ir/error.h"

namespace keq::ir {

struct BudgetExceeded : Error {
  BudgetExceeded(const std::string& what, bool memory)
      : Error(ErrorKind::Budget, what), memory_exhausted(memory) {}
  bool memory_exhausted;  // else the deadline passed
};

class Budget {
 public:
  using Clock = std::chrono::steady_clock;
  // Sets the process-wide budget (0 bytes: no memory ceiling).
  static void set(Clock::time_point deadline, size_t max_bytes);
  static void clear();  // no deadline, no ceiling
  // Cheap: counts calls and checks the clock and memory every 1024th. Throws BudgetExceeded.
  // The count is per thread (each checks every 1024th of its own calls): a shared atomic
  // counter cost a locked add on every e-graph insertion.
  static void tick() {
    if ((ticks_++ & 1023) == 0) check();
  }
  static void check();
  // The deadline in force (a stage's share, or the run's); Clock::time_point::max() with none.
  static Clock::time_point deadline();
  static size_t resident_bytes();  // this process's resident set, from /proc/self/statm
  static size_t max_bytes();

 private:
  static inline thread_local uint64_t ticks_ = 0;
};

// Within a scope, a deadline no later than `deadline` (a stage's share of the run's), restoring
// the run's after it (exceptions included). outer_passed(): whether the run's own has passed
// too, so that a BudgetExceeded is the run's, not only the share's.
class TighterDeadline {
 public:
  explicit TighterDeadline(Budget::Clock::time_point deadline);
  ~TighterDeadline();
  bool outer_passed() const;
  TighterDeadline(const TighterDeadline&) = delete;
  TighterDeadline& operator=(const TighterDeadline&) = delete;

 private:
  int64_t outer_ns_;
};

// Sets a budget for a scope and restores "none" after it (exceptions included).
class BudgetScope {
 public:
  BudgetScope(Budget::Clock::time_point deadline, size_t max_bytes) {
    Budget::set(deadline, max_bytes);
  }
  ~BudgetScope() { Budget::clear(); }
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
};

}  // namespace keq::ir
