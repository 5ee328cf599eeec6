#include "ir/enclosure.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <vector>

#include "ir/evaluate.h"
#include "ir/op.h"

namespace keq::ir {
namespace {

using Args = std::span<const Enclosure* const>;
using Fn1 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Fn2 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

Enclosure floats(bool real, bool nan) {
  Enclosure e;
  e.type = Type::F32;
  e.real = real;
  e.nan = nan;
  return e;
}

Enclosure ints(Type t, int64_t lo, int64_t hi) {
  Enclosure e;
  e.type = t;
  e.real = false;
  e.ilo = lo, e.ihi = hi;
  return e;
}

Enclosure boolean(bool can_be_false, bool can_be_true) {
  return ints(Type::Bool, can_be_false ? 0 : 1, can_be_true ? 1 : 0);
}

// A result whose bounds came out NaN (inf - inf, 0 * inf on the bounds) is "anything".
Enclosure checked(Enclosure e) {
  if (e.real && (mpfr_nan_p(e.lo.get()) || mpfr_nan_p(e.hi.get()))) return Enclosure::any(e.type);
  return e;
}

bool has_pos_inf(const Enclosure& a) {
  return a.real && mpfr_inf_p(a.hi.get()) && mpfr_sgn(a.hi.get()) > 0;
}
bool has_neg_inf(const Enclosure& a) {
  return a.real && mpfr_inf_p(a.lo.get()) && mpfr_sgn(a.lo.get()) < 0;
}
bool contains_zero(const Enclosure& a) {
  return a.real && mpfr_sgn(a.lo.get()) <= 0 && mpfr_sgn(a.hi.get()) >= 0;
}

// The smallest enclosure holding both.
Enclosure hull(const Enclosure& a, const Enclosure& b) {
  if (a.type != Type::F32) return ints(a.type, std::min(a.ilo, b.ilo), std::max(a.ihi, b.ihi));
  if (!a.real || !b.real) {
    Enclosure r = a.real ? a : b;
    r.nan = a.nan || b.nan;
    return r;
  }
  Enclosure r = floats(true, a.nan || b.nan);
  mpfr_min(r.lo.get(), a.lo.get(), b.lo.get(), MPFR_RNDD);
  mpfr_max(r.hi.get(), a.hi.get(), b.hi.get(), MPFR_RNDU);
  return r;
}

Enclosure add(const Enclosure& a, const Enclosure& b) {
  bool nan =
      a.nan || b.nan || (has_pos_inf(a) && has_neg_inf(b)) || (has_neg_inf(a) && has_pos_inf(b));
  Enclosure r = floats(a.real && b.real, nan);
  if (!r.real) return r;
  mpfr_add(r.lo.get(), a.lo.get(), b.lo.get(), MPFR_RNDD);
  mpfr_add(r.hi.get(), a.hi.get(), b.hi.get(), MPFR_RNDU);
  return checked(std::move(r));
}

Enclosure neg(const Enclosure& a) {
  Enclosure r = floats(a.real, a.nan);
  if (!r.real) return r;
  mpfr_neg(r.lo.get(), a.hi.get(), MPFR_RNDD);
  mpfr_neg(r.hi.get(), a.lo.get(), MPFR_RNDU);
  return r;
}

// Products or quotients of the four endpoint pairs: their min and max bound the result
// whenever no endpoint combination is undefined (0 * inf, inf / inf), which `checked` catches.
Enclosure corners(const Enclosure& a, const Enclosure& b, Fn2 f) {
  Enclosure r = floats(a.real && b.real, a.nan || b.nan);
  if (!r.real) return r;
  mpfr_set_inf(r.lo.get(), 1);
  mpfr_set_inf(r.hi.get(), -1);
  Real t;
  for (mpfr_srcptr x : {a.lo.get(), a.hi.get()})
    for (mpfr_srcptr y : {b.lo.get(), b.hi.get()}) {
      f(t.get(), x, y, MPFR_RNDD);
      if (mpfr_nan_p(t.get())) return Enclosure::any(Type::F32);
      mpfr_min(r.lo.get(), r.lo.get(), t.get(), MPFR_RNDD);
      f(t.get(), x, y, MPFR_RNDU);
      mpfr_max(r.hi.get(), r.hi.get(), t.get(), MPFR_RNDU);
    }
  return r;
}

Enclosure mul(const Enclosure& a, const Enclosure& b) {
  return corners(a, b, mpfr_mul);
}
Enclosure div(const Enclosure& a, const Enclosure& b) {
  if (contains_zero(b)) return Enclosure::any(Type::F32);
  return corners(a, b, mpfr_div);
}

// f monotone over the operand's whole interval (else its bounds come out NaN: "anything").
Enclosure monotone(const Enclosure& a, Fn1 f, bool increasing) {
  Enclosure r = floats(a.real, a.nan);
  if (!r.real) return r;
  f(r.lo.get(), increasing ? a.lo.get() : a.hi.get(), MPFR_RNDD);
  f(r.hi.get(), increasing ? a.hi.get() : a.lo.get(), MPFR_RNDU);
  // Outside the domain at a point (log of a negative): NaN, exactly.
  if (a.is_point() && mpfr_nan_p(r.lo.get()) && mpfr_nan_p(r.hi.get())) return floats(false, true);
  return checked(std::move(r));
}

int sigmoid_directed(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t rnd) {
  // 1 / (1 + exp(-x)): round the denominator the other way.
  mpfr_rnd_t away = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  Real t;
  mpfr_neg(t.get(), x, MPFR_RNDN);  // exact
  mpfr_exp(t.get(), t.get(), away);
  mpfr_add_ui(t.get(), t.get(), 1, away);
  return mpfr_ui_div(o, 1, t.get(), rnd);
}
int floor_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_floor(o, x);
}
int ceil_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_ceil(o, x);
}
int trunc_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_trunc(o, x);
}
int round_even(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_rint(o, x, MPFR_RNDN);  // the result is an integer, exact at this precision
}

