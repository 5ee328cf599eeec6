// The case split on thresholds (two stages of Pipeline: before the e-graph for pairs whose two
// sides cut at different constants, after the witness search for the open pairs left).
//
// Kernels cut a function off at a threshold: `where(x > 20, x, log(1 + exp(x)))` for softplus,
// `where(x < -20, 0, ...)`. Over the reals the cut changes the value, so the pair is proved only
// when something after it makes the change vanish, such as a clamp that saturates on both sides
// (hardtanh after mish is 1 for every x > 20, cut or not). Neither the e-graph (it has no
// case analysis) nor Z3 (exp and log are uninterpreted) can see that.
//
// So: take the term t a pair compares with constants c1 < ... < ck (anywhere: a select's
// condition, an `and` of two, a mask; a max or min of t with a constant is a cut too), and split
// the extended reals into the open intervals between
// them and the points themselves. On each piece every such comparison has one value, so each branch
// resolves. A piece is settled when the resolved sides are proved equal by the e-graph, or when
// both sides, with t ranging over the piece (as a variable of its own, which only widens what they
// can be), enclose one and the same point. The pair is proved when every piece is settled. Sound
// without knowing how t depends on the inputs: every input puts t in exactly one piece, where both
// sides agree.
#include <algorithm>
#include <set>

#include "ir/budget.h"
#include "ir/enclosure.h"
#include "verify/pipeline.h"

