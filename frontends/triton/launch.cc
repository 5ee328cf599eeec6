// Kernels and launches: @triton.jit functions, kernel[grid](...), constexpr parameters,
// autotune configs and heuristics.
#include <exception>

#include "frontends/triton/triton_impl.h"

namespace keq::triton::impl {

namespace {

// The memory a launch may write, as it is now: tensors and their views, to put back.
using Snapshot = std::vector<std::pair<TensorPtr, std::vector<TermId>>>;
void keep(const TensorPtr& t, Snapshot& into) {
  into.push_back({t, t->elems});
  if (t->storage.members)
    for (const auto& m : *t->storage.members)
      if (auto v = m.lock(); v && v != t) into.push_back({v, v->elems});
}
void put_back(const Snapshot& from) {
  for (const auto& [t, elems] : from) t->elems = elems;
}
Snapshot argument_memory(const CallArgs& a) {  // every tensor argument's
  Snapshot out;
  for (const Ref& v : a.pos)
    if (v->kind == Value::Kind::Tensor) keep(v->tensor, out);
  for (const auto& [k, v] : a.kw)
    if (v->kind == Value::Kind::Tensor) keep(v->tensor, out);
  return out;
}

}  // namespace

Ref Triton::make_kernel(const Ref& fn) {
  st.kernels_defined.push_back(fn->s);
  auto attrs = std::make_shared<Attrs>();
  (*attrs)["fn"] = fn;
  jit_bodies_.insert(fn.get());
  if (fn->kind == K::Function && fn->fn && fn->fn->tree) {
    const python::Span& at = fn->fn->tree->at(fn->fn->def).span;
    std::string site =
        fn->fn->tree->file + ":" + std::to_string(at.line) + ":" + std::to_string(at.col);
    st.kernels_run.try_emplace(site, torch::TorchState::KernelRun{fn->s, false});
    (*attrs)["<site>"] = python::string(site);
    // What JITFunction.__init__ sets that libraries read (fla's autotuner: fn.arg_names).
    std::vector<Ref> names;
    for (const std::string& n : in.parameter_names(fn)) names.push_back(python::string(n));
    (*attrs)["arg_names"] = python::list(std::move(names));
    for (const char* name : {"__name__", "__module__", "__doc__"})
      (*attrs)[name] = in.function_attribute(fn, name, at);
  }
  auto inst = std::make_shared<Value>();
  inst->kind = K::Instance;
  inst->cls = jit_class;
  inst->attrs = attrs;
  return inst;
}

// enable_fp_fusion lets the compiler contract a * b + c into an fma (Triton's default is True;
// unsloth passes it): real semantics computes exactly either way. IEEE semantics rounds each
// operation, as it does for every launch: contraction is not modelled there.
bool Triton::is_launch_option(const std::string& name) {
  return name == "num_warps" || name == "num_stages" || name == "num_ctas" || name == "maxnreg" ||
         name == "enable_fp_fusion";
}

// A keyword the launch takes as an option, not as the kernel's parameter of that name.
static bool option_not_parameter(const std::vector<std::string>& params, const std::string& key) {
  return Triton::is_launch_option(key) &&
         std::find(params.begin(), params.end(), key) == params.end();
}

namespace {

// The names a function's body binds (its parameters, assignment and loop targets): Triton's
// DependenciesFinder takes them as locals, not globals.
void bound_targets(const python::Tree& t, python::NodeId n, absl::flat_hash_set<std::string>& out) {
  using python::NodeKind;
  if (n == python::kNoNode) return;
  const python::Node& x = t.at(n);
  if (x.kind == NodeKind::Name) out.insert(x.text);
  if (x.kind == NodeKind::Tuple || x.kind == NodeKind::List || x.kind == NodeKind::Starred)
    for (python::NodeId k : x.kids) bound_targets(t, k, out);
}

void locals_of(const python::Tree& t, python::NodeId n, absl::flat_hash_set<std::string>& out) {
  using python::NodeKind;
  const python::Node& x = t.at(n);
  switch (x.kind) {
    case NodeKind::Param:
      out.insert(x.text);
      break;
    case NodeKind::Assign:
      for (size_t k = 0; k + 1 < x.kids.size(); ++k) bound_targets(t, x.kids[k], out);
      break;
    case NodeKind::AugAssign:
    case NodeKind::AnnAssign:
    case NodeKind::For:
    case NodeKind::NamedExpr:
      bound_targets(t, x.kids[0], out);
      break;
    case NodeKind::WithItem:
      if (x.kids.size() > 1) bound_targets(t, x.kids[1], out);
      break;
    default:
      break;
  }
  for (python::NodeId k : x.kids)
    if (k != python::kNoNode) locals_of(t, k, out);
}

// Every Name and Attribute node under n.
void references(const python::Tree& t, python::NodeId n, std::vector<python::NodeId>& out) {
  const python::Node& x = t.at(n);
  if (x.kind == python::NodeKind::Name || x.kind == python::NodeKind::Attribute) out.push_back(n);
  for (python::NodeId k : x.kids)
    if (k != python::kNoNode) references(t, k, out);
}

}  // namespace

void Triton::check_references(const Ref& kernel_fn, Span at) {
  if (references_checked_.contains(kernel_fn.get())) return;
  std::vector<Ref> todo{kernel_fn};
  absl::flat_hash_set<const Value*> seen;
  while (!todo.empty()) {
    Ref fn = todo.back();
    todo.pop_back();
    if (fn->kind != K::Function || !fn->fn || !fn->fn->tree || !fn->fn->closure ||
        !seen.insert(fn.get()).second)
      continue;
    const python::Tree& t = *fn->fn->tree;
    absl::flat_hash_set<std::string> locals;
    locals_of(t, fn->fn->def, locals);
    std::vector<python::NodeId> names;
    references(t, t.at(fn->fn->def).kids.back(), names);
    for (python::NodeId id : names) {
      const python::Node& x = t.at(id);
      Ref v;
      if (x.kind == python::NodeKind::Name) {
        // Names Triton reads without checking them (its supported Python builtins), even where
        // the module rebinds one (a `def max(...)` of its own).
        static const absl::flat_hash_set<std::string> kUnchecked = {
            "float", "getattr", "int", "isinstance", "len", "list", "max", "min", "print", "range"};
        if (locals.contains(x.text) || kUnchecked.contains(x.text)) continue;
        auto [value, scope] = fn->fn->closure->lookup_where(x.text);
        if (!value || !scope || !scope->parent) continue;  // unbound, or a builtin
        v = value;
      } else {  // helpers.f where helpers is a module read from source (Triton's are exempt)
        const python::Node& base = t.at(x.kids[0]);
        if (base.kind != python::NodeKind::Name || locals.contains(base.text)) continue;
        Ref m = fn->fn->closure->lookup(base.text);
        if (!m || m->kind != K::Module || !m->scope) continue;
        auto it = m->scope->vars.find(x.text);
        if (it == m->scope->vars.end()) continue;
        v = it->second;
      }
      if (v->kind == K::Instance && v->cls == jit_class) todo.push_back((*v->attrs)["fn"]);
      if (v->kind == K::Function && !jit_bodies_.contains(v.get()))
        in.raise(at, "RuntimeError: Unsupported function referenced: <function " + v->s + "> (" +
                         kernel_fn->s + " refers to it at " + t.file + ":" +
                         std::to_string(x.span.line) + ":" + std::to_string(x.span.col) +
                         " and it has no @triton.jit: Triton refuses the kernel as it first "
                         "compiles)");
    }
  }
  references_checked_.insert(kernel_fn.get());  // a kernel that passed
}

Ref Triton::launch(const Ref& kernel, const Ref& grid, CallArgs& a) {
  if (run) in.unsupported(a.at, "a kernel launch inside a kernel");
  Ref fn = (*kernel->attrs)["fn"];
  check_references(fn, a.at);
  note_kernel_ran(kernel);
  // Constexprs and launch options come as keywords; an autotuned kernel adds its config's. A
  // kernel that declares a parameter named like an option (num_warps: tl.constexpr) gets the
  // value too, as Triton binds keywords to the signature first.
  Attrs meta;
  std::vector<std::string> params = in.parameter_names(fn);
  for (auto& [k, v] : a.kw) {
    if (k == "num_warps") check_num_warps(in, a.at, v);
    if (!option_not_parameter(params, k)) meta[k] = v;
  }
  Ref cfg;
  if (auto it = kernel->attrs->find("configs"); it != kernel->attrs->end()) {
    const std::vector<Ref>& configs = it->second->items;
    if (!nested_launch_ && configs.size() > 1 && first_for_key(kernel, fn, a)) {
      refuse_tuned_keywords(configs, nullptr, a);
      return launch_after_tuning(kernel, grid, a);
    }
    auto skipped = skipped_configs_.find(kernel.get());
    cfg = apply_config(fn, configs, a.at, meta,
                       skipped == skipped_configs_.end() ? nullptr : &skipped->second);
    refuse_tuned_keywords(configs, cfg, a);
  }
  if (auto it = kernel->attrs->find("heuristics"); it != kernel->attrs->end())
    apply_heuristics(fn, it->second, a, meta);
  if (cfg) run_pre_hook(cfg, fn, a, meta);
  // A keyword that is no parameter and no option (a misspelled one, or an autotune config's
  // block the kernel does not declare): Triton's compiled launch raises KeyError before it
  // compiles (JITFunction._pack_args; the cache key holds the keyword, so every launch misses).
  // Its interpreter ignores the keyword; keq models the GPU, where an LLM's KL-div kernel raised
  // so in KernelBench's own run.
  for (const auto& [k, v] : meta)
    if (std::find(params.begin(), params.end(), k) == params.end())
      in.raise(a.at, "KeyError: 'Keyword argument " + k + " was specified but unrecognised'");
  CallArgs call = kernel_call(fn, params, a, meta);
  Launch l;
  try {  // what JITFunction.run checks after compiling: the grid, then the launcher's pointers
    grid_of(fn, params, grid, a, meta, l);
    refuse_cpu_tensors(params, a, meta);
  } catch (const python::ProgramError& e) {
    if (!e.confirmed) throw;
    std::optional<std::string> stopped = compile_first(fn, call);
    if (!stopped) throw;
    // The launch's error, saying what keq could not check before it.
    python::ProgramError said(std::string(e.what()) + " (compiling " + fn->s +
                                  " first stopped in keq's model, where Triton may raise "
                                  "instead: " +
                                  *stopped + ")",
                              true);
    said.classes = e.classes, said.instance = e.instance;
    throw said;
  }
  record_block_sizes(fn, a.pos, meta);
  std::string consts;
  for (const auto& [k, v] : std::map<std::string, Ref>(meta.begin(), meta.end()))
    consts += (consts.empty() ? "" : ", ") + k + "=" + in.repr(v);
  st.launches.push_back(in.where(a.at) + ": " + fn->s + " grid (" + std::to_string(l.grid[0]) +
                        ", " + std::to_string(l.grid[1]) + ", " + std::to_string(l.grid[2]) + ")" +
                        (consts.empty() ? "" : " with " + consts));
  std::vector<TensorPtr> pointed;
  std::optional<std::string> key = launch_key(fn, consts, l, call, pointed);
  if (key && replay_launch(*key, pointed)) return python::none();
  const int64_t undefined_before = undef_count;
  const size_t findings_before = st.findings.size();
  const int64_t unlisted_before = st.findings_unlisted;
  run = &l;
  struct EndOfRun {  // also where a program raises and host code catches it (a fallback)
    Triton& t;
    int exceptions = std::uncaught_exceptions();
    ~EndOfRun() {
      if (std::uncaught_exceptions() > exceptions && t.run->wrote) t.raised_after_stores_ = true;
      t.run = nullptr, t.path.clear();
    }
  } end_of_run{*this};
  const int64_t stop = st.first_program_only ? 1 : INT64_MAX;
  // Once a launch has added a million findings past what a report lists, its other programs
  // only add to a count: a grid fixed for the file's sizes (49,152 programs of 64 lanes, every
  // one out of bounds at 2 x 3) ran 22 s to a verdict its first programs decide. Below that the
  // count is exact, and every program writes its outputs (a counterexample over the defined
  // ones comes with the findings).
  auto past_listing = [&] {
    return st.findings_unlisted - unlisted_before > torch::TorchState::kMostCountedFindings;
  };
  std::string stopped_after;
  for (l.pid[2] = 0; l.pid[2] < std::min(l.grid[2], stop) && !past_listing(); ++l.pid[2])
    for (l.pid[1] = 0; l.pid[1] < std::min(l.grid[1], stop) && !past_listing(); ++l.pid[1])
      for (l.pid[0] = 0; l.pid[0] < std::min(l.grid[0], stop) && !past_listing(); ++l.pid[0]) {
        l.stored_lane.clear();
        l.program_ids.clear();
        CallArgs c = call;
        in.call(fn, c);
        if (past_listing()) stopped_after = l.program_str();
      }
  if (!stopped_after.empty())
    st.findings.push_back(in.where(a.at) + ": note: " + fn->s + "'s launch stopped after " +
                          stopped_after + ", past " +
                          std::to_string(torch::TorchState::kMostCountedFindings) +
                          " findings beyond those listed; its other programs did not run (the "
                          "count is a floor)");
  run = nullptr;
  last_reads_prior_ = l.reads_prior;
  if (key && !l.reads_prior && undef_count == undefined_before &&
      st.findings.size() == findings_before && st.findings_unlisted == unlisted_before) {
    LaunchResult& kept = launch_memo_[*key];
    kept.after.clear();
    for (const TensorPtr& t : pointed) kept.after.push_back(t->elems);
    kept.finished = true;
  }
  return python::none();
}

// What each kernel parameter receives: positional arguments, then keywords, which are arguments
// like the others (a pointer, a runtime scalar) unless they name a constexpr parameter or a
// launch option.
CallArgs Triton::kernel_call(const Ref& fn, const std::vector<std::string>& params,
                             const CallArgs& a, const Attrs& meta) {
  CallArgs call;
  call.at = a.at;
  std::vector<bool> constexpr_param = constexpr_parameters(fn);
  for (size_t k = 0; k < a.pos.size(); ++k)
    call.pos.push_back(
        kernel_arg(a.pos[k], k >= constexpr_param.size() || !constexpr_param[k], a.at));
  for (auto& [k, v] : meta) {
    auto at = std::find(params.begin(), params.end(), k);
    size_t n = static_cast<size_t>(at - params.begin());
    bool runtime = at != params.end() && (n >= constexpr_param.size() || !constexpr_param[n]);
    call.kw.push_back({k, kernel_arg(v, runtime, a.at)});
  }
  return call;
}

// JITFunction.run: a callable grid called with the bound arguments, then len(grid), grid[0],
// and grid[1], grid[2] where there are (more are ignored); the launcher takes ints only.
void Triton::grid_of(const Ref& fn, const std::vector<std::string>& params, const Ref& grid,
                     CallArgs& a, const Attrs& meta, Launch& l) {
  Ref g = grid;
  if (g->kind == K::Function || g->kind == K::Builtin) {
    CallArgs c;
    c.at = a.at;
    c.pos = {grid_args(fn, params, a, meta)};
    g = in.call(g, c);
  }
  if (g->kind != K::Tuple && g->kind != K::List)
    in.raise(a.at, "TypeError: object of type '" + g->type_name() + "' has no len()");
  std::vector<Ref> dims = g->items;
  if (dims.empty()) in.raise(a.at, "IndexError: tuple index out of range");
  dims.resize(std::min<size_t>(dims.size(), 3));
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d]->kind == K::Float)
      in.raise(a.at, "TypeError: 'float' object cannot be interpreted as an integer");
    l.grid[d] = in.to_int(dims[d], a.at);
  }
  check_grid(in, a.at, l.grid);
}

