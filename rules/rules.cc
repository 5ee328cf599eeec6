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

}  // namespace keq::rules
