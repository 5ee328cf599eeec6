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

ir::TermId instantiate(ir::TermStore& s, const egraph::Pattern& p,
                       const std::vector<ir::TermId>& vals) {
  std::vector<ir::TermId> ids(p.nodes.size());
  for (size_t k = 0; k < p.nodes.size(); ++k) {
    const auto& n = p.nodes[k];
    if (n.is_var) {
      ids[k] = vals[n.var];
    } else if (static_cast<ir::Op>(n.op) == ir::Op::Const) {
      ids[k] = s.constant(s.constant_at(n.payload));
    } else {
      std::vector<ir::TermId> kids;
      for (uint32_t c : n.children) kids.push_back(ids[c]);
      ids[k] = s.make(static_cast<ir::Op>(n.op), kids);
    }
  }
  return ids.back();
}

std::optional<std::vector<ir::Type>> pattern_var_types(ir::TermStore& s, const KeqRule& r) {
  size_t n = r.rewrite.lhs.num_vars();
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    std::vector<ir::Type> ts(n);
    std::vector<ir::TermId> vals(n);
    for (size_t v = 0; v < n; ++v) {
      ts[v] = (mask >> v) & 1 ? ir::Type::Bool : ir::Type::F32;
      vals[v] = ts[v] == ir::Type::Bool ? s.constant(ir::Constant::of_bool(true))
                                        : s.constant(ir::Constant::of_float(1));
    }
    try {
      instantiate(s, r.rewrite.lhs, vals);
      instantiate(s, r.rewrite.rhs, vals);
      return ts;
    } catch (const ir::TypeError&) {
    }
  }
  return std::nullopt;
}

}  // namespace keq::rules
