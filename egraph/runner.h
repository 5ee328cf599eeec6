// The equality-saturation loop: egg's Runner with its limits and backoff scheduler.
//
// Each iteration: check limits, run the hook (a goal check), search every rule, apply every
// match, rebuild. The iteration that stops on the hook still rebuilds and is counted, as in egg.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "egraph/rewrite.h"

namespace keq::egraph {

struct RunnerLimits {
  size_t iter_limit = 30;
  size_t node_limit = 10000;  // hash-cons entries
  double time_limit_s = 5.0;
  // Count the node limit as egg does, stale memo keys included (for like-for-like benchmarks).
  bool egg_node_count = false;
};

enum class StopReason { Saturated, IterationLimit, NodeLimit, TimeLimit, Goal, Canary };
inline const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Saturated:
      return "saturated";
    case StopReason::IterationLimit:
      return "iteration limit";
    case StopReason::NodeLimit:
      return "node limit";
    case StopReason::TimeLimit:
      return "time limit";
    case StopReason::Goal:
      return "goal proved";
    case StopReason::Canary:
      return "canary: distinct constants merged";
  }
  return "?";
}

enum class SchedulerKind { Backoff, Simple };

struct IterationStats {
  size_t memo_size = 0, classes = 0, applied = 0;
  double search_s = 0, apply_s = 0, rebuild_s = 0;
};

struct RunReport {
  StopReason stop = StopReason::Saturated;
  std::vector<IterationStats> iterations;
  double total_s = 0;
  std::string canary;  // what merged and which rules were running
};

// egg's BackoffScheduler: a rule matching more than its threshold in one iteration is banned
// for a while; each ban doubles both its threshold and its length.
class BackoffScheduler {
 public:
  BackoffScheduler(size_t n_rules, size_t match_limit = 1000, size_t ban_length = 5)
      : stats_(n_rules), match_limit_(match_limit), ban_length_(ban_length) {}

  bool banned(size_t rule, size_t iteration) const { return stats_[rule].banned_until > iteration; }
  size_t threshold(size_t rule) const { return match_limit_ << stats_[rule].times_banned; }
  // Records a search that found `n` matches; returns false when the rule gets banned.
  bool admit(size_t rule, size_t iteration, size_t n) {
    RuleStats& s = stats_[rule];
    if (n <= threshold(rule)) return true;
    s.banned_until = iteration + (ban_length_ << s.times_banned);
    ++s.times_banned;
    return false;
  }
  // Saturated under the unbanned rules: stop if nothing is banned, else fast-forward the bans.
  bool can_stop(size_t iteration) {
    size_t min_ban = SIZE_MAX;
    for (const RuleStats& s : stats_)
      if (s.banned_until > iteration) min_ban = std::min(min_ban, s.banned_until);
    if (min_ban == SIZE_MAX) return true;
    size_t delta = min_ban - iteration;
    for (RuleStats& s : stats_)
      if (s.banned_until > iteration) s.banned_until -= delta;
    return false;
  }

 private:
  struct RuleStats {
    size_t times_banned = 0, banned_until = 0;
  };
  std::vector<RuleStats> stats_;
  size_t match_limit_, ban_length_;
};

template <class L>
class Runner {
 public:
  using Hook = std::function<bool(EGraph<L>&)>;  // true: stop (goal reached)

  Runner(RunnerLimits limits = {}, SchedulerKind sched = SchedulerKind::Backoff)
      : limits_(limits), sched_(sched) {}