namespace keq::verify::internal {
namespace {

constexpr size_t kMaxThresholds = 4;        // 9 pieces
constexpr size_t kMaxNodesPerPair = 20000;  // past it the walk is not worth a likely miss
constexpr size_t kMaxBranchConditions = 6;  // 64 combinations

bool is_order(ir::Op op) {
  return op == ir::Op::Lt || op == ir::Op::Le || op == ir::Op::Gt || op == ir::Op::Ge;
}

bool is_extremum(ir::Op op) {
  return op == ir::Op::Max || op == ir::Op::MaxNum || op == ir::Op::Min || op == ir::Op::MinNum;
}

// A comparison of a non-constant fp32 term with an fp32 constant, either way round, or the
// maximum or minimum of the two (`tl.maximum(amax, eps)`: a piece decides which it is).
struct Threshold {
  TermId term;
  double value;
};
std::optional<Threshold> threshold_of(const ir::TermStore& s, TermId cond) {
  if (!is_order(s.op(cond)) && !is_extremum(s.op(cond))) return std::nullopt;
  auto kids = s.children(cond);
  auto is_const = [&](TermId t) {
    return s.op(t) == ir::Op::Const && s.type(t) == ir::Type::F32 &&
           std::isfinite(s.constant_of(t).f);
  };
  if (is_const(kids[1]) && !is_const(kids[0]) && s.type(kids[0]) == ir::Type::F32)
    return Threshold{kids[0], s.constant_of(kids[1]).f};
  if (is_const(kids[0]) && !is_const(kids[1]) && s.type(kids[1]) == ir::Type::F32)
    return Threshold{kids[1], s.constant_of(kids[0]).f};
  return std::nullopt;
}

// Every comparison with a constant under the roots, by the term it compares; empty when the terms
// are large or the run's walking budget is spent. All of them, not only selects' conditions: a
// piece must decide every comparison of the split term it resolves (resolve_on resolves only
// these constants).
// `compared`: the terms an order comparison (not only a max or min) reads, the ones worth
// splitting: a clamp's input alone is for the e-graph.
struct Thresholds {
  std::map<TermId, std::set<double>> cuts;
  std::set<TermId> compared;
  bool operator==(const Thresholds&) const = default;
};
// Visits each term under the roots once; false when they are large or the run's walking
// budget is spent (the walk then stops).
template <class Visit>
bool walk_terms(const ir::TermStore& s, std::vector<TermId> stack, size_t& budget, Visit&& visit) {
  absl::flat_hash_set<TermId> seen;
  while (!stack.empty()) {
    TermId t = stack.back();
    stack.pop_back();
    if (!seen.insert(t).second) continue;
    if (seen.size() > kMaxNodesPerPair || budget == 0) return false;
    --budget;
    visit(t);
    for (TermId k : s.children(t)) stack.push_back(k);
  }
  return true;
}

Thresholds thresholds_in(const ir::TermStore& s, std::vector<TermId> roots, size_t& budget) {
  Thresholds out;
  bool whole = walk_terms(s, std::move(roots), budget, [&](TermId t) {
    if (auto th = threshold_of(s, t)) {
      out.cuts[th->term].insert(th->value);
      if (is_order(s.op(t))) out.compared.insert(th->term);
    }
  });
  return whole ? out : Thresholds{};
}

// One piece of the extended reals: the point {lo} or the open interval (lo, hi), whose ends
// may be infinite (the piece then holds that infinity too: a comparison with a finite constant
// decides the same there). No threshold lies inside an open piece.
struct Piece {
  double lo, hi;
  bool point;
  // A value inside the piece: every comparison with a threshold decides there as on all of it.
  double inside() const {
    if (point) return lo;
    if (std::isinf(lo)) return hi - std::max(1.0, std::abs(hi));
    if (std::isinf(hi)) return lo + std::max(1.0, std::abs(lo));
    return lo / 2 + hi / 2;
  }
  // Its values as an enclosure; `finite`: the split term is finite for every input, so an
  // infinite end is a bound, never a value.
  ir::Enclosure enclosure(bool finite) const {
    ir::Enclosure e = ir::Enclosure::any(ir::Type::F32);
    e.lo = ir::Real(lo);
    e.hi = ir::Real(hi);
    e.nan = false;
    e.finite = finite;
    return e;
  }
};

// Whether the split term's values (`range`, a rigorous enclosure over the inputs' domains) meet
// the piece: one they cannot reach holds no input, so nothing is to prove there (a clamp at 1e-12
// of a softmax output, which the inputs keep far above it).
bool meets(const ir::Enclosure& range, const Piece& p) {
  if (!range.real) return true;
  if (p.point)
    return mpfr_cmp_d(range.lo.get(), p.lo) <= 0 && mpfr_cmp_d(range.hi.get(), p.lo) >= 0;
  return mpfr_cmp_d(range.hi.get(), p.lo) > 0 && mpfr_cmp_d(range.lo.get(), p.hi) < 0;
}

bool holds(ir::Op op, double a, double b) {
  switch (op) {
    case ir::Op::Lt:
      return a < b;
    case ir::Op::Le:
      return a <= b;
    case ir::Op::Gt:
      return a > b;
    default:
      return a >= b;
  }
}

std::vector<Piece> pieces_of(const std::set<double>& cuts) {
  std::vector<Piece> out;
  double prev = -ir::Interval::kInf;
  for (double c : cuts) {
    out.push_back({prev, c, false});
    out.push_back({c, c, true});
    prev = c;
  }
  out.push_back({prev, ir::Interval::kInf, false});
  return out;
}

// t over its rebuilt children `next`: a select whose condition became a constant is the branch
// it picks; t itself where no child changed.
TermId rebuilt(ir::TermStore& s, TermId t, std::span<const TermId> next) {
  if (s.op(t) == ir::Op::Select && s.op(next[0]) == ir::Op::Const)
    return s.constant_of(next[0]).i ? next[1] : next[2];
  auto kids = s.children(t);
  return std::equal(kids.begin(), kids.end(), next.begin()) ? t : s.make(s.op(t), next);
}

// root with every comparison of `split` against one of the cuts decided on the piece, and every
// select whose condition that makes constant resolved; `as` (when set) replaces `split` itself.
TermId resolve_on(ir::TermStore& s, TermId root, TermId split, const std::set<double>& cuts,
                  const Piece& piece, std::optional<TermId> as,
                  absl::flat_hash_map<TermId, TermId>& memo) {
  auto replace = [&](TermId t) -> std::optional<TermId> {
    if (t == split) return as;
    // |t| where 0 is a cut: t or -t on the piece (a tanh written sign(x) (1 - e^-2|x|) / ...).
    if (s.op(t) == ir::Op::Abs && s.children(t)[0] == split && cuts.contains(0.0)) {
      TermId x = as.value_or(split);
      return piece.inside() >= 0 ? x : s.make(ir::Op::Neg, {x});
    }
    auto th = threshold_of(s, t);
    // A constant that is not a cut may lie inside the piece, where its comparison varies.
    if (!th || th->term != split || !cuts.contains(th->value)) return std::nullopt;
    double x = piece.inside();
    ir::Op op = s.op(t);
    if (is_extremum(op)) {  // the split where it is the larger (max) or smaller (min), else c
      bool is_max = op == ir::Op::Max || op == ir::Op::MaxNum;
      bool split_wins = is_max ? x >= th->value : x <= th->value;
      TermId c = s.children(t)[0] == split ? s.children(t)[1] : s.children(t)[0];
      return split_wins ? as.value_or(split) : c;
    }
    bool c_left = s.children(t)[0] != split;
    bool value = c_left ? holds(op, th->value, x) : holds(op, x, th->value);
    return s.constant(ir::Constant::of_bool(value));
  };
  return rewrite_terms(s, root, memo, replace,
                       [&](TermId t, std::span<const TermId> next) { return rebuilt(s, t, next); });
}

// Both sides, with `split` a variable ranging over the piece, enclose the same single point.
// `finite`: split is finite for every input.
bool same_point_on(ir::TermStore& s, const Pair& p, TermId split, const std::set<double>& cuts,
                   const Piece& piece, bool finite, const ir::EnclosureRangeEnv& inputs) {
  constexpr const char* kName = "keq.case_split";
  TermId v = s.variable(kName, ir::Type::F32);
  absl::flat_hash_map<TermId, TermId> memo;
  TermId a = resolve_on(s, p.ref, split, cuts, piece, v, memo);
  TermId b = resolve_on(s, p.cand, split, cuts, piece, v, memo);
  auto range = [&](const ir::Variable& var) -> std::optional<ir::Enclosure> {
    return var.name == kName ? std::optional(piece.enclosure(finite)) : inputs(var);
  };
  ir::Enclosure ea = ir::evaluate_enclosure_over(s, a, range);
  ir::Enclosure eb = ir::evaluate_enclosure_over(s, b, range);
  return ea.real && eb.real && !ea.nan && !eb.nan && ea.is_point() && eb.is_point() &&
         mpfr_equal_p(ea.lo.get(), eb.lo.get());
}

// The conditions of selects under the roots that are no comparison with a constant: a kernel's
// branch on its data (`if val > max_val:` in an online logsumexp), which the split on thresholds
// leaves. In first-seen order; empty when the terms are large or the walking budget is spent.
std::vector<TermId> branch_conditions(const ir::TermStore& s, std::vector<TermId> roots,
                                      size_t& budget) {
  std::vector<TermId> out;
  bool whole = walk_terms(s, std::move(roots), budget, [&](TermId t) {
    if (s.op(t) != ir::Op::Select) return;
    TermId c = s.children(t)[0];
    if (s.op(c) != ir::Op::Const && !threshold_of(s, c) &&
        std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  });
  return whole ? out : std::vector<TermId>{};
}

// root with each condition of `values` taken as its value there, and the selects it decides
// resolved.
TermId resolve_branches(ir::TermStore& s, TermId root,
                        const absl::flat_hash_map<TermId, bool>& values,
                        absl::flat_hash_map<TermId, TermId>& memo) {
  auto replace = [&](TermId t) -> std::optional<TermId> {
    auto it = values.find(t);
    if (it == values.end()) return std::nullopt;
    return s.constant(ir::Constant::of_bool(it->second));
  };
  return rewrite_terms(s, root, memo, replace,
                       [&](TermId t, std::span<const TermId> next) { return rebuilt(s, t, next); });
}

}  // namespace

// Whether any comparison (or max, min) of an fp32 term with a constant lies under t, memoized over
// the whole store: a pair without one is never walked. Walking each pair's terms instead cost a
// softmax row of 16,384 (as many pairs, each a sum of 16,384 exps) 20 times its whole run.
bool Pipeline::reaches_threshold(TermId root) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    ir::Budget::tick();
    auto [t, expanded] = stack.back();
    if (reaches_threshold_.contains(t)) {
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (TermId k : store_.children(t))
        if (!reaches_threshold_.contains(k)) stack.push_back({k, false});
      continue;
    }
    stack.pop_back();
    bool any = threshold_of(store_, t).has_value();
    for (TermId k : store_.children(t)) any = any || reaches_threshold_.at(k);
    reaches_threshold_[t] = any;
  }
  return reaches_threshold_.at(root);
}

