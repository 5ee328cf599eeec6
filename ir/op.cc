#include "ir/op.h"

#include <absl/container/flat_hash_map.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace keq::ir {
namespace {

using IArgs = std::span<const IeeeValue>;
using RArgs = std::span<const RealValue* const>;
using Rnd = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Rnd2 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

// ---- shared helpers -------------------------------------------------------------------------

int64_t wrap(Type t, uint64_t v) {
  if (t == Type::I32) return static_cast<int32_t>(static_cast<uint32_t>(v));
  return static_cast<int64_t>(v);
}
IeeeValue fval(float f) {
  return IeeeValue{Type::F32, f, 0};
}
IeeeValue ival(Type t, int64_t i) {
  return IeeeValue{t, 0, i};
}
IeeeValue bval(bool b) {
  return IeeeValue{Type::Bool, 0, b};
}
void set_int(RealValue& out, Type t, int64_t i) {
  out.type = t;
  out.i = i;
}
mpfr_ptr set_float(RealValue& out) {
  out.type = Type::F32;
  return out.f.get();
}

// max/min as both frameworks order signed zeros: max(-0, 0) = 0, min(-0, 0) = -0.
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
void maxmin_real(mpfr_srcptr a, mpfr_srcptr b, mpfr_ptr out) {
  if (mpfr_nan_p(a) || mpfr_nan_p(b)) {
    mpfr_srcptr keep = mpfr_nan_p(a) ? (kPropagateNaN ? a : b) : (kPropagateNaN ? b : a);
    mpfr_set(out, keep, MPFR_RNDN);
    return;
  }
  int c = mpfr_cmp(a, b);
  if (c == 0) c = (mpfr_signbit(a) == kMax) ? -1 : 1;  // signed zeros, as `pick`
  mpfr_set(out, (c > 0) == kMax ? a : b, MPFR_RNDN);
}

int64_t int_binop(Op op, Type t, int64_t a, int64_t b) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  int width = t == Type::I32 ? 32 : 64;
  auto need_divisor = [&] {
    if (b == 0) throw EvalError{"integer division by zero"};
    if (b == -1 && a == (t == Type::I32 ? INT32_MIN : INT64_MIN))
      throw EvalError{"integer division overflow"};
  };
  switch (op) {
    case Op::Add:
      return wrap(t, ua + ub);
    case Op::Sub:
      return wrap(t, ua - ub);
    case Op::Mul:
      return wrap(t, ua * ub);
    case Op::Max:
    case Op::MaxNum:
      return std::max(a, b);
    case Op::Min:
    case Op::MinNum:
      return std::min(a, b);
    case Op::DivC:
      need_divisor();
      return a / b;
    case Op::ModC:
      need_divisor();
      return a % b;
    case Op::FloorDiv: {
      need_divisor();
      int64_t q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    case Op::ModPy: {
      need_divisor();
      int64_t r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    case Op::Shl:
    case Op::Shr:
    case Op::LShr:
      if (b < 0 || b >= width) throw EvalError{"shift amount out of range"};
      if (op == Op::Shl) return wrap(t, ua << b);
      if (op == Op::Shr) return a >> b;
      return wrap(t, (t == Type::I32 ? (ua & 0xffffffffu) : ua) >> b);
    case Op::BitAnd:
      return a & b;
    case Op::BitOr:
      return a | b;
    case Op::BitXor:
      return a ^ b;
    default:
      throw EvalError{std::string("no integer form of ") + std::string(op_name(op))};
  }
}

bool int_compare(Op op, int64_t a, int64_t b) {
  switch (op) {
    case Op::Lt:
      return a < b;
    case Op::Le:
      return a <= b;
    case Op::Gt:
      return a > b;
    case Op::Ge:
      return a >= b;
    case Op::Eq:
      return a == b;
    default:
      return a != b;
  }
}

int64_t saturate_to_int(Type t, mpfr_srcptr x) {  // trunc toward zero, saturate, NaN -> 0
  if (mpfr_nan_p(x)) return 0;
  const int64_t lo = t == Type::I32 ? INT32_MIN : INT64_MIN;
  const int64_t hi = t == Type::I32 ? INT32_MAX : INT64_MAX;
  if (mpfr_cmp_si(x, lo) <= 0) return lo;
  if (t == Type::I32 ? mpfr_cmp_si(x, hi) >= 0 : mpfr_cmp_d(x, 9223372036854775807.0) >= 0)
    return hi;
  return mpfr_get_si(x, MPFR_RNDZ);
}

// ---- IEEE evaluation helpers ----------------------------------------------------------------

// An op IEEE cannot pin down to the bit (exp, tanh, ...) evaluates as the correctly rounded fp32
// of the exact function: the reference that approximations are measured against.
IeeeValue ieee_via_real(Op op, IArgs a) {
  std::vector<RealValue> rs(a.size());
  std::vector<const RealValue*> ptrs(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    rs[k].type = a[k].type;
    rs[k].i = a[k].i;
    mpfr_set_flt(rs[k].f.get(), a[k].f, MPFR_RNDN);  // keeps the sign of zero, unlike reals
    ptrs[k] = &rs[k];
  }
  RealValue out;
  op_info(op).real(ptrs, out);
  if (out.type != Type::F32) return ival(out.type, out.i);
  return fval(mpfr_get_flt(out.f.get(), MPFR_RNDN));
}

IeeeValue ieee_num2(Op op, IArgs a, float (*f)(float, float)) {
  if (a[0].type == Type::F32) return fval(f(a[0].f, a[1].f));
  return ival(a[0].type, int_binop(op, a[0].type, a[0].i, a[1].i));
}

IeeeValue ieee_fold(Op op, IArgs a, float (*f)(float, float)) {
  IeeeValue acc = a[0];
  for (size_t k = 1; k < a.size(); ++k) {
    IeeeValue pair[2] = {acc, a[k]};
    acc = ieee_num2(op, pair, f);
  }
  return acc;
}

IeeeValue ieee_cast(Op op, IArgs a, FloatFormat fmt, Overflow o) {
  const IeeeValue& x = a[0];
  if (x.type == Type::F32) return fval(static_cast<float>(round_to_format(x.f, fmt, o)));
  (void)op;
  Real r(0.0);
  mpfr_set_si(r.get(), x.i, MPFR_RNDN);
  return fval(static_cast<float>(round_to_format(r.get(), fmt, o)));
}

// ---- real evaluation helpers ----------------------------------------------------------------

template <Rnd F>
void real_unary(RArgs a, RealValue& out) {
  F(set_float(out), a[0]->f.get(), MPFR_RNDN);
}
template <Rnd2 F>
void real_float2(RArgs a, RealValue& out) {
  F(set_float(out), a[0]->f.get(), a[1]->f.get(), MPFR_RNDN);
}
template <Rnd2 F, Op kOp>
void real_num2(RArgs a, RealValue& out) {
  if (a[0]->type == Type::F32) return real_float2<F>(a, out);
  set_int(out, a[0]->type, int_binop(kOp, a[0]->type, a[0]->i, a[1]->i));
}
template <Rnd2 F, Op kOp>
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
template <bool kMax, bool kNaN>
int real_maxmin_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t) {
  Real tmp;
  maxmin_real<kMax, kNaN>(x, y, tmp.get());
  mpfr_set(o, tmp.get(), MPFR_RNDN);
  return 0;
}
template <Op kOp>
void real_int2(RArgs a, RealValue& out) {
  set_int(out, a[0]->type, int_binop(kOp, a[0]->type, a[0]->i, a[1]->i));
}
void real_cast(RArgs a, RealValue& out, FloatFormat fmt, Overflow o) {
  Real src;
  if (a[0]->type == Type::F32)
    src = a[0]->f;
  else
    mpfr_set_si(src.get(), a[0]->i, MPFR_RNDN);
  mpfr_set_d(set_float(out), round_to_format(src.get(), fmt, o), MPFR_RNDN);
}
template <Op kOp>
void real_compare(RArgs a, RealValue& out) {
  bool r;
  if (a[0]->type != Type::F32) {
    r = int_compare(kOp, a[0]->i, a[1]->i);
  } else {
    mpfr_srcptr x = a[0]->f.get(), y = a[1]->f.get();
    switch (kOp) {
      case Op::Lt:
        r = mpfr_less_p(x, y);
        break;
      case Op::Le:
        r = mpfr_lessequal_p(x, y);
        break;
      case Op::Gt:
        r = mpfr_greater_p(x, y);
        break;
      case Op::Ge:
        r = mpfr_greaterequal_p(x, y);
        break;
      case Op::Eq:
        r = mpfr_equal_p(x, y);
        break;
      default:
        r = !mpfr_equal_p(x, y);
        break;
    }
  }
  set_int(out, Type::Bool, r);
}
template <Op kOp>
IeeeValue ieee_compare(IArgs a) {
  if (a[0].type != Type::F32) return bval(int_compare(kOp, a[0].i, a[1].i));
  float x = a[0].f, y = a[1].f;
  switch (kOp) {
    case Op::Lt:
      return bval(x < y);
    case Op::Le:
      return bval(x <= y);
    case Op::Gt:
      return bval(x > y);
    case Op::Ge:
      return bval(x >= y);
    case Op::Eq:
      return bval(x == y);
    default:
      return bval(x != y);
  }
}

int mpfr_neg_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t r) {
  return mpfr_neg(o, x, r);
}
int mpfr_abs_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t r) {
  return mpfr_abs(o, x, r);
}
int mpfr_recip_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t r) {
  return mpfr_ui_div(o, 1, x, r);
}
int mpfr_round_even(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_rint(o, x, MPFR_RNDN);
}
int mpfr_floor_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_floor(o, x);
}
int mpfr_ceil_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_ceil(o, x);
}
int mpfr_trunc_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_trunc(o, x);
}
int mpfr_sigmoid(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t r) {
  Real t;
  mpfr_neg(t.get(), x, r);
  mpfr_exp(t.get(), t.get(), r);
  mpfr_add_ui(t.get(), t.get(), 1, r);
  return mpfr_ui_div(o, 1, t.get(), r);
}
int mpfr_remainder_torch(mpfr_ptr o, mpfr_srcptr a, mpfr_srcptr b, mpfr_rnd_t r) {
  Real m;
  mpfr_fmod(m.get(), a, b, r);  // torch: fmod, then add b when the signs differ
  if (!mpfr_zero_p(m.get()) && !mpfr_nan_p(m.get()) && (mpfr_sgn(m.get()) < 0) != (mpfr_sgn(b) < 0))
    mpfr_add(m.get(), m.get(), b, r);
  return mpfr_set(o, m.get(), r);
}

