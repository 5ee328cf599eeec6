// The extremum family: max and min, binary and n-ary, with each framework's NaN policy, and
// torch.clamp (max first, then min). Every layer reads the family from `is_max` and
// `nan_policy`; the rules below are the only place they are written.
//
// NaN: torch's max/min (and amax/amin, clamp) propagate it; maxnum/minnum (Triton's maximum,
// libdevice's fmax, and tl.max/tl.min reductions: tmax/tmin) return the other operand.
// Signed zeros: both frameworks order -0 below +0, so max(-0, 0) = 0 and min(-0, 0) = -0.
#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

template <bool kMax>
float pick(float a, float b) {
  if (a == b) return (std::signbit(a) == kMax) ? b : a;
  return (a > b) == kMax ? a : b;
}
template <bool kMax, bool kPropagateNaN>
float maxmin(float a, float b) {
  if (std::isnan(a)) return kPropagateNaN ? a : b;
  if (std::isnan(b)) return kPropagateNaN ? b : a;
  return pick<kMax>(a, b);
}
template <bool kMax, bool kPropagateNaN>
int real_maxmin(mpfr_ptr out, mpfr_srcptr a, mpfr_srcptr b, mpfr_rnd_t) {
  Real tmp;
  if (mpfr_nan_p(a) || mpfr_nan_p(b)) {
    mpfr_srcptr keep = mpfr_nan_p(a) ? (kPropagateNaN ? a : b) : (kPropagateNaN ? b : a);
    mpfr_set(tmp.get(), keep, MPFR_RNDN);
  } else {
    int c = mpfr_cmp(a, b);
    if (c == 0) c = (mpfr_signbit(a) == kMax) ? -1 : 1;  // signed zeros, as `pick`
    mpfr_set(tmp.get(), (c > 0) == kMax ? a : b, MPFR_RNDN);
  }
  mpfr_set(out, tmp.get(), MPFR_RNDN);  // out may alias an operand
  return 0;
}

constexpr Op binary_op(bool is_max, bool propagate) {
  return is_max ? (propagate ? Op::Max : Op::MaxNum) : (propagate ? Op::Min : Op::MinNum);
}

template <bool kMax, bool kProp>
IeeeValue ieee_extremum(IArgs a) {
  return ieee_fold(binary_op(kMax, kProp), a, maxmin<kMax, kProp>);
}
template <bool kMax, bool kProp>
void real_extremum(RArgs a, RealValue& out) {
  real_fold<real_maxmin<kMax, kProp>, binary_op(kMax, kProp)>(a, out);
}

Interval maxmin_interval(const Interval& a, const Interval& b, bool is_max, bool propagate_nan) {
  bool nan = propagate_nan ? (a.nan || b.nan) : (a.nan && b.nan);
  // maxnum with a NaN operand returns the other operand: the join encloses every case.
  if (!propagate_nan && (a.nan || b.nan)) return {std::min(a.lo, b.lo), std::max(a.hi, b.hi), nan};
  if (a.empty_range()) return {b.lo, b.hi, nan};
  if (b.empty_range()) return {a.lo, a.hi, nan};
  if (is_max) return {std::max(a.lo, b.lo), std::max(a.hi, b.hi), nan};
  return {std::min(a.lo, b.lo), std::min(a.hi, b.hi), nan};
}

template <bool kMax, bool kProp>
Interval extremum_interval(IvArgs a) {
  Interval r = a[0];
  // max is +inf only if a member can be, and -inf only if every member can be (min the other
  // way round): max(-inf, x) of a finite x is finite, as masked -inf lanes need.
  bool toward = false, away = true;
  for (const Interval& x : a) {
    toward |= kMax ? x.can_be_pos_inf() : x.can_be_neg_inf();
    // maxnum drops a NaN member, so one that may be NaN may leave the others alone.
    away &= (kMax ? x.can_be_neg_inf() : x.can_be_pos_inf()) || (!kProp && x.nan);
  }
  for (size_t k = 1; k < a.size(); ++k) r = maxmin_interval(r, a[k], kMax, kProp);
  r.never_inf = !toward && !away;
  r.lo_strict = false;
  return r;
}

