// Hash-consed scalar terms: the DAG both frontends produce and the e-graph consumes.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ir/hashcons.h"
#include "ir/op.h"
#include "ir/sexp.h"
#include "ir/value.h"

namespace keq::ir {

using TermId = uint32_t;

// Variables name tensor elements (`x[2,0]`) or scalars; each has a type.
struct Variable {
  std::string name;
  Type type;
};

class TermStore {
 public:
  TermStore();
  TermStore(const TermStore&) = delete;
  TermStore& operator=(const TermStore&) = delete;

  TermId constant(const Constant& c);
  TermId variable(std::string_view name, Type type = Type::F32);
  // Builds op(children); throws TypeError when the operands do not type-check.
  TermId make(Op op, std::span<const TermId> children);
  TermId make(Op op, std::initializer_list<TermId> children) {
    return make(op, std::span<const TermId>(children.begin(), children.size()));
  }
  // make(op, {a[k], b[k]}) for every k, appended to out: a matmul's products are millions of
  // independent lookups in a table far larger than the cache, so each is prefetched a few
  // lookups ahead of its use and their misses overlap.
  void make_each(Op op, std::span<const TermId> a, std::span<const TermId> b,
                 std::vector<TermId>& out);

  Op op(TermId t) const { return static_cast<Op>(nodes_[t].op); }
  Type type(TermId t) const { return nodes_[t].type; }
  std::span<const TermId> children(TermId t) const {
    return {children_.data() + nodes_[t].child_begin, nodes_[t].arity};
  }
  const Constant& constant_of(TermId t) const { return constants_[nodes_[t].payload]; }
  const Variable& variable_of(TermId t) const { return variables_[nodes_[t].payload]; }
  uint32_t payload(TermId t) const { return nodes_[t].payload; }
  // Leaves by payload (as e-graph nodes carry them).
  const Constant& constant_at(uint32_t payload) const { return constants_[payload]; }
  const Variable& variable_at(uint32_t payload) const { return variables_[payload]; }
  size_t size() const { return nodes_.size(); }
  NodeView view(TermId t) const {
    return {static_cast<uint32_t>(nodes_[t].op), nodes_[t].payload, children(t)};
  }

  std::string str(TermId t) const;  // s-expression; shared subterms are printed in full
  // The same, cut off after about max_chars characters (terms with sharing can be huge).
  std::string str(TermId t, size_t max_chars) const;

 private:
  struct Node {
    uint16_t op;
    Type type;
    uint32_t payload;
    uint32_t child_begin;
    uint32_t arity;
  };
  Type checked_type(TermId t) const;
  TermId intern(Op op, Type type, uint32_t payload, std::span<const TermId> children);
  TermId intern_hashed(Type type, const NodeView& v, uint32_t hash);

  std::vector<Node> nodes_;
  std::vector<TermId> children_;
  std::vector<Constant> constants_;
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> constant_index_;  // key_bits -> candidates
  std::vector<Variable> variables_;
  absl::flat_hash_map<std::string, uint32_t> variable_index_;
  HashCons<TermStore> memo_;
};

// Parses an atom as a constant: integers and decimals (`2`, `-1`, `1e-5`, `0x7F`), `inf`,
// `-inf`, `nan`, `true`, `false`; a `:i32`/`:i64` suffix makes an integer constant.
std::optional<Constant> parse_constant(std::string_view atom);

// Reads a term from an s-expression. Atoms that are not constants are f32 variables unless
// `var_types` says otherwise (`n` -> i32), or they carry a `:type` suffix (`n:i32`).
// Throws SyntaxError with the position of the offending sub-expression.
TermId read_term(TermStore& store, const SExpr& e,
                 const absl::flat_hash_map<std::string, Type>& var_types = {});

// Concrete evaluation of a term given values for its variables. Throws EvalError, naming the
// variable when one has no value. Real evaluation also throws when an intermediate value leaves
// MPFR's exponent range (about 2^±1e9), where it could no longer be trusted.
using IeeeEnv = std::function<std::optional<IeeeValue>(const Variable&)>;
using RealEnv = std::function<std::optional<RealValue>(const Variable&)>;
IeeeValue evaluate_ieee(const TermStore& store, TermId t, const IeeeEnv& env);
RealValue evaluate_real(const TermStore& store, TermId t, const RealEnv& env);
// The same, reusing and extending `memo`: the values of terms at one point, which every call
// with that memo must give each variable. Many pairs share most of their terms (the sum of a
// softmax row), so evaluating them at one point costs their union, not the sum of their sizes.
// On EvalError the memo is cleared (a value past the exponent range must not be reused).
// The environment is asked by the variable's term.
using RealMemo = absl::flat_hash_map<TermId, RealValue>;
using IeeeMemo = absl::flat_hash_map<TermId, IeeeValue>;
using IeeeTermEnv = std::function<std::optional<IeeeValue>(TermId)>;
IeeeValue evaluate_ieee(const TermStore& store, TermId t, const IeeeTermEnv& env, IeeeMemo& memo);
using RealTermEnv = std::function<std::optional<RealValue>(TermId)>;
RealValue evaluate_real(const TermStore& store, TermId t, const RealTermEnv& env, RealMemo& memo);

}  // namespace keq::ir
