// The analyses: constant folding folds only exact results, and the interval enclosure contains
// every value a term takes (checked on random terms at random and special inputs).
#include <gtest/gtest.h>

#include <cfloat>
#include <random>

#include "rules/rules.h"

namespace keq::rules {
namespace {

using Graph = KeqLanguage::Graph;

std::optional<ir::Constant> folded(const std::string& term, ir::Semantics sem) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, sem));
  egraph::EClassId c = add_term(g, ir::read_term(store, ir::parse_sexprs(term, "t").at(0)));
  g.rebuild();
  return g.data(c).constant;
}

TEST(ConstantFolding, FoldsExactResultsOnly) {
  EXPECT_EQ(folded("(+ 1 2)", ir::Semantics::Real)->f, 3);
  EXPECT_EQ(folded("(exp 0)", ir::Semantics::Real)->f, 1);
  EXPECT_FALSE(folded("(/ 1 3)", ir::Semantics::Real));  // 1/3 is no double: kept symbolic
  EXPECT_FALSE(folded("(exp 1)", ir::Semantics::Real));
  EXPECT_EQ(folded("(/ 1 3)", ir::Semantics::Ieee)->f, static_cast<double>(1.0f / 3.0f));
  EXPECT_FALSE(folded("(exp 0)", ir::Semantics::Ieee));  // approximations have no one value
  EXPECT_FALSE(folded("(div.c 1:i32 0:i32)", ir::Semantics::Real));
  EXPECT_TRUE(std::isnan(folded("(- inf inf)", ir::Semantics::Real)->f));
  EXPECT_EQ(folded("(cast.e4m3.sat 1000)", ir::Semantics::Real)->f, 448);
}

TEST(Intervals, FactsFromConstantsAndDomains) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_domain(store.payload(store.variable("x")), {-3, 3, false});
  auto fact = [&](const std::string& t) {
    return g.data(add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)))).range;
  };
  EXPECT_TRUE(fact("2").nonzero());
  EXPECT_FALSE(fact("0").nonzero());
  EXPECT_TRUE(fact("(exp x)").positive());
  EXPECT_FALSE(fact("(exp y)").not_nan());  // y is unconstrained: NaN possible
  EXPECT_TRUE(fact("(exp y)").nonneg() == false);
  EXPECT_TRUE(fact("(* x x)").finite());
  EXPECT_FALSE(fact("(/ 1 x)").finite());
  EXPECT_TRUE(fact("(sigmoid x)").positive());
  EXPECT_TRUE(fact("(+ (* x x) 1)").positive());
  EXPECT_FALSE(fact("(log x)").not_nan());
  EXPECT_TRUE(fact("(maxnum x 0)").nonneg());
  EXPECT_TRUE(fact("(cast.e4m3.sat y)").finite() == false);  // NaN passes through
}

// Over the reals, exp of a large finite value is finite: a double bound that overflows to inf
// is not the value inf. It was read as the constant inf (the canary merged 1 with inf on
// exp(2^31 (a + b)) terms), and le/lt held between any two such classes.
TEST(Intervals, OverflowingBoundsOfFiniteValuesStayFinite) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_domain(store.payload(store.variable("x")), {1, 2, false, true});
  egraph::EClassId c =
      add_term(g, ir::read_term(store, ir::parse_sexprs("(exp (* 1e10 x))", "t").at(0)));
  g.rebuild();
  EXPECT_FALSE(g.data(c).constant);
  EXPECT_TRUE(g.data(c).range.finite());
  EXPECT_EQ(g.data(c).range.lo, DBL_MAX);
  EXPECT_TRUE(std::isinf(g.data(c).range.hi));
  Interval neg = ir::interval_of(ir::Op::Neg, std::span(&g.data(c).range, 1), ir::Semantics::Real);
  EXPECT_EQ(neg.hi, -DBL_MAX);
}

