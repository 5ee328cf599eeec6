// Rewrites: a left pattern, a right pattern, and conditions over analysis facts.
#pragma once

#include <absl/container/flat_hash_set.h>

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
  // `applied` (optional) holds a key per match already applied, over canonical classes: e-matching
  // finds the same matches every iteration, and one applied before has its union already
  // (classes only merge), so it is skipped instead of instantiated again. egg instantiates it,
  // finding every node in the hash-cons: the redundant rewrites of associativity-heavy rows.
  size_t apply(EGraph<L>& g, const Matches& ms, uint32_t rule_index,
               absl::flat_hash_set<uint64_t>* applied = nullptr) const {
    size_t changed = 0;
    for (size_t k = 0; k < ms.size(); ++k) {
      std::span<const EClassId> s = ms.subst(k);
      uint64_t key = 0;
      if (applied) {
        key = match_key(g, rule_index, ms.roots[k], s);
        if (applied->contains(key)) continue;
      }
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
      if (applied) applied->insert(key);
    }
    return changed;
  }

 private:
  // A 64-bit key of (rule, root, substitution) over canonical ids. Two matches sharing a key
  // by collision would skip one union: a lost proof, never a wrong merge.
  static uint64_t match_key(const EGraph<L>& g, uint32_t rule, EClassId root,
                            std::span<const EClassId> s) {
    auto mix = [](uint64_t h, uint64_t v) {
      h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      return h * 0xBF58476D1CE4E5B9ull;
    };
    uint64_t h = mix(rule, g.find(root));
    for (EClassId c : s) h = mix(h, g.find(c));
    return h ^ (h >> 31);
  }
};

}  // namespace keq::egraph
