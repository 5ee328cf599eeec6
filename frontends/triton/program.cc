#include "frontends/triton/program.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "frontends/torch/tensor_ops.h"
#include "frontends/triton/triton.h"

namespace keq::torch {

using python::CallArgs;
using python::Value;
using K = Value::Kind;

namespace {

void flatten_outputs(const Ref& v, std::vector<std::shared_ptr<Tensor>>& out, python::Interp& in,
                     python::Span at) {
  if (v->kind == K::Tensor) {
    out.push_back(v->tensor);
  } else if (v->kind == K::Tuple || v->kind == K::List) {
    for (const Ref& x : v->items) flatten_outputs(x, out, in, at);
  } else {
    in.unsupported(at, "forward returned " + v->type_name() + ", not tensors");
  }
}

// A lane that nothing defined (a masked load without other=, an out-of-bounds read, memory that
// nothing wrote) is a finding when it reaches an output.
void report_undefined_outputs(const ir::TermStore& s, Program& p) {
  std::vector<bool> seen(s.size(), false);  // by term: a matmul's outputs reach millions
  std::vector<ir::TermId> stack;
  std::set<std::string> reported;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    size_t unwritten = 0, first = 0;
    for (size_t k = 0; k < p.outputs[o]->elems.size(); ++k) {
      ir::TermId e = p.outputs[o]->elems[k];
      if (e != Tensor::kUninit)
        stack.push_back(e);
      else if (unwritten++ == 0)
        first = k;
    }
    if (unwritten)  // the first one names the place: a mask tail, a grid too small
      reported.insert("output " + std::to_string(o) + ": " + std::to_string(unwritten) +
                      " elements that nothing wrote (torch.empty, never stored), the first at "
                      "flat index " +
                      std::to_string(first));
  }
  while (!stack.empty()) {
    ir::TermId t = stack.back();
    stack.pop_back();
    if (seen[t]) continue;
    seen[t] = true;
    if (s.op(t) == ir::Op::Var && s.variable_of(t).name.rfind("undef@", 0) == 0) {
      const std::string& n = s.variable_of(t).name;
      size_t hash = n.find('#'), br = n.find('[');
      reported.insert(n.substr(6, hash - 6) + ": " + n.substr(br + 1, n.size() - br - 2) +
                      " reaches an output");
    }
    auto kids = s.children(t);
    // tl.where(mask, tl.load(p, mask=mask), 0): a lane the condition decides never reads the
    // other branch, so a masked lane's undefined value there reaches nothing.
    if (s.op(t) == ir::Op::Select && s.op(kids[0]) == ir::Op::Const) {
      stack.push_back(s.constant_of(kids[0]).i ? kids[1] : kids[2]);
      continue;
    }
    for (ir::TermId c : kids) stack.push_back(c);
  }
  for (const auto& r : reported) p.state.findings.push_back(r);
}

}  // namespace

