// Elementary functions: exp, exp2, log, log2, log1p, expm1, sqrt (correctly rounded and Triton's
// approximate), rsqrt, pow, tanh, erf, sigmoid, sin, cos.
//
// In IEEE semantics only the correctly rounded sqrt has fixed bits; the others are
// approximations whose error differs between libraries (SEMANTICS-FACTS.md), evaluated as the
// correctly rounded fp32 of the exact function. Over the reals, exp, log and erf are
// uninterpreted increasing functions in Z3, with true facts about them; exp2, log2, sigmoid and
// tanh are defined through exp and log.
#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

int mpfr_sigmoid(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t r) {
  Real t;
  mpfr_neg(t.get(), x, r);
  mpfr_exp(t.get(), t.get(), r);
  mpfr_add_ui(t.get(), t.get(), 1, r);
  return mpfr_ui_div(o, 1, t.get(), r);
}
// 1 / (1 + exp(-x)) rounded in direction rnd: the denominator rounds the other way.
int sigmoid_directed(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t rnd) {
  mpfr_rnd_t away = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  Real t;
  mpfr_neg(t.get(), x, MPFR_RNDN);  // exact
  mpfr_exp(t.get(), t.get(), away);
  mpfr_add_ui(t.get(), t.get(), 1, away);
  return mpfr_ui_div(o, 1, t.get(), rnd);
}

template <bool kBase2>
Interval exp_interval(IvArgs a) {
  Interval r =
      clip(monotone(a[0], [](double x) { return kBase2 ? std::exp2(x) : std::exp(x); }), 0, kInf);
  // Over the reals, exp of a finite value is finite and > 0 (doubles overflow; reals do not).
  if (a[0].no_inf()) r.never_inf = true, r.lo_strict = r.lo == 0 ? true : r.lo_strict;
  return r;
}

template <bool kBase2>
Interval log_interval(IvArgs a) {
  bool nan = a[0].nan || a[0].lo < 0;
  Interval x = clip(a[0], 0, kInf);
  Interval r = monotone(
      x, [](double v) { return kBase2 ? std::log2(v) : std::log(v); }, nan);
  // Over the reals, the log of a finite value that is strictly positive is finite (a sum of
  // exps, say, as log-softmax takes).
  if (!nan && a[0].no_inf() && a[0].positive()) r.never_inf = true;
  return r;
}

Interval log1p_interval(IvArgs a) {
  bool nan = a[0].nan || a[0].lo < -1;
  Interval r = monotone(
      clip(a[0], -1, kInf), [](double v) { return std::log1p(v); }, nan);
  if (!nan && a[0].no_inf() && a[0].lo > -1) r.never_inf = true;
  return r;
}

Interval sqrt_interval(IvArgs a) {
  bool nan = a[0].nan || a[0].lo < 0;
  return clip(monotone(
                  clip(a[0], 0, kInf), [](double v) { return std::sqrt(v); }, nan),
              0, kInf);
}

