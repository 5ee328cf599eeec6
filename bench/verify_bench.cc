// Issue 6's acceptance pairs through the whole pipeline: keq verify on the example files (both
// frontends, dedup, e-graph, witness search; no Z3, as in --no-smt) at the acceptance sizes,
// with the e-graph's normal forms on and off side by side.
//
//   build/bench/verify_bench                   Google Benchmark
//   build/bench/verify_bench --table           one run each, as bench/README.md shows it
//   build/bench/verify_bench --quant-table     the fp8 quantization examples (examples/fp8_*) at
//                                              keq verify's default bound, with Z3, one run each
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "verify/terms_key.h"
#include "verify/verify.h"

using namespace keq;

namespace {

struct Case {
  const char* name;  // examples/<name>
  torch::Dims dims;  // the acceptance size
  const char* size;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"matmul_relu_k_tiles",
       {{"batch_size", {64}}, {"in_features", {64}}, {"out_features", {64}}},
       "M=N=K=64, BLOCK_K 16"},
      {"softmax_rows_block8", {{"batch_size", {1}}, {"dim", {1000}}}, "row of 1000, BLOCK 8"},
      {"layernorm_blocked",
       {{"batch_size", {1}}, {"features", {1}}, {"dim1", {300}}},
       "width 300, BLOCK 128"},
      {"rmsnorm_manual",
       {{"batch_size", {1}}, {"features", {300}}, {"dim1", {1}}, {"dim2", {1}}},
       "300 features"},
      {"row_sum_split", {{"rows", {1}}, {"cols", {5000}}}, "width 5000, atomic_add"},
      {"log_softmax_rows", {{"batch_size", {1}}, {"dim", {1000}}}, "row of 1000, BLOCK 4"},
      {"matmul_split_k_atomic", {{"M", {64}}, {"K", {64}}, {"N", {64}}}, "M=N=K=64, split-K 2"},
      {"instance_norm_clamp_channel_max",
       {{"batch_size", {2}}, {"channels", {32}}, {"height", {16}}, {"width", {16}}},
       "32 channels of 16 x 16, scaled, clamped"},
      {"conv_transpose2d_grouped_igemm",
       {{"batch_size", {2}},
        {"in_channels", {8}},
        {"out_channels", {12}},
        {"height", {16}},
        {"width", {16}}},
       "2 groups, 16 x 16 input, a 32-wide tile with 6 live columns"},
      {"timed_autotune_seven_configs",
       {{"batch_size", {2}}, {"channels", {8}}, {"height", {16}}, {"width", {16}}},
       "7 configs timed: 64 outcomes, 78 launches each"},
  };
  return all;
}

verify::Report run(const Case& c, bool nf) {
  std::string dir = std::string(KEQ_SOURCE_DIR) + "/examples/" + c.name + "/";
  verify::Options opt;
  opt.dims = c.dims;
  opt.use_smt = false;
  opt.normal_forms = nf;
  opt.timeout_s = nf ? 60 : 10;  // without the normal form nothing is proved: bound the wait
  return verify::verify(dir + "ref.py", dir + "cand.py", opt);
}

void BM_Verify(benchmark::State& state, const Case* c, bool nf) {
  verify::Report r;
  for (auto _ : state) r = run(*c, nf);
  state.counters["pairs"] = static_cast<double>(r.stats.pairs);
  state.counters["proved"] = static_cast<double>(r.stats.egraph_proved);
  state.counters["deduped"] = static_cast<double>(r.stats.deduped);
}

void table() {
  std::printf(
      "| example | size | normal form: s, verdict | without: s, verdict |\n|---|---|---|---|\n");
  for (const Case& c : cases()) {
    std::string cols[2];
    for (bool nf : {true, false}) {
      auto t0 = std::chrono::steady_clock::now();
      verify::Report r = run(c, nf);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      char buf[160];
      std::snprintf(buf, sizeof buf, "%.3f s, %s (%zu of %zu pairs)", s,
                    verify::verdict_name(r.verdict), r.stats.egraph_proved, r.stats.deduped);
      cols[nf ? 0 : 1] = buf;
    }
    std::printf("| %s | %s | %s | %s |\n", c.name, c.size, cols[0].c_str(), cols[1].c_str());
  }
}

// The quantization examples, as a user runs them: keq verify's default bound, Z3 on.
std::vector<std::string> quant_examples() {
  std::vector<std::string> out;
  for (const char* n :
       {"fp8_per_token_satcast", "fp8_per_token_recip_mul", "fp8_per_tensor_fake_quant",
        "fp8_per_group_ue8m0", "fp8_per_group_ue8m0_bits", "fp8_per_block_weight",
        "fp8_ue8m0_bits_no_round_up", "fp8_per_token_max_240", "fp8_per_token_max_57344",
        "fp8_per_token_scale_not_inverted", "fp8_per_token_no_eps", "fp8_static_scale_noclamp",
        "fp8_ue8m0_floor_noclamp", "fp8_stored_scale_differs", "fp8_per_group_row_amax"})
    out.push_back(n);
  return out;
}

