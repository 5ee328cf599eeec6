// What the op families (ir/ops/*.cc) share: evaluation helpers and the arithmetic of the two
// abstract domains (Interval, the e-graph's analysis; Enclosure, replay's rigorous intervals).
// Internal to ir/: everything outside reads ops through ir/op.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "ir/enclosure.h"
#include "ir/interval.h"
#include "ir/op.h"
#include "ir/smt_expr.h"

namespace keq::ir::family {

using IArgs = std::span<const IeeeValue>;
using RArgs = std::span<const RealValue* const>;
using EArgs = std::span<const Enclosure* const>;
using IvArgs = std::span<const Interval>;
using SArgs = std::span<const smt::Expr>;
using Mpfr1 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Mpfr2 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
constexpr double kInf = Interval::kInf;

// Each family's rows; op.cc checks that together they give every op exactly one.
std::span<const OpInfo> arithmetic_ops();
std::span<const OpInfo> extremum_ops();
std::span<const OpInfo> logic_ops();
std::span<const OpInfo> elementary_ops();
std::span<const OpInfo> rounding_ops();
std::span<const OpInfo> integer_ops();

// ---- concrete values ----------------------------------------------------------------------

int64_t wrap(Type t, uint64_t v);  // two's complement wrap to t's width
inline IeeeValue fval(float f) {
  return IeeeValue{Type::F32, f, 0};
}
inline IeeeValue ival(Type t, int64_t i) {
  return IeeeValue{t, 0, i};
}
inline IeeeValue bval(bool b) {
  return IeeeValue{Type::Bool, 0, b};
}
inline void set_int(RealValue& out, Type t, int64_t i) {
  out.type = t;
  out.i = i;
}
inline mpfr_ptr set_float(RealValue& out) {
  out.type = Type::F32;
  return out.f.get();
}
// + - * max min, C and Python division and modulo, shifts and bit ops on wrapped integers.
// Throws EvalError (division by zero, shift out of range).
int64_t int_binop(Op op, Type t, int64_t a, int64_t b);
// An op IEEE cannot pin down to the bit (exp, tanh, ...) evaluates as the correctly rounded fp32
// of the exact function: the reference that approximations are measured against.
IeeeValue ieee_via_real(Op op, IArgs a);
IeeeValue ieee_num2(Op op, IArgs a, float (*f)(float, float));  // f on floats, int_binop on ints
IeeeValue ieee_fold(Op op, IArgs a, float (*f)(float, float));  // left to right

template <Mpfr1 F>
void real_unary(RArgs a, RealValue& out) {
  F(set_float(out), a[0]->f.get(), MPFR_RNDN);
}
template <Mpfr2 F>
void real_float2(RArgs a, RealValue& out) {
  F(set_float(out), a[0]->f.get(), a[1]->f.get(), MPFR_RNDN);
}
template <Mpfr2 F, Op kOp>
void real_num2(RArgs a, RealValue& out) {
  if (a[0]->type == Type::F32) return real_float2<F>(a, out);
  set_int(out, a[0]->type, int_binop(kOp, a[0]->type, a[0]->i, a[1]->i));
}
template <Mpfr2 F, Op kOp>
void real_fold(RArgs a, RealValue& out) {
  if (a[0]->type != Type::F32) {
    int64_t acc = a[0]->i;
    for (size_t k = 1; k < a.size(); ++k) acc = int_binop(kOp, a[0]->type, acc, a[k]->i);
    return set_int(out, a[0]->type, acc);
  }
  mpfr_ptr o = set_float(out);
  mpfr_set(o, a[0]->f.get(), MPFR_RNDN);
  for (size_t k = 1; k < a.size(); ++k) F(o, o, a[k]->f.get(), MPFR_RNDN);
}
template <Op kOp>
IeeeValue ieee_int2(IArgs a) {
  return ival(a[0].type, int_binop(kOp, a[0].type, a[0].i, a[1].i));
}
template <Op kOp>
void real_int2(RArgs a, RealValue& out) {
  set_int(out, a[0]->type, int_binop(kOp, a[0]->type, a[0]->i, a[1]->i));
}

// ---- intervals (ir/interval.cc) -----------------------------------------------------------

double down(double x);  // two ulps out: libm results are within an ulp or two
double up(double x);
Interval make(double lo, double hi, bool nan);  // outward, NaN bounds unbounded
// Monotone non-decreasing f on [lo, hi].
template <class F>
Interval monotone(const Interval& a, F f, bool nan_extra = false) {
  if (a.empty_range()) return {kInf, -kInf, a.nan || nan_extra};
  return make(f(a.lo), f(a.hi), a.nan || nan_extra);
}
Interval add(const Interval& a, const Interval& b);
Interval neg(const Interval& a);
Interval mul(const Interval& a, const Interval& b);
Interval recip(const Interval& a);
Interval div(const Interval& a, const Interval& b);
Interval join(const Interval& a, const Interval& b);
Interval clip(Interval r, double lo, double hi);
Interval cast(const Interval& a, FloatFormat f, Overflow o);  // rounding into a narrow format
Interval bool_interval();                                     // {0, 1}

// ---- enclosures (ir/enclosure.cc) ---------------------------------------------------------

Enclosure floats(bool real, bool nan);
Enclosure ints(Type t, int64_t lo, int64_t hi);
Enclosure boolean(bool can_be_false, bool can_be_true);
Enclosure checked(Enclosure e);  // NaN bounds (inf - inf at the ends) mean "anything"
bool contains_zero(const Enclosure& a);
Enclosure hull(const Enclosure& a, const Enclosure& b);
Enclosure widen(Enclosure r, const Enclosure& x);  // r with x's real values added
Enclosure add(const Enclosure& a, const Enclosure& b);
Enclosure neg(const Enclosure& a);
Enclosure mul(const Enclosure& a, const Enclosure& b);
Enclosure div(const Enclosure& a, const Enclosure& b);
Enclosure recip(const Enclosure& a);
// f monotone over the operand's whole interval (else its bounds come out NaN: "anything").
Enclosure monotone(const Enclosure& a, Mpfr1 f, bool increasing);
Enclosure fold(EArgs a, Enclosure (*f)(const Enclosure&, const Enclosure&));
Enclosure at_point(Op op, EArgs a);  // the op's own exact real evaluation at a point
// A monotone op whose real evaluation is exact (casts, rounding to integers): its values at the
// two ends bound it; NaN is evaluated on its own.
Enclosure exact_monotone(Op op, const Enclosure& a);

}  // namespace keq::ir::family

