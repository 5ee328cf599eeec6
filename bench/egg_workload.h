// The egg math workloads: start terms, goals and runner settings from
// shared/bench/egg-math-workload.md, and one function that runs a workload as egg's tests do.
#pragma once

#include <string>
#include <vector>

#include "bench/math_lang.h"
#include "rules/rule_file.h"

namespace keq::bench {

struct Workload {
  std::string name;
  std::string start;
  std::string goal;       // empty: no goal check
  std::string pre_added;  // a term added before the start term
  egraph::RunnerLimits limits{};
  egraph::SchedulerKind scheduler = egraph::SchedulerKind::Backoff;
  std::vector<std::string> only_rules;  // empty: every rule
  bool analysis = true;
  bool explanations = false;
  bool must_prove = true;  // false: the goal must not be proved (math_fail)
};

inline std::vector<Workload> egg_workloads() {
  auto wl = [](std::string name, std::string start, std::string goal) {
    Workload w;
    w.name = std::move(name);
    w.start = std::move(start);
    w.goal = std::move(goal);
    return w;
  };
  const std::string root = "(/ 1 (- (/ (+ 1 (sqrt five)) 2) (/ (- 1 (sqrt five)) 2)))";
  const std::string harder = "(d x (- (pow x 3) (* 7 (pow x 2))))";
  std::vector<Workload> w;
  Workload adds = wl("math_associate_adds", "(+ 1 (+ 2 (+ 3 (+ 4 (+ 5 (+ 6 7))))))", "");
  adds.limits.iter_limit = 7;
  adds.scheduler = egraph::SchedulerKind::Simple;
  adds.only_rules = {"comm-add", "assoc-add"};
  adds.analysis = false;
  w.push_back(adds);
  w.push_back(wl("math_simplify_add", "(+ x (+ x (+ x x)))", "(* 4 x)"));
  w.push_back(wl("math_powers", "(* (pow 2 x) (pow 2 y))", "(pow 2 (+ x y))"));
  w.push_back(wl("math_simplify_const", "(+ 1 (- a (* (- 2 1) a)))", "1"));
  Workload sroot = wl("math_simplify_root", root, "(/ 1 (sqrt five))");
  sroot.limits.node_limit = 75000;
  w.push_back(sroot);
  w.push_back(wl("math_simplify_factor", "(* (+ x 3) (+ x 1))", "(+ (+ (* x x) (* 4 x)) 3)"));
  w.push_back(wl("math_diff_simple1", "(d x (+ 1 (* 2 x)))", "2"));
  w.push_back(wl("math_diff_simple2", "(d x (+ 1 (* y x)))", "y"));
  w.push_back(wl("diff_power_simple", "(d x (pow x 3))", "(* 3 (pow x 2))"));
  Workload dph = wl("diff_power_harder", harder, "(* x (- (* 3 x) 14))");
  dph.pre_added = dph.goal;
  dph.limits = {60, 100000, 10.0};
  w.push_back(dph);
  dph.name = "diff_power_harder_explain";
  dph.explanations = true;
  w.push_back(dph);
  w.push_back(wl("integ_part1", "(i (* x (cos x)) x)", "(+ (* x (sin x)) (cos x))"));
  w.push_back(wl("integ_part2", "(i (* (cos x) x) x)", "(+ (* x (sin x)) (cos x))"));
  w.push_back(wl("integ_part3", "(i (ln x) x)", "(- (* x (ln x)) x)"));
  Workload fail = wl("math_fail", "(+ x y)", "(/ x y)");
  fail.must_prove = false;
  w.push_back(fail);
  // Heavier runs: no goal, default limits.
  w.push_back(wl("heavy_simplify_root", root, ""));
  w.push_back(wl("heavy_diff_power_harder", harder, ""));
  w.push_back(wl("heavy_integ_part2", "(i (* (cos x) x) x)", ""));
  w.push_back(wl("heavy_integ_sin", "(i (cos x) x)", ""));
  w.push_back(wl("heavy_integ_part1", "(i (* x (cos x)) x)", ""));
  w.push_back(wl("heavy_ematch_poly", "(+ (* y (+ x y)) (- (+ x 2) (+ x x)))", ""));
  return w;
}

struct WorkloadResult {
  bool proved = false;
  egraph::RunReport report;
  size_t nodes = 0, classes = 0, memo = 0;
};

// Rules parsed once, shared by every run (as egg's rules are built once).
struct MathRules {
  std::shared_ptr<MathPools> pools = std::make_shared<MathPools>();
  std::vector<rules::Rule<MathLang>> all;
  explicit MathRules(const std::string& path) {
    MathLang lang(pools);
    all = rules::RuleParser<MathLang>(lang).parse_file(path);
  }
  std::vector<egraph::Rewrite<MathLang>> select(const std::vector<std::string>& names) const {
    std::vector<egraph::Rewrite<MathLang>> out;
    for (const auto& r : all)
      if (names.empty() || std::find(names.begin(), names.end(), r.rewrite.name) != names.end())
        out.push_back(r.rewrite);
    return out;
  }
};

inline WorkloadResult run_workload(const Workload& w, const MathRules& rules,
                                   const std::vector<egraph::Rewrite<MathLang>>& rws) {
  EGraph<MathLang> g(MathLang(rules.pools, w.analysis), w.explanations);
  auto parse = [&](const std::string& s) {
    return g.lang().term(ir::parse_sexprs(s, w.name).at(0));
  };
  std::optional<egraph::RecExpr> goal;
  if (!w.goal.empty()) goal = parse(w.goal);
  if (!w.pre_added.empty()) g.add_expr(parse(w.pre_added));
  EClassId root = g.add_expr(parse(w.start));
  egraph::RunnerLimits limits = w.limits;
  limits.egg_node_count = true;  // stop where egg stops, so both do the same work
  egraph::Runner<MathLang> runner(limits, w.scheduler);
  WorkloadResult res;
  egraph::Runner<MathLang>::Hook hook;
  if (goal) {
    hook = [&](EGraph<MathLang>& eg) {
      auto c = eg.lookup_expr(*goal);
      return c && *c == eg.find(root);
    };
  }
  res.report = runner.run(g, rws, hook);
  res.proved = res.report.stop == egraph::StopReason::Goal;
  res.nodes = g.num_nodes();
  res.classes = g.num_classes();
  res.memo = g.memo_size();
  return res;
}

}  // namespace keq::bench
