// Two programs' outputs written out exactly, to tell a later run that builds the very same terms
// (another autotune config whose blocks cover these sizes alike) from one that does not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "frontends/triton/program.h"
#include "ir/term.h"

namespace keq::verify::internal {

// The programs' outputs (shapes, dtypes, elements) and every term they reach, in visit order:
// equal keys, equal terms (variables by name, constants by bits), whatever store built them.
// No hashing: two keys are compared word by word, so a collision cannot make a proof.
// `real` (real semantics): the terms keyed are without_zero_addends's, so a dot product over a
// K tile of 32 and one of 64 whose masked lanes add (* 0 0) have one key.
std::vector<uint64_t> terms_key(ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs, bool real);

// c over kid(operand) for its operands, without +0 addends: a + or sum leaves them out (one
// operand left reads as it, none as zero) and a product of zeros is zero. Real semantics only,
// where x + 0 = x (inf and NaN too): a dot product's masked lanes add (* 0 0), which a torch
// matmul does not. Leaves are themselves.
template <class Kid>
ir::TermId without_zero_addends(ir::TermStore& s, ir::TermId c, const Kid& kid) {
  if (s.children(c).empty()) return c;
  const ir::Type type = s.type(c);
  ir::Constant zero;
  zero.type = type;
  auto is_zero = [&](ir::TermId t) {
    return s.op(t) == ir::Op::Const && s.type(t) == type && s.constant_of(t) == zero;
  };
  std::vector<ir::TermId> kids;
  bool same = true;  // nothing below changed: c itself, without interning it again
  for (ir::TermId k : s.children(c)) {
    kids.push_back(kid(k));
    same = same && kids.back() == k;
  }
  const ir::Op op = s.op(c);
  if (op == ir::Op::Mul && std::ranges::all_of(kids, is_zero)) return s.constant(zero);
  if (op != ir::Op::Add && op != ir::Op::Sum) return same ? c : s.make(op, kids);
  const size_t before = kids.size();
  std::erase_if(kids, is_zero);
  if (kids.empty()) return s.constant(zero);
  if (kids.size() == 1 && s.type(kids[0]) == type) return kids[0];
  return same && kids.size() == before ? c : s.make(op, kids);
}

}  // namespace keq::verify::internal
