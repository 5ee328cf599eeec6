// Each op's concrete evaluation against known values, in both semantics. The fp8/fp16/bf16/int32
// cast rows are the measured tables of shared/SEMANTICS-FACTS.md (H200, torch 2.11, Triton 3.6).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include "ir/ir.h"

namespace keq::ir {
namespace {

struct Case {
  const char* term;  // closed term
  const char* ieee;  // expected fp32/int result, "" to skip
  const char* real;  // expected extended-real result, "" to skip; "~v" means within 1e-15 rel
};

const Case kCases[] = {
    {"(+ 1 2)", "3", "3"},
    {"(+ 0.1 0.2)", "0.30000001192092896",
     "~0.30000000000000004"},  // fp32; the exact sum is no double
    {"(+ inf -inf)", "nan", "nan"},
    {"(+ 2147483647:i32 1:i32)", "-2147483648:i32", "-2147483648:i32"},
    {"(- 5 7)", "-2", "-2"},
    {"(* 3 -0.5)", "-1.5", "-1.5"},
    {"(* 0 inf)", "nan", "nan"},
    {"(/ 1 3)", "0.3333333432674408", "~0.3333333333333333"},
    {"(/ 1 0)", "inf", "inf"},
    {"(/ 1 -0)", "-inf", "inf"},  // real semantics has one zero
    {"(div.full 7 2)", "3.5", "3.5"},
    {"(neg 2)", "-2", "-2"},
    {"(neg 0)", "-0", "0"},
    {"(abs -3)", "3", "3"},
    {"(abs -5:i32)", "5:i32", "5:i32"},
    {"(fma 2 3 1)", "7", "7"},
    {"(fma 0.1 10 -1)", "1.4901161193847656e-08", "5.551115123125783e-17"},  // 2^-54 exactly
    // max/min: NaN propagates (torch); maxnum/minnum drop it (Triton); signed zeros as measured.
    {"(max nan 1)", "nan", "nan"},
    {"(max -0 0)", "0", "0"},
    {"(max 0 -0)", "0", "0"},
    {"(min -0 0)", "-0", "0"},
    {"(min 0 -0)", "-0", "0"},
    {"(max 2 3)", "3", "3"},
    {"(min 2 3)", "2", "2"},
    {"(maxnum nan 1)", "1", "1"},
    {"(maxnum inf nan)", "inf", "inf"},
    {"(maxnum nan nan)", "nan", "nan"},
    {"(minnum nan -1)", "-1", "-1"},
    {"(sum 1 2 3 4)", "10", "10"},
    {"(prod 1 2 3 4)", "24", "24"},
    {"(amax 1 nan 2)", "nan", "nan"},  // torch.amax([1, NaN, 2]) is NaN
    {"(amin 3 1 2)", "1", "1"},
    {"(tmax 1 nan 2)", "2", "2"},
    {"(tmin 3 nan 2)", "2", "2"},
    // Integer division: C inside kernels, Python on the host.
    {"(div.c -7:i32 2:i32)", "-3:i32", "-3:i32"},
    {"(mod.c -7:i32 2:i32)", "-1:i32", "-1:i32"},
    {"(floordiv -7:i32 2:i32)", "-4:i32", "-4:i32"},
    {"(mod.py -7:i32 2:i32)", "1:i32", "1:i32"},
    {"(fmod -7 2)", "-1", "-1"},
    {"(remainder -7 2)", "1", "1"},
    {"(remainder 7 -2)", "-1", "-1"},
    {"(< 1 2)", "true", "true"},
    {"(<= 2 2)", "true", "true"},
    {"(> nan 0)", "false", "false"},
    {"(>= 1 2)", "false", "false"},
    {"(== 0 -0)", "true", "true"},
    {"(!= nan nan)", "true", "true"},
    {"(select true 1 2)", "1", "1"},
    {"(select false 1 2)", "2", "2"},
    {"(and true false)", "false", "false"},
    {"(or true false)", "true", "true"},
    {"(not false)", "true", "true"},
    {"(exp 0)", "1", "1"},
    {"(exp 1)", "2.7182817459106445", "~2.718281828459045"},
    {"(exp -inf)", "0", "0"},
    {"(exp2 10)", "1024", "1024"},
    {"(log 1)", "0", "0"},
    {"(log -1)", "nan", "nan"},
    {"(log 0)", "-inf", "-inf"},
    {"(log2 8)", "3", "3"},
    // log1p and expm1 keep the digits log(1 + x) and exp(x) - 1 lose near 0.
    {"(log1p 0)", "0", "0"},
    {"(log1p -1)", "-inf", "-inf"},
    {"(log1p -2)", "nan", "nan"},
    {"(log1p 1e-30)", "1.0000000031710769e-30", ""},
    {"(expm1 0)", "0", "0"},
    {"(expm1 -inf)", "-1", "-1"},
    {"(expm1 1e-30)", "1.0000000031710769e-30", ""},
    {"(sqrt 4)", "2", "2"},
    {"(sqrt -1)", "nan", "nan"},
    {"(sqrt.approx 9)", "3", "3"},
    {"(rsqrt 4)", "0.5", "0.5"},
    {"(rsqrt -0)", "-inf", "inf"},  // IEEE rSqrt(-0) = -inf (found by the runner's self-check)
    {"(recip 4)", "0.25", "0.25"},
    {"(pow 2 10)", "1024", "1024"},
    {"(tanh 0)", "0", "0"},
    {"(tanh inf)", "1", "1"},
    {"(erf 0)", "0", "0"},
    {"(sin 0)", "0", "0"},
    {"(sin 1)", "0.8414709568023682", "~0.8414709848078965"},
    {"(sin -inf)", "nan", "nan"},
    {"(cos 0)", "1", "1"},
    {"(cos 1)", "0.5403022766113281", "~0.5403023058681398"},
    {"(cos inf)", "nan", "nan"},
    {"(sigmoid 0)", "0.5", "0.5"},
    {"(sigmoid -inf)", "0", "0"},
    {"(floor -1.5)", "-2", "-2"},
    {"(ceil -1.5)", "-1", "-1"},
    {"(round 2.5)", "2", "2"},  // half to even, as torch.round
    {"(round -0.5)", "-0", "0"},
    {"(trunc -1.7)", "-1", "-1"},
    {"(clamp 5 -1 1)", "1", "1"},
    {"(clamp nan -1 1)", "nan", "nan"},
    {"(cast.f32 3:i32)", "3", "3"},
    {"(cast.f32 16777217:i32)", "16777216", "16777217"},  // fp32 rounds; reals are exact
    // fp32 -> fp8 e4m3fn: torch (cast.e4m3) never saturates; Triton (cast.e4m3.sat) does.
    {"(cast.e4m3 0.3)", "0.3125", "0.3125"},
    {"(cast.e4m3 447)", "448", "448"},
    {"(cast.e4m3 449)", "448", "448"},
    {"(cast.e4m3 463.9)", "448", "448"},
    {"(cast.e4m3 464)", "448", "448"},
    {"(cast.e4m3 465)", "nan", "nan"},
    {"(cast.e4m3 480)", "nan", "nan"},
    {"(cast.e4m3 1000000)", "nan", "nan"},
    {"(cast.e4m3 inf)", "nan", "nan"},
    {"(cast.e4m3 -500)", "nan", "nan"},
    {"(cast.e4m3 0.001953125)", "0.001953125", "0.001953125"},  // 2^-9, smallest subnormal
    {"(cast.e4m3 0.0009765625)", "0", "0"},                     // 2^-10: tie to even, 0
    {"(cast.e4m3 0.0001)", "0", "0"},
    {"(cast.e4m3 nan)", "nan", "nan"},
    {"(cast.e4m3.sat 465)", "448", "448"},
    {"(cast.e4m3.sat 1000000)", "448", "448"},
    {"(cast.e4m3.sat inf)", "448", "448"},
    {"(cast.e4m3.sat -inf)", "-448", "-448"},
    {"(cast.e4m3.sat -500)", "-448", "-448"},
    {"(cast.e4m3.sat 0.3)", "0.3125", "0.3125"},
    {"(cast.e4m3.sat nan)", "nan", "nan"},
    // fp32 -> fp8 e5m2: torch overflows to inf, Triton saturates to 57344.
    {"(cast.e5m2 0.3)", "0.3125", "0.3125"},
    {"(cast.e5m2 447)", "448", "448"},
    {"(cast.e5m2 465)", "448", "448"},
    {"(cast.e5m2 480)", "512", "512"},
    {"(cast.e5m2 500)", "512", "512"},
    {"(cast.e5m2 -500)", "-512", "-512"},
    {"(cast.e5m2 1000000)", "inf", "inf"},
    {"(cast.e5m2 -inf)", "-inf", "-inf"},
    {"(cast.e5m2 0.0009765625)", "0.0009765625", "0.0009765625"},
    {"(cast.e5m2 0.0001)", "0.0001068115234375", "0.0001068115234375"},
    {"(cast.e5m2.sat 1000000)", "57344", "57344"},
    {"(cast.e5m2.sat inf)", "57344", "57344"},
    {"(cast.e5m2.sat -inf)", "-57344", "-57344"},
    {"(cast.e5m2.sat 480)", "512", "512"},
    // fp32 -> fp16 and bf16 (both frameworks): nearest even, overflow to inf.
    {"(cast.f16 65504)", "65504", "65504"},
    {"(cast.f16 65520)", "inf", "inf"},
    {"(cast.f16 100000)", "inf", "inf"},
    {"(cast.f16 -100000)", "-inf", "-inf"},
    {"(cast.f16 1e-8)", "0", "0"},
    {"(cast.f16 0.1)", "0.0999755859375", "0.0999755859375"},
    {"(cast.bf16 65520)", "65536", "65536"},
    {"(cast.bf16 3.4e38)", "inf", "inf"},
    {"(cast.bf16 1.00390625)", "1", "1"},  // tie to even
    // fp32 -> int32: truncation, saturation, NaN -> 0.
    {"(cast.i32 -7.9)", "-7:i32", "-7:i32"},
    {"(cast.i32 3e9)", "2147483647:i32", "2147483647:i32"},
    {"(cast.i32 3.4e38)", "2147483647:i32", "2147483647:i32"},
    {"(cast.i32 -3e9)", "-2147483648:i32", "-2147483648:i32"},
    {"(cast.i32 nan)", "0:i32", "0:i32"},
    {"(cast.i32 4294967297:i64)", "1:i32", "1:i32"},
    {"(round.away 2.5)", "3", "3"},
    {"(round.away -2.5)", "-3", "-3"},
    {"(round.away 0.49999997)", "0", "0"},
    // torch's int8 / uint8 on the H200 (tests/fixtures/gpu/int8_casts.txt): the low byte of a
    // saturating int32.
    {"(cast.i8 -1.5)", "-1:i32", "-1:i32"},
    {"(cast.i8 127.5)", "127:i32", "127:i32"},
    {"(cast.i8 129.7)", "-127:i32", "-127:i32"},
    {"(cast.i8 40000)", "64:i32", "64:i32"},
    {"(cast.i8 -129)", "127:i32", "127:i32"},
    {"(cast.i8 3e9)", "-1:i32", "-1:i32"},
    {"(cast.i8 -3e9)", "0:i32", "0:i32"},
    {"(cast.i8 nan)", "0:i32", "0:i32"},
    {"(cast.i8 300:i32)", "44:i32", "44:i32"},
    {"(cast.u8 -1.5)", "255:i32", "255:i32"},
    {"(cast.u8 1000)", "232:i32", "232:i32"},
    {"(cast.u8 -128.9)", "128:i32", "128:i32"},
    {"(cast.u8 -1:i32)", "255:i32", "255:i32"},
    {"(cast.i64 -2.5)", "-2:i64", "-2:i64"},
    {"(cast.bool 0.5)", "true", "true"},
    {"(cast.bool 0)", "false", "false"},
    {"(cast.bool nan)", "true", "true"},
    {"(bitcast.i32 1)", "1065353216:i32", "1065353216:i32"},
    {"(bitcast.i32 -0)", "-2147483648:i32", "0:i32"},
    {"(bitcast.f32 1065353216:i32)", "1", "1"},
    {"(shl 1:i32 31:i32)", "-2147483648:i32", "-2147483648:i32"},
    {"(shr -8:i32 1:i32)", "-4:i32", "-4:i32"},
    {"(lshr -8:i32 28:i32)", "15:i32", "15:i32"},
    {"(band 12:i32 10:i32)", "8:i32", "8:i32"},
    {"(bor 12:i32 10:i32)", "14:i32", "14:i32"},
    {"(bxor 12:i32 10:i32)", "6:i32", "6:i32"},
    {"(frexp.mant 8)", "0.5", "0.5"},
    {"(frexp.exp 8)", "4:i32", "4:i32"},
    {"(frexp.mant -0.75)", "-0.75", "-0.75"},
    {"(ldexp 0.75 4:i32)", "12", "12"},
    {"(ldexp 1 -149:i32)", "1.4012984643248171e-45", "1.4012984643248171e-45"},
};

Constant expect_const(const char* s) {
  auto c = parse_constant(s);
  EXPECT_TRUE(c.has_value()) << s;
  return c.value_or(Constant{});
}

TEST(OpEval, KnownValuesInBothSemantics) {
  TermStore store;
  auto no_vars = [](const Variable&) { return std::nullopt; };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.term);
    TermId t = read_term(store, parse_sexprs(c.term, "case").at(0));
    if (*c.ieee) {
      Constant got = evaluate_ieee(store, t, IeeeEnv(no_vars)).to_constant();
      EXPECT_TRUE(same_value(got, expect_const(c.ieee), Semantics::Ieee))
          << "ieee: got " << got.str() << ", want " << c.ieee;
    }
    if (*c.real) {
      RealValue got = evaluate_real(store, t, RealEnv(no_vars));
      if (c.real[0] == '~') {
        double want = std::strtod(c.real + 1, nullptr);
        EXPECT_NEAR(got.f.approx_double(), want, std::fabs(want) * 1e-15) << got.str();
        EXPECT_FALSE(got.to_constant().has_value()) << "expected an inexact real";
      } else {
        auto k = got.to_constant();
        ASSERT_TRUE(k.has_value()) << "real result is no double: " << got.str();
        EXPECT_TRUE(same_value(*k, expect_const(c.real), Semantics::Real))
            << "real: got " << k->str() << ", want " << c.real;
      }
    }
  }
}

