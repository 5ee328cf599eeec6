// Compiling and running generated checks: the program goes into a work folder with the runtime,
// is compiled by nvcc (-fmad=false: no contraction beyond what the runtime writes) or the host
// C++ compiler, and its output lines are read back.
#include "runner/runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

// The nvcc CMake found (-DKEQ_CUDA=ON), tried before /usr/local/cuda/bin/nvcc and PATH.
#ifndef KEQ_DEFAULT_NVCC
#define KEQ_DEFAULT_NVCC ""
#endif

namespace keq::runner {

extern const char* const kRuntimeText;  // runtime.cuh, embedded at build (runtime_text.cc)

std::string_view runtime_source() {
  return kRuntimeText;
}

namespace {

namespace fs = std::filesystem;

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a command; its standard output and error, and its exit status.
std::pair<std::string, int> capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return {"cannot run: " + cmd, -1};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

std::string compiler_for(Device d, const std::string& arch, const fs::path& src,
                         const fs::path& exe) {
  if (d == Device::Cuda) {
    std::string nvcc = env_or("KEQ_NVCC", KEQ_DEFAULT_NVCC);
    if (nvcc.empty())
      nvcc = fs::exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "nvcc";
    return shell_quote(nvcc) + " -std=c++17 -O3 -fmad=false -arch=" + shell_quote(arch) + " -o " +
           shell_quote(exe.string()) + " " + shell_quote(src.string());
  }
  std::string cxx = env_or("KEQ_CXX", env_or("CXX", "c++"));
  return shell_quote(cxx) + " -std=c++17 -O2 -ffp-contract=off -fno-fast-math -pthread -w -o " +
         shell_quote(exe.string()) + " " + shell_quote(src.string());
}

fs::path work_dir(const RunOptions& opt) {
  if (!opt.keep_dir.empty()) {
    fs::create_directories(opt.keep_dir);
    return opt.keep_dir;
  }
  std::string tmpl = (fs::temp_directory_path() / "keq-runner-XXXXXX").string();
  if (!mkdtemp(tmpl.data()))
    throw Error(ErrorKind::BadInput, "cannot make a temporary folder for the generated checks");
  return tmpl;
}

double bits_to_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

}  // namespace

ir::Constant side_constant(double device, ir::Type t) {
  if (t == ir::Type::F32) return ir::Constant::of_float(device);
  if (t == ir::Type::Bool) return ir::Constant::of_bool(device != 0);
  int64_t i = device >= 0x1p63     ? INT64_MAX
              : device <= -0x1p63  ? INT64_MIN
              : std::isnan(device) ? 0
                                   : static_cast<int64_t>(device);
  return ir::Constant::of_int(t, i);
}

namespace {

double value_of_bits(uint64_t b, ir::Type t) {
  if (t == ir::Type::F32) {
    uint32_t u = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  return static_cast<double>(static_cast<int64_t>(b));
}

// "check ID tried N skipped N undefined N differs N max_diff D ms T" and
// "example|sample ID INDEX OUTCOME v0 ... lhs rhs" (hex: the inputs' bits, the sides' doubles).
void parse(const std::string& text, const ir::TermStore& s, std::span<const Check> checks,
           std::vector<CheckResult>& out, std::string& device, std::string& error) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream w(line);
    std::string kind;
    int id = -1;
    w >> kind;
    if (kind == "error") {
      error = line;
      continue;
    }
    if (kind == "device") {
      device = line.substr(7);
      continue;
    }
    w >> id;
    if (id < 0 || id >= static_cast<int>(out.size())) continue;
    CheckResult& r = out[id];
    if (kind == "check") {
      std::string key, max_diff;
      uint64_t tried = 0;
      w >> key >> tried >> key >> r.skipped >> key >> r.undefined >> key >> r.differs >> key >>
          max_diff >> key >> r.ms;
      r.max_difference = std::strtod(max_diff.c_str(), nullptr);  // istream reads no inf
    } else if (kind == "example" || kind == "sample") {
      Point p;
      w >> p.index >> p.outcome;
      std::vector<uint64_t> bits;
      std::string hex;
      while (w >> hex) bits.push_back(std::strtoull(hex.c_str(), nullptr, 16));
      const Check& c = checks[id];
      if (bits.size() != c.inputs.size() + 2) continue;
      p.rhs = bits_to_double(bits.back());
      p.lhs = bits_to_double(bits[bits.size() - 2]);
      bits.resize(c.inputs.size());
      for (size_t k = 0; k < bits.size(); ++k)
        p.inputs.push_back(value_of_bits(bits[k], s.type(c.inputs[k].var)));
      p.input_bits = std::move(bits);
      (kind == "example" ? r.examples : r.samples).push_back(std::move(p));
    }
  }
}

}  // namespace