namespace {

struct Session {  // one file's interpreter and its module scope
  python::Tree tree;
  python::Interp in;
  std::shared_ptr<python::Env> env;
  Session(const std::string& path, ir::TermStore& store, TorchState& state, const Dims& dims,
          bool check_dims)
      : tree(python::parse_file(path)), in(store), state_(state) {
    if (state.timing) in.set_timing(state.timing);
    install(in, state);
    triton::install(in, state);
    // As CPython runs a script: its own folder is searched first.
    std::string dir = std::filesystem::path(path).parent_path().string();
    in.add_search_dir(dir.empty() ? "." : dir);
    absl::flat_hash_map<std::string, std::vector<int64_t>> overrides(dims.begin(), dims.end());
    std::vector<std::string> applied;
    guarded([&] { env = in.run(tree, overrides, &applied); });
    if (check_dims)
      for (const auto& [name, value] : dims)
        // literal@LINE:COL names a literal size inside get_inputs, which runs later.
        if (name.rfind("literal@", 0) != 0 &&
            std::find(applied.begin(), applied.end(), name) == applied.end())
          throw python::ProgramError(path + ": --dims: '" + name +
                                     "' is not a module-level integer constant or tuple");
  }
  ~Session() {
    if (env) env->vars.clear();  // functions hold the scope and it holds them: free both
  }
  // Runs `f`; what importing noted goes to the report. An import that fails uncaught is keq's
  // environment, not the program's fault: UNSUPPORTED, naming the import and the search path.
  template <typename F>
  void guarded(F f) {
    try {
      f();
    } catch (const python::ProgramError& e) {
      notes();
      // After keq stopped a module's top level, the program runs on without that module's
      // later imports and side effects (another import order, names missing): an exception then
      // may be keq's divergence, not the program's (fla's import cycle raised AttributeError
      // in keq and not in CPython). An assert still only rejects a configuration.
      if (!in.import_stops().empty() && !e.assertion)
        throw python::Unsupported(std::string(e.what()) + ", raised after keq stopped a module: " +
                                  in.import_stops().front());
      if (e.pinned_import ||
          std::find(e.classes.begin(), e.classes.end(), "ImportError") == e.classes.end())
        throw;
      throw python::Unsupported(std::string(e.what()) +
                                " (keq reads imported modules from the program's folder, "
                                "--python-path, PYTHONPATH and --venv)");
    }
    notes();
  }
  void notes() {
    for (const std::string& n : in.import_notes()) state_.host_assumptions.insert("import: " + n);
  }
  TorchState& state_;
  Ref function(const std::string& path, const std::string& name) {
    Ref f = env->lookup(name);
    if (!f)
      throw python::MissingDefinition(
          path + ": no " + name +
          " defined (keq verify reads a KernelBench pair: the "
          "reference's Model and get_inputs, the candidate's ModelNew; --ref-class and "
          "--cand-class name others)");
    return f;
  }
};

const python::Span kFileStart{1, 1, 1, 1};

std::vector<Ref> call_list(python::Interp& in, const Ref& f) {
  CallArgs none;
  none.at = kFileStart;
  return in.to_sequence(in.call(f, none), kFileStart);
}

// KernelBench moves get_inputs()'s and get_init_inputs()'s tensors to the GPU (`x.cuda()`), even
// one a file made at module level without a device.
void moved_to_gpu(const std::vector<Ref>& values) {
  for (const Ref& v : values)
    if (v->kind == K::Tensor) v->tensor->device = torch::Tensor::Device::Gpu;
}

// get_init_inputs() as the model's arguments (none without the function).
CallArgs init_arguments(Session& s, const std::string& path, TorchState& state) {
  CallArgs init;
  init.at = kFileStart;
  if (!s.env->lookup("get_init_inputs")) return init;
  init.pos = call_list(s.in, s.function(path, "get_init_inputs"));
  moved_to_gpu(init.pos);
  // `s` is the reference's session: KernelBook's reference defines no Model.
  if (s.env->lookup("Model") || init.pos.size() != 2 || init.pos[0]->kind != K::List ||
      init.pos[1]->kind != K::Dict)
    return init;
  Ref args = init.pos[0], kwargs = init.pos[1];
  init.pos = args->items;
  for (const auto& [key, value] : kwargs->dict) {
    if (key->kind != K::Str)
      throw python::ProgramError(path + ": get_init_inputs()'s keyword arguments need str keys");
    init.kw.push_back({key->s, value});
    moved_to_gpu({value});
  }
  state.host_assumptions.insert("get_init_inputs() returns [args, kwargs] (KernelBook's files)");
  return init;
}

// KernelBench moves the model to the GPU after building it (`model.cuda(device=device)`): its
// parameters and buffers go there; a tensor it keeps as a plain attribute stays where it was made.
void to_gpu_as_kernelbench(Session& s, const Ref& model) {
  Ref cuda;
  try {
    cuda = s.in.getattr(model, "cuda", kFileStart);
  } catch (const keq::Error&) {
    return;  // not a module (KernelBench checks isinstance(model, nn.Module) too)
  }
  CallArgs none;
  none.at = kFileStart;
  s.in.call(cuda, none);
}

void forward_and_collect(Session& s, TorchState& state, const std::string& path,
                         const std::string& class_name, CallArgs init_args,
                         const std::vector<Ref>& inputs, Program& p, ir::TermStore& store,
                         bool eval_mode) {
  state.enter_kernelbench_no_grad();
  state.phase = TorchState::Phase::Init;
  Ref model = s.in.call(s.function(path, class_name), init_args);
  to_gpu_as_kernelbench(s, model);
  if (eval_mode) {  // model.eval(), as a user's harness would call it
    CallArgs none;
    none.at = kFileStart;
    s.in.call(s.in.getattr(model, "eval", kFileStart), none);
  }
  CallArgs fwd;
  fwd.at = kFileStart;
  fwd.pos = inputs;
  p.forward_args = inputs;
  // forward's parameter names past self: a counterexample names in0 as forward's `x`. Only a
  // report's words: a forward keq cannot look up here is left to the call below to report.
  try {
    Ref forward = s.in.getattr(model, "forward", kFileStart);
    if (forward && forward->kind == K::BoundMethod) {
      p.forward_params = s.in.parameter_names(forward->items.at(1));
      if (!p.forward_params.empty()) p.forward_params.erase(p.forward_params.begin());
    }
  } catch (const keq::Error&) {
  }
  state.phase = TorchState::Phase::Forward;
  Ref out;
  s.guarded([&] { out = s.in.call(model, fwd); });
  flatten_outputs(out, p.outputs, s.in, kFileStart);
  report_undefined_outputs(store, p);
  if (narrow_rounding() == NarrowRounding::Once)  // outputs are written in their format
    for (std::shared_ptr<Tensor>& t : p.outputs) {
      auto r = std::make_shared<Tensor>(*t);
      for (ir::TermId& e : r->elems)
        if (e != Tensor::kUninit) e = detail::rounded(store, r->dtype, e);
      t = r;
    }
}

// An fp32 input get_inputs() casts whole to a narrow float dtype (torch.randn(m, k).to(
// torch.float8_e4m3fn), as fp8 GEMM tests make their operands) is an input of that dtype: finite
// inputs are then finite values of the format, not the NaN (or inf) the cast gives past its
// range. Only where no returned tensor holds the fp32 values themselves; --nonfinite-inputs
// still lets them be +-inf and NaN (an unbounded float input of any dtype).
void narrow_cast_inputs(TorchState& st, const ir::TermStore& s, const std::vector<Ref>& inputs) {
  auto narrow_dtype = [](ir::Op op) -> std::optional<DType> {
    switch (op) {
      case ir::Op::CastF16:
        return DType::F16;
      case ir::Op::CastBF16:
        return DType::BF16;
      case ir::Op::CastE4M3:
        return DType::E4M3;
      case ir::Op::CastE5M2:
        return DType::E5M2;
      default:
        return std::nullopt;
    }
  };
  auto input_of = [&](ir::TermId v) -> SymbolicTensor* {
    if (s.op(v) != ir::Op::Var) return nullptr;
    const std::string& name = s.variable_of(v).name;
    for (SymbolicTensor& t : st.inputs)
      if (name.compare(0, t.name.size() + 1, t.name + "[") == 0) return &t;
    return nullptr;
  };
  std::map<SymbolicTensor*, std::optional<DType>> cast_to;  // nullopt: seen uncast
  std::map<SymbolicTensor*, int64_t> covered;
  for (const Ref& v : inputs) {
    if (v->kind != K::Tensor) continue;
    for (ir::TermId e : v->tensor->elems) {
      std::optional<DType> d = e < s.size() ? narrow_dtype(s.op(e)) : std::nullopt;
      SymbolicTensor* t = input_of(d ? s.children(e)[0] : e);
      if (!t) continue;
      auto [it, fresh] = cast_to.try_emplace(t, d);
      if (!fresh && it->second != d) it->second = std::nullopt;
      ++covered[t];
    }
  }
  for (auto& [t, d] : cast_to) {
    int64_t n = 1;
    for (int64_t k : t->shape) n *= k;
    if (!d || t->dtype != DType::F32 || covered[t] != n || t->lo != -INFINITY || t->hi != INFINITY)
      continue;
    t->dtype = *d;
    st.host_assumptions.insert(t->name + " (" + t->origin + " cast to " +
                               std::string(dtype_name(*d)) + " in get_inputs) takes finite " +
                               std::string(dtype_name(*d)) + " values, as a finite input");
  }
}

// --any-inputs (DESIGN.md): a float input is any finite value of its dtype. Integer inputs keep
// get_inputs()'s range: they are indices and class labels, whose range is the model's contract
// (out of it, torch raises).
void widen_float_inputs(TorchState& st, bool any_inputs) {
  if (!any_inputs) return;
  for (SymbolicTensor& t : st.inputs)
    if (is_float(t.dtype)) t.lo = -INFINITY, t.hi = INFINITY, t.hi_open = false;
}

void record_constants(const Session& s, Program& p) {
  for (const auto& [name, v] : s.env->vars)
    if (v->kind == K::Int && name != "__name__") p.constants.push_back({name, v->i});
  std::sort(p.constants.begin(), p.constants.end());
}

}  // namespace

