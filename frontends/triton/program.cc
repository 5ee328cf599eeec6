#include "frontends/triton/program.h"
#include "frontends/triton/triton.h"

#include <algorithm>
#include <set>

namespace keq::torch {

using python::CallArgs;
using python::Value;
using K = Value::Kind;

namespace {

void flatten_outputs(const Ref& v, std::vector<std::shared_ptr<Tensor>>& out, python::Interp& in, python::Span at) {
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
  absl::flat_hash_map<ir::TermId, bool> seen;
  std::vector<ir::TermId> stack;
  std::set<std::string> reported;
  for (const auto& t : p.outputs)
    for (ir::TermId e : t->elems) {
      if (e == Tensor::kUninit) {
        reported.insert("an output element that nothing wrote (torch.empty, never stored)");
        continue;
      }
      stack.push_back(e);
    }
  while (!stack.empty()) {
    ir::TermId t = stack.back();
    stack.pop_back();
    if (!seen.try_emplace(t, true).second) continue;
    if (s.op(t) == ir::Op::Var && s.variable_of(t).name.rfind("undef@", 0) == 0) {
      const std::string& n = s.variable_of(t).name;
      size_t hash = n.find('#'), br = n.find('[');
      reported.insert(n.substr(6, hash - 6) + ": " + n.substr(br + 1, n.size() - br - 2) + " reaches an output");
    }
    for (ir::TermId c : s.children(t)) stack.push_back(c);
  }
  for (const auto& r : reported) p.state.findings.push_back(r);
}

}  // namespace

Program run_program(const std::string& path, ir::TermStore& store, const std::string& class_name, const Dims& dims,
                    bool params_initial) {
  Program p;
  p.state.params_initial = params_initial;
  p.file = path;
  p.class_name = class_name;
  python::Tree tree = python::parse_file(path);
  python::Interp in(store);
  install(in, p.state);
  triton::install(in, p.state);
  absl::flat_hash_map<std::string, std::vector<int64_t>> overrides(dims.begin(), dims.end());
  std::vector<std::string> applied;
  std::shared_ptr<python::Env> env = in.run(tree, overrides, &applied);
  python::Span file_start{1, 1, 1, 1};
  for (const auto& [name, value] : dims)
    if (std::find(applied.begin(), applied.end(), name) == applied.end())
      throw python::ProgramError(path + ": --dims: '" + name + "' is not a module-level integer constant or tuple");
  for (const auto& [name, v] : env->vars)
    if (v->kind == K::Int && name != "__name__") p.constants.push_back({name, v->i});
  std::sort(p.constants.begin(), p.constants.end());
  auto function = [&](const std::string& name) -> Ref {
    Ref f = env->lookup(name);
    if (!f) throw python::ProgramError(path + ": no " + name + " defined");
    return f;
  };
  CallArgs none_args;
  none_args.at = file_start;
  Ref init = env->lookup("get_init_inputs") ? in.call(function("get_init_inputs"), none_args) : python::list({});
  CallArgs init_args;
  init_args.at = file_start;
  init_args.pos = in.to_sequence(init, file_start);
  p.state.phase = TorchState::Phase::Init;
  Ref model = in.call(function(class_name), init_args);
  p.state.phase = TorchState::Phase::Inputs;
  Ref inputs = in.call(function("get_inputs"), none_args);
  CallArgs fwd;
  fwd.at = file_start;
  fwd.pos = in.to_sequence(inputs, file_start);
  p.forward_args = fwd.pos;
  p.state.phase = TorchState::Phase::Forward;
  Ref out = in.call(model, fwd);
  flatten_outputs(out, p.outputs, in, file_start);
  report_undefined_outputs(store, p);
  // Functions hold their module's Env and the Env holds them: clear it so the run's values are
  // freed (the outputs are tensors, which hold no interpreter values).
  env->vars.clear();
  return p;
}

std::optional<std::string> parameter_mismatch(const Program& ref, const Program& cand) {
  auto describe = [](const Program& p, const SymbolicTensor& t) {
    std::string shape;
    for (size_t k = 0; k < t.shape.size(); ++k) shape += (k ? ", " : "") + std::to_string(t.shape[k]);
    return std::string(python::dtype_name(t.dtype)) + "[" + shape + "] (" + t.origin + " at " + p.file + ":" +
           std::to_string(t.at.line) + ":" + std::to_string(t.at.col) + ")";
  };
  const auto &a = ref.state.parameters, &b = cand.state.parameters;
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    if (a[k].shape != b[k].shape || a[k].dtype != b[k].dtype)
      return "parameter " + std::to_string(k) + ": " + ref.class_name + " creates " + describe(ref, a[k]) + " but " +
             cand.class_name + " creates " + describe(cand, b[k]);
  if (a.size() != b.size()) {
    const Program& more = a.size() > b.size() ? ref : cand;
    const auto& extra = more.state.parameters[std::min(a.size(), b.size())];
    return ref.class_name + " creates " + std::to_string(a.size()) + " parameters and " + cand.class_name + " " +
           std::to_string(b.size()) + "; the first unmatched is " + describe(more, extra);
  }
  return std::nullopt;
}

}  // namespace keq::torch