Enclosure recip(const Enclosure& a) {
  if (contains_zero(a)) return Enclosure::any(Type::F32);
  Enclosure one = floats(true, false);
  mpfr_set_ui(one.lo.get(), 1, MPFR_RNDN);
  mpfr_set_ui(one.hi.get(), 1, MPFR_RNDN);
  return div(one, a);
}

Enclosure abs(const Enclosure& a) {
  if (!a.real || mpfr_sgn(a.lo.get()) >= 0) return a;
  if (mpfr_sgn(a.hi.get()) <= 0) return neg(a);
  Enclosure r = floats(true, a.nan);
  mpfr_set_zero(r.lo.get(), 1);
  mpfr_neg(r.hi.get(), a.lo.get(), MPFR_RNDU);
  mpfr_max(r.hi.get(), r.hi.get(), a.hi.get(), MPFR_RNDU);
  return r;
}

// r with x's real values added (r's NaN flag kept).
Enclosure widen(Enclosure r, const Enclosure& x) {
  if (!r.real) {
    r.real = true;
    mpfr_set(r.lo.get(), x.lo.get(), MPFR_RNDD);
    mpfr_set(r.hi.get(), x.hi.get(), MPFR_RNDU);
    return r;
  }
  mpfr_min(r.lo.get(), r.lo.get(), x.lo.get(), MPFR_RNDD);
  mpfr_max(r.hi.get(), r.hi.get(), x.hi.get(), MPFR_RNDU);
  return r;
}

// max/min of every pair of values; kNaN: NaN propagates (torch), else the other operand wins.
template <bool kMax, bool kPropagateNaN>
Enclosure extremum(const Enclosure& a, const Enclosure& b) {
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
  if (!kPropagateNaN) {  // a NaN operand yields the other operand
    if (a.nan && b.real) r = widen(std::move(r), b);
    if (b.nan && a.real) r = widen(std::move(r), a);
  }
  return r;
}

Enclosure fold(Args a, Enclosure (*f)(const Enclosure&, const Enclosure&)) {
  Enclosure r = *a[0];
  for (size_t k = 1; k < a.size(); ++k) r = f(r, *a[k]);
  return r;
}

