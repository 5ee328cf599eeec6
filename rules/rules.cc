#include "rules/rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace keq::rules {

namespace {
std::string& rules_dir() {
  static std::string dir = KEQ_DEFAULT_RULES_DIR;
  return dir;
}
}  // namespace

std::string default_rules_dir() {
  return rules_dir();
}

void set_default_rules_dir(std::string dir) {
  rules_dir() = std::move(dir);
}

std::vector<std::string> default_rule_files() {
  std::string dir = default_rules_dir();
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".rules") out.push_back(e.path().string());
  // A folder that is not there, or holds no rules, would silently prove less: say so instead.
  if (ec)
    throw Error(ErrorKind::BadInput,
                "the rules folder " + dir + " cannot be read: " + ec.message());
  if (out.empty())
    throw Error(ErrorKind::BadInput, "the rules folder " + dir + " holds no *.rules file");
  std::sort(out.begin(), out.end());
  return out;
}

std::string rules_fingerprint(const std::vector<std::string>& files) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over names and contents
  auto mix = [&](std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  };
  for (const std::string& f : files) {
    mix(std::filesystem::path(f).filename().string());
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    mix(ss.str());
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
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
