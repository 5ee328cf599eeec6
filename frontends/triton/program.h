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
  std::vector<std::string> forward_params;                 // forward's parameters past self
  std::vector<std::shared_ptr<Tensor>> outputs;            // forward's tensors, flattened
};

// The classes keq compares: KernelBench's Model and ModelNew or, where the reference defines no
// Model, KernelBook's X and XNew: the one reference class whose name plus "New" the candidate
// defines, or, for a candidate's ModelNew, the reference's one class whose base is spelled
// Module (or of several, the one no other class names); read from both files' top-level class
// statements (nothing runs). Otherwise the defaults stand, and running reports the missing Model.
struct ModelClasses {
  std::string reference = "Model", candidate = "ModelNew";
  std::string note;  // how the reference's class was chosen, where that was a choice
};
// KernelBook's get_init_inputs() returns [args, kwargs] ([[], {'dim': 4}]), KernelBench's the
// positional arguments: a reference without Model is read the former way where the value has
// that shape (run_program and run_candidate).
// `ref_class` and `cand_class`, where not empty, are the user's choice (keq verify --ref-class,
// --cand-class): taken as given, the other side chosen as above.
ModelClasses model_classes(const std::string& ref_path, const std::string& cand_path,
                           const std::string& ref_class = "", const std::string& cand_class = "");

// Throws python::Unsupported, python::ProgramError or ir::SyntaxError, each naming file:line.
// `dims` overrides module-level integer constants (e.g. batch_size=2) before anything reads them.
// A tuple of integers (input_shape = (32768,)) takes a list of values, written 4x5 on the command
// line.
using Dims = std::vector<std::pair<std::string, std::vector<int64_t>>>;
// eval_mode: the model runs as after .eval() (BatchNorm on its running statistics, Dropout off);
// KernelBench runs models in training mode, the default.
// any_inputs (--any-inputs): float inputs range over every finite value of their dtype, not
// only what get_inputs() draws (torch.rand's [0, 1)); integer inputs keep their range.
Program run_program(const std::string& path, ir::TermStore& store, const std::string& class_name,
                    const Dims& dims, bool params_initial = false, bool eval_mode = false,
                    bool any_inputs = false);

// Runs a candidate against its reference, as KernelBench does: the reference's module level
// (with `dims`), get_init_inputs() and get_inputs() give the arguments; the candidate's module
// level runs as written (its own constants are never rewritten: a width hard-coded there is a bug
// to find), then ModelNew(*init_inputs) and forward(*inputs). The inputs are the reference's
// variables, so both programs' terms range over the same inputs. `timing` (optional): the
// outcomes comparisons of GPU timings take, and where they are recorded. `first_program_only`:
// each launch runs its program (0, 0, 0) alone, for the default bound's search of the paths the
// host picks by size (its outputs are then not the kernels').
// `reference_parameters`: how many the reference made, so that a later parameter of the
// candidate's made from deterministic values holds them (TorchState::reference_parameters).
Program run_candidate(const std::string& cand_path, const std::string& ref_path,
                      ir::TermStore& store, const Dims& dims, bool params_initial = false,
                      const std::string& class_name = "ModelNew", size_t autotune_config = 0,
                      bool eval_mode = false, python::TimingChoices* timing = nullptr,
                      bool first_program_only = false, bool any_inputs = false,
                      std::vector<ParameterAlias> parameter_aliases = {},
                      size_t reference_parameters = SIZE_MAX);

// Model's and ModelNew's parameters are matched by creation order (KernelBench seeds both
// alike, so their i-th parameters are equal): the same shapes and dtypes where both have an
// i-th, except that a candidate may hold a float32 parameter in a narrower float format (its
// terms are then the reference's value rounded to that format, as load_state_dict's copy_
// leaves it). Returns what does not match, or nothing.
std::optional<std::string> parameter_mismatch(const Program& ref, const Program& cand);
// The candidate's parameters held in a narrower format than the reference's, said for the
// report; nothing when there are none.
std::optional<std::string> narrowed_parameters(const Program& ref, const Program& cand);
// Parameters past the other program's count (a candidate without the reference's bias): they
// are variables of their own, so EQUIVALENT means the outputs do not depend on them and a
// counterexample gives them values. Says which, or nothing when the counts agree.
std::optional<std::string> unmatched_parameters(const Program& ref, const Program& cand);

// Where creation order does not pair the parameters (parameter_mismatch): the ways to pair the
// reference's parameters with the candidate's that its outputs use (`cand_used`, by creation
// index; empty: all), the shorter list into the longer, each pair of the same dtype (or the
// candidate's narrower) and of shapes that differ at most in sizes of 1, those that keep
// creation order first; the rest pair with nothing. Each pairing is the candidate's aliases
// (TorchState::parameter_aliases). At most `cap` + 1 are listed, so a caller sees when there
// are more than it will try.
std::vector<std::vector<ParameterAlias>> parameter_pairings(
    const Program& ref, const Program& cand, size_t cap, const std::vector<bool>& cand_used = {});
// A pairing for the report: "Model's p1 (nn.Linear.bias at ...) with ModelNew's 1 (...); ...".
std::string describe_pairing(const Program& ref, const Program& cand);

// The default bound's configurations: the module-level integer constants (and tuples of them)
// that get_inputs() names are the dimensions, and so are the large ones (16 and more) only
// get_init_inputs() names (out_features, hidden_size, out_channels); each gets a distinct small
// size, counting up from `first` (2, 3, 4, ...), so a transposed stride shows. Small constants
// only get_init_inputs() names (kernel_size, stride, groups) stay as written.
// Throws ir::SyntaxError when the file cannot be read.
Dims default_dims(const std::string& ref_path, int64_t first);
// Module-level sizes the bound keeps as written: Model's `__init__` takes a parameter of that name
// with a default that get_init_inputs() does not pass, so the model is always built with it.
std::vector<std::string> sizes_at_defaults(const std::string& ref_path);
// The same dimensions with the sizes the file writes.
Dims file_dims(const std::string& ref_path);
// The small integer constants (2 to 64) get_init_inputs() names and the bound keeps as written,
// ascending: a model's head count or group count, which a size must often be a multiple of
// (`assert n_embd % n_head == 0`).
std::vector<int64_t> fixed_constants(const std::string& ref_path);
// Sizes that keep the file's proportions: every size get_inputs() names, and every other
// module-level size of 16 or more (channels, features), divided by one power of two until the
// inputs' sizes multiply to at most max_product, but none below `floor` (or its own value when
// smaller): with floor 8, kernels up to 8 still fit and 64 features in 8 groups become 8 in 8.
// Equal sizes stay equal and out_channels = 2 * width survives, where default_dims' distinct
// small sizes can make a model reject its inputs. With `three_quarters`, each size is 3/4 of one
// so divided (64 and 32 become 12 and 6): KernelBench's sizes are powers of two, and so are
// their halvings, where a block of next_power_of_2(n) lanes leaves no lane masked off.
Dims scaled_dims(const std::string& ref_path, int64_t max_product, int64_t floor,
                 bool three_quarters = false);
// The product scaled_dims bounds by max_product: of the sizes in `dims` that get_inputs() names
// (saturating at INT64_MAX). A floor can leave it past max_product.
int64_t input_product(const std::string& ref_path, const Dims& dims);

}  // namespace keq::torch