Program run_program(const std::string& path, ir::TermStore& store, const std::string& class_name,
                    const Dims& dims, bool params_initial, bool eval_mode, bool any_inputs) {
  Program p;
  p.file = p.inputs_file = path;
  p.class_name = class_name;
  p.state.params_initial = params_initial;
  Session s(path, store, p.state, dims, true);
  record_constants(s, p);
  CallArgs init = init_arguments(s, path, p.state);
  // randn names parameters while a model is built and inputs in get_inputs: by phase, whatever
  // the order of the calls.
  p.state.phase = TorchState::Phase::Inputs;
  p.state.enter_kernelbench_no_grad();
  std::vector<Ref> inputs = call_list(s.in, s.function(path, "get_inputs"));
  moved_to_gpu(inputs);
  widen_float_inputs(p.state, any_inputs);
  narrow_cast_inputs(p.state, store, inputs);
  forward_and_collect(s, p.state, path, class_name, init, inputs, p, store, eval_mode);
  return p;
}

Program run_candidate(const std::string& cand_path, const std::string& ref_path,
                      ir::TermStore& store, const Dims& dims, bool params_initial,
                      const std::string& class_name, size_t autotune_config, bool eval_mode,
                      python::TimingChoices* timing, bool first_program_only, bool any_inputs,
                      std::vector<ParameterAlias> parameter_aliases, size_t reference_parameters) {
  // The reference supplies sizes and inputs.
  TorchState ref_state;
  Session ref(ref_path, store, ref_state, dims, true);
  Program p;
  CallArgs init = init_arguments(ref, ref_path, p.state);
  ref_state.phase = TorchState::Phase::Inputs;
  ref_state.enter_kernelbench_no_grad();
  std::vector<Ref> inputs = call_list(ref.in, ref.function(ref_path, "get_inputs"));
  moved_to_gpu(inputs);
  widen_float_inputs(ref_state, any_inputs);
  narrow_cast_inputs(ref_state, store, inputs);
  p.file = cand_path;
  p.inputs_file = ref_path;
  p.class_name = class_name;
  p.state.params_initial = params_initial;
  p.state.inputs = ref_state.inputs;
  p.state.autotune_choice = autotune_config;
  p.state.timing = timing;
  p.state.first_program_only = first_program_only;
  p.state.parameter_aliases = std::move(parameter_aliases);
  p.state.reference_parameters = reference_parameters;
  Session cand(cand_path, store, p.state, {}, false);  // the candidate's constants stay as written
  record_constants(ref, p);
  forward_and_collect(cand, p.state, cand_path, class_name, init, inputs, p, store, eval_mode);
  return p;
}

