// Argmax and argmin as chains of selects: the list of (value, index) entries an index term picks
// the first extreme of.
//
// torch.argmax and tl.argmax unroll into `idx = select(x_k beats best, k, idx)` steps; kernels
// that scan a row in blocks combine each block's argmax with a running one,
// `where(block_max > best_val, block_arg + start, best_idx)`. The two are equal on every input
// without NaN, but the e-graph has no induction over the chain and Z3 times out past about 40
// elements (the default bound puts rows at BLOCK+1 and 2*BLOCK+1). Read as lists, they are
// compared entry by entry.
#pragma once

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "ir/term.h"

namespace keq::verify {

struct ArgChain {
  bool is_max = true;
  // In the order the chain compares them; a tie goes to the earlier entry.
  std::vector<std::pair<ir::TermId, int64_t>> entries;
};

// The entries whose first extreme's index t is, when t is built of steps
// `select(new beats old, new, old)` (a beating comparison strict, as both frameworks' argmax
// and a running `>` are), integer constants, integer casts and constant offsets; nullopt
// otherwise. A step's two sides are read as lists and checked to be the extremes the comparison
// names: `old` must be the extreme of exactly the values of the list before (through max, min and
// selects that compute them). The reading assumes no value is NaN: `finite(v)` must hold for
// every non-constant value, and NaN clauses (torch's and Triton's `x != x` branches) are then
// false. Entries whose value is the extreme's identity (-inf for a max: masked lanes) never win
// against a finite value and are left out.
std::optional<ArgChain> arg_chain_of(const ir::TermStore& s, ir::TermId t,
                                     const std::function<bool(ir::TermId)>& finite);

}  // namespace keq::verify
