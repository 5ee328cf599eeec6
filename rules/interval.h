// The interval analysis: a sound enclosure of every value a class can take, with NaN tracked
// separately. Facts that rule conditions read (finite, nonzero, sign, not-NaN) derive from it.
#pragma once

#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "ir/ir.h"

namespace keq::rules {

struct Interval {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo = -kInf, hi = kInf;  // the non-NaN values lie in [lo, hi] (empty when lo > hi)
  bool nan = true;               // NaN is possible

  static Interval top() { return {}; }
  static Interval point(double v) {
    if (std::isnan(v)) return {kInf, -kInf, true};
    return {v, v, false};
  }
  bool empty_range() const { return lo > hi; }
  bool finite() const { return !nan && std::isfinite(lo) && std::isfinite(hi); }
  bool not_nan() const { return !nan; }
  bool nonzero() const { return !nan && (lo > 0 || hi < 0); }
  bool positive() const { return !nan && lo > 0; }
  bool negative() const { return !nan && hi < 0; }
  bool nonneg() const { return !nan && lo >= 0; }
  bool nonpos() const { return !nan && hi <= 0; }
  bool contains_zero() const { return lo <= 0 && hi >= 0; }
  // Intersection: both enclose the same class. Returns true when this one got tighter.
  bool meet(const Interval& o);
  std::string str() const;
};

// The enclosure of op's result given its operands' enclosures. Sound for both semantics: in
// IEEE the bounds are widened to cover fp32 rounding, approximations and overflow to inf.
Interval interval_of(ir::Op op, std::span<const Interval> args, ir::Semantics sem);
// The enclosure of x * x (tighter than interval_of(Mul, {x, x}): a square is never negative).
Interval interval_square(const Interval& x, ir::Semantics sem);
// Integer and bool results are enclosed too (their values are exact in a double up to 2^53).

}  // namespace keq::rules