namespace {
struct TopLevelClass {
  bool module = false;  // a base is spelled Module (nn.Module, Module)
  bool used = false;    // another top-level class's body names it
};

void names_in(const python::Tree& tree, python::NodeId n, std::set<std::string>& out) {
  if (n == python::kNoNode) return;
  const python::Node& at = tree.at(n);
  if (at.kind == python::NodeKind::Name) out.insert(at.text);
  for (python::NodeId k : at.kids) names_in(tree, k, out);
}

// A file's top-level classes, each with whether it is an nn.Module and whether another class
// uses it (KernelBook's helper modules are used by the module the entry tests).
std::map<std::string, TopLevelClass> top_level_classes(const std::string& path) {
  std::map<std::string, TopLevelClass> classes;
  std::map<std::string, std::set<std::string>> uses;
  try {
    python::Tree tree = python::parse_file(path);
    for (python::NodeId k : tree.at(tree.root).kids) {
      const python::Node& c = tree.at(k);
      if (c.kind != python::NodeKind::ClassDef) continue;
      bool module = false;
      for (python::NodeId b : tree.at(c.kids.at(1)).kids)
        module |= (tree.at(b).kind == python::NodeKind::Name ||
                   tree.at(b).kind == python::NodeKind::Attribute) &&
                  tree.at(b).text == "Module";
      classes[c.text].module = module;
      names_in(tree, k, uses[c.text]);
    }
  } catch (const std::exception&) {  // running the file reports what stops it
  }
  for (const auto& [user, names] : uses)
    for (const std::string& n : names)
      if (n != user && classes.count(n)) classes[n].used = true;
  return classes;
}
}  // namespace

