#include "ir/budget.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace keq::ir {
namespace {

struct State {
  std::atomic<int64_t> deadline_ns{INT64_MAX};  // steady_clock ticks since its epoch
  std::atomic<size_t> max_bytes{0};
};
State& state() {
  static State s;
  return s;
}

}  // namespace

void Budget::set(Clock::time_point deadline, size_t max_bytes) {
  state().deadline_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
  state().max_bytes = max_bytes;
}

TighterDeadline::TighterDeadline(Budget::Clock::time_point deadline)
    : outer_ns_(state().deadline_ns) {
  int64_t ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
  state().deadline_ns = std::min(outer_ns_, ns);
}

TighterDeadline::~TighterDeadline() {
  state().deadline_ns = outer_ns_;
}

bool TighterDeadline::outer_passed() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             Budget::Clock::now().time_since_epoch())
             .count() > outer_ns_;
}

Budget::Clock::time_point Budget::deadline() {
  const int64_t ns = state().deadline_ns;
  if (ns == INT64_MAX) return Clock::time_point::max();
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(ns)));
}

void Budget::clear() {
  state().deadline_ns = INT64_MAX;
  state().max_bytes = 0;
}

size_t Budget::max_bytes() {
  return state().max_bytes;
}

size_t Budget::resident_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return static_cast<size_t>(resident) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

void Budget::check() {
  int64_t now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
  if (now > state().deadline_ns) throw BudgetExceeded("the --timeout was reached", false);
  size_t cap = state().max_bytes;
  // Reading /proc costs an open, a read and a close (~10 us): every 1024th tick of a tight loop
  // spent 28% of pair dedup there. Memory is read at most once a millisecond, in which a run
  // can grow by a few MB at most.
  thread_local int64_t last_memory_read_ns = 0;
  if (cap && now - last_memory_read_ns < 1'000'000) return;
  last_memory_read_ns = now;
  if (cap && resident_bytes() > cap)
    throw BudgetExceeded(
        "the memory budget (--max-memory " + std::to_string(cap >> 20) + " MiB) was reached", true);
}

}  // namespace keq::ir