// The same at the other end: products of tiny nonzero bounds that underflow even in fma
// (1e-200 squared) are not 0, a square of a strictly positive value stays strictly positive, and
// 1 / 1e-320 (past DBL_MAX) is finite. Each hole left some class an enclosure that missed its
// value (exp(-2048) in [0, 0], log of it below -DBL_MAX), so that abs-nonneg and abs-nonpos both
// held and Mish through the stable softplus "proved" a^2 tanh(softplus a) = a^2.
TEST(Intervals, UnderflowingBoundsOfNonzeroValuesStayNonzero) {
  const Interval tiny{0, 1e-200, false, true, true};  // (0, 1e-200]: exp(-460) and below
  Interval sq = ir::interval_square(tiny, ir::Semantics::Real);
  EXPECT_TRUE(sq.positive()) << sq.str();
  EXPECT_GT(sq.hi, 0);
  const Interval neg_tiny{-1e-200, -1e-200, false, true};
  Interval args[] = {tiny, neg_tiny};
  Interval prod = ir::interval_of(ir::Op::Mul, args, ir::Semantics::Real);
  EXPECT_LT(prod.lo, 0) << prod.str();  // (0, 1e-200] * -1e-200 is below 0, not 0
  const Interval sub{0, 1e-320, false, true, true};
  Interval r = ir::interval_of(ir::Op::Recip, std::span(&sub, 1), ir::Semantics::Real);
  EXPECT_EQ(r.lo, DBL_MAX) << r.str();
  EXPECT_TRUE(r.finite());
  // 1e-112 / (0, 1e-320] is at least 1e208: the reciprocal's bound must not overflow first.
  Interval quotient_args[] = {Interval{1e-112, 1e-112, false, true}, sub};
  Interval q = ir::interval_of(ir::Op::Div, quotient_args, ir::Semantics::Real);
  EXPECT_LE(q.lo, 1e208) << q.str();
  EXPECT_GT(q.lo, 0);
}

// Two enclosures of one class must intersect: a merge that leaves none is a wrong merge (or a
// wrong enclosure), and stops the run as the distinct-constants canary does.
TEST(Intervals, MergingDisjointRangesTripsTheCanary) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_domain(store.payload(store.variable("x")), {1, 2, false, true});
  auto add = [&](const char* t) {
    return add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)));
  };
  egraph::EClassId a = add("(exp x)"), b = add("(neg (exp x))");
  g.rebuild();
  EXPECT_FALSE(g.lang().canary());
  g.union_classes(a, b, egraph::Justification{});
  g.rebuild();
  ASSERT_TRUE(g.lang().canary());
  EXPECT_NE(g.lang().canary()->find("disjoint"), std::string::npos) << *g.lang().canary();
}

// Which classes hold fp32 values, or quotients of two (the f32-binade condition): tensor
// elements are fp32 values, and so are their extrema, absolute values, fp32 constants and casts;
// sums and products are not, nor is a quotient by a constant no fp32 value holds.
TEST(Fp32Values, ElementsExtremaAndQuotientsOfThem) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  for (const char* v : {"x", "y"}) g.lang().set_fp32_value(store.payload(store.variable(v)));
  auto kind = [&](const std::string& t) {
    egraph::EClassId c = add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)));
    g.rebuild();
    return g.data(c).fp32;
  };
  EXPECT_EQ(kind("x"), Fp32Kind::Value);
  EXPECT_EQ(kind("z"), Fp32Kind::Unknown);  // not declared a tensor element
  EXPECT_EQ(kind("(maxnum (tmax (abs x) (abs y)) 1.000000013351432e-10)"), Fp32Kind::Value);
  EXPECT_EQ(kind("(maxnum (abs x) 1e-10)"), Fp32Kind::Unknown);  // 1e-10 is no fp32 value
  EXPECT_EQ(kind("(div.full (tmax (abs x) (abs y)) 448)"), Fp32Kind::Quotient);
  EXPECT_EQ(kind("(/ (+ x y) 448)"), Fp32Kind::Unknown);  // the sum is not rounded here
  EXPECT_EQ(kind("(* x 0.002232142857142857)"), Fp32Kind::Unknown);
  EXPECT_EQ(kind("(cast.bf16 (+ x y))"), Fp32Kind::Value);
  EXPECT_EQ(kind("(/ (/ x y) 2)"), Fp32Kind::Unknown);  // a quotient is not a value
}

