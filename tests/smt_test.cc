// The Z3 stage's encoding: what it proves, what it must refuse, and that models are points.
#include "smt/smt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace keq::smt {
namespace {

struct Query {
  ir::TermStore store;
  VarRange range;                                    // for every variable
  absl::flat_hash_map<std::string, ir::Type> types;  // variables not f32
  Result check(const std::string& a, const std::string& b, bool ieee = false) {
    ir::TermId ta = ir::read_term(store, ir::parse_sexprs(a, "a").at(0), types);
    ir::TermId tb = ir::read_term(store, ir::parse_sexprs(b, "b").at(0), types);
    auto r = [&](ir::TermId) { return range; };
    return ieee ? check_equal_ieee(store, ta, tb, r, 10000) : check_equal(store, ta, tb, r, 10000);
  }
};

TEST(Smt, ProvesPiecewiseIdentities) {
  Query q;
  // relu6 written both ways round.
  EXPECT_EQ(q.check("(max (min x 6) 0)", "(min (max x 0) 6)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(select (>= x 0) x (* x 0.01))", "(select (> x 0) x (* 0.01 x))").outcome,
            Outcome::Proved);
  EXPECT_EQ(q.check("(sqrt (* x x))", "(abs x)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(clamp x 0 6)", "(maxnum (minnum x 6) 0)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(clamp x 6 0)", "0").outcome, Outcome::Proved);  // lo > hi: torch gives hi
  // A count of true lanes, as a float: bools are 0 or 1, the i64 sum is exact.
  EXPECT_EQ(q.check("(cast.f32 (+ (cast.i64 (> x 0)) (cast.i64 (> y 0))))",
                    "(+ (select (> x 0) 1 0) (select (> y 0) 1 0))")
                .outcome,
            Outcome::Proved);
  EXPECT_EQ(q.check("(cast.i64 x)", "(cast.i64 (+ x 0.5))").outcome, Outcome::Model);
}

// Integers are bit-vectors: they wrap at their width, as the programs' i32 do. An encoding as
// unbounded integers proved x * 10^9 (i32) equal to its float product: a false EQUIVALENT.
TEST(Smt, IntegersWrapAtTheirWidth) {
  Query q;
  q.types = {{"i", ir::Type::I32}, {"j", ir::Type::I32}};
  q.range = {0, 10, true};
  Result wrapped = q.check("(cast.f32 (* i 1000000000:i32))", "(* (cast.f32 i) 1000000000)");
  ASSERT_EQ(wrapped.outcome, Outcome::Model) << wrapped.reason;
  for (auto [v, x] : wrapped.model) EXPECT_TRUE(x >= 3 && x <= 9) << x;  // 3e9 passes 2^31
  EXPECT_EQ(q.check("(cast.f32 (* i 100000000:i32))", "(* (cast.f32 i) 100000000)").outcome,
            Outcome::Proved);  // 9e8 fits
  q.range = {};
  EXPECT_EQ(q.check("(+ (- i 127:i32) 127:i32)", "i").outcome, Outcome::Proved);
  // Python's floor division by 4 is an arithmetic shift; C's truncates toward zero.
  EXPECT_EQ(q.check("(floordiv i 4:i32)", "(shr i 2:i32)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(div.c i 4:i32)", "(shr i 2:i32)").outcome, Outcome::Model);
  EXPECT_EQ(q.check("(mod.py i 8:i32)", "(band i 7:i32)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(mod.c i 8:i32)", "(band i 7:i32)").outcome, Outcome::Model);
  // A divisor that can be 0, a shift past the width: side conditions that fail.
  EXPECT_EQ(q.check("(div.c i j)", "(div.c i (+ j 0:i32))").outcome, Outcome::Unknown);
  EXPECT_EQ(q.check("(shl 1:i32 j)", "(shl 1:i32 (+ j 0:i32))").outcome, Outcome::Unknown);
  EXPECT_EQ(q.check("(shr (shl i 4:i32) 4:i32)", "(band i 268435455:i32)").outcome,
            Outcome::Model);  // the arithmetic shift brings bit 27 back as the sign
  // Bytes keep the low 8 bits.
  q.range = {0, 255, false};
  EXPECT_EQ(q.check("(cast.i8 i)", "(select (> i 127:i32) (- i 256:i32) i)").outcome,
            Outcome::Proved);
  q.range = {0, 400, false};  // 384's low byte is -128
  EXPECT_EQ(q.check("(cast.i8 i)", "(select (> i 127:i32) (- i 256:i32) i)").outcome,
            Outcome::Model);
}

// Float to integer: truncation toward zero, saturating; floor, ceil, rounding; fmod.
TEST(Smt, RoundingToIntegersOverTheReals) {
  Query q;
  q.range = {-1e6, 1e6, false};
  EXPECT_EQ(q.check("(cast.i32 (neg x))", "(neg (cast.i32 x))").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(cast.f32 (cast.i32 x))", "(trunc x)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(ceil x)", "(neg (floor (neg x)))").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(round x)", "(round.away x)").outcome, Outcome::Model);  // 0.5: 0 and 1
  q.range = {0.5, 0.5, false};
  EXPECT_EQ(q.check("(round x)", "0").outcome, Outcome::Proved);  // the tie goes to even
  EXPECT_EQ(q.check("(round.away x)", "1").outcome, Outcome::Proved);
  q.range = {2.5, 2.5, false};
  EXPECT_EQ(q.check("(round x)", "2").outcome, Outcome::Proved);
  q.range = {1e10, 1e12, false};  // past 2^31 the cast saturates
  EXPECT_EQ(q.check("(cast.i32 x)", "2147483647:i32").outcome, Outcome::Proved);
  q.range = {-2, 0, true};
  EXPECT_EQ(q.check("(remainder x 2)", "(+ x 2)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(fmod x 2)", "x").outcome, Outcome::Model);  // fmod(-2, 2) is 0
  q.range = {-1.5, 0, true};
  EXPECT_EQ(q.check("(fmod x 2)", "x").outcome, Outcome::Proved);
}