  RunReport run(EGraph<L>& g, const std::vector<Rewrite<L>>& rules, const Hook& hook = nullptr) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    // The clock is read after a rule only when the graph is large or the rule matched much:
    // below that a search and its apply take microseconds, and reading it twice per rule was
    // 12% of a light workload (perf). Iteration and node limits are checked every time.
    auto clock_if_heavy = [&](const EGraph<L>& eg, size_t matched) {
      return eg.num_ids() >= kHeavyIds || matched >= kHeavyMatches ? elapsed() : 0.0;
    };
    BackoffScheduler backoff(rules.size());
    RunReport rep;
    g.rebuild();
    std::vector<Matches> matches(rules.size());
    Matcher<L> matcher(g);  // one for every rule, kept across iterations with its buffers
    absl::flat_hash_set<uint64_t> applied;  // matches whose union is done (Rewrite::apply)
    // Semi-naive: a rule whose every match of its last applied search was applied looks only
    // at matches using a node changed since (EGraph::begin_epoch); the others would only be
    // found and skipped again. The simple scheduler searches for those alone; the backoff
    // scheduler bans a rule by its full match count, as egg does, so it finds every match and
    // applies the new ones (a match already applied has its union: classes only merge).
    std::vector<uint16_t> since(rules.size(), 0);
    std::vector<bool> searched(rules.size(), false);  // this iteration, and not banned
    const auto how =
        sched_ == SchedulerKind::Simple ? Matcher<L>::Since::Only : Matcher<L>::Since::Mark;
    for (size_t it = 0;; ++it) {
      std::optional<StopReason> stop = check_limits(g, rep, elapsed());
      if (!stop && hook && hook(g)) stop = StopReason::Goal;
      IterationStats st;
      const uint16_t epoch = g.begin_epoch();
      auto t0 = Clock::now();
      for (size_t r = 0; r < rules.size() && !stop; ++r) {
        matches[r].roots.clear();
        matches[r].substs.clear();
        matches[r].fresh.clear();
        searched[r] = false;
        if (sched_ == SchedulerKind::Backoff && backoff.banned(r, it)) continue;
        size_t limit = sched_ == SchedulerKind::Backoff ? backoff.threshold(r) + 1 : SIZE_MAX;
        matcher.search_into(rules[r].lhs, matches[r], limit, since[r], how);
        searched[r] = true;
        if (sched_ == SchedulerKind::Backoff && !backoff.admit(r, it, matches[r].size())) {
          matches[r].roots.clear();
          matches[r].substs.clear();
          matches[r].fresh.clear();
          searched[r] = false;  // banned: its matches are dropped, not applied
        }
        stop = check_limits(g, rep, clock_if_heavy(g, matches[r].size()));
      }
      auto t1 = Clock::now();
      const size_t memo_before = g.memo_size(), classes_before = g.num_classes();
      // Room for every match found to be recorded: the set grew by doubling within an apply
      // phase, rehashing at each step (a twentieth of a long run, perf).
      size_t to_apply = 0;
      for (const Matches& m : matches)  // (the ones marked old are skipped, not recorded)
        to_apply += m.fresh.empty() ? m.size() : std::count(m.fresh.begin(), m.fresh.end(), 1);
      applied.reserve(applied.size() + to_apply);
      for (size_t r = 0; r < rules.size() && !stop; ++r) {
        Applied done = rules[r].apply(g, matches[r], static_cast<uint32_t>(r), &applied);
        st.applied += done.changed;
        if (searched[r]) since[r] = done.deferred ? 0 : epoch;
        if (auto msg = canary(g)) {
          rep.canary = *msg + " (while applying rule " + rules[r].name + ")";
          stop = StopReason::Canary;
        }
        if (!stop) stop = check_limits(g, rep, clock_if_heavy(g, matches[r].size()));
      }
      auto t2 = Clock::now();
      g.rebuild();
      auto t3 = Clock::now();
      if (!stop) {
        if (auto msg = canary(g)) {
          rep.canary = *msg + " (in the rebuild of iteration " + std::to_string(it) + ")";
          stop = StopReason::Canary;
        }
      }
      st.search_s = std::chrono::duration<double>(t1 - t0).count();
      st.apply_s = std::chrono::duration<double>(t2 - t1).count();
      st.rebuild_s = std::chrono::duration<double>(t3 - t2).count();
      st.memo_size = g.memo_size();
      st.classes = g.num_classes();
      rep.iterations.push_back(st);
      // Saturated: no rule changed anything. A new node merged by the analysis (a folded
      // constant) is a change too, though no rule's union did anything: it can enable matches.
      bool unchanged =
          st.applied == 0 && g.memo_size() == memo_before && g.num_classes() == classes_before;
      if (!stop && unchanged && (sched_ == SchedulerKind::Simple || backoff.can_stop(it)))
        stop = StopReason::Saturated;
      if (!stop) stop = check_limits(g, rep, elapsed());  // egg checks again after each iteration
      if (stop) {
        rep.stop = *stop;
        break;
      }
    }
    rep.total_s = elapsed();
    return rep;
  }

 private:
  static constexpr size_t kHeavyIds = 4096, kHeavyMatches = 256;
  std::optional<StopReason> check_limits(const EGraph<L>& g, const RunReport& rep, double t) const {
    if (rep.iterations.size() >= limits_.iter_limit) return StopReason::IterationLimit;
    size_t size = limits_.egg_node_count ? g.egg_total_size() : g.memo_size();
    if (size > limits_.node_limit) return StopReason::NodeLimit;
    if (t > limits_.time_limit_s) return StopReason::TimeLimit;
    return std::nullopt;
  }
  static std::optional<std::string> canary(const EGraph<L>& g) {
    if constexpr (requires { g.lang().canary(); }) {
      return g.lang().canary();
    } else {
      return std::nullopt;
    }
  }

  RunnerLimits limits_;
  SchedulerKind sched_;
};

}  // namespace keq::egraph