ModelClasses model_classes(const std::string& ref_path, const std::string& cand_path,
                           const std::string& ref_class, const std::string& cand_class) {
  ModelClasses m;
  if (!ref_class.empty() || !cand_class.empty()) {
    ModelClasses chosen = model_classes(ref_path, cand_path);
    if (!ref_class.empty()) chosen.reference = ref_class, chosen.note.clear();
    if (!cand_class.empty()) chosen.candidate = cand_class;
    return chosen;
  }
  std::map<std::string, TopLevelClass> ref = top_level_classes(ref_path),
                                       cand = top_level_classes(cand_path);
  if (ref.count(m.reference)) return m;
  std::vector<std::string> pairs, modules, roots;
  for (const auto& [c, info] : cand)
    if (c.size() > 3 && c.compare(c.size() - 3, 3, "New") == 0 &&
        ref.count(c.substr(0, c.size() - 3)))
      pairs.push_back(c.substr(0, c.size() - 3));
  if (pairs.size() == 1) {
    m.reference = pairs[0], m.candidate = pairs[0] + "New";
  } else if (pairs.empty() && cand.count(m.candidate)) {
    // A KernelBook reference answered with KernelBench's ModelNew: its one nn.Module class, or
    // the one no other class uses (the module its helpers serve).
    for (const auto& [c, info] : ref) {
      if (info.module) modules.push_back(c);
      if (info.module && !info.used) roots.push_back(c);
    }
    if (modules.size() == 1) m.reference = modules[0];
    if (modules.size() > 1 && roots.size() == 1) {
      m.reference = roots[0];
      m.note = "the reference's class " + roots[0] + " is compared with ModelNew: of its " +
               std::to_string(modules.size()) + " nn.Module classes, the one no other uses";
    }
  }
  return m;
}

namespace {
std::string describe_parameter(const Program& p, const SymbolicTensor& t) {
  std::string shape;
  for (size_t k = 0; k < t.shape.size(); ++k) shape += (k ? ", " : "") + std::to_string(t.shape[k]);
  return std::string(torch::dtype_name(t.dtype)) + "[" + shape + "] (" + t.origin + " at " +
         p.file + ":" + std::to_string(t.at.line) + ":" + std::to_string(t.at.col) +
         (t.held_initial ? ", holding the values it is made with" : "") + ")";
}

// How many ways the shorter list of parameters embeds, order kept, in the longer by shape and
// dtype: 0, 1 or 2 (two or more).
size_t parameter_embeddings(const std::vector<SymbolicTensor>& few,
                            const std::vector<SymbolicTensor>& many) {
  // ways[i]: embeddings of few's first i into the part of many seen so far, capped at 2.
  std::vector<size_t> ways(few.size() + 1, 0);
  ways[0] = 1;
  for (const SymbolicTensor& t : many)
    for (size_t i = few.size(); i > 0; --i)
      if (few[i - 1].shape == t.shape && few[i - 1].dtype == t.dtype)
        ways[i] = std::min<size_t>(2, ways[i] + ways[i - 1]);
  return ways[few.size()];
}

// A candidate's parameter in a narrower float format than the reference's float32 one (fp16
// weights for tensor cores): both are the variable p<k>, the candidate's rounded to its format
// (TorchLib::symbolic), which is the reference's value copied in by load_state_dict.
bool narrowed(const SymbolicTensor& ref, const SymbolicTensor& cand) {
  return ref.shape == cand.shape && ref.dtype == DType::F32 && is_float(cand.dtype) &&
         cand.dtype != DType::F32;
}

}  // namespace

