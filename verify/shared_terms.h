// Subterms both sides of a pair compute, taken as variables: a candidate that replaces one
// activation inside a torch model computes everything else with the reference's own terms.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/term.h"

namespace keq::verify::internal {

struct SharedAbstraction {
  ir::TermId ref, cand;     // the sides with each largest shared subterm a variable
  size_t nodes_before = 0;  // distinct nodes of both sides together
  size_t nodes_after = 0;   // the same, abstracted
};

// ref and cand with every largest subterm both of them compute (not a leaf) replaced by a
// variable of its own, "shared#<id>", the same on both sides: an equality that holds for every
// value of those variables holds for the values the subterms take (real semantics: the same
// term is the same value on both sides). None where that leaves more than half the nodes.
std::optional<SharedAbstraction> abstract_shared(ir::TermStore& store, ir::TermId ref,
                                                 ir::TermId cand);

// The term a shared subterm's variable stands for; none for other variables.
std::optional<ir::TermId> shared_term(const std::string& variable);

// Where ref and cand differ: walking both in step while their ops and arities agree, the pairs
// of subterms where they do not (each once). ref and cand are equal wherever every such pair is
// (congruence: every op is a function of its operands). None past `most` pairs.
std::optional<std::vector<std::pair<ir::TermId, ir::TermId>>> differences(
    const ir::TermStore& store, ir::TermId ref, ir::TermId cand, size_t most);

// a and b with each leaf but a constant, and each largest subterm both contain, a fresh variable
// numbered in visit order ("any#0:f32", ...), which no domain constrains: goals equal up to such
// renaming have one representative, and its proof holds whatever values those take.
std::pair<ir::TermId, ir::TermId> representative(ir::TermStore& store, ir::TermId a, ir::TermId b);
// Its size (operations and variables, up to the subterms a and b share), making no term.
size_t representative_size(const ir::TermStore& store, ir::TermId a, ir::TermId b);

// True where a and b evaluate far apart in fp32 at one of two fixed points (their variables'
// values drawn from their names): a place that differs is no lemma to prove. A filter only.
bool surely_differ(const ir::TermStore& store, ir::TermId a, ir::TermId b);

// The distinct nodes of a and b together.
size_t node_count(const ir::TermStore& store, ir::TermId a, ir::TermId b);

}  // namespace keq::verify::internal