// A bitcast reads its operand rounded to fp32; bits read as a float hold no inf or NaN.
TEST(Smt, BitcastsRoundThroughFp32) {
  Query q;
  q.range = {1, 1.5, false};
  EXPECT_EQ(q.check("(band (shr (bitcast.i32 x) 23:i32) 255:i32)", "127:i32").outcome,
            Outcome::Proved);
  q.range = {1, 2, true};  // a real just below 2 rounds to 2.0, whose exponent field is 128
  EXPECT_EQ(q.check("(band (shr (bitcast.i32 x) 23:i32) 255:i32)", "127:i32").outcome,
            Outcome::Model);
  q.range = {0.5, 4, false};
  Result rounds = q.check("(bitcast.f32 (bitcast.i32 x))", "x");
  ASSERT_EQ(rounds.outcome, Outcome::Model) << rounds.reason;  // x need not be an fp32 value
  for (auto [v, x] : rounds.model) EXPECT_NE(static_cast<double>(static_cast<float>(x)), x);
  q.types = {{"e", ir::Type::I32}};
  q.range = {0, 3, false};
  EXPECT_EQ(q.check("(bitcast.f32 (shl (+ e 127:i32) 23:i32))",
                    "(select (== e 0:i32) 1 (select (== e 1:i32) 2 (select (== e 2:i32) 4 8)))")
                .outcome,
            Outcome::Proved);
  q.range = {};
  Result any_bits = q.check("(bitcast.f32 e)", "(bitcast.f32 (+ e 0:i32))");
  EXPECT_EQ(any_bits.outcome, Outcome::Unknown);  // 0x7f800000 is inf
  EXPECT_NE(any_bits.reason.find("bitcast"), std::string::npos) << any_bits.reason;
  q.range = {0, 0x7f7fffff, false};
  EXPECT_EQ(q.check("(bitcast.f32 e)", "(bitcast.f32 (+ e 0:i32))").outcome, Outcome::Proved);
}

