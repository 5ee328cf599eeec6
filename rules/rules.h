// keq's rules: the public header of rules/.
//
// - rule_file.h: the rule language and its parser (generic over the language)
// - keq_language.h: keq's ops as an e-graph language, with constant and interval analyses
// The seed rule sets are the *.rules files in this folder.
#pragma once

#include <string>
#include <vector>

#include "rules/keq_language.h"
#include "rules/rule_file.h"

namespace keq::rules {

using KeqRule = Rule<KeqLanguage>;
using KeqRewrite = egraph::Rewrite<KeqLanguage>;

// Where the default rules live: $KEQ_RULES_DIR, else the source tree's rules/ (set at build).
std::string default_rules_dir();
// The *.rules files of that folder, sorted by name. Throws std::runtime_error when the folder
// cannot be read or holds none (a KEQ_RULES_DIR pointing nowhere).
std::vector<std::string> default_rule_files();
// A short hash of these files' names and contents, for reports' provenance.
std::string rules_fingerprint(const std::vector<std::string>& files);
// Parses rule files in order. Throws ir::SyntaxError naming file:line:col.
std::vector<KeqRule> load_rules(KeqLanguage& lang, const std::vector<std::string>& files);

// An explanation step's label: the rule, or the analysis; a normal-form step shows the form
// both sides share.
std::string step_label(const KeqLanguage::Graph& g, const std::vector<KeqRewrite>& rewrites,
                       const egraph::Justification& why, egraph::EClassId to);

}  // namespace keq::rules
