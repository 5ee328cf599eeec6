// Arithmetic: + - * / (exact and Triton's approximate), neg, abs, fma, recip, sum, prod; and
// the leaves.
#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

float f_add(float a, float b) {
  return a + b;
}
float f_mul(float a, float b) {
  return a * b;
}
float f_sub(float a, float b) {
  return a - b;
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

IeeeValue leaf_ieee(IArgs) {
  throw EvalError{"a leaf has no operands to evaluate"};
}
void leaf_real(RArgs, RealValue&) {
  throw EvalError{"a leaf has no operands to evaluate"};
}

Interval abs_interval(IvArgs a) {
  const Interval& x = a[0];
  if (x.empty_range()) return x;
  double lo = x.contains_zero() ? 0 : std::min(std::fabs(x.lo), std::fabs(x.hi));
  Interval r{lo, std::max(std::fabs(x.lo), std::fabs(x.hi)), x.nan};
  r.never_inf = x.no_inf();
  return r;
}

Enclosure abs_enclosure(EArgs args) {
  const Enclosure& a = *args[0];
  if (a.type != Type::F32) return Enclosure::any(a.type);
  if (!a.real || mpfr_sgn(a.lo.get()) >= 0) return a;
  if (mpfr_sgn(a.hi.get()) <= 0) return neg(a);
  Enclosure r = floats(true, a.nan);
  mpfr_set_zero(r.lo.get(), 1);
  mpfr_neg(r.hi.get(), a.lo.get(), MPFR_RNDU);
  mpfr_max(r.hi.get(), r.hi.get(), a.hi.get(), MPFR_RNDU);
  return r;
}

// Integer ranges of +, - and *: exact while no bound leaves the type (past it the op wraps, and
// the result is any value, except at a point). A count of true lanes (mask.sum()) stays a range
// this way.
template <Op kOp>
Enclosure int_fold(EArgs a) {
  bool points = true;  // at a point the value is exact, wrapped as the evaluator wraps it
  for (const Enclosure* k : a) points = points && k->ilo == k->ihi;
  if (points) {
    int64_t v = a[0]->ilo;
    for (size_t k = 1; k < a.size(); ++k) v = int_binop(kOp, a[0]->type, v, a[k]->ilo);
    return ints(a[0]->type, v, v);
  }
  __int128 lo = a[0]->ilo, hi = a[0]->ihi;
  for (size_t k = 1; k < a.size(); ++k) {
    __int128 blo = a[k]->ilo, bhi = a[k]->ihi;
    if (kOp == Op::Add) {
      lo += blo, hi += bhi;
    } else if (kOp == Op::Sub) {
      lo -= bhi, hi -= blo;
    } else {
      __int128 c[] = {lo * blo, lo * bhi, hi * blo, hi * bhi};
      lo = *std::min_element(c, c + 4), hi = *std::max_element(c, c + 4);
    }
    if (lo < INT64_MIN || hi > INT64_MAX) return Enclosure::any(a[0]->type);
  }
  Enclosure any = Enclosure::any(a[0]->type);
  if (lo < any.ilo || hi > any.ihi) return any;
  return ints(a[0]->type, static_cast<int64_t>(lo), static_cast<int64_t>(hi));
}

// Float transfer F; integers by their ranges.
template <Enclosure (*F)(const Enclosure&, const Enclosure&), Op kOp>
Enclosure num_fold(EArgs a) {
  return a[0]->type == Type::F32 ? fold(a, F) : int_fold<kOp>(a);
}

smt::Expr smt_add(const smt::Expr& a, const smt::Expr& b) {
  return a + b;
}
smt::Expr smt_mul(const smt::Expr& a, const smt::Expr& b) {
  return a * b;
}

// sum and prod: a left fold of their binary step in every part.
template <Op kOp, Op kStep, NormalFormRole kRole, float (*F)(float, float), Mpfr2 R,
          Interval (*I)(const Interval&, const Interval&),
          Enclosure (*E)(const Enclosure&, const Enclosure&),
          smt::Expr (*S)(const smt::Expr&, const smt::Expr&)>
constexpr OpInfo reduction_row() {
  return {.op = kOp,
          .arity = 1,
          .variadic = true,
          .sig = Signature::SameNum,
          .ieee_exact = false,
          .commutative = true,
          .normal_form = kRole,
          .ieee = [](IArgs a) { return ieee_fold(kStep, a, F); },
          .real = real_fold<R, kStep>,
          .interval =
              [](IvArgs a) {
                Interval r = a[0];
                for (size_t k = 1; k < a.size(); ++k) r = I(r, a[k]);
                return r;
              },
          .enclosure = num_fold<E, kStep>,
          .smt_real =
              [](smt::RealEncoding&, SArgs a) {
                smt::Expr acc = a[0];
                for (size_t k = 1; k < a.size(); ++k) acc = S(acc, a[k]);
                return acc;
              },
          // Two terms have one order; three or more have several, which the programs do not fix.
          .smt_ieee =
              [](smt::IeeeEncoding&, SArgs a) {
                if (a.size() > 2)
                  throw smt::NotEncoded{"a sum or product whose order is unspecified"};
                return a.size() == 1 ? a[0] : S(a[0], a[1]);
              },
          .cuda = kStep == Op::Add ? "keq_add" : "keq_mul"};
}

constexpr std::string_view kLeaf = "a leaf: its value is the constant or the input";
constexpr std::string_view kApprox = "an approximation: its fp32 bits are not fixed";

// const and var: their values come from the term, not from operands.
constexpr OpInfo leaf_row(Op op) {
  return {.op = op,
          .sig = Signature::Leaf,
          .real_exact = true,
          .ieee = leaf_ieee,
          .real = leaf_real,
          .no_interval = kLeaf,
          .no_enclosure = kLeaf,
          .no_smt_real = kLeaf,
          .no_smt_ieee = kLeaf,
          .no_cuda = kLeaf};
}

const OpInfo kRows[] = {
    leaf_row(Op::Const),
    leaf_row(Op::Var),
    {.op = Op::Add,
     .arity = 2,
     .sig = Signature::SameNum,
     .commutative = true,
     .normal_form = NormalFormRole::Add,
     .ieee = KEQ_IEEE(return ieee_num2(Op::Add, a, f_add);),
     .real = real_num2<mpfr_add, Op::Add>,
     .interval = KEQ_INTERVAL(return add(a[0], a[1]);),
     .enclosure = num_fold<add, Op::Add>,
     .smt_real = KEQ_SMT_REAL(return a[0] + a[1];),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] + a[1];),
     .cuda = "keq_add"},
    {.op = Op::Sub,
     .arity = 2,
     .sig = Signature::SameNum,
     .normal_form = NormalFormRole::Sub,
     .ieee = KEQ_IEEE(return ieee_num2(Op::Sub, a, f_sub);),
     .real = real_num2<mpfr_sub, Op::Sub>,
     .interval = KEQ_INTERVAL(return add(a[0], neg(a[1]));),
     .enclosure = KEQ_ENCLOSE(if (a[0]->type != Type::F32) return int_fold<Op::Sub>(a);
                              return add(*a[0], neg(*a[1]));),
     .smt_real = KEQ_SMT_REAL(return a[0] - a[1];),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] - a[1];),
     .cuda = "keq_sub"},
    {.op = Op::Mul,
     .arity = 2,
     .sig = Signature::SameNum,
     .commutative = true,
     .normal_form = NormalFormRole::Mul,
     .ieee = KEQ_IEEE(return ieee_num2(Op::Mul, a, f_mul);),
     .real = real_num2<mpfr_mul, Op::Mul>,
     .interval = KEQ_INTERVAL(return mul(a[0], a[1]);),
     .enclosure = num_fold<mul, Op::Mul>,
     .smt_real = KEQ_SMT_REAL(return a[0] * a[1];),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] * a[1];),
     .cuda = "keq_mul"},
    {.op = Op::Div,
     .arity = 2,
     .sig = Signature::SameFloat,
     .normal_form = NormalFormRole::Quotient,
     .spellings = "tl.div_rn libdevice.div_rn",
     .ieee = KEQ_IEEE(return fval(a[0].f / a[1].f);),
     .real = real_float2<mpfr_div>,
     .interval = KEQ_INTERVAL(return div(a[0], a[1]);),
     .enclosure = KEQ_ENCLOSE(return div(*a[0], *a[1]);),
     .smt_real = KEQ_SMT_REAL(return e.quotient(a[0], a[1]);),
     .smt_ieee = KEQ_SMT_IEEE(return a[0] / a[1];),
     .cuda = "keq_div"},
    // Triton's fp32 `/` (div.full.f32, up to 2 ulp): exact division over the reals.
    // tl.math.fdiv emits the same instruction (Triton 3.6 ignores its ieee_rounding).
    {.op = Op::DivFull,
     .arity = 2,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .normal_form = NormalFormRole::Quotient,
     .spellings = "tl.fdiv",
     .ieee = KEQ_VIA_REAL(Div),
     .real = real_float2<mpfr_div>,
     .interval = KEQ_INTERVAL(return div(a[0], a[1]);),
     .enclosure = KEQ_ENCLOSE(return div(*a[0], *a[1]);),
     .smt_real = KEQ_SMT_REAL(return e.quotient(a[0], a[1]);),
     .no_smt_ieee = kApprox,
     .cuda = "keq_div_full",
     .gpu_pinned = true},
    {.op = Op::Neg,
     .arity = 1,
     .sig = Signature::SameNum,
     .real_exact = true,
     .picks_operand = true,
     .normal_form = NormalFormRole::Neg,
     .spellings = "torch.neg",
     .ieee = KEQ_IEEE(if (a[0].type == Type::F32) return fval(-a[0].f);
                      return ival(a[0].type, int_binop(Op::Sub, a[0].type, 0, a[0].i));),
     .real = KEQ_REAL(if (a[0]->type != Type::F32) return set_int(
                          out, a[0]->type, wrap(a[0]->type, -static_cast<uint64_t>(a[0]->i)));
                      real_unary<mpfr_neg_fn>(a, out);),
     .interval = KEQ_INTERVAL(return neg(a[0]);),
     .enclosure = KEQ_ENCLOSE(if (a[0]->type != Type::F32) return Enclosure::any(a[0]->type);
                              return neg(*a[0]);),
     .smt_real = KEQ_SMT_REAL(return -a[0];),
     .smt_ieee = KEQ_SMT_IEEE(return -a[0];),
     .cuda = "keq_neg"},
    {.op = Op::Abs,
     .arity = 1,
     .sig = Signature::SameNum,
     .real_exact = true,
     .picks_operand = true,
     .stays_nonneg = true,
     .spellings = "torch.abs tl.abs libdevice.fabs libdevice.abs",
     .ieee = KEQ_IEEE(
         if (a[0].type == Type::F32) return fval(std::fabs(a[0].f)); return ival(
             a[0].type, wrap(a[0].type, a[0].i < 0 ? -static_cast<uint64_t>(a[0].i) : a[0].i));),
     .real =
         KEQ_REAL(if (a[0]->type != Type::F32) return set_int(
                      out, a[0]->type,
                      wrap(a[0]->type, a[0]->i < 0 ? -static_cast<uint64_t>(a[0]->i) : a[0]->i));
                  real_unary<mpfr_abs_fn>(a, out);),
     .interval = abs_interval,
     .enclosure = abs_enclosure,
     .smt_real = KEQ_SMT_REAL(return z3::ite(a[0] >= 0, a[0], -a[0]);),
     .smt_ieee = KEQ_SMT_IEEE(return smt::fp_abs(a[0]);),
     .cuda = "keq_abs"},
    {.op = Op::Fma,
     .arity = 3,
     .sig = Signature::SameFloat,
     .normal_form = NormalFormRole::Fma,
     .spellings = "tl.fma libdevice.fma",
     .ieee = KEQ_IEEE(return fval(std::fma(a[0].f, a[1].f, a[2].f));),
     .real = KEQ_REAL(
         mpfr_fma(set_float(out), a[0]->f.get(), a[1]->f.get(), a[2]->f.get(), MPFR_RNDN);),
     .interval = KEQ_INTERVAL(return add(mul(a[0], a[1]), a[2]);),
     .enclosure = KEQ_ENCLOSE(return add(mul(*a[0], *a[1]), *a[2]);),
     .smt_real = KEQ_SMT_REAL(return a[0] * a[1] + a[2];),
     .smt_ieee = KEQ_SMT_IEEE(return smt::fp_fma(e, a[0], a[1], a[2]);),
     .cuda = "keq_fma"},
    {.op = Op::Recip,
     .arity = 1,
     .sig = Signature::SameFloat,
     .normal_form = NormalFormRole::Recip,
     .spellings = "torch.reciprocal",
     .ieee = KEQ_IEEE(return fval(1.0f / a[0].f);),
     .real = real_unary<mpfr_recip_fn>,
     .interval = KEQ_INTERVAL(return recip(a[0]);),
     .enclosure = KEQ_ENCLOSE(return recip(*a[0]);),
     .smt_real = KEQ_SMT_REAL(return e.quotient(e.real(1), a[0]);),
     .smt_ieee = KEQ_SMT_IEEE(return e.ctx().fpa_val(1.0f) / a[0];),
     .cuda = "keq_recip"},
    // Reductions. IEEE evaluation folds left to right; the prover treats their order as
    // unspecified.
    reduction_row<Op::Sum, Op::Add, NormalFormRole::Sum, f_add, mpfr_add, add, add, smt_add>(),
    reduction_row<Op::Prod, Op::Mul, NormalFormRole::Prod, f_mul, mpfr_mul, mul, mul, smt_mul>(),
};

}  // namespace

std::span<const OpInfo> arithmetic_ops() {
  return kRows;
}

}  // namespace keq::ir::family
