#include "rules/interval.h"

#include <algorithm>
#include <cfloat>
#include <vector>

namespace keq::rules {
namespace {

using ir::Op;
constexpr double kInf = Interval::kInf;

// Outward rounding: libm results are within an ulp or two, so step two ulps out.
double down(double x) {
  if (!std::isfinite(x)) return x;
  return std::nextafter(std::nextafter(x, -kInf), -kInf);
}
double up(double x) {
  if (!std::isfinite(x)) return x;
  return std::nextafter(std::nextafter(x, kInf), kInf);
}

Interval make(double lo, double hi, bool nan) {
  if (std::isnan(lo)) lo = -kInf;
  if (std::isnan(hi)) hi = kInf;
  return {down(lo), up(hi), nan};
}

// Endpoint sums and products rounded outward only when the double result is inexact, so that
// 0 + 0 stays 0 (and a strict lower bound at 0 survives).
double add_down(double a, double b) {
  double s = a + b;
  if (!std::isfinite(s)) return s;
  double bb = s - a, err = (a - (s - bb)) + (b - bb);
  return err < 0 ? std::nextafter(s, -kInf) : s;
}
double add_up(double a, double b) {
  double s = a + b;
  if (!std::isfinite(s)) return s;
  double bb = s - a, err = (a - (s - bb)) + (b - bb);
  return err > 0 ? std::nextafter(s, kInf) : s;
}

// Monotone non-decreasing f on [lo, hi].
template <class F>
Interval monotone(const Interval& a, F f, bool nan_extra = false) {
  if (a.empty_range()) return {kInf, -kInf, a.nan || nan_extra};
  return make(f(a.lo), f(a.hi), a.nan || nan_extra);
}

Interval add(const Interval& a, const Interval& b) {
  bool nan = a.nan || b.nan || (a.can_be_pos_inf() && b.can_be_neg_inf()) ||
             (a.can_be_neg_inf() && b.can_be_pos_inf());
  if (a.empty_range() || b.empty_range()) return {kInf, -kInf, nan};
  Interval r{add_down(a.lo, b.lo), add_up(a.hi, b.hi), nan};
  if (std::isnan(r.lo)) r.lo = -kInf;  // -inf + inf at the ends: no bound
  if (std::isnan(r.hi)) r.hi = kInf;
  // An operand that is always -inf, plus one that is never +inf, is -inf (a masked -inf lane
  // minus a finite max), even when the other's bounds are infinite; +inf likewise.
  if ((a.hi == -kInf && !b.can_be_pos_inf()) || (b.hi == -kInf && !a.can_be_pos_inf()))
    r.hi = -kInf;
  if ((a.lo == kInf && !b.can_be_neg_inf()) || (b.lo == kInf && !a.can_be_neg_inf())) r.lo = kInf;
  r.never_inf = a.never_inf && b.never_inf;
  r.lo_strict = (a.lo_strict || b.lo_strict) && std::isfinite(r.lo) && r.lo == a.lo + b.lo;
  return r;
}
Interval neg(const Interval& a) {
  return {-a.hi, -a.lo, a.nan, a.never_inf};
}

Interval mul(const Interval& a, const Interval& b) {
  bool inf_a = a.can_be_pos_inf() || a.can_be_neg_inf(),
       inf_b = b.can_be_pos_inf() || b.can_be_neg_inf();
  bool nan = a.nan || b.nan || (a.contains_zero() && inf_b) || (b.contains_zero() && inf_a);
  if (!a.empty_range() && !b.empty_range() && a.positive() && b.positive()) {
    // Two positive factors: the product's lower bound is strict when a factor's is, or when
    // the bound is below the exact product (rounded, or underflowed to 0).
    double lo = a.lo * b.lo, err = std::fma(a.lo, b.lo, -lo);
    // 0 * inf at the bounds (a factor in (0, x] times one at +inf): the products are positive,
    // so 0 bounds them (a NaN bound made every membership test fail; found under clang, whose
    // argument order drew other random terms).
    if (std::isnan(lo)) lo = 0, err = 0;
    Interval r{std::isfinite(lo) && err < 0 ? std::nextafter(lo, -kInf) : lo, up(a.hi * b.hi), nan,
               a.never_inf && b.never_inf,
               std::isfinite(lo) &&
                   (a.lo_strict || b.lo_strict || err != 0 || (lo == 0 && a.lo > 0 && b.lo > 0))};
    if (std::isnan(r.hi)) r.hi = kInf;
    return r;
  }
  if (a.empty_range() || b.empty_range()) return {kInf, -kInf, nan};
  double lo = kInf, hi = -kInf;
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      double p = x * y;
      if (std::isnan(p)) p = 0;  // 0 * inf: the limit from the finite side
      lo = std::min(lo, p), hi = std::max(hi, p);
    }
  Interval r = make(lo, hi, nan);
  r.never_inf = a.never_inf && b.never_inf;
  return r;
}

Interval recip(const Interval& a) {
  if (a.empty_range()) return {kInf, -kInf, a.nan};
  if (a.nonzero() && a.never_inf) {  // 1/x of a finite x that is never 0: finite, same sign
    Interval r = a.lo >= 0 ? Interval{0, a.lo > 0 ? up(1 / a.lo) : kInf, a.nan, true, true}
                           : Interval{a.hi < 0 ? down(1 / a.hi) : -kInf, 0, a.nan, true, false};
    if (a.lo >= 0 && std::isfinite(a.hi) && a.hi > 0)
      r.lo = down(1 / a.hi), r.lo_strict = r.lo == 0;
    return r;
  }
  if (a.contains_zero()) return {-kInf, kInf, a.nan};
  return make(1 / a.hi, 1 / a.lo, a.nan);
}

Interval div(const Interval& a, const Interval& b) {
  Interval r = mul(a, recip(b));
  r.never_inf = a.never_inf && b.never_inf && b.nonzero();
  // 0/0 and inf/inf are NaN; mul(a, recip(b)) already covers inf * 0 and 0 * inf.
  if (b.contains_zero() && a.contains_zero()) r.nan = true;
  return r;
}

template <bool kMax>
Interval maxmin(const Interval& a, const Interval& b, bool propagate_nan) {
  bool nan = propagate_nan ? (a.nan || b.nan) : (a.nan && b.nan);
  // maxnum with a NaN operand returns the other operand: the join encloses every case.
  if (!propagate_nan && (a.nan || b.nan)) return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), nan};
  if (a.empty_range()) return {b.lo, b.hi, nan};
  if (b.empty_range()) return {a.lo, a.hi, nan};
  if (kMax) return {std::max(a.lo, b.lo), std::max(a.hi, b.hi), nan};
  return {std::min(a.lo, b.lo), std::min(a.hi, b.hi), nan};
}

