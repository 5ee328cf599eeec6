// A minimal language for engine tests: leaves a0..a9 (payload), unary g, binary f, no analysis.
#pragma once

#include <string>

#include "egraph/egraph.h"

namespace keq::test {

enum TinyOp : egraph::OpCode { kLeaf, kG, kF, kTinyOps };

struct TinyLang {
  struct Data {};
  uint32_t op_count() const { return kTinyOps; }
  std::string node_str(egraph::OpCode op, uint32_t payload) const {
    if (op == kLeaf) return "a" + std::to_string(payload);
    return op == kG ? "g" : "f";
  }
  template <class G>
  Data make(G&, egraph::EClassId, egraph::ENode) const {
    return {};
  }
  template <class G>
  egraph::DidMerge merge(G&, egraph::EClassId, Data&, Data&) {
    return {};
  }
  template <class G>
  void modify(G&, egraph::EClassId) {}
};

}  // namespace keq::test
