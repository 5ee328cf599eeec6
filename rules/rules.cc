#include "rules/rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
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
  add_type_conditions(lang.store(), all);
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

namespace {

// Calls on_typing(ts, lhs, rhs) for each typing ts of the rule's variables drawn from `types`
// (the first variable varying fastest) under which both sides type-check, until it returns true.
template <class F>
void each_typing(ir::TermStore& s, const KeqRule& r, std::span<const ir::Type> types,
                 F&& on_typing) {
  size_t n = r.rewrite.lhs.num_vars(), combos = 1;
  for (size_t v = 0; v < n; ++v) combos *= types.size();
  for (size_t code = 0; code < combos; ++code) {
    std::vector<ir::Type> ts(n);
    std::vector<ir::TermId> vals(n);
    for (size_t v = 0, c = code; v < n; ++v, c /= types.size()) {
      ts[v] = types[c % types.size()];
      vals[v] = ts[v] == ir::Type::Bool  ? s.constant(ir::Constant::of_bool(true))
                : ts[v] == ir::Type::F32 ? s.constant(ir::Constant::of_float(1))
                                         : s.constant(ir::Constant::of_int(ts[v], 1));
    }
    try {
      ir::TermId lhs = instantiate(s, r.rewrite.lhs, vals),
                 rhs = instantiate(s, r.rewrite.rhs, vals);
      if (on_typing(ts, lhs, rhs)) return;
    } catch (const ir::TypeError&) {
    }
  }
}

constexpr ir::Type kRuleTypes[] = {ir::Type::F32, ir::Type::Bool, ir::Type::I32, ir::Type::I64};

// The types each pattern variable takes in some typing where both sides type-check and have one
// type (rules with more than 5 variables are left as they are): rules are written over f32 with
// f32 constants, and matched on an integer class they built ill-typed nodes (sub-self's f32 0
// for an i32 a - a, add-self's (* 2 a)) that the normal forms then merged with integer
// constants, tripping the canary on a UE8M0 exponent-bit kernel.
std::vector<std::vector<ir::Type>> typings(ir::TermStore& s, const KeqRule& r) {
  size_t n = r.rewrite.lhs.num_vars();
  if (n > 5) return {};
  std::vector<std::vector<ir::Type>> allowed(n);
  each_typing(s, r, kRuleTypes,
              [&](const std::vector<ir::Type>& ts, ir::TermId lhs, ir::TermId rhs) {
                if (s.type(lhs) != s.type(rhs)) return false;
                for (size_t v = 0; v < n; ++v)
                  if (std::find(allowed[v].begin(), allowed[v].end(), ts[v]) == allowed[v].end())
                    allowed[v].push_back(ts[v]);
                return false;
              });
  if (n > 0 && allowed[0].empty()) return {};  // no typing here: left as it is
  return allowed;
}

}  // namespace

void add_type_conditions(ir::TermStore& s, std::vector<KeqRule>& rules) {
  static std::mutex mu;
  static std::map<std::string, std::vector<std::vector<ir::Type>>> cache;  // by rule text
  for (KeqRule& r : rules) {
    std::vector<std::vector<ir::Type>> allowed;
    {
      std::lock_guard<std::mutex> lock(mu);
      auto [it, fresh] = cache.try_emplace(r.lhs_text + " -> " + r.rhs_text);
      if (fresh) it->second = typings(s, r);
      allowed = it->second;
    }
    for (uint32_t v = 0; v < allowed.size(); ++v) {
      if (allowed[v].size() == std::size(kRuleTypes)) continue;  // any type
      r.rewrite.conditions.push_back(
          [v, types = allowed[v]](const KeqLanguage::Graph& g,
                                  std::span<const egraph::EClassId> sub) {
            return std::find(types.begin(), types.end(), g.data(sub[v]).type) != types.end();
          });
    }
  }
}

std::optional<std::vector<ir::Type>> pattern_var_types(ir::TermStore& s, const KeqRule& r) {
  // Floats and bools first (most rules); a rule over integers (its constants say i32) next.
  constexpr ir::Type kFloatOrBool[] = {ir::Type::F32, ir::Type::Bool};
  std::optional<std::vector<ir::Type>> found;
  auto take = [&](const std::vector<ir::Type>& ts, ir::TermId, ir::TermId) {
    found = ts;
    return true;
  };
  each_typing(s, r, kFloatOrBool, take);
  if (!found) each_typing(s, r, kRuleTypes, take);
  return found;
}

}  // namespace keq::rules
