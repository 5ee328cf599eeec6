// Explanations: the chain of rewrites that proves two terms equal (egg's flat explanations).
//
// The explanation forest has an edge for every union, labelled with its reason. A rule or
// analysis edge is one step. A congruence edge joins f(a1..an) and f(b1..bn) whose children are
// equal, and expands into the explanations of each ai = bi in the context of the parent term.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "egraph/egraph_core.h"

namespace keq::egraph {

struct ExplainStep {
  std::vector<uint32_t> path;  // child indices from the root to the rewritten subterm
  EClassId to;                 // the subterm after the step
  Justification why;
  bool forward;  // the rule was applied left to right
};

struct Explanation {
  std::string start;  // the first term
  struct Line {
    std::string term;  // the whole term after this step
    std::string rule;  // the rule or analysis that made it
    bool forward;
    std::vector<uint32_t> path;
  };
  std::vector<Line> lines;
  bool truncated = false;
  std::string str() const {
    std::string s = start + "\n";
    for (const Line& l : lines) {
      s += "= " + l.term + "    ; " + (l.forward ? "" : "<= ") + l.rule;
      if (!l.path.empty()) {
        s += " at [";
        for (size_t k = 0; k < l.path.size(); ++k) s += (k ? " " : "") + std::to_string(l.path[k]);
        s += "]";
      }
      s += "\n";
    }
    if (truncated) s += "... (explanation truncated)\n";
    return s;
  }
};

template <class L>
class Explainer {
 public:
  // Names a step: the justification, and the id of the term the step produced.
  using NameFn = std::function<std::string(const Justification&, EClassId to)>;
  Explainer(const EGraph<L>& g, NameFn rule_name, size_t max_steps = 2000)
      : g_(g), name_(std::move(rule_name)), max_steps_(max_steps) {}

  // a and b must be in one class, in an e-graph built with explanations on.
  Explanation explain(EClassId a, EClassId b) {
    steps_.clear();
    path_.clear();
    truncated_ = false;
    collect(a, b);
    Tree cur = tree(a);
    Explanation out;
    out.start = render(cur);
    out.truncated = truncated_;
    for (const ExplainStep& s : steps_) {
      Tree* at = &cur;
      for (uint32_t k : s.path) at = &at->kids[k];
      *at = tree(s.to);
      out.lines.push_back({render(cur), name_(s.why, s.to), s.forward, s.path});
    }
    return out;
  }

  // The term an id stands for, as it was added.
  std::string term(EClassId id) const { return render(tree(id)); }

 private:
  struct Tree {
    OpCode op;
    uint32_t payload;
    std::vector<Tree> kids;
  };

  void collect(EClassId a, EClassId b) {
    if (a == b) return;
    // Congruence edges recurse into children and add no step themselves: bound the depth too.
    if (path_.size() > kMaxDepth) {
      truncated_ = true;
      return;
    }
    for (const auto& edge : g_.forest_path(a, b)) {
      if (steps_.size() >= max_steps_ || truncated_) {
        truncated_ = true;
        return;
      }
      if (edge.why.kind != Justification::Kind::Congruence) {
        steps_.push_back({path_, edge.to, edge.why, edge.forward});
        continue;
      }
      ENode u = g_.original(edge.from), v = g_.original(edge.to);
      for (uint32_t k = 0; k < u.children.size(); ++k) {
        path_.push_back(k);
        collect(u.children[k], v.children[k]);
        path_.pop_back();
      }
    }
  }
  Tree tree(EClassId id) const {
    ENode e = g_.original(id);
    Tree t{e.op, e.payload, {}};
    for (EClassId k : e.children) t.kids.push_back(tree(k));
    return t;
  }
  std::string render(const Tree& t) const {
    std::string head = g_.lang().node_str(t.op, t.payload);
    if (t.kids.empty()) return head;
    std::string s = "(" + head;
    for (const Tree& k : t.kids) s += " " + render(k);
    return s + ")";
  }

  static constexpr size_t kMaxDepth = 512;
  const EGraph<L>& g_;
  NameFn name_;
  size_t max_steps_;
  std::vector<ExplainStep> steps_;
  std::vector<uint32_t> path_;
  bool truncated_ = false;
};

}  // namespace keq::egraph
