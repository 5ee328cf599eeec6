// keq's term language as an e-graph language: ops from ir's op table, leaves from a TermStore,
// and the analyses the rules read.
//
// Analyses, combined per class:
//   - constants: the exact value when the class is known to be one (folding uses the op table's
//     evaluator; in real semantics it folds only results a double holds exactly, in IEEE only
//     bit-exact ops);
//   - intervals: an enclosure of the class's values with NaN tracked, giving the facts
//     finite, nonzero, positive, negative, nonneg, nonpos and not-nan;
//   - normal forms (real semantics): an exponential polynomial over finite atoms (see
//     normal_form.h). Classes whose normal forms are equal are merged, which proves
//     reassociated reductions and online-softmax rescaling without AC rules.
// A merge of two classes with different constants trips the canary (Herbie's): a rule is
// unsound, and the run stops naming it.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "ir/interval.h"
#include "ir/ir.h"
#include "rules/normal_form.h"

namespace keq::rules {

class MagnitudeCache;  // rules/magnitude.h

using ir::Interval;  // the analysis domain lives with the op table, which gives its transfer

using egraph::EClassId;
using egraph::EGraph;
using egraph::OpCode;

// What a class's values are as fp32 numbers, for the rules that read a float's bits: a real is
// materialized as fp32 (rounded) before a bitcast sees it. Ordered: a value is also a quotient.
enum class Fp32Kind : uint8_t {
  Unknown,
  // The real quotient a / c of two fp32 values: rounding it to fp32 neither crosses nor lands
  // on a power of two (the lemma at f32_binade in keq_language.cc).
  Quotient,
  Value,  // an fp32 value (inputs, fp32 constants, extrema and casts of them, bitcasts)
};

class KeqLanguage {
 public:
  struct Data {
    std::optional<ir::Constant> constant;
    EClassId const_source = egraph::kNoClass;  // the node whose folding gave the constant
    Interval range;
    ir::Type type = ir::Type::F32;
    NfId nf = kNoNf;
    uint8_t nf_changes = 0;  // bounds how often a class's form is replaced (termination)
    // The form over wide operands taken as their classes (operand_form); kNoNf where it is nf.
    NfId anf = kNoNf;
    uint8_t anf_changes = 0;
    Fp32Kind fp32 = Fp32Kind::Unknown;
  };
  using Graph = EGraph<KeqLanguage>;
  using Condition = egraph::Rewrite<KeqLanguage>::Condition;
  static constexpr uint32_t kConstantFold = 0;  // Justification::Analysis labels
  static constexpr uint32_t kNormalForm = 1;
  // How often a class's form may be replaced. A form changes each time an atom under it meets
  // the other program's (its class merges, and the parents are made again): a GroupNorm's
  // statistics over 8 elements, each a max over 4 tanh's written two ways, changed more than 16
  // times before they met the reference's (an LLM level-2 #11 was UNKNOWN at 8 and 16). A
  // group statistic changes once per element that meets, so groups of n need n changes: 32 left
  // GroupNorm over 48 or 64 Mish outputs UNKNOWN. 128 churned random terms for minutes until
  // monomial powers were bounded (a class that is its own square made a new form per doubling).
  static constexpr uint8_t kMaxNfChanges = 128;
  // An operand whose form has more terms than this, some of them products (a dot product's,
  // not a plain sum's), enters its parent's abstract form (anf) as its class: a conv output of
  // 27 products is one atom there, so the variance of a group of them is a polynomial in n
  // atoms, not in n * 27 products (whose square passes the budget). Plain sums (a row's sum)
  // stay expanded: the normal forms meet their statistics already, and a second form for every
  // class downstream of one cost LayerNorm at 4,096 columns 20 times its time.
  static constexpr size_t kWideOperandTerms = 8;

  KeqLanguage(ir::TermStore* store, ir::Semantics sem);
  ~KeqLanguage();
  KeqLanguage(KeqLanguage&&) noexcept;

  // Normal forms are on in real semantics unless turned off (to measure what they buy).
  void set_normal_forms(bool on) { use_nf_ = on; }
  // Before any term is added: the most terms of an element whose deviation from a wide group's
  // mean gets a form (NormalForms::element_terms).
  void set_normal_form_element_terms(size_t terms);
  bool normal_forms_on() const { return use_nf_ && sem_ == ir::Semantics::Real; }
  const NormalForms& normal_forms() const { return *nfs_; }
  std::string nf_str(NfId nf) const;