// max/min of every pair of values; a NaN operand propagates, or yields the other operand.
template <bool kMax, bool kPropagateNaN>
Enclosure extremum2(const Enclosure& a, const Enclosure& b) {
  if (a.type != Type::F32) {
    if (kMax) return ints(a.type, std::max(a.ilo, b.ilo), std::max(a.ihi, b.ihi));
    return ints(a.type, std::min(a.ilo, b.ilo), std::min(a.ihi, b.ihi));
  }
  Enclosure r = floats(false, kPropagateNaN ? (a.nan || b.nan) : (a.nan && b.nan));
  if (a.real && b.real) {
    r.real = true;
    auto pick = kMax ? mpfr_max : mpfr_min;
    pick(r.lo.get(), a.lo.get(), b.lo.get(), MPFR_RNDD);
    pick(r.hi.get(), a.hi.get(), b.hi.get(), MPFR_RNDU);
  }
  if (!kPropagateNaN) {
    if (a.nan && b.real) r = widen(std::move(r), b);
    if (b.nan && a.real) r = widen(std::move(r), a);
  }
  return r;
}
template <bool kMax, bool kProp>
Enclosure extremum_enclosure(EArgs a) {
  return fold(a, extremum2<kMax, kProp>);
}

smt::Expr real_pick(const smt::Expr& a, const smt::Expr& b, bool is_max) {
  return is_max ? z3::ite(a >= b, a, b) : z3::ite(a <= b, a, b);
}
// Over the reals there is no NaN and one zero: both policies are the same max.
template <bool kMax>
smt::Expr real_extremum_smt(smt::RealEncoding&, SArgs a) {
  smt::Expr acc = a[0];
  for (size_t k = 1; k < a.size(); ++k) acc = real_pick(acc, a[k], kMax);
  return acc;
}
template <bool kMax, bool kProp>
smt::Expr ieee_extremum_smt(smt::IeeeEncoding& e, SArgs a) {
  smt::Expr acc = a[0];
  for (size_t k = 1; k < a.size(); ++k) acc = smt::fp_pick(e, acc, a[k], kMax, kProp);
  return acc;
}

template <Op kOp, bool kMax, bool kProp, bool kVariadic>
constexpr OpInfo extremum_row(std::string_view spellings) {
  return {.op = kOp,
          .arity = static_cast<uint8_t>(kVariadic ? 1 : 2),
          .variadic = kVariadic,
          .sig = Signature::SameNum,
          .commutative = true,
          .real_exact = true,
          .picks_operand = true,
          .is_max = kMax,
          .nan_policy = kProp ? NanPolicy::Propagate : NanPolicy::Drop,
          .normal_form = NormalFormRole::Extremum,
          .spellings = spellings,
          .ieee = ieee_extremum<kMax, kProp>,
          .real = real_extremum<kMax, kProp>,
          .interval = extremum_interval<kMax, kProp>,
          .enclosure = extremum_enclosure<kMax, kProp>,
          .smt_real = real_extremum_smt<kMax>,
          .smt_ieee = ieee_extremum_smt<kMax, kProp>,
          .cuda = kMax ? (kProp ? "keq_max" : "keq_maxnum") : (kProp ? "keq_min" : "keq_minnum")};
}

const OpInfo kRows[] = {
    extremum_row<Op::Max, true, true, false>(""),
    extremum_row<Op::Min, false, true, false>(""),
    extremum_row<Op::MaxNum, true, false, false>("tl.maximum libdevice.fmax"),
    extremum_row<Op::MinNum, false, false, false>("tl.minimum libdevice.fmin"),
    extremum_row<Op::AMax, true, true, true>(""),
    extremum_row<Op::AMin, false, true, true>(""),
    extremum_row<Op::TMax, true, false, true>(""),
    extremum_row<Op::TMin, false, false, true>(""),
    // torch.clamp: min(max(x, lo), hi), NaN in any operand propagating.
    {.op = Op::Clamp,
     .arity = 3,
     .sig = Signature::SameNum,
     .real_exact = true,
     .picks_operand = true,
     .ieee = KEQ_IEEE(IeeeValue lo[2] = {a[0], a[1]};
                      IeeeValue hi[2] = {ieee_extremum<true, true>(lo), a[2]};
                      return ieee_extremum<false, true>(hi);),
     .real = KEQ_REAL(RealValue m; const RealValue* lo[2] = {a[0], a[1]};
                      real_extremum<true, true>(lo, m); const RealValue* hi[2] = {&m, a[2]};
                      real_extremum<false, true>(hi, out);),
     .interval = KEQ_INTERVAL(
         return maxmin_interval(maxmin_interval(a[0], a[1], true, true), a[2], false, true);),
     .enclosure =
         KEQ_ENCLOSE(return extremum2<false, true>(extremum2<true, true>(*a[0], *a[1]), *a[2]);),
     .smt_real = KEQ_SMT_REAL(return real_pick(real_pick(a[0], a[1], true), a[2], false);),
     .smt_ieee = KEQ_SMT_IEEE(
         return smt::fp_pick(e, smt::fp_pick(e, a[0], a[1], true, true), a[2], false, true);),
     .cuda = "keq_clamp"},
};

}  // namespace

std::span<const OpInfo> extremum_ops() {
  return kRows;
}

}  // namespace keq::ir::family
