// Extraction of the cheapest term of a class under a cost function (egg's Extractor).
#pragma once

#include <limits>
#include <vector>

#include "egraph/egraph_core.h"

namespace keq::egraph {

// cost(op, payload, child costs) -> cost of the node given its children's best costs.
template <class L, class CostFn>
class Extractor {
 public:
  Extractor(const EGraph<L>& g, CostFn cost) : g_(g), cost_(std::move(cost)) {
    best_.assign(g.num_ids(), {kInf, kNoClass});
    std::vector<double> kids;
    // Bellman-Ford style: relax every node until no class's best cost improves.
    for (bool changed = true; changed;) {
      changed = false;
      g.for_each_class([&](EClassId c) {
        g.for_each_node(c, [&](EClassId n) {
          if (g.is_pruned(n)) return;
          ENode e = g.view(n);
          kids.clear();
          for (EClassId k : e.children) {
            double kc = best_[g.find(k)].cost;
            if (kc == kInf) return;
            kids.push_back(kc);
          }
          double cn = cost_(e.op, e.payload, std::span<const double>(kids));
          if (cn < best_[c].cost) {
            best_[c] = {cn, n};
            changed = true;
          }
        });
      });
    }
  }

  double cost(EClassId c) const { return best_[g_.find(c)].cost; }
  RecExpr extract(EClassId c) const {
    RecExpr out;
    build(g_.find(c), out);
    return out;
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  struct Best {
    double cost;
    EClassId node;
  };
  uint32_t build(EClassId c, RecExpr& out) const {
    ENode e = g_.view(best_[c].node);
    std::vector<uint32_t> kids;
    for (EClassId k : e.children) kids.push_back(build(g_.find(k), out));
    return out.push(e.op, e.payload, std::move(kids));
  }

  const EGraph<L>& g_;
  CostFn cost_;
  std::vector<Best> best_;
};

// The cost function that counts nodes.
struct AstSize {
  double operator()(OpCode, uint32_t, std::span<const double> kids) const {
    double s = 1;
    for (double k : kids) s += k;
    return s;
  }
};

}  // namespace keq::egraph