// Row-writing shorthands for the family files.
#define KEQ_IEEE(...) [](::keq::ir::family::IArgs a) -> ::keq::ir::IeeeValue { __VA_ARGS__ }
#define KEQ_REAL(...) [](::keq::ir::family::RArgs a, ::keq::ir::RealValue& out) { __VA_ARGS__ }
#define KEQ_VIA_REAL(OP) \
  [](::keq::ir::family::IArgs a) { return ::keq::ir::family::ieee_via_real(::keq::ir::Op::OP, a); }
#define KEQ_INTERVAL(...) [](::keq::ir::family::IvArgs a) -> ::keq::ir::Interval { __VA_ARGS__ }
#define KEQ_ENCLOSE(...) [](::keq::ir::family::EArgs a) -> ::keq::ir::Enclosure { __VA_ARGS__ }
#define KEQ_SMT_REAL(...)                                                           \
  [](::keq::smt::RealEncoding& e, ::keq::ir::family::SArgs a) -> ::keq::smt::Expr { \
    (void)e;                                                                        \
    (void)a;                                                                        \
    __VA_ARGS__                                                                     \
  }
#define KEQ_SMT_IEEE(...)                                                           \
  [](::keq::smt::IeeeEncoding& e, ::keq::ir::family::SArgs a) -> ::keq::smt::Expr { \
    (void)e;                                                                        \
    (void)a;                                                                        \
    __VA_ARGS__                                                                     \
  }