verify::Verdict run_quant(const std::string& name) {
  std::string dir = std::string(KEQ_SOURCE_DIR) + "/examples/" + name + "/";
  verify::Verdict all = verify::Verdict::Equivalent;
  for (const verify::Report& r :
       verify::verify_default_bound(dir + "ref.py", dir + "cand.py", verify::Options{}))
    all = verify::combine(all, r.verdict);
  return all;
}

void BM_Quant(benchmark::State& state, std::string name) {
  for (auto _ : state) benchmark::DoNotOptimize(run_quant(name));
}

void quant_table() {
  std::printf("| example | default bound: s, verdict |\n|---|---|\n");
  for (const std::string& n : quant_examples()) {
    auto t0 = std::chrono::steady_clock::now();
    verify::Verdict v = run_quant(n);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("| %s | %.2f s, %s |\n", n.c_str(), s, verify::verdict_name(v));
  }
}

// The autotune same-terms key (verify/terms_key.h) over an implicit-GEMM conv's outputs: `outs`
// outputs, each a sum of `k` products of an input and a weight, both programs, real semantics
// (zero addends left out: every eighth product is 0 * 0, a masked K lane).
void BM_TermsKey(benchmark::State& state) {
  const int64_t outs = state.range(0), k = state.range(1);
  ir::TermStore store;
  std::vector<ir::TermId> inputs, weights;
  for (int64_t i = 0; i < outs + k; ++i)
    inputs.push_back(store.variable("in0[" + std::to_string(i) + "]"));
  for (int64_t i = 0; i < k; ++i) weights.push_back(store.variable("w[" + std::to_string(i) + "]"));
  const ir::TermId zero = store.constant(ir::Constant::of_float(0.0));
  torch::Program ref, cand;
  for (torch::Program* p : {&ref, &cand}) {
    auto t = std::make_shared<torch::Tensor>();
    t->shape = {outs};
    for (int64_t o = 0; o < outs; ++o) {
      std::vector<ir::TermId> products;
      for (int64_t j = 0; j < k; ++j)
        products.push_back(p == &cand && j % 8 == 7
                               ? store.make(ir::Op::Mul, {zero, zero})
                               : store.make(ir::Op::Mul, {inputs[o + j], weights[j]}));
      t->elems.push_back(store.make(ir::Op::Sum, products));
    }
    p->outputs.push_back(t);
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(verify::internal::terms_key(store, {&ref, &cand}, true));
  state.counters["terms"] = static_cast<double>(store.size());
}
BENCHMARK(BM_TermsKey)->Args({4096, 363})->Unit(benchmark::kMillisecond);

// The reference side of an implicit-GEMM conv pair (AlexNet's first layer, KernelBench L1 50): a
// torch Conv2d's terms, 3 -> 96 channels through an 11 x 11 kernel, `batch` images of 9 x 10
// (one output position each, 363 products a sum).
void BM_ConvReference(benchmark::State& state) {
  std::string path = (std::filesystem::temp_directory_path() / "keq_bench_conv_ref.py").string();
  std::ofstream(path) << "import torch\nimport torch.nn as nn\n"
                         "class Model(nn.Module):\n"
                         "    def __init__(self):\n"
                         "        super().__init__()\n"
                         "        self.conv1 = nn.Conv2d(3, 96, kernel_size=11, stride=4, "
                         "padding=2)\n"
                         "    def forward(self, x):\n"
                         "        return self.conv1(x)\n"
                         "batch_size = 2\n"
                         "def get_inputs():\n"
                         "    return [torch.rand(batch_size, 3, 9, 10)]\n"
                         "def get_init_inputs():\n    return []\n";
  const torch::Dims dims = {{"batch_size", {state.range(0)}}};
  size_t terms = 0;
  for (auto _ : state) {
    ir::TermStore store;
    torch::Program p = torch::run_program(path, store, "Model", dims);
    terms = store.size();
  }
  state.counters["terms"] = static_cast<double>(terms);
}
BENCHMARK(BM_ConvReference)->Arg(257)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--table") == 0) {
    table();
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--quant-table") == 0) {
    quant_table();
    return 0;
  }
  for (const std::string& n : quant_examples())
    benchmark::RegisterBenchmark(("quant/" + n).c_str(), BM_Quant, n)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  for (const Case& c : cases())
    for (bool nf : {true, false})
      benchmark::RegisterBenchmark((std::string(c.name) + (nf ? "/nf" : "/no_nf")).c_str(),
                                   BM_Verify, &c, nf)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
