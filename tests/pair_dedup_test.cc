// Pair dedup (verify/pair_key.h): pairs equal up to renaming share a key, others never do, and
// a row's outputs that share one sum are keyed without walking the sum once per output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "verify/pair_key.h"

namespace keq::verify::internal {
namespace {

using ir::Op;

class PairDedup : public ::testing::Test {
 protected:
  TermId x(int row, int col) {
    return store.variable("in0[" + std::to_string(row) + "," + std::to_string(col) + "]");
  }
  Domains domains{{"in0", Domain{}}};
  ir::TermStore store;
};

// Softmax rows: y_i = exp(x_i - m) / S, S the sum of the exps over the row (which contains the
// numerator of y_i), against exp(x_i - m) * recip(S). Row 1 is row 0 renamed, output by output;
// within a row, outputs are different pairs.
TEST_F(PairDedup, RowsOfASoftmaxShareKeysOutputByOutputAndNotAcrossOutputs) {
  constexpr int kRows = 2, kWidth = 5;
  std::vector<Pair> pairs;
  for (int r = 0; r < kRows; ++r) {
    std::vector<TermId> row, exps;
    for (int c = 0; c < kWidth; ++c) row.push_back(x(r, c));
    TermId m = store.make(Op::AMax, row);
    for (TermId v : row) exps.push_back(store.make(Op::Exp, {store.make(Op::Sub, {v, m})}));
    TermId sum = store.make(Op::Sum, exps);
    for (int c = 0; c < kWidth; ++c)
      pairs.push_back({store.make(Op::Div, {exps[c], sum}),
                       store.make(Op::Mul, {exps[c], store.make(Op::Recip, {sum})}), 0,
                       static_cast<size_t>(r * kWidth + c)});
  }
  PairKeys key(store, domains, pairs);
  std::vector<std::vector<uint64_t>> keys;
  for (const Pair& p : pairs) keys.push_back(key(p.ref, p.cand));
  for (int c = 0; c < kWidth; ++c) {
    EXPECT_EQ(keys[c], keys[kWidth + c]) << "output " << c;
    for (int d = 0; d < c; ++d) EXPECT_NE(keys[c], keys[d]) << "outputs " << c << ", " << d;
  }
}

// x0 * (x0 + x1) and x2 * (x0 + x1) reach the same shared sum; only the first multiplies by one
// of its own terms, so they are not equal up to renaming. x3 * (x3 + x4) is the first renamed.
TEST_F(PairDedup, APrivateVariableThatOccursInTheSharedTermIsNotAFreshOne) {
  TermId s01 = store.make(Op::Add, {x(0, 0), x(0, 1)});
  TermId s34 = store.make(Op::Add, {x(0, 3), x(0, 4)});
  auto pair = [&](TermId v, TermId s, size_t e) {
    return Pair{store.make(Op::Mul, {v, s}), store.make(Op::Mul, {s, v}), 0, e};
  };
  std::vector<Pair> pairs = {pair(x(0, 0), s01, 0), pair(x(0, 2), s01, 1), pair(x(0, 3), s34, 2),
                             pair(x(0, 4), s34, 3)};
  PairKeys key(store, domains, pairs);
  auto k0 = key(pairs[0].ref, pairs[0].cand), k1 = key(pairs[1].ref, pairs[1].cand);
  auto k2 = key(pairs[2].ref, pairs[2].cand), k3 = key(pairs[3].ref, pairs[3].cand);
  EXPECT_NE(k0, k1);
  EXPECT_EQ(k0, k2);
  EXPECT_NE(k2, k3);  // x3 is the sum's first term, x4 its second: not the same pair
}

// A variable's domain is part of the key: the same shape over another input's range differs.
TEST_F(PairDedup, VariablesOfDifferentDomainsAreNotRenamedIntoEachOther) {
  domains["in1"] = Domain{0, 1, false};
  TermId a = x(0, 0), b = store.variable("in1[0,0]");
  std::vector<Pair> pairs = {{store.make(Op::Exp, {a}), store.make(Op::Exp2, {a}), 0, 0},
                             {store.make(Op::Exp, {b}), store.make(Op::Exp2, {b}), 0, 1}};
  PairKeys key(store, domains, pairs);
  EXPECT_NE(key(pairs[0].ref, pairs[0].cand), key(pairs[1].ref, pairs[1].cand));
}

// Shared terms inside shared terms (a GroupNorm statistic per group over a BatchNorm statistic
// over the batch) are keyed once each, in terms of the shared terms below them: a variable they
// take from below is the lower term's, not a fresh one. G0 = (x10 + x00) * B and G2 = (x14 + x00)
// * B are one renamed (x10 to x14); G1 = (x12 + x01) * B is not, as B holds x00 and x01 in
// different places.
TEST_F(PairDedup, SharedTermsInsideSharedTermsKeepTheVariablesTheyTakeFromBelow) {
  std::vector<TermId> batch;
  for (int c = 0; c < 4; ++c) batch.push_back(x(0, c));
  TermId b = store.make(Op::Sum, batch);
  std::vector<Pair> pairs;
  for (auto [own, below] : {std::pair{2 * 0, 0}, {2 * 1, 1}, {2 * 2, 0}}) {
    TermId g = store.make(Op::Mul, {store.make(Op::Add, {x(1, own), x(0, below)}), b});
    TermId scaled = store.make(Op::Add, {store.make(Op::Mul, {x(1, own), g}), b});
    TermId plain = store.make(Op::Add, {g, b});
    pairs.push_back({scaled, scaled, 0, pairs.size()});
    pairs.push_back({plain, plain, 0, pairs.size()});
  }
  PairKeys key(store, domains, pairs);
  std::vector<std::vector<uint64_t>> keys;
  for (const Pair& p : pairs) keys.push_back(key(p.ref, p.cand));
  EXPECT_EQ(keys[0], keys[4]);
  EXPECT_EQ(keys[1], keys[5]);
  EXPECT_NE(keys[0], keys[2]);
  EXPECT_NE(keys[1], keys[3]);
  EXPECT_NE(keys[0], keys[1]);
}

// Wide shared terms (a row's sum over 20 variables, past kSegmentVars) are keyed as segments of
// the tuple, not variable by variable. An output of row r divides x[r,c] by the reference's
// sum S_r and by the candidate's T_r over the same row (the same variables in the same order,
// or reversed), or by the candidate's sum over the next row. Rows renamed share keys; a sum
// over another row, or over the row in another order, is another pair.
TEST_F(PairDedup, WideSharedTermsAreKeyedAsSegmentsAndStillTellRowsApart) {
  constexpr int kRows = 3, kWidth = 20;
  std::vector<TermId> s, t, reversed;
  for (int r = 0; r < kRows; ++r) {
    std::vector<TermId> row;
    for (int c = 0; c < kWidth; ++c) row.push_back(x(r, c));
    s.push_back(store.make(Op::Sum, row));
    TermId chain = row[0];  // the same variables, first met in the same order
    for (int c = 1; c < kWidth; ++c) chain = store.make(Op::Add, {chain, row[c]});
    t.push_back(chain);
    reversed.push_back(store.make(Op::Sum, std::vector<TermId>(row.rbegin(), row.rend())));
  }
  std::vector<Pair> pairs;
  auto add = [&](int r, int c, TermId ref_sum, TermId cand_sum) {
    pairs.push_back({store.make(Op::Div, {x(r, c), ref_sum}),
                     store.make(Op::Div, {x(r, c), cand_sum}), 0, pairs.size()});
    return pairs.size() - 1;
  };
  std::vector<size_t> same[kRows], next_row, backwards[kRows];
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kWidth; ++c) {
      same[r].push_back(add(r, c, s[r], t[r]));
      backwards[r].push_back(add(r, c, s[r], reversed[r]));
    }
  for (int c = 0; c < kWidth; ++c) next_row.push_back(add(0, c, s[0], t[1]));
  PairKeys key(store, domains, pairs);
  std::vector<std::vector<uint64_t>> keys;
  for (const Pair& p : pairs) keys.push_back(key(p.ref, p.cand));
  for (int c = 0; c < kWidth; ++c) {
    EXPECT_EQ(keys[same[0][c]], keys[same[2][c]]) << "column " << c;
    EXPECT_EQ(keys[backwards[0][c]], keys[backwards[1][c]]) << "column " << c;
    EXPECT_NE(keys[same[0][c]], keys[next_row[c]]) << "column " << c;
    EXPECT_NE(keys[same[0][c]], keys[backwards[0][c]]) << "column " << c;
    EXPECT_NE(keys[same[0][c]], keys[same[0][(c + 1) % kWidth]]) << "column " << c;
  }
}

// Wide shared terms over overlapping variables (x[0..19] and x[10..29]) are listed variable by
// variable: the overlap is part of the key, so a pair whose second sum overlaps the first by
// 15 variables instead of 10 is another pair; the same overlap 100 columns on is the same.
TEST_F(PairDedup, OverlappingWideSharedTermsKeepTheirOverlapInTheKey) {
  auto span = [&](int from, int n) {
    std::vector<TermId> v;
    for (int c = from; c < from + n; ++c) v.push_back(x(0, c));
    return store.make(Op::Sum, v);
  };
  std::vector<Pair> pairs;
  auto add_all = [&](int base, int shift) {  // one pair per column of the first sum
    TermId u = span(base, 20), v = span(base + shift, 20);
    size_t first = pairs.size();
    for (int c = 0; c < 20; ++c)
      pairs.push_back({store.make(Op::Div, {x(0, base + c), u}),
                       store.make(Op::Div, {x(0, base + c), v}), 0, pairs.size()});
    return first;
  };
  size_t a = add_all(0, 10), b = add_all(100, 10), c = add_all(200, 5);
  PairKeys key(store, domains, pairs);
  for (size_t i = 0; i < 20; ++i) {
    auto ka = key(pairs[a + i].ref, pairs[a + i].cand);
    EXPECT_EQ(ka, key(pairs[b + i].ref, pairs[b + i].cand)) << i;
    EXPECT_NE(ka, key(pairs[c + i].ref, pairs[c + i].cand)) << i;
  }
}

// A narrow shared term met before a wide one (exp(x_k), then the sum over x[0..19]): whether
// x_k is one of the sum's variables is part of the key, so the sum is no fresh segment then.
TEST_F(PairDedup, AWideSharedTermHoldingAnEarlierTermsVariableIsNoFreshSegment) {
  std::vector<TermId> row;
  for (int c = 0; c < 20; ++c) row.push_back(x(0, c));
  TermId sum = store.make(Op::Sum, row);
  std::vector<Pair> pairs;
  auto add_all = [&](int k) {  // exp(x_k) is shared: every pair of the group reaches it
    TermId e = store.make(Op::Exp, {x(0, k)});
    size_t first = pairs.size();
    for (int c = 0; c < 20; ++c) {
      TermId t = store.make(Op::Div, {store.make(Op::Add, {e, x(0, c)}), sum});
      pairs.push_back({t, t, 0, pairs.size()});
    }
    return first;
  };
  size_t inside = add_all(3), outside = add_all(40);
  PairKeys key(store, domains, pairs);
  for (size_t i = 0; i < 20; ++i)
    EXPECT_NE(key(pairs[inside + i].ref, pairs[inside + i].cand),
              key(pairs[outside + i].ref, pairs[outside + i].cand))
        << i;
}

// A DenseNet block in small: output i of a row sums weighted features h_j = x_j - sum(x) over
// a window from j = i, each feature shared by several outputs and holding all of the row's
// variables, so keying one output lists the row's variables once per feature of its window.
// Row 1 is row 0 renamed. Unbounded, each output of row 1 merges with row 0's; within a budget
// that runs out, the pairs past it are kept unmerged, in order, and none is lost.
TEST_F(PairDedup, KeyingPastItsBudgetKeepsTheRestOfThePairsUnmerged) {
  constexpr int kWidth = 64, kWindow = 32;
  std::vector<Pair> pairs;
  for (int r = 0; r < 2; ++r) {
    std::vector<TermId> row, features;
    for (int c = 0; c < kWidth; ++c) row.push_back(x(r, c));
    TermId sum = store.make(Op::Sum, row);
    for (TermId v : row) features.push_back(store.make(Op::Sub, {v, sum}));
    for (int i = 0; i < kWidth; ++i) {
      std::vector<TermId> ref, cand;
      for (int j = i; j < i + kWindow; ++j) {
        TermId w = store.variable("in1[" + std::to_string(r) + "," + std::to_string(i) + "," +
                                  std::to_string(j) + "]");
        ref.push_back(store.make(Op::Mul, {w, features[j % kWidth]}));
        cand.push_back(store.make(Op::Mul, {features[j % kWidth], w}));
      }
      pairs.push_back({store.make(Op::Sum, ref), store.make(Op::Sum, cand), 0, pairs.size()});
    }
  }
  domains.emplace("in1", Domain{});
  size_t keyed = 0;
  uint64_t work = 0;
  std::vector<Pair> all = distinct_pairs(store, domains, pairs, ~uint64_t{0}, keyed, work);
  EXPECT_EQ(keyed, pairs.size());
  EXPECT_EQ(all.size(), static_cast<size_t>(kWidth));
  // Each pair's key lists the row's variables once per feature: the work outgrows the terms.
  EXPECT_GT(work, 8 * store.size());
  uint64_t budget = work / 4, spent = 0;
  std::vector<Pair> some = distinct_pairs(store, domains, pairs, budget, keyed, spent);
  ASSERT_LT(keyed, pairs.size());
  EXPECT_GT(keyed, 0u);
  EXPECT_GT(spent, budget);
  ASSERT_EQ(some.size(), std::min(keyed, size_t{kWidth}) + (pairs.size() - keyed));
  for (size_t k = 0; k < pairs.size() - keyed; ++k)
    EXPECT_EQ(some[some.size() - 1 - k].element, pairs[pairs.size() - 1 - k].element) << k;
}

}  // namespace
}  // namespace keq::verify::internal
