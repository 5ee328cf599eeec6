// keq's scalar IR: the public header of ir/.
//
// - op.h: the op table (one entry per op: name, arity, typing, evaluation in both semantics).
// - value.h: types, exact constants, concrete values, rounding into narrow float formats.
// - term.h: hash-consed terms, the s-expression term reader and printer, the concrete evaluator.
// - sexp.h: s-expressions with source positions.
// - select_by_value.h: x[t] for a symbolic integer t, as a chain of selects.
#pragma once

#include "ir/op.h"
#include "ir/select_by_value.h"
#include "ir/sexp.h"
#include "ir/term.h"
#include "ir/value.h"
