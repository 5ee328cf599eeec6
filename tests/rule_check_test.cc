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

// The lemma behind f32-binade (rules/keq_language.cc): a quotient of two floats of p-bit
// significands never lies where rounding to p bits moves it onto a power of two, below it in
// [2^j (1 - 2^-(p+1)), 2^j) or above it in (2^j, 2^j (1 + 2^-p)]. Checked exactly for every pair
// of 11-bit significands A, C at every power of two their quotient reaches.
TEST(RuleCheck, QuotientsOfNarrowValuesNeverRoundOntoAPowerOfTwo) {
  constexpr int64_t p = 11;
  size_t near = 0;
  for (int64_t a = 1; a < (1 << p); ++a)
    for (int64_t c = 1; c < (1 << p); ++c)
      for (int64_t j = -p; j <= p; ++j) {
        // In units of 2^(j - p - 1), scaled by c: the quotient is a * 2^(p + 1 - j) / c.
        int64_t q = j <= p + 1 ? a << (p + 1 - j) : 0;
        int64_t unit = c;  // 2^(j - p - 1) * c, times the scale
        int64_t pow2 = c << (p + 1);
        bool above = q > pow2 && q <= pow2 + 2 * unit;  // (2^j, 2^j (1 + 2^-p)]
        bool below = q >= pow2 - unit && q < pow2;      // [2^j (1 - 2^-(p+1)), 2^j)
        ASSERT_FALSE(above || below) << a << " / " << c << " near 2^" << j;
        near += q == pow2;
      }
  EXPECT_GT(near, 0u);  // the quotients do reach the powers of two themselves
}

TEST(RuleCheck, BitRulesAreSweptOverEveryFp32Value) {
  // Rounding up by adding 0x7FFFFE, one short, misses a mantissa of 1: the special values
  // agree, the sweep refutes it at the first such s past 2^-126. A condition the sweep does not
  // know, or s read as a number, leaves the rule unknown (Z3 cannot hold f32-binade).
  auto vs = check_text(
      "(rule one-short (bitcast.f32 (band (+ (bitcast.i32 ?s) 8388606:i32) 2139095040:i32))"
      " (exp2 (ceil (log2 ?s))) :if (f32-binade ?s) (ue8m0-range ?s) :holds real)\n"
      "(rule other-condition (bitcast.f32 (bitcast.i32 ?s)) ?s"
      " :if (f32-binade ?s) (ue8m0-range ?s) (finite ?s) :holds real)\n"
      "(rule read-as-number (bitcast.f32 (bitcast.i32 ?s)) ?s"
      " :if (f32-binade ?s) (ue8m0-range ?s) :holds real)\n");
  ASSERT_EQ(vs.size(), 3u);
  EXPECT_EQ(vs[0].outcome, RuleVerdict::Outcome::Refuted) << vs[0].detail;
  EXPECT_NE(vs[0].detail.find("s = 1.1754944"), std::string::npos) << vs[0].detail;
  EXPECT_EQ(vs[1].outcome, RuleVerdict::Outcome::Unknown);
  EXPECT_NE(vs[1].detail.find("fp32 sweep only"), std::string::npos) << vs[1].detail;
  EXPECT_EQ(vs[2].outcome, RuleVerdict::Outcome::Unknown);
  EXPECT_NE(vs[2].detail.find("other than through bitcast.i32"), std::string::npos) << vs[2].detail;
}

TEST(RuleCheck, IntegerRulesAreProvedWithBitVectors) {
  auto vs = check_text(
      "(rule cancel (+ (+ (- ?x 127:i32) ?y) 127:i32) (+ ?x ?y) :holds ieee)\n"
      "(rule lshr (band (lshr ?x 23:i32) 255:i32) (band (shr ?x 23:i32) 255:i32) :holds ieee)\n"
      "(rule off-by-one (+ (- ?x 127:i32) 128:i32) ?x :holds ieee)\n"
      "(rule sign-bit (band (lshr ?x 25:i32) 255:i32) (band (shr ?x 25:i32) 255:i32) :holds ieee)\n"
      "(rule by-variable (shl ?x ?y) (shl ?x ?y) :holds ieee)\n");
  ASSERT_EQ(vs.size(), 5u);
  EXPECT_EQ(vs[0].outcome, RuleVerdict::Outcome::Proved) << vs[0].detail;
  EXPECT_EQ(vs[1].outcome, RuleVerdict::Outcome::Proved) << vs[1].detail;
  EXPECT_EQ(vs[2].outcome, RuleVerdict::Outcome::Refuted) << vs[2].detail;
  EXPECT_EQ(vs[3].outcome, RuleVerdict::Outcome::Refuted) << vs[3].detail;  // x < 0
  EXPECT_EQ(vs[4].outcome, RuleVerdict::Outcome::Unknown) << vs[4].detail;
  EXPECT_NE(vs[4].detail.find("shift"), std::string::npos) << vs[4].detail;
}

}  // namespace
}  // namespace keq::verify