// JITFunction.run (triton/runtime/jit.py) compiles the kernel before it reads the grid and
// launches, so a body that does not compile raises first (tl.num_warps() beside an int grid, a
// tl.trunc beside a CPU tensor).
// keq compiles by running: program 0 of a one-program grid, on memory restored afterwards,
// raises what compiling its path raises; otherwise the grid's error stands. Its findings and
// undefined values are dropped: that launch never ran. Returns where keq's model stopped it.
std::optional<std::string> Triton::compile_first(const Ref& fn, const CallArgs& call) {
  std::vector<std::pair<TensorPtr, std::vector<TermId>>> memory;
  auto keep = [&](const Ref& v) {
    if (v->kind == K::Pointer) memory.push_back({v->tensor, v->tensor->elems});
  };
  for (const Ref& v : call.pos) keep(v);
  for (const auto& [k, v] : call.kw) keep(v);
  const size_t findings_before = st.findings.size();
  const int64_t unlisted_before = st.findings_unlisted;
  Launch trial;
  run = &trial;
  struct Restore {
    Triton& t;
    decltype(memory)& saved;
    size_t findings;
    int64_t unlisted;
    ~Restore() {
      for (auto& [tensor, elems] : saved)  // through write(): views of the buffer see it too
        for (size_t k = 0; k < elems.size(); ++k)
          if (tensor->elems[k] != elems[k]) tensor->write(static_cast<int64_t>(k), elems[k]);
      t.st.findings.resize(findings);
      t.st.findings_unlisted = unlisted;
      t.run = nullptr, t.path.clear();
    }
  } restore{*this, memory, findings_before, unlisted_before};
  CallArgs c = call;
  try {
    in.call(fn, c);
  } catch (const python::Unsupported& e) {
    return e.what();
  } catch (const python::ProgramError& e) {
    if (e.confirmed) throw;
    return e.what();
  }
  return std::nullopt;
}

