// check_batch: a stage's queries in a child process that is killed at the deadline.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <thread>

#include "ir/budget.h"
#include "smt/smt.h"

namespace keq::smt {

namespace {

using Clock = std::chrono::steady_clock;
using Emit = std::function<void(size_t, const Result&, double)>;

// The queries, `jobs` at a time; each query's share of the time is taken when it starts, from
// what is left (a share fixed at the start let the time outside Z3's timer add up, past the end).
void run_queries(const ir::TermStore& store, const Batch& b,
                 const std::function<VarRange(ir::TermId)>& range, const Emit& emit) {
  size_t jobs = std::max<size_t>(1, std::min(b.jobs, b.pairs.size()));
  auto start = Clock::now();
  auto share_ms = [&](size_t n) {
    double used = std::chrono::duration<double>(Clock::now() - start).count();
    double rounds = std::ceil(static_cast<double>(b.pairs.size() - n) / static_cast<double>(jobs));
    // Clamped: an unbounded time (inf) must not reach the cast (UBSan found it).
    return static_cast<unsigned>(std::clamp(1000 * (b.seconds - used) / rounds, 0.0, 1e9));
  };
  ProvedConditions proved;  // one store, one range function: shared by the queries
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t n; (n = next++) < b.pairs.size();) {
      auto t0 = Clock::now();
      auto [x, y] = b.pairs[n];
      unsigned ms = share_ms(n);
      Result res;
      if (ms == 0) {
        res.reason = "Z3: no time left of --timeout for this query";
      } else {
        try {  // a worker thread must not let the budget's exception escape it
          res = b.ieee ? check_equal_ieee(store, x, y, range, ms)
                       : check_equal(store, x, y, range, ms, {}, &proved);
        } catch (const ir::BudgetExceeded& e) {
          res.reason = e.what();
        }
      }
      emit(n, res, std::chrono::duration<double>(Clock::now() - t0).count());
    }
  };
  std::vector<std::thread> threads;
  for (size_t j = 1; j < jobs; ++j) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

// One answer as bytes: n, outcome, refinements, split points, seconds, reason, model.
template <typename T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string encode(size_t n, const Result& r, double seconds) {
  std::string body;
  put(body, static_cast<uint64_t>(n));
  put(body, static_cast<uint8_t>(r.outcome));
  put(body, r.refinements);
  put(body, r.split_points);
  put(body, seconds);
  put(body, static_cast<uint64_t>(r.reason.size()));
  body += r.reason;
  put(body, static_cast<uint64_t>(r.model.size()));
  for (const auto& [t, v] : r.model) {
    put(body, t);
    put(body, v);
  }
  std::string rec;
  put(rec, static_cast<uint64_t>(body.size()));
  return rec + body;
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  template <typename T>
  T get() {
    T v{};
    if (s_.size() < sizeof v) throw std::runtime_error("short record");
    std::memcpy(&v, s_.data(), sizeof v);
    s_.remove_prefix(sizeof v);
    return v;
  }
  std::string text(size_t n) {
    if (s_.size() < n) throw std::runtime_error("short record");
    std::string t(s_.substr(0, n));
    s_.remove_prefix(n);
    return t;
  }
  bool done() const { return s_.empty(); }

 private:
  std::string_view s_;
};

// The complete records in `bytes` into `out`.
void decode(const std::string& bytes, std::vector<BatchAnswer>& out) {
  Reader in(bytes);
  while (!in.done()) {
    uint64_t size = in.get<uint64_t>();
    std::string record = in.text(size);  // the Reader views it: it must outlive the Reader
    Reader rec(record);
    uint64_t n = rec.get<uint64_t>();
    if (n >= out.size()) throw std::runtime_error("record out of range");
    BatchAnswer& a = out[n];
    a.answered = true;
    a.result.outcome = static_cast<Outcome>(rec.get<uint8_t>());
    a.result.refinements = rec.get<unsigned>();
    a.result.split_points = rec.get<unsigned>();
    a.seconds = rec.get<double>();
    a.result.reason = rec.text(rec.get<uint64_t>());
    for (uint64_t k = rec.get<uint64_t>(); k > 0; --k) {
      auto t = rec.get<ir::TermId>();
      a.result.model[t] = rec.get<double>();
    }
  }
}

bool write_all(int fd, const std::string& s) {
  for (size_t done = 0; done < s.size();) {
    ssize_t w = write(fd, s.data() + done, s.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}

// Reads the child's answers until it closes the pipe or `until` passes; true: it closed it.
bool read_until(int fd, Clock::time_point until, std::string& bytes) {
  char buf[1 << 16];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the clock decides
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return true;
    bytes.append(buf, static_cast<size_t>(r));
  }
}

std::vector<BatchAnswer> in_process(const ir::TermStore& store, const Batch& b,
                                    const std::function<VarRange(ir::TermId)>& range) {
  std::vector<BatchAnswer> out(b.pairs.size());
  std::mutex m;
  run_queries(store, b, range, [&](size_t n, const Result& r, double s) {
    std::lock_guard lock(m);
    out[n] = {r, s, true};
  });
  return out;
}

}  // namespace

std::vector<BatchAnswer> check_batch(const ir::TermStore& store, const Batch& b,
                                     const std::function<VarRange(ir::TermId)>& range) {
  if (b.pairs.empty()) return {};
  const auto began = Clock::now();
  auto until = began + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(std::min(b.seconds, 1e7) + 1.0));
  int fds[2];
  if (!b.isolate || pipe(fds) != 0) return in_process(store, b, range);
  pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return in_process(store, b, range);
  }
  if (child == 0) {  // the child: answers down the pipe, then gone without destructors
    close(fds[0]);
    std::mutex m;
    bool ok = true;
    try {  // nothing may unwind past here: the child would go on as keq
      run_queries(store, b, range, [&](size_t n, const Result& r, double s) {
        std::lock_guard lock(m);
        ok = ok && write_all(fds[1], encode(n, r, s));
      });
    } catch (...) {
      ok = false;
    }
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  std::string bytes;
  bool closed = read_until(fds[0], until, bytes);
  close(fds[0]);
  if (!closed) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::vector<BatchAnswer> out(b.pairs.size());
  std::string why = !closed ? "Z3 overran its share of --timeout without stopping; keq ended it"
                    : WIFSIGNALED(status) ? "Z3 ended by signal " + std::to_string(WTERMSIG(status))
                                          : "Z3's process ended before answering";
  try {
    decode(bytes, out);
  } catch (const std::runtime_error&) {  // a record cut short by the kill: the rest is open
  }
  // The time the unanswered queries took goes to the first of them (the one Z3 was on, where
  // queries run one at a time): the report's Z3 seconds said 0.000 for a query that ran a minute.
  double answered_s = 0;
  for (const BatchAnswer& a : out) answered_s += a.answered ? a.seconds : 0;
  const double wall_s = std::chrono::duration<double>(Clock::now() - began).count();
  bool first = true;
  for (BatchAnswer& a : out)
    if (!a.answered) {
      a.result.reason = why;
      if (first) a.seconds = std::max(0.0, wall_s - answered_s / std::max<size_t>(1, b.jobs));
      first = false;
    }
  return out;
}

}  // namespace keq::smt