// tl.clamp as measured on an H200 (tests/fixtures/measure/tl_clamp.py): keq builds
// (minnum (maxnum x lo) hi) by default and (clamp x lo hi) with propagate_nan=ALL
// (frontends/triton/language.cc). Bits must match, signed zeros included.
TEST(OpEval, TritonClampIsWhatTheH200Computes) {
  std::ifstream in(std::string(KEQ_SOURCE_DIR) + "/tests/fixtures/gpu/tl_clamp.txt");
  TermStore store;
  auto no_vars = [](const Variable&) { return std::nullopt; };
  int cases = 0;
  for (std::string mode, x, lo, hi, arrow, want; in >> mode >> x >> lo >> hi >> arrow >> want;) {
    std::string term = mode == "all" ? "(clamp " + x + " " + lo + " " + hi + ")"
                                     : "(minnum (maxnum " + x + " " + lo + ") " + hi + ")";
    TermId t = read_term(store, parse_sexprs(term, "case").at(0));
    Constant got = evaluate_ieee(store, t, IeeeEnv(no_vars)).to_constant();
    Constant expected = expect_const(want.c_str());
    EXPECT_TRUE(same_value(got, expected, Semantics::Ieee) &&
                std::signbit(got.f) == std::signbit(expected.f))
        << mode << " " << term << ": keq " << got.str() << ", H200 " << want;
    ++cases;
  }
  EXPECT_EQ(cases, 32);
}

