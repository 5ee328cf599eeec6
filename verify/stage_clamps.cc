// Clamps that cannot bite, removed before the e-graph (a stage of Pipeline).
//
// Kernels clamp a logsumexp's sum before its log, log(max(s, 1e-10)), where
// s = sum_i exp(a_i - M) and M is the maximum of the a_i: one term is exp(0) = 1 wherever M is
// finite, so s >= 1 and the clamp returns s. Neither the e-graph's intervals nor Z3 see it
// (each exp alone lies in (0, 1]), and the pair stayed UNKNOWN after the whole timeout
// (KernelBench L2 43). The clamp is replaced by s in the pair's terms: the value is the same for
// every input in the inputs' domain, so proofs and counterexamples over the new terms hold for
// the old.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>

#include "ir/enclosure.h"
#include "verify/pipeline.h"

namespace keq::verify::internal {
namespace {

bool is_max(ir::Op op) {
  return op == ir::Op::Max || op == ir::Op::MaxNum || op == ir::Op::AMax || op == ir::Op::TMax;
}

// A sum's terms with nested sums spread out (+ and sum alike).
std::vector<TermId> terms_of(const ir::TermStore& s, TermId t) {
  auto is_sum = [](ir::Op op) { return op == ir::Op::Sum || op == ir::Op::Add; };
  std::vector<TermId> out, stack{t};
  while (!stack.empty()) {
    TermId u = stack.back();
    stack.pop_back();
    if (!is_sum(s.op(u))) {
      out.push_back(u);
      continue;
    }
    auto kids = s.children(u);
    for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back(*k);
  }
  return out;
}

bool constant_at_least(const ir::TermStore& s, TermId t, double v) {
  return s.op(t) == ir::Op::Const && s.type(t) == ir::Type::F32 && s.constant_of(t).f >= v;
}

}  // namespace

// s is a sum of exp(a_i - M) (and nonnegative constants) over every argument a_i of the maximum
// M, which is finite for every input, and no a_i is NaN: then s >= 1.
bool Pipeline::sum_at_least_one(TermId sum) {
  const ir::TermStore& s = store_;
  if (s.op(sum) != ir::Op::Sum && s.op(sum) != ir::Op::Add) return false;
  std::optional<TermId> max;
  absl::flat_hash_set<TermId> exponents;  // the a_i
  for (TermId term : terms_of(s, sum)) {
    if (constant_at_least(s, term, 0)) continue;
    if (s.op(term) != ir::Op::Exp || s.op(s.children(term)[0]) != ir::Op::Sub) return false;
    auto diff = s.children(s.children(term)[0]);
    if (!is_max(s.op(diff[1])) || (max && *max != diff[1])) return false;
    max = diff[1];
    exponents.insert(diff[0]);
  }
  if (!max) return false;
  auto inputs = [this](const ir::Variable& v) { return input_range(v); };
  // M is a tree of maxima (tl.max over lanes, tl.maximum with a running -inf) whose leaves are
  // a_i or -inf: it is the largest a_i.
  bool any_argument = false;
  std::vector<TermId> stack{*max};
  while (!stack.empty()) {
    TermId u = stack.back();
    stack.pop_back();
    if (exponents.contains(u)) {
      any_argument = true;
    } else if (is_max(s.op(u))) {
      for (TermId k : s.children(u)) stack.push_back(k);
    } else if (!(s.op(u) == ir::Op::Const && s.type(u) == ir::Type::F32 &&
                 s.constant_of(u).f == -INFINITY)) {
      return false;  // a masked lane's -inf is no argument; anything else is not an a_i
    }
  }
  if (!any_argument || !ir::evaluate_enclosure_over(s, *max, inputs).surely_finite()) return false;
  return std::all_of(exponents.begin(), exponents.end(),
                     [&](TermId a) { return !ir::evaluate_enclosure_over(s, a, inputs).nan; });
}

bool Pipeline::inert_clamps() {
  if (opt_.semantics != ir::Semantics::Real) return true;
  absl::flat_hash_map<TermId, TermId> memo;
  size_t removed = 0;
  auto replace = [&](TermId t) -> std::optional<TermId> {
    ir::Op op = store_.op(t);
    if (op != ir::Op::Max && op != ir::Op::MaxNum) return std::nullopt;
    auto kids = store_.children(t);
    for (int side : {0, 1}) {
      TermId c = kids[1 - side], x = kids[side];
      if (store_.op(c) != ir::Op::Const || store_.type(c) != ir::Type::F32) continue;
      double v = store_.constant_of(c).f;
      if (v <= 1 && sum_at_least_one(x)) {
        ++removed;
        return x;  // as it is: a clamp inside the sum stays
      }
    }
    return std::nullopt;
  };
  for (Pair& p : pairs_) {
    if (!reaches_threshold(p.ref) && !reaches_threshold(p.cand)) continue;
    p.ref = rewrite_terms(store_, p.ref, memo, replace);
    p.cand = rewrite_terms(store_, p.cand, memo, replace);
  }
  if (removed)
    r_.notes.push_back(
        "inert clamps: a max of a constant up to 1 with a sum of exp(a - max a) over every a, "
        "which is at least 1, was read as the sum (" +
        std::to_string(removed) + " sites)");
  return true;
}

}  // namespace keq::verify::internal