ir::Constant Point::input(size_t k, ir::Type t) const {
  switch (t) {
    case ir::Type::F32: {
      uint32_t u = static_cast<uint32_t>(input_bits[k]);
      float f;
      std::memcpy(&f, &u, 4);
      return ir::Constant::of_float(f);
    }
    case ir::Type::Bool:
      return ir::Constant::of_bool(input_bits[k] != 0);
    default:
      return ir::Constant::of_int(t, static_cast<int64_t>(input_bits[k]));
  }
}

ir::IeeeValue evaluate_at(const ir::TermStore& s, const Check& c, const Point& p, ir::TermId t) {
  auto env = [&](const ir::Variable& v) -> std::optional<ir::IeeeValue> {
    for (size_t k = 0; k < c.inputs.size(); ++k) {
      if (s.variable_of(c.inputs[k].var).name != v.name) continue;
      if (v.type != ir::Type::F32) return ir::IeeeValue::of(p.input(k, v.type));
      ir::IeeeValue x{ir::Type::F32, 0, 0};
      uint32_t b = static_cast<uint32_t>(p.input_bits[k]);
      std::memcpy(&x.f, &b, 4);
      return x;
    }
    return std::nullopt;
  };
  return ir::evaluate_ieee(s, t, env);
}

RunResult run(const ir::TermStore& s, std::span<const Check> checks, const RunOptions& opt) {
  RunResult res;
  std::vector<Plan> plans;
  for (const Check& c : checks) plans.push_back(plan_for(c, opt));
  res.checks.resize(checks.size());
  for (size_t k = 0; k < checks.size(); ++k) res.checks[k].plan = plans[k];
  if (checks.empty()) return res;
  std::string program = generate(s, checks, plans);
  fs::path dir = work_dir(opt);
  fs::path src = dir / (opt.device == Device::Cuda ? "checks.cu" : "checks.cc");
  fs::path exe = dir / "checks";
  std::ofstream(dir / "runtime.cuh") << runtime_source();
  std::ofstream(src) << program;
  res.compiler = compiler_for(opt.device, opt.cuda_arch, src, exe);
  auto t0 = std::chrono::steady_clock::now();
  // The caller's time limit (keq verify's --timeout) bounds the compiler and the checks: each
  // runs under coreutils' timeout with what is left, and exit 124 says it ran out.
  auto limited = [&](const std::string& cmd) {
    if (opt.time_limit_s <= 0) return cmd;
    double left = opt.time_limit_s -
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return "timeout -s KILL " + std::to_string(std::max(1, static_cast<int>(left))) + " " + cmd;
  };
  auto [log, rc] = capture(limited(res.compiler));
  res.compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto ran_out = [](int status) { return status == 124 || status == 137; };
  if (rc != 0 && opt.time_limit_s > 0 && ran_out(rc)) {
    res.error = "compiling the generated checks did not finish within the time left";
  } else if (rc != 0) {
    res.error =
        "compiling the generated checks failed (" + res.compiler + "):\n" + log.substr(0, 4000);
  } else if (opt.compile_only) {
    res.device = "none (--compile-only)";
  } else {
    auto [out, status] =
        capture(limited(shell_quote(exe.string()) + " " + std::to_string(opt.seed) + " " +
                        std::to_string(opt.points)));
    parse(out, s, checks, res.checks, res.device, res.error);
    if (status != 0 && opt.time_limit_s > 0 && ran_out(status))
      res.error = "the generated checks did not finish within the time left";
    else if (status != 0 && res.error.empty())
      res.error = "the generated checks exited with status " + std::to_string(status) + ":\n" +
                  out.substr(0, 4000);
  }
  if (opt.keep_dir.empty()) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return res;
}

}  // namespace keq::runner
