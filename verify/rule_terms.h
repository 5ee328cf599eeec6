// What keq rules check and keq rules validate share: a rule's sides and conditions as closed
// terms over fresh variables, and the evaluation of both sides at one point. Internal to verify/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rules.h"

namespace keq::verify {

struct RuleTerms {
  std::vector<ir::TermId> vars;
  ir::TermId lhs, rhs;
  std::optional<ir::TermId> z3_assume,
      eval_assume;  // the conditions, as Z3 and evaluation read them
};

// The rule's terms over variables named as the rule's (?x is x; bool ones cond_x, integer ones
// i32_x or i64_x); none when no
// typing of its variables makes both sides well typed. Throws std::invalid_argument for a condition
// that has no term form.
std::optional<RuleTerms> rule_terms(ir::TermStore& s, const rules::KeqRule& r);

std::string point_str(const std::vector<ir::TermId>& vars, const std::vector<ir::Constant>& vals,
                      const ir::TermStore& s);
// Doubles as the variables' values (bool variables: nonzero is true).
std::vector<ir::Constant> point_of(const ir::TermStore& s, const std::vector<ir::TermId>& vars,
                                   const std::vector<double>& vals);
// Both sides and the condition at one point, in the rule's semantics: "" when they agree or the
// condition fails, else what each side gives. Real semantics: a difference only where the two
// sides' enclosures are disjoint.
std::string differs_at(ir::TermStore& s, const RuleTerms& t, const std::vector<ir::Constant>& vals,
                       ir::Semantics sem);

}  // namespace keq::verify
