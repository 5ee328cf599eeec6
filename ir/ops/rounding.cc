// Rounding: to integers (floor, ceil, round half to even, trunc) and into narrow float formats
// (fp16, bf16, fp8 e4m3fn and e5m2, with torch's overflow rules or Triton's satfinite). Narrow
// formats are not types: a cast rounds into the format's value set and the result is an f32.
#include "ir/ops/family.h"

namespace keq::ir::family {
namespace {

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

template <Op kOp>
smt::Expr to_integer_smt(smt::RealEncoding&, SArgs a) {
  return smt::real_to_integer(kOp, a[0]);
}
template <Op kOp>
smt::Expr to_integer_ieee(smt::IeeeEncoding& e, SArgs a) {
  return smt::fp_to_integer(e, kOp, a[0]);
}

template <Mpfr1 F, double (*D)(double), SmtRealFn smt_to_integer, SmtIeeeFn smt_to_integer_ieee>
constexpr OpInfo to_integer_row(Op op, std::string_view spellings, IeeeFn ieee,
                                std::string_view cuda) {
  return {.op = op,
          .arity = 1,
          .sig = Signature::SameFloat,
          .real_exact = true,
          .spellings = spellings,
          .ieee = ieee,
          .real = real_unary<F>,
          .interval =
              [](IvArgs a) {
                Interval r = monotone(a[0], D);
                // Integers at exact ends: floor, ceil, trunc and rint of a double are exact, so
                // no outward ulps (round(q) <= 127 for |q| <= 127 keeps a clamp redundant).
                if (!a[0].empty_range() && !std::isnan(a[0].lo) && !std::isnan(a[0].hi))
                  r.lo = D(a[0].lo), r.hi = D(a[0].hi);
                r.never_inf = a[0].no_inf();
                return r;
              },
          .enclosure = [](EArgs a) { return monotone(*a[0], F, true); },
          .smt_real = smt_to_integer,
          .smt_ieee = smt_to_integer_ieee,
          .cuda = cuda};
}

double floor_d(double x) {
  return std::floor(x);
}
double ceil_d(double x) {
  return std::ceil(x);
}
double rint_d(double x) {
  return std::nearbyint(x);
}
double trunc_d(double x) {
  return std::trunc(x);
}
int round_away_fn(mpfr_ptr o, mpfr_srcptr x, mpfr_rnd_t) {
  return mpfr_round(o, x);  // half away from zero
}
double round_away_d(double x) {
  return std::round(x);
}

IeeeValue ieee_cast(IArgs a, FloatFormat fmt, Overflow o) {
  const IeeeValue& x = a[0];
  if (x.type == Type::F32) return fval(static_cast<float>(round_to_format(x.f, fmt, o)));
  Real r(0.0);
  mpfr_set_si(r.get(), x.i, MPFR_RNDN);
  return fval(static_cast<float>(round_to_format(r.get(), fmt, o)));
}
void real_cast(RArgs a, RealValue& out, FloatFormat fmt, Overflow o) {
  Real src;
  if (a[0]->type == Type::F32)
    src = a[0]->f;
  else
    mpfr_set_si(src.get(), a[0]->i, MPFR_RNDN);
  mpfr_set_d(set_float(out), round_to_format(src.get(), fmt, o), MPFR_RNDN);
}

// A rounding cast into `kFormat`; (ebits, sbits) when Z3's floating point can round through it.
template <Op kOp, FloatFormat kFormat, Overflow kOverflow, unsigned kEbits = 0, unsigned kSbits = 0>
constexpr OpInfo cast_row() {
  OpInfo r{.op = kOp,
           .arity = 1,
           .sig = Signature::CastTo,
           .ieee = [](IArgs a) { return ieee_cast(a, kFormat, kOverflow); },
           .real = [](RArgs a, RealValue& out) { real_cast(a, out, kFormat, kOverflow); },
           .interval = [](IvArgs a) { return cast(a[0], kFormat, kOverflow); },
           .enclosure =
               [](EArgs a) {
                 if (a[0]->type != Type::F32) return Enclosure::any(Type::F32);
                 return exact_monotone(kOp, *a[0]);
               },
           .smt_real = [](smt::RealEncoding& e,
                          SArgs a) { return e.round_to_format(a[0], kFormat, kOverflow); },
           .no_smt_ieee = "not yet encoded",
           .cuda = kOp == Op::CastF16       ? "keq_cast_f16"
                   : kOp == Op::CastBF16    ? "keq_cast_bf16"
                   : kOp == Op::CastE4M3    ? "keq_cast_e4m3"
                   : kOp == Op::CastE4M3Sat ? "keq_cast_e4m3_sat"
                   : kOp == Op::CastE5M2    ? "keq_cast_e5m2"
                                            : "keq_cast_e5m2_sat"};
  if (kFormat == FloatFormat::E4M3FN) {
    r.smt_ieee = [](smt::IeeeEncoding& e, SArgs a) {
      return smt::fp_round_e4m3(e, a[0], kOverflow == Overflow::Saturate);
    };
    r.no_smt_ieee = {};
  }
  if (kOp == Op::CastE5M2Sat) {  // e5m2 is IEEE-like: clamp (NaN passes), then round
    r.smt_ieee = [](smt::IeeeEncoding& e, SArgs a) {
      return smt::fp_round_through(e, smt::fp_clamp(e, a[0], 57344.0), 5, 3);
    };
    r.no_smt_ieee = {};
  }
  if (kEbits) {
    r.smt_ieee = [](smt::IeeeEncoding& e, SArgs a) {
      return smt::fp_round_through(e, a[0], kEbits, kSbits);
    };
    r.no_smt_ieee = {};
  }
  return r;
}

const OpInfo kRows[] = {
    to_integer_row<floor_fn, floor_d, to_integer_smt<Op::Floor>, to_integer_ieee<Op::Floor>>(
        Op::Floor, "torch.floor tl.floor libdevice.floor",
        KEQ_IEEE(return fval(std::floor(a[0].f));), "keq_floor"),
    to_integer_row<ceil_fn, ceil_d, to_integer_smt<Op::Ceil>, to_integer_ieee<Op::Ceil>>(
        Op::Ceil, "torch.ceil tl.ceil libdevice.ceil", KEQ_IEEE(return fval(std::ceil(a[0].f));),
        "keq_ceil"),
    // Half to even, as torch.round and libdevice's rint.
    to_integer_row<round_even, rint_d, to_integer_smt<Op::Round>, to_integer_ieee<Op::Round>>(
        Op::Round, "torch.round libdevice.rint", KEQ_IEEE(return fval(std::nearbyint(a[0].f));),
        "keq_round"),
    to_integer_row<trunc_fn, trunc_d, to_integer_smt<Op::Trunc>, to_integer_ieee<Op::Trunc>>(
        Op::Trunc, "torch.trunc libdevice.trunc", KEQ_IEEE(return fval(std::trunc(a[0].f));),
        "keq_trunc"),
    // Half away from zero (C's roundf): libdevice's round, which int8 quantization kernels call
    // where torch.round (half to even) is the reference.
    to_integer_row<round_away_fn, round_away_d, to_integer_smt<Op::RoundAway>,
                   to_integer_ieee<Op::RoundAway>>(Op::RoundAway, "libdevice.round",
                                                   KEQ_IEEE(return fval(std::round(a[0].f));),
                                                   "keq_round_away"),
    {.op = Op::CastF32,
     .arity = 1,
     .sig = Signature::CastTo,
     .ieee = KEQ_IEEE(if (a[0].type == Type::F32) return a[0];
                      return fval(static_cast<float>(a[0].i));),
     .real = KEQ_REAL(if (a[0]->type == Type::F32) {
       mpfr_set(set_float(out), a[0]->f.get(), MPFR_RNDN);
       return;
     } mpfr_set_si(set_float(out), a[0]->i, MPFR_RNDN);),
     // The value itself: a float stays, an integer or bool (its interval, [0, 1] for a bool) is
     // exact over the reals and widened for fp32 rounding by interval_of in IEEE semantics.
     .interval = KEQ_INTERVAL(return a[0];),
     .enclosure =
         KEQ_ENCLOSE(if (a[0]->type == Type::F32) return *a[0]; return Enclosure::any(Type::F32);),
     // An integer or a bool becomes its exact real (the real evaluator's too); floats stay.
     .smt_real = KEQ_SMT_REAL(if (a[0].is_bool()) return z3::ite(a[0], e.real(1), e.real(0));
                              if (a[0].is_int()) return z3::to_real(a[0]); return a[0];),
     // An integer rounds to nearest even; a bool is 0 or 1.
     .smt_ieee =
         KEQ_SMT_IEEE(if (a[0].is_fpa()) return a[0]; z3::context& c = e.ctx();
                      if (a[0].is_bool()) return z3::ite(a[0], c.fpa_val(1.0f), c.fpa_val(0.0f));
                      return z3::expr(c, Z3_mk_fpa_to_fp_signed(c, e.rne(), a[0], e.f32()));),
     .cuda = "keq_cast_f32"},
    cast_row<Op::CastF16, FloatFormat::F16, Overflow::Inf, 5, 11>(),
    cast_row<Op::CastBF16, FloatFormat::BF16, Overflow::Inf, 8, 8>(),
    cast_row<Op::CastE4M3, FloatFormat::E4M3FN, Overflow::NaN>(),
    cast_row<Op::CastE4M3Sat, FloatFormat::E4M3FN, Overflow::Saturate>(),
    cast_row<Op::CastE5M2, FloatFormat::E5M2, Overflow::Inf, 5, 3>(),
    cast_row<Op::CastE5M2Sat, FloatFormat::E5M2, Overflow::Saturate>(),
};

}  // namespace

std::span<const OpInfo> rounding_ops() {
  return kRows;
}

}  // namespace keq::ir::family
