// Two programs' outputs written out exactly, to tell a later run that builds the very same terms
// (another autotune config whose blocks cover these sizes alike) from one that does not.
#pragma once

#include <cstdint>
#include <vector>

#include "frontends/triton/program.h"
#include "ir/term.h"

namespace keq::verify::internal {

// The programs' outputs (shapes, dtypes, elements) and every term they reach, in visit order:
// equal keys, equal terms (variables by name, constants by bits), whatever store built them.
// No hashing: two keys are compared word by word, so a collision cannot make a proof.
// `real` (real semantics, where adding zero changes no value, inf and NaN included): zero
// addends of + and sum are left out, and so are products of zeros, so a dot product over a
// K tile of 32 and one of 64 whose masked lanes add (* 0 0) have one key.
std::vector<uint64_t> terms_key(const ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs, bool real);

}  // namespace keq::verify::internal