Enclosure compare(Op op, const Enclosure& a, const Enclosure& b) {
  if (a.type != Type::F32) {
    auto [al, ah, bl, bh] = std::tuple(a.ilo, a.ihi, b.ilo, b.ihi);
    switch (op) {
      case Op::Lt:
        return boolean(ah >= bl, al < bh);
      case Op::Le:
        return boolean(ah > bl, al <= bh);
      case Op::Gt:
        return boolean(al <= bh, ah > bl);
      case Op::Ge:
        return boolean(al < bh, ah >= bl);
      default: {
        bool may_equal = al <= bh && bl <= ah;
        bool must_equal = al == ah && bl == bh && al == bl;
        return op == Op::Eq ? boolean(!must_equal, may_equal) : boolean(may_equal, !must_equal);
      }
    }
  }
  bool t = false, f = a.nan || b.nan;  // every comparison with NaN is false, but !=
  if (op == Op::Ne) std::swap(t, f);
  if (a.real && b.real) {
    mpfr_srcptr al = a.lo.get(), ah = a.hi.get(), bl = b.lo.get(), bh = b.hi.get();
    bool may_t = false, may_f = false;
    switch (op) {
      case Op::Lt:
        may_t = mpfr_less_p(al, bh), may_f = mpfr_greaterequal_p(ah, bl);
        break;
      case Op::Le:
        may_t = mpfr_lessequal_p(al, bh), may_f = mpfr_greater_p(ah, bl);
        break;
      case Op::Gt:
        may_t = mpfr_greater_p(ah, bl), may_f = mpfr_lessequal_p(al, bh);
        break;
      case Op::Ge:
        may_t = mpfr_greaterequal_p(ah, bl), may_f = mpfr_less_p(al, bh);
        break;
      default: {
        bool may_equal = mpfr_lessequal_p(al, bh) && mpfr_lessequal_p(bl, ah);
        bool must_equal = mpfr_equal_p(al, ah) && mpfr_equal_p(bl, bh) && mpfr_equal_p(al, bl);
        may_t = op == Op::Eq ? may_equal : !must_equal;
        may_f = op == Op::Eq ? !must_equal : may_equal;
      }
    }
    t = t || may_t, f = f || may_f;
  }
  return boolean(f, t);
}

// The op table's own (exact) real evaluation at a point.
Enclosure at_point(Op op, Args a) {
  std::vector<RealValue> vals(a.size());
  std::vector<const RealValue*> ptrs;
  for (size_t k = 0; k < a.size(); ++k) {
    vals[k].type = a[k]->type;
    if (a[k]->type == Type::F32) {
      if (a[k]->real && mpfr_zero_p(a[k]->lo.get()))
        mpfr_set_zero(vals[k].f.get(), 1);  // one zero: an outward-rounded bound may be -0
      else if (a[k]->real)
        mpfr_set(vals[k].f.get(), a[k]->lo.get(), MPFR_RNDN);  // exact: same precision
      else
        mpfr_set_nan(vals[k].f.get());
    } else {
      vals[k].i = a[k]->ilo;
    }
    ptrs.push_back(&vals[k]);
  }
  RealValue out;
  eval_real(op, ptrs, out);
  return Enclosure::point(out);
}

// A monotone non-decreasing op whose real evaluation is exact (casts, rounding to integers):
// its values at the two ends bound it; NaN is evaluated on its own.
Enclosure exact_monotone(Op op, const Enclosure& a) {
  auto at = [&](mpfr_srcptr x) {
    Enclosure p = floats(true, false);
    mpfr_set(p.lo.get(), x, MPFR_RNDN);
    mpfr_set(p.hi.get(), x, MPFR_RNDN);
    const Enclosure* args[1] = {&p};
    return at_point(op, args);
  };
  std::optional<Enclosure> r;
  if (a.real) {
    Enclosure lo = at(a.lo.get()), hi = at(a.hi.get());
    // A value that overflows to NaN (torch's e4m3fn) breaks monotonicity between the ends.
    if ((lo.type == Type::F32 && !lo.real) || (hi.type == Type::F32 && !hi.real))
      return Enclosure::any(lo.type);
    r = hull(lo, hi);
  }
  if (a.nan) {
    Enclosure n = floats(false, true);
    const Enclosure* args[1] = {&n};
    Enclosure at_nan = at_point(op, args);
    r = r ? hull(*r, at_nan) : at_nan;
  }
  return r ? *r : Enclosure::any(op_info(op).cast_result);
}