float f_add(float a, float b) {
  return a + b;
}
float f_sub(float a, float b) {
  return a - b;
}
float f_mul(float a, float b) {
  return a * b;
}

// ---- the table ------------------------------------------------------------------------------

struct Row {
  Op op;
  uint8_t arity;
  bool variadic;
  Signature sig;
  bool ieee_exact;
  bool commutative;
  IeeeFn ieee;
  RealFn real;
  Type cast_result = Type::F32;
};

IeeeValue leaf_ieee(IArgs) {
  throw EvalError{"a leaf has no operands to evaluate"};
}
void leaf_real(RArgs, RealValue&) {
  throw EvalError{"a leaf has no operands to evaluate"};
}

#define IEEE(...) [](IArgs a) -> IeeeValue { __VA_ARGS__ }
#define REAL(...) [](RArgs a, RealValue& out) { __VA_ARGS__ }
#define VIA_REAL(OP) [](IArgs a) -> IeeeValue { return ieee_via_real(Op::OP, a); }
#define UNARY_F(...) IEEE(float x = a[0].f; return fval(__VA_ARGS__);)

const Row kRows[] = {
    {Op::Const, 0, false, Signature::Leaf, true, false, leaf_ieee, leaf_real},
    {Op::Var, 0, false, Signature::Leaf, true, false, leaf_ieee, leaf_real},
    {Op::Add, 2, false, Signature::SameNum, true, true, IEEE(return ieee_num2(Op::Add, a, f_add);),
     real_num2<mpfr_add, Op::Add>},
    {Op::Sub, 2, false, Signature::SameNum, true, false, IEEE(return ieee_num2(Op::Sub, a, f_sub);),
     real_num2<mpfr_sub, Op::Sub>},
    {Op::Mul, 2, false, Signature::SameNum, true, true, IEEE(return ieee_num2(Op::Mul, a, f_mul);),
     real_num2<mpfr_mul, Op::Mul>},
    {Op::Div, 2, false, Signature::SameFloat, true, false, IEEE(return fval(a[0].f / a[1].f);),
     real_float2<mpfr_div>},
    // Triton's fp32 `/` (div.full.f32, up to 2 ulp): exact division over the reals.
    {Op::DivFull, 2, false, Signature::SameFloat, false, false, VIA_REAL(Div),
     real_float2<mpfr_div>},
    {Op::Neg, 1, false, Signature::SameNum, true, false,
     IEEE(if (a[0].type == Type::F32) return fval(-a[0].f);
          return ival(a[0].type, int_binop(Op::Sub, a[0].type, 0, a[0].i));),
     REAL(if (a[0]->type != Type::F32) return set_int(
              out, a[0]->type, wrap(a[0]->type, -static_cast<uint64_t>(a[0]->i)));
          real_unary<mpfr_neg_fn>(a, out);)},
    {Op::Abs, 1, false, Signature::SameNum, true, false,
     IEEE(if (a[0].type == Type::F32) return fval(std::fabs(a[0].f)); return ival(
              a[0].type, wrap(a[0].type, a[0].i < 0 ? -static_cast<uint64_t>(a[0].i) : a[0].i));),
     REAL(if (a[0]->type != Type::F32) return set_int(
              out, a[0]->type,
              wrap(a[0]->type, a[0]->i < 0 ? -static_cast<uint64_t>(a[0]->i) : a[0]->i));
          real_unary<mpfr_abs_fn>(a, out);)},
    {Op::Fma, 3, false, Signature::SameFloat, true, false,
     IEEE(return fval(std::fma(a[0].f, a[1].f, a[2].f));),
     REAL(mpfr_fma(set_float(out), a[0]->f.get(), a[1]->f.get(), a[2]->f.get(), MPFR_RNDN);)},
    {Op::Max, 2, false, Signature::SameNum, true, true,
     IEEE(return ieee_num2(Op::Max, a, maxmin<true, true>);),
     real_num2<real_maxmin_fn<true, true>, Op::Max>},
    {Op::Min, 2, false, Signature::SameNum, true, true,
     IEEE(return ieee_num2(Op::Min, a, maxmin<false, true>);),
     real_num2<real_maxmin_fn<false, true>, Op::Min>},
    {Op::MaxNum, 2, false, Signature::SameNum, true, true,
     IEEE(return ieee_num2(Op::MaxNum, a, maxmin<true, false>);),
     real_num2<real_maxmin_fn<true, false>, Op::MaxNum>},
    {Op::MinNum, 2, false, Signature::SameNum, true, true,
     IEEE(return ieee_num2(Op::MinNum, a, maxmin<false, false>);),
     real_num2<real_maxmin_fn<false, false>, Op::MinNum>},
    // Reductions. IEEE evaluation folds left to right; the prover treats their order as
    // unspecified.
    {Op::Sum, 1, true, Signature::SameNum, false, true, IEEE(return ieee_fold(Op::Add, a, f_add);),
     real_fold<mpfr_add, Op::Add>},
    {Op::Prod, 1, true, Signature::SameNum, false, true, IEEE(return ieee_fold(Op::Mul, a, f_mul);),
     real_fold<mpfr_mul, Op::Mul>},
    {Op::AMax, 1, true, Signature::SameNum, true, true,
     IEEE(return ieee_fold(Op::Max, a, maxmin<true, true>);),
     real_fold<real_maxmin_fn<true, true>, Op::Max>},
    {Op::AMin, 1, true, Signature::SameNum, true, true,
     IEEE(return ieee_fold(Op::Min, a, maxmin<false, true>);),
     real_fold<real_maxmin_fn<false, true>, Op::Min>},
    {Op::TMax, 1, true, Signature::SameNum, true, true,
     IEEE(return ieee_fold(Op::MaxNum, a, maxmin<true, false>);),
     real_fold<real_maxmin_fn<true, false>, Op::MaxNum>},
    {Op::TMin, 1, true, Signature::SameNum, true, true,
     IEEE(return ieee_fold(Op::MinNum, a, maxmin<false, false>);),
     real_fold<real_maxmin_fn<false, false>, Op::MinNum>},
    {Op::DivC, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::DivC, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::DivC>},
    {Op::ModC, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::ModC, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::ModC>},
    {Op::FloorDiv, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::FloorDiv, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::FloorDiv>},
    {Op::ModPy, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::ModPy, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::ModPy>},
    {Op::FMod, 2, false, Signature::SameFloat, true, false,
     IEEE(return fval(std::fmod(a[0].f, a[1].f));), real_float2<mpfr_fmod>},
    {Op::Remainder, 2, false, Signature::SameFloat, true, false,
     IEEE(float m = std::fmod(a[0].f, a[1].f);
          if (m != 0 && !std::isnan(m) && ((m < 0) != (a[1].f < 0))) m += a[1].f; return fval(m);),
     real_float2<mpfr_remainder_torch>},
    {Op::Lt, 2, false, Signature::Compare, true, false, ieee_compare<Op::Lt>, real_compare<Op::Lt>},
    {Op::Le, 2, false, Signature::Compare, true, false, ieee_compare<Op::Le>, real_compare<Op::Le>},
    {Op::Gt, 2, false, Signature::Compare, true, false, ieee_compare<Op::Gt>, real_compare<Op::Gt>},
    {Op::Ge, 2, false, Signature::Compare, true, false, ieee_compare<Op::Ge>, real_compare<Op::Ge>},
    {Op::Eq, 2, false, Signature::Compare, true, true, ieee_compare<Op::Eq>, real_compare<Op::Eq>},
    {Op::Ne, 2, false, Signature::Compare, true, true, ieee_compare<Op::Ne>, real_compare<Op::Ne>},
    {Op::Select, 3, false, Signature::Select, true, false, IEEE(return a[0].i ? a[1] : a[2];),
     REAL(const RealValue& p = a[0]->i ? *a[1] : *a[2]; out.type = p.type; out.i = p.i;
          out.f = p.f;)},
    {Op::And, 2, false, Signature::Logic, true, true, IEEE(return bval(a[0].i && a[1].i);),
     REAL(set_int(out, Type::Bool, a[0]->i&& a[1]->i);)},
    {Op::Or, 2, false, Signature::Logic, true, true, IEEE(return bval(a[0].i || a[1].i);),
     REAL(set_int(out, Type::Bool, a[0]->i || a[1]->i);)},
    {Op::Not, 1, false, Signature::Logic, true, false, IEEE(return bval(!a[0].i);),
     REAL(set_int(out, Type::Bool, !a[0]->i);)},
    {Op::Exp, 1, false, Signature::SameFloat, false, false, VIA_REAL(Exp), real_unary<mpfr_exp>},
    {Op::Exp2, 1, false, Signature::SameFloat, false, false, VIA_REAL(Exp2), real_unary<mpfr_exp2>},
    {Op::Log, 1, false, Signature::SameFloat, false, false, VIA_REAL(Log), real_unary<mpfr_log>},
    {Op::Log2, 1, false, Signature::SameFloat, false, false, VIA_REAL(Log2), real_unary<mpfr_log2>},
    {Op::Sqrt, 1, false, Signature::SameFloat, true, false, UNARY_F(std::sqrt(x)),
     real_unary<mpfr_sqrt>},
    {Op::SqrtApprox, 1, false, Signature::SameFloat, false, false, VIA_REAL(Sqrt),
     real_unary<mpfr_sqrt>},
    {Op::Rsqrt, 1, false, Signature::SameFloat, false, false, VIA_REAL(Rsqrt),
     real_unary<mpfr_rec_sqrt>},
    {Op::Recip, 1, false, Signature::SameFloat, true, false, UNARY_F(1.0f / x),
     real_unary<mpfr_recip_fn>},
    {Op::Pow, 2, false, Signature::SameFloat, false, false, VIA_REAL(Pow), real_float2<mpfr_pow>},
    {Op::Tanh, 1, false, Signature::SameFloat, false, false, VIA_REAL(Tanh), real_unary<mpfr_tanh>},
    {Op::Erf, 1, false, Signature::SameFloat, false, false, VIA_REAL(Erf), real_unary<mpfr_erf>},
    {Op::Sigmoid, 1, false, Signature::SameFloat, false, false, VIA_REAL(Sigmoid),
     real_unary<mpfr_sigmoid>},
    {Op::Floor, 1, false, Signature::SameFloat, true, false, UNARY_F(std::floor(x)),
     real_unary<mpfr_floor_fn>},
    {Op::Ceil, 1, false, Signature::SameFloat, true, false, UNARY_F(std::ceil(x)),
     real_unary<mpfr_ceil_fn>},
    {Op::Round, 1, false, Signature::SameFloat, true, false, UNARY_F(std::nearbyint(x)),
     real_unary<mpfr_round_even>},
    {Op::Trunc, 1, false, Signature::SameFloat, true, false, UNARY_F(std::trunc(x)),
     real_unary<mpfr_trunc_fn>},
    // torch.clamp: min(max(x, lo), hi), NaN in any operand propagates.
    {Op::Clamp, 3, false, Signature::SameNum, true, false,
     IEEE(IeeeValue lo[2] = {a[0], a[1]};
          IeeeValue hi[2] = {ieee_num2(Op::Max, lo, maxmin<true, true>), a[2]};
          return ieee_num2(Op::Min, hi, maxmin<false, true>);),
     REAL(RealValue m; const RealValue* lo[2] = {a[0], a[1]};
          real_num2<real_maxmin_fn<true, true>, Op::Max>(lo, m);
          const RealValue* hi[2] = {&m, a[2]};
          real_num2<real_maxmin_fn<false, true>, Op::Min>(hi, out);)},
    {Op::CastF32, 1, false, Signature::CastTo, true, false,
     IEEE(if (a[0].type == Type::F32) return a[0]; return fval(static_cast<float>(a[0].i));),
     REAL(if (a[0]->type == Type::F32) {
       mpfr_set(set_float(out), a[0]->f.get(), MPFR_RNDN);
       return;
     } mpfr_set_si(set_float(out), a[0]->i, MPFR_RNDN);)},
    {Op::CastF16, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastF16, a, FloatFormat::F16, Overflow::Inf);),
     REAL(real_cast(a, out, FloatFormat::F16, Overflow::Inf);)},
    {Op::CastBF16, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastBF16, a, FloatFormat::BF16, Overflow::Inf);),
     REAL(real_cast(a, out, FloatFormat::BF16, Overflow::Inf);)},
    {Op::CastE4M3, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastE4M3, a, FloatFormat::E4M3FN, Overflow::NaN);),
     REAL(real_cast(a, out, FloatFormat::E4M3FN, Overflow::NaN);)},
    {Op::CastE4M3Sat, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastE4M3Sat, a, FloatFormat::E4M3FN, Overflow::Saturate);),
     REAL(real_cast(a, out, FloatFormat::E4M3FN, Overflow::Saturate);)},
    {Op::CastE5M2, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastE5M2, a, FloatFormat::E5M2, Overflow::Inf);),
     REAL(real_cast(a, out, FloatFormat::E5M2, Overflow::Inf);)},
    {Op::CastE5M2Sat, 1, false, Signature::CastTo, true, false,
     IEEE(return ieee_cast(Op::CastE5M2Sat, a, FloatFormat::E5M2, Overflow::Saturate);),
     REAL(real_cast(a, out, FloatFormat::E5M2, Overflow::Saturate);)},
    {Op::CastI32, 1, false, Signature::CastTo, true, false,
     IEEE(if (a[0].type != Type::F32) return ival(Type::I32, wrap(Type::I32, a[0].i));
          Real r(static_cast<double>(a[0].f));
          return ival(Type::I32, saturate_to_int(Type::I32, r.get()));),
     REAL(if (a[0]->type != Type::F32) return set_int(out, Type::I32, wrap(Type::I32, a[0]->i));
          set_int(out, Type::I32, saturate_to_int(Type::I32, a[0]->f.get()));),
     Type::I32},
    {Op::CastI64, 1, false, Signature::CastTo, true, false,
     IEEE(if (a[0].type != Type::F32) return ival(Type::I64, a[0].i);
          Real r(static_cast<double>(a[0].f));
          return ival(Type::I64, saturate_to_int(Type::I64, r.get()));),
     REAL(if (a[0]->type != Type::F32) return set_int(out, Type::I64, a[0]->i);
          set_int(out, Type::I64, saturate_to_int(Type::I64, a[0]->f.get()));),
     Type::I64},
    {Op::CastBool, 1, false, Signature::CastTo, true, false,
     IEEE(return bval(a[0].type == Type::F32 ? a[0].f != 0 : a[0].i != 0);),
     REAL(set_int(out, Type::Bool,
                  a[0]->type == Type::F32 ? !mpfr_zero_p(a[0]->f.get()) : a[0]->i != 0);),
     Type::Bool},
    {Op::BitcastI32, 1, false, Signature::BitcastF2I, true, false,
     IEEE(uint32_t b; std::memcpy(&b, &a[0].f, 4);
          return ival(Type::I32, static_cast<int32_t>(b));),
     // A real is materialized as fp32 before its bits exist.
     REAL(float f = mpfr_get_flt(a[0]->f.get(), MPFR_RNDN); uint32_t b; std::memcpy(&b, &f, 4);
          set_int(out, Type::I32, static_cast<int32_t>(b));)},
    {Op::BitcastF32, 1, false, Signature::BitcastI2F, true, false,
     IEEE(uint32_t b = static_cast<uint32_t>(a[0].i); float f; std::memcpy(&f, &b, 4);
          return fval(f);),
     REAL(uint32_t b = static_cast<uint32_t>(a[0]->i); float f; std::memcpy(&f, &b, 4);
          mpfr_set_d(set_float(out), f, MPFR_RNDN);)},
    {Op::Shl, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::Shl, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::Shl>},
    {Op::Shr, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::Shr, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::Shr>},
    {Op::LShr, 2, false, Signature::SameInt, true, false,
     IEEE(return ival(a[0].type, int_binop(Op::LShr, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::LShr>},
    {Op::BitAnd, 2, false, Signature::SameInt, true, true,
     IEEE(return ival(a[0].type, int_binop(Op::BitAnd, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::BitAnd>},
    {Op::BitOr, 2, false, Signature::SameInt, true, true,
     IEEE(return ival(a[0].type, int_binop(Op::BitOr, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::BitOr>},
    {Op::BitXor, 2, false, Signature::SameInt, true, true,
     IEEE(return ival(a[0].type, int_binop(Op::BitXor, a[0].type, a[0].i, a[1].i));),
     real_int2<Op::BitXor>},
    // frexp: x = mant * 2^exp with |mant| in [0.5, 1); zero, inf and NaN give (x, 0).
    {Op::FrexpMant, 1, false, Signature::SameFloat, true, false,
     IEEE(int e; float m = std::frexp(a[0].f, &e); if (!std::isfinite(a[0].f)) m = a[0].f;
          return fval(m);),
     REAL(mpfr_ptr o = set_float(out); mpfr_srcptr x = a[0]->f.get(); if (!mpfr_regular_p(x)) {
       mpfr_set(o, x, MPFR_RNDN);
       return;
     } mpfr_exp_t e;
          mpfr_frexp(&e, o, x, MPFR_RNDN);)},
    {Op::FrexpExp, 1, false, Signature::FrexpExp, true, false,
     IEEE(int e = 0; if (std::isfinite(a[0].f)) std::frexp(a[0].f, &e); return ival(Type::I32, e);),
     REAL(mpfr_srcptr x = a[0]->f.get(); int64_t e = mpfr_regular_p(x) ? mpfr_get_exp(x) : 0;
          set_int(out, Type::I32, e);)},
    {Op::Ldexp, 2, false, Signature::Ldexp, true, false,
     IEEE(return fval(std::ldexp(a[0].f,
                                 static_cast<int>(std::clamp<int64_t>(a[1].i, -100000, 100000))));),
     REAL(mpfr_mul_2si(set_float(out), a[0]->f.get(), a[1]->i, MPFR_RNDN);)},
};

#undef IEEE
#undef REAL
#undef VIA_REAL
#undef UNARY_F

constexpr std::string_view kNames[] = {
#define KEQ_OP_NAME(e, n) n,
    KEQ_OPS(KEQ_OP_NAME)
#undef KEQ_OP_NAME
};

struct Table {
  std::array<OpInfo, kOpCount> info{};
  absl::flat_hash_map<std::string_view, Op> by_name;
  Table() {
    std::array<bool, kOpCount> seen{};
    for (const Row& r : kRows) {
      int k = static_cast<int>(r.op);
      seen[k] = true;
      Type cast = r.cast_result;
      info[k] = OpInfo{r.op, kNames[k],    r.arity,       r.variadic, r.sig,
                       cast, r.ieee_exact, r.commutative, r.ieee,     r.real};
      by_name[kNames[k]] = r.op;
    }
    for (int k = 0; k < kOpCount; ++k)
      if (!seen[k]) std::abort();  // every enumerator needs a row: caught by the first test run
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

const OpInfo& op_info(Op op) {
  return table().info[static_cast<int>(op)];
}

std::optional<Op> op_by_name(std::string_view name) {
  auto it = table().by_name.find(name);
  if (it == table().by_name.end() || it->second == Op::Const || it->second == Op::Var)
    return std::nullopt;
  return it->second;
}

TypeResult result_type(Op op, std::span<const Type> ts) {
  const OpInfo& info = op_info(op);
  auto fail = [&](const std::string& why) {
    return TypeResult{std::nullopt, std::string(info.name) + ": " + why};
  };
  size_t n = ts.size();
  if (info.variadic ? n < info.arity : n != info.arity)
    return fail("expects " + std::string(info.variadic ? "at least " : "") +
                std::to_string(info.arity) + " operands, got " + std::to_string(n));
  auto all_same = [&](size_t from) {
    for (size_t k = from + 1; k < n; ++k)
      if (ts[k] != ts[from]) return false;
    return true;
  };
  switch (info.sig) {
    case Signature::Leaf:
      return fail("is a leaf");
    case Signature::SameNum:
      if (ts[0] == Type::Bool || !all_same(0)) return fail("operands must share one numeric type");
      return {ts[0], {}};
    case Signature::SameFloat:
      for (Type t : ts)
        if (t != Type::F32) return fail("operands must be f32");
      return {Type::F32, {}};
    case Signature::SameInt:
      if (!is_int(ts[0]) || !all_same(0)) return fail("operands must share one integer type");
      return {ts[0], {}};
    case Signature::Compare:
      if (ts[0] == Type::Bool || !all_same(0)) return fail("operands must share one numeric type");
      return {Type::Bool, {}};
    case Signature::Logic:
      for (Type t : ts)
        if (t != Type::Bool) return fail("operands must be bool");
      return {Type::Bool, {}};
    case Signature::Select:
      if (ts[0] != Type::Bool || ts[1] != ts[2]) return fail("expects (bool, T, T)");
      return {ts[1], {}};
    case Signature::CastTo:
      return {info.cast_result, {}};
    case Signature::BitcastF2I:
      if (ts[0] != Type::F32) return fail("operand must be f32");
      return {Type::I32, {}};
    case Signature::BitcastI2F:
      if (ts[0] != Type::I32) return fail("operand must be i32");
      return {Type::F32, {}};
    case Signature::FrexpExp:
      if (ts[0] != Type::F32) return fail("operand must be f32");
      return {Type::I32, {}};
    case Signature::Ldexp:
      if (ts[0] != Type::F32 || !is_int(ts[1])) return fail("expects (f32, int)");
      return {Type::F32, {}};
  }
  return fail("unknown signature");
}

bool real_eval_exact(Op op) {
  switch (op_info(op).sig) {
    case Signature::SameFloat:
    case Signature::SameNum:
      break;
    default:
      return true;  // casts, comparisons, logic, integer ops, bitcasts, frexp, ldexp, select
  }
  switch (op) {
    case Op::Neg:
    case Op::Abs:
    case Op::Max:
    case Op::Min:
    case Op::MaxNum:
    case Op::MinNum:
    case Op::AMax:
    case Op::AMin:
    case Op::TMax:
    case Op::TMin:
    case Op::Clamp:
    case Op::Floor:
    case Op::Ceil:
    case Op::Round:
    case Op::Trunc:
    case Op::FrexpMant:
      return true;
    default:
      return false;
  }
}

IeeeValue eval_ieee(Op op, std::span<const IeeeValue> args) {
  return op_info(op).ieee(args);
}
void eval_real(Op op, std::span<const RealValue* const> args, RealValue& out) {
  op_info(op).real(args, out);
  // Real semantics has one zero: without this, recip(neg 0) and recip(0) would differ.
  if (out.type == Type::F32 && mpfr_zero_p(out.f.get())) mpfr_set_zero(out.f.get(), 1);
}

}  // namespace keq::ir