TEST(Smt, ModelsLeaningOnFalseExpValuesAreRefined) {
  Query q;
  q.range = {0, 0, false};  // x = 0: max(exp 0, 1) = exp 0, but only if Z3 learns exp(0) = 1
  Result r = q.check("(max (exp x) 1)", "(exp x)");
  EXPECT_EQ(r.outcome, Outcome::Proved) << r.reason;
  EXPECT_GE(r.refinements, 1u);
  // Over every x the identity holds (exp x >= 1 + x), but point facts never close it: Z3 keeps
  // finding new points, and after the refinement budget the answer is unknown, never a model.
  Query any;
  Result open = any.check("(max (exp x) (+ x 1))", "(exp x)");
  EXPECT_NE(open.outcome, Outcome::Proved);
  if (open.outcome == Outcome::Model) {  // a model now respects exp at its point
    ADD_FAILURE() << "a model of a true identity survived refinement";
  }
}

TEST(SmtIeee, ProvesBitExactIdentitiesAndRefutesRoundingDifferences) {
  Query q;  // finite inputs
  EXPECT_EQ(q.check("(max (min x 6) 0)", "(min (max x 0) 6)", true).outcome, Outcome::Proved);
  // Signed zeros: max(-0, 0) = 0 either way round, so relu by max and by select differ at -0.
  EXPECT_EQ(q.check("(max x 0)", "(max 0 x)", true).outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(max x 0)", "(select (> x 0) x 0)", true).outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(select (>= x 0) x 0)", "(max x 0)", true).outcome, Outcome::Model);
  // One rounding against two, and x + 0 against x (-0 + 0 = +0).
  EXPECT_EQ(q.check("(fma x 3 0.25)", "(+ (* x 3) 0.25)", true).outcome, Outcome::Model);
  EXPECT_EQ(q.check("(* x 0.1)", "x", true).outcome, Outcome::Unsupported);  // 0.1 is no fp32
  EXPECT_EQ(q.check("(+ x 0)", "x", true).outcome, Outcome::Model);
  EXPECT_EQ(q.check("(* x 1)", "x", true).outcome, Outcome::Proved);
  // Rounding to integers keeps the sign of zero: ceil(-0.5) is -0.
  EXPECT_EQ(q.check("(ceil x)", "(neg (floor (neg x)))", true).outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(round x)", "(round.away x)", true).outcome, Outcome::Model);
  // recip is the correctly rounded 1/x (torch's x / c is x * (recip c)).
  EXPECT_EQ(q.check("(recip x)", "(/ 1 x)", true).outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(* x (recip 4))", "(/ x 4)", true).outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(* x (recip 3))", "(/ x 3)", true).outcome, Outcome::Model);
  // fp16: 65520 and up overflow; a clamp to 65504 first keeps them finite.
  EXPECT_EQ(q.check("(cast.f16 (clamp x -65504 65504))", "(cast.f16 x)", true).outcome,
            Outcome::Model);
  EXPECT_EQ(q.check("(cast.f16 (clamp (cast.f16 x) -65504 65504))", "(cast.f16 (cast.f16 x))", true)
                .outcome,
            Outcome::Model);  // cast.f16 x may be inf, which the clamp brings back to 65504
  EXPECT_EQ(q.check("(exp x)", "(exp x)", true).outcome, Outcome::Unsupported);  // approximate
  EXPECT_EQ(q.check("(+ x (exp x))", "(+ (exp x) x)", true).outcome, Outcome::Unsupported);
  EXPECT_EQ(q.check("(sum x y z)", "(sum z y x)", true).outcome, Outcome::Unsupported);
}

TEST(Smt, ExactConstantsDistinguishNearbyValues) {
  Query q;  // 0.1 is not 0.1f: the encoding keeps every bit of the double
  EXPECT_EQ(q.check("(* x 0.1)", "(* x 0.10000000000000002)").outcome, Outcome::Model);
  EXPECT_EQ(q.check("(* x 1e-30)", "(/ x 1e30)").outcome, Outcome::Model);
  EXPECT_EQ(q.check("(* x 0.5)", "(/ x 2)").outcome, Outcome::Proved);
}