// Before the e-graph: the pairs whose two sides cut at different constants (a softplus cut at 20
// against torch's exact mish). The e-graph cannot prove them whole and may spend its budget
// trying (15 s a configuration on LLMKernel's L2 16); a pair whose sides branch alike it proves
// whole, and it is left to it.
bool Pipeline::early_threshold_cases() {
  if (!opt_.use_egraph || opt_.semantics != ir::Semantics::Real) return true;
  proved_.assign(pairs_.size(), false);
  case_tried_.assign(pairs_.size(), false);
  std::vector<size_t> uneven;
  for (size_t k = 0; k < pairs_.size(); ++k)
    if ((reaches_threshold(pairs_[k].ref) || reaches_threshold(pairs_[k].cand)) &&
        thresholds_in(store_, {pairs_[k].ref}, walk_budget_) !=
            thresholds_in(store_, {pairs_[k].cand}, walk_budget_))
      uneven.push_back(k);
  for (size_t k : split_on_thresholds(uneven)) proved_[k] = true;
  return true;
}

// After the witness search: the open pairs not tried before the e-graph.
bool Pipeline::threshold_cases() {
  if (!opt_.use_egraph || open_.empty() || r_.counterexample || timed_out_ ||
      opt_.semantics != ir::Semantics::Real)
    return true;
  std::vector<size_t> untried;
  for (size_t k : open_)
    if (k >= case_tried_.size() || !case_tried_[k]) untried.push_back(k);
  std::set<size_t> settled = split_on_thresholds(untried);
  for (size_t k : settled) proved_[k] = true;
  std::erase_if(open_, [&](size_t k) { return settled.contains(k); });
  return true;
}