std::optional<std::string> narrowed_parameters(const Program& ref, const Program& cand) {
  const auto &a = ref.state.parameters, &b = cand.state.parameters;
  std::string which;
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    if (narrowed(a[k], b[k]))
      which += (which.empty() ? "" : "; ") + std::string("parameter ") + std::to_string(k) + ": " +
               cand.class_name + "'s " + describe_parameter(cand, b[k]) + " holds " +
               ref.class_name + "'s " + describe_parameter(ref, a[k]) + " rounded to " +
               std::string(dtype_name(b[k].dtype));
  if (which.empty()) return std::nullopt;
  return which + " (what load_state_dict copies in)";
}

std::optional<std::string> parameter_mismatch(const Program& ref, const Program& cand) {
  const auto &a = ref.state.parameters, &b = cand.state.parameters;
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    if (a[k].shape != b[k].shape || (a[k].dtype != b[k].dtype && !narrowed(a[k], b[k])))
      return "parameter " + std::to_string(k) + ": " + ref.class_name + " creates " +
             describe_parameter(ref, a[k]) + " but " + cand.class_name + " creates " +
             describe_parameter(cand, b[k]);
  // With counts that differ, creation order pairs the first ones only where the shapes allow
  // no other pairing (a candidate without a bias in the middle would shift every later one), or
  // where each of the first ones is made as the other side's is (the same module's parameter, or
  // the same torch function): seeded alike, each side draws those in creation order, so they
  // hold the same values, and the longer side's last ones are its own (ResNet's downsample a
  // candidate builds only when the channels differ).
  bool ref_more = a.size() > b.size();
  bool made_alike = true;
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    made_alike = made_alike && a[k].origin == b[k].origin;
  if (a.size() != b.size() && !made_alike &&
      parameter_embeddings(ref_more ? b : a, ref_more ? a : b) > 1)
    return ref.class_name + " creates " + std::to_string(a.size()) + " parameters and " +
           cand.class_name + " " + std::to_string(b.size()) + ", and their shapes do not say " +
           "which of " + (ref_more ? ref.class_name : cand.class_name) + "'s have no counterpart";
  return std::nullopt;
}

namespace {
std::vector<int64_t> without_ones(std::vector<int64_t> shape) {
  std::erase(shape, 1);
  return shape;
}

// Whether a reference parameter and a candidate's can hold the same values under a pairing.
bool pairable(const SymbolicTensor& ref, const SymbolicTensor& cand) {
  return without_ones(ref.shape) == without_ones(cand.shape) &&
         (ref.dtype == cand.dtype ||
          narrowed(ref, SymbolicTensor{cand.name, cand.origin, ref.shape, cand.dtype, cand.at}));
}

// A candidate's 2-D weight held as the reference's transpose ([in, out] for nn.Linear's
// [out, in], for coalesced loads): pairable with it element [i, j] to [j, i].
bool transposable(const SymbolicTensor& ref, const SymbolicTensor& cand) {
  if (ref.shape.size() != 2 || cand.shape.size() != 2 || ref.shape == cand.shape) return false;
  SymbolicTensor back = cand;
  back.shape = {cand.shape[1], cand.shape[0]};
  return back.shape == ref.shape && pairable(ref, back);
}

// Pairings of `few` into `many` (few[i] with many[into[i] / 2], transposed where into[i] is
// odd), each element of `many` used once, at most `limit`.
void assignments(const std::vector<const SymbolicTensor*>& few,
                 const std::vector<const SymbolicTensor*>& many, bool few_is_ref, size_t limit,
                 std::vector<size_t>& into, std::vector<bool>& taken,
                 std::vector<std::vector<size_t>>& out) {
  if (out.size() >= limit) return;
  if (into.size() == few.size()) {
    out.push_back(into);
    return;
  }
  const SymbolicTensor& f = *few[into.size()];
  for (size_t j = 0; j < many.size(); ++j) {
    if (taken[j]) continue;
    const SymbolicTensor &r = few_is_ref ? f : *many[j], &c = few_is_ref ? *many[j] : f;
    for (bool transposed : {false, true}) {
      if (!(transposed ? transposable(r, c) : pairable(r, c))) continue;
      into.push_back(2 * j + transposed), taken[j] = true;
      assignments(few, many, few_is_ref, limit, into, taken, out);
      into.pop_back(), taken[j] = false;
    }
  }
}
}  // namespace

