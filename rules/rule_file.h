// The rule language: rewrite rules in text files, loaded at run time.
//
//   (rule NAME LHS RHS [:if COND...] :holds real|ieee)
//
//   (rule exp-add   (* (exp ?a) (exp ?b))  (exp (+ ?a ?b))  :holds real)
//   (rule sub-self  (- ?a ?a)  0  :if (finite ?a)  :holds ieee)
//
// `?x` is a pattern variable; other atoms are constants or symbols of the language; lists are
// ops. `:holds ieee` claims the rule is bit-exact in IEEE semantics (and so also over extended
// reals); `:holds real` claims it over extended reals only, and such rules are never applied
// under IEEE semantics. Every error names file:line:col.
//
// The parser is generic over a language L that also provides the rule syntax:
//   std::optional<OpCode> op_named(std::string_view name, size_t arity) const;
//   bool op_exists(std::string_view name) const;  // to tell "unknown op" from "wrong arity"
//   std::optional<std::pair<OpCode, uint32_t>> leaf(std::string_view atom);  // interns
//   std::optional<Condition> condition(std::string_view name, std::span<const uint32_t> vars,
//                                      std::string* error);
#pragma once

#include <absl/container/flat_hash_set.h>

#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "ir/ir.h"

namespace keq::rules {

using egraph::Pattern;
using egraph::Rewrite;
using ir::SExpr;
using ir::SyntaxError;

// A rule as written: its rewrite plus the semantics it claims and where it was defined.
template <class L>
struct Rule {
  Rewrite<L> rewrite;
  ir::Semantics holds = ir::Semantics::Real;
  ir::SourcePos pos;
  std::string lhs_text, rhs_text;
  // The conditions as written: a fact's name and the pattern variables it reads.
  std::vector<std::pair<std::string, std::vector<uint32_t>>> condition_specs;
};

template <class L>
class RuleParser {
 public:
  explicit RuleParser(L& lang) : lang_(lang) {}

  std::vector<Rule<L>> parse(const std::vector<SExpr>& forms) {
    std::vector<Rule<L>> out;
    for (const SExpr& f : forms) out.push_back(parse_rule(f));
    return out;
  }
  std::vector<Rule<L>> parse_file(const std::string& path) {
    return parse(ir::parse_sexpr_file(path));
  }

 private:
  Rule<L> parse_rule(const SExpr& f) {
    if (!f.is_list() || f.items.empty() || !f.items[0].is_atom("rule"))
      throw SyntaxError(f.pos, "expected (rule NAME LHS RHS ... :holds real|ieee)");
    if (f.items.size() < 4) throw SyntaxError(f.pos, "rule needs a name, a left and a right side");
    Rule<L> r;
    r.pos = f.pos;
    const SExpr& name = f.items[1];
    if (!name.is_atom()) throw SyntaxError(name.pos, "rule name must be an atom");
    if (!names_.insert(name.atom).second)
      throw SyntaxError(name.pos, "duplicate rule name '" + name.atom + "'");
    r.rewrite.name = name.atom;
    r.lhs_text = f.items[2].str();
    r.rhs_text = f.items[3].str();
    build(f.items[2], r.rewrite.lhs, nullptr);
    build(f.items[3], r.rewrite.rhs, &r.rewrite.lhs);
    bool holds_seen = false;
    for (size_t k = 4; k < f.items.size();) {
      const SExpr& key = f.items[k];
      if (key.is_atom(":holds")) {
        if (k + 1 >= f.items.size()) throw SyntaxError(key.pos, ":holds needs real or ieee");
        auto sem = ir::semantics_by_name(f.items[k + 1].is_atom() ? f.items[k + 1].atom : "");
        if (!sem) throw SyntaxError(f.items[k + 1].pos, "expected real or ieee after :holds");
        r.holds = *sem;
        holds_seen = true;
        k += 2;
      } else if (key.is_atom(":if")) {
        if (++k >= f.items.size() || !f.items[k].is_list())
          throw SyntaxError(key.pos, ":if needs at least one condition (NAME ?var...)");
        for (; k < f.items.size() && f.items[k].is_list(); ++k)
          r.rewrite.conditions.push_back(condition(f.items[k], r.rewrite.lhs, r.condition_specs));
      } else {
        throw SyntaxError(key.pos, "expected :if or :holds, got '" + key.str() + "'");
      }
    }
    if (!holds_seen)
      throw SyntaxError(f.pos, "rule '" + r.rewrite.name + "' must say :holds real or :holds ieee");
    return r;
  }

  // Appends e to p (children first). `lhs` is set for right sides: every variable must be bound.
  uint32_t build(const SExpr& e, Pattern& p, const Pattern* lhs) {
    if (e.is_atom()) {
      if (!e.atom.empty() && e.atom[0] == '?') {
        if (lhs && !lhs->var_index(e.atom))
          throw SyntaxError(e.pos, "variable " + e.atom + " on the right is not bound on the left");
        if (lhs) {  // right-side variables use the left side's numbering
          p.nodes.push_back(Pattern::Node{true, *lhs->var_index(e.atom), 0, 0, {}});
          return static_cast<uint32_t>(p.nodes.size() - 1);
        }
        return p.var(e.atom);
      }
      auto leaf = lang_.leaf(e.atom);
      if (!leaf) throw SyntaxError(e.pos, "'" + e.atom + "' is not a constant or symbol");
      return p.node(leaf->first, leaf->second);
    }
    if (e.items.empty() || !e.items[0].is_atom())
      throw SyntaxError(e.pos, "expected (op operands...)");
    const std::string& opname = e.items[0].atom;
    auto op = lang_.op_named(opname, e.items.size() - 1);
    if (!op) {
      if (!lang_.op_exists(opname))
        throw SyntaxError(e.items[0].pos, "unknown op '" + opname + "'");
      throw SyntaxError(e.pos, "op '" + opname + "' does not take " +
                                   std::to_string(e.items.size() - 1) + " operands");
    }
    std::vector<uint32_t> kids;
    for (size_t k = 1; k < e.items.size(); ++k) kids.push_back(build(e.items[k], p, lhs));
    return p.node(*op, 0, std::move(kids));
  }

  typename Rewrite<L>::Condition condition(
      const SExpr& c, const Pattern& lhs,
      std::vector<std::pair<std::string, std::vector<uint32_t>>>& specs) {
    if (c.items.empty() || !c.items[0].is_atom())
      throw SyntaxError(c.pos, "expected (NAME ?var...)");
    std::vector<uint32_t> vars;
    for (size_t k = 1; k < c.items.size(); ++k) {
      const SExpr& a = c.items[k];
      auto v = a.is_atom() ? lhs.var_index(a.atom) : std::nullopt;
      if (!v) throw SyntaxError(a.pos, "condition operand must be a variable of the left side");
      vars.push_back(*v);
    }
    std::string err;
    specs.push_back({c.items[0].atom, vars});
    auto cond = lang_.condition(c.items[0].atom, vars, &err);
    if (!cond) throw SyntaxError(c.items[0].pos, err);
    return *cond;
  }

  L& lang_;
  absl::flat_hash_set<std::string> names_;
};

// The rewrites that may run under a semantics: IEEE drops rules that hold only over the reals.
template <class L>
std::vector<Rewrite<L>> rewrites_for(const std::vector<Rule<L>>& rules, ir::Semantics sem) {
  std::vector<Rewrite<L>> out;
  for (const Rule<L>& r : rules)
    if (sem == ir::Semantics::Real || r.holds == ir::Semantics::Ieee) out.push_back(r.rewrite);
  return out;
}

}  // namespace keq::rules
