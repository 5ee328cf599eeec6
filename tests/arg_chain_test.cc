// Argmax and argmin chains (verify/arg_chain.h): torch's unrolled argmax and a kernel's running
// argmax over blocks read as the same entries; chains that pick differently, or that are not
// running extremes at all, do not.
#include "verify/arg_chain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace keq::verify {
namespace {

using ir::Op;
using ir::TermId;

class ArgChainTest : public ::testing::Test {
 protected:
  TermId x(int k) { return store.variable("in0[" + std::to_string(k) + "]"); }
  TermId f(double v) { return store.constant(ir::Constant::of_float(v)); }
  TermId i(ir::Type t, int64_t v) { return store.constant(ir::Constant::of_int(t, v)); }
  std::vector<TermId> row(int n) {
    std::vector<TermId> v;
    for (int k = 0; k < n; ++k) v.push_back(x(k));
    return v;
  }
  // torch.argmax as keq's torch frontend unrolls it: NaN counts as the extreme.
  TermId torch_argmax(const std::vector<TermId>& v) {
    TermId best = v[0], idx = i(ir::Type::I64, 0);
    for (size_t k = 1; k < v.size(); ++k) {
      TermId nan_first =
          store.make(Op::And, {store.make(Op::Ne, {v[k], v[k]}), store.make(Op::Eq, {best, best})});
      TermId take = store.make(Op::Or, {store.make(Op::Gt, {v[k], best}), nan_first});
      best = store.make(Op::Select, {take, v[k], best});
      idx = store.make(Op::Select, {take, i(ir::Type::I64, static_cast<int64_t>(k)), idx});
    }
    return idx;
  }
  // tl.argmax as the Triton frontend unrolls it: NaN loses.
  TermId triton_argmax(const std::vector<TermId>& v) {
    TermId best = v[0], idx = i(ir::Type::I32, 0);
    for (size_t k = 1; k < v.size(); ++k) {
      TermId nan_best =
          store.make(Op::And, {store.make(Op::Ne, {best, best}), store.make(Op::Eq, {v[k], v[k]})});
      TermId take = store.make(Op::Or, {store.make(Op::Gt, {v[k], best}), nan_best});
      best = store.make(Op::Select, {take, v[k], best});
      idx = store.make(Op::Select, {take, i(ir::Type::I32, static_cast<int64_t>(k)), idx});
    }
    return idx;
  }
  // A kernel's running argmax over blocks padded with -inf: `better = block_max > best_val`
  // (`>=` with or_equal), or with the best value never updated (stale).
  TermId blocked_argmax(int n, int block, bool or_equal = false, bool stale = false) {
    TermId best_val = f(-INFINITY), best_idx = i(ir::Type::I32, 0);
    for (int k0 = 0; k0 < n; k0 += block) {
      std::vector<TermId> vals;
      for (int k = k0; k < k0 + block; ++k) vals.push_back(k < n ? x(k) : f(-INFINITY));
      TermId block_max = store.make(Op::TMax, vals);
      TermId block_arg = store.make(Op::Add, {triton_argmax(vals), i(ir::Type::I32, k0)});
      TermId better = store.make(or_equal ? Op::Ge : Op::Gt, {block_max, best_val});
      if (!stale) best_val = store.make(Op::Select, {better, block_max, best_val});
      best_idx = store.make(Op::Select, {better, block_arg, best_idx});
    }
    return store.make(Op::CastI64, {best_idx});
  }
  std::optional<ArgChain> read(TermId t) { return arg_chain_of(store, t, finite); }

  ir::TermStore store;
  std::function<bool(TermId)> finite = [](TermId) { return true; };
};

TEST_F(ArgChainTest, TorchArgmaxAndARunningArgmaxOverBlocksReadAsTheSameEntries) {
  auto ref = read(torch_argmax(row(11)));
  auto cand = read(blocked_argmax(11, 4));
  ASSERT_TRUE(ref && cand);
  EXPECT_TRUE(ref->is_max && cand->is_max);
  ASSERT_EQ(ref->entries.size(), 11u);
  EXPECT_EQ(ref->entries, cand->entries);  // the -inf lanes of the last block left out
  for (int k = 0; k < 11; ++k) EXPECT_EQ(ref->entries[k], std::make_pair(x(k), int64_t{k}));
}

// `>=` hands a tie to the later block: the same values in another order of precedence.
TEST_F(ArgChainTest, ATieGoingToTheLaterBlockReadsAsAnotherOrder) {
  auto ref = read(torch_argmax(row(8)));
  auto cand = read(blocked_argmax(8, 4, /*or_equal=*/true));
  ASSERT_TRUE(ref);
  EXPECT_FALSE(cand && cand->entries == ref->entries);
}

// Each block compared with the first block's max, not the best so far: not a running argmax
// (block 3 beating block 1 wins even when block 2 was greater), so it must not be read as one.
TEST_F(ArgChainTest, ABestValueNeverUpdatedIsNotAChain) {
  EXPECT_FALSE(read(blocked_argmax(12, 4, false, /*stale=*/true)));
}

// The reading assumes no NaN: values that may be NaN (or infinite, for the -inf lanes left out)
// are not read.
TEST_F(ArgChainTest, ValuesThatMayBeNaNAreNotRead) {
  finite = [](TermId) { return false; };
  EXPECT_FALSE(read(torch_argmax(row(5))));
  EXPECT_FALSE(read(blocked_argmax(5, 4)));
}

TEST_F(ArgChainTest, AnArgminIsReadAsAMinimum) {
  std::vector<TermId> v = row(4);
  TermId best = v[0], idx = i(ir::Type::I64, 0);
  for (size_t k = 1; k < v.size(); ++k) {
    TermId take = store.make(Op::Lt, {v[k], best});
    best = store.make(Op::Select, {take, v[k], best});
    idx = store.make(Op::Select, {take, i(ir::Type::I64, static_cast<int64_t>(k)), idx});
  }
  auto chain = read(idx);
  ASSERT_TRUE(chain);
  EXPECT_FALSE(chain->is_max);
  EXPECT_EQ(chain->entries.size(), 4u);
}

}  // namespace
}  // namespace keq::verify