std::optional<std::string> Triton::launch_key(const Ref& fn, const std::string& consts,
                                              const Launch& l, const CallArgs& call,
                                              std::vector<TensorPtr>& pointed) {
  std::string key = fn->s + "@" + std::to_string(reinterpret_cast<uintptr_t>(fn.get())) + "|" +
                    consts + "|" + std::to_string(l.grid[0]) + "," + std::to_string(l.grid[1]) +
                    "," + std::to_string(l.grid[2]) + (st.first_program_only ? "|first" : "");
  std::vector<std::vector<TermId>> before;
  auto arg = [&](const Ref& v) {
    switch (v->kind) {
      case K::None:
      case K::Bool:
      case K::Int:
      case K::Float:
      case K::Str:
        key += "|" + std::to_string(static_cast<int>(v->kind)) + (v->b ? "r" : "") + in.repr(v);
        return true;
      case K::Tensor:  // a scalar whose value is a term
        key += "|t" + std::to_string(static_cast<int>(v->tensor->dtype));
        for (TermId e : v->tensor->elems) key += "," + std::to_string(e);
        return true;
      case K::Pointer: {
        if (v->offsets.size() != 1) return false;
        // Which earlier pointer argument shares this one's tensor: aliasing changes a result.
        size_t same = std::find(pointed.begin(), pointed.end(), v->tensor) - pointed.begin();
        key += "|p" + std::to_string(static_cast<int>(v->tensor->dtype)) + ":" +
               std::to_string(v->tensor->elems.size()) + "+" + std::to_string(v->offsets[0]) + "=" +
               std::to_string(same);
        pointed.push_back(v->tensor);
        before.push_back(v->tensor->elems);
        return true;
      }
      default:
        return false;
    }
  };
  for (const Ref& v : call.pos)
    if (!arg(v)) return std::nullopt;
  for (const auto& [k, v] : call.kw) {
    key += "|" + k;
    if (!arg(v)) return std::nullopt;
  }
  size_t elements = 0;
  for (const auto& b : before) elements += b.size();
  auto [it, fresh] = launch_memo_.try_emplace(key);
  if (!fresh && it->second.before == before) return key;
  for (const auto& b : it->second.before) memo_elements_ -= 2 * b.size();  // replaced below
  // Two copies of the memory a launch sees: launches past a bound are run, not kept.
  constexpr size_t kKeptElements = size_t{1} << 22;
  if (memo_elements_ + 2 * elements > kKeptElements) {
    launch_memo_.erase(it);
    return std::nullopt;
  }
  memo_elements_ += 2 * elements;
  it->second = {std::move(before), {}, false};
  return key;
}

