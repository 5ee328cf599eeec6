// Issue 6's acceptance pairs through the whole pipeline: keq verify on the example files (both
// frontends, dedup, e-graph, witness search; no Z3, as in --no-smt) at the acceptance sizes,
// with the e-graph's normal forms on and off side by side.
//
//   build/bench/verify_bench                   Google Benchmark
//   build/bench/verify_bench --table           one run each, as bench/README.md shows it
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

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

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--table") == 0) {
    table();
    return 0;
  }
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