TEST(Smt, DivisionIsProvedOnlyWhereTheDivisorCannotBeZero) {
  Query q;  // at y = 0 the left side is inf * 0 = NaN, the right side 0
  Result r = q.check("(* (/ 1 y) 0)", "0");
  EXPECT_EQ(r.outcome, Outcome::Unknown);
  EXPECT_NE(r.reason.find("domain"), std::string::npos) << r.reason;
  q.range = {1, 2, false};
  EXPECT_EQ(q.check("(* (/ 1 y) 0)", "0").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(/ (* x y) y)", "x").outcome, Outcome::Proved);
}

// x / mean|x| against x * (n / sum|x|) over a row of rand inputs (KernelBench's L1 norm): the
// divisor is zero only where the row is, and there both sides are 0/0 = NaN. Each failing
// condition is split: proved elsewhere, evaluated exactly at its one point.
TEST(Smt, ADivisorZeroAtOneInputOnlyIsSplitWhereBothSidesAgree) {
  Query q;
  q.range = {0, 1, true};
  const std::string sum = "(+ (abs x) (abs y))";
  Result r = q.check("(/ x (* " + sum + " 0.5))", "(* x (/ 2 " + sum + "))");
  EXPECT_EQ(r.outcome, Outcome::Proved) << r.reason;
  EXPECT_GT(r.split_points, 0u);
  // An L2 norm: the square root of a sum of squares vanishes at one point too.
  const std::string norm = "(sqrt (+ (* x x) (* y y)))";
  EXPECT_EQ(q.check("(/ y " + norm + ")", "(* y (rsqrt (+ (* x x) (* y y))))").outcome,
            Outcome::Proved);
  // At the zero row s / s is NaN, not 1: the split finds them apart.
  r = q.check("(/ " + sum + " " + sum + ")", "1");
  EXPECT_NE(r.outcome, Outcome::Proved);
  EXPECT_NE(r.reason.find("domain"), std::string::npos) << r.reason;
  // x - y is zero on a whole line: no single point to evaluate, so nothing is proved.
  EXPECT_NE(q.check("(* (/ 1 (- x y)) 0)", "0").outcome, Outcome::Proved);
}

TEST(Smt, LogAndSqrtNeedTheirDomains) {
  Query q;
  EXPECT_NE(q.check("(log (exp x))", "x").outcome,
            Outcome::Proved);  // no such fact: honest Unknown
  EXPECT_EQ(q.check("(exp (log (+ (* x x) 1)))", "(+ (* x x) 1)").outcome, Outcome::Proved);
  EXPECT_NE(q.check("(exp (log x))", "x").outcome, Outcome::Proved);  // x <= 0: NaN on the left
}

// log 2 as a divisor: a literal 1.4426950408889634 is taken as 1 / ln 2 = (recip (log 2)), and
// the quotient's side condition needs log 2 != 0, which exp's facts alone do not give.
TEST(Smt, LogOfAConstantHasItsSign) {
  Query q;
  EXPECT_EQ(q.check("(* (* x (recip (log 2))) (log 2))", "x").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(* (* x (recip (log 0.5))) (log 0.5))", "x").outcome, Outcome::Proved);
}

TEST(Smt, ModelsNameEveryVariable) {
  Query q;
  q.range = {-4, 4, false};
  Result r = q.check("(+ x y)", "(+ x (* y 2))");
  ASSERT_EQ(r.outcome, Outcome::Model);
  EXPECT_EQ(r.model.size(), 2u);
  for (auto [v, x] : r.model) EXPECT_TRUE(x >= -4 && x <= 4) << x;
}

TEST(Smt, OutsideTheFragmentIsUnsupported) {
  Query q;
  Result r = q.check("(frexp.mant x)", "x");
  EXPECT_EQ(r.outcome, Outcome::Unsupported);
  EXPECT_NE(r.reason.find("frexp"), std::string::npos) << r.reason;
  EXPECT_EQ(q.check("(maxnum x nan)", "x").outcome, Outcome::Unsupported);
}

// Each op's real encoding at constant operands is its real evaluator's value there (integer
// wraps, division and modulo signs, bitcast fields, rounding ties); where the evaluator is
// undefined (a zero divisor, a shift past the width) the encoding proves no value.
TEST(Smt, RealEncodingsAgreeWithTheRealEvaluator) {
  const double floats[] = {0, 1, -2.5, 1e10, 0.5};
  const int64_t ints[] = {0, 1, -1, 3, -8, INT32_MIN, 0x7F800000};
  const ir::Op kFunctions[] = {ir::Op::Exp,   ir::Op::Exp2,  ir::Op::Log,     ir::Op::Log2,
                               ir::Op::Log1p, ir::Op::Expm1, ir::Op::Erf,     ir::Op::Sin,
                               ir::Op::Cos,   ir::Op::Tanh,  ir::Op::Sigmoid, ir::Op::Pow};
  auto any = [](ir::TermId) { return VarRange{}; };
  int agreed = 0;
  for (int code = 0; code < ir::kOpCount; ++code) {
    auto op = static_cast<ir::Op>(code);
    const ir::OpInfo& info = ir::op_info(op);
    if (!info.smt_real ||
        std::find(std::begin(kFunctions), std::end(kFunctions), op) != std::end(kFunctions))
      continue;  // exp & co. are uninterpreted functions: no value at a constant
    const size_t n = info.variadic ? 2 : info.arity;
    for (bool integers : {false, true}) {
      bool int_sig = info.sig == ir::Signature::SameInt || info.sig == ir::Signature::BitcastI2F;
      if (integers != int_sig && !(integers && info.sig == ir::Signature::SameNum)) continue;
      // A spread of the operand tuples, more for integer ops (signs of division and modulo):
      // each query is a Z3 context of its own, about 10 ms.
      const size_t count = integers ? std::size(ints) : std::size(floats);
      size_t total = 1;
      for (size_t k = 0; k < n; ++k) total *= count;
      const size_t cap = integers ? 24 : 8, stride = (total + cap - 1) / cap;
      for (size_t index = 0; index < total; index += stride) {
        std::vector<size_t> pick(n);
        for (size_t k = 0, rest = index; k < n; ++k, rest /= count) pick[k] = rest % count;
        ir::TermStore store;
        std::vector<ir::TermId> kids;
        for (size_t k = 0; k < n; ++k) {
          bool is_bool =
              info.sig == ir::Signature::Logic || (info.sig == ir::Signature::Select && k == 0);
          kids.push_back(store.constant(is_bool ? ir::Constant::of_int(ir::Type::Bool, pick[k] % 2)
                                        : integers
                                            ? ir::Constant::of_int(ir::Type::I32, ints[pick[k]])
                                            : ir::Constant::of_float(floats[pick[k]])));
        }
        ir::TermId t = store.make(op, kids);
        std::optional<ir::RealValue> want;
        try {
          want = ir::evaluate_real(store, t, [](const ir::Variable&) { return std::nullopt; });
        } catch (const ir::EvalError&) {
        }
        std::string where = std::string(info.name) + " at " + store.str(t);
        if (!want) {  // undefined: no value may be proved
          EXPECT_NE(check_equal(store, t, t, any, 5000).outcome, Outcome::Proved) << where;
          continue;
        }
        ir::Constant value;
        if (want->type != ir::Type::F32) {
          value = ir::Constant::of_int(want->type, want->i);
        } else {
          double d = mpfr_get_d(want->f.get(), MPFR_RNDN);
          if (!std::isfinite(d) || mpfr_cmp_d(want->f.get(), d) != 0) continue;  // not a double
          value = ir::Constant::of_float(d);
        }
        Result r = check_equal(store, t, store.constant(value), any, 5000);
        // Zero's sign is no real's: its bits are either zero's, so neither is proved.
        bool zero_bits = op == ir::Op::BitcastI32 && value.i == 0;
        EXPECT_EQ(r.outcome == Outcome::Proved, !zero_bits)
            << where << " = " << value.str() << ": " << r.reason;
        ++agreed;
      }
    }
  }
  EXPECT_GT(agreed, 350);
}

// Infinite constants (a max's -inf identity, a masked load's other=-inf) over the extended
// reals: absorbed by max, min and select, exp(-inf) = 0; inf - inf and an infinity reaching an
// op that needs a finite operand are side conditions.
TEST(Smt, InfiniteConstantsAreExtendedReals) {
  Query q;
  EXPECT_EQ(q.check("(maxnum x -inf)", "x").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(max (select (> x 0) x -inf) y)", "(select (> x 0) (max x y) y)").outcome,
            Outcome::Proved);
  EXPECT_EQ(q.check("(exp (- -inf x))", "0").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(+ -inf x)", "(- x inf)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(select (< -inf x) 1 0)", "1").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(max x -inf)", "(max x -1000)").outcome, Outcome::Model);
  Result nan = q.check("(+ (select (> x 0) inf x) (select (> x 1) -inf 0))", "inf");
  EXPECT_EQ(nan.outcome, Outcome::Unknown);  // inf - inf at x > 1
  q.range = {1, 2, false};
  EXPECT_EQ(q.check("(* -inf x)", "-inf").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(sqrt (max x -inf))", "(sqrt x)").outcome, Outcome::Proved);
  EXPECT_EQ(q.check("(sqrt (max x inf))", "(sqrt x)").outcome, Outcome::Unknown);
}

// Narrow casts over the reals: round to nearest even into the format's values; a cast that can
// overflow (to inf, or torch's e4m3fn NaN) is proved only where its argument provably cannot.
TEST(Smt, NarrowCastsRoundToNearestEven) {
  Query q;
  EXPECT_EQ(q.check("(cast.e4m3 (clamp x -448 448))", "(cast.e4m3.sat x)").outcome,
            Outcome::Proved);
  EXPECT_EQ(q.check("(cast.e5m2 (clamp x -57344 57344))", "(cast.e5m2.sat x)").outcome,
            Outcome::Proved);
  Result unbounded = q.check("(cast.e4m3 x)", "(cast.e4m3.sat x)");
  EXPECT_EQ(unbounded.outcome, Outcome::Unknown);  // past 464 torch's cast is NaN
  EXPECT_NE(unbounded.reason.find("cast"), std::string::npos) << unbounded.reason;
  q.range = {448, 464, false};  // 464 is a tie between 448 and 480: even is 448
  EXPECT_EQ(q.check("(cast.e4m3 x)", "448").outcome, Outcome::Proved);
  q.range = {0.265625, 0.265625, false};  // 8.5 quanta of 2^-5: ties to 8
  EXPECT_EQ(q.check("(cast.e4m3 x)", "0.25").outcome, Outcome::Proved);
  q.range = {0.001, 0.001, false};  // e4m3fn subnormals are multiples of 2^-9
  EXPECT_EQ(q.check("(cast.e4m3 x)", "0.001953125").outcome, Outcome::Proved);
  q.range = {-1000, 1000, false};
  EXPECT_EQ(q.check("(cast.e4m3.sat (cast.e4m3.sat x))", "(cast.e4m3.sat x)").outcome,
            Outcome::Proved);
  Result differ = q.check("(cast.f16 x)", "(cast.bf16 x)");
  ASSERT_EQ(differ.outcome, Outcome::Model);
  // The model is a rational printed as a double: one just beside an f16 tie prints as the tie,
  // so the sides differ at it or at a neighbouring double (replay rejects such a model).
  auto differ_at = [](double x) {
    return ir::round_to_format(x, ir::FloatFormat::F16, ir::Overflow::Inf) !=
           ir::round_to_format(x, ir::FloatFormat::BF16, ir::Overflow::Inf);
  };
  for (auto [v, x] : differ.model)
    EXPECT_TRUE(differ_at(x) || differ_at(std::nextafter(x, INFINITY)) ||
                differ_at(std::nextafter(x, -INFINITY)))
        << x;
}

// The IEEE encoding of e4m3fn (no IEEE sort of its own) agrees with the concrete evaluator at
// every tie and its neighbours across the format, the subnormal edge, overflow and specials.
TEST(SmtIeee, E4m3EncodingMatchesTheEvaluator) {
  std::vector<float> xs = {0.0f,    -0.0f,     1e-30f,   0x1p-10f,  0x1p-9f, 0x3p-11f,
                           0x1p-6f, 0x1.fp-7f, 448,      449,       464,     465,
                           480,     1e6f,      INFINITY, -INFINITY, NAN};
  // Midpoints between neighbouring e4m3fn values (ties) and the fp32 values either side.
  for (int e = -9; e <= 8; ++e)
    for (int m = 8; m < 16; ++m) {
      float mid = std::ldexp(m + 0.5f, e - 3);
      for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)})
        if ((e + m) % 5 == 0) xs.push_back((e + m) % 2 ? x : -x);
    }
  for (bool sat : {false, true}) {
    for (float x : xs) {
      Query q;
      double want = ir::round_to_format(static_cast<double>(x), ir::FloatFormat::E4M3FN,
                                        sat ? ir::Overflow::Saturate : ir::Overflow::NaN);
      std::string lhs = std::string(sat ? "(cast.e4m3.sat " : "(cast.e4m3 ") +
                        ir::Constant::of_float(x).str() + ")";
      std::string rhs = ir::Constant::of_float(want).str();
      Result r = q.check(lhs, rhs, true);
      EXPECT_EQ(r.outcome, Outcome::Proved)
          << lhs << " at " << x << " = " << rhs << ": " << r.reason;
    }
  }
  Query any;
  any.range.nonfinite = true;
  EXPECT_EQ(any.check("(cast.e4m3 x)", "(cast.e4m3 (cast.e4m3 x))", true).outcome, Outcome::Proved);
  EXPECT_EQ(any.check("(cast.e4m3 x)", "(cast.e4m3.sat x)", true).outcome, Outcome::Model);
}

