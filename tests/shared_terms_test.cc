// Shared subterms (verify/shared_terms.h): the places where two sides differ, their
// representatives up to renaming, and the sides with their shared subterms as variables.
#include "verify/shared_terms.h"

#include <gtest/gtest.h>

#include <string>

namespace keq::verify::internal {
namespace {

using ir::Op;
using ir::TermId;

class SharedTerms : public ::testing::Test {
 public:  // (member pointers to the activations are taken in the tests)
  TermId x(int i) { return store.variable("in0[" + std::to_string(i) + "]"); }
  TermId c(double v) { return store.constant(ir::Constant::of_float(v)); }
  // A large term both sides compute (an RMSNorm's statistics, say): x_i minus a row's mean square.
  TermId big(int i) {
    std::vector<TermId> squares;
    for (int k = 0; k < 64; ++k) squares.push_back(store.make(Op::Mul, {x(k), x(k)}));
    TermId mean = store.make(Op::Mul, {store.make(Op::Sum, squares), c(1.0 / 64)});
    return store.make(Op::Sub, {x(i), mean});
  }
  // The block around an activation: sum_i w_i * act(big(i)).
  TermId block(TermId (SharedTerms::*act)(TermId)) {
    std::vector<TermId> terms;
    for (int i = 0; i < 4; ++i)
      terms.push_back(store.make(
          Op::Mul, {store.variable("p0[" + std::to_string(i) + "]"), (this->*act)(big(i))}));
    return store.make(Op::Sum, terms);
  }
  TermId tanh_of(TermId v) { return store.make(Op::Tanh, {v}); }
  TermId sigmoid_form(TermId v) {  // 2 sigmoid(2v) - 1
    TermId s = store.make(Op::Sigmoid, {store.make(Op::Mul, {c(2), v})});
    return store.make(Op::Sub, {store.make(Op::Mul, {c(2), s}), c(1)});
  }
  ir::TermStore store;
};

TEST_F(SharedTerms, SidesThatDifferInOneActivationDifferAtEachOfItsPlaces) {
  TermId ref = block(&SharedTerms::tanh_of), cand = block(&SharedTerms::sigmoid_form);
  auto places = differences(store, ref, cand, 100);
  ASSERT_TRUE(places.has_value());
  ASSERT_EQ(places->size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ((*places)[i], std::pair(tanh_of(big(i)), sigmoid_form(big(i))));
  EXPECT_EQ(differences(store, ref, ref, 100)->size(), 0u);
  EXPECT_EQ(differences(store, ref, cand, 3), std::nullopt);  // past `most`
  // Sides of different ops differ at the root.
  TermId other = store.make(Op::Exp, {x(0)});
  EXPECT_EQ(*differences(store, ref, other, 100), (std::vector{std::pair{ref, other}}));
}

TEST_F(SharedTerms, PlacesEqualUpToRenamingHaveOneRepresentative) {
  auto first = representative(store, tanh_of(big(0)), sigmoid_form(big(0)));
  auto second = representative(store, tanh_of(big(3)), sigmoid_form(big(3)));
  EXPECT_EQ(first, second);
  // The shared argument is one fresh variable on both sides; the constants stay.
  EXPECT_EQ(store.str(first.first), "(tanh any#0:f32)");
  EXPECT_EQ(store.str(first.second), "(- (* 2 (sigmoid (* 2 any#0:f32))) 1)");
  // A place whose sides use their variables differently is another goal: x0 - x1 against
  // x1 - x0 does not rename to x0 - x1 against itself.
  auto swapped =
      representative(store, store.make(Op::Sub, {x(0), x(1)}), store.make(Op::Sub, {x(1), x(0)}));
  EXPECT_NE(swapped.first, swapped.second);
}

// The filters before a place's goal is made: its own size, up to what its sides share, and
// whether its sides evaluate apart (a place that differs is no lemma).
TEST_F(SharedTerms, APlaceIsSizedUpToItsSharedTermsAndFilteredAtPoints) {
  TermId t = tanh_of(big(0)), s = sigmoid_form(big(0));
  size_t whole = node_count(store, t, s), own = representative_size(store, t, s);
  EXPECT_GT(whole, 130u);                    // big(0) inside: 64 squares of 64 inputs
  EXPECT_EQ(own, 8u);                        // tanh, -, *, sigmoid, *, 2, 1 and big(0) itself
  EXPECT_FALSE(surely_differ(store, t, s));  // tanh(u) = 2 sigmoid(2u) - 1 at every point
  EXPECT_TRUE(
      surely_differ(store, store.make(Op::Sub, {x(0), x(1)}), store.make(Op::Sub, {x(1), x(0)})));
}

TEST_F(SharedTerms, TheLargestSharedSubtermsBecomeOneVariableOnBothSides) {
  TermId ref = block(&SharedTerms::tanh_of), cand = block(&SharedTerms::sigmoid_form);
  auto a = abstract_shared(store, ref, cand);
  ASSERT_TRUE(a.has_value());
  EXPECT_LT(2 * a->nodes_after, a->nodes_before + 1);
  std::string r = store.str(a->ref), k = store.str(a->cand);
  // big(0) is shared#<id> on both sides; the parameters, leaves, stay themselves.
  std::string var = "shared#" + std::to_string(big(0));
  EXPECT_NE(r.find("(tanh " + var + ")"), std::string::npos) << r;
  EXPECT_NE(k.find("(sigmoid (* 2 " + var + "))"), std::string::npos) << k;
  EXPECT_NE(r.find("p0[0]"), std::string::npos) << r;
  EXPECT_EQ(shared_term(var), big(0));
  EXPECT_EQ(shared_term("in0[0]"), std::nullopt);
  // Sides that share no subterm but leaves are left alone.
  EXPECT_EQ(abstract_shared(store, tanh_of(x(0)), sigmoid_form(x(0))), std::nullopt);
}

}  // namespace
}  // namespace keq::verify::internal