Interval join(const Interval& a, const Interval& b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.nan || b.nan};
}

Interval clip(Interval r, double lo, double hi) {
  r.lo = std::max(r.lo, lo);
  r.hi = std::min(r.hi, hi);
  return r;
}

Interval cast(const Interval& a, ir::FloatFormat f, ir::Overflow o) {
  // Rounding to nearest is monotone, so the rounded endpoints bound the result.
  if (a.empty_range()) return {kInf, -kInf, a.nan};
  double lo = ir::round_to_format(a.lo, f, o), hi = ir::round_to_format(a.hi, f, o);
  bool nan = a.nan || std::isnan(lo) || std::isnan(hi);
  double max = ir::format_info(f).max_finite;
  if (std::isnan(lo)) lo = -max;  // overflow to NaN: the non-NaN results stay finite
  if (std::isnan(hi)) hi = max;
  return {lo, hi, nan};
}

Interval abs_or_round(Op op, const Interval& x) {
  switch (op) {
    case Op::Abs: {
      if (x.empty_range()) return x;
      double lo = x.contains_zero() ? 0 : std::min(std::fabs(x.lo), std::fabs(x.hi));
      return {lo, std::max(std::fabs(x.lo), std::fabs(x.hi)), x.nan};
    }
    case Op::Floor:
      return monotone(x, [](double v) { return std::floor(v); });
    case Op::Ceil:
      return monotone(x, [](double v) { return std::ceil(v); });
    case Op::Round:
      return monotone(x, [](double v) { return std::nearbyint(v); });
    default:
      return monotone(x, [](double v) { return std::trunc(v); });
  }
}