TEST(SmtIeee, SaturatingE5m2IsAClampThenTheCast) {
  Query q;
  EXPECT_EQ(q.check("(cast.e5m2.sat x)", "(cast.e5m2 (clamp x -57344 57344))", true).outcome,
            Outcome::Proved);
  EXPECT_EQ(q.check("(cast.e5m2.sat x)", "(cast.e5m2 x)", true).outcome, Outcome::Model);
}

}  // namespace
}  // namespace keq::smt

namespace keq::smt {
namespace {

// check_batch answers in a child process what check_equal answers here, models included, and
// each query's side conditions are proved once for the batch.
TEST(SmtBatch, AChildProcessGivesTheAnswersOfThisOne) {
  Query q;
  q.range = {1, 4, false};
  const char* pairs[][2] = {{"(* (/ 1 y) 0)", "0"},             // proved, with a side condition
                            {"(+ (* (/ 1 y) 0) x)", "x"},       // the same condition again
                            {"(+ x y)", "(+ x (* y 2))"},       // a model
                            {"(cast.e4m3 x)", "(pow x 0.5)"}};  // outside the fragment
  Batch b;
  for (auto& [l, r] : pairs)
    b.pairs.emplace_back(ir::read_term(q.store, ir::parse_sexprs(l, "l").at(0)),
                         ir::read_term(q.store, ir::parse_sexprs(r, "r").at(0)));
  b.seconds = 60;
  b.jobs = 2;
  auto range = [&](ir::TermId) { return q.range; };
  std::vector<BatchAnswer> child = check_batch(q.store, b, range);
  b.isolate = false;
  std::vector<BatchAnswer> here = check_batch(q.store, b, range);
  ASSERT_EQ(child.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_TRUE(child[i].answered) << i << ": " << child[i].result.reason;
    EXPECT_EQ(child[i].result.outcome, here[i].result.outcome) << i;
    EXPECT_EQ(child[i].result.reason, here[i].result.reason) << i;
    EXPECT_EQ(child[i].result.model, here[i].result.model) << i;
  }
  EXPECT_EQ(child[0].result.outcome, Outcome::Proved);
  EXPECT_EQ(child[1].result.outcome, Outcome::Proved);
  EXPECT_EQ(child[2].result.outcome, Outcome::Model);
  EXPECT_EQ(child[2].result.model.size(), 2u);
  EXPECT_EQ(child[3].result.outcome, Outcome::Unsupported);
}

TEST(SmtBatch, NoTimeLeftLeavesEveryQueryOpenWithItsReason) {
  Query q;
  Batch b;
  ir::TermId x = ir::read_term(q.store, ir::parse_sexprs("(* x x)", "x").at(0));
  b.pairs = {{x, x}, {x, x}};
  b.seconds = 0;
  for (const BatchAnswer& a : check_batch(q.store, b, [&](ir::TermId) { return q.range; })) {
    EXPECT_EQ(a.result.outcome, Outcome::Unknown);
    EXPECT_NE(a.result.reason.find("no time left"), std::string::npos) << a.result.reason;
  }
}

}  // namespace
}  // namespace keq::smt