TEST(OpEval, EveryOpHasAKnownValueCase) {
  std::set<std::string> covered;
  for (const Case& c : kCases) {
    std::string s = c.term + 1;
    covered.insert(s.substr(0, s.find(' ')));
  }
  for (int k = 0; k < kOpCount; ++k) {
    Op op = static_cast<Op>(k);
    if (op == Op::Const || op == Op::Var) continue;
    EXPECT_TRUE(covered.count(std::string(op_name(op)))) << "no case for " << op_name(op);
  }
}

TEST(OpEval, ErrorsAreReportedNotCrashes) {
  TermStore store;
  auto no_vars = [](const Variable&) { return std::nullopt; };
  TermId div0 = read_term(store, parse_sexprs("(div.c 1:i32 0:i32)", "t").at(0));
  EXPECT_THROW(evaluate_ieee(store, div0, IeeeEnv(no_vars)), EvalError);
  TermId x = read_term(store, parse_sexprs("(+ x 1)", "t").at(0));
  EXPECT_THROW(evaluate_real(store, x, RealEnv(no_vars)), EvalError);
  TermId shift = read_term(store, parse_sexprs("(shl 1:i32 40:i32)", "t").at(0));
  EXPECT_THROW(evaluate_ieee(store, shift, IeeeEnv(no_vars)), EvalError);
}