Interval real_interval(Op op, std::span<const Interval> a) {
  const Interval bool01{0, 1, false};
  switch (op) {
    case Op::Add:
      return add(a[0], a[1]);
    case Op::Sub:
      return add(a[0], neg(a[1]));
    case Op::Mul:
      return mul(a[0], a[1]);
    case Op::Div:
    case Op::DivFull:
      return div(a[0], a[1]);
    case Op::Neg:
      return neg(a[0]);
    case Op::Fma:
      return add(mul(a[0], a[1]), a[2]);
    case Op::Sum: {
      Interval r = a[0];
      for (size_t k = 1; k < a.size(); ++k) r = add(r, a[k]);
      return r;
    }
    case Op::Abs:
    case Op::Floor:
    case Op::Ceil:
    case Op::Round:
    case Op::Trunc: {
      Interval r = abs_or_round(op, a[0]);
      r.never_inf = a[0].never_inf;
      return r;
    }
    case Op::Prod: {
      Interval r = a[0];
      for (size_t k = 1; k < a.size(); ++k) r = mul(r, a[k]);
      return r;
    }
    case Op::Max:
    case Op::AMax:
    case Op::MaxNum:
    case Op::TMax:
    case Op::Min:
    case Op::AMin:
    case Op::MinNum:
    case Op::TMin: {
      bool is_max = op == Op::Max || op == Op::AMax || op == Op::MaxNum || op == Op::TMax;
      bool prop = op == Op::Max || op == Op::AMax || op == Op::Min || op == Op::AMin;
      Interval r = a[0];
      // max is +inf only if a member can be, and -inf only if every member can be (min the
      // other way round): max(-inf, x) of a finite x is finite, as masked -inf lanes need.
      bool toward = false, away = true;
      for (const Interval& x : a) {
        toward |= is_max ? x.can_be_pos_inf() : x.can_be_neg_inf();
        // maxnum drops a NaN member, so one that may be NaN may leave the others alone.
        away &= (is_max ? x.can_be_neg_inf() : x.can_be_pos_inf()) || (!prop && x.nan);
      }
      for (size_t k = 1; k < a.size(); ++k)
        r = is_max ? maxmin<true>(r, a[k], prop) : maxmin<false>(r, a[k], prop);
      r.never_inf = !toward && !away;
      r.lo_strict = false;
      return r;
    }
    case Op::Clamp:
      return maxmin<false>(maxmin<true>(a[0], a[1], true), a[2], true);
    case Op::Select: {
      Interval r = join(a[1], a[2]);
      r.never_inf = a[1].never_inf && a[2].never_inf;
      return r;
    }
    case Op::Exp:
    case Op::Exp2: {
      Interval r = clip(monotone(
                            a[0], op == Op::Exp ? [](double x) { return std::exp(x); }
                                                : [](double x) { return std::exp2(x); }),
                        0, kInf);
      // Over the reals, exp of a finite value is finite and > 0 (doubles overflow; reals do not).
      if (a[0].no_inf()) r.never_inf = true, r.lo_strict = r.lo == 0 ? true : r.lo_strict;
      return r;
    }
    case Op::Log:
    case Op::Log2: {
      bool nan = a[0].nan || a[0].lo < 0;
      Interval x = clip(a[0], 0, kInf);
      auto f = op == Op::Log ? [](double v) { return std::log(v); }
                             : [](double v) { return std::log2(v); };
      Interval r = monotone(x, f, nan);
      // Over the reals, the log of a finite value that is strictly positive is finite (a sum
      // of exps, say, as log-softmax takes).
      if (!nan && a[0].no_inf() && a[0].positive()) r.never_inf = true;
      return r;
    }
    case Op::Sqrt:
    case Op::SqrtApprox: {
      bool nan = a[0].nan || a[0].lo < 0;
      return clip(monotone(
                      clip(a[0], 0, kInf), [](double v) { return std::sqrt(v); }, nan),
                  0, kInf);
    }
    case Op::Rsqrt: {
      bool nan = a[0].nan || a[0].lo < 0;
      Interval s = clip(monotone(
                            clip(a[0], 0, kInf), [](double v) { return std::sqrt(v); }, nan),
                        0, kInf);
      return clip(recip(s), 0, kInf);
    }
    case Op::Recip:
      return recip(a[0]);
    case Op::Tanh:
      return clip(monotone(a[0], [](double x) { return std::tanh(x); }), -1, 1);
    case Op::Erf:
      return clip(monotone(a[0], [](double x) { return std::erf(x); }), -1, 1);
    case Op::Sigmoid:
      return clip(monotone(a[0], [](double x) { return 1 / (1 + std::exp(-x)); }), 0, 1);

    case Op::CastF16:
      return cast(a[0], ir::FloatFormat::F16, ir::Overflow::Inf);
    case Op::CastBF16:
      return cast(a[0], ir::FloatFormat::BF16, ir::Overflow::Inf);
    case Op::CastE4M3:
      return cast(a[0], ir::FloatFormat::E4M3FN, ir::Overflow::NaN);
    case Op::CastE4M3Sat:
      return cast(a[0], ir::FloatFormat::E4M3FN, ir::Overflow::Saturate);
    case Op::CastE5M2:
      return cast(a[0], ir::FloatFormat::E5M2, ir::Overflow::Inf);
    case Op::CastE5M2Sat:
      return cast(a[0], ir::FloatFormat::E5M2, ir::Overflow::Saturate);
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Not:
    case Op::CastBool:
      return bool01;
    default:
      return Interval::top();  // sound: anything
  }
}

}  // namespace

