// egg's symbolic-math language, for the reference workload (shared/bench/egg-math-workload.md).
//
// It lives here, not in the core: the engine is generic, and this is one more language for it,
// with egg's constant-folding analysis and egg's conditions. Note `is-not-zero`: egg treats a
// class with no known constant as nonzero. keq's own `nonzero` means proven nonzero; this
// language keeps egg's meaning under egg's name.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "ir/ir.h"

namespace keq::bench {

using egraph::DidMerge;
using egraph::EClassId;
using egraph::EGraph;
using egraph::ENode;
using egraph::OpCode;

enum MathOp : OpCode {
  kNum,
  kSym,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kD,
  kI,
  kLn,
  kSqrt,
  kSin,
  kCos,
  kMathOps
};
inline constexpr const char* kMathNames[] = {"num", "sym", "+",  "-",    "*",   "/",  "pow",
                                             "d",   "i",   "ln", "sqrt", "sin", "cos"};
inline constexpr int kMathArity[] = {0, 0, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1};

// Constants and symbols, shared by the rules and every e-graph built from them.
struct MathPools {
  std::vector<double> nums;
  absl::flat_hash_map<uint64_t, uint32_t> num_index;
  std::vector<std::string> syms;
  absl::flat_hash_map<std::string, uint32_t> sym_index;

  uint32_t num(double v) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    auto [it, ins] = num_index.try_emplace(b, static_cast<uint32_t>(nums.size()));
    if (ins) nums.push_back(v);
    return it->second;
  }
  uint32_t sym(const std::string& s) {
    auto [it, ins] = sym_index.try_emplace(s, static_cast<uint32_t>(syms.size()));
    if (ins) syms.push_back(s);
    return it->second;
  }
};

class MathLang {
 public:
  struct Data {
    std::optional<double> constant;
  };
  using Graph = EGraph<MathLang>;
  using Condition = egraph::Rewrite<MathLang>::Condition;

  explicit MathLang(std::shared_ptr<MathPools> pools, bool analysis = true)
      : pools_(std::move(pools)), analysis_(analysis) {}

  uint32_t op_count() const { return kMathOps; }
  std::string node_str(OpCode op, uint32_t payload) const {
    if (op == kNum) return ir::Constant::of_float(pools_->nums[payload]).str();
    if (op == kSym) return pools_->syms[payload];
    return kMathNames[op];
  }

  template <class G>
  Data make(G& g, EClassId, ENode n) const {
    if (!analysis_) return {};
    if (n.op == kNum) return {pools_->nums[n.payload]};
    if (n.op < kAdd || n.op > kDiv) return {};
    auto a = g.data(n.children[0]).constant, b = g.data(n.children[1]).constant;
    if (!a || !b) return {};
    switch (n.op) {
      case kAdd:
        return {*a + *b};
      case kSub:
        return {*a - *b};
      case kMul:
        return {*a * *b};
      default:
        return *b == 0 ? Data{} : Data{*a / *b};  // never fold a division by zero
    }
  }
  template <class G>
  DidMerge merge(G&, EClassId, Data& into, Data& from) {
    if (!into.constant && from.constant) {
      into.constant = from.constant;
      return {true, false};
    }
    if (into.constant && !from.constant) return {false, true};
    if (into.constant && *into.constant != *from.constant && !canary_)
      canary_ = "merged constants " + ir::Constant::of_float(*into.constant).str() + " and " +
                ir::Constant::of_float(*from.constant).str();
    return {};
  }
  // A constant class gets its constant leaf, and its other nodes leave e-matching (as in egg).
  template <class G>
  void modify(G& g, EClassId c) {
    auto k = g.data(c).constant;
    if (!k) return;
    EClassId leaf = g.add(kNum, pools_->num(*k), {});
    g.union_classes(c, leaf, egraph::Justification{egraph::Justification::Kind::Analysis, 0});
    g.prune_non_leaves(c);
  }
  std::optional<std::string> canary() const { return canary_; }

  // ---- rule syntax ----
  std::optional<OpCode> op_named(std::string_view name, size_t arity) const {
    for (OpCode o = kAdd; o < kMathOps; ++o)
      if (name == kMathNames[o] && static_cast<size_t>(kMathArity[o]) == arity) return o;
    return std::nullopt;
  }
  bool op_exists(std::string_view name) const {
    for (OpCode o = kAdd; o < kMathOps; ++o)
      if (name == kMathNames[o]) return true;
    return false;
  }
  std::optional<std::pair<OpCode, uint32_t>> leaf(std::string_view atom) {
    if (auto c = ir::parse_constant(atom); c && c->type == ir::Type::F32)
      return std::pair<OpCode, uint32_t>{kNum, pools_->num(c->f)};
    return std::pair<OpCode, uint32_t>{kSym, pools_->sym(std::string(atom))};
  }
  std::optional<Condition> condition(std::string_view name, std::span<const uint32_t> vars,
                                     std::string* error) const {
    auto arity = [&](size_t n) {
      if (vars.size() == n) return true;
      *error = std::string(name) + " takes " + std::to_string(n) + " variable(s)";
      return false;
    };
    if (name == "is-not-zero" && arity(1)) {
      uint32_t v = vars[0];
      return [v](const Graph& g, std::span<const EClassId> s) {
        auto k = g.data(s[v]).constant;
        return !k || *k != 0;  // egg's meaning: unknown counts as nonzero
      };
    }
    if (name == "is-sym" && arity(1)) {
      uint32_t v = vars[0];
      return [v](const Graph& g, std::span<const EClassId> s) { return has_sym(g, s[v]); };
    }
    if (name == "is-const" && arity(1)) {
      uint32_t v = vars[0];
      return [v](const Graph& g, std::span<const EClassId> s) {
        return g.data(s[v]).constant.has_value();
      };
    }
    if (name == "is-const-or-distinct-var" && arity(2)) {
      uint32_t v = vars[0], w = vars[1];
      return [v, w](const Graph& g, std::span<const EClassId> s) {
        return g.find(s[v]) != g.find(s[w]) &&
               (g.data(s[v]).constant.has_value() || has_sym(g, s[v]));
      };
    }
    if (error->empty()) *error = "unknown condition '" + std::string(name) + "'";
    return std::nullopt;
  }

  // Parses a term of this language.
  egraph::RecExpr term(const ir::SExpr& e) {
    egraph::RecExpr out;
    build(e, out);
    return out;
  }

 private:
  static bool has_sym(const Graph& g, EClassId c) {
    bool found = false;
    g.for_each_node(c, [&](EClassId n) { found = found || g.view(n).op == kSym; });
    return found;
  }
  uint32_t build(const ir::SExpr& e, egraph::RecExpr& out) {
    if (e.is_atom()) {
      auto l = leaf(e.atom);
      return out.push(l->first, l->second);
    }
    auto op = op_named(e.items.at(0).atom, e.items.size() - 1);
    if (!op) throw ir::SyntaxError(e.pos, "not a math term: " + e.str());
    std::vector<uint32_t> kids;
    for (size_t k = 1; k < e.items.size(); ++k) kids.push_back(build(e.items[k], out));
    return out.push(*op, 0, std::move(kids));
  }

  std::shared_ptr<MathPools> pools_;
  bool analysis_;
  std::optional<std::string> canary_;
};

}  // namespace keq::bench
