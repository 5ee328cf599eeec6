// torch semantics for the host interpreter: tensors whose elements are terms.
//
// Each op builds the scalar term of every output element, as torch computes it: elementwise
// ops per element with broadcasting, reductions as n-ary terms over the reduced elements (kept
// structured for the e-graph's normal forms), narrow dtypes rounded after each op (torch
// computes fp16 in fp32 and rounds the result). Inputs from torch.randn & co. and module
// parameters are symbolic: every element a variable.
#pragma once

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontends/python/interp.h"
#include "frontends/torch/tensor.h"

namespace keq::torch {

using python::Ref;

// Where a symbolic tensor came from, for reports and keq inspect.
struct SymbolicTensor {
  std::string name;    // the variables are name[i,j,...]
  std::string origin;  // "torch.randn" or "nn.Linear.weight" ...
  std::vector<int64_t> shape;
  DType dtype;
  python::Span at;
  // The values get_inputs() can produce: randn any finite value, rand [0, 1), randint [lo, hi).
  double lo = -INFINITY, hi = INFINITY;
  bool hi_open = false;
  // A candidate's parameter that pairs with none of the reference's, made from deterministic
  // values (nn.Parameter(torch.ones(1))): it holds them, and has no variables.
  bool held_initial = false;
};

// How a candidate's parameter is named when creation order does not pair it with the
// reference's (verify's parameter pairings): the reference's variable, whose elements it takes
// in row-major order (shapes that differ only in sizes of 1), or a variable of its own.
struct ParameterAlias {
  std::string name;            // the reference's ("p3"); empty: the candidate's own ("c<k>")
  std::vector<int64_t> shape;  // the reference parameter's, which names the elements
  bool transposed = false;     // a 2-D weight held transposed: element [i, j] is its [j, i]
};
// A candidate parameter paired with nothing is c<k> (k its creation index); its variables are
// c<k>[i, ...].
inline std::string unpaired_parameter(size_t k) {
  return "c" + std::to_string(k);
}
inline bool is_unpaired_parameter(const std::string& variable) {
  return variable.size() > 1 && variable[0] == 'c' && variable[1] >= '0' && variable[1] <= '9';
}

// Where fp16, bf16 and fp8 values round (DESIGN.md, semantics "real"). EachOp, the default:
// after every torch op and every kernel operation whose result has that format, as the
// frameworks do. Once (keq verify --round-once): only where a program converts explicitly
// (.to(), .half(), tl.cast, x.to(tl.bfloat16)), writes a tensor of that format (a kernel's
// store, copy_), and at forward's outputs; for kernels that round once where torch rounds after
// each op. It holds for the thread running the programs while a scope is alive.
enum class NarrowRounding { EachOp, Once };
NarrowRounding narrow_rounding();
// Whether, since the innermost scope began, some op's fp16, bf16 or fp8 result was rounded under
// EachOp where Once would have kept it exact: only then can --round-once decide otherwise.
bool rounded_after_an_op();
class NarrowRoundingScope {
 public:
  explicit NarrowRoundingScope(NarrowRounding r);
  ~NarrowRoundingScope();  // an outer scope sees the roundings of this one
  NarrowRoundingScope(const NarrowRoundingScope&) = delete;
  NarrowRoundingScope& operator=(const NarrowRoundingScope&) = delete;