bool Interval::meet(const Interval& o) {
  Interval before = *this;
  if (o.lo > lo || (o.lo == lo && o.lo_strict))
    lo_strict = o.lo_strict || (o.lo == lo && lo_strict);
  lo = std::max(lo, o.lo);
  hi = std::min(hi, o.hi);
  nan = nan && o.nan;
  never_inf = never_inf || o.never_inf;
  return lo != before.lo || hi != before.hi || nan != before.nan || never_inf != before.never_inf ||
         lo_strict != before.lo_strict;
}

std::string Interval::str() const {
  std::string s = empty_range() ? "{}"
                                : "[" + ir::Constant::of_float(lo).str() + ", " +
                                      ir::Constant::of_float(hi).str() + "]";
  return nan ? s + " or NaN" : s;
}

Interval interval_square(const Interval& x, ir::Semantics sem) {
  Interval a = x;
  if (!a.empty_range()) {
    double m = std::max(std::fabs(a.lo), std::fabs(a.hi));
    double lo = a.contains_zero() ? 0 : std::min(std::fabs(a.lo), std::fabs(a.hi));
    a = {lo, m, x.nan};
  }
  Interval r = mul(a, a);
  r.lo = std::max(r.lo, 0.0);  // squares are >= 0 in both semantics (fp32 rounds to >= 0)
  if (sem == ir::Semantics::Ieee && std::isfinite(r.hi)) r.hi = r.hi * (1 + 0x1p-16);
  if (sem == ir::Semantics::Ieee && r.hi > FLT_MAX) r.hi = kInf;
  return r;
}

Interval interval_of(Op op, std::span<const Interval> args, ir::Semantics sem) {
  Interval r = real_interval(op, args);
  if (sem == ir::Semantics::Real || r.empty_range()) return r;
  // Picking one operand, or its sign, rounds nothing: the bounds hold as they are.
  bool picks = op == Op::Max || op == Op::Min || op == Op::MaxNum || op == Op::MinNum ||
               op == Op::AMax || op == Op::AMin || op == Op::TMax || op == Op::TMin ||
               op == Op::Clamp || op == Op::Select || op == Op::Neg || op == Op::Abs;
  if (picks) return r;
  r.never_inf = false;  // fp32 overflows; bounds decide
  r.lo_strict = false;
  // IEEE: fp32 results round (and approximations err by up to ~15 ulps, SEMANTICS-FACTS.md),
  // and anything past FLT_MAX may become inf. Widen relatively, then to the fp32 grid.
  auto widen = [](double x, double dir) {
    if (!std::isfinite(x)) return x;
    double w = x + dir * (std::fabs(x) * 0x1p-16 + 0x1p-126);
    if (std::fabs(w) > FLT_MAX) return dir * kInf;
    return w;
  };
  bool exact_bool = op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq ||
                    op == Op::Ne || op == Op::CastBool;
  if (exact_bool) return r;
  r.lo = widen(r.lo, -1);
  r.hi = widen(r.hi, 1);
  // Results that are never negative stay so in fp32 (exp, sqrt, abs round to >= 0).
  if (op == Op::Exp || op == Op::Exp2 || op == Op::Abs || op == Op::Sqrt || op == Op::SqrtApprox)
    r.lo = std::max(r.lo, 0.0);
  return r;
}

}  // namespace keq::rules
