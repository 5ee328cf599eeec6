// Replay's enclosures (ir/enclosure.h) hold the true value, and only disjoint ones count as a
// difference: a cancellation that fools any fixed precision never confirms a counterexample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "ir/enclosure.h"
#include "ir/sexp.h"
#include "verify/witness.h"

namespace keq {
namespace {

ir::TermId read(ir::TermStore& s, const std::string& text) {
  return ir::read_term(s, ir::parse_sexprs(text, "t").at(0));
}

ir::Enclosure enclose(const ir::TermStore& s, ir::TermId t, double x, double y, long bits) {
  ir::Real::PrecisionScope precision(bits);
  return ir::evaluate_enclosure(s, t, [&](const ir::Variable& v) {
    return std::optional(ir::RealValue::of(ir::Constant::of_float(v.name == "x" ? x : y)));
  });
}

// The false alarm seen on a fused swish/tanh kernel: tanh(y) against (e^2y - 1)/(e^2y + 1) at
// y = -1e-651. At 2048 bits e^2y rounds to 1 and the second form cancels to 0, so two point
// evaluations "agreed" on a difference. The enclosures overlap at every precision.
TEST(ReplayEnclosure, CancellationIsNeverADifference) {
  ir::TermStore s;
  ir::TermId y = read(s, "(* x (exp -1500))");
  ir::TermId e = s.make(ir::Op::Exp, {s.make(ir::Op::Mul, {read(s, "2"), y})});
  ir::TermId one = read(s, "1");
  ir::TermId cand =
      s.make(ir::Op::Div, {s.make(ir::Op::Sub, {e, one}), s.make(ir::Op::Add, {e, one})});
  ir::TermId ref = s.make(ir::Op::Tanh, {y});
  for (long bits : {256, 2048, 8192})
    EXPECT_FALSE(ir::disjoint(enclose(s, ref, -1, 0, bits), enclose(s, cand, -1, 0, bits)))
        << bits << " bits";
  // The old replay's evidence, for the record: point values at 2048 bits differ.
  ir::Real::PrecisionScope precision(2048);
  auto env = [](const ir::Variable&) {
    return std::optional(ir::RealValue::of(ir::Constant::of_float(-1)));
  };
  EXPECT_TRUE(mpfr_zero_p(ir::evaluate_real(s, cand, env).f.get()));
  EXPECT_FALSE(mpfr_zero_p(ir::evaluate_real(s, ref, env).f.get()));
}

// sin and cos are monotone only between critical points: an enclosure over a range that holds
// one (sin over [1.5, 1.6] holds pi/2) must reach 1 there. Over random ranges, near the origin
// and at 1e6 and 1e22, every value at sample points lies in the enclosure; points are narrow.
// An i32 product that wraps at a point is the wrapped value there, not "any value": the point
// 3 * 10^9 made x * 10^9 (i32, cast to float) and its float product differ, but replay could not
// confirm it, and Z3's unbounded integers then proved them equal (a false EQUIVALENT).
TEST(ReplayEnclosure, IntegerArithmeticWrapsAtPoints) {
  ir::TermStore s;
  absl::flat_hash_map<std::string, ir::Type> types = {{"i", ir::Type::I32}};
  ir::TermId wrapped =
      ir::read_term(s, ir::parse_sexprs("(cast.f32 (* i 1000000000:i32))", "t").at(0), types);
  ir::TermId exact =
      ir::read_term(s, ir::parse_sexprs("(* (cast.f32 i) 1000000000)", "t").at(0), types);
  auto at = [&](ir::TermId t, int64_t i) {
    return ir::evaluate_enclosure(s, t, [&](const ir::Variable&) {
      return std::optional(ir::RealValue::of(ir::Constant::of_int(ir::Type::I32, i)));
    });
  };
  ir::Enclosure w = at(s.children(wrapped)[0], 3);
  EXPECT_TRUE(w.ilo == w.ihi && w.ilo == 3000000000LL - (1LL << 32)) << w.ilo << " " << w.ihi;
  EXPECT_TRUE(ir::disjoint(at(wrapped, 3), at(exact, 3)));
  EXPECT_FALSE(ir::disjoint(at(wrapped, 2), at(exact, 2)));  // 2e9 fits
}

TEST(ReplayEnclosure, SineAndCosineEnclosuresHoldEveryValueOfTheirRange) {
  ir::TermStore s;
  std::mt19937 rng(7);
  for (ir::Op op : {ir::Op::Sin, ir::Op::Cos}) {
    ir::TermId t = s.make(op, {s.variable("x")});
    for (int trial = 0; trial < 600; ++trial) {
      const double scales[] = {1, 20, 1e6, 1e22};
      const double widths[] = {0, 1e-12, 1e-3, 0.5, 3, 7};
      double c = std::uniform_real_distribution<double>(-1, 1)(rng) * scales[trial % 4];
      double w = widths[rng() % std::size(widths)];
      ir::Enclosure range;
      range.real = true;
      mpfr_set_d(range.lo.get(), c - w, MPFR_RNDD);
      mpfr_set_d(range.hi.get(), c + w, MPFR_RNDU);
      ir::Enclosure e =
          ir::evaluate_enclosure_over(s, t, [&](const ir::Variable&) { return range; });
      ASSERT_TRUE(e.real);
      for (int k = 0; k <= 16; ++k) {
        ir::Real x, v;  // lo + (hi - lo) k / 16, rounded into the range
        mpfr_sub(x.get(), range.hi.get(), range.lo.get(), MPFR_RNDN);
        mpfr_mul_d(x.get(), x.get(), k / 16.0, MPFR_RNDN);
        mpfr_add(x.get(), x.get(), range.lo.get(), MPFR_RNDN);
        mpfr_min(x.get(), x.get(), range.hi.get(), MPFR_RNDN);
        (op == ir::Op::Sin ? mpfr_sin : mpfr_cos)(v.get(), x.get(), MPFR_RNDN);
        EXPECT_TRUE(mpfr_lessequal_p(e.lo.get(), v.get()) && mpfr_lessequal_p(v.get(), e.hi.get()))
            << ir::op_name(op) << " over " << c << " +- " << w << ": " << e.str() << " at "
            << mpfr_get_d(x.get(), MPFR_RNDN) << " is " << mpfr_get_d(v.get(), MPFR_RNDN);
      }
      if (w == 0 && trial % 4 < 3) {
        ir::Real width;
        mpfr_sub(width.get(), e.hi.get(), e.lo.get(), MPFR_RNDU);
        EXPECT_LT(mpfr_get_d(width.get(), MPFR_RNDU), 1e-60) << c;
      }
    }
  }
  ir::Enclosure around;
  around.real = true;
  mpfr_set_d(around.lo.get(), 1.5, MPFR_RNDD);
  mpfr_set_d(around.hi.get(), 1.6, MPFR_RNDU);
  ir::Enclosure e = ir::evaluate_enclosure_over(s, s.make(ir::Op::Sin, {s.variable("x")}),
                                                [&](const ir::Variable&) { return around; });
  EXPECT_EQ(mpfr_cmp_ui(e.hi.get(), 1), 0) << e.str();
}

// Python's and C's integer modulo over ranges (an index % n that picks an embedding row): every
// value the operands can give lies in the enclosure, and a positive divisor bounds it.
TEST(ReplayEnclosure, IntegerModuloEnclosuresHoldEveryValue) {
  ir::TermStore s;
  ir::TermId a = s.variable("a", ir::Type::I64), b = s.variable("b", ir::Type::I64);
  std::mt19937 rng(11);
  for (ir::Op op : {ir::Op::ModPy, ir::Op::ModC}) {
    ir::TermId t = s.make(op, {a, b});
    for (int trial = 0; trial < 300; ++trial) {
      auto draw = [&](int64_t span) {
        int64_t lo = std::uniform_int_distribution<int64_t>(-span, span)(rng);
        return std::pair{lo, lo + std::uniform_int_distribution<int64_t>(0, span / 4)(rng)};
      };
      auto [alo, ahi] = draw(40);
      auto [blo, bhi] = draw(9);
      if (blo == 0 && bhi == 0) continue;  // undefined: the evaluator throws at points
      ir::Enclosure e = ir::evaluate_enclosure_over(s, t, [&](const ir::Variable& v) {
        ir::Enclosure r = ir::Enclosure::any(ir::Type::I64);
        r.ilo = v.name == "a" ? alo : blo, r.ihi = v.name == "a" ? ahi : bhi;
        return r;
      });
      for (int64_t x = alo; x <= ahi; ++x)
        for (int64_t y = blo; y <= bhi; ++y) {
          if (y == 0) continue;
          int64_t m = x % y;  // C's
          if (op == ir::Op::ModPy && m != 0 && ((m < 0) != (y < 0))) m += y;
          EXPECT_TRUE(e.ilo <= m && m <= e.ihi)
              << ir::op_name(op) << " " << x << ", " << y << " = " << m << " outside " << e.str();
        }
      if (op == ir::Op::ModPy && blo > 0) {
        EXPECT_GE(e.ilo, 0);
        EXPECT_LT(e.ihi, bhi);
      }
    }
  }
}

TEST(ReplayEnclosure, RealDifferencesAreDisjoint) {
  ir::TermStore s;
  auto differ = [&](const std::string& a, const std::string& b, double x) {
    return ir::disjoint(enclose(s, read(s, a), x, 0, 256), enclose(s, read(s, b), x, 0, 256));
  };
  EXPECT_TRUE(differ("(+ x 1e-30)", "x", 3));
  EXPECT_TRUE(differ("(exp x)", "(exp2 x)", 1));
  EXPECT_TRUE(differ("(log x)", "x", 2));
  EXPECT_TRUE(differ("(/ x 0)", "x", 1));              // inf against 1
  EXPECT_TRUE(differ("(- (exp x) (exp x))", "1", 1));  // 0 against 1, despite rounding
  EXPECT_FALSE(differ("(- (exp x) (exp x))", "0", 1));
  EXPECT_FALSE(differ("(* (sqrt x) (sqrt x))", "x", 2));  // equal, inexact on both sides
  EXPECT_TRUE(differ("(log x)", "0", -1));                // NaN on one side only
  EXPECT_FALSE(differ("(log x)", "(sqrt x)", -1));        // NaN on both
  // x - x has the outward-rounded bounds [-0, +0]; real semantics has one zero, so 1/(x - x)
  // is +inf like 1/0 (a -0 bound once made it -inf: a false difference).
  EXPECT_FALSE(differ("(recip (- x x))", "(/ 1 0)", 2.5));
  EXPECT_FALSE(differ("(sqrt (recip (- x x)))", "(/ 1 0)", -2.5));
  ir::Enclosure tiny = enclose(s, read(s, "(- (* x (exp -1500)) 0)"), 1, 0, 256);
  EXPECT_NE(ir::separation(tiny, enclose(s, read(s, "0"), 0, 0, 256)), "0");
}

// Random terms over every family of ops: a 256-bit enclosure holds the value evaluated at 4096
// bits, and never misses the 8192-bit enclosure (both hold the true value).
struct Gen {
  ir::TermStore& s;
  std::mt19937& rng;
  ir::TermId term(int depth) {
    static const char* leaves[] = {"x", "y", "0", "1", "-2.5", "3", "1e-30", "448", "inf", "-inf"};
    if (depth == 0 || rng() % 5 == 0) return read(s, leaves[rng() % 10]);
    static const ir::Op unary[] = {
        ir::Op::Neg,      ir::Op::Abs,     ir::Op::Exp,      ir::Op::Exp2,     ir::Op::Log,
        ir::Op::Log2,     ir::Op::Sqrt,    ir::Op::Rsqrt,    ir::Op::Recip,    ir::Op::Tanh,
        ir::Op::Erf,      ir::Op::Sigmoid, ir::Op::Floor,    ir::Op::Ceil,     ir::Op::Round,
        ir::Op::Trunc,    ir::Op::CastF16, ir::Op::CastBF16, ir::Op::CastE4M3, ir::Op::CastE4M3Sat,
        ir::Op::CastE5M2, ir::Op::Sin,     ir::Op::Cos};
    static const ir::Op binary[] = {ir::Op::Add,  ir::Op::Sub,       ir::Op::Mul,    ir::Op::Div,
                                    ir::Op::Max,  ir::Op::Min,       ir::Op::MaxNum, ir::Op::MinNum,
                                    ir::Op::FMod, ir::Op::Remainder, ir::Op::Pow};
    // Every draw in its own statement: argument evaluation order differs between compilers.
    switch (rng() % 6) {
      case 0:
      case 1: {
        ir::Op op = unary[rng() % std::size(unary)];
        return s.make(op, {term(depth - 1)});
      }
      case 2:
      case 3: {
        ir::Op op = binary[rng() % std::size(binary)];
        ir::TermId a = term(depth - 1), b = term(depth - 1);
        return s.make(op, {a, b});
      }
      case 4: {
        static const ir::Op cmp[] = {ir::Op::Lt, ir::Op::Le, ir::Op::Gt,
                                     ir::Op::Ge, ir::Op::Eq, ir::Op::Ne};
        ir::Op op = cmp[rng() % 6];
        ir::TermId x = term(depth - 1), y = term(depth - 1);
        ir::TermId c = s.make(op, {x, y});
        ir::TermId then = term(depth - 1), otherwise = term(depth - 1);
        return s.make(ir::Op::Select, {c, then, otherwise});
      }
      default: {
        ir::Op three[] = {ir::Op::Fma, ir::Op::Clamp, ir::Op::Sum};
        ir::Op op = three[rng() % 3];
        ir::TermId x = term(depth - 1), y = term(depth - 1), z = term(depth - 1);
        return s.make(op, {x, y, z});
      }
    }
  }
};

bool holds(const ir::Enclosure& e, const ir::RealValue& v) {
  if (mpfr_nan_p(v.f.get())) return e.nan;
  return e.real && mpfr_lessequal_p(e.lo.get(), v.f.get()) &&
         mpfr_lessequal_p(v.f.get(), e.hi.get());
}

TEST(ReplayEnclosure, RandomTermsAreEnclosed) {
  const double points[] = {0, 1, -1, 0.5, 2.75, -3, 1e-3, 700, -700, 1e30, 448, 465};
  int checked = 0;
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 600; ++trial) {
      ir::TermStore s;
      Gen g{s, rng};
      ir::TermId t = g.term(4);
      double x = points[rng() % std::size(points)], y = points[rng() % std::size(points)];
      ir::RealValue precise;
      try {
        ir::Real::PrecisionScope precision(4096);
        precise = ir::evaluate_real(s, t, [&](const ir::Variable& v) {
          return std::optional(ir::RealValue::of(ir::Constant::of_float(v.name == "x" ? x : y)));
        });
      } catch (const ir::EvalError&) {
        continue;  // out of MPFR's range: no reference value
      }
      ir::Enclosure low = enclose(s, t, x, y, 256), high = enclose(s, t, x, y, 8192);
      ASSERT_FALSE(ir::disjoint(low, high)) << s.str(t) << " x=" << x << " y=" << y;
      if (precise.type == ir::Type::F32) {
        ASSERT_TRUE(holds(low, precise)) << s.str(t) << " x=" << x << " y=" << y << ": "
                                         << precise.str() << " not in " << low.str();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000);
}

// IEEE: torch's amax keeps whichever of -0 and +0 its kernel's order meets, so keq marks it
// (TorchState::ieee_zero_sign) and a difference at a point where it is zero is no evidence:
// amax(x, y) against amax(x, y) + 0 differs in keq's arithmetic at x = y = -0 only by the sign
// of that zero. Elsewhere the same pair's differences still count.
TEST(ReplayEnclosure, AZeroWhoseSignIsTheKernelsIsNoEvidence) {
  ir::TermStore s;
  ir::TermId m = read(s, "(amax x y)");
  verify::internal::Pair pair{m, read(s, "(+ (amax x y) 0)"), 0, 0};
  verify::internal::Witness w(s, {}, 1, ir::Semantics::Ieee);
  verify::internal::Point zeros{{s.variable("x"), -0.0}, {s.variable("y"), -0.0}};
  EXPECT_TRUE(w.differs(pair, zeros));  // keq's fold: -0 against +0
  w.set_zero_sign_terms({m});
  EXPECT_FALSE(w.differs(pair, zeros));
  verify::internal::Pair other{m, read(s, "(+ (amax x y) 1)"), 0, 0};
  EXPECT_TRUE(w.differs(other, {{s.variable("x"), 2.0}, {s.variable("y"), 3.0}}));
}

// Round half to even and half away from zero differ only at k + 1/2: the search solves for
// such an argument. A rounding whose argument leaves MPFR's range at the points tried (exp of
// exp of the term's constant 1e30) is no evidence and no crash: the search goes on and finds
// nothing there.
TEST(ReplayEnclosure, TheSearchSolvesForHalfIntegerRoundingArguments) {
  ir::TermStore s;
  verify::internal::Domains any;  // the Witness keeps a reference: no temporary
  verify::internal::Witness w(s, any, 1, ir::Semantics::Real);
  verify::internal::Pair halves{read(s, "(round (* x 0.5))"), read(s, "(round.away (* x 0.5))"), 0,
                                0};
  std::string how;
  size_t tried = 0;
  ir::TermId x = s.variable("x");
  auto p = w.at_half_integers(halves, {x}, {}, tried);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(std::abs(std::fmod(p->at(x) * 0.5, 1.0)), 0.5) << p->at(x);
  EXPECT_TRUE(w.differs(halves, *p));
  EXPECT_TRUE(w.search(halves, 8, how, tried).has_value());
  verify::internal::Pair huge{read(s, "(round (* (exp (exp x)) 1e30))"),
                              read(s, "(round.away (* (exp (exp x)) 1e30))"), 0, 0};
  EXPECT_NO_THROW(w.search(huge, 8, how, tried));
  EXPECT_NO_THROW(w.at_half_integers(huge, {x}, {1e30}, tried));
}

// A causal softmax's first row over two keys, the future one masked with -inf (reference) or
// -1e9 (a kernel's sentinel): at x = -2e9 the kernel's weight on x is exp(-1e9), 2^-1.44e9, past
// MPFR's default exponent range (2^-1.07e9). The evaluators refused such a point as no evidence,
// so a witness search that drew sentinel-sized values for several scores at once found nothing
// (Liger's multi-token attention against an -inf reference: UNKNOWN at 60 s). They now widen
// the range, and the point is a confirmed difference.
TEST(ReplayEnclosure, ValuesPastMpfrsDefaultExponentRangeAreEvidence) {
  ir::TermStore s;
  ir::TermId ref = read(s, "(/ (exp (- x x)) (+ (exp (- x x)) 0))");
  ir::TermId cand = read(s, "(/ (exp (- x -1000000000)) (+ (exp (- x -1000000000)) 1))");
  verify::internal::Domains any;
  verify::internal::Witness w(s, any, 1, ir::Semantics::Real);
  verify::internal::Point p{{s.variable("x"), -2e9}};
  EXPECT_TRUE(w.differs({ref, cand, 0, 0}, p));
  auto at = [](const ir::Variable&) {
    return std::optional(ir::RealValue::of(ir::Constant::of_float(-2e9)));
  };
  ir::RealValue tiny = ir::evaluate_real(s, cand, at);
  EXPECT_GT(mpfr_sgn(tiny.f.get()), 0);
  ir::Enclosure e = ir::evaluate_enclosure(s, cand, at);
  EXPECT_GT(mpfr_sgn(e.lo.get()), 0) << e.str();
}

}  // namespace
}  // namespace keq