 private:
  NarrowRounding saved_;
  bool saved_rounded_;
};

struct TorchState {
  // Which part of the file runs: randn while building a model makes parameters, in get_inputs
  // inputs, and inside forward it is randomness keq does not model.
  enum class Phase { Init, Inputs, Forward };
  Phase phase = Phase::Init;
  std::vector<SymbolicTensor> inputs;      // from torch.randn/rand/randint..., in creation order
  std::vector<SymbolicTensor> parameters;  // module weights, in creation order
  // By creation index, what each parameter pairs with; empty: the reference's of that index.
  std::vector<ParameterAlias> parameter_aliases;
  std::shared_ptr<Tensor> last_symbolic_parameter;  // so nn.Parameter(torch.randn(..)) is one
  // Each nn.Parameter the program made (a module's weight too), in creation order: the index in
  // `parameters` of the values it holds, or -1 where it holds no one parameter's (a deterministic
  // one under --params initial). A random tensor an initializer filled and then copied into a
  // Parameter (`nn.Parameter(w.t().contiguous())`) is in `parameters` but is no Parameter, so
  // --repro's script, which sees only torch's Parameters, maps them by this list.
  struct ParameterObject {
    int64_t parameter;     // the index in `parameters`, or -1
    const Tensor* values;  // the Parameter's tensor, so one no module holds can be dropped
  };
  std::vector<ParameterObject> parameter_objects;
  // Grad mode: on at import, as in CPython; KernelBench runs get_inputs(), builds both models and
  // runs forward under torch.no_grad() (enter_kernelbench_no_grad). A tensor computed from a
  // parameter requires grad only where it was computed with the mode on from a tensor that
  // requires grad (an nn.Parameter, or one the program asked to). Such a computation runs between
  // the mode's turning on and its turning off (or a query), so checking at each of those moments
  // whether any such tensor exists tells when none can have been computed
  // (grad_may_have_flowed false).
  bool grad_enabled = true;
  bool inference_mode = false;
  bool harness_no_grad = false;
  bool grad_leaf_made = false;  // a tensor the program made require grad (not an nn.Parameter)
  bool grad_may_have_flowed = false;
  void note_grad_use() {
    if (grad_enabled && (grad_leaf_made || !parameter_objects.empty())) grad_may_have_flowed = true;
  }
  void set_grad_enabled(bool enabled) {
    note_grad_use();
    grad_enabled = enabled;
    note_grad_use();
  }
  void enter_kernelbench_no_grad() {
    set_grad_enabled(false);
    harness_no_grad = true;
  }
  // Tensors whose requires_grad the program set (t.requires_grad = False), with the flag set.
  // Weak, so a freed tensor's address taken by a new one is not mistaken for it.
  std::vector<std::pair<std::weak_ptr<const Tensor>, bool>> requires_grad_set;
  // The tensors register_buffer stored: Module.cuda() moves them with the parameters.
  std::set<const Tensor*> buffers;
  // --params initial: parameters whose initialization is deterministic (LayerNorm's ones and
  // zeros, nn.Parameter(torch.ones(n))) take those values instead of being symbolic.
  bool params_initial = false;
  // The candidate's run: how many parameters the reference made. Creation order pairs the
  // candidate's first ones with them; a later one made from deterministic values holds them.
  size_t reference_parameters = SIZE_MAX;
  // Memory findings from Triton launches (out-of-bounds lanes, races, undefined reads), each
  // with file:line and the program instance.
  std::vector<std::string> findings;
  // Findings past the first kMostListedFindings are counted, not kept: a kernel hard-coded for
  // larger sizes reads out of bounds on millions of lanes, and their text cost gigabytes.
  static constexpr size_t kMostListedFindings = 4096;
  // Past this many unlisted findings a launch stops (its other programs only add to the count,
  // which is then a floor): 2^20 out-of-bounds lanes take seconds of the interpreter.
  static constexpr int64_t kMostCountedFindings = int64_t{1} << 20;
  int64_t findings_unlisted = 0;
  // Some finding, listed or not, is more than a load out of bounds (a race, a store or an atomic
  // out of bounds): the outputs' values then hang on a schedule or a dropped write.
  bool findings_beyond_loads = false;
  // For every masked load, store or atomic (by file:line:col): whether lanes with the mask true
  // and with it false ran. A mask never false at the bound means its tail was never checked.
  struct MaskCoverage {
    bool on = false, off = false;
  };
  std::map<std::string, MaskCoverage> mask_coverage;
  // For every loop in a kernel (by file:line:col): which trip counts ran, as bits: 1 for none,
  // 2 for one, 4 for several. A loop that never ran twice never checked its carried values.
  std::map<std::string, unsigned> loop_trips;
  // For every dynamic `if` in a kernel (by file:line:col of its condition): which ways ran, as
  // bits: 1 true, 2 false. A guard never true (`if pid >= n: return`) checked nothing past it.
  std::map<std::string, unsigned> branch_ways;
  // For every `if` decided on concrete values and every loop outside a kernel (by file:line:col):
  // which ways ran, as bits: 1 true, 2 false; loops 4 for no trip, 8 for one, 16 for several.
  // Host code picks paths by size (`if n <= 16384: BLOCK = 256`, `while m > 1:` one reduction
  // stage per pass): the default bound looks for sizes that take one another way.
  std::map<std::string, unsigned> static_ways;
  // Each kernel launch runs its first program alone (run_candidate's first_program_only).
  bool first_program_only = false;
  // The block sizes the launches used (power-of-two constexprs and *BLOCK* arguments): the
  // default bound adds sizes just past them, where tails and second trips start.
  std::set<int64_t> block_sizes;
  // Every integer a block of indices was compared with in a kernel (offs < n_cols) or that a
  // block pointer's shape gives, with the block's extent: (n, extent). The default bound maps n
  // back to the dimensions whose sizes make it and tries sizes around the extent there.
  std::set<std::pair<int64_t, int64_t>> mask_limits;
  // Every kernel loop over a runtime end with a step of 2 or more (range(0, n, 4 * BLOCK), a loop
  // unrolled over four blocks): (end, step). The bound tries sizes around the step as well.
  std::set<std::pair<int64_t, int64_t>> loop_steps;
  // Pointer offsets a kernel computed in int32, by file:line:col: the largest offset a lane
  // added and the shape of the buffer it addressed (the largest such buffer). At the file's own
  // sizes, which keq does not run, an int32 offset that spans its buffer wraps once the buffer
  // passes 2^31 - 1 elements (verify/index_overflow.h).
  struct Int32Offset {
    int64_t max_offset = 0;
    std::vector<int64_t> buffer_shape;
  };
  std::map<std::string, Int32Offset> int32_offsets;
  // Per site, a product of two runtime int arguments in a kernel (typed int32 by their values):
  // the factors of the largest product seen.
  std::map<std::string, std::pair<int64_t, int64_t>> int32_products;
  // Terms whose fp32 bits the frameworks compute by another formula than keq's, with why: in
  // IEEE semantics they are approximations. Float a*b+c inside kernels (Triton fuses it into one
  // fma: tests/fixtures/measure/fp_contraction.py); torch's division by a constant and eval
  // batch norm on CUDA (tests/fixtures/gpu, checked bit for bit by crosscheck_test).
  std::map<ir::TermId, std::string> ieee_unfixed;
  // Terms whose bits are keq's except that a zero result's sign is the kernel's (torch's max
  // over -0 and +0, a matrix product of one product): IEEE neither proves them nor refutes them
  // at a point where such a term is zero, and refutes them elsewhere.
  std::map<ir::TermId, std::string> ieee_zero_sign;
  // Every kernel launch, in order: file:line:col, the kernel, its grid and constexprs.
  std::vector<std::string> launches;
  // The @triton.jit functions the program defined (imported modules' too), by name.
  std::vector<std::string> kernels_defined;
  // Each @triton.jit function by where its def is (file:line:col): its name, and whether it ran
  // (launched, or called from a kernel). One never run was checked by nothing at this bound.
  struct KernelRun {
    std::string name;
    bool ran = false;
  };
  std::map<std::string, KernelRun> kernels_run;
  // @triton.autotune: which config every autotuned kernel runs (index k, or its last config when
  // it has fewer), and what the launches found: the most configs of any kernel, and the configs
  // used, described for the report.
  // Device queries the host code made (is_cuda, data_ptr(), torch.cuda.*), each answered as an
  // H200 with torch 2.11 would: the report names them, since a branch may hang on them.
  std::set<std::string> host_assumptions;
  // Structure the sizes flattened away, by file:line (a GroupNorm of one group is a LayerNorm,
  // one channel per group an InstanceNorm): the default bound prefers sizes that keep it.
  std::set<std::string> flattened;
  size_t autotune_choice = 0;
  // autotune_choice's value for the config with the fewest lanes (the least product of its
  // integer meta-parameters): the default bound's search of host paths runs programs only to
  // reach the host's next choice, and a 128x128 tile's program cost it 13 times a 32x32 one's.
  static constexpr size_t kSmallestAutotuneConfig = SIZE_MAX;
  // The outcomes comparisons of GPU timings take in this run, and their record (null: all false).
  python::TimingChoices* timing = nullptr;
  size_t autotune_configs = 0;
  std::vector<std::string> autotune_used;
  // Per autotune config index, the constexprs every autotuned kernel launched would take there:
  // two indices with equal signatures are the same program for keq (num_warps and num_stages
  // change nothing keq models).
  std::vector<std::string> autotune_signatures;
};

// Registers torch, torch.nn, torch.nn.functional (and triton stubs) in the interpreter.
void install(python::Interp& in, TorchState& state);

// The one value term e takes for every input in its get_inputs() domain (parameters any value;
// unbounded float inputs NaN too, as under --nonfinite-inputs), or nothing when it varies:
// what decides t.item() in host code and `if y == ignore_index` on a loaded target in a kernel.
std::optional<ir::RealValue> value_over_inputs(const TorchState& st, const ir::TermStore& s,
                                               ir::TermId e);
// The integers term e can take over the inputs' domains, when that range is bounded (a class
// index from torch.randint, an offset computed from one): what a gather enumerates.
std::optional<std::pair<int64_t, int64_t>> int_range_over_inputs(const TorchState& st,
                                                                 const ir::TermStore& s,
                                                                 ir::TermId e);

}  // namespace keq::torch