// A kept launch's writes, where the memory holds what it held then.
bool Triton::replay_launch(const std::string& key, const std::vector<TensorPtr>& pointed) {
  const LaunchResult& kept = launch_memo_.at(key);
  if (!kept.finished) return false;  // not run to the end before
  for (size_t a = 0; a < pointed.size(); ++a)
    for (size_t k = 0; k < kept.after[a].size(); ++k)
      if (pointed[a]->elems[k] != kept.after[a][k])
        pointed[a]->write(static_cast<int64_t>(k), kept.after[a][k]);
  last_reads_prior_ = false;
  return true;
}

// A launch keyword an autotune config sets too (BLOCK_K=64 on a kernel tuned over BLOCK_K), or a
// launch option the config always passes (num_warps, num_ctas, num_stages: Config.all_kwargs()).
// The autotuner's benchmarking (`chosen` null) raises ValueError for the first; the launch of the
// chosen config passes both the caller's keywords and the config's to JITFunction.run, a
// TypeError (tests/fixtures/gpu/autotune_launch_keywords.txt).
void Triton::refuse_tuned_keywords(const std::vector<Ref>& configs, const Ref& chosen,
                                   CallArgs& a) {
  auto passed = [&](const std::string& name) {
    return std::any_of(a.kw.begin(), a.kw.end(), [&](const auto& kv) { return kv.first == name; });
  };
  if (!chosen) {
    std::set<std::string> conflicts;
    for (const Ref& c : configs)
      for (const auto& [key, v] : (*c->attrs)["kwargs"]->dict)
        if (passed(key->s)) conflicts.insert(key->s);
    std::string names;
    for (const std::string& n : conflicts) names += (names.empty() ? "" : ", ") + n;
    if (!names.empty())
      in.raise(a.at, "ValueError: Conflicting meta-parameters: " + names +
                         ". Make sure that you don't re-define auto-tuned symbols.");
    return;
  }
  std::vector<std::string> all;  // Config.all_kwargs()'s order
  for (const auto& [key, v] : (*chosen->attrs)["kwargs"]->dict) all.push_back(key->s);
  for (const char* option : {"num_warps", "num_ctas", "num_stages"}) all.push_back(option);
  for (const std::string& name : all)
    if (passed(name))
      in.raise(a.at,
               "TypeError: triton.runtime.jit.JITFunction.run() got multiple values for keyword "
               "argument '" +
                   name + "'");
}

// Whether `a op b` compares a program id of the running program with the grid's extent along its
// axis so that every program of the launch answers alike: pid >= grid and pid > grid - 1 (never
// true), pid < grid and pid <= grid - 1 (always), either way round.
bool Triton::is_grid_guard(const std::string& op, const Ref& a, const Ref& b) const {
  auto axis_of = [&](const Ref& v) {
    for (const auto& [id, axis] : run->program_ids)
      if (id == v) return axis;
    return -1;
  };
  static const std::map<std::string, std::string> mirrored = {
      {">=", "<="}, {"<=", ">="}, {">", "<"}, {"<", ">"}};
  std::string o = op;
  Ref bound = b;
  int axis = axis_of(a);
  if (axis < 0 && mirrored.count(op)) {  // n <= pid is pid >= n
    axis = axis_of(b);
    bound = a;
    o = mirrored.at(op);
  }
  if (axis < 0 || bound->kind != K::Int) return false;
  const int64_t extent = run->grid[axis], n = bound->i;
  return ((o == ">=" || o == "<") && n == extent) || ((o == ">" || o == "<=") && n == extent - 1);
}

