#include "rules/rules.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace keq::rules {

std::string default_rules_dir() {
  if (const char* env = std::getenv("KEQ_RULES_DIR"); env && *env) return env;
  return KEQ_DEFAULT_RULES_DIR;
}

std::vector<std::string> default_rule_files() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(default_rules_dir(), ec))
    if (e.path().extension() == ".rules") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<KeqRule> load_rules(KeqLanguage& lang, const std::vector<std::string>& files) {
  RuleParser<KeqLanguage> parser(lang);
  std::vector<KeqRule> all;
  for (const std::string& f : files) {
    auto rs = parser.parse_file(f);
    all.insert(all.end(), std::make_move_iterator(rs.begin()), std::make_move_iterator(rs.end()));
  }
  return all;
}

std::string step_label(const KeqLanguage::Graph& g, const std::vector<KeqRewrite>& rewrites,
                       const egraph::Justification& why, egraph::EClassId to) {
  if (why.kind == egraph::Justification::Kind::Rule) return rewrites[why.index].name;
  if (why.kind != egraph::Justification::Kind::Analysis) return "congruence";
  if (why.index != KeqLanguage::kNormalForm) return "constant-fold";
  std::string nf = g.lang().nf_str(g.data(to).nf);
  if (nf.size() > 160) nf = nf.substr(0, 160) + " ...";
  return "normal-form: " + nf;
}

}  // namespace keq::rules