TEST(OpEval, ExhaustiveFp16RoundTrip) {
  // Every finite fp16 value is a fixed point of the fp16 cast, and midpoints round to even.
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) {
    int e = bits >> 10, m = bits & 0x3ff;
    double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    ASSERT_EQ(round_to_format(v, FloatFormat::F16, Overflow::Inf), v) << bits;
    if (bits + 1 < 0x7c00) {
      int e2 = (bits + 1) >> 10, m2 = (bits + 1) & 0x3ff;
      double next = e2 == 0 ? std::ldexp(m2, -24) : std::ldexp(1024 + m2, e2 - 25);
      double mid = (v + next) / 2;
      double want = (m % 2 == 0) ? v : next;
      ASSERT_EQ(round_to_format(mid, FloatFormat::F16, Overflow::Inf), want) << bits;
    }
  }
}

TEST(OpEval, TypeErrorsAreRejectedAtConstruction) {
  TermStore store;
  EXPECT_THROW(read_term(store, parse_sexprs("(+ 1 true)", "t").at(0)), SyntaxError);
  EXPECT_THROW(read_term(store, parse_sexprs("(exp 1:i32)", "t").at(0)), SyntaxError);
  EXPECT_THROW(read_term(store, parse_sexprs("(select 1 2 3)", "t").at(0)), SyntaxError);
  EXPECT_THROW(read_term(store, parse_sexprs("(frob 1)", "t").at(0)), SyntaxError);
  EXPECT_THROW(read_term(store, parse_sexprs("(+ 1)", "t").at(0)), SyntaxError);
}

