// Post-order evaluation of a term DAG with memoization, shared by every evaluator (IEEE, real,
// enclosures): each shared subterm is evaluated once, iteratively (terms can be as deep as a
// row is wide), and every step counts against the run's budget.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <utility>
#include <vector>

#include "ir/budget.h"
#include "ir/term.h"

namespace keq::ir {

// V::of(Constant) gives a constant's value; env(Variable) a variable's (nothing: EvalError);
// apply(op, children, memo) an op's value from its children's, which memo holds.
template <class V, class Env, class Apply>
V evaluate(const TermStore& s, TermId root, const Env& env, const Apply& apply) {
  absl::flat_hash_map<TermId, V> memo;
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    Budget::tick();
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (memo.contains(t)) continue;
    Op op = s.op(t);
    if (op == Op::Const) {
      memo.emplace(t, V::of(s.constant_of(t)));
    } else if (op == Op::Var) {
      auto v = env(s.variable_of(t));
      if (!v) throw EvalError{"no value for variable " + s.variable_of(t).name};
      memo.emplace(t, std::move(*v));
    } else if (!expanded) {
      stack.push_back({t, true});
      for (TermId c : s.children(t)) stack.push_back({c, false});
    } else {
      V v = apply(op, s.children(t), memo);  // before emplace: memo may rehash
      memo.emplace(t, std::move(v));
    }
  }
  return memo.at(root);
}

}  // namespace keq::ir
