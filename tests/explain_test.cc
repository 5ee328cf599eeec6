// Explanations: the chain of rule applications behind a proof. Each step of every chain is
// checked semantically: all terms along it evaluate to the same value at random inputs.
#include <gtest/gtest.h>

#include <random>

#include "rules/rules.h"
#include "tests/tiny_lang.h"

namespace keq::rules {
namespace {

using Graph = KeqLanguage::Graph;

struct Proof {
  bool proved = false;
  egraph::Explanation explanation;
};

Proof prove(ir::TermStore& store, const std::string& a, const std::string& b,
            const std::vector<std::pair<std::string, Interval>>& domains = {}) {
  Graph g(KeqLanguage(&store, ir::Semantics::Real), /*explanations=*/true);
  for (const auto& [name, range] : domains)
    g.lang().set_domain(store.payload(store.variable(name)), range);
  auto rws = rewrites_for(load_rules(g.lang(), default_rule_files()), ir::Semantics::Real);
  egraph::EClassId ia = add_term(g, ir::read_term(store, ir::parse_sexprs(a, "a").at(0)));
  egraph::EClassId ib = add_term(g, ir::read_term(store, ir::parse_sexprs(b, "b").at(0)));
  egraph::Runner<KeqLanguage>({30, 50000, 10.0}).run(g, rws, [&](Graph& eg) {
    return eg.find(ia) == eg.find(ib);
  });
  Proof p;
  p.proved = g.find(ia) == g.find(ib);
  if (p.proved) {
    egraph::Explainer<KeqLanguage> ex(g, [&](const egraph::Justification& j, egraph::EClassId) {
      if (j.kind == egraph::Justification::Kind::Rule) return rws[j.index].name;
      return std::string(j.kind == egraph::Justification::Kind::Analysis ? "constant-fold"
                                                                         : "congruence");
    });
    p.explanation = ex.explain(ia, ib);
  }
  return p;
}

// Every term of the chain has the start's value at random points inside the domains.
void expect_chain_sound(ir::TermStore& store, const egraph::Explanation& e, double lo, double hi) {
  std::vector<ir::TermId> terms{ir::read_term(store, ir::parse_sexprs(e.start, "s").at(0))};
  for (const auto& l : e.lines)
    terms.push_back(ir::read_term(store, ir::parse_sexprs(l.term, "s").at(0)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int trial = 0; trial < 20; ++trial) {
    absl::flat_hash_map<std::string, double> env;
    auto value = [&](const ir::Variable& v) -> std::optional<ir::RealValue> {
      auto [it, fresh] = env.try_emplace(v.name, 0.0);
      if (fresh) it->second = static_cast<float>(dist(rng));
      return ir::RealValue::of(ir::Constant::of_float(it->second));
    };
    ir::RealValue first = ir::evaluate_real(store, terms[0], value);
    for (size_t k = 1; k < terms.size(); ++k) {
      ir::RealValue v = ir::evaluate_real(store, terms[k], value);
      double a = first.f.approx_double(), b = v.f.approx_double();
      EXPECT_NEAR(a, b, 1e-9 * (1 + std::fabs(a))) << "step " << k << ": " << store.str(terms[k]);
    }
  }
}

TEST(Explain, TheIssueExampleNamesItsRule) {
  ir::TermStore store;
  Proof p = prove(store, "(/ (* x 2) 2)", "x");
  ASSERT_TRUE(p.proved);
  ASSERT_FALSE(p.explanation.lines.empty());
  EXPECT_EQ(p.explanation.start, "(/ (* x 2) 2)");
  EXPECT_EQ(p.explanation.lines.back().term, "x");
  bool named = false;
  for (const auto& l : p.explanation.lines) named = named || l.rule == "mul-div-cancel";
  EXPECT_TRUE(named) << p.explanation.str();
  expect_chain_sound(store, p.explanation, -10, 10);
}

TEST(Explain, MultiStepChainsAreSoundStepByStep) {
  ir::TermStore store;
  Interval finite{-50, 50, false};
  const std::pair<const char*, const char*> goals[] = {
      {"(* (exp (- x m)) (exp m))", "(exp x)"},
      {"(* (exp a) (exp (neg a)))", "1"},
      {"(+ (* y 1) (- a a))", "y"},
      {"(* (+ a 1) 2)", "(+ (* 2 a) 2)"},
  };
  for (auto [a, b] : goals) {
    SCOPED_TRACE(a);
    Proof p = prove(store, a, b, {{"m", finite}, {"a", finite}});
    ASSERT_TRUE(p.proved);
    expect_chain_sound(store, p.explanation, -5, 5);
  }
}

TEST(Explain, CongruenceStepsShowWhereTheyApply) {
  using namespace keq::test;
  egraph::EGraph<TinyLang> g(TinyLang{}, true);
  egraph::EClassId a = g.add(kLeaf, 0, {}), b = g.add(kLeaf, 1, {});
  egraph::EClassId ga = g.add(kG, 0, {a}), gb = g.add(kG, 0, {b});
  g.union_classes(a, b, {egraph::Justification::Kind::Rule, 0});
  g.rebuild();
  ASSERT_EQ(g.find(ga), g.find(gb));
  egraph::Explainer<TinyLang> ex(
      g, [](const egraph::Justification&, egraph::EClassId) { return std::string("r0"); });
  egraph::Explanation e = ex.explain(ga, gb);
  ASSERT_EQ(e.lines.size(), 1u);
  EXPECT_EQ(e.start, "(g a0)");
  EXPECT_EQ(e.lines[0].term, "(g a1)");
  EXPECT_EQ(e.lines[0].rule, "r0");
  EXPECT_EQ(e.lines[0].path, std::vector<uint32_t>{0});
}

}  // namespace
}  // namespace keq::rules