// Random terms over a few ops; every evaluation must lie in the class's enclosure.
struct TermGen {
  ir::TermStore& store;
  std::mt19937& rng;
  ir::TermId gen(int depth) {
    static const char* leaves[] = {"x", "y", "0", "1", "-2.5", "inf", "1e30", "-inf"};
    if (depth == 0 || rng() % 4 == 0) return read(leaves[rng() % 8]);
    static const ir::Op unary[] = {ir::Op::Neg,     ir::Op::Abs,   ir::Op::Exp,   ir::Op::Log,
                                   ir::Op::Sqrt,    ir::Op::Recip, ir::Op::Tanh,  ir::Op::Sigmoid,
                                   ir::Op::CastF16, ir::Op::Floor, ir::Op::Rsqrt, ir::Op::CastE4M3,
                                   ir::Op::Sin,     ir::Op::Cos};
    static const ir::Op binary[] = {ir::Op::Add, ir::Op::Sub,    ir::Op::Mul,    ir::Op::Div,
                                    ir::Op::Max, ir::Op::MinNum, ir::Op::MaxNum, ir::Op::Min};
    // Every draw in its own statement: argument evaluation order differs between compilers.
    if (rng() % 2) {
      ir::Op op = unary[rng() % std::size(unary)];
      return store.make(op, {gen(depth - 1)});
    }
    ir::Op op = binary[rng() % 8];
    ir::TermId a = gen(depth - 1), b = gen(depth - 1);
    return store.make(op, {a, b});
  }
  ir::TermId read(const char* s) { return ir::read_term(store, ir::parse_sexprs(s, "t").at(0)); }
};

bool contains(const Interval& r, double v) {
  if (std::isnan(v)) return r.nan;
  if (std::isinf(v) && r.never_inf) return false;
  if (r.lo_strict && v == r.lo) return false;
  return r.lo <= v && v <= r.hi;
}

TEST(Intervals, FiniteUnboundedInputsStayFiniteOverTheReals) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_domain(store.payload(store.variable("x")), Interval::any_finite());
  g.lang().set_domain(store.payload(store.variable("y")), Interval::any_finite());
  auto fact = [&](const std::string& t) {
    return g.data(add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)))).range;
  };
  EXPECT_TRUE(fact("(exp (- x y))").finite());
  EXPECT_TRUE(fact("(exp (- x y))").positive());
  EXPECT_TRUE(fact("(+ (exp x) (exp y))").positive());
  EXPECT_TRUE(fact("(/ (exp x) (+ (exp x) (exp y)))").finite());
  EXPECT_TRUE(fact("(* x y)").finite());
  EXPECT_FALSE(fact("(/ x y)").finite());  // y may be 0
  EXPECT_FALSE(fact("(exp (/ 1 y))").finite());
  // A factor with finite bounds is never infinite either: x * erf(x) - y is finite, not NaN
  // (inf - inf), so a GELU's variance clamped at 0 (max(E[g^2] - E[g]^2, 0)) could not be
  // dropped while this was missed.
  EXPECT_TRUE(fact("(- (* x (erf x)) y)").finite());
  EXPECT_TRUE(fact("(* (- (* x (erf x)) y) (- (* x (erf x)) y))").finite());
  EXPECT_GE(fact("(* (- (* x (erf x)) y) (- (* x (erf x)) y))").lo, 0);
  Graph ieee(KeqLanguage(&store, ir::Semantics::Ieee));
  ieee.lang().set_domain(store.payload(store.variable("x")), Interval::any_finite());
  EXPECT_FALSE(
      ieee.data(add_term(ieee, ir::read_term(store, ir::parse_sexprs("(exp x)", "t").at(0))))
          .range.finite());  // fp32 overflows
}

