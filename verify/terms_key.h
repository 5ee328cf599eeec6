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
std::vector<uint64_t> terms_key(const ir::TermStore& store,
                                const std::vector<const torch::Program*>& programs);

}  // namespace keq::verify::internal
