#include "ir/interval.h"

#include <algorithm>
#include <cfloat>
#include <vector>

#include "ir/ops/family.h"

namespace keq::ir {

// Doubles overflow where reals do not: exp(2^31 x) for x >= 1, or the square of 1e200, is
// finite, and a bound of +inf below it (or -inf above it) would read as "the value is infinite"
// (the canary merged 1 with inf through such a constant, and le/lt would hold of any two).
Interval finite_bounds(Interval r) {
  if (r.never_inf && r.lo == Interval::kInf) r.lo = DBL_MAX;
  if (r.never_inf && r.hi == -Interval::kInf) r.hi = -DBL_MAX;
  return r;
}

namespace family {

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

namespace {

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

}  // namespace

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
  r.never_inf = a.no_inf() && b.no_inf();
  r.lo_strict = (a.lo_strict || b.lo_strict) && std::isfinite(r.lo) && r.lo == a.lo + b.lo;
  return finite_bounds(r);
}
Interval neg(const Interval& a) {
  return {-a.hi, -a.lo, a.nan, a.no_inf()};
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
               a.no_inf() && b.no_inf(),
               std::isfinite(lo) &&
                   (a.lo_strict || b.lo_strict || err != 0 || (lo == 0 && a.lo > 0 && b.lo > 0))};
    if (std::isnan(r.hi)) r.hi = kInf;
    return finite_bounds(r);
  }
  if (a.empty_range() || b.empty_range()) return {kInf, -kInf, nan};
  // Endpoint products, rounded outward only when inexact: 0 * x stays 0, so a product of two
  // nonnegative factors stays nonnegative.
  double lo = kInf, hi = -kInf;
  for (double x : {a.lo, a.hi})
    for (double y : {b.lo, b.hi}) {
      double p = x * y;
      if (std::isnan(p)) p = 0;  // 0 * inf: the limit from the finite side
      double err = std::isfinite(p) ? std::fma(x, y, -p) : 0;
      // A product of nonzero numbers that underflows to 0 even in fma (1e-200 squared) is
      // nonzero: its bound steps past 0 on its sign's side.
      if (p == 0 && x != 0 && y != 0 && std::isfinite(x) && std::isfinite(y) && err == 0)
        err = std::signbit(p) ? -1 : 1;
      lo = std::min(lo, err < 0 ? std::nextafter(p, -kInf) : p);
      hi = std::max(hi, err > 0 ? std::nextafter(p, kInf) : p);
    }
  if ((a.lo >= 0 && b.lo >= 0) || (a.hi <= 0 && b.hi <= 0)) lo = std::max(lo, 0.0);
  Interval r{lo, hi, nan};
  r.never_inf = a.no_inf() && b.no_inf();
  return finite_bounds(r);
}

Interval recip(const Interval& a) {
  if (a.empty_range()) return {kInf, -kInf, a.nan};
  if (a.nonzero() && a.no_inf()) {  // 1/x of a finite x that is never 0: finite, same sign
    Interval r = a.lo >= 0 ? Interval{0, a.lo > 0 ? up(1 / a.lo) : kInf, a.nan, true, true}
                           : Interval{a.hi < 0 ? down(1 / a.hi) : -kInf, 0, a.nan, true, false};
    if (a.lo >= 0 && std::isfinite(a.hi) && a.hi > 0)
      r.lo = down(1 / a.hi), r.lo_strict = r.lo == 0;
    return finite_bounds(r);  // 1 / 1e-320 is finite, past DBL_MAX
  }
  if (a.contains_zero()) return {-kInf, kInf, a.nan};
  return make(1 / a.hi, 1 / a.lo, a.nan);
}

Interval div(const Interval& a, const Interval& b) {
  Interval r = mul(a, recip(b));
  r.never_inf = a.no_inf() && b.no_inf() && b.nonzero();
  // 0/0 and inf/inf are NaN; mul(a, recip(b)) already covers inf * 0 and 0 * inf.
  if (b.contains_zero() && a.contains_zero()) r.nan = true;
  return finite_bounds(r);
}

Interval join(const Interval& a, const Interval& b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), a.nan || b.nan};
}

Interval clip(Interval r, double lo, double hi) {
  r.lo = std::max(r.lo, lo);
  r.hi = std::min(r.hi, hi);
  return r;
}

Interval cast(const Interval& a, FloatFormat f, Overflow o) {
  // Rounding to nearest is monotone, so the rounded endpoints bound the result.
  if (a.empty_range()) return {kInf, -kInf, a.nan};
  double lo = round_to_format(a.lo, f, o), hi = round_to_format(a.hi, f, o);
  bool nan = a.nan || std::isnan(lo) || std::isnan(hi);
  double max = format_info(f).max_finite;
  if (std::isnan(lo)) lo = -max;  // overflow to NaN: the non-NaN results stay finite
  if (std::isnan(hi)) hi = max;
  return {lo, hi, nan};
}

Interval bool_interval() {
  return {0, 1, false};
}

}  // namespace family

using namespace family;

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
                                : "[" + Constant::of_float(lo).str() + ", " +
                                      Constant::of_float(hi).str() + "]";
  return nan ? s + " or NaN" : s;
}

Interval interval_square(const Interval& x, Semantics sem) {
  Interval a = x;
  if (!a.empty_range()) {
    double m = std::max(std::fabs(a.lo), std::fabs(a.hi));
    double lo = a.contains_zero() ? 0 : std::min(std::fabs(a.lo), std::fabs(a.hi));
    // A strictly positive x (exp of anything) keeps its square strictly positive.
    a = {lo, m, x.nan, x.never_inf, lo == 0 && !a.contains_zero()};
  }
  Interval r = mul(a, a);
  r.lo = std::max(r.lo, 0.0);  // squares are >= 0 in both semantics (fp32 rounds to >= 0)
  if (sem == Semantics::Real) return finite_bounds(r);
  if (sem == Semantics::Ieee) r.never_inf = false;  // fp32 overflows; bounds decide
  if (sem == Semantics::Ieee && std::isfinite(r.hi)) r.hi = r.hi * (1 + 0x1p-16);
  if (sem == Semantics::Ieee && r.hi > FLT_MAX) r.hi = kInf;
  return r;
}

namespace {
bool result_type_is_bool(const OpInfo& info) {
  return info.sig == Signature::Compare || info.sig == Signature::Logic ||
         (info.sig == Signature::CastTo && info.cast_result == Type::Bool);
}
}  // namespace

Interval interval_of(Op op, std::span<const Interval> args, Semantics sem) {
  const OpInfo& info = op_info(op);
  Interval r = info.interval ? info.interval(args) : Interval::top();  // sound: anything
  if (r.empty_range()) return r;
  if (sem == Semantics::Real) return finite_bounds(r);
  // Picking one operand, or its sign, rounds nothing; bools are exact.
  if (info.picks_operand || result_type_is_bool(info)) return r;
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
  bool nonneg = info.stays_nonneg && r.lo >= 0;
  r.lo = widen(r.lo, -1);
  r.hi = widen(r.hi, 1);
  if (nonneg) r.lo = std::max(r.lo, 0.0);  // exp, sqrt, abs round to >= 0
  return r;
}

}  // namespace keq::ir
