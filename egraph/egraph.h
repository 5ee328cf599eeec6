// keq's e-graph engine: the public header of egraph/.
//
// Generic over a language (see language.h), like egg: keq's op table is one language, the egg
// benchmark's symbolic math another. The pieces, one file per concept:
//   unionfind.h   union-find over class ids
//   egraph_core.h e-nodes, e-classes, hash-cons, union, deferred rebuild, explanation forest
//   pattern.h     patterns, e-matching, instantiation
//   rewrite.h     conditional rewrites
//   runner.h      the saturation loop, limits, backoff scheduler, canary stop
//   extract.h     cheapest-term extraction
//   explain.h     flat explanations from the explanation forest
//
// Example (tests/egraph_invariants_test.cc and tests/ematch_test.cc build graphs this way):
//   EGraph<MyLang> g(MyLang{}, /*explanations=*/true);
//   EClassId a = g.add(kX, 0, {});  ...
//   RunReport r = Runner<MyLang>().run(g, rules);
#pragma once

#include "egraph/egraph_core.h"
#include "egraph/explain.h"
#include "egraph/extract.h"
#include "egraph/language.h"
#include "egraph/pattern.h"
#include "egraph/rewrite.h"
#include "egraph/runner.h"
#include "egraph/unionfind.h"
