// What the engine needs from a language, the C++ counterpart of egg's `Language` + `Analysis`.
//
// An e-node is (op, payload, children): `op` is a small integer chosen by the language, `payload`
// names a leaf's constant or symbol in the language's own pools (0 for inner nodes), and children
// are e-class ids, any number of them. A language type L provides:
//
//   using Data = ...;                                   // the per-class analysis fact
//   uint32_t op_count() const;                          // ops are 0 .. op_count()-1
//   std::string node_str(OpCode op, uint32_t payload) const;  // op name, or the leaf's text
//   template <class G> Data make(G& g, EClassId node, ENode n);  // fact of a new node
//   template <class G> DidMerge merge(G& g, EClassId cls, Data& into, Data& from);
//                                                       // join two facts of class cls
//   template <class G> void modify(G& g, EClassId cls);  // may add nodes and union
//
// `make` sees the node's id (the id `add` returned) so that a fact can remember which node it
// came from, e.g. for explanations of constant folding.
#pragma once

#include <cstdint>
#include <span>

#include "egraph/unionfind.h"
#include "ir/hashcons.h"

namespace keq::egraph {

using OpCode = uint32_t;
using ENode = ir::NodeView;

struct DidMerge {
  bool into_changed = false;  // the class's fact changed: its parents must be revisited
  bool from_changed = false;  // the merged-in fact was not already implied
};

// Why two e-classes were merged: the edges of the explanation forest.
struct Justification {
  enum class Kind : uint8_t { Congruence, Rule, Analysis };
  Kind kind = Kind::Congruence;
  uint32_t index = 0;  // rule index for Rule; a language-defined label for Analysis
};

}  // namespace keq::egraph
