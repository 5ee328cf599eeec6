// Rewrites: a left pattern, a right pattern, and conditions over analysis facts.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "egraph/pattern.h"

namespace keq::egraph {

template <class L>
struct Rewrite {
  using Condition = std::function<bool(const EGraph<L>&, std::span<const EClassId> subst)>;
  std::string name;
  Pattern lhs, rhs;
  std::vector<Condition> conditions;

  Matches search(const EGraph<L>& g, size_t limit = SIZE_MAX) const {
    return Matcher<L>(g, lhs).search(limit);
  }
  // Applies each match whose conditions hold; returns how many unions changed the graph.
  size_t apply(EGraph<L>& g, const Matches& ms, uint32_t rule_index) const {
    size_t changed = 0;
    for (size_t k = 0; k < ms.size(); ++k) {
      std::span<const EClassId> s = ms.subst(k);
      bool ok = true;
      for (const Condition& c : conditions) ok = ok && c(g, s);
      if (!ok) continue;
      Justification why{Justification::Kind::Rule, rule_index};
      EClassId to = instantiate(g, rhs, s);
      // With explanations, the edge joins the two instantiated terms, as egg records it.
      EClassId from = g.explanations_enabled() ? instantiate(g, lhs, s) : ms.roots[k];
      // A language may refuse a union its rules cannot mean (an f32 0 for an i32 a - a).
      if constexpr (requires { g.lang().may_union(g.data(from), g.data(to)); })
        if (!g.lang().may_union(g.data(from), g.data(to))) continue;
      changed += g.union_classes(from, to, why);
    }
    return changed;
  }
};

}  // namespace keq::egraph
