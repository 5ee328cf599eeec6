#include "rules/magnitude.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/budget.h"

namespace keq::rules {

using ir::Op;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Products, quotients and roots of nonnegative bounds round up, so a bound found is a bound;
// exact ones (448 * 1) stay exact, or a clamp at 448 would not be seen as redundant.
double mul_up(double a, double b) {
  double p = a * b;
  return std::fma(a, b, -p) > 0 ? std::nextafter(p, kInf) : p;
}
double div_up(double a, double c) {
  double q = a / c;
  return std::fma(-q, c, a) > 0 ? std::nextafter(q, kInf) : q;
}
double sqrt_up(double a) {
  double r = std::sqrt(a);
  return std::fma(r, r, -a) < 0 ? std::nextafter(r, kInf) : r;
}
std::optional<double> times(std::optional<double> k, double c) {
  if (!k) return std::nullopt;
  return mul_up(*k, c);
}
std::optional<double> over(std::optional<double> k, double c) {
  if (!k) return std::nullopt;
  return div_up(*k, c);
}
std::optional<double> least(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// b >= u >= 0 for an operand u of max-like b wherever b is not NaN: with maxnum a NaN operand
// is dropped, so it must not be one.
bool bounds_max(const KeqLanguage::Graph& g, const ir::OpInfo& info, EClassId u) {
  const Interval& r = g.data(u).range;
  if (r.empty_range() || r.lo < 0) return false;
  return info.nan_policy == ir::NanPolicy::Propagate || !r.nan;
}

// The nodes of class c with op `op`, walking the class (the e-matching snapshot would be
// rebuilt after every node added).
template <class F>
void nodes_with(const KeqLanguage::Graph& g, EClassId c, Op op, F&& f) {
  g.for_each_node(c, [&](EClassId id) {
    egraph::ENode v = g.view(id);
    if (static_cast<Op>(v.op) == op) f(v);
  });
}

bool is_constant(const KeqLanguage::Graph& g, EClassId c) {
  return g.data(c).constant.has_value();
}

// A node the search can go through from above (via_dominator): |b| bounds something below it.
// An operand of a sum or max with none of these bounds a only where a scales down to it.
bool searchable(const KeqLanguage::Graph& g, const egraph::ENode& v) {
  Op op = static_cast<Op>(v.op);
  const ir::OpInfo& info = ir::op_info(op);
  switch (op) {
    case Op::Abs:
    case Op::Neg:
    case Op::Add:
    case Op::Sum:
    case Op::Exp2:
    case Op::Sqrt:
      return true;
    case Op::Mul:
      return v.children.size() == 2 &&
             (is_constant(g, v.children[0]) || is_constant(g, v.children[1]));
    case Op::Div:
    case Op::DivFull:
      return v.children.size() == 2 && is_constant(g, v.children[1]);
    default:
      return info.is_extremum() && info.is_max;
  }
}

// A node square_via can go through to more than a^2 <= k c^2 for a = k c scaled down to a
// squared c (which it looks up): a scaling, a sum, a max, or the square of a searchable class.
bool square_searchable(const KeqLanguage::Graph& g, const egraph::ENode& v) {
  Op op = static_cast<Op>(v.op);
  if (op == Op::Mul && v.children.size() == 2 && g.find(v.children[0]) == g.find(v.children[1])) {
    bool deep = false;
    g.for_each_node(v.children[0], [&](EClassId id) { deep |= searchable(g, g.view(id)); });
    return deep;
  }
  return op != Op::Abs && op != Op::Neg && op != Op::Exp2 && op != Op::Sqrt && searchable(g, v);
}

// A search over class nodes, depth- and step-bounded: classes grow during saturation.
class MagnitudeSearch {
 public:
  MagnitudeSearch(const KeqLanguage::Graph& g, MagnitudeCache& cache) : g_(g), cache_(cache) {}

  // |a| <= k |b|.
  std::optional<double> ratio(EClassId a, EClassId b, int depth = kDepth) {
    a = g_.find(a);
    b = g_.find(b);
    if (a == b) return 1.0;
    // A constant b bounds a only where a scales down to b's own class, a constant too, which
    // the intervals bound exactly: no search (a GEMM's `acc / 2.0` searched its 63-term sum's
    // every form, for each node the e-graph made: seconds a configuration).
    if (g_.data(b).constant) return std::nullopt;
    if (depth == 0 || --steps_ < 0) return std::nullopt;
    ir::Budget::tick();  // a class's searches, asked again after each union, add up to seconds
    std::optional<double> best;
    visit(b, [&](EClassId id) { best = least(best, via_dominator(a, id, depth - 1)); });
    visit(a, [&](EClassId id) { best = least(best, via_dominated(g_.view(id), b, depth - 1)); });
    return best;
  }

  // a^2 <= k s, for s >= 0.
  std::optional<double> square_ratio(EClassId a, EClassId s, int depth = kDepth) {
    if (depth == 0 || --steps_ < 0 || !nonneg(s)) return std::nullopt;
    std::optional<double> best;
    visit(s, [&](EClassId id) { best = least(best, square_via(a, id, depth - 1)); });
    return best;
  }

 private:
  static constexpr int kDepth = 6;

  // Each node of c the search looks at is a step: most lead nowhere (a sum's operand's class of
  // many nodes made by rewrites), and a search that finds nothing, the common case, costs its
  // steps whatever it looks at.
  template <class F>
  void visit(EClassId c, F&& f) {
    g_.for_each_node(c, [&](EClassId id) {
      if (--steps_ >= 0) f(id);
    });
  }

  // A finite, nonzero constant's magnitude.
  std::optional<double> magnitude_of_constant(EClassId c) const {
    const auto& k = g_.data(c).constant;
    if (!k || k->type != ir::Type::F32 || !std::isfinite(k->f) || k->f == 0) return std::nullopt;
    return std::fabs(k->f);
  }
  bool nonneg(EClassId c) const {
    const Interval& r = g_.data(c).range;
    return !r.nan && !r.empty_range() && r.lo >= 0;
  }
  // The operand that is not the constant, and the constant, of a binary node.
  std::optional<std::pair<EClassId, double>> scaled(const egraph::ENode& n,
                                                    bool either_side) const {
    if (n.children.size() != 2) return std::nullopt;
    if (auto c = magnitude_of_constant(n.children[1])) return std::pair{n.children[0], *c};
    if (either_side)
      if (auto c = magnitude_of_constant(n.children[0])) return std::pair{n.children[1], *c};
    return std::nullopt;
  }

  // |a| <= k |b| through one node of b's class.
  std::optional<double> via_dominator(EClassId a, EClassId id, int depth) {
    const egraph::ENode n = g_.view(id);
    Op op = static_cast<Op>(n.op);
    const ir::OpInfo& info = ir::op_info(op);
    switch (op) {
      case Op::Abs:
      case Op::Neg:
        return ratio(a, n.children[0], depth);
      case Op::Mul:  // |b| = |u| c
        if (auto s = scaled(n, true)) return over(ratio(a, s->first, depth), s->second);
        return std::nullopt;
      case Op::Div:
      case Op::DivFull:  // |b| = |u| / c
        if (auto s = scaled(n, false)) return times(ratio(a, s->first, depth), s->second);
        return std::nullopt;
      case Op::Add:
      case Op::Sum:  // a sum of nonnegative terms is at least each of them
        return via_members(a, id, depth);
      case Op::Exp2: {  // 2^ceil(log2 u) >= u for u >= 0 (u = inf: inf)
        std::optional<double> best;
        nodes_with(g_, n.children[0], Op::Ceil, [&](egraph::ENode c) {
          nodes_with(g_, c.children[0], Op::Log2, [&](egraph::ENode l) {
            if (nonneg(l.children[0])) best = least(best, ratio(a, l.children[0], depth));
          });
        });
        return best;
      }
      case Op::Sqrt:  // |a| <= sqrt(k s) when a^2 <= k s
        if (auto k2 = square_ratio(a, n.children[0], depth)) return sqrt_up(*k2);
        return std::nullopt;
      default:
        break;
    }
    if (info.is_extremum() && info.is_max) return via_members(a, id, depth);
    return std::nullopt;
  }

  // |a| <= k |b| where b is at least each operand: the common case without search is that a or
  // |a| is an operand (an amax over a row, the sum of a softmax row), or a scales down to one,
  // looked up, not walked, so the n quotients of a row cost n, not n^2.
  std::optional<double> via_members(EClassId a, EClassId id, int depth) {
    const MagnitudeCache::Members& m = cache_.members(g_, id);
    if (m.bounded.contains(g_.find(a))) return 1.0;
    std::optional<double> best;
    std::vector<std::pair<EClassId, double>> scalings;
    scaled_down(a, 1.0, depth, scalings);
    for (auto [c, k] : scalings)
      if (m.bounded.contains(c)) best = least(best, k);
    for (EClassId u : m.composite) {
      if (steps_ < 0) break;
      best = least(best, ratio(a, u, depth));
    }
    return best;
  }

  // |n| = c |u| (or |u| / c) for a node n that is |u|, -u, u * c or u / c, c a constant.
  struct Scaling {
    EClassId u;
    double c;
    bool divides;
    double of(double k) const { return divides ? div_up(k, c) : mul_up(k, c); }
  };
  std::optional<Scaling> scaling(const egraph::ENode& n) const {
    switch (static_cast<Op>(n.op)) {
      case Op::Abs:
      case Op::Neg:
        return Scaling{n.children[0], 1.0, false};
      case Op::Mul:
        if (auto s = scaled(n, true)) return Scaling{s->first, s->second, false};
        return std::nullopt;
      case Op::Div:
      case Op::DivFull:
        if (auto s = scaled(n, false)) return Scaling{s->first, s->second, true};
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  // The classes c with |a| = k |c| through a's scalings, with k: where ratio(a, u) ends for an
  // operand u that no search goes through.
  void scaled_down(EClassId a, double k, int depth, std::vector<std::pair<EClassId, double>>& out) {
    if (depth == 0 || --steps_ < 0) return;
    visit(g_.find(a), [&](EClassId id) {
      if (auto s = scaling(g_.view(id))) {
        out.push_back({g_.find(s->u), s->of(k)});
        scaled_down(s->u, s->of(k), depth - 1, out);
      }
    });
  }

  // |a| <= k |b| through one node of a's class.
  std::optional<double> via_dominated(const egraph::ENode& n, EClassId b, int depth) {
    auto s = scaling(n);
    if (!s) return std::nullopt;
    std::optional<double> k = ratio(s->u, b, depth);
    return k ? std::optional(s->of(*k)) : std::nullopt;
  }

  // a^2 <= k s through one node of s's class.
  std::optional<double> square_via(EClassId a, EClassId id, int depth) {
    const egraph::ENode n = g_.view(id);
    Op op = static_cast<Op>(n.op);
    const ir::OpInfo& info = ir::op_info(op);
    switch (op) {
      case Op::Mul:
        if (g_.find(n.children[0]) == g_.find(n.children[1])) {
          auto k = ratio(a, n.children[0], depth);
          return times(k, k ? *k : 0);
        }
        if (auto s = scaled(n, true)) return over(square_ratio(a, s->first, depth), s->second);
        return std::nullopt;
      case Op::Div:
      case Op::DivFull:
        if (auto s = scaled(n, false)) return times(square_ratio(a, s->first, depth), s->second);
        return std::nullopt;
      case Op::Add:
      case Op::Sum: {  // a sum of nonnegative terms is at least each; a^2 may be one of them
        const MagnitudeCache::Members& m = cache_.members(g_, id);
        if (m.squared.contains(g_.find(a))) return 1.0;
        if (m.bounded.empty()) return std::nullopt;
        std::optional<double> best;
        std::vector<std::pair<EClassId, double>> scalings;  // a = k c, c squared: a^2 <= k^2 c^2
        scaled_down(a, 1.0, depth, scalings);
        for (auto [c, k] : scalings)
          if (m.squared.contains(c)) best = least(best, mul_up(k, k));
        for (EClassId u : m.square_composite) {
          if (steps_ < 0) break;
          best = least(best, square_ratio(a, u, depth));
        }
        return best;
      }
      default:
        break;
    }
    if (info.is_extremum() && info.is_max) {
      std::optional<double> best;
      for (EClassId u : n.children)
        if (bounds_max(g_, info, u)) best = least(best, square_ratio(a, u, depth));
      return best;
    }
    return std::nullopt;
  }

  const KeqLanguage::Graph& g_;
  MagnitudeCache& cache_;
  int steps_ = 400;
};

}  // namespace

void MagnitudeCache::expire(const KeqLanguage::Graph& g) {
  // An entry from before some unions is still true (its classes only grew), only less
  // complete: rebuild once unions have grown by an eighth, not after each one.
  size_t unions = g.num_ids() - g.num_classes();
  if (unions_ == SIZE_MAX || unions > unions_ + std::max<size_t>(1, unions_ / 8))
    by_node_.clear(), found_.clear(), unions_ = unions;
}

const MagnitudeCache::Members& MagnitudeCache::members(const KeqLanguage::Graph& g, EClassId node) {
  auto [it, fresh] = by_node_.try_emplace(node);
  if (!fresh) return it->second;
  Members& m = it->second;
  const egraph::ENode n = g.view(node);
  const ir::OpInfo& info = ir::op_info(static_cast<Op>(n.op));
  // A sum bounds its operands only when all are nonnegative; a max bounds each such operand.
  bool sum = !info.is_extremum();
  for (EClassId u : n.children)
    if (sum && !bounds_max(g, info, u)) return m;
  for (EClassId u : n.children) {
    if (!bounds_max(g, info, u)) continue;
    m.bounded.insert(g.find(u));
    bool composite = false;
    g.for_each_node(u, [&](EClassId id) {
      egraph::ENode v = g.view(id);
      Op op = static_cast<Op>(v.op);
      if (op == Op::Abs || op == Op::Neg)
        m.bounded.insert(g.find(v.children[0]));
      else if (op == Op::Mul && g.find(v.children[0]) == g.find(v.children[1]))
        m.squared.insert(g.find(v.children[0])), composite = true;
      else
        composite |= searchable(g, v);
    });
    if (composite) m.composite.push_back(u);
    bool square_composite = false;
    g.for_each_node(u, [&](EClassId id) { square_composite |= square_searchable(g, g.view(id)); });
    if (square_composite) m.square_composite.push_back(u);
  }
  return m;
}

std::optional<Interval> ratio_interval(const KeqLanguage::Graph& g, egraph::ENode n,
                                       MagnitudeCache& cache) {
  Op op = static_cast<Op>(n.op);
  cache.expire(g);
  // Each search its own steps: what one finds is kept, so it must not depend on what another
  // spent before it.
  auto ratio = [&](EClassId a, EClassId b) {
    return cache.found(0, g.find(a), g.find(b),
                       [&] { return MagnitudeSearch(g, cache).ratio(a, b); });
  };
  auto square_ratio = [&](EClassId a, EClassId s) {
    return cache.found(1, g.find(a), g.find(s),
                       [&] { return MagnitudeSearch(g, cache).square_ratio(a, s); });
  };
  std::optional<double> k;
  if (op == Op::Div || op == Op::DivFull) {
    k = ratio(n.children[0], n.children[1]);
  } else if (op == Op::Mul) {
    // u * w with w one of recip(v), c / v, rsqrt(v): |u w| <= |c| k.
    for (int side = 0; side < 2; ++side) {
      EClassId u = n.children[side], w = n.children[1 - side];
      nodes_with(g, w, Op::Recip, [&](egraph::ENode r) { k = least(k, ratio(u, r.children[0])); });
      nodes_with(g, w, Op::Rsqrt, [&](egraph::ENode r) {
        if (auto k2 = square_ratio(u, r.children[0])) k = least(k, sqrt_up(*k2));
      });
      for (Op div : {Op::Div, Op::DivFull}) {
        nodes_with(g, w, div, [&](egraph::ENode q) {
          const auto& c = g.data(q.children[0]).constant;
          if (!c || c->type != ir::Type::F32 || !std::isfinite(c->f)) return;
          k = least(k, times(ratio(u, q.children[1]), std::fabs(c->f)));
        });
      }
    }
  }
  if (!k) return std::nullopt;
  Interval r = Interval::any_finite();
  r.nan = true;  // says nothing about NaN
  r.lo = -*k;
  r.hi = *k;
  return r;
}

}  // namespace keq::rules