TEST(Terms, HashConsingSharesStructure) {
  TermStore store;
  TermId a = read_term(store, parse_sexprs("(+ (* x y) (* x y))", "t").at(0));
  EXPECT_EQ(store.children(a)[0], store.children(a)[1]);
  EXPECT_EQ(read_term(store, parse_sexprs("(+ (* x y) (* x y))", "t").at(0)), a);
  EXPECT_EQ(store.str(a), "(+ (* x y) (* x y))");
  TermId v = read_term(store, parse_sexprs("x[2, 0]", "t").at(0));
  EXPECT_EQ(store.variable_of(v).name, "x[2,0]");
}

TEST(Sexp, ErrorsNamePositions) {
  try {
    parse_sexprs("(a (b c)\n  (d", "f.rules");
    FAIL();
  } catch (const SyntaxError& e) {
    EXPECT_EQ(std::string(e.what()), "f.rules:2:3: unclosed '(': expected ')'");
  }
  try {
    parse_sexprs("(a))", "g");
    FAIL();
  } catch (const SyntaxError& e) {
    EXPECT_EQ(std::string(e.what()), "g:1:4: unexpected ')'");
  }
}

}  // namespace
}  // namespace keq::ir

namespace keq::ir {
namespace {

TermId term(TermStore& s, const std::string& text) {
  return read_term(s, parse_sexprs(text, "test")[0]);
}

// x[t] as a chain of selects: what every case computes alike leaves the chain, and each value
// of t still gives its own case.
TEST(SelectByValue, FactorsWhatEveryCaseComputesAlike) {
  TermStore s;
  TermId t = s.variable("t", Type::I64);
  std::vector<TermId> cases = {term(s, "(neg (- (- x0 m) l))"), term(s, "(neg (- (- x1 m) l))"),
                               term(s, "(neg (- (- x2 m) l))")};
  std::vector<int64_t> values = {0, 1, 2};
  TermId picked = select_by_value(s, t, values, cases);
  // One chain over the x_k, inside the shared context: the candidate's -(x[t] - m - l).
  EXPECT_EQ(s.str(picked),
            "(neg (- (- (select (== t 0:i64) x0 (select (== t 1:i64) x1 x2)) m) l))");
  for (int64_t v : values) {
    auto env = [&](const Variable& var) -> std::optional<IeeeValue> {
      if (var.name == "t") return IeeeValue{Type::I64, 0, v};
      return IeeeValue{Type::F32, var.name == "x" + std::to_string(v) ? 5.0f : 1.0f, 0};
    };
    EXPECT_EQ(evaluate_ieee(s, picked, env).f, evaluate_ieee(s, cases[v], env).f) << v;
  }
}

// Cases that differ in their op (or in a child's type) are chained whole.
TEST(SelectByValue, CasesOfDifferentShapeAreChainedWhole) {
  TermStore s;
  TermId t = s.variable("t", Type::I32);
  std::vector<TermId> cases = {term(s, "(exp a)"), term(s, "(log a)")};
  std::vector<int64_t> values = {3, 4};
  EXPECT_EQ(s.str(select_by_value(s, t, values, cases)), "(select (== t 3:i32) (exp a) (log a))");
  std::vector<TermId> same = {term(s, "(exp a)"), term(s, "(exp a)")};
  EXPECT_EQ(select_by_value(s, t, values, same), same[0]);
}

}  // namespace
}  // namespace keq::ir
