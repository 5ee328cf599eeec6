// Programs' outputs written out exactly (verify/terms_key.h): the same terms built in two stores,
// in another order, have one key; terms that differ anywhere (a variable's name, the sign of a
// zero, an output's shape) do not, since equal keys stand for a proof. In real semantics zero
// addends are left out (a dot product's masked lanes), and nothing else.
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
  std::vector<uint64_t> key() { return terms_key(store, {&ref, &cand}, false); }
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

// One output element: x0 * x1 summed with `zeros` masked lanes (* 0 0), plus a start of `start`.
std::vector<uint64_t> dot_key(int zeros, double start, bool real) {
  ir::TermStore store;
  std::vector<TermId> lanes = {
      store.make(Op::Mul, {store.variable("in0[0]"), store.variable("in1[0]")})};
  TermId zero = store.constant(ir::Constant::of_float(0));
  for (int k = 0; k < zeros; ++k) lanes.push_back(store.make(Op::Mul, {zero, zero}));
  TermId y = store.make(
      Op::Add, {store.constant(ir::Constant::of_float(start)), store.make(Op::Sum, lanes)});
  torch::Program p;
  auto t = std::make_shared<torch::Tensor>();
  t->shape = {1};
  t->elems = {y};
  p.outputs.push_back(t);
  return terms_key(store, {&p}, real);
}

TEST(TermsKey, InRealSemanticsZeroAddendsAreLeftOut) {
  EXPECT_EQ(dot_key(31, 0.0, true), dot_key(63, 0.0, true));
  EXPECT_EQ(dot_key(31, 0.0, true), dot_key(0, 0.0, true));
  EXPECT_NE(dot_key(31, 0.0, false), dot_key(63, 0.0, false));  // IEEE: -0 + 0 is +0
  EXPECT_NE(dot_key(31, 0.0, true), dot_key(31, -0.0, true));   // only +0 is left out
  EXPECT_NE(dot_key(31, 0.0, true), dot_key(31, 1.0, true));
}

}  // namespace
}  // namespace keq::verify::internal