bool Triton::launch_config(const Ref& kernel, const Ref& grid, CallArgs& a, size_t choice) {
  // Put back even when the launch raises and the program catches it (a fallback path): the
  // configuration under verification must stay the one chosen.
  struct Restore {
    size_t& choice;
    bool& nested;
    size_t choice_was;
    bool nested_was;
    ~Restore() { choice = choice_was, nested = nested_was; }
  } restore{st.autotune_choice, nested_launch_, st.autotune_choice, nested_launch_};
  st.autotune_choice = choice;
  nested_launch_ = true;
  launch(kernel, grid, a);
  return last_reads_prior_;
}

Ref Triton::launch_after_tuning(const Ref& kernel, const Ref& grid, CallArgs& a) {
  const Ref& fn = (*kernel->attrs)["fn"];
  const std::vector<Ref>& configs = (*kernel->attrs)["configs"]->items;
  skipped_configs_[kernel.get()] = benchmark_configs(kernel, grid, a);
  auto zero = [&] {
    for (const TensorPtr& t : tuning_args(kernel, fn, a, "reset_to_zero"))
      std::fill(t->elems.begin(), t->elems.end(), constant(s, t->dtype, 0));
  };
  const Snapshot before = argument_memory(a);
  const size_t findings = st.findings.size(), launches = st.launches.size();
  const int64_t unlisted = st.findings_unlisted;
  const bool beyond_loads = st.findings_beyond_loads;
  const std::vector<std::string> used = st.autotune_used;
  zero();
  if (!launch_config(kernel, grid, a, st.autotune_choice)) return python::none();
  // The real run read what it writes: the benchmarking runs before it change its result.
  put_back(before);
  st.findings.resize(findings);
  st.findings_unlisted = unlisted;
  st.findings_beyond_loads = beyond_loads;
  st.launches.resize(launches);
  // Only the configs the autotuner benchmarks: a pruned one, or one whose compilation raises
  // (its time is infinite), is never run, and running the config standing for it instead
  // would add a run Triton does not make.
  const std::vector<std::string> skipped = skipped_configs_[kernel.get()];
  size_t benchmarked = 0;
  for (size_t c = 0; c < configs.size(); ++c) {
    if (c < skipped.size() && !skipped[c].empty()) continue;
    ++benchmarked;
    zero();
    Snapshot restore;
    for (const TensorPtr& t : tuning_args(kernel, fn, a, "restore_value")) keep(t, restore);
    launch_config(kernel, grid, a, c);
    put_back(restore);
  }
  st.findings.resize(findings);
  st.findings_unlisted = unlisted;
  st.findings_beyond_loads = beyond_loads;
  st.launches.resize(launches);
  st.autotune_used = used;
  zero();
  st.host_assumptions.insert(
      "@triton.autotune benchmarks " + fn->s + "'s " + std::to_string(benchmarked) +
      " configs before its first launch (" + in.where(a.at) +
      "), and that launch reads memory it writes: keq runs each config once before it (Triton's "
      "do_bench runs each at least 8 times; reset_to_zero or restore_value undoes them)");
  launch_config(kernel, grid, a, st.autotune_choice);
  return python::none();
}

// Autotuner.prune_configs: early_config_prune(configs, nargs, **kwargs) keeps some of the
// configs (nargs: the positional arguments by name; kwargs: the keywords, grid and warmup), and
// the rest are never benchmarked nor chosen. A perf_model that ranks them is not modelled.
std::vector<std::string> Triton::pruned_configs(const Ref& kernel, const Ref& grid, CallArgs& a) {
  const std::vector<Ref>& configs = (*kernel->attrs)["configs"]->items;
  std::vector<std::string> skipped(configs.size());
  auto it = kernel->attrs->find("prune_configs_by");
  if (it == kernel->attrs->end()) return skipped;
  Ref early, perf;
  for (auto& [k, v] : it->second->dict) {
    if (k->kind == K::Str && k->s == "early_config_prune") early = v;
    if (k->kind == K::Str && k->s == "perf_model" && v->kind != K::None) perf = v;
  }
  if (perf)
    in.unsupported(a.at,
                   "@triton.autotune(prune_configs_by={'perf_model': ...}): the configs a "
                   "performance model keeps");
  if (!early || early->kind == K::None) return skipped;
  const Ref& fn = (*kernel->attrs)["fn"];
  std::vector<std::string> names = in.parameter_names(fn);
  auto nargs = std::make_shared<python::Value>();
  nargs->kind = K::Dict;
  for (size_t k = 0; k < a.pos.size() && k < names.size(); ++k)
    nargs->dict.push_back({python::string(names[k]), a.pos[k]});
  CallArgs c;
  c.at = a.at;
  c.pos = {python::list(configs), nargs};
  c.kw = a.kw;
  c.kw.push_back({"grid", grid});
  c.kw.push_back({"warmup", python::boolean(false)});
  Ref kept = in.call(early, c);
  std::vector<Ref> keep = in.to_sequence(kept, a.at);
  if (keep.empty())
    in.raise(a.at,
             "AutotunerError: No valid autotuner configs after pruning. "
             "`early_config_prune` should return at least one config.");
  for (const Ref& k : keep)
    if (std::none_of(configs.begin(), configs.end(), [&](const Ref& c2) { return c2 == k; }))
      in.unsupported(a.at,
                     "an early_config_prune that returns configs of its own, not the "
                     "autotuner's");
  const std::string name = fn->s;
  for (size_t k = 0; k < configs.size(); ++k)
    if (std::none_of(keep.begin(), keep.end(), [&](const Ref& c2) { return c2 == configs[k]; })) {
      skipped[k] = "pruned by prune_configs_by's early_config_prune";
      st.host_assumptions.insert("autotune: " + name + " config " + std::to_string(k + 1) + " of " +
                                 std::to_string(configs.size()) + " is never picked at " +
                                 in.where(a.at) +
                                 ": prune_configs_by's early_config_prune drops it");
    }
  return skipped;
}

