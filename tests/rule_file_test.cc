// The rule language: what parses, and the errors (with file:line:col) for what does not.
#include <gtest/gtest.h>

#include "rules/rules.h"

namespace keq::rules {
namespace {

std::vector<KeqRule> parse(const std::string& text, ir::TermStore& store) {
  KeqLanguage lang(&store, ir::Semantics::Real);
  return RuleParser<KeqLanguage>(lang).parse(ir::parse_sexprs(text, "t.rules"));
}

std::string error_of(const std::string& text) {
  ir::TermStore store;
  try {
    parse(text, store);
  } catch (const ir::SyntaxError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RuleFile, ParsesTheIssueExamples) {
  ir::TermStore store;
  auto rs = parse(R"(
(rule exp-add   (* (exp ?a) (exp ?b))  (exp (+ ?a ?b))  :holds real)
(rule sub-self  (- ?a ?a)  0  :if (finite ?a)  :holds ieee)
)",
                  store);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].rewrite.name, "exp-add");
  EXPECT_EQ(rs[0].holds, ir::Semantics::Real);
  EXPECT_EQ(rs[1].holds, ir::Semantics::Ieee);
  EXPECT_EQ(rs[1].rewrite.conditions.size(), 1u);
  EXPECT_EQ(rs[0].pos.line, 2);
  // Under IEEE the real-only rule is never applied.
  EXPECT_EQ(rewrites_for(rs, ir::Semantics::Ieee).size(), 1u);
  EXPECT_EQ(rewrites_for(rs, ir::Semantics::Ieee)[0].name, "sub-self");
  EXPECT_EQ(rewrites_for(rs, ir::Semantics::Real).size(), 2u);
}

TEST(RuleFile, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(error_of("(rule r (frob ?a) ?a :holds real)"), "t.rules:1:10: unknown op 'frob'");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :if (shiny ?a) :holds real)"),
            "t.rules:1:26: unknown condition 'shiny' (known: finite, not-nan, nonzero, positive, "
            "negative, nonneg, nonpos, e4m3-range, e5m2-range, ue8m0-range, in-f16, in-bf16, "
            "in-e4m3, in-e5m2, f32-binade, exp-sum, const, le, lt)");
  EXPECT_EQ(error_of("\n(rule r (+ ?a 0) ?b :holds real)"),
            "t.rules:2:18: variable ?b on the right is not bound on the left");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a)"),
            "t.rules:1:1: rule 'r' must say :holds real or :holds ieee");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :holds exact)"),
            "t.rules:1:28: expected real or ieee after :holds");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :holds real)\n(rule r (* ?a 1) ?a :holds real)"),
            "t.rules:2:7: duplicate rule name 'r'");
  EXPECT_EQ(error_of("(rule r (exp ?a ?b) ?a :holds real)"),
            "t.rules:1:9: op 'exp' does not take 2 operands");
  EXPECT_EQ(error_of("(rule r (+ ?a x) ?a :holds real)"),
            "t.rules:1:15: 'x' is not a constant or symbol");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :if (finite ?z) :holds real)"),
            "t.rules:1:33: condition operand must be a variable of the left side");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :if (finite ?a ?a) :holds real)"),
            "t.rules:1:26: condition finite takes 1 variable(s)");
  EXPECT_EQ(error_of("(rewrite r (+ ?a 0) ?a)"),
            "t.rules:1:1: expected (rule NAME LHS RHS ... :holds real|ieee)");
  EXPECT_EQ(error_of("(rule r (+ ?a 0) ?a :holds real :speed fast)"),
            "t.rules:1:33: expected :if or :holds, got ':speed'");
  EXPECT_EQ(error_of("(rule r (+ ?a 0))"),
            "t.rules:1:1: rule needs a name, a left and a right side");
}

TEST(RuleFile, MissingFileIsAnError) {
  ir::TermStore store;
  KeqLanguage lang(&store, ir::Semantics::Real);
  EXPECT_THROW(load_rules(lang, {"/nonexistent/x.rules"}), ir::SyntaxError);
}

TEST(RuleFile, SeedRuleSetsLoad) {
  ir::TermStore store;
  KeqLanguage lang(&store, ir::Semantics::Real);
  auto files = default_rule_files();
  ASSERT_GE(files.size(), 3u) << "expected algebra, explog and select rule sets in "
                              << default_rules_dir();
  auto rs = load_rules(lang, files);
  EXPECT_GT(rs.size(), 60u);
  size_t ieee = rewrites_for(rs, ir::Semantics::Ieee).size();
  EXPECT_GT(ieee, 20u);
  EXPECT_LT(ieee, rs.size());
}

// (in-f16 ?x) holds for a class that a cast into fp16 (or fp8, whose values fp16 holds) made,
// or a constant fp16 represents; not for other terms.
TEST(RuleFile, FormatConditionsReadCastsAndConstants) {
  ir::TermStore store;
  KeqLanguage::Graph g(KeqLanguage(&store, ir::Semantics::Ieee));
  auto rs =
      load_rules(g.lang(), {std::string(KEQ_SOURCE_DIR) + "/tests/rules_validate/formats.rules"});
  auto rws = rewrites_for(rs, ir::Semantics::Ieee);
  auto proves = [&](const std::string& a, const std::string& b) {
    egraph::EClassId ia = add_term(g, ir::read_term(store, ir::parse_sexprs(a, "a").at(0)));
    egraph::EClassId ib = add_term(g, ir::read_term(store, ir::parse_sexprs(b, "b").at(0)));
    egraph::Runner<KeqLanguage>({10, 10000, 5.0}).run(g, rws, [&](KeqLanguage::Graph& eg) {
      return eg.find(ia) == eg.find(ib);
    });
    return g.find(ia) == g.find(ib);
  };
  EXPECT_TRUE(proves("(fma (cast.f16 x) (cast.e4m3 y) (cast.f16 x))",
                     "(+ (* (cast.f16 x) (cast.e4m3 y)) (cast.f16 x))"));
  EXPECT_TRUE(
      proves("(fma (cast.f16 x) 0.5 (cast.f16 x))", "(+ (* (cast.f16 x) 0.5) (cast.f16 x))"));
  EXPECT_FALSE(proves("(fma (cast.bf16 x) (cast.f16 y) (cast.bf16 x))",
                      "(+ (* (cast.bf16 x) (cast.f16 y)) (cast.bf16 x))"));
  EXPECT_FALSE(proves("(fma x (cast.f16 y) x)", "(+ (* x (cast.f16 y)) x)"));
  EXPECT_FALSE(
      proves("(fma (cast.f16 x) 0.1 (cast.f16 x))", "(+ (* (cast.f16 x) 0.1) (cast.f16 x))"));
}

}  // namespace
}  // namespace keq::rules
