// keq rules check (verify/rule_check.cc): every condition the rule language knows has a term
// form there (else a rule under it would be checked without it), and refutations are points
// where evaluation confirms the difference.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "rules/rules.h"
#include "verify/verify.h"

namespace keq::verify {
namespace {

namespace fs = std::filesystem;

std::vector<RuleVerdict> check_text(const std::string& text) {
  fs::path f = fs::temp_directory_path() / "keq_rule_check_test.rules";
  std::ofstream(f) << text;
  return check_rules({f.string()}, 10000);
}

TEST(RuleCheck, EveryConditionHasATermForm) {
  std::string text;
  for (const std::string& c : rules::KeqLanguage::condition_names()) {
    std::string vars = c == "le" || c == "lt" ? "?a ?b" : "?a";
    text += "(rule under-" + c + " (+ ?a ?b) (+ ?a ?b) :if (" + c + " " + vars + ") :holds ieee)\n";
  }
  for (const RuleVerdict& v : check_text(text))
    EXPECT_EQ(v.outcome, RuleVerdict::Outcome::Proved) << v.name << ": " << v.detail;
}

TEST(RuleCheck, ConditionsRestrictTheCheck) {
  // x / x = 1 needs x finite and nonzero; without the conditions it is refuted (0/0, inf/inf).
  auto vs = check_text(
      "(rule ok (/ ?a ?a) 1 :if (finite ?a) (nonzero ?a) :holds ieee)\n"
      "(rule bare (/ ?a ?a) 1 :holds real)\n");
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].outcome, RuleVerdict::Outcome::Proved) << vs[0].detail;
  EXPECT_EQ(vs[1].outcome, RuleVerdict::Outcome::Refuted) << vs[1].detail;
}

TEST(RuleCheck, ExpAndLogLawsProveTheirIdentities) {
  // Models of uninterpreted exp can never show exp(a) exp(b) = exp(a + b); its laws as facts can.
  auto vs = check_text(
      "(rule a (* (exp ?a) (exp ?b)) (exp (+ ?a ?b)) :holds real)\n"
      "(rule b (log (* ?a ?b)) (+ (log ?a) (log ?b)) :if (positive ?a) (positive ?b) :holds real)\n"
      "(rule c (tanh ?a) (- (* 2 (sigmoid (* 2 ?a))) 1) :holds real)\n"
      "(rule d (log2 (exp2 ?a)) ?a :holds real)\n");
  ASSERT_EQ(vs.size(), 4u);
  for (const RuleVerdict& v : vs)
    EXPECT_EQ(v.outcome, RuleVerdict::Outcome::Proved) << v.name << ": " << v.detail;
}

TEST(RuleCheck, DomainsAreAssumedOnlyWhereBothSidesAreDefined) {
  // a / b = a * recip(b) where b != 0 (b = 0 is left to the special values, where both agree);
  // a side defined nowhere proves nothing.
  auto vs = check_text(
      "(rule a (/ ?a ?b) (* ?a (recip ?b)) :holds real)\n"
      "(rule b (* 0 (sqrt (neg (+ (* ?a ?a) 1)))) 0 :if (finite ?a) :holds real)\n");
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].outcome, RuleVerdict::Outcome::Proved) << vs[0].detail;
  EXPECT_NE(vs[0].detail.find("where both sides are defined"), std::string::npos) << vs[0].detail;
  EXPECT_NE(vs[1].outcome, RuleVerdict::Outcome::Proved) << vs[1].detail;
}

}  // namespace
}  // namespace keq::verify
