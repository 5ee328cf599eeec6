// keq rules check [FILES]: prove every rule under its declared semantics.
// keq rules validate [FILES]: evaluate every rule on many inputs, on the GPU or the CPU.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "rules/rules.h"
#include "verify/verify.h"

namespace keq::cli {

namespace {

const char* const kRulesHelp =
    R"(usage: keq rules check [FILES...] [--timeout-ms N]
       keq rules validate [FILES...] [--device cpu|cuda] [--format F] [--exhaustive]
                          [--samples N] [--seed N] [--keep DIR] [--cuda-arch ARCH]
       keq rules validate --ops [--device cpu|cuda] [--samples N]

keq rules check

Proves each rewrite rule under the semantics it declares (default: the shipped rules/*.rules).
  :holds ieee  Z3's floating-point theory over every fp32 input, NaN, infinities and signed
               zeros included; "the same bits, any NaN matching any NaN"; integers are
               bit-vectors of their width (a shift by a constant below it; a NaN's bits free)
  :holds real  Z3 over finite reals, under the rule's conditions, where both sides are defined
               (divisors nonzero, log and sqrt arguments in their domains; an input must exist
               there); exp and exp2 are functions Z3 knows only by their laws (f(u + v) =
               f(u) f(v), f(0) = 1, increasing; log and log2 their inverses), stated at the
               rule's own arguments. The infinite and NaN cases and the points outside the
               domains, which that encoding does not hold, are evaluated at every combination of
               special values (+-inf, NaN, +-0, +-1, 0.5, 3, 448)
  f32-binade   a real rule of one variable ?s under (f32-binade ?s) (ue8m0-range ?s), whose
               sides read s through bitcast.i32 and floor or ceil of log2 only: every fp32
               value of s in [2^-126, 2^127] evaluated exactly, which covers every real s the
               condition admits (about 11 s a rule on two cores)
A refutation is a point where evaluating both sides confirms the difference. Unknown says why
(an op outside the encoding, such as a bitcast of a real or pow to a non-integer; Z3's limit).
keq rules validate evaluates rules on many inputs instead (below).

options:
  --timeout-ms N   Z3's time per rule (default 10000; a resource limit binds first)

exit codes: 0 every rule proved, 1 a rule refuted, 2 a rule unknown (none refuted), 4 error

keq rules validate
Evaluates both sides of each rule on many inputs with generated code: CUDA compiled by nvcc
(-fmad=false; every fp32 op with explicit rounding, Triton's satfinite fp8 casts and div.full as
the PTX instructions it emits, torch's fp8 casts as its software) and run on the GPU, or the same
code compiled for the CPU (approximate ops there are the correctly rounded values keq's
evaluator uses). Inputs: every value where the variables' formats allow (a rule's condition
(in-f16 ?x), (in-bf16 ?x), (in-e4m3 ?x) or (in-e5m2 ?x) restricts a variable to that format),
else special values, the rule's constants and their neighbours, then seeded random values.
The rule's other conditions filter the inputs.
  :holds ieee  a mismatch is an input where the two sides' bits differ (any NaN matches any
               NaN); a row marked approx has an op whose device bits are one library's
               approximation (expf, tanhf, ...), not fixed by the programs
  :holds real  both sides run in doubles; inputs where they differ, and a sample, are replayed
               with rigorous evaluation on the CPU, and a mismatch is a disjoint enclosure; the
               largest relative difference of the doubles is reported
Points the device evaluated are re-evaluated by keq's evaluator where the value is bit-exact: a
disagreement there is a defect of keq's code generation, reported and counted as an error.

options:
  --device cpu|cuda  where to run (default cpu: the host compiler, $KEQ_CXX or $CXX or c++;
                     cuda: nvcc, $KEQ_NVCC or /usr/local/cuda/bin/nvcc or nvcc on PATH)
  --format F         the format of fp32 variables a rule does not restrict: f32 (default),
                     f16, bf16, e4m3, e5m2
  --exhaustive       enumerate every input where there are at most 2^32 (an fp32 variable,
                     or two fp16 ones); otherwise inputs are enumerated only when there are at
                     most --samples of them
  --samples N        inputs per rule when not enumerated (default 2^30 on cuda, 2^18 on cpu)
  --seed N           the random inputs' seed (default 1)
  --keep DIR         write the generated program there and keep it
  --cuda-arch ARCH   nvcc -arch (default native: the GPU of this machine)
  --compile-only     generate and compile the checks, run nothing (checks the toolchain; with
                     --device cuda and --cuda-arch sm_90 it needs no GPU)
  --ops              instead of rules, every op of the op table at --samples operands (default
                     4096) per typing, generated code against keq's evaluator: IEEE-exact ops
                     must agree bit for bit; approximations show their largest distance in ulps
                     from the correctly rounded value

exit codes: 0 no mismatch, 1 a rule has a mismatch, 4 error (no compiler, no GPU, a code
generation defect)
)";

const char* outcome_name(verify::RuleVerdict::Outcome o) {
  switch (o) {
    case verify::RuleVerdict::Outcome::Proved:
      return "proved";
    case verify::RuleVerdict::Outcome::Refuted:
      return "REFUTED";
    case verify::RuleVerdict::Outcome::Unknown:
      return "unknown";
  }
  return "?";
}

bool parse_number(const std::string& opt, const std::vector<std::string>& args, size_t& k,
                  uint64_t& out) {
  if (k + 1 >= args.size()) {
    std::fprintf(stderr, "keq rules: %s needs a number\n", opt.c_str());
    return false;
  }
  try {
    size_t used = 0;
    out = std::stoull(args[++k], &used, 0);
    if (used == args[k].size()) return true;
  } catch (const std::exception&) {
  }
  std::fprintf(stderr, "keq rules: %s: '%s' is not a number\n", opt.c_str(), args[k].c_str());
  return false;
}

int check_command(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  uint64_t timeout_ms = 10000;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k] == "--timeout-ms") {
      if (!parse_number(args[k], args, k, timeout_ms)) return kExitError;
      continue;
    }
    if (!args[k].empty() && args[k][0] == '-') {
      std::fprintf(stderr, "keq rules check: unknown option '%s'\n", args[k].c_str());
      return kExitError;
    }
    files.push_back(args[k]);
  }
  if (files.empty()) files = rules::default_rule_files();
  std::vector<verify::RuleVerdict> vs =
      verify::check_rules(files, static_cast<unsigned>(timeout_ms));
  size_t counts[3] = {0, 0, 0};
  std::printf("%-22s %-5s %-8s %s\n", "rule", "holds", "outcome", "detail");
  for (const auto& v : vs) {
    ++counts[static_cast<int>(v.outcome)];
    std::printf("%-22s %-5s %-8s %s (%s)\n", v.name.c_str(),
                v.holds == ir::Semantics::Ieee ? "ieee" : "real", outcome_name(v.outcome),
                v.detail.c_str(), v.where.c_str());
  }
  std::printf("%zu rules: %zu proved, %zu refuted, %zu unknown\n", vs.size(), counts[0], counts[1],
              counts[2]);
  return counts[1] ? kExitNotProved : counts[2] ? 2 : 0;
}

std::string rate(uint64_t n, double ms) {
  if (ms <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g/s", n / (ms / 1000));
  return buf;
}

void print_validation(const verify::RuleValidation& v) {
  std::string mism = std::to_string(v.mismatches);
  if (v.holds == ir::Semantics::Real) mism += " of " + std::to_string(v.replayed) + " replayed";
  char diff[32] = "";
  if (v.holds == ir::Semantics::Real) std::snprintf(diff, sizeof diff, "%.3g", v.max_difference);
  std::printf("%-22s %-5s %-24s %12llu %-20s %-9s %9.2f ms %-10s%s\n", v.name.c_str(),
              v.holds == ir::Semantics::Ieee ? "ieee" : "real", v.inputs.c_str(),
              static_cast<unsigned long long>(v.tried), mism.c_str(), diff, v.ms,
              rate(v.tried, v.ms).c_str(), v.approximate ? " approx" : "");
  for (const std::string& c : v.counterexamples) std::printf("    %s\n", c.c_str());
  if (v.evaluator_disagreements)
    std::printf(
        "    keq defect: the device disagrees with keq's evaluator at %zu of %zu points, "
        "first %s\n",
        v.evaluator_disagreements, v.evaluator_points, v.evaluator_note.c_str());
}

int ops_command(runner::RunOptions opt, bool samples_given) {
  opt.points = samples_given ? static_cast<int>(std::min<uint64_t>(opt.samples, 1 << 20)) : 4096;
  std::string error;
  std::vector<runner::OpAgreement> rows = runner::compare_with_evaluator(opt, &error);
  if (!error.empty()) {
    std::fprintf(stderr, "keq rules validate --ops: %s\n", error.c_str());
    return kExitError;
  }
  if (opt.compile_only) {
    std::printf("%zu op typings compiled; nothing ran (--compile-only)\n", rows.size());
    return 0;
  }
  std::printf("%-14s %-16s %-6s %8s %8s %10s  %s\n", "op", "operands", "kind", "points", "agree",
              "max ulps", "first disagreement");
  size_t defects = 0;
  for (const runner::OpAgreement& a : rows) {
    bool defect = a.exact_expected && a.agree != a.points;
    defects += defect;
    std::printf("%-14s %-16s %-6s %8zu %8zu %10.4g  %s%s\n", std::string(ir::op_name(a.op)).c_str(),
                a.operands.c_str(), a.exact_expected ? "exact" : "approx", a.points, a.agree,
                a.max_ulps, defect ? "DEFECT " : "", a.first_disagreement.c_str());
  }
  std::printf("%zu op typings, %zu exact ones disagreeing with the evaluator\n", rows.size(),
              defects);
  return defects ? kExitError : 0;
}

int validate_command(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  verify::ValidateOptions opt;
  bool samples_given = false, ops = false;
  for (size_t k = 1; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a == "--ops") {
      ops = true;
      continue;
    }
    auto value = [&]() -> const std::string* {
      if (k + 1 < args.size()) return &args[++k];
      std::fprintf(stderr, "keq rules validate: %s needs a value\n", a.c_str());
      return nullptr;
    };
    if (a == "--device") {
      const std::string* v = value();
      if (!v) return kExitError;
      if (*v != "cpu" && *v != "cuda") {
        std::fprintf(stderr, "keq rules validate: --device is cpu or cuda, not '%s'\n", v->c_str());
        return kExitError;
      }
      opt.run.device = *v == "cuda" ? runner::Device::Cuda : runner::Device::Cpu;
    } else if (a == "--format") {
      const std::string* v = value();
      if (!v) return kExitError;
      auto f = runner::format_by_name(*v);
      if (!f || *f == runner::InputFormat::I32 || *f == runner::InputFormat::I64 ||
          *f == runner::InputFormat::Bool) {
        std::fprintf(stderr,
                     "keq rules validate: --format is f32, f16, bf16, e4m3 or e5m2, not '%s'\n",
                     v->c_str());
        return kExitError;
      }
      opt.format = *f;
    } else if (a == "--exhaustive") {
      opt.run.exhaustive = true;
    } else if (a == "--samples") {
      if (!parse_number(a, args, k, opt.run.samples)) return kExitError;
      if (opt.run.samples == 0) {
        std::fprintf(stderr, "keq rules validate: --samples must be at least 1\n");
        return kExitError;
      }
      samples_given = true;
    } else if (a == "--seed") {
      if (!parse_number(a, args, k, opt.run.seed)) return kExitError;
    } else if (a == "--keep") {
      const std::string* v = value();
      if (!v) return kExitError;
      opt.run.keep_dir = *v;
    } else if (a == "--cuda-arch") {
      const std::string* v = value();
      if (!v) return kExitError;
      opt.run.cuda_arch = *v;
    } else if (a == "--compile-only") {
      opt.run.compile_only = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "keq rules validate: unknown option '%s'\n", a.c_str());
      return kExitError;
    } else {
      files.push_back(a);
    }
  }
  if (ops) return ops_command(opt.run, samples_given);
  if (!samples_given)
    opt.run.samples = opt.run.device == runner::Device::Cuda ? 1ull << 30 : 1ull << 18;
  if (files.empty()) files = rules::default_rule_files();
  verify::ValidationRun run = verify::validate_rules(files, opt);
  if (!run.error.empty()) {
    std::fprintf(stderr, "keq rules validate: %s\n", run.error.c_str());
    return kExitError;
  }
  std::printf("device: %s; compiled in %.1f s: %s\n", run.device.c_str(), run.compile_s,
              run.compiler.c_str());
  if (opt.run.compile_only) {
    std::printf("%zu rules compiled; nothing ran (--compile-only)\n", run.rules.size());
    return 0;
  }
  std::printf("%-22s %-5s %-24s %12s %-20s %-9s %12s %-10s\n", "rule", "holds", "inputs", "tried",
              "mismatches", "max diff", "time", "rate");
  size_t with_mismatch = 0, not_run = 0, defects = 0;
  for (const verify::RuleValidation& v : run.rules) {
    if (!v.not_run.empty()) {
      ++not_run;
      std::printf("%-22s %-5s not validated: %s (%s)\n", v.name.c_str(),
                  v.holds == ir::Semantics::Ieee ? "ieee" : "real", v.not_run.c_str(),
                  v.where.c_str());
      continue;
    }
    with_mismatch += v.mismatches > 0;
    defects += v.evaluator_disagreements > 0;
    print_validation(v);
  }
  std::printf("%zu rules: %zu without a mismatch, %zu with mismatches, %zu not validated",
              run.rules.size(), run.rules.size() - with_mismatch - not_run, with_mismatch, not_run);
  if (defects) std::printf("; %zu with keq code-generation defects", defects);
  std::printf("\n");
  if (defects) return kExitError;
  return with_mismatch ? kExitNotProved : 0;
}

}  // namespace

int rules_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kRulesHelp, args.empty() ? stderr : stdout);
    return args.empty() ? kExitError : 0;
  }
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      std::fputs(kRulesHelp, stdout);
      return 0;
    }
  if (args[0] == "check") return check_command(args);
  if (args[0] == "validate") return validate_command(args);
  std::fprintf(stderr, "keq rules: unknown subcommand '%s' (keq rules --help)\n", args[0].c_str());
  return kExitError;
}

}  // namespace keq::cli