namespace keq {
namespace {

ir::Enclosure range_of(double lo, double hi, bool finite) {
  ir::Enclosure e;
  e.real = true;
  mpfr_set_d(e.lo.get(), lo, MPFR_RNDD);
  mpfr_set_d(e.hi.get(), hi, MPFR_RNDU);
  e.finite = finite;
  return e;
}

// tanh written as (e^2x - 1) / (e^2x + 1) (and x times it) over x > 20: the quotient moves with
// one value, so its enclosure is [tanh 20, 1], where plain interval division gives [0, inf]. The
// case split on thresholds (verify/stage_cases.cc) needs that to see a clamp saturate. At
// x = inf the quotient is NaN: an x that may be infinite gets no such bound.
TEST(ReplayEnclosure, AQuotientOfOneValueIsBoundedByItsEnds) {
  ir::TermStore s;
  ir::TermId t = read(s, "(/ (- (exp (* 2 x)) 1) (+ (exp (* 2 x)) 1))");
  ir::TermId xt = read(s, "(/ (* x (- (exp (* 2 x)) 1)) (+ (exp (* 2 x)) 1))");
  auto over = [&](ir::TermId term, const ir::Enclosure& r) {
    return ir::evaluate_enclosure_over(s, term, [&](const ir::Variable&) { return r; });
  };
  ir::Enclosure e = over(t, range_of(20, INFINITY, true));
  ASSERT_TRUE(e.real && !e.nan) << e.str();
  EXPECT_LE(mpfr_cmp_d(e.hi.get(), 1), 0) << e.str();
  EXPECT_GE(mpfr_cmp_d(e.lo.get(), 0.9999999999999999), 0) << e.str();
  ir::Enclosure m = over(xt, range_of(20, INFINITY, true));
  ASSERT_TRUE(m.real && !m.nan) << m.str();
  EXPECT_GE(mpfr_cmp_d(m.lo.get(), 19.99999), 0) << m.str();
  // The same written with a reciprocal (keq's metamorphic variants turn x / y into x * (1 / y)).
  for (const char* form : {"(* (* x (- (exp (* 2 x)) 1)) (/ 1 (+ (exp (* 2 x)) 1)))",
                           "(* (recip (+ (exp (* 2 x)) 1)) (* x (- (exp (* 2 x)) 1)))"}) {
    ir::Enclosure r = over(read(s, form), range_of(20, INFINITY, true));
    ASSERT_TRUE(r.real && !r.nan) << form << ": " << r.str();
    EXPECT_GE(mpfr_cmp_d(r.lo.get(), 19.99999), 0) << form << ": " << r.str();
  }
  ir::Enclosure maybe_inf = over(t, range_of(20, INFINITY, false));
  EXPECT_TRUE(maybe_inf.nan || mpfr_cmp_d(maybe_inf.hi.get(), 1) > 0) << maybe_inf.str();
  // Sampled: every value of the quotient over random finite ranges lies in its enclosure,
  // whichever side of the pole (a = -1, none for e^2x) the range is on.
  ir::TermId moeb = read(s, "(/ (- x 3) (+ x 1))");
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    double c = std::uniform_real_distribution<double>(-6, 6)(rng);
    double w = std::uniform_real_distribution<double>(0, 3)(rng);
    ir::Enclosure r = range_of(c - w, c + w, true);
    ir::Enclosure q = over(moeb, r);
    for (int k = 0; k <= 16; ++k) {
      double x = std::clamp(c - w + 2 * w * k / 16, c - w, c + w);  // inside the range
      if (x == -1) continue;
      ir::Real v(x), d(x);  // (x - 3) / (x + 1) at 256 bits, within 1e-70 of the true value
      mpfr_sub_d(v.get(), v.get(), 3, MPFR_RNDN);
      mpfr_add_d(d.get(), d.get(), 1, MPFR_RNDN);
      mpfr_div(v.get(), v.get(), d.get(), MPFR_RNDN);
      ir::Real below(v), above(v);
      mpfr_sub_d(below.get(), v.get(),
                 1e-60 * std::max(1.0, std::abs(mpfr_get_d(v.get(), MPFR_RNDN))), MPFR_RNDD);
      mpfr_add_d(above.get(), v.get(),
                 1e-60 * std::max(1.0, std::abs(mpfr_get_d(v.get(), MPFR_RNDN))), MPFR_RNDU);
      EXPECT_TRUE(q.nan || (q.real && mpfr_lessequal_p(q.lo.get(), above.get()) &&
                            mpfr_lessequal_p(below.get(), q.hi.get())))
          << "over " << c << " +- " << w << ": " << q.str() << " at " << x;
    }
  }
}

}  // namespace
}  // namespace keq
