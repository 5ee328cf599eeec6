// The constant-merge canary: an unsound rule that merges two different constants stops the
// run, and the report names the rule.
#include <gtest/gtest.h>

#include "rules/rules.h"

namespace keq::rules {
namespace {

using Graph = KeqLanguage::Graph;

struct RuleGraph {
  ir::TermStore store;
  std::unique_ptr<Graph> g;
  std::vector<KeqRewrite> rws;
  explicit RuleGraph(const std::string& rules_text, bool explain) {
    g = std::make_unique<Graph>(KeqLanguage(&store, ir::Semantics::Real), explain);
    auto rs = RuleParser<KeqLanguage>(g->lang()).parse(ir::parse_sexprs(rules_text, "bad.rules"));
    rws = rewrites_for(rs, ir::Semantics::Real);
  }
  egraph::EClassId add(const std::string& term) {
    return add_term(*g, ir::read_term(store, ir::parse_sexprs(term, "t").at(0)));
  }
};

TEST(Canary, UnsoundRuleStopsTheRunAndIsNamed) {
  RuleGraph s(
      "(rule plus-one-is-id (+ ?a 1) ?a :holds real)\n(rule mul-comm (* ?a ?b) (* ?b ?a) :holds "
      "ieee)",
      false);
  s.add("(* (+ 0 1) y)");  // 0 + 1 folds to 1, and the bad rule says it equals 0
  egraph::RunReport rep = egraph::Runner<KeqLanguage>().run(*s.g, s.rws);
  EXPECT_EQ(rep.stop, egraph::StopReason::Canary);
  EXPECT_NE(rep.canary.find("plus-one-is-id"), std::string::npos) << rep.canary;
  EXPECT_NE(rep.canary.find("merged distinct constants"), std::string::npos) << rep.canary;
}

TEST(Canary, ExplanationNamesEveryRuleInvolved) {
  RuleGraph s(
      "(rule double (* ?a 2) (+ ?a ?a) :holds ieee)\n(rule bad-half (+ ?a ?a) ?a :holds real)",
      true);
  s.add("(* 3 2)");  // 6 = 3 + 3 = 3
  egraph::RunReport rep = egraph::Runner<KeqLanguage>().run(*s.g, s.rws);
  ASSERT_EQ(rep.stop, egraph::StopReason::Canary);
  auto [a, b] = s.g->lang().canary_nodes();
  ASSERT_EQ(s.g->find(a), s.g->find(b));
  egraph::Explainer<KeqLanguage> ex(*s.g, [&](const egraph::Justification& j, egraph::EClassId) {
    return j.kind == egraph::Justification::Kind::Rule ? s.rws[j.index].name : std::string("fold");
  });
  std::string chain = ex.explain(a, b).str();
  EXPECT_NE(chain.find("bad-half"), std::string::npos) << chain;
}

TEST(Canary, SoundRulesNeverTripIt) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
  for (const char* t : {"(+ (* 2 3) (- 4 4))", "(/ (* 6 2) 2)", "(exp (- (log 1) 0))",
                        "(select (> 1 0) (max 1 2) (min 3 4))", "(* (+ 1 2) (+ 1 2))"})
    add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)));
  egraph::RunReport rep = egraph::Runner<KeqLanguage>({8, 20000, 5.0}).run(g, rws);
  EXPECT_NE(rep.stop, egraph::StopReason::Canary) << rep.canary;
}

// Rules written over f32 (sub-self's 0, add-self's (* 2 a)) matched integer classes and built
// ill-typed nodes that the normal forms merged with integer constants: a UE8M0 scale taken
// from an fp32's exponent bits tripped the canary in keq verify (the default rules get type
// conditions, add_type_conditions).
TEST(Canary, FloatRulesDoNotMatchIntegerClasses) {
  ir::TermStore store;
  Graph g(KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_domain(store.payload(store.variable("a")), Interval::any_finite());
  auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
  for (const char* t :
       {"(+ (- n:i32 n:i32) (+ n:i32 n:i32))",
        "(bitcast.f32 (shl (+ (+ (- (band (shr (bitcast.i32 (/ a 448)) 23:i32) 255:i32) 127:i32) "
        "(cast.i32 (!= (band (bitcast.i32 (/ a 448)) 8388607:i32) 0:i32))) 127:i32) 23:i32))"})
    add_term(g, ir::read_term(store, ir::parse_sexprs(t, "t").at(0)));
  egraph::RunReport rep = egraph::Runner<KeqLanguage>({30, 20000, 5.0}).run(g, rws);
  EXPECT_NE(rep.stop, egraph::StopReason::Canary) << rep.canary;
}

// Mish written through exp(-2 softplus) with softplus's stable form, beside torch's
// (an LLM-written level-2 #22 kernel's, on one variable): the e-graph once "proved"
// a * a * tanh(softplus(a)) = a * a, through classes whose ranges turned disjoint (exp(512)
// against exp of something past 709). The disjoint-range canary now stops that run; whatever
// the run ends in, that goal must not be proved by a run that is used.
TEST(Canary, MishThroughStableSoftplusNeverProvesTanhIsOne) {
  ir::TermStore store;
  const std::string sp = "(+ (log (+ 1 (exp (- 0 (abs a))))) (maxnum a 0))";
  const std::string e = "(exp (* -2 " + sp + "))";
  auto term = [&](const std::string& t) {
    return ir::read_term(store, ir::parse_sexprs(t, "t").at(0));
  };
  ir::TermId cand = term("(* a (* a (div.full (- 1 " + e + ") (+ 1 " + e + "))))");
  ir::TermId ref = term("(* a (* a (tanh (select (> a 20) a (log (+ 1 (exp a)))))))");
  ir::TermId wrong = term("(* a a)");
  ProverOptions opt;
  opt.domains.push_back({store.variable("a"), Interval::any_finite()});
  auto p = prove(store, {{ref, wrong}}, {cand}, RuleSet::defaults(), opt);
  EXPECT_TRUE(!p->proved(0) || !p->report.canary.empty()) << "a * a * tanh(softplus a) = a * a";
}

}  // namespace
}  // namespace keq::rules
