// Reference and candidate through the frontends, every output pair into one e-graph with the
// default rules and the real-semantics normal forms: the e-graph stage of keq verify, before
// verify exists. Correct candidates are proved; buggy ones are not.
#include <gtest/gtest.h>

#include <cfloat>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontends/triton/program.h"
#include "rules/rules.h"

namespace keq {
namespace {

namespace fs = std::filesystem;

torch::Dims dims_of(const fs::path& dir) {
  torch::Dims dims;
  std::ifstream in(dir / "expected");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("dims: ", 0) != 0) continue;
    std::stringstream ss(line.substr(6));
    for (std::string kv; std::getline(ss, kv, ',');)
      dims.push_back({kv.substr(0, kv.find('=')), {std::stoll(kv.substr(kv.find('=') + 1))}});
  }
  return dims;
}

// Returns how many output pairs the e-graph proved, of how many.
std::pair<size_t, size_t> egraph_stage(const std::string& example) {
  fs::path dir = fs::path(KEQ_SOURCE_DIR) / "examples" / example;
  ir::TermStore store;
  torch::Program ref = torch::run_program((dir / "ref.py").string(), store, "Model", dims_of(dir));
  torch::Program cand = torch::run_candidate((dir / "cand.py").string(), (dir / "ref.py").string(),
                                             store, dims_of(dir));
  EXPECT_TRUE(cand.state.findings.empty()) << cand.state.findings.front();
  EXPECT_EQ(torch::parameter_mismatch(ref, cand), std::nullopt);
  rules::ProverOptions opt;
  opt.limits = {12, 200000, 20.0};
  // Inputs are the finite values of their dtype (torch.randn and friends never give inf or NaN).
  for (ir::TermId id = 0; id < store.size(); ++id)
    if (store.op(id) == ir::Op::Var && store.type(id) == ir::Type::F32)
      opt.domains.push_back({id, ir::Interval::any_finite()});
  std::vector<rules::Goal> pairs;
  EXPECT_EQ(ref.outputs.size(), cand.outputs.size());
  for (size_t o = 0; o < std::min(ref.outputs.size(), cand.outputs.size()); ++o) {
    EXPECT_EQ(ref.outputs[o]->shape, cand.outputs[o]->shape);
    for (size_t e = 0; e < std::min(ref.outputs[o]->elems.size(), cand.outputs[o]->elems.size());
         ++e)
      pairs.push_back({ref.outputs[o]->elems[e], cand.outputs[o]->elems[e]});
  }
  auto proof = rules::prove(store, pairs, {}, rules::RuleSet::defaults(), opt);
  size_t proved = proof->proved_count();
  return {proved, pairs.size()};
}

TEST(EndToEnd, OnlineSoftmaxWithScalarRunningMaxIsProved) {
  auto [proved, total] = egraph_stage("softmax_rows");
  EXPECT_EQ(total, 10u);
  EXPECT_EQ(proved, total);
}

// torch's kl_div is a sum of selects on t > 0, which the intervals settle for a softmax's t; at 16
// elements the e-graph missed it, each select settling in turn until the sum's form stopped
// following (examples/kl_div_batchmean/expected).
TEST(EndToEnd, SelectsTheIntervalsSettleTakeTheirBranch) {
  auto [proved, total] = egraph_stage("kl_div_batchmean");
  EXPECT_EQ(total, 1u);
  EXPECT_EQ(proved, total);
}

TEST(EndToEnd, ClampThenFp16CastIsProved) {
  auto [proved, total] = egraph_stage("fp16_cast_clamp");
  EXPECT_EQ(proved, total);
}

TEST(EndToEnd, GeluThroughSigmoidIsProved) {
  auto [proved, total] = egraph_stage("gelu_tanh_scale");
  EXPECT_EQ(proved, total);
}

TEST(EndToEnd, TiledDotWithMaskedTailsIsProved) {
  // 16x16x16 tiles over a 2x3 by 3x4 product: the masked lanes add (* 0 0) terms.
  auto [proved, total] = egraph_stage("matmul_relu");
  EXPECT_EQ(total, 8u);
  EXPECT_EQ(proved, total);
}

TEST(EndToEnd, AtomicSplitRowSumIsProved) {
  auto [proved, total] = egraph_stage("row_sum_split");
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(proved, total);
}

TEST(EndToEnd, MissingClampBeforeFp16CastIsNotProved) {
  auto [proved, total] = egraph_stage("fp16_cast_noclamp");
  EXPECT_GT(total, 0u);
  EXPECT_EQ(proved, 0u);
}

}  // namespace
}  // namespace keq