// Powers with a constant small integer exponent are products (exact bounds); other constant
// exponents of a positive base are monotone.
Enclosure pow_enclosure(EArgs args) {
  const Enclosure &a = *args[0], &b = *args[1];
  if (!b.is_point() || !b.real || a.nan) return Enclosure::any(Type::F32);
  mpfr_srcptr n = b.lo.get();
  if (mpfr_integer_p(n) && mpfr_cmpabs_ui(n, 16) <= 0) {
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

template <Mpfr1 F, bool kIncreasing = true>
Enclosure monotone_enclosure(EArgs a) {
  return monotone(*a[0], F, kIncreasing);
}

// sin and cos: in [-1, 1], NaN at infinities. An enclosure is monotone between two critical
// points (sin's at pi/2 + k pi, cos's at k pi); one that may hold a critical point is [-1, 1].
// Which stretch x lies in is t = x / pi (- 1/2 for sin), rounded at a precision 128 bits past
// x's exponent and taken as undecided within 2^-64 of an integer.
template <bool kCos>
Enclosure trig_enclosure(EArgs args) {
  const Enclosure& x = *args[0];
  bool inf = x.real && (mpfr_inf_p(x.lo.get()) || mpfr_inf_p(x.hi.get()));
  Enclosure r = floats(x.real, x.nan || inf);
  if (!r.real) return r;
  mpfr_set_si(r.lo.get(), -1, MPFR_RNDN);
  mpfr_set_si(r.hi.get(), 1, MPFR_RNDN);
  if (inf) return r;
  mpfr_exp_t e = 0;
  for (mpfr_srcptr v : {x.lo.get(), x.hi.get()})
    if (!mpfr_zero_p(v)) e = std::max(e, mpfr_get_exp(v));
  Real::PrecisionScope scope(std::max<mpfr_prec_t>(Real::working_precision(), e + 128));
  Real pi, t[2], k[2];
  mpfr_const_pi(pi.get(), MPFR_RNDN);
  for (int i = 0; i < 2; ++i) {
    mpfr_div(t[i].get(), i ? x.hi.get() : x.lo.get(), pi.get(), MPFR_RNDN);
    if (!kCos) mpfr_sub_d(t[i].get(), t[i].get(), 0.5, MPFR_RNDN);
    Real margin(i ? 0x1p-64 : -0x1p-64);
    mpfr_add(t[i].get(), t[i].get(), margin.get(), MPFR_RNDN);
    mpfr_floor(k[i].get(), t[i].get());
  }
  if (!mpfr_equal_p(k[0].get(), k[1].get())) return r;
  // Between critical points k and k + 1: decreasing for even k, increasing for odd.
  Real half;
  mpfr_div_2ui(half.get(), k[0].get(), 1, MPFR_RNDN);
  bool increasing = !mpfr_integer_p(half.get());
  return monotone(x, kCos ? mpfr_cos : mpfr_sin, increasing);
}

template <bool kCos>
Interval trig_interval(IvArgs a) {
  return {-1, 1, a[0].nan || !a[0].no_inf(), true};
}

constexpr std::string_view kApprox = "an approximation: its fp32 bits are not fixed";

const OpInfo kRows[] = {
    {.op = Op::Exp,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .stays_nonneg = true,
     .normal_form = NormalFormRole::Exp,
     .spellings = "torch.exp tl.exp libdevice.exp",
     .ieee = KEQ_VIA_REAL(Exp),
     .real = real_unary<mpfr_exp>,
     .interval = exp_interval<false>,
     .enclosure = monotone_enclosure<mpfr_exp>,
     .smt_real = KEQ_SMT_REAL(return e.exp(a[0]);),
     .no_smt_ieee = kApprox,
     .cuda = "keq_exp"},
    {.op = Op::Exp2,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .stays_nonneg = true,
     .spellings = "torch.exp2 tl.exp2 libdevice.exp2",
     .ieee = KEQ_VIA_REAL(Exp2),
     .real = real_unary<mpfr_exp2>,
     .interval = exp_interval<true>,
     .enclosure = monotone_enclosure<mpfr_exp2>,
     // 2^x = e^(x ln 2): one function for Z3, so exp2 meets exp (rules/explog.rules).
     .smt_real = KEQ_SMT_REAL(return e.exp(a[0] * e.log(e.real(2)));),
     .no_smt_ieee = kApprox,
     .cuda = "keq_exp2"},
    {.op = Op::Log,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.log tl.log libdevice.log",
     .ieee = KEQ_VIA_REAL(Log),
     .real = real_unary<mpfr_log>,
     .interval = log_interval<false>,
     .enclosure = monotone_enclosure<mpfr_log>,
     // log y: the l with exp(l) = y, for y > 0.
     .smt_real = KEQ_SMT_REAL(return e.log(a[0]);),
     .no_smt_ieee = kApprox,
     .cuda = "keq_log",
     .gpu_pinned = true},
    {.op = Op::Log2,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.log2 tl.log2 libdevice.log2",
     .ieee = KEQ_VIA_REAL(Log2),
     .real = real_unary<mpfr_log2>,
     .interval = log_interval<true>,
     .enclosure = monotone_enclosure<mpfr_log2>,
     .smt_real = KEQ_SMT_REAL(return e.quotient(e.log(a[0]), e.log(e.real(2)));),  // log x / ln 2
     .no_smt_ieee = kApprox,
     .cuda = "keq_log2",
     .gpu_pinned = true},
    // log1p and expm1: exact near 0, where log(1 + x) and exp(x) - 1 in fp32 lose every digit.
    // Over the reals they are log(1 + x) and exp(x) - 1, and Z3 sees them so.
    {.op = Op::Log1p,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.log1p libdevice.log1p",
     .ieee = KEQ_VIA_REAL(Log1p),
     .real = real_unary<mpfr_log1p>,
     .interval = log1p_interval,
     .enclosure = monotone_enclosure<mpfr_log1p>,
     .smt_real =
         KEQ_SMT_REAL(smt::Expr y = 1 + a[0]; smt::Expr l = e.apply("log", y, nullptr);
                      e.condition(y > 0); e.fact(z3::implies(y > 0, e.exp(l) == y)); return l;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_log1p"},
    {.op = Op::Expm1,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.expm1 libdevice.expm1",
     .ieee = KEQ_VIA_REAL(Expm1),
     .real = real_unary<mpfr_expm1>,
     .interval = KEQ_INTERVAL(
         Interval r = clip(monotone(a[0], [](double x) { return std::expm1(x); }), -1, kInf);
         if (a[0].no_inf()) r.never_inf = true; return r;),
     .enclosure = monotone_enclosure<mpfr_expm1>,
     .smt_real = KEQ_SMT_REAL(return e.exp(a[0]) - 1;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_expm1"},
    {.op = Op::Sqrt,
     .arity = 1,
     .sig = Signature::SameFloat,
     .stays_nonneg = true,
     .spellings = "torch.sqrt tl.sqrt_rn libdevice.sqrt",
     .ieee = KEQ_IEEE(return fval(std::sqrt(a[0].f));),
     .real = real_unary<mpfr_sqrt>,
     .interval = sqrt_interval,
     .enclosure = monotone_enclosure<mpfr_sqrt>,
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.fresh("sqrt"); e.condition(a[0] >= 0);
                              e.fact(z3::implies(a[0] >= 0, r >= 0 && r * r == a[0])); return r;),
     .smt_ieee = KEQ_SMT_IEEE(return smt::fp_sqrt(e, a[0]);),
     .cuda = "keq_sqrt"},
    // tl.sqrt: sqrt.approx.f32.
    {.op = Op::SqrtApprox,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .stays_nonneg = true,
     .spellings = "tl.sqrt",
     .ieee = KEQ_VIA_REAL(Sqrt),
     .real = real_unary<mpfr_sqrt>,
     .interval = sqrt_interval,
     .enclosure = monotone_enclosure<mpfr_sqrt>,
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.fresh("sqrt"); e.condition(a[0] >= 0);
                              e.fact(z3::implies(a[0] >= 0, r >= 0 && r * r == a[0])); return r;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_sqrt_approx",
     .gpu_pinned = true},
    {.op = Op::Rsqrt,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.rsqrt tl.rsqrt libdevice.rsqrt",
     // IEEE 754's rSqrt(-0) is -inf (torch and CUDA agree); MPFR's rec_sqrt gives +inf.
     .ieee = KEQ_IEEE(if (a[0].f == 0) return fval(std::copysign(INFINITY, a[0].f));
                      return ieee_via_real(Op::Rsqrt, a);),
     .real = real_unary<mpfr_rec_sqrt>,
     // A zero argument may be -0, whose IEEE rsqrt is -inf.
     .interval =
         KEQ_INTERVAL(Interval r = clip(recip(sqrt_interval(a)), 0, kInf);
                      if (a[0].contains_zero()) r.lo = -kInf, r.lo_strict = false; return r;),
     .enclosure = monotone_enclosure<mpfr_rec_sqrt, false>,
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.fresh("rsqrt"); e.condition(a[0] > 0);
                              e.fact(z3::implies(a[0] > 0, r > 0 && r * r * a[0] == 1)); return r;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_rsqrt"},
    {.op = Op::Pow,
     .arity = 2,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .normal_form = NormalFormRole::Pow,
     .spellings = "libdevice.pow",
     .ieee = KEQ_VIA_REAL(Pow),
     .real = real_float2<mpfr_pow>,
     .no_interval = "not yet: the normal forms expand small integer powers instead",
     .enclosure = pow_enclosure,
     // x^n for a constant integer n up to 16 in size is a product (pow(x, 2) is how kernels
     // square); another exponent has no exact encoding.
     .smt_real = KEQ_SMT_REAL(
         int64_t n = 0; if (!a[1].is_numeral_i64(n) || n < -16 || n > 16) throw smt::NotEncoded(
             "pow with an exponent other than an integer constant of at most 16");
         smt::Expr p = e.real(1); for (int64_t k = 0; k < (n < 0 ? -n : n); ++k) p = p * a[0];
         return n < 0 ? e.quotient(e.real(1), p) : p;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_pow"},
    {.op = Op::Tanh,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.tanh libdevice.tanh",
     .ieee = KEQ_VIA_REAL(Tanh),
     .real = real_unary<mpfr_tanh>,
     .interval =
         KEQ_INTERVAL(return clip(monotone(a[0], [](double x) { return std::tanh(x); }), -1, 1);),
     .enclosure = monotone_enclosure<mpfr_tanh>,
     // tanh y = (e^2y - 1) / (e^2y + 1)
     .smt_real = KEQ_SMT_REAL(smt::Expr x = e.exp(2 * a[0]); return e.quotient(x - 1, x + 1);),
     .no_smt_ieee = kApprox,
     .cuda = "keq_tanh"},
    {.op = Op::Erf,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.erf tl.erf libdevice.erf",
     .ieee = KEQ_VIA_REAL(Erf),
     .real = real_unary<mpfr_erf>,
     .interval =
         KEQ_INTERVAL(return clip(monotone(a[0], [](double x) { return std::erf(x); }), -1, 1);),
     .enclosure = monotone_enclosure<mpfr_erf>,
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.apply("erf", a[0], mpfr_erf); e.fact(r > -1 && r < 1);
                              return r;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_erf"},
    {.op = Op::Sigmoid,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.sigmoid tl.sigmoid",
     .ieee = KEQ_VIA_REAL(Sigmoid),
     .real = real_unary<mpfr_sigmoid>,
     .interval = KEQ_INTERVAL(
         return clip(monotone(a[0], [](double x) { return 1 / (1 + std::exp(-x)); }), 0, 1);),
     .enclosure = monotone_enclosure<sigmoid_directed>,
     .smt_real = KEQ_SMT_REAL(return e.quotient(e.real(1), 1 + e.exp(-a[0]));),
     .no_smt_ieee = kApprox,
     .cuda = "keq_sigmoid"},
    {.op = Op::Sin,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.sin tl.sin libdevice.sin",
     .ieee = KEQ_VIA_REAL(Sin),
     .real = real_unary<mpfr_sin>,
     .interval = trig_interval<false>,
     .enclosure = trig_enclosure<false>,
     // Not increasing: no model refinement, which bounds f(x) by f at x rounded down and up.
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.apply("sin", a[0], nullptr);
                              e.fact(r >= -1 && r <= 1); return r;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_sin"},
    {.op = Op::Cos,
     .arity = 1,
     .sig = Signature::SameFloat,
     .ieee_exact = false,
     .spellings = "torch.cos tl.cos libdevice.cos",
     .ieee = KEQ_VIA_REAL(Cos),
     .real = real_unary<mpfr_cos>,
     .interval = trig_interval<true>,
     .enclosure = trig_enclosure<true>,
     .smt_real = KEQ_SMT_REAL(smt::Expr r = e.apply("cos", a[0], nullptr);
                              e.fact(r >= -1 && r <= 1); return r;),
     .no_smt_ieee = kApprox,
     .cuda = "keq_cos"},
};

}  // namespace

std::span<const OpInfo> elementary_ops() {
  return kRows;
}

}  // namespace keq::ir::family
