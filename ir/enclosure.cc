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

Enclosure evaluate_enclosure_over(const TermStore& s, TermId root, const EnclosureRangeEnv& env) {
  std::vector<const Enclosure*> args;
  return evaluate<Enclosure>(s, root, env,
                             [&](Op op, std::span<const TermId> kids, const auto& memo) {
                               args.clear();
                               for (TermId c : kids) args.push_back(&memo.at(c));
                               return apply(op, EArgs(args));
                             });
}

}  // namespace keq::ir