std::vector<std::string> Triton::benchmark_configs(const Ref& kernel, const Ref& grid,
                                                   CallArgs& a) {
  const std::vector<Ref>& configs = (*kernel->attrs)["configs"]->items;
  const std::string& name = (*kernel->attrs)["fn"]->s;
  const std::vector<std::string> pruned = pruned_configs(kernel, grid, a);
  std::vector<std::string> skipped = pruned;
  skipped_configs_.erase(kernel.get());
  const Snapshot memory = argument_memory(a);
  for (size_t c = 0; c < configs.size(); ++c) {
    if (!skipped[c].empty()) continue;  // pruned: never compiled nor run
    torch::TorchState saved = st;       // coverage, findings, notes: a trial checks nothing
    st.first_program_only = true;
    std::optional<std::string> raises;
    try {
      launch_config(kernel, grid, a, c);
    } catch (const python::ProgramError& e) {
      // Unconfirmed: keq's own limit, which the configuration that runs this config reports.
      std::string what = e.what();
      bool skips = what.find(": OutOfResources:") != std::string::npos ||
                   what.find(": CompileTimeAssertionFailure:") != std::string::npos;
      if (e.confirmed && !e.assertion && skips) skipped[c] = what;
      if (e.confirmed && !e.assertion && !skips) raises = what;
    } catch (const Error&) {
      // unsupported or past a size limit: the configuration that runs this config says so
    }
    st = std::move(saved);
    put_back(memory);
    raised_after_stores_ = false;  // its stores are undone
    if (raises)
      throw python::ProgramError(*raises + " (config " + std::to_string(c + 1) + " of " +
                                     std::to_string(configs.size()) + " of " + name +
                                     ", which @triton.autotune compiles and runs before its "
                                     "first launch)",
                                 true);
  }
  if (std::none_of(skipped.begin(), skipped.end(), [](const auto& r) { return r.empty(); })) {
    // min() of all-infinite times: the first config benchmarked.
    std::vector<std::string> first = pruned;
    auto kept = std::find(first.begin(), first.end(), "");
    if (kept != first.end())
      for (std::string& why : first)
        if (&why != &*kept) why = "every config that prune_configs_by kept raises";
    return first;
  }
  for (size_t c = 0; c < configs.size(); ++c)
    if (!skipped[c].empty() && pruned[c].empty())
      st.host_assumptions.insert("autotune: " + name + " config " + std::to_string(c + 1) + " of " +
                                 std::to_string(configs.size()) +
                                 " is never picked: compiled for Triton's benchmarking it raises " +
                                 skipped[c] + ", which the autotuner skips");
  return skipped;
}

void Triton::run_pre_hook(const Ref& cfg, const Ref& fn, CallArgs& a, const Attrs& meta) {
  auto hook = cfg->attrs->find("pre_hook");
  if (hook == cfg->attrs->end() || hook->second->kind == K::None) return;
  CallArgs c;
  c.at = a.at;
  c.pos = {named_args(fn, a, meta)};
  in.call(hook->second, c);
}

// Triton's launcher asks the driver for each pointer argument's device address, and a CPU
// tensor's has none: ValueError, naming the parameter's index (constexprs counted), as measured
// on the GPU (tests/fixtures/gpu/cpu_tensors.txt). An empty tensor's null pointer passes.
void Triton::refuse_cpu_tensors(const std::vector<std::string>& params, const CallArgs& a,
                                const Attrs& meta) {
  auto check = [&](const Ref& v, size_t index) {
    if (v->kind == K::Tensor && v->tensor->on_cpu() && v->tensor->numel() > 0)
      in.raise(a.at, "ValueError: Pointer argument (at " + std::to_string(index) +
                         ") cannot be accessed from Triton (cpu tensor?)");
  };
  for (size_t k = 0; k < params.size(); ++k)  // in the signature's order, as the launcher
    if (k < a.pos.size())
      check(a.pos[k], k);
    else if (auto it = meta.find(params[k]); it != meta.end())
      check(it->second, k);
}

// What a kernel parameter receives for host value v: a tensor becomes a pointer to its buffer;
// a runtime int or float a scalar of the kernel (floats rounded to fp32); a constexpr is v.
Ref Triton::kernel_arg(const Ref& v, bool runtime, Span at) {
  // A runtime scalar. Triton specializes an int equal to 1 into the constexpr 1, a weak Python
  // int (an int8 block plus it stays int8: tests/fixtures/gpu/scalar_argument_types.txt); keq
  // marks it so that promotion types it weakly while the default bound still sees the loops and
  // masks over it as over a runtime int.
  if (v->kind == K::Int && runtime) return v->i == 1 ? specialized_one() : runtime_int(v->i);
  if (v->kind == K::Float && runtime) {  // an fp32 scalar in the kernel
    Ref f = python::floating(static_cast<double>(static_cast<float>(v->f)));
    f->b = true;
    return f;
  }
  if (v->kind == K::InputDependentFloat) {  // an fp32 scalar whose value is a term
    Ref scalar = input_dependent_scalar(v);
    // As a tl.constexpr (a trained constant's .item(): DLBlas L2 68), Triton specializes the
    // kernel on its value: arithmetic and comparisons with it are those of that fp32 value, and
    // an `if` on it takes the branch the value picks, as keq's select of both does. Arithmetic
    // between constexprs Triton folds in double, not fp32: in IEEE semantics what it reaches is
    // not decided bit for bit.
    if (!runtime)
      st.ieee_unfixed.emplace(scalar->tensor->elems[0],
                              "a tl.constexpr float computed from the inputs' values (made by " +
                                  v->s + "), which Triton folds in double");
    return scalar;
  }
  if (v->kind == K::Instance && v->cls && v->cls == host_descriptor_class)
    return kernel_descriptor(v, at);
  if (v->kind != K::Tensor) return v;
  if (v->tensor->strided && v->tensor->storage.strides.empty())
    in.unsupported(at,
                   "a tensor whose torch layout keq does not track (an expand or slice view, or "
                   "an op on a permuted tensor) passed to a kernel; pass .contiguous()");
  auto p = std::make_shared<Value>();
  p->kind = K::Pointer;
  p->tensor = v->tensor->strided ? storage_span(v->tensor) : v->tensor;
  p->offsets = {v->tensor->storage.offset - p->tensor->storage.offset};  // the view's first
  return p;
}

