// The normal-form acceptance pairs of issue 6 at the e-graph level: time to prove every output
// element of each pair in one shared e-graph, with the normal form on and off.
//
//   build/bench/nf_bench                       Google Benchmark, NF on and off side by side
//   build/bench/nf_bench --curve               time against size, for bench/README.md
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>

#include "bench/nf_workloads.h"
#include "rules/rules.h"

using namespace keq;
using Graph = rules::KeqLanguage::Graph;

namespace {

struct Result {
  size_t proved = 0, total = 0, iterations = 0;
  double seconds = 0;
};

using Build = std::function<std::vector<bench::Pair>(bench::NfFamilies&)>;

Result prove_all(const Build& build, bool nf, double time_limit = 60) {
  auto t0 = std::chrono::steady_clock::now();
  ir::TermStore store;
  bench::NfFamilies fam(store);
  std::vector<bench::Pair> pairs = build(fam);
  Graph g(rules::KeqLanguage(&store, ir::Semantics::Real));
  g.lang().set_normal_forms(nf);
  for (const auto& [name, bound] : fam.domains())
    g.lang().set_domain(store.payload(store.variable(name)), {-bound, bound, false});
  auto rws = rules::rewrites_for(rules::load_rules(g.lang(), rules::default_rule_files()),
                                 ir::Semantics::Real);
  std::vector<std::pair<egraph::EClassId, egraph::EClassId>> ids;
  rules::TermAdder adder(g);
  for (const auto& p : pairs) ids.push_back({adder.add(p.cand), adder.add(p.ref)});
  auto all = [&](Graph& eg) {
    for (auto [a, b] : ids)
      if (eg.find(a) != eg.find(b)) return false;
    return true;
  };
  auto rep = egraph::Runner<rules::KeqLanguage>({30, 2000000, time_limit}).run(g, rws, all);
  Result r;
  for (auto [a, b] : ids) r.proved += g.find(a) == g.find(b);
  r.total = ids.size();
  r.iterations = rep.iterations.size();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

struct Case {
  const char* name;
  Build build;
};

std::vector<Case> cases() {
  return {
      {"tiled_matmul_64x64x64_bk16",
       [](bench::NfFamilies& f) { return f.tiled_matmul(64, 64, 64, 16); }},
      {"online_softmax_row1000_block256",
       [](bench::NfFamilies& f) { return f.online_softmax_row(1000, 256); }},
      {"layernorm_two_pass_w300_block128",
       [](bench::NfFamilies& f) { return f.layernorm_row(300, 128); }},
      {"rmsnorm_w300_block128", [](bench::NfFamilies& f) { return f.rmsnorm_row(300, 128); }},
      {"atomic_row_sum_w5000_block1024",
       [](bench::NfFamilies& f) { return std::vector{f.atomic_row_sum(5000, 1024)}; }},
      {"log_softmax_row1000_block256",
       [](bench::NfFamilies& f) { return f.log_softmax_row(1000, 256); }},
      {"k_split_dot_k1024", [](bench::NfFamilies& f) { return std::vector{f.k_split_dot(1024)}; }},
  };
}

void BM_Pair(benchmark::State& state, Build build, bool nf) {
  Result r;
  for (auto _ : state) r = prove_all(build, nf, nf ? 60 : 10);
  state.counters["proved"] = static_cast<double>(r.proved);
  state.counters["pairs"] = static_cast<double>(r.total);
  state.counters["iters"] = static_cast<double>(r.iterations);
}

int curve() {
  std::printf("| family | size | pairs | proved | seconds |\n|---|---|---|---|---|\n");
  for (int k : {64, 128, 256, 512, 1024, 2048}) {
    Result r =
        prove_all([&](bench::NfFamilies& f) { return std::vector{f.tiled_dot(k, 16)}; }, true);
    std::printf("| tiled dot, K (BLOCK_K 16) | %d | %zu | %zu | %.4f |\n", k, r.total, r.proved,
                r.seconds);
  }
  for (int m : {8, 16, 32, 64}) {
    Result r = prove_all([&](bench::NfFamilies& f) { return f.tiled_matmul(m, m, m, 16); }, true);
    std::printf("| tiled matmul, M=N=K (BLOCK_K 16) | %d | %zu | %zu | %.4f |\n", m, r.total,
                r.proved, r.seconds);
  }
  for (int n : {125, 250, 500, 1000, 2000}) {
    Result r = prove_all([&](bench::NfFamilies& f) { return f.online_softmax_row(n, 256); }, true);
    std::printf("| online softmax row (BLOCK 256), all outputs | %d | %zu | %zu | %.4f |\n", n,
                r.total, r.proved, r.seconds);
  }
  for (int n : {75, 150, 300, 600}) {
    Result r = prove_all([&](bench::NfFamilies& f) { return f.layernorm_row(n, 128); }, true);
    std::printf("| two-pass layernorm (BLOCK 128), all outputs | %d | %zu | %zu | %.4f |\n", n,
                r.total, r.proved, r.seconds);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int k = 1; k < argc; ++k)
    if (std::strcmp(argv[k], "--curve") == 0) return curve();
  for (const Case& c : cases()) {
    benchmark::RegisterBenchmark((std::string(c.name) + "/nf").c_str(), BM_Pair, c.build, true)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    benchmark::RegisterBenchmark((std::string(c.name) + "/no_nf").c_str(), BM_Pair, c.build, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