Enclosure pow(const Enclosure& a, const Enclosure& b) {
  if (!b.is_point() || !b.real || a.nan) return Enclosure::any(Type::F32);
  mpfr_srcptr n = b.lo.get();
  if (mpfr_integer_p(n) && mpfr_cmpabs_ui(n, 16) <= 0) {  // repeated products: exact bounds
    long k = mpfr_get_si(n, MPFR_RNDN);
    Enclosure r = floats(true, false);
    mpfr_set_ui(r.lo.get(), 1, MPFR_RNDN);
    mpfr_set_ui(r.hi.get(), 1, MPFR_RNDN);
    for (long j = 0; j < std::labs(k); ++j) r = mul(r, a);
    return k < 0 ? recip(r) : r;
  }
  if (!a.real || mpfr_sgn(a.lo.get()) <= 0) return Enclosure::any(Type::F32);
  Enclosure r = floats(true, false);
  bool increasing = mpfr_sgn(n) > 0;
  mpfr_pow(r.lo.get(), increasing ? a.lo.get() : a.hi.get(), n, MPFR_RNDD);
  mpfr_pow(r.hi.get(), increasing ? a.hi.get() : a.lo.get(), n, MPFR_RNDU);
  return checked(std::move(r));
}

// fmod and torch's remainder of two points: fmod is exact when MPFR says so.
Enclosure modulo(Op op, const Enclosure& a, const Enclosure& b) {
  if (!a.is_point() || !b.is_point() || !a.real || !b.real) return Enclosure::any(Type::F32);
  Real m;
  if (mpfr_fmod(m.get(), a.lo.get(), b.lo.get(), MPFR_RNDN) != 0 || mpfr_nan_p(m.get()))
    return Enclosure::any(Type::F32);
  Enclosure r = floats(true, false);
  bool shift = op == Op::Remainder && !mpfr_zero_p(m.get()) &&
               (mpfr_sgn(m.get()) < 0) != (mpfr_sgn(b.lo.get()) < 0);
  mpfr_set(r.lo.get(), m.get(), MPFR_RNDN);
  mpfr_set(r.hi.get(), m.get(), MPFR_RNDN);
  if (shift) {
    mpfr_add(r.lo.get(), m.get(), b.lo.get(), MPFR_RNDD);
    mpfr_add(r.hi.get(), m.get(), b.lo.get(), MPFR_RNDU);
  }
  return r;
}

Enclosure cast_bool(const Enclosure& a) {
  if (a.type != Type::F32) return boolean(a.ilo <= 0 && a.ihi >= 0, !(a.ilo == 0 && a.ihi == 0));
  bool may_zero = contains_zero(a);
  bool may_nonzero = a.nan || (a.real && !(mpfr_zero_p(a.lo.get()) && mpfr_zero_p(a.hi.get())));
  return boolean(may_zero, may_nonzero);
}

Enclosure ldexp(const Enclosure& a, const Enclosure& e) {
  if (e.ilo != e.ihi) return Enclosure::any(Type::F32);
  Enclosure r = floats(a.real, a.nan);
  if (!r.real) return r;
  mpfr_mul_2si(r.lo.get(), a.lo.get(), e.ilo, MPFR_RNDD);
  mpfr_mul_2si(r.hi.get(), a.hi.get(), e.ilo, MPFR_RNDU);
  return r;
}

Enclosure logic(Op op, Args a) {
  if (op == Op::Not) return ints(Type::Bool, 1 - a[0]->ihi, 1 - a[0]->ilo);
  if (op == Op::And) return ints(Type::Bool, a[0]->ilo & a[1]->ilo, a[0]->ihi & a[1]->ihi);
  return ints(Type::Bool, a[0]->ilo | a[1]->ilo, a[0]->ihi | a[1]->ihi);
}

