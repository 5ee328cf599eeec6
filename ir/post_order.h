// A post-order walk over a term DAG with an explicit stack: a loop accumulator's chain, or a sum
// over a long row, is as deep as it is long, past what recursion's stack allows.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "ir/budget.h"
#include "ir/term.h"

namespace keq::ir {

// done[t] = on_node(t) for each term `root` reaches, operands first and first operand first.
// `stop(t)`, asked before t's operands, may give t's value outright (its operands then are not
// visited). `done` is map-like (contains, emplace, at) and may come filled from an earlier call.
template <class Done, class Stop, class OnNode>
void post_order(const TermStore& s, TermId root, Done& done, const Stop& stop,
                const OnNode& on_node) {
  std::vector<std::pair<TermId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    stack.pop_back();
    if (done.contains(t)) continue;
    Budget::tick();
    if (!expanded) {
      if (std::optional<TermId> r = stop(t)) {
        done.emplace(t, *r);
        continue;
      }
      stack.push_back({t, true});
      auto kids = s.children(t);
      for (size_t i = kids.size(); i-- > 0;)
        if (!done.contains(kids[i])) stack.push_back({kids[i], false});
      continue;
    }
    done.emplace(t, on_node(t));
  }
}

// Without a stop: every term root reaches is given on_node's value.
template <class Done, class OnNode>
void post_order(const TermStore& s, TermId root, Done& done, const OnNode& on_node) {
  post_order(
      s, root, done, [](TermId) { return std::optional<TermId>(); }, on_node);
}

}  // namespace keq::ir
