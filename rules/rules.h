// keq's rules: the public header of rules/.
//
// - rule_file.h: the rule language and its parser (generic over the language)
// - keq_language.h: keq's ops as an e-graph language, with constant and interval analyses
// - below: the one e-graph prover (prover.cc), which keq egraph, verify and the tests share.
// The seed rule sets are the *.rules files in this folder.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "egraph/runner.h"
#include "rules/keq_language.h"
#include "rules/rule_file.h"

namespace keq::rules {

using KeqRule = Rule<KeqLanguage>;
using KeqRewrite = egraph::Rewrite<KeqLanguage>;

// Where the default rules live: the source tree's rules/ (set at build), unless the program
// says otherwise before the rules are first read (keq's CLI does, from $KEQ_RULES_DIR).
std::string default_rules_dir();
void set_default_rules_dir(std::string dir);
// The *.rules files of that folder, sorted by name. Throws when the folder
// cannot be read or holds none (a KEQ_RULES_DIR pointing nowhere): keq::Error.
std::vector<std::string> default_rule_files();
// A short hash of these files' names and contents, for reports' provenance.
std::string rules_fingerprint(const std::vector<std::string>& files);
// Parses rule files in order. Throws ir::SyntaxError naming file:line:col.
std::vector<KeqRule> load_rules(KeqLanguage& lang, const std::vector<std::string>& files);

// An explanation step's label: the rule, or the analysis; a normal-form step shows the form
// both sides share.
std::string step_label(const KeqLanguage::Graph& g, const std::vector<KeqRewrite>& rewrites,
                       const egraph::Justification& why, egraph::EClassId to);

// ---- the prover ------------------------------------------------------------------------------
//
// The one e-graph prover: keq egraph, verify's e-graph stage and the tests all prove goals
// through prove(), with one RuleSet read once per process. prove() builds an e-graph over the
// store's terms, with each variable's domain for the interval analysis, runs the semantics'
// rewrites until every goal is proved or a limit stops it, and returns the saturated graph so that
// callers read what they need (which goals were proved, the rewrite chain of one, the best form of
// a term).

// The forms of a set of rule files, read and parsed once; compiled into each graph's language
// (patterns name the graph's own constants).
// The closed term of pattern p with its variables replaced by `vals` (throws ir::TypeError).
ir::TermId instantiate(ir::TermStore& s, const egraph::Pattern& p,
                       const std::vector<ir::TermId>& vals);
// Variable types that make both sides of r well typed (f32 unless a position needs bool).
std::optional<std::vector<ir::Type>> pattern_var_types(ir::TermStore& s, const KeqRule& r);
// Adds to each rule a condition that its variables' classes have types the rule type-checks
// with (both sides, one type): rules written over f32 do not match integer classes.
void add_type_conditions(ir::TermStore& s, std::vector<KeqRule>& rules);

class RuleSet {
 public:
  explicit RuleSet(std::vector<std::string> files);  // throws keq::Error naming file:line
  // The default rules folder's files, read on first use (throws when it cannot be read).
  static const RuleSet& defaults();
  const std::vector<std::string>& files() const { return files_; }
  const std::string& fingerprint() const { return fingerprint_; }
  std::vector<KeqRule> compile(KeqLanguage& lang) const;

 private:
  std::vector<std::string> files_;
  std::vector<std::vector<ir::SExpr>> forms_;  // per file
  std::string fingerprint_;
};

struct ProverOptions {
  ir::Semantics semantics = ir::Semantics::Real;
  bool normal_forms = true;
  size_t element_terms = kElementTerms;  // NormalForms::element_terms
  bool explanations = false;             // record why classes merged, for explain()
  egraph::RunnerLimits limits{30, 500000, 10.0};
  std::vector<std::pair<ir::TermId, Interval>> domains;  // variable terms and their ranges
  std::vector<ir::TermId> fp32_values;  // variables whose values are fp32 values (tensor elements)
};

struct Goal {
  ir::TermId lhs, rhs;
};

class Proof {
 public:
  Proof(ir::TermStore& store, const ProverOptions& opt);
  bool proved(size_t goal) const {
    return graph.find(goals[goal].first) == graph.find(goals[goal].second);
  }
  size_t proved_count() const;
  std::string explain(size_t goal);      // the rewrite chain; needs explanations on, goal proved
  std::string best(egraph::EClassId c);  // the smallest term of the class
  std::string step_label(const egraph::Justification& why, egraph::EClassId to) const;

  ir::TermStore& store;
  KeqLanguage::Graph graph;
  size_t rules_loaded = 0;
  std::vector<KeqRewrite> rewrites;
  egraph::RunReport report;
  std::vector<std::pair<egraph::EClassId, egraph::EClassId>> goals;
  std::vector<egraph::EClassId> terms;  // the classes of prove()'s `terms`, in order
};

// Proves lhs = rhs for each goal; `terms` are added too (keq egraph shows their best forms).
std::unique_ptr<Proof> prove(ir::TermStore& store, const std::vector<Goal>& goals,
                             const std::vector<ir::TermId>& terms, const RuleSet& rules,
                             const ProverOptions& opt);

// Frees a proof off the calling thread. An e-graph whose normal forms reached the 8 GiB budget
// took 15 s to free, millions of small allocations, after the run had stopped at its deadline:
// the watchdog ended keq with "overran --timeout". The proof must not be used by anyone after.
void discard(std::unique_ptr<Proof> proof);

}  // namespace keq::rules
