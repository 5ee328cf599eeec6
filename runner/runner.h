// The runner: checks scalar term pairs empirically by generating CUDA (or C++, the CPU fallback)
// from the op table, compiling it with nvcc (or the host compiler) and sweeping many inputs.
//
// A Check is two terms over the same variables, with an optional condition and the semantics
// that compares them: IEEE (fp32, the same bits, any NaN matching any NaN) or real (doubles
// approximate the reals; the runner only measures differences, and callers decide with
// rigorous evaluation on the CPU). Each variable ranges over its input format's values:
// enumerated exhaustively where the product of the formats' sizes allows (2^16 fp16 values, 2^32
// fp32 values, 2^32 fp16 pairs), else sampled: special values and the terms' constants with their
// neighbours first, then seeded random values. Depends on ir/ only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace keq::runner {

// The values a variable ranges over. Narrow float formats are f32 variables restricted to the
// format's values (as a cast would leave them); integers and booleans are their types.
enum class InputFormat : uint8_t { F32, F16, BF16, E4M3, E5M2, I32, I64, Bool };
std::string_view format_name(InputFormat f);
std::optional<InputFormat> format_by_name(std::string_view name);
// log2 of the number of bit patterns (a format's values, NaN encodings included).
int format_bits(InputFormat f);

struct Input {
  ir::TermId var;
  InputFormat format = InputFormat::F32;
};

struct Check {
  std::string name;
  ir::Semantics semantics = ir::Semantics::Ieee;
  std::vector<Input> inputs;
  ir::TermId lhs = 0, rhs = 0;
  std::optional<ir::TermId> assume;  // a bool term: inputs where it is false are skipped
};

enum class Device : uint8_t { Cpu, Cuda };

struct RunOptions {
  Device device = Device::Cpu;
  uint64_t samples = 1 << 18;  // inputs per check when not enumerated
  bool exhaustive = false;     // enumerate up to max_exhaustive inputs
  uint64_t max_exhaustive = 1ull << 32;
  uint64_t seed = 1;
  int points = 32;                   // inputs evaluated and returned per check, besides examples
  std::string cuda_arch = "native";  // nvcc -arch
  std::string keep_dir;              // keep the generated program there (else a temp dir)
  bool compile_only = false;         // generate and compile, run nothing (a toolchain check)
  double time_limit_s = 0;           // compiling and running together (0: no limit)
};

// How a check's inputs are drawn.
struct Plan {
  uint64_t count = 0;
  bool exhaustive = false;
};
Plan plan_for(const Check& c, const RunOptions& opt);

// One evaluated input: the variables' bits (fp32 bits, or an integer's two's complement) and
// values, both sides (as doubles: exact for fp32 and i32), and the outcome (0 skipped by the
// condition, 1 undefined, 2 same, 3 differs).
struct Point {
  uint64_t index = 0;
  int outcome = 0;
  std::vector<uint64_t> input_bits;
  std::vector<double> inputs;
  double lhs = 0, rhs = 0;
  // The constant the k-th input is (fp32 inputs keep their bits as a float).
  ir::Constant input(size_t k, ir::Type t) const;
};
// A side's value as the device returned it (a double), as a constant of type t. Integers past
// 2^53 arrive rounded: the device's own comparison is exact, and INT64_MAX (2^63 once rounded)
// saturates back to itself rather than wrapping.
ir::Constant side_constant(double device, ir::Type t);
struct Check;
// Term t's IEEE value from keq's evaluator with c's inputs at p, fp32 inputs from their bits (a
// NaN keeps its payload, which bitcasts read). Throws ir::EvalError.
ir::IeeeValue evaluate_at(const ir::TermStore& s, const Check& c, const Point& p, ir::TermId t);

struct CheckResult {
  Plan plan;
  uint64_t skipped = 0, undefined = 0, differs = 0;
  double max_difference = 0;    // real checks: the largest relative difference seen
  double ms = 0;                // the sweep alone, compilation excluded
  std::vector<Point> examples;  // differing inputs, the first (smallest index) first
  std::vector<Point> samples;   // a seeded spread of inputs
};

struct RunResult {
  std::vector<CheckResult> checks;  // in the order given
  double compile_s = 0;
  std::string compiler;  // the command line used
  std::string device;    // "NVIDIA H200 (sm_90, 132 SMs)" or "CPU, N threads"
  std::string error;     // nonempty: nothing ran (no compiler, a compile error, no GPU)
};

// The program that sweeps `checks` (CUDA when device is Cuda; the same text is C++ otherwise),
// #including "runtime.cuh". Throws ir::TypeError for a term that has no CUDA form.
std::string generate(const ir::TermStore& s, std::span<const Check> checks,
                     std::span<const Plan> plans);
// The runtime the program includes (runner/runtime.cuh, built into keq).
std::string_view runtime_source();

// Generates, compiles and runs the checks.
RunResult run(const ir::TermStore& s, std::span<const Check> checks, const RunOptions& opt);

// Every op's generated code against keq's evaluator (ir::evaluate_ieee) at opt.points sampled
// operands per typing: IEEE-exact ops must agree bit for bit; approximations show their distance
// from the correctly rounded value. Empty with *error set when the checks could not run.
struct OpAgreement {
  ir::Op op = ir::Op::Const;
  std::string operands;  // "f32,f32"
  bool exact_expected = true;
  size_t points = 0, agree = 0;
  double max_ulps = 0;  // integers and booleans: 1 when any point differs
  std::string first_disagreement;
};
std::vector<OpAgreement> compare_with_evaluator(const RunOptions& opt, std::string* error);

}  // namespace keq::runner
