// Runs a KernelBench-style file as KernelBench does: the module level, get_init_inputs(),
// Model(*init_inputs), get_inputs() (symbolic tensors), then forward(*inputs), with torch's
// semantics for host code and Triton's for the kernels it launches. It lives at the top of the
// frontends (here, above torch and triton), in the keq::torch namespace where Program began.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontends/torch/torch.h"

namespace keq::torch {

struct Program {
  std::string file, class_name;
  std::string inputs_file;  // where get_inputs lives: the reference, for a candidate
  TorchState state;
  std::vector<std::pair<std::string, int64_t>> constants;  // module-level ints, as used
  std::vector<Ref> forward_args;                           // what forward received
  std::vector<std::shared_ptr<Tensor>> outputs;            // forward's tensors, flattened
};

// Throws python::Unsupported, python::ProgramError or ir::SyntaxError, each naming file:line.
// `dims` overrides module-level integer constants (e.g. batch_size=2) before anything reads them.
// A tuple of integers (input_shape = (32768,)) takes a list of values, written 4x5 on the command
// line.
using Dims = std::vector<std::pair<std::string, std::vector<int64_t>>>;
// eval_mode: the model runs as after .eval() (BatchNorm on its running statistics, Dropout off);
// KernelBench runs models in training mode, the default.
Program run_program(const std::string& path, ir::TermStore& store, const std::string& class_name,
                    const Dims& dims, bool params_initial = false, bool eval_mode = false);

// Runs a candidate against its reference, as KernelBench does: the reference's module level
// (with `dims`), get_init_inputs() and get_inputs() give the arguments; the candidate's module
// level runs as written (its own constants are never rewritten: a width hard-coded there is a bug
// to find), then ModelNew(*init_inputs) and forward(*inputs). The inputs are the reference's
// variables, so both programs' terms range over the same inputs.
Program run_candidate(const std::string& cand_path, const std::string& ref_path,
                      ir::TermStore& store, const Dims& dims, bool params_initial = false,
                      const std::string& class_name = "ModelNew", size_t autotune_config = 0,
                      bool eval_mode = false);

// Model's and ModelNew's parameters are matched by creation order (KernelBench seeds both
// alike, so their i-th parameters are equal): the same count, shapes and dtypes. Returns what
// does not match, or nothing.
std::optional<std::string> parameter_mismatch(const Program& ref, const Program& cand);

}  // namespace keq::torch
