// The interval analysis: a sound enclosure of every value a class can take, with NaN tracked
// separately. Facts that rule conditions read (finite, nonzero, sign, not-NaN) derive from it.
#pragma once

#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "ir/op.h"
#include "ir/value.h"

namespace keq::ir {

struct Interval {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo = -kInf, hi = kInf;  // the non-NaN values lie in [lo, hi] (empty when lo > hi)
  bool nan = true;               // NaN is possible
  // Over the reals values can be finite yet unbounded (every finite input, exp of it): with
  // never_inf, lo = -inf and hi = inf mean "unbounded", not "possibly infinite".
  bool never_inf = false;
  bool lo_strict = false;  // values are > lo, not only >= (exp(x) > 0)

  static Interval top() { return {}; }
  static Interval point(double v) {
    if (std::isnan(v)) return {kInf, -kInf, true, true};
    return {v, v, false, std::isfinite(v)};
  }
  // Every finite value (over the reals: the finite values of an input dtype are unbounded there).
  static Interval any_finite() { return {-kInf, kInf, false, true}; }
  bool empty_range() const { return lo > hi; }
  bool can_be_pos_inf() const { return hi == kInf && !never_inf; }
  bool no_inf() const { return !can_be_pos_inf() && !can_be_neg_inf(); }
  bool can_be_neg_inf() const { return lo == -kInf && !never_inf; }
  bool finite() const { return !nan && (never_inf || (std::isfinite(lo) && std::isfinite(hi))); }
  bool not_nan() const { return !nan; }
  bool nonzero() const { return !nan && (lo > 0 || hi < 0 || (lo == 0 && lo_strict)); }
  bool positive() const { return !nan && (lo > 0 || (lo == 0 && lo_strict)); }
  bool negative() const { return !nan && hi < 0; }
  bool nonneg() const { return !nan && lo >= 0; }
  bool nonpos() const { return !nan && hi <= 0; }
  // Inside a narrow format's finite range, where a saturating cast rounds as the plain one: NaN
  // too, which both make NaN (SEMANTICS-FACTS.md). A quantization's x / (amax / 448) is NaN
  // where a block is all zeros, and it stopped Triton's saturating store from meeting torch's
  // cast (torchao's fp8 blockwise quantization).
  bool within(double max) const { return lo >= -max && hi <= max; }
  bool within_e4m3() const { return within(448); }
  bool within_e5m2() const { return within(57344); }
  // Where 2^ceil(log2 x) is a normal fp32 (a UE8M0 scale's range): 2^-126 <= x <= 2^127.
  bool within_ue8m0() const { return !nan && lo >= 0x1p-126 && hi <= 0x1p127; }
  bool contains_zero() const { return (lo < 0 || (lo == 0 && !lo_strict)) && hi >= 0; }
  // Intersection: both enclose the same class. Returns true when this one got tighter.
  bool meet(const Interval& o);
  std::string str() const;
};

// Over the reals: bounds of a finite value (never_inf) that overflowed a double, +inf below or
// -inf above, become +-DBL_MAX (the value is past them, not infinite).
Interval finite_bounds(Interval r);
// The enclosure of op's result given its operands' enclosures. Sound for both semantics: in
// IEEE the bounds are widened to cover fp32 rounding, approximations and overflow to inf.
Interval interval_of(Op op, std::span<const Interval> args, Semantics sem);
// The enclosure of x * x (tighter than interval_of(Mul, {x, x}): a square is never negative).
Interval interval_square(const Interval& x, Semantics sem);
// Integer and bool results are enclosed too (their values are exact in a double up to 2^53).

}  // namespace keq::ir
