#include "ir/enclosure.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <vector>

#include "ir/evaluate.h"
#include "ir/op.h"
#include "ir/ops/family.h"

namespace keq::ir {
namespace family {
namespace {

bool has_pos_inf(const Enclosure& a) {
  return a.real && mpfr_inf_p(a.hi.get()) && mpfr_sgn(a.hi.get()) > 0;
}
bool has_neg_inf(const Enclosure& a) {
  return a.real && mpfr_inf_p(a.lo.get()) && mpfr_sgn(a.lo.get()) < 0;
}

}  // namespace

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
static Enclosure corners(const Enclosure& a, const Enclosure& b, Mpfr2 f) {
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
Enclosure monotone(const Enclosure& a, Mpfr1 f, bool increasing) {
  Enclosure r = floats(a.real, a.nan);
  if (!r.real) return r;
  f(r.lo.get(), increasing ? a.lo.get() : a.hi.get(), MPFR_RNDD);
  f(r.hi.get(), increasing ? a.hi.get() : a.lo.get(), MPFR_RNDU);
  // Outside the domain at a point (log of a negative): NaN, exactly.
  if (a.is_point() && mpfr_nan_p(r.lo.get()) && mpfr_nan_p(r.hi.get())) return floats(false, true);
  return checked(std::move(r));
}

Enclosure recip(const Enclosure& a) {
  if (contains_zero(a)) return Enclosure::any(Type::F32);
  Enclosure one = floats(true, false);
  mpfr_set_ui(one.lo.get(), 1, MPFR_RNDN);
  mpfr_set_ui(one.hi.get(), 1, MPFR_RNDN);
  return div(one, a);
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

Enclosure fold(EArgs a, Enclosure (*f)(const Enclosure&, const Enclosure&)) {
  Enclosure r = *a[0];
  for (size_t k = 1; k < a.size(); ++k) r = f(r, *a[k]);
  return r;
}

// The op table's own (exact) real evaluation at a point.
Enclosure at_point(Op op, EArgs a) {
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
    // Overflow is |x| past a threshold: both ends over it on one side of 0 means every value
    // between them is too.
    bool lo_nan = lo.type == Type::F32 && !lo.real, hi_nan = hi.type == Type::F32 && !hi.real;
    bool one_side = mpfr_sgn(a.lo.get()) > 0 || mpfr_sgn(a.hi.get()) < 0;
    if (lo_nan && hi_nan && one_side)
      r = floats(false, true);
    else if (lo_nan || hi_nan)
      return Enclosure::any(lo.type);
    else
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

}  // namespace family

namespace {

using namespace family;

Enclosure apply(Op op, EArgs a) {
  bool points = std::ranges::all_of(a, [](const Enclosure* e) { return e->is_point(); });
  // At points, special values are exact too: inf - inf is NaN, exp(-inf) is 0.
  bool special = std::ranges::any_of(a, [](const Enclosure* e) {
    return e->type == Type::F32 && (!e->real || mpfr_inf_p(e->lo.get()));
  });
  // Division of points by exactly zero is exact as well (inf, or NaN for 0/0).
  bool by_zero = (op == Op::Div || op == Op::DivFull || op == Op::Recip) && a.back()->is_point() &&
                 contains_zero(*a.back());
  if (points && (real_eval_exact(op) || special || by_zero)) return at_point(op, a);
  if (const OpInfo& info = op_info(op); info.enclosure) return info.enclosure(a);
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

bool Enclosure::surely_finite() const {
  if (type != Type::F32) return true;
  return finite || (real && !nan && mpfr_number_p(lo.get()) && mpfr_number_p(hi.get()));
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
  return evaluate_enclosure_over(s, root, [&](const Variable& v) -> std::optional<Enclosure> {
    auto r = env(v);
    return r ? std::optional(Enclosure::point(*r)) : std::nullopt;
  });
}

namespace {

// Whether op keeps finite operands finite over the reals (no overflow there): a sum, a product,
// exp of a finite value; a quotient or a log only away from their poles.
bool stays_finite(Op op, EArgs a) {
  for (const Enclosure* e : a)
    if (!e->surely_finite()) return false;
  switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
    case Op::Abs:
    case Op::Fma:
    case Op::Max:
    case Op::Min:
    case Op::MaxNum:
    case Op::MinNum:
    case Op::Clamp:
    case Op::Select:
    case Op::Exp:
    case Op::Exp2:
    case Op::Expm1:
    case Op::Tanh:
    case Op::Erf:
    case Op::Sigmoid:
    case Op::Sin:
    case Op::Cos:
    case Op::CastF32:
    case Op::Sum:
    case Op::AMax:
    case Op::AMin:
      return true;
    case Op::Div:
    case Op::DivFull:
    case Op::Recip:
      return !contains_zero(*a.back());
    case Op::Log:
    case Op::Log2:
      return a[0]->real && mpfr_sgn(a[0]->lo.get()) > 0;
    case Op::Log1p:
      return a[0]->real && mpfr_cmp_si(a[0]->lo.get(), -1) > 0;
    case Op::Sqrt:
      return a[0]->real && mpfr_sgn(a[0]->lo.get()) >= 0;
    default:
      return false;
  }
}

// t as c + k*a for a constant c and k = +-1 (a, a + c, c + a, a - c, c - a); a is t itself when
// nothing else matches.
struct Affine {
  TermId a;
  int k;
  double c;
};
Affine affine_of(const TermStore& s, TermId t) {
  Op op = s.op(t);
  if (op == Op::Add || op == Op::Sub) {
    auto kids = s.children(t);
    auto is_const = [&](TermId x) {
      return s.op(x) == Op::Const && s.type(x) == Type::F32 && std::isfinite(s.constant_of(x).f);
    };
    if (is_const(kids[1]))
      return {kids[0], 1, op == Op::Add ? s.constant_of(kids[1]).f : -s.constant_of(kids[1]).f};
    if (is_const(kids[0])) return {kids[1], op == Op::Add ? 1 : -1, s.constant_of(kids[0]).f};
  }
  return {t, 1, 0};
}

// (c1 + k1 a) / (c2 + k2 a) over a surely finite a: a Moebius map of one value, monotone on each
// side of its pole, so its values at the ends of a's enclosure (the limit k1/k2 at an infinite end)
// bound it. The general quotient loses that both operands move together: tanh written as
// (e^2x - 1) / (e^2x + 1) over x > 20 is [0, inf] there, and [tanh 20, 1] here. A numerator
// m (c1 + k1 a) (Python's `x * (e - 1) / (e + 1)`) is m times that map.
std::optional<Enclosure> moebius(const TermStore& s, Op op, std::span<const TermId> kids,
                                 const absl::flat_hash_map<TermId, Enclosure>& memo) {
  if (op == Op::Mul && s.type(kids[0]) == Type::F32) {  // n * (c / d) and n * recip(d): c (n / d)
    for (int side = 0; side < 2; ++side) {
      TermId r = kids[side];
      Op rop = s.op(r);
      bool quotient = (rop == Op::Div || rop == Op::DivFull) &&
                      s.op(s.children(r)[0]) == Op::Const &&
                      std::isfinite(s.constant_of(s.children(r)[0]).f);
      if (!quotient && rop != Op::Recip) continue;
      TermId pair[2] = {kids[1 - side], s.children(r).back()};
      auto q = moebius(s, Op::Div, pair, memo);
      if (!q || rop == Op::Recip) return q;
      Enclosure c = Enclosure::of(s.constant_of(s.children(r)[0]));
      const Enclosure* args[2] = {&c, &*q};
      Enclosure scaled = apply(Op::Mul, EArgs(args));
      scaled.finite = scaled.real && !scaled.nan;
      return scaled;
    }
    return std::nullopt;
  }
  if ((op != Op::Div && op != Op::DivFull) || s.type(kids[0]) != Type::F32) return std::nullopt;
  Affine d = affine_of(s, kids[1]);
  if (s.op(kids[0]) == Op::Mul) {
    for (int side = 0; side < 2; ++side) {
      TermId factor = s.children(kids[0])[side], other = s.children(kids[0])[1 - side];
      if (affine_of(s, factor).a != d.a) continue;
      TermId pair[2] = {factor, kids[1]};
      auto q = moebius(s, op, pair, memo);
      auto m = memo.find(other);
      if (!q || m == memo.end()) return std::nullopt;
      const Enclosure* args[2] = {&m->second, &*q};
      Enclosure r = apply(Op::Mul, EArgs(args));
      r.finite = r.real && !r.nan && m->second.surely_finite();
      return r;
    }
  }
  Affine n = affine_of(s, kids[0]);
  if (n.a != d.a || (n.c == 0 && d.c == 0)) return std::nullopt;
  auto at = memo.find(n.a);
  if (at == memo.end()) return std::nullopt;
  const Enclosure& a = at->second;
  if (!a.real || !a.surely_finite()) return std::nullopt;
  // The pole, a = -c2 / k2, must lie outside [lo, hi].
  Real pole(-d.c / d.k);
  if (mpfr_cmp(a.lo.get(), pole.get()) <= 0 && mpfr_cmp(pole.get(), a.hi.get()) <= 0)
    return std::nullopt;
  auto value_at = [&](mpfr_srcptr x) {
    if (mpfr_inf_p(x))
      return Enclosure::point(RealValue::of(Constant::of_float(static_cast<double>(n.k) / d.k)));
    Enclosure p = floats(true, false);
    mpfr_set(p.lo.get(), x, MPFR_RNDN);
    mpfr_set(p.hi.get(), x, MPFR_RNDN);
    Enclosure kn = Enclosure::point(RealValue::of(Constant::of_float(n.k)));
    Enclosure cn = Enclosure::point(RealValue::of(Constant::of_float(n.c)));
    Enclosure kd = Enclosure::point(RealValue::of(Constant::of_float(d.k)));
    Enclosure cd = Enclosure::point(RealValue::of(Constant::of_float(d.c)));
    const Enclosure* mn[2] = {&kn, &p};
    Enclosure num_k = apply(Op::Mul, EArgs(mn));
    const Enclosure* an[2] = {&cn, &num_k};
    Enclosure num = apply(Op::Add, EArgs(an));
    const Enclosure* md[2] = {&kd, &p};
    Enclosure den_k = apply(Op::Mul, EArgs(md));
    const Enclosure* ad[2] = {&cd, &den_k};
    Enclosure den = apply(Op::Add, EArgs(ad));
    const Enclosure* q[2] = {&num, &den};
    return apply(Op::Div, EArgs(q));
  };
  Enclosure r = hull(value_at(a.lo.get()), value_at(a.hi.get()));
  if (!r.real || r.nan) return std::nullopt;
  r.finite = true;
  return r;
}

// A product of two surely finite values: over the reals x * 0 is 0 for every finite x, though
// an enclosure's infinite end makes interval arithmetic say NaN at that corner (inf * 0). The
// hull of the corners, with such a corner 0, bounds the product (a clamp at [0, 6] times an
// unbounded finite value, as in hardswish).
std::optional<Enclosure> finite_product(Op op, EArgs a) {
  if (op != Op::Mul || a.size() != 2 || a[0]->type != Type::F32 || a[1]->type != Type::F32)
    return std::nullopt;
  for (const Enclosure* e : a)
    if (!e->real || e->nan || !e->surely_finite()) return std::nullopt;
  bool unbounded = false;
  for (const Enclosure* e : a)
    unbounded = unbounded || mpfr_inf_p(e->lo.get()) || mpfr_inf_p(e->hi.get());
  if (!unbounded) return std::nullopt;  // interval arithmetic is exact enough there
  Enclosure r = *a[0];
  Real corner;
  bool first = true;
  for (mpfr_srcptr x : {a[0]->lo.get(), a[0]->hi.get()})
    for (mpfr_srcptr y : {a[1]->lo.get(), a[1]->hi.get()})
      for (mpfr_rnd_t rnd : {MPFR_RNDD, MPFR_RNDU}) {
        if (mpfr_zero_p(x) || mpfr_zero_p(y))
          mpfr_set_zero(corner.get(), 1);
        else
          mpfr_mul(corner.get(), x, y, rnd);
        if (first || mpfr_less_p(corner.get(), r.lo.get()))
          mpfr_set(r.lo.get(), corner.get(), MPFR_RNDD);
        if (first || mpfr_greater_p(corner.get(), r.hi.get()))
          mpfr_set(r.hi.get(), corner.get(), MPFR_RNDU);
        first = false;
      }
  r.finite = true;
  return r;
}

}  // namespace

Enclosure evaluate_enclosure_over(const TermStore& s, TermId root, const EnclosureRangeEnv& env,
                                  EnclosureMemo& memo) {
  Real::widen_exponent_range();  // as evaluate_real: fewer bounds flushed to 0 or inf
  std::vector<const Enclosure*> args;
  return evaluate<Enclosure>(
      s, root, env,
      [&](Op op, std::span<const TermId> kids, const auto& memo) {
        args.clear();
        for (TermId c : kids) args.push_back(&memo.at(c));
        if (auto m = moebius(s, op, kids, memo)) return *m;
        if (auto p = finite_product(op, EArgs(args))) return *p;
        Enclosure r = apply(op, EArgs(args));
        if (r.type == Type::F32 && r.real && !r.nan) r.finite = stays_finite(op, EArgs(args));
        return r;
      },
      memo);
}

Enclosure evaluate_enclosure_over(const TermStore& s, TermId root, const EnclosureRangeEnv& env) {
  EnclosureMemo memo;
  return evaluate_enclosure_over(s, root, env, memo);
}

}  // namespace keq::ir