Ref Triton::input_dependent_scalar(const Ref& v) {
  auto t = std::make_shared<Tensor>();
  t->dtype = DType::F32;
  // Every narrow float is an fp32 value: the double .item() gave rounds back exactly.
  t->elems = {convert(s, v->tensor->elems[0], v->tensor->dtype, DType::F32)};
  return wrap(t);
}

// The memory a kernel sees through a strided view: the storage every live tensor of it spans
// (the view's base, its other views), one storage with them, so the kernel's stores reach each
// (Tensor::write) and its loads see what each holds: a chunk's other half is in bounds through
// the first half's pointer, as on the GPU. Positions no tensor holds are nothing written.
TensorPtr Triton::storage_span(const TensorPtr& view) {
  int64_t lo = view->storage.offset, hi = lo + view->storage_extent();
  std::vector<TensorPtr> holders = {view};
  for (const auto& m : *view->storage.members)
    if (auto t = m.lock(); t && t != view && t->dtype == view->dtype) {
      lo = std::min(lo, t->storage.offset);
      hi = std::max(hi, t->storage.offset + t->storage_extent());
      holders.push_back(t);
    }
  auto span = std::make_shared<Tensor>();
  span->dtype = view->dtype;
  span->shape = {hi - lo};
  span->elems.assign(hi - lo, Tensor::kUninit);
  for (int64_t pos = lo; pos < hi; ++pos)
    for (const TensorPtr& t : holders)
      if (auto k = t->logical_index(pos - t->storage.offset)) {
        span->elems[pos - lo] = t->elems[*k];
        break;
      }
  span->storage.members = view->storage.members;
  span->storage.offset = lo;
  span->storage.members->push_back(span);
  return span;
}

std::vector<bool> Triton::constexpr_parameters(const Ref& fn) const {
  std::vector<bool> out;
  if (fn->kind != K::Function) return out;
  const python::Tree& t = *fn->fn->tree;
  const python::Node& def = t.at(fn->fn->def);
  if (def.kind != python::NodeKind::FunctionDef) return out;
  for (python::NodeId p : t.at(def.kids[1]).kids) {
    const python::Node& param = t.at(p);
    if (param.flags != 0) continue;
    python::NodeId ann = param.kids.empty() ? python::kNoNode : param.kids[0];
    bool is_constexpr = false;
    if (ann != python::kNoNode) {
      const python::Node& a = t.at(ann);
      is_constexpr = a.text == "constexpr";  // tl.constexpr (an Attribute) or constexpr
    }
    out.push_back(is_constexpr);
  }
  return out;
}

void Triton::record_block_sizes(const Ref& fn, const std::vector<Ref>& pos, const Attrs& meta) {
  auto block_like = [](const Ref& v) {
    return v->kind == K::Int && v->i >= 2 && (v->i & (v->i - 1)) == 0;
  };
  for (const auto& [k, v] : meta)
    if (block_like(v)) st.block_sizes.insert(v->i);
  std::vector<std::string> names = in.parameter_names(fn);
  for (size_t k = 0; k < pos.size() && k < names.size(); ++k)
    if (names[k].find("BLOCK") != std::string::npos && block_like(pos[k]))
      st.block_sizes.insert(pos[k]->i);
}

// The config whose integer meta-parameters (launch options aside) multiply to the least: the
// fewest lanes per program. The first of equals.
size_t Triton::smallest_config(const std::vector<Ref>& configs) const {
  size_t best = 0;
  double best_lanes = 0;
  for (size_t c = 0; c < configs.size(); ++c) {
    double lanes = 1;
    for (auto& [key, v] : (*configs[c]->attrs)["kwargs"]->dict)
      if (v->kind == K::Int && v->i >= 1 && !is_launch_option(key->s))
        lanes *= static_cast<double>(v->i);
    if (c == 0 || lanes < best_lanes) best = c, best_lanes = lanes;
  }
  return best;
}