TEST(Intervals, EncloseEveryEvaluation) {
  const double specials[] = {0, -0.0, 1, -1, 3.5, -7, 1e-3, 1e20, -1e20, INFINITY, -INFINITY, NAN};
  for (ir::Semantics sem : {ir::Semantics::Real, ir::Semantics::Ieee}) {
    for (unsigned seed : {11u, 12u, 13u, 14u}) {
      std::mt19937 rng(seed);
      for (int trial = 0; trial < 1000; ++trial) {
        ir::TermStore store;
        TermGen gen{store, rng};
        ir::TermId t = gen.gen(4);
        Graph g(KeqLanguage(&store, sem));
        bool finite_x = trial % 2 == 0;
        if (finite_x)
          g.lang().set_domain(store.payload(store.variable("x")), Interval::any_finite());
        Interval r = g.data(add_term(g, t)).range;
        for (double x : specials)
          for (double y : {2.0, -0.5, double(NAN), double(INFINITY)}) {
            if (finite_x && !std::isfinite(x)) continue;  // outside x's domain
            auto env_val = [&](const ir::Variable& v) { return v.name == "x" ? x : y; };
            if (sem == ir::Semantics::Real) {
              ir::RealValue v;
              try {
                v = ir::evaluate_real(store, t, [&](const ir::Variable& var) {
                  return std::optional(ir::RealValue::of(ir::Constant::of_float(env_val(var))));
                });
              } catch (const ir::EvalError&) {
                continue;  // past MPFR's exponent range: the evaluator gives no value to check
              }
              double d = v.f.approx_double();
              // Finite over the reals, past double's range (exp(exp(17))): no double to check.
              if (std::isinf(d) && mpfr_number_p(v.f.get())) continue;
              // A strict lower bound compares the exact value: 1e30 + 0.67 rounds to 1e30.
              if (r.lo_strict && d == r.lo && mpfr_cmp_d(v.f.get(), r.lo) > 0) continue;
              ASSERT_TRUE(contains(r, d)) << store.str(t) << " at x=" << x << " y=" << y << ": "
                                          << d << " not in " << r.str();
            } else {
              ir::IeeeValue v = ir::evaluate_ieee(store, t, [&](const ir::Variable& var) {
                return std::optional(ir::IeeeValue::of(ir::Constant::of_float(env_val(var))));
              });
              ASSERT_TRUE(contains(r, v.f)) << store.str(t) << " at x=" << x << " y=" << y << ": "
                                            << v.f << " not in " << r.str();
            }
          }
      }
    }
  }
}

}  // namespace
}  // namespace keq::rules

namespace keq::rules {
namespace {

// Max-abs scaling (rules/magnitude.h): x_i over the absolute maximum of a set holding x_i lies in
// [-k, k]; the wrong set, min for max, floor for ceil, or a rounded scale prove nothing.
struct ScaledQuotients : ::testing::Test {
  ir::TermStore store;
  Graph g{KeqLanguage(&store, ir::Semantics::Real)};
  ScaledQuotients() {
    for (const char* v : {"a", "b", "c"})
      g.lang().set_domain(store.payload(store.variable(v)), Interval::any_finite());
  }
  ir::TermId term(const std::string& t) {
    return ir::read_term(store, ir::parse_sexprs(t, "t").at(0));
  }
  Interval range(const std::string& t) { return g.data(add_term(g, term(t))).range; }
  // The bound holds at random and special points (so a fact the search finds is true).
  void check_sound(const std::string& t, const Interval& r) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-5, 5);
    for (int k = 0; k < 300; ++k) {
      double vals[3] = {u(rng), u(rng), k % 3 == 0 ? 0.0 : u(rng)};
      if (k % 7 == 0) vals[0] = vals[1] = vals[2] = 0;
      ir::RealValue v = ir::evaluate_real(store, term(t), [&](const ir::Variable& var) {
        return std::optional(ir::RealValue::of(ir::Constant::of_float(vals[var.name[0] - 'a'])));
      });
      double d = v.f.approx_double();
      if (!std::isnan(d)) {
        EXPECT_TRUE(r.lo <= d && d <= r.hi) << t << " = " << d;
      }
    }
  }
};

