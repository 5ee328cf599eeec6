// The runner (runner/): generated checks compiled for the CPU, the fallback CI runs. Seeded
// wrong rules must show differences at inputs the evaluator confirms; true ones none; and every
// op's generated code must compute what keq's evaluator computes.
#include "runner/runner.h"

#include <gtest/gtest.h>

namespace keq::runner {
namespace {

using ir::Op;
using ir::TermId;

struct Pair {
  ir::TermStore s;
  Check c;
  Pair(const std::string& lhs, const std::string& rhs,
       std::vector<std::pair<std::string, InputFormat>> vars,
       ir::Semantics sem = ir::Semantics::Ieee) {
    c.name = lhs + " = " + rhs;
    c.semantics = sem;
    for (auto& [name, f] : vars) c.inputs.push_back({s.variable(name), f});
    c.lhs = ir::read_term(s, ir::parse_sexprs(lhs, "lhs")[0]);
    c.rhs = ir::read_term(s, ir::parse_sexprs(rhs, "rhs")[0]);
  }
  CheckResult run(RunOptions opt = {}) {
    opt.samples = opt.samples == RunOptions{}.samples ? 1 << 16 : opt.samples;
    RunResult r = runner::run(s, std::span<const Check>(&c, 1), opt);
    EXPECT_EQ(r.error, "");
    return r.checks.empty() ? CheckResult{} : r.checks[0];
  }
};

TEST(Runner, TrueIeeeRuleHasNoDifference) {
  Pair p("(+ a b)", "(+ b a)", {{"a", InputFormat::F32}, {"b", InputFormat::F32}});
  CheckResult r = p.run();
  EXPECT_EQ(r.plan.count, 1u << 16);
  EXPECT_FALSE(r.plan.exhaustive);
  EXPECT_EQ(r.differs, 0u);
  EXPECT_EQ(r.samples.size(), 32u);
}

TEST(Runner, DivisionAsReciprocalProductDiffersInTheLastBit) {
  Pair p("(/ x y)", "(* x (recip y))", {{"x", InputFormat::F32}, {"y", InputFormat::F32}});
  CheckResult r = p.run();
  ASSERT_GT(r.differs, 0u);
  ASSERT_FALSE(r.examples.empty());
  const Point& e = r.examples[0];
  float x = static_cast<float>(e.inputs[0]), y = static_cast<float>(e.inputs[1]);
  EXPECT_EQ(static_cast<float>(e.lhs), x / y);
  EXPECT_EQ(static_cast<float>(e.rhs), x * (1.0f / y));
  EXPECT_EQ(r.examples[0].index, r.examples[0].index);  // the first is the smallest index
  for (const Point& q : r.examples) EXPECT_GE(q.index, r.examples[0].index);
}

TEST(Runner, SubtractingItselfIsNotZeroAtInfinity) {
  Pair p("(- a a)", "0", {{"a", InputFormat::F32}});
  CheckResult r = p.run();
  ASSERT_GT(r.differs, 0u);
  EXPECT_TRUE(std::isinf(r.examples[0].inputs[0]) || std::isnan(r.examples[0].inputs[0]));
}

TEST(Runner, SaturatingCastIsNotTorchsCast) {
  Pair p("(cast.e4m3.sat a)", "(cast.e4m3 a)", {{"a", InputFormat::F32}});
  CheckResult r = p.run();
  ASSERT_GT(r.differs, 0u);
  for (const Point& e : r.examples) EXPECT_GT(std::fabs(e.inputs[0]), 464.0);
}

TEST(Runner, NarrowFormatsAreEnumerated) {
  Pair p("(cast.e4m3 (cast.e4m3 a))", "(cast.e4m3 a)", {{"a", InputFormat::E4M3}});
  CheckResult r = p.run();
  EXPECT_TRUE(r.plan.exhaustive);
  EXPECT_EQ(r.plan.count, 256u);
  EXPECT_EQ(r.differs, 0u);
  Pair h("(cast.f16 (+ a b))", "(+ a b)", {{"a", InputFormat::E4M3}, {"b", InputFormat::F16}});
  CheckResult rh = h.run(RunOptions{.samples = 1 << 24});
  EXPECT_TRUE(rh.plan.exhaustive);
  EXPECT_EQ(rh.plan.count, 1u << 24);
  EXPECT_GT(rh.differs, 0u);  // an fp16 sum is not always an fp16
}

TEST(Runner, ConditionsSkipInputs) {
  Pair p("(select (< a 0) (neg a) a)", "(abs a)", {{"a", InputFormat::F32}});
  // Without the condition: -0 (select gives -0, abs +0) and NaN (abs clears the sign bit).
  EXPECT_GT(p.run().differs, 0u);
  p.c.assume = ir::read_term(p.s, ir::parse_sexprs("(and (== a a) (!= a 0))", "cond")[0]);
  CheckResult r = p.run();
  EXPECT_GT(r.skipped, 0u);
  EXPECT_EQ(r.differs, 0u);
}

TEST(Runner, RealChecksMeasureTheirDifference) {
  Pair p("(/ (+ a b) c)", "(+ (/ a c) (/ b c))",
         {{"a", InputFormat::F32}, {"b", InputFormat::F32}, {"c", InputFormat::F32}},
         ir::Semantics::Real);
  CheckResult r = p.run();
  EXPECT_GT(r.max_difference, 0.0);  // doubles round: the rigorous check decides, not this
}

TEST(Runner, DeepTermsAndWideReductionsGenerateCompactCode) {
  ir::TermStore s;
  TermId x = s.variable("x");
  TermId chain = x;  // a scalar accumulator over a 100,000-wide row
  for (int k = 0; k < 100000; ++k) chain = s.make(Op::Add, {chain, x});
  std::vector<TermId> lanes(1024, s.constant(ir::Constant::of_float(0)));
  lanes[7] = x;  // a masked reduction: one live lane, the rest padding
  TermId amax = s.make(Op::TMax, lanes);
  Check c{"deep", ir::Semantics::Ieee, {{x, InputFormat::F32}}, chain, amax, std::nullopt};
  Plan plan{16, false};
  std::string code = generate(s, std::span<const Check>(&c, 1), std::span<const Plan>(&plan, 1));
  EXPECT_NE(code.find("keq_add"), std::string::npos);
  size_t folds = 0;
  for (size_t at = code.find("keq_maxnum("); at != std::string::npos;
       at = code.find("keq_maxnum(", at + 1))
    ++folds;
  EXPECT_EQ(folds, 1u);  // the padding constant once, not 1023 times
}

TEST(Runner, GeneratedCodeComputesWhatTheEvaluatorComputes) {
  RunOptions opt;
  opt.points = 2048;
  std::string error;
  std::vector<OpAgreement> rows = compare_with_evaluator(opt, &error);
  ASSERT_EQ(error, "");
  ASSERT_GT(rows.size(), 60u);
  for (const OpAgreement& a : rows) {
    SCOPED_TRACE(std::string(ir::op_name(a.op)) + "(" + a.operands + ")");
    EXPECT_GT(a.points, 100u);
    // The CPU computes approximations through double: correctly rounded but for rare double
    // roundings.
    if (a.exact_expected)
      EXPECT_EQ(a.agree, a.points) << a.first_disagreement;
    else
      EXPECT_LE(a.max_ulps, 1.0) << a.first_disagreement;
  }
}

}  // namespace
}  // namespace keq::runner

namespace keq::runner {
namespace {

TEST(Runner, IntegerSidesPastTwoToThe53SaturateInsteadOfWrapping) {
  // INT64_MAX arrives as the double 2^63 (a saturated cast of inf): it must read back as itself.
  EXPECT_EQ(side_constant(0x1p63, ir::Type::I64).i, INT64_MAX);
  EXPECT_EQ(side_constant(-0x1p63, ir::Type::I64).i, INT64_MIN);
  EXPECT_EQ(side_constant(-5, ir::Type::I32).i, -5);
  EXPECT_EQ(side_constant(1, ir::Type::Bool).i, 1);
}

}  // namespace
}  // namespace keq::runner