std::vector<std::vector<ParameterAlias>> parameter_pairings(const Program& ref, const Program& cand,
                                                            size_t cap,
                                                            const std::vector<bool>& cand_used) {
  std::vector<const SymbolicTensor*> a, b;
  for (const SymbolicTensor& t : ref.state.parameters) a.push_back(&t);
  std::vector<size_t> index;  // b[i] is the candidate's parameter index[i]
  for (size_t k = 0; k < cand.state.parameters.size(); ++k)
    if (k >= cand_used.size() || cand_used[k])
      b.push_back(&cand.state.parameters[k]), index.push_back(k);
  bool ref_fewer = a.size() < b.size();
  const auto &few = ref_fewer ? a : b, &many = ref_fewer ? b : a;
  std::vector<size_t> into;
  std::vector<bool> taken(many.size(), false);
  std::vector<std::vector<size_t>> found;
  constexpr size_t kEnumerated = 64;  // enough to rank; past it, order-kept ones may be missed
  assignments(few, many, ref_fewer, kEnumerated, into, taken, found);
  // Pairings that keep creation order first: the most natural reading of a candidate that only
  // dropped or added a parameter.
  std::stable_partition(found.begin(), found.end(),
                        [](const std::vector<size_t>& e) { return std::ranges::is_sorted(e); });
  if (found.size() > cap + 1) found.resize(cap + 1);
  std::vector<std::vector<ParameterAlias>> out;
  for (const auto& e : found) {
    std::vector<ParameterAlias> aliases(cand.state.parameters.size());
    for (size_t i = 0; i < e.size(); ++i) {
      const SymbolicTensor& r = *a[ref_fewer ? i : e[i] / 2];
      aliases[index[ref_fewer ? e[i] / 2 : i]] = {r.name, r.shape, e[i] % 2 == 1};
    }
    out.push_back(std::move(aliases));
  }
  return out;
}

std::string describe_pairing(const Program& ref, const Program& cand) {
  std::string out;
  const auto& aliases = cand.state.parameter_aliases;
  for (size_t k = 0; k < cand.state.parameters.size(); ++k) {
    const SymbolicTensor& c = cand.state.parameters[k];
    std::string with = "nothing of " + ref.class_name + "'s";
    for (const SymbolicTensor& r : ref.state.parameters)
      if (k < aliases.size() && r.name == aliases[k].name)
        with = ref.class_name + "'s " + r.name + ", " + describe_parameter(ref, r) +
               (aliases[k].transposed ? ", transposed" : "");
    out += (out.empty() ? "" : "; ") + cand.class_name + "'s parameter " + std::to_string(k) +
           ", " + describe_parameter(cand, c) + ", with " + with;
  }
  for (const SymbolicTensor& r : ref.state.parameters)
    if (std::none_of(aliases.begin(), aliases.end(),
                     [&](const ParameterAlias& a) { return a.name == r.name; }))
      out += "; " + ref.class_name + "'s " + r.name + ", " + describe_parameter(ref, r) +
             ", with nothing of " + cand.class_name + "'s";
  return out;
}

std::optional<std::string> unmatched_parameters(const Program& ref, const Program& cand) {
  const auto &a = ref.state.parameters, &b = cand.state.parameters;
  if (a.size() == b.size()) return std::nullopt;
  const Program& more = a.size() > b.size() ? ref : cand;
  std::string which;
  bool all_held = true;
  for (size_t k = std::min(a.size(), b.size()); k < more.state.parameters.size(); ++k) {
    which += (which.empty() ? "" : ", ") + describe_parameter(more, more.state.parameters[k]);
    all_held = all_held && more.state.parameters[k].held_initial;
  }
  return ref.class_name + " creates " + std::to_string(a.size()) + " parameters and " +
         cand.class_name + " " + std::to_string(b.size()) + ": " + more.class_name + "'s " + which +
         " match none of the other's, so " +
         (all_held ? std::string("no loading of the other's weights changes them")
                   : "those not made from deterministic values take values of their own (a "
                     "verdict holds for every value of them)");
}

}  // namespace keq::torch