std::set<size_t> Pipeline::split_on_thresholds(const std::vector<size_t>& which, double seconds) {
  struct Split {
    size_t pair;
    std::vector<size_t> goals;  // the pieces the e-graph must settle
  };
  std::vector<Split> splits;
  std::vector<rules::Goal> goals;
  auto inputs = [this](const ir::Variable& v) { return input_range(v); };
  for (size_t k : which) {
    if (k < case_tried_.size()) case_tried_[k] = true;
    if (!reaches_threshold(pairs_[k].ref) && !reaches_threshold(pairs_[k].cand)) continue;
    Thresholds found = thresholds_in(store_, {pairs_[k].ref, pairs_[k].cand}, walk_budget_);
    // The compared term with the most constants (a softplus cut at both ends, say).
    auto best = found.cuts.end();
    for (auto it = found.cuts.begin(); it != found.cuts.end(); ++it)
      if (found.compared.contains(it->first) &&
          (best == found.cuts.end() || it->second.size() > best->second.size()))
        best = it;
    if (best == found.cuts.end() || best->second.size() > kMaxThresholds) continue;
    // The pieces cover the extended reals, not NaN, where every comparison is false: a split
    // term that may be NaN is not split.
    ir::Enclosure range = ir::evaluate_enclosure_over(store_, best->first, inputs);
    if (range.nan) continue;
    Split split{k, {}};
    for (const Piece& piece : pieces_of(best->second)) {
      if (!meets(range, piece)) continue;
      if (same_point_on(store_, pairs_[k], best->first, best->second, piece, range.surely_finite(),
                        inputs))
        continue;
      absl::flat_hash_map<TermId, TermId> memo;
      TermId a =
          resolve_on(store_, pairs_[k].ref, best->first, best->second, piece, std::nullopt, memo);
      TermId b =
          resolve_on(store_, pairs_[k].cand, best->first, best->second, piece, std::nullopt, memo);
      split.goals.push_back(goals.size());
      goals.push_back({a, b});
    }
    splits.push_back(std::move(split));
  }
  double remaining = seconds >= 0 ? seconds : opt_.timeout_s / 2 - elapsed();
  if (splits.empty() || remaining <= 0) return {};
  std::unique_ptr<rules::Proof> proof;
  if (!goals.empty()) {
    proof = prove_goals(goals, rules::kElementTerms, remaining);
    if (!proof->report.canary.empty()) return {};
  }
  std::set<size_t> settled;
  for (const Split& s : splits)
    if (std::all_of(s.goals.begin(), s.goals.end(), [&](size_t g) { return proof->proved(g); }))
      settled.insert(s.pair);
  r_.stats.cases_proved += settled.size();
  return settled;
}

