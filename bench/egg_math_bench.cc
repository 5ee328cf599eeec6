// egg's math workload on keq's engine: Google Benchmark timings, or (with --table) the table of
// iterations, nodes, classes and median milliseconds that bench/README.md compares with egg.
//
//   build/bench/egg_math_bench --table [--runs 21]
//   build/bench/egg_math_bench --benchmark_filter=integ
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "bench/egg_workload.h"

using namespace keq::bench;

namespace {

const MathRules& rules() {
  static const MathRules r(KEQ_BENCH_DIR "/math.rules");
  return r;
}

void BM_Workload(benchmark::State& state, const Workload& w) {
  auto rws = rules().select(w.only_rules);
  WorkloadResult last;
  for (auto _ : state) {
    last = run_workload(w, rules(), rws);
    benchmark::DoNotOptimize(last.classes);
  }
  state.counters["iters"] = static_cast<double>(last.report.iterations.size());
  state.counters["nodes"] = static_cast<double>(last.nodes);
  state.counters["classes"] = static_cast<double>(last.classes);
  state.counters["proved"] = last.proved;
}

int print_table(int runs) {
  std::printf("| workload | stop | proved | iters | e-nodes | e-classes | median ms |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Workload& w : egg_workloads()) {
    auto rws = rules().select(w.only_rules);
    std::vector<double> ms;
    WorkloadResult res;
    for (int k = 0; k < runs; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      res = run_workload(w, rules(), rws);
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("| %s | %s | %s | %zu | %zu | %zu | %.3f |\n", w.name.c_str(),
                keq::egraph::stop_reason_name(res.report.stop),
                w.goal.empty() ? "-" : (res.proved ? "yes" : "no"), res.report.iterations.size(),
                res.nodes, res.classes, ms[ms.size() / 2]);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--table") == 0) {
      int runs = 21;
      for (int j = 1; j + 1 < argc; ++j)
        if (std::strcmp(argv[j], "--runs") == 0) runs = std::atoi(argv[j + 1]);
      return print_table(runs);
    }
  }
  for (const Workload& w : egg_workloads())
    benchmark::RegisterBenchmark(w.name.c_str(), BM_Workload, w)->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
