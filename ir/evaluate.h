// Post-order evaluation of a term DAG with memoization, shared by every evaluator (IEEE, real,
// enclosures): each shared subterm is evaluated once, iteratively (terms can be as deep as a
// row is wide), and every step counts against the run's budget.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/budget.h"
#include "ir/term.h"

namespace keq::ir {

// V::of(Constant) gives a constant's value; env(Variable) or env(TermId) a variable's (nothing:
// EvalError);
// apply(op, children, memo) an op's value from its children's, which memo holds.
// `memo` may come filled from earlier calls at the same point (the same value for every
// variable): what is there is reused, what is computed stays.
template <class V, class Env, class Apply>
V evaluate(const TermStore& s, TermId root, const Env& env, const Apply& apply,
           absl::flat_hash_map<TermId, V>& memo) {
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
      std::optional<V> v;
      if constexpr (std::is_invocable_v<const Env&, TermId>)
        v = env(t);  // by term: no lookup by name
      else
        v = env(s.variable_of(t));
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

template <class V, class Env, class Apply>
V evaluate(const TermStore& s, TermId root, const Env& env, const Apply& apply) {
  absl::flat_hash_map<TermId, V> memo;
  return evaluate(s, root, env, apply, memo);
}

}  // namespace keq::ir