Enclosure apply(Op op, Args a) {
  bool points = std::ranges::all_of(a, [](const Enclosure* e) { return e->is_point(); });
  // At points, special values are exact too: inf - inf is NaN, exp(-inf) is 0.
  bool special = std::ranges::any_of(a, [](const Enclosure* e) {
    return e->type == Type::F32 && (!e->real || mpfr_inf_p(e->lo.get()));
  });
  // Division of points by exactly zero is exact as well (inf, or NaN for 0/0).
  bool by_zero = (op == Op::Div || op == Op::DivFull || op == Op::Recip) && a.back()->is_point() &&
                 contains_zero(*a.back());
  if (points && (real_eval_exact(op) || special || by_zero)) return at_point(op, a);
  const Enclosure& x = *a[0];
  switch (op) {
    case Op::Add:
      return x.type == Type::F32 ? add(x, *a[1]) : Enclosure::any(x.type);
    case Op::Sub:
      return x.type == Type::F32 ? add(x, neg(*a[1])) : Enclosure::any(x.type);
    case Op::Mul:
      return x.type == Type::F32 ? mul(x, *a[1]) : Enclosure::any(x.type);
    case Op::Div:
    case Op::DivFull:
      return div(x, *a[1]);
    case Op::Neg:
      return x.type == Type::F32 ? neg(x) : Enclosure::any(x.type);
    case Op::Abs:
      return x.type == Type::F32 ? abs(x) : Enclosure::any(x.type);
    case Op::Fma:
      return add(mul(x, *a[1]), *a[2]);
    case Op::Max:
    case Op::AMax:
      return fold(a, extremum<true, true>);
    case Op::Min:
    case Op::AMin:
      return fold(a, extremum<false, true>);
    case Op::MaxNum:
    case Op::TMax:
      return fold(a, extremum<true, false>);
    case Op::MinNum:
    case Op::TMin:
      return fold(a, extremum<false, false>);
    case Op::Sum:
      return x.type == Type::F32 ? fold(a, add) : Enclosure::any(x.type);
    case Op::Prod:
      return x.type == Type::F32 ? fold(a, mul) : Enclosure::any(x.type);
    case Op::Clamp:
      return extremum<false, true>(extremum<true, true>(x, *a[1]), *a[2]);
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
      return compare(op, x, *a[1]);
    case Op::Select:
      if (x.ilo == x.ihi) return x.ilo ? *a[1] : *a[2];
      return hull(*a[1], *a[2]);
    case Op::And:
    case Op::Or:
    case Op::Not:
      return logic(op, a);
    case Op::Exp:
      return monotone(x, mpfr_exp, true);
    case Op::Exp2:
      return monotone(x, mpfr_exp2, true);
    case Op::Log:
      return monotone(x, mpfr_log, true);
    case Op::Log2:
      return monotone(x, mpfr_log2, true);
    case Op::Sqrt:
    case Op::SqrtApprox:
      return monotone(x, mpfr_sqrt, true);
    case Op::Rsqrt:
      return monotone(x, mpfr_rec_sqrt, false);
    case Op::Recip:
      return recip(x);
    case Op::Pow:
      return pow(x, *a[1]);
    case Op::Tanh:
      return monotone(x, mpfr_tanh, true);
    case Op::Erf:
      return monotone(x, mpfr_erf, true);
    case Op::Sigmoid:
      return monotone(x, sigmoid_directed, true);
    case Op::Floor:
      return monotone(x, floor_fn, true);
    case Op::Ceil:
      return monotone(x, ceil_fn, true);
    case Op::Round:
      return monotone(x, round_even, true);
    case Op::Trunc:
      return monotone(x, trunc_fn, true);
    case Op::FMod:
    case Op::Remainder:
      return modulo(op, x, *a[1]);
    case Op::CastF32:
      if (x.type == Type::F32) return x;
      break;
    case Op::CastF16:
    case Op::CastBF16:
    case Op::CastE4M3:
    case Op::CastE4M3Sat:
    case Op::CastE5M2:
    case Op::CastE5M2Sat:
    case Op::CastI32:
    case Op::CastI64:
      if (x.type == Type::F32) return exact_monotone(op, x);
      break;
    case Op::CastBool:
      return cast_bool(x);
    case Op::Ldexp:
      return ldexp(x, *a[1]);
    default:
      break;  // integer ops, bitcasts and frexp of non-points: any value
  }
  std::vector<Type> types;
  for (const Enclosure* e : a) types.push_back(e->type);
  return Enclosure::any(result_type(op, types).type.value_or(Type::F32));
}

}  // namespace