  ir::Semantics semantics() const { return sem_; }
  ir::TermStore& store() const { return *store_; }
  // Values a variable (by TermStore payload) may take; unconstrained by default.
  void set_domain(uint32_t var_payload, Interval range) { domains_[var_payload] = range; }
  // A variable whose values are fp32 values (an input or parameter element of a float dtype).
  void set_fp32_value(uint32_t var_payload) { fp32_vars_.insert(var_payload); }

  // ---- the engine's interface (egraph/language.h) ----
  uint32_t op_count() const { return ir::kOpCount; }
  std::string node_str(OpCode op, uint32_t payload) const;
  Data make(const Graph& g, EClassId node, egraph::ENode n) const;
  egraph::DidMerge merge(Graph& g, EClassId cls, Data& into, Data& from);
  void modify(Graph& g, EClassId c);
  std::optional<std::string> canary() const { return canary_; }
  // Rules are written over one type (their constants are f32): a rewrite never merges classes
  // of two types (sub-self's 0 for an i32 (- a a) tripped the canary on a UE8M0 bit trick).
  bool may_union(const Data& a, const Data& b) const { return a.type == b.type; }
  // The two constant nodes whose merge tripped the canary (to explain how).
  std::pair<EClassId, EClassId> canary_nodes() const { return canary_nodes_; }

  // ---- the rule syntax (rules/rule_file.h) ----
  std::optional<OpCode> op_named(std::string_view name, size_t arity) const;
  bool op_exists(std::string_view name) const { return ir::op_by_name(name).has_value(); }
  std::optional<std::pair<OpCode, uint32_t>> leaf(std::string_view atom);
  std::optional<Condition> condition(std::string_view name, std::span<const uint32_t> vars,
                                     std::string* error) const;
  static std::vector<std::string> condition_names();
  // A condition that says where a rule fires, not why it holds (exp-sum: a class's structure):
  // the rule must hold without it, and its checkers prove it so.
  static bool fires_only(std::string_view condition) { return condition == "exp-sum"; }

 private:
  ir::TermStore* store_;
  ir::Semantics sem_;
  absl::flat_hash_map<uint32_t, Interval> domains_;
  absl::flat_hash_set<uint32_t> fp32_vars_;
  Data make_facts(const Graph& g, EClassId node, egraph::ENode n) const;
  // The form of node from its children's forms as `kid` gives them: their normal forms, or
  // their operand forms for the abstract form.
  NfId normal_form(const Graph& g, EClassId node, egraph::ENode n, const Data& d,
                   const std::function<NfId(EClassId)>& kid) const;
  // A child as an operand of an abstract form: its own abstract form, else its class when its
  // normal form is wide, else its normal form.
  NfId operand_form(const Graph& g, EClassId child) const;
  NfId abstract_form(const Graph& g, EClassId node, egraph::ENode n, const Data& d) const;
  NfId comparison_form(const Graph& g, EClassId node, egraph::ENode n, Data& d) const;
  void register_nf(Graph& g, NfId nf, EClassId cls);
  void merge_forms(EClassId cls, NfId& into, uint8_t& changes, NfId from, bool prefer, bool keep,
                   egraph::DidMerge& did);

  std::unique_ptr<NormalForms> nfs_;           // mutable through const make(): it only interns
  std::unique_ptr<MagnitudeCache> magnitude_;  // likewise: it only remembers
  bool use_nf_ = true;
  absl::flat_hash_map<NfId, EClassId> nf_class_;
  std::vector<std::pair<NfId, EClassId>> nf_pending_;  // forms seen for a class, to register
  std::optional<std::string> canary_;
  std::pair<EClassId, EClassId> canary_nodes_{egraph::kNoClass, egraph::kNoClass};
};

// Adds terms (and their subterms) to the e-graph, remembering what it added, so the outputs of
// one program, which share most of their DAG, are walked once in all.
class TermAdder {
 public:
  explicit TermAdder(KeqLanguage::Graph& g) : g_(g) {}
  EClassId add(ir::TermId t);

 private:
  KeqLanguage::Graph& g_;
  absl::flat_hash_map<ir::TermId, EClassId> done_;
};
// Adds one term; returns its class.
inline EClassId add_term(KeqLanguage::Graph& g, ir::TermId t) {
  return TermAdder(g).add(t);
}
// Converts an extracted term back into the TermStore.
ir::TermId to_term(ir::TermStore& store, const egraph::RecExpr& e);

}  // namespace keq::rules