Ref Triton::apply_config(const Ref& fn, const std::vector<Ref>& configs, Span at, Attrs& meta,
                         const std::vector<std::string>* skipped) {
  if (configs.empty()) in.error(at, "@triton.autotune with no configs");
  size_t k = st.autotune_choice == torch::TorchState::kSmallestAutotuneConfig
                 ? smallest_config(configs)
                 : std::min(st.autotune_choice, configs.size() - 1);
  // Where benchmarking skips a config, the first config it kept stands for it (equal
  // signatures: verify checks that program once).
  if (skipped && skipped->size() != configs.size()) skipped = nullptr;
  const size_t kept =
      skipped
          ? static_cast<size_t>(std::find(skipped->begin(), skipped->end(), "") - skipped->begin())
          : 0;
  auto runs = [&](size_t c) { return skipped && !(*skipped)[c].empty() ? kept : c; };
  k = runs(k);
  st.autotune_configs = std::max(st.autotune_configs, configs.size());
  std::vector<std::string> params = in.parameter_names(fn);
  // The kernel's identity, not its name: two kernels may share one.
  std::string tag = fn->s + "@" + std::to_string(reinterpret_cast<uintptr_t>(configs.data())) + ":";
  if (st.autotune_signatures.size() < configs.size()) st.autotune_signatures.resize(configs.size());
  for (size_t c = 0; c < st.autotune_signatures.size(); ++c) {
    std::string& sig = st.autotune_signatures[c];
    if (sig.find(tag) != std::string::npos) continue;  // this kernel launched before
    sig += tag;
    for (auto& [key, v] : (*configs[runs(std::min(c, configs.size() - 1))]->attrs)["kwargs"]->dict)
      if (!option_not_parameter(params, key->s)) sig += key->s + "=" + in.repr(v) + ",";
    sig += ";";
  }
  const Ref& cfg = configs[k];
  std::string desc;
  // Config({"num_warps": 2}) is a launch option, as in the kernel's keywords: Triton's
  // Config.all_kwargs() passes it (overridden by the Config's own num_warps) to the launch.
  // The description names the options Triton launches with: the Config's own (4 warps and 3
  // stages by default), not the dict's.
  bool dict_options = false;
  for (auto& [key, v] : (*cfg->attrs)["kwargs"]->dict) {
    bool option = option_not_parameter(params, key->s);
    dict_options |= option;
    if (option) continue;
    desc += (desc.empty() ? "" : ", ") + key->s + "=" + in.repr(v);
    meta[key->s] = v;
  }
  for (auto [opt, fallback] : {std::pair{"num_warps", "4"}, std::pair{"num_stages", "3"}}) {
    auto o = cfg->attrs->find(opt);
    bool given = o != cfg->attrs->end() && o->second->kind != K::None;
    if (given || dict_options)
      desc += std::string(desc.empty() ? "" : ", ") + opt + "=" +
              (given ? in.repr(o->second) : fallback);
  }
  if (auto o = cfg->attrs->find("num_warps"); o != cfg->attrs->end())
    check_num_warps(in, at, o->second);
  desc = fn->s + " config " + std::to_string(k + 1) + " of " + std::to_string(configs.size()) +
         " (" + desc + ")";
  if (std::find(st.autotune_used.begin(), st.autotune_used.end(), desc) == st.autotune_used.end())
    st.autotune_used.push_back(desc);
  return cfg;
}

bool Triton::first_for_key(const Ref& kernel, const Ref& fn, CallArgs& a) {
  std::vector<std::string> names = in.parameter_names(fn);
  auto arg = [&](const std::string& name) -> Ref {
    for (size_t k = 0; k < names.size() && k < a.pos.size(); ++k)
      if (names[k] == name) return a.pos[k];
    for (auto& [k, v] : a.kw)
      if (k == name) return v;
    return nullptr;
  };
  // The autotuner's cache key: the `key` arguments' values and every tensor argument's dtype.
  std::string key;
  if (auto keys = kernel->attrs->find("key"); keys != kernel->attrs->end())
    for (const Ref& name : in.to_sequence(keys->second, a.at))
      if (Ref v = name->kind == K::Str ? arg(name->s) : nullptr) key += in.repr(v) + ",";
  for (const Ref& v : a.pos)
    if (v->kind == K::Tensor) key += std::string(dtype_name(v->tensor->dtype)) + ",";
  Ref& tuned = (*kernel->attrs)["<tuned keys>"];
  if (!tuned) tuned = python::list({});
  for (const Ref& k : tuned->items)
    if (k->s == key) return false;  // a cached config: no benchmarking
  tuned->items.push_back(python::string(key));
  return true;
}

std::vector<TensorPtr> Triton::tuning_args(const Ref& kernel, const Ref& fn, CallArgs& a,
                                           const char* which) {
  std::vector<TensorPtr> out;
  auto names = kernel->attrs->find(which);
  if (names == kernel->attrs->end()) return out;
  std::vector<std::string> params = in.parameter_names(fn);
  for (const Ref& name : in.to_sequence(names->second, a.at)) {
    Ref v;
    for (size_t k = 0; k < params.size() && k < a.pos.size(); ++k)
      if (name->kind == K::Str && params[k] == name->s) v = a.pos[k];
    for (auto& [k, kv] : a.kw)
      if (name->kind == K::Str && k == name->s) v = kv;
    if (!v) in.error(a.at, std::string(which) + " names '" + in.repr(name) + "', not an argument");
    if (v->kind != K::Tensor) continue;
    out.push_back(v->tensor);
    if (std::string(which) == "reset_to_zero")
      st.host_assumptions.insert("@triton.autotune(reset_to_zero=...) zeroes " + name->s +
                                 " before " + fn->s + "'s first launch per autotuning key");
  }
  return out;
}

// The kernel's arguments by parameter name, with the constexprs and options in `meta`: what
// Triton hands heuristics and a Config's pre_hook (its nargs).
Ref Triton::named_args(const Ref& fn, CallArgs& a, const Attrs& meta) {
  std::vector<std::string> names = in.parameter_names(fn);
  auto args = std::make_shared<Value>();
  args->kind = K::Dict;
  for (size_t k = 0; k < a.pos.size() && k < names.size(); ++k)
    args->dict.push_back({python::string(names[k]), a.pos[k]});
  for (auto& [k, v] : a.kw)
    if (!meta.contains(k)) args->dict.push_back({python::string(k), v});
  for (auto& [k, v] : meta) args->dict.push_back({python::string(k), v});
  return args;
}

Ref Triton::grid_args(const Ref& fn, const std::vector<std::string>& params, CallArgs& a,
                      const Attrs& meta) {
  auto d = std::make_shared<Value>();
  d->kind = K::Dict;
  for (size_t k = 0; k < params.size(); ++k) {
    Ref v = k < a.pos.size() ? a.pos[k] : nullptr;
    if (auto it = meta.find(params[k]); !v && it != meta.end()) v = it->second;
    if (!v && fn->kind == K::Function && k < fn->fn->defaults.size()) v = fn->fn->defaults[k];
    if (v) d->dict.push_back({python::string(params[k]), v});
  }
  return d;
}

void Triton::apply_heuristics(const Ref& fn, const Ref& rules, CallArgs& a, Attrs& meta) {
  Ref args = named_args(fn, a, meta);
  for (auto& [key, rule] : rules->dict) {
    CallArgs c;
    c.at = a.at;
    c.pos = {args};
    Ref v = in.call(rule, c);
    meta[key->s] = v;
    args->dict.push_back({key, v});
  }
}

}  // namespace keq::triton::impl
