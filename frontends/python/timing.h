// GPU timings a hand-rolled autotuner compares (torch.cuda.Event.elapsed_time): keq cannot know
// which way such a comparison goes on the GPU, so a run follows the outcomes it is given and
// records them, and verify runs every outcome (a guessed one could hide a wrong configuration).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace keq::python {

class TimingChoices {
 public:
  // At most this many comparisons keq cannot decide: every outcome of them is a run.
  static constexpr size_t kMax = 7;

  explicit TimingChoices(uint64_t choices = 0) : choices_(choices) {}

  // One side of a comparison: a timing elapsed_time() returned (its id, from 1), a timing
  // computed from timings (id 0, `derived`), or a constant.
  struct Side {
    int64_t timing = -1;  // -1: a constant
    double constant = 0;
  };
  // The outcome of `a op b` (op one of < <= > >= == !=): decided where every timing in
  // [0, inf) gives the same answer (ms < inf is always true), else the next bit of the choices,
  // recorded with `where` (file:line:col) for the report; none past kMax undecided ones.
  std::optional<bool> compare(const std::string& op, Side a, Side b, const std::string& where);
  // A fresh id for a timing elapsed_time() returns.
  int64_t next_timing() { return ++timings_; }

  size_t undecided() const { return made_.size(); }
  // Whether some timings give every recorded outcome: no cycle through a strict inequality
  // among timings and constants, no `!=` between two values the rest forces equal. `derived`:
  // a comparison read a computed timing, whose possibility this does not check.
  bool possible() const;
  bool derived() const { return derived_; }
  // "cand.py:144:12 true, cand.py:144:12 false": the outcomes taken, in order.
  std::string describe() const;

 private:
  struct Comparison {
    Side a, b;
    std::string op;
    bool outcome;
    std::string where;
  };
  uint64_t choices_;
  int64_t timings_ = 0;
  bool derived_ = false;
  std::vector<Comparison> made_;
};

}  // namespace keq::python