TEST_F(ScaledQuotients, AnElementOverItsAbsMaxIsBounded) {
  const char* bounded[] = {
      // amax / 448 then divide, with an eps guard (torch and Triton spellings)
      "(/ a (/ (max (amax (abs a) (abs b) (abs c)) 1e-12) 448))",
      "(div.full b (div.full (maxnum (tmax (abs a) (abs b) (abs c) (abs 0)) 1e-12) 448))",
      // 448 / amax then multiply; a reciprocal
      "(* c (/ 448 (max (amax (abs a) (abs b) (abs c)) 1e-4)))",
      "(* (recip (+ (amax (abs a) (abs b)) 1e-6)) a)",
      // a power-of-two scale rounded up (UE8M0)
      "(/ a (exp2 (ceil (log2 (/ (max (amax (abs a) (abs b)) 1e-10) 448)))))",
      // x / sqrt(mean(x^2) + eps): at most sqrt(n)
      "(* a (rsqrt (+ (/ (+ (* a a) (* b b)) 2) 1e-6)))",
  };
  const double bound[] = {448, 448, 448, 1, 448, 1.4142135623730954};
  for (size_t k = 0; k < std::size(bounded); ++k) {
    Interval r = range(bounded[k]);
    EXPECT_TRUE(r.lo >= -bound[k] && r.hi <= bound[k]) << bounded[k] << " in " << r.str();
    check_sound(bounded[k], r);
  }
}

// Twice the last of 300 exps over their sum: 2 exp(x_299) is a scaling of an operand, found by
// looking the operand up, where walking the operands one by one spent the search's 400 steps
// before the last (and each of a softmax row's n quotients walked the n operands).
TEST_F(ScaledQuotients, AScaledOperandOfAWideSumIsLookedUp) {
  std::string sum = "(sum";
  for (int i = 0; i < 300; ++i) {
    std::string x = "x" + std::to_string(i);
    g.lang().set_domain(store.payload(store.variable(x)), Interval::any_finite());
    sum += " (exp " + x + ")";
  }
  sum += ")";
  Interval r = range("(/ (* 2 (exp x299)) " + sum + ")");
  EXPECT_TRUE(r.lo >= -2 && r.hi <= 2) << r.str();
  Interval wrong = range("(/ (* 2 (exp a)) " + sum + ")");  // exp(a) is not an operand
  EXPECT_FALSE(wrong.lo >= -2 && wrong.hi <= 2) << wrong.str();
}

TEST_F(ScaledQuotients, TheWrongScaleIsNotBounded) {
  const char* unbounded[] = {
      "(/ a (/ (max (amax (abs b) (abs c)) 1e-12) 448))",          // a is not in the set
      "(/ a (/ (max (amin (abs a) (abs b) (abs c)) 1e-12) 448))",  // min where max belongs
      "(/ a (exp2 (floor (log2 (/ (max (amax (abs a) (abs b)) 1e-10) 448)))))",  // floor
      "(/ a (cast.bf16 (/ (max (amax (abs a) (abs b)) 1e-12) 448)))",            // a rounded scale
      "(/ a (/ (max (amax a b) 1e-12) 448))",                                    // max, not max-abs
      "(* a (/ (max (amax (abs a) (abs b)) 1e-12) 448))",  // the scale not inverted
  };
  for (const char* t : unbounded) {
    Interval r = range(t);
    EXPECT_FALSE(r.lo >= -448 && r.hi <= 448) << t << " in " << r.str();
  }
}

}  // namespace
}  // namespace keq::rules
