// Issue 15's scaling benchmark: keq verify --no-smt (both frontends, dedup, probe, e-graph,
// witness search) on the pairs in bench/scaling/, one --dims configuration of batch 2, at row
// widths 256 to 16,384, tiled matmul at M=N=K 16 to 256, and conv2d + GroupNorm at growing
// images. The targets (this 2-core machine): every row kernel at 4,096 under 1 s (LayerNorm
// under 2 s), matmul 128^3 under 2 s, and a log-log slope of at most 1.2 in the width.
//
//   build/bench/scaling_bench                  Google Benchmark (one iteration per size)
//   build/bench/scaling_bench --table [--max-width N] [--csv FILE]
//                                              one run per size: a table with each family's
//                                              log-log slope, as bench/README.md shows it; the
//                                              CSV feeds bench/plot_scaling.py
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "verify/verify.h"

using namespace keq;

namespace {

struct Family {
  const char* dir;   // bench/scaling/<dir>
  const char* what;  // for the table
  std::vector<int64_t> sizes;
  torch::Dims (*dims)(int64_t size);
};

torch::Dims row(int64_t w) {
  return {{"batch_size", {2}}, {"dim", {w}}};
}
torch::Dims cube(int64_t n) {
  return {{"M", {n}}, {"N", {n}}, {"K", {n}}};
}
// The image side after a 3x3 convolution is `side`: the group has 2 channels x side^2 pixels.
torch::Dims image(int64_t side) {
  return {{"batch_size", {2}}, {"in_channels", {2}},   {"out_channels", {4}}, {"kernel_size", {3}},
          {"num_groups", {2}}, {"height", {side + 2}}, {"width", {side + 2}}};
}

const std::vector<Family>& families() {
  static const std::vector<int64_t> widths = {256, 512, 1024, 2048, 4096, 8192, 16384};
  static const std::vector<Family> all = {
      {"softmax_online", "online softmax, scalar running max (BLOCK 256)", widths, row},
      {"softmax_per_lane", "online softmax, per-lane running max (BLOCK 256)", widths, row},
      {"log_softmax", "log_softmax, three passes (BLOCK 256)", widths, row},
      {"layernorm", "two-pass LayerNorm, rstd = 1/sqrt (BLOCK 256)", widths, row},
      {"rmsnorm", "RMSNorm (BLOCK 256)", widths, row},
      {"row_sum_atomic", "row sum, atomic_add per block (BLOCK 256)", widths, row},
      {"matmul", "tiled matmul M=N=K (16x16x16 tiles)", {16, 32, 64, 128, 256}, cube},
      {"conv_groupnorm", "conv2d (torch) + GroupNorm kernel, image side", {8, 16, 32, 64}, image},
  };
  return all;
}

struct Run {
  double seconds;
  verify::Report report;
};

Run run(const Family& f, int64_t size) {
  std::string dir = std::string(KEQ_SOURCE_DIR) + "/bench/scaling/" + f.dir + "/";
  verify::Options opt;
  opt.dims = f.dims(size);
  opt.use_smt = false;
  opt.timeout_s = 300;
  auto t0 = std::chrono::steady_clock::now();
  verify::Report r = verify::verify(dir + "ref.py", dir + "cand.py", opt);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), r};
}

void BM_Scaling(benchmark::State& state, const Family* f) {
  Run r{};
  for (auto _ : state) r = run(*f, state.range(0));
  state.counters["proved"] = static_cast<double>(r.report.stats.egraph_proved);
  state.counters["pairs"] = static_cast<double>(r.report.stats.deduped);
}

// Least-squares slope of log(seconds) against log(size).
double slope(const std::vector<std::pair<double, double>>& pts) {
  double n = static_cast<double>(pts.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto [x, y] : pts) {
    double lx = std::log(x), ly = std::log(y);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

std::string stages(const verify::Report& r) {
  std::string s;
  for (const auto& [stage, seconds] : r.stats.stage_seconds) {
    if (seconds < 0.01) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s%s %.2f", s.empty() ? "" : ", ", stage.c_str(), seconds);
    s += buf;
  }
  return s;
}

int table(int64_t max_width, const char* csv_path) {
  FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv) std::fprintf(csv, "family,size,seconds,verdict\n");
  std::printf(
      "| family | size | seconds | verdict | stages over 10 ms (s) |\n|---|---|---|---|---|\n");
  std::vector<std::string> slopes;
  for (const Family& f : families()) {
    std::vector<std::pair<double, double>> pts;
    for (int64_t size : f.sizes) {
      if (size > max_width) continue;
      Run r = run(f, size);
      std::printf("| %s | %lld | %.3f | %s | %s |\n", f.dir, static_cast<long long>(size),
                  r.seconds, verify::verdict_name(r.report.verdict), stages(r.report).c_str());
      std::fflush(stdout);
      if (csv)
        std::fprintf(csv, "%s,%lld,%.4f,%s\n", f.dir, static_cast<long long>(size), r.seconds,
                     verify::verdict_name(r.report.verdict));
      pts.push_back({static_cast<double>(size), r.seconds});
    }
    char buf[256];
    if (pts.size() >= 2) {
      std::snprintf(buf, sizeof buf, "| %s | %s | %.2f |", f.dir, f.what, slope(pts));
      slopes.push_back(buf);
    }
  }
  std::printf("\n| family | what | log-log slope (seconds against size) |\n|---|---|---|\n");
  for (const std::string& s : slopes) std::printf("%s\n", s.c_str());
  if (csv) std::fclose(csv);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--table") == 0) {
    int64_t max_width = INT64_MAX;
    const char* csv = nullptr;
    for (int k = 2; k + 1 < argc; k += 2) {
      if (std::strcmp(argv[k], "--max-width") == 0) max_width = std::atoll(argv[k + 1]);
      if (std::strcmp(argv[k], "--csv") == 0) csv = argv[k + 1];
    }
    return table(max_width, csv);
  }
  for (const Family& f : families()) {
    auto* b =
        benchmark::RegisterBenchmark((std::string("scaling/") + f.dir).c_str(), BM_Scaling, &f);
    for (int64_t size : f.sizes) b->Arg(size);
    b->Unit(benchmark::kMillisecond)->Iterations(1);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