Enclosure Enclosure::point(const RealValue& v) {
  if (v.type != Type::F32) return ints(v.type, v.i, v.i);
  if (mpfr_nan_p(v.f.get())) return floats(false, true);
  Enclosure e = floats(true, false);
  mpfr_set(e.lo.get(), v.f.get(), MPFR_RNDD);
  mpfr_set(e.hi.get(), v.f.get(), MPFR_RNDU);
  return e;
}

Enclosure Enclosure::any(Type t) {
  if (t == Type::Bool) return ints(t, 0, 1);
  if (t == Type::I32) return ints(t, INT32_MIN, INT32_MAX);
  if (t == Type::I64) return ints(t, INT64_MIN, INT64_MAX);
  Enclosure e = floats(true, true);
  mpfr_set_inf(e.lo.get(), -1);
  mpfr_set_inf(e.hi.get(), 1);
  return e;
}

bool Enclosure::narrows_with_precision() const {
  if (type != Type::F32 || is_point()) return true;
  return real && !nan && mpfr_number_p(lo.get()) && mpfr_number_p(hi.get());
}

bool Enclosure::is_point() const {
  if (type != Type::F32) return ilo == ihi;
  if (!real) return nan;
  return !nan && mpfr_equal_p(lo.get(), hi.get());
}

std::string Enclosure::str() const {
  if (type != Type::F32)
    return ilo == ihi ? std::to_string(ilo)
                      : "[" + std::to_string(ilo) + ", " + std::to_string(ihi) + "]";
  std::string s;
  if (real) {
    char* buf = nullptr;
    if (mpfr_equal_p(lo.get(), hi.get()))
      mpfr_asprintf(&buf, "%.9Rg", lo.get());
    else
      mpfr_asprintf(&buf, "[%.9RDg, %.9RUg]", lo.get(), hi.get());
    s = buf;
    mpfr_free_str(buf);
  }
  if (nan) s += s.empty() ? "nan" : " or nan";
  return s;
}

bool disjoint(const Enclosure& a, const Enclosure& b) {
  if (a.type != Type::F32 || b.type != Type::F32) return a.ihi < b.ilo || b.ihi < a.ilo;
  bool a_empty = !a.real && !a.nan, b_empty = !b.real && !b.nan;
  if (a_empty || b_empty) return false;  // no value at all: no evidence
  if (a.nan && b.nan) return false;
  if (a.real && b.real)
    return mpfr_less_p(a.hi.get(), b.lo.get()) || mpfr_less_p(b.hi.get(), a.lo.get());
  return true;
}

std::string separation(const Enclosure& a, const Enclosure& b) {
  if (a.type != Type::F32) return std::to_string(b.ilo - a.ihi);
  if (a.nan != b.nan) return "NaN on one side only";
  auto inf = [](const Enclosure& e) { return mpfr_inf_p(e.lo.get()) || mpfr_inf_p(e.hi.get()); };
  if (inf(a) || inf(b)) return "inf";
  Real d;
  bool b_above = mpfr_less_p(a.hi.get(), b.lo.get());
  mpfr_sub(d.get(), b_above ? b.lo.get() : a.lo.get(), b_above ? a.hi.get() : b.hi.get(),
           MPFR_RNDD);
  if (!b_above) mpfr_neg(d.get(), d.get(), MPFR_RNDN);
  char* buf = nullptr;
  mpfr_asprintf(&buf, "%.6Rg", d.get());
  std::string s(buf);
  mpfr_free_str(buf);
  return s;
}

Enclosure evaluate_enclosure(const TermStore& s, TermId root, const EnclosureEnv& env) {
  auto point_env = [&](const Variable& v) -> std::optional<Enclosure> {
    auto r = env(v);
    return r ? std::optional(Enclosure::point(*r)) : std::nullopt;
  };
  std::vector<const Enclosure*> args;
  return evaluate<Enclosure>(s, root, point_env,
                             [&](Op op, std::span<const TermId> kids, const auto& memo) {
                               args.clear();
                               for (TermId c : kids) args.push_back(&memo.at(c));
                               return apply(op, Args(args));
                             });
}

}  // namespace keq::ir