// After the split on thresholds: the open pairs whose sides branch on their data. Each of up to
// six conditions is taken both ways, and a pair is proved when the e-graph proves every
// combination's resolved sides equal. Sound whatever the conditions mean: each input gives each
// condition one value, so its combination resolves every select as that input does. A
// combination no input reaches must be proved too, which only costs completeness. An online
// logsumexp that rescales its running sum only when a value passes its running maximum (DLBlas
// L2 42) keeps sum * e^max the same on either branch, which no rule sees through a select.
bool Pipeline::branch_cases() {
  if (!opt_.use_egraph || open_.empty() || r_.counterexample || timed_out_ ||
      opt_.semantics != ir::Semantics::Real)
    return true;
  struct Split {
    size_t pair;
    size_t first, count;  // its goals
  };
  std::vector<Split> splits;
  std::vector<rules::Goal> goals;
  auto inputs = [this](const ir::Variable& v) { return input_range(v); };
  for (size_t k : open_) {
    // A condition the inputs' domains decide (a finite maximum never -inf) is not split on.
    absl::flat_hash_map<TermId, bool> values;
    std::vector<TermId> open;
    for (TermId c : branch_conditions(store_, {pairs_[k].ref, pairs_[k].cand}, walk_budget_)) {
      ir::Enclosure e = ir::evaluate_enclosure_over(store_, c, inputs);
      if (e.type == ir::Type::Bool && e.ilo == e.ihi)
        values[c] = e.ilo != 0;
      else
        open.push_back(c);
    }
    if (open.empty() || open.size() > kMaxBranchConditions) continue;
    Split split{k, goals.size(), size_t{1} << open.size()};
    for (uint32_t bits = 0; bits < split.count; ++bits) {
      for (size_t c = 0; c < open.size(); ++c) values[open[c]] = bits >> c & 1;
      absl::flat_hash_map<TermId, TermId> memo;
      goals.push_back({resolve_branches(store_, pairs_[k].ref, values, memo),
                       resolve_branches(store_, pairs_[k].cand, values, memo)});
    }
    splits.push_back(split);
  }
  double remaining = opt_.timeout_s / 2 - elapsed();
  if (splits.empty() || remaining <= 0) return true;
  std::unique_ptr<rules::Proof> proof = prove_goals(goals, rules::kElementTerms, remaining);
  if (!proof->report.canary.empty()) return true;
  std::set<size_t> settled;
  for (const Split& sp : splits) {
    bool all = true;
    for (size_t g = sp.first; g < sp.first + sp.count && all; ++g) all = proof->proved(g);
    if (all) settled.insert(sp.pair);
  }
  for (size_t k : settled) proved_[k] = true;
  std::erase_if(open_, [&](size_t k) { return settled.contains(k); });
  r_.stats.cases_proved += settled.size();
  r_.stats.branches_proved += settled.size();
  return true;
}

// Whether t >= c (at_least) or t <= c for every input in the inputs' domains. Its enclosure
// decides where it can; where that is too wide, t is bounded piece by piece over a term it
// compares with constants, its additive constant peeled (hardswish's y * clamp(y + 3, 0, 6) / 6
// lies in [-3, 3] for y in [-3, 3], is 0 below and y above, so it is at least -3, which the
// enclosure over y alone, any real, cannot say). Sound: every input puts the split term in one
// piece, over which it ranges as a variable of its own, which only widens the bound.
bool Pipeline::surely_bounded(TermId t, double c, bool at_least) {
  auto inputs = [this](const ir::Variable& v) { return input_range(v); };
  auto beyond = [&](const ir::Enclosure& e) {
    return e.real && !e.nan &&
           (at_least ? mpfr_cmp_d(e.lo.get(), c) >= 0 : mpfr_cmp_d(e.hi.get(), c) <= 0);
  };
  if (beyond(ir::evaluate_enclosure_over(store_, t, inputs))) return true;
  Thresholds found = thresholds_in(store_, {t}, walk_budget_);
  constexpr const char* kName = "keq.bound_split";
  TermId v = store_.variable(kName, ir::Type::F32);
  for (const auto& [term, cuts] : found.cuts) {
    if (cuts.size() > kMaxThresholds) continue;
    TermId split = term;  // y + k compared with c is y compared with c - k
    double shift = 0;
    auto kids = store_.children(term);
    if (store_.op(term) == ir::Op::Add && kids.size() == 2)
      for (int side : {0, 1})
        if (store_.op(kids[side]) == ir::Op::Const && store_.type(kids[side]) == ir::Type::F32 &&
            std::isfinite(store_.constant_of(kids[side]).f))
          split = kids[1 - side], shift = store_.constant_of(kids[side]).f;
    ir::Enclosure range = ir::evaluate_enclosure_over(store_, split, inputs);
    if (range.nan) continue;
    std::set<double> shifted;
    for (double x : cuts) shifted.insert(x - shift);
    absl::flat_hash_map<TermId, TermId> memo;
    TermId u = rewrite_terms(
        store_, t, memo, [&](TermId x) { return x == split ? std::optional(v) : std::nullopt; });
    bool all = true;
    for (const Piece& piece : pieces_of(shifted)) {
      if (!meets(range, piece)) continue;
      auto over = [&](const ir::Variable& var) -> std::optional<ir::Enclosure> {
        return var.name == kName ? std::optional(piece.enclosure(range.surely_finite()))
                                 : inputs(var);
      };
      if (!(all = beyond(ir::evaluate_enclosure_over(store_, u, over)))) break;
    }
    if (all) return true;
  }
  return false;
}

}  // namespace keq::verify::internal
