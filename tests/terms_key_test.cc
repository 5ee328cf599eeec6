// Programs' outputs written out exactly (verify/terms_key.h): the same terms built in two stores,
// in another order, have one key; terms that differ anywhere (a variable's name, the sign of a
// zero, an output's shape) do not, since equal keys stand for a proof.
#include "verify/terms_key.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keq::verify::internal {
namespace {

using ir::Op;
using ir::TermId;

// y = x0 * x1 + c, one output of shape [1]; `junk` first makes other terms, so ids differ.
struct Built {
  ir::TermStore store;
  torch::Program ref, cand;
  Built(double c, const std::string& second, bool junk, std::vector<int64_t> shape = {1}) {
    if (junk) store.make(Op::Exp, {store.variable("other")});
    TermId y = store.make(Op::Add,
                          {store.make(Op::Mul, {store.variable("in0[0]"), store.variable(second)}),
                           store.constant(ir::Constant::of_float(c))});
    for (torch::Program* p : {&ref, &cand}) {
      auto t = std::make_shared<torch::Tensor>();
      t->shape = shape;
      t->elems = {y};
      p->outputs.push_back(t);
    }
  }
  std::vector<uint64_t> key() const { return terms_key(store, {&ref, &cand}); }
};

TEST(TermsKey, IsEqualOnlyForTheSameTerms) {
  Built a(0.5, "in0[1]", false), b(0.5, "in0[1]", true);
  EXPECT_EQ(a.key(), b.key());
  EXPECT_NE(a.key(), Built(0.25, "in0[1]", false).key());
  EXPECT_NE(Built(0.0, "in0[1]", false).key(), Built(-0.0, "in0[1]", false).key());
  EXPECT_NE(a.key(), Built(0.5, "in0[2]", false).key());
  EXPECT_NE(a.key(), Built(0.5, "in1[1]", false).key());
  EXPECT_NE(a.key(), Built(0.5, "in0[1]", false, {1, 1}).key());
}

}  // namespace
}  // namespace keq::verify::internal
