// A value picked by an integer that is only known symbolically: x[t] for a loaded class index t
// (a gather, a cross-entropy target, an embedding row).
#pragma once

#include <cstdint>
#include <span>

#include "ir/term.h"

namespace keq::ir {

// The term that is terms[k] where index == values[k]: a chain of selects on (== index v), in
// the order given, whose last term is taken for every other value. Callers pass every value the
// index can take, so the last case needs no test. What every case computes alike is factored
// out of the chain: picking then computing equals computing then picking, exactly, in either
// semantics, so -log_softmax(x)[t] and -(x[t] - m - lse) become one term with one chain over
// the x[i, k]. Throws TypeError as TermStore::make does.
TermId select_by_value(TermStore& s, TermId index, std::span<const int64_t> values,
                       std::span<const TermId> terms);

}  // namespace keq::ir
