// The host interpreter: runs the module level of a KernelBench-style file, builds its models
// and inputs, and calls forward, over symbolic tensors. It interprets the parsed AST only: no
// Python is ever executed. Anything outside the modelled subset raises Unsupported with
// file:line:col, never a guess.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "frontends/python/python.h"
#include "frontends/python/timing.h"
#include "frontends/python/value.h"

namespace keq::python {

struct Env {
  absl::flat_hash_map<std::string, Ref> vars;
  std::shared_ptr<Env> parent;  // enclosing scope (module globals for functions)
  // A class body's annotated names (`block: int = 1024`), in order: its __annotations__.
  bool class_body = false;
  std::vector<std::string> annotated;
  // Names a `global` or `nonlocal` statement binds in an enclosing scope: assignments go there.
  absl::flat_hash_map<std::string, Env*> rebound;
  // A function call's scope: the names its body binds, local wherever they are read (CPython
  // decides this when it compiles the def). Null for other scopes.
  std::shared_ptr<const absl::flat_hash_set<std::string>> locals;
  // Variables of dynamic loops in a kernel, after the loop (LoopScope), with the loop's line:
  // Triton 3.6 compiles a read of one, but its value is not Python's; reading it is unsupported.
  absl::flat_hash_map<std::string, uint32_t> loop_variable_after;
  // Dynamic loops of a kernel this scope is inside now (Triton's scf_stack, one per function).
  int dynamic_loops = 0;
  Ref lookup(const std::string& name) const { return lookup_where(name).first; }
  // The value and the scope that holds it (a module's globals: the scope whose parent is the
  // builtins).
  std::pair<Ref, const Env*> lookup_where(const std::string& name) const {
    for (const Env* e = this; e; e = e->parent.get())
      if (auto it = e->vars.find(name); it != e->vars.end()) return {it->second, e};
    return {nullptr, nullptr};
  }
};

// The --dims name of a size written as an integer literal at `at` (torch.rand(n, 224, 224)):
// "literal@LINE:COL".
inline std::string literal_size_name(Span at) {
  return "literal@" + std::to_string(at.line) + ":" + std::to_string(at.col);
}

// What the tensor library plugs in: operators, attributes and subscripts on tensors.
// Triton's type of a value in a kernel, as its code generator compares types.
struct KernelType {
  std::string name;     // "fp32", "<['8'], fp32>", "pointer<fp32>"; any integer scalar "int32"
  std::string element;  // "fp32", "int1", "pointer<fp32>"
  int64_t numel = 1;    // a block's elements; 1 for a scalar
  bool block = false;   // it has a shape (a block of one element still does)
};

struct TensorHooks {
  // None for a value that is not a Triton one (a constexpr int, a tuple).
  std::function<std::optional<KernelType>(const Ref& v)> kernel_type;
  std::function<Ref(Interp&, const std::string& op, const Ref& a, const Ref& b, Span at)> binop;
  std::function<Ref(Interp&, const std::string& op, const Ref& a, Span at)> unop;
  // Attributes of tensors and dtypes, and `to` of a Python number (a scalar in a kernel).
  std::function<Ref(Interp&, const Ref& t, const std::string& name, Span at)> getattr;
  // t.name = v on a tensor (t.data = w swaps the tensor a Parameter holds). Unset: unsupported.
  std::function<void(Interp&, const Ref& t, const std::string& name, const Ref& v, Span at)>
      setattr;
  std::function<std::string(const Ref& t)> repr;  // repr() of a tensor
  std::function<Ref(Interp&, const Ref& t, const Ref& index, Span at)> subscript;
  // t[index] = value on a host tensor (unset: unsupported).
  std::function<void(Interp&, const Ref& t, const Ref& index, const Ref& value, Span at)> setitem;
  // Control flow on a tensor (a Triton scalar): 1 or 0 when its value is known at this bound,
  // -1 when it depends on loaded data. Unset: every tensor condition is unsupported.
  std::function<int(Interp&, const Ref& cond, Span at)> truth;
  // int(t), float(t), t.item() of a one-element tensor outside a kernel: the Python number it
  // holds when that does not depend on the inputs drawn; unsupported otherwise.
  std::function<Ref(Interp&, const Ref& t, Span at)> host_scalar;
  // t.item(), float(t): host_scalar's number, or where a floating tensor's element depends on
  // the inputs, an InputDependentFloat that a kernel can take as a scalar argument.
  std::function<Ref(Interp&, const Ref& t, Span at)> item;
  // An `if` on a data-dependent condition runs both branches: `enter_branch` brackets each (the
  // condition, negated for the else branch) so effects can be guarded, and `select` merges each
  // variable the branches left different.
  std::function<void(Interp&, const Ref& cond, bool negated, Span at)> enter_branch;
  std::function<void()> leave_branch;
  std::function<Ref(Interp&, const Ref& cond, const Ref& a, const Ref& b, Span at)> select;
  // A `for` or `while` loop finished after `trips` trips (for loop coverage).
  std::function<void(Interp&, Span loop, size_t trips)> loop_ran;
  // A kernel's dynamic `if` (on runtime scalars) went one way (for branch coverage);
  // `grid_guard`: its condition compares a program id with its grid's extent (grid_guard below).
  std::function<void(Interp&, Span cond, bool taken, bool grid_guard)> branch_ran;
  // Whether `a OP b` of runtime scalars compares a program id with its grid's extent
  // (`pid >= n` where the grid is n programs): a guard no program of the launch crosses.
  std::function<bool(Interp&, const std::string& op, const Ref& a, const Ref& b)> grid_guard;
  // An `if` or `x if c else y` decided on concrete values (host Python, a kernel's constexprs)
  // went one way: the default bound looks for sizes that take it the other.
  std::function<void(Interp&, Span cond, bool taken)> static_branch;
  // `t OP= value` on a host tensor: in place, as torch's __iadd__ and the rest are (views of t
  // see the change); returns t. Unset, or in a kernel (Triton blocks are values): t = t OP value.
  std::function<Ref(Interp&, const std::string& op, const Ref& t, const Ref& value, Span at)>
      augassign;
  // True while a kernel launch is running: an exception that leaves one half-run cannot be
  // caught by `try` (keq cannot undo the stores the launch made before it), only reported.
  std::function<bool()> in_kernel;
  // A product of two Triton runtime ints in a kernel (n_rows * n_cols): int32 by their values,
  // which may wrap at the file's own sizes though not at the bound's.
  std::function<void(Interp&, int64_t a, int64_t b, Span at)> runtime_product;
  // Whether a call of the program's function `f` runs a plain (not @triton.jit) helper from a
  // kernel: Triton's compiler calls it as Python, where Triton's operations raise.
  std::function<bool(const Ref& f)> plain_kernel_helper;
};

// The Python text keq models a standard-library module with (logging, threading, os), or null.
const char* stdlib_model_source(const std::string& name);
// os.path, posixpath and importlib.machinery (stdlib_os.cc).
void install_os_path(Interp& in);
// re (stdlib_re.cc).
void install_re(Interp& in);
// What such a model's Python calls and cannot compute itself (pkgutil's folder listing).
std::vector<std::pair<std::string, Ref>> stdlib_model_builtins(const std::string& name);

// Where `import` looks for modules read as source, after the importing program's own folder:
// --python-path, PYTHONPATH and --venv's site-packages, set once by the CLI.
void set_import_path(std::vector<std::string> dirs);
const std::vector<std::string>& import_path();

inline constexpr int64_t kMaxElements = 1 << 22;  // per tensor, list or range keq builds

class Interp {
 public:
  explicit Interp(ir::TermStore& store);

  ir::TermStore& store() { return store_; }
  TensorHooks& hooks() { return hooks_; }
  // True inside a plain helper a kernel called (TensorHooks::plain_kernel_helper).
  bool in_plain_kernel_helper() const { return plain_helper_depth_ > 0; }
  // Inside a @triton.jit function's own code, where Triton's code generator's rules apply (not a
  // plain helper it calls, which Triton runs as Python).
  bool in_jit_code() const {
    return hooks_.in_kernel && hooks_.in_kernel() && !in_plain_kernel_helper();
  }
  // A block of more than one element in a kernel (Triton's non-scalar tensor), of `element` where
  // given ("int1": a boolean block).
  bool is_block(const Ref& v, const std::string& element = "") const;
  // The outcomes this run gives comparisons of GPU timings, and where they are recorded (the
  // caller's, to read even when the run raises); the interpreter's own, all false, by default.
  TimingChoices& timing() { return timing_ ? *timing_ : own_timing_; }
  void set_timing(TimingChoices* t) { timing_ = t; }
  // Makes `import NAME` (and `from NAME import ...`) produce this module: keq's model of a
  // library, which takes precedence over any source of that name on the search path.
  void register_module(const std::string& name, Ref module);
  // Makes `import NAME` read this Python text, keq's model of a library module written in
  // Python (torch._inductor's Triton helpers); it is reachable as an attribute of its parent
  // module too, as the library's __init__ imports it. A name the real module has and the text
  // lacks is UNSUPPORTED, as for any module keq models.
  void register_model_source(const std::string& name, const char* source) {
    model_sources_[name] = source;
  }
  // A global of the model module `name` (register_model_source) that keq implements in C++:
  // the model's Python calls it (Triton's Autotuner.run launches through keq's launch).
  void register_model_builtin(const std::string& name, const std::string& global, Ref fn) {
    model_builtins_[name].push_back({global, std::move(fn)});
  }
  // Makes `MODULE.NAME` the attribute NAME of the module keq models in Python as `model` (a
  // register_model_source name), imported at the first use: classes of a library keq models in
  // C++ written in Python (torch.nn.TransformerEncoder).
  void register_model_attribute(const std::string& module, const std::string& name,
                                const std::string& model) {
    model_attributes_[module + "." + name] = model;
  }
  // A builtin (range), to wrap: the Triton frontend records kernel loops' steps.
  Ref builtin_value(const std::string& name) const { return builtins_->vars.at(name); }
  void set_builtin(const std::string& name, Ref v) { builtins_->vars[name] = std::move(v); }
  // The public names a module keq models in part really has: a name outside them is Python's
  // AttributeError (hasattr() is False), one inside that keq lacks is UNSUPPORTED.
  void set_real_names(const std::string& module, absl::flat_hash_set<std::string> names) {
    real_names_[module] = std::move(names);
  }
  // The parameter names a library function keq models as a builtin has, in order (recorded from
  // the pinned library): what inspect.signature lists for it.
  void set_builtin_parameters(const std::string& builtin, std::vector<std::string> names) {
    builtin_parameters_[builtin] = std::move(names);
  }
  const std::vector<std::string>* builtin_parameters(const std::string& builtin) const {
    auto it = builtin_parameters_.find(builtin);
    return it == builtin_parameters_.end() ? nullptr : &it->second;
  }
  // The modules of a library keq models in part (torch's, as installed): importing one keq lacks
  // succeeds, as in CPython, and only a use of it is UNSUPPORTED; a name outside them is
  // ModuleNotFoundError.
  void add_library_submodules(const std::vector<std::string>& names) {
    library_submodules_.insert(names.begin(), names.end());
  }
  // Whether `module`'s real names (set_real_names) are all of CPython's dir() for it, private
  // names too, as recorded from the pinned library: dir() of it answers them.
  void set_names_complete(const std::string& module) { names_complete_.insert(module); }
  // dir(module) where keq knows every name: a module read from source (its globals) or one
  // whose recorded names are complete; null elsewhere.
  std::optional<std::vector<std::string>> module_dir(const Ref& module) const;
  // The library module really has this public name, modelled or not (hasattr is True).
  bool library_has(const Ref& module, const std::string& name) const {
    auto real = real_names_.find(module->s);
    return module->kind == Value::Kind::Module && real != real_names_.end() &&
           real->second.contains(name);
  }
  // The module `import NAME` binds: a registered one, or one read as source from the search
  // path (modules.cc). A name found nowhere raises ModuleNotFoundError, as CPython would.
  Ref module_value(const std::string& name, Span at);
  // What importlib.util.find_spec answers, without running the module: whether `import name`
  // finds it (keq's models, the standard library, the search path). A module of a library
  // keq models that keq lacks is UNSUPPORTED (CPython may find it); parents are imported.
  bool module_findable(const std::string& name, Span at);
  // A builtin by name (int, len, ...), or null.
  Ref builtin_named(const std::string& name) const {
    auto it = builtins_->vars.find(name);
    return it == builtins_->vars.end() ? nullptr : it->second;
  }
  // A module imported (or registered) so far, or null: what sys.modules holds.
  Ref imported_module(const std::string& name) const {
    auto it = modules_.find(name);
    return it == modules_.end() ? nullptr : it->second;
  }
  // Folders searched for source modules, in order: the importing file's folder first.
  void add_search_dir(const std::string& dir) { search_path_.push_back(dir); }
  const std::vector<std::string>& search_dirs() const { return search_path_; }
  // What importing read and assumed, for the report: modules taken as not installed, modules
  // whose module level stopped at something keq does not model (their later names unusable).
  const std::vector<std::string>& import_notes() const { return import_notes_; }
  // Adds an assumption the host code's run made to the report (once).
  void note(const std::string& assumption) {
    if (std::find(import_notes_.begin(), import_notes_.end(), assumption) == import_notes_.end())
      import_notes_.push_back(assumption);
  }
  // Modules whose top level keq stopped part way: what ran after differs from CPython's run
  // (their later imports and side effects did not happen).
  const std::vector<std::string>& import_stops() const { return import_stops_; }
  // A name bound by a library module after its module level stopped: any use is UNSUPPORTED
  // with `reason` (where the module stopped), never a guess at its value.
  static Ref unavailable(const std::string& reason);
  // Throws Unsupported naming `at` and the reason when `v` is unavailable; returns v otherwise.
  const Ref& available(const Ref& v, Span at) const;

  // Runs a file's module level. `__name__` is not "__main__", so main blocks are skipped.
  // `overrides` replace module-level integer constants (one value) and tuples of integers (their
  // values) as they are assigned, so constants derived from them (hidden = 2 * dim) follow; the
  // names that were applied are returned in `applied`.
  std::shared_ptr<Env> run(
      const Tree& tree,
      const absl::flat_hash_map<std::string, std::vector<int64_t>>& overrides = {},
      std::vector<std::string>* applied = nullptr);
  Ref call(const Ref& f, CallArgs args);
  Ref call(const Ref& f, std::vector<Ref> positional, Span at);  // f(*positional), no keywords
  // What an instance's class (or a base) defines as `name` (__len__, __getitem__), or null.
  Ref class_method(const Ref& instance, const std::string& name) const;
  // A Python function's attribute: __name__, __module__, __doc__, or one the program set.
  Ref function_attribute(const Ref& f, const std::string& name, Span at);
  // A Python function's parameter names, in order (what @triton.heuristics' `args` are keyed by).
  std::vector<std::string> parameter_names(const Ref& f) const;
  Ref getattr(const Ref& obj, const std::string& name, Span at);
  bool has_builtin_attribute(const Ref& obj, const std::string& name) const;
  Ref library_base(const Ref& cls) const;
  void setattr(const Ref& obj, const std::string& name, Ref v, Span at);
  // A class that modules (nn.Module and its kin) are instances of, recognised by `super()`.
  Ref make_class(const std::string& name, Ref base,
                 std::shared_ptr<absl::flat_hash_map<std::string, Ref>> attrs);
  Ref instantiate(const Ref& cls, CallArgs args);
  bool is_instance_of(const Ref& v, const std::string& class_name) const;
  // enum.Enum (interp_objects.cc): members made after the class body, Cls(value), Cls[name].
  bool is_enum_class(const Ref& cls) const;
  void make_enum_members(const Ref& cls, NodeId body);
  std::vector<Ref> enum_members(const Ref& cls) const;
  Ref enum_lookup(const Ref& cls, const Ref& key, bool by_name, Span at);

  Ref binop(const std::string& op, const Ref& a, const Ref& b, Span at);
  bool equal(const Ref& a, const Ref& b) const;
  Ref set_operation(const std::string& op, const Ref& a, const Ref& b) const;
  void dict_update(const Ref& d, const CallArgs& a);
  Ref decorate(NodeId decorators, Ref v, const std::shared_ptr<Env>& env);
  // A set of `members` (duplicates dropped); members whose equality keq cannot decide as
  // Python does (tensors) are unsupported.
  Ref make_set(const std::vector<Ref>& members, Span at);
  // Whether equal() answers as Python's == for `v` (identity stands in for value equality
  // for some kinds): only then is a failed lookup a certain KeyError.
  bool equality_is_pythons(const Ref& v) const;
  bool compare(const std::string& op, const Ref& a, const Ref& b, Span at);  // <, in, is, ...
  bool compare_timings(const std::string& op, const Ref& a, const Ref& b, Span at);
  // The running methods' (class, self), innermost last: what super() reads.
  std::vector<std::pair<Ref, Ref>> method_stack_;

  [[noreturn]] void unsupported(Span at, const std::string& what) const;
  // UNSUPPORTED "size limit": what keq runs has a limit these sizes pass (Unsupported::size_limit).
  [[noreturn]] void size_limit(Span at, const std::string& what) const;
  [[noreturn]] void error(Span at, const std::string& what) const;
  // Unsupported: host Python reads a float that depends on the inputs (Kind::InputDependentFloat).
  [[noreturn]] void input_dependent_use(Span at, const Ref& v) const;
  // An error CPython, torch or Triton raise for certain here (ProgramError::confirmed). Its type
  // is the prefix of `what` before ':' when that names an exception class ("TypeError: ..."),
  // else Exception; try/except matches on it.
  [[noreturn]] void raise(Span at, const std::string& what) const;
  // A kernel reading module global `name` (Triton's compile-time rule).
  void check_kernel_global(const std::string& name, const Ref& v, Span at) const;
  // An AssertionError that rejects this configuration, as a failing `assert` does (DESIGN.md:
  // the bound chooses sizes both sides accept); `message` follows "AssertionError".
  [[noreturn]] void fail_assertion(Span at, const std::string& message) const;
  // Raises a Python exception of a builtin class ("ModuleNotFoundError") with its message, and
  // attributes of its own (ModuleNotFoundError.name).
  [[noreturn]] void raise_exception(
      Span at, const std::string& type, const std::string& message,
      const std::vector<std::pair<std::string, Ref>>& attributes = {}) const;
  // The builtin exception classes an exception of class `type` is an instance of, itself first,
  // by CPython's hierarchy; empty when `type` is not a builtin exception.
  static std::vector<std::string> exception_chain(const std::string& type);
  // `class P(typing.NamedTuple):` with its annotated fields and its body's names (stdlib.cc).
  Ref typed_named_tuple(const Node& def, const std::vector<std::string>& fields,
                        const absl::flat_hash_map<std::string, Ref>& body);
  std::string where(Span at) const;

  // Value helpers shared with the tensor library.
  bool truthy(const Ref& v, Span at);
  int64_t to_int(const Ref& v, Span at);
  double to_float(const Ref& v, Span at);
  std::vector<Ref> to_sequence(const Ref& v, Span at);  // tuple, list, range, dict keys
  // Sizes are checked before anything is allocated: a negative dimension is the program's
  // error; past keq's limits (elements of a tensor or list) it is UNSUPPORTED "size limit",
  // naming the size and where it came from.
  void check_shape(Span at, const std::vector<int64_t>& shape, const std::string& what);
  void check_count(Span at, int64_t count, const std::string& what);
  std::string repr(const Ref& v) const;  // str(v): a string prints bare
  // formatting.cc: one replacement field ({v!r:>8.3f}): conversion 'r', 's', 'a' or 0.
  std::string format_field(const Ref& v, char conversion, const std::string& spec, Span at);
  std::string format_string(const std::string& tmpl, const std::vector<Ref>& pos,
                            const std::vector<std::pair<std::string, Ref>>& kw, Span at);
  std::string percent_format(const std::string& tmpl, const Ref& values, Span at);
  static std::string quoted(const std::string& s);  // repr of a str
  static std::string float_repr(double x);          // CPython's shortest round-trip repr

 private:
  enum class Flow { Normal, Return, Break, Continue };
  Flow exec_block(NodeId block, const std::shared_ptr<Env>& env);
  Flow exec(NodeId s, const std::shared_ptr<Env>& env);
  Flow exec_else(const Node& n, const std::shared_ptr<Env>& env);
  Flow symbolic_if(const Node& n, const Ref& cond, const std::shared_ptr<Env>& env);
  Flow runtime_if(const Node& n, bool taken, bool grid_guard, const std::shared_ptr<Env>& env);
  // Drops, when the scope ends, the names a dynamic loop in a kernel first assigned.
  class LoopScope {
   public:
    LoopScope(Interp& in, const std::shared_ptr<Env>& env, bool dynamic, NodeId target,
              uint32_t line);
    ~LoopScope();
    LoopScope(const LoopScope&) = delete;
    LoopScope& operator=(const LoopScope&) = delete;
    // After a trip: a variable the loop carries keeps its Triton type (_find_carries).
    void check_carried(Span at) const;

   private:
    Interp& in_;
    std::shared_ptr<Env> env_;
    bool active_ = false;
    absl::flat_hash_set<std::string> before_, targets_;
    absl::flat_hash_map<std::string, std::string> carried_;  // name -> type name at the start
    uint32_t line_ = 0;
  };
  // Triton's code generator on a dynamic if in a kernel: a `return` under it inside a dynamic
  // loop, and a break or continue in its branch not taken (it compiles both).
  void check_dynamic_if(const Node& n, bool taken, const std::shared_ptr<Env>& env);
  void check_untaken_code(NodeId n, const std::shared_ptr<Env>& env);
  void refuse_store_in_kernel(const Node& target) const;
  bool reads_kernel_value(NodeId n, const std::shared_ptr<Env>& env);
  Ref kernel_bool_op(const Node& n, const std::shared_ptr<Env>& env);
  TimingChoices* timing_ = nullptr;
  TimingChoices own_timing_;
  int import_guards_ = 0;  // try statements with handlers around the running code
  Flow exec_try(const Node& n, const std::shared_ptr<Env>& env);
  [[noreturn]] void exec_raise(const Node& n, const std::shared_ptr<Env>& env);
  Ref eval_yield(const Node& n, const std::shared_ptr<Env>& env);
  void install_exceptions();
  void install_stdlib();  // stdlib.cc
  Flow exec_with(const Node& n, const std::shared_ptr<Env>& env);
  bool handler_matches(NodeId handler, const ProgramError& e, const std::shared_ptr<Env>& env);
  Ref exception_value(const ProgramError& e) const;
  // Imports (modules.cc).
  Ref import_module(const std::string& name, Span at);
  Ref unmodelled_module(const std::string& name, const std::string& reason);
  bool library_lacks(const std::string& name) const;
  std::string installed_file(const std::string& name) const;
  std::string resolve_relative(const std::string& name, Span at) const;
  // `source`: the module's text where keq models it in Python (stdlib_models.cc), else read.
  Ref load_source_module(const std::string& name, const std::string& file, bool package,
                         const char* source = nullptr);
  void run_module_body(const Tree& tree, const Ref& module);
  // A module's attribute; a stopped module's missing name is unavailable (returned, not thrown).
  Ref module_attr(const Ref& module, const std::string& name, Span at);
  // `from M import NAME`: M's attribute, else the submodule M.NAME, which Python imports then.
  Ref import_name(const Ref& module, const std::string& from, const std::string& name, Span at);
  Ref eval(NodeId e, const std::shared_ptr<Env>& env);
  void assign(NodeId target, Ref v, const std::shared_ptr<Env>& env);
  void delete_target(NodeId target, const std::shared_ptr<Env>& env);
  void declare_rebound(const Node& n, Env& env);
  // The names a def's body binds (assignments, loop and with targets, imports, nested defs and
  // classes, except names, del), less those it declares global or nonlocal; memoized per def.
  std::shared_ptr<const absl::flat_hash_set<std::string>> local_names(NodeId def);
  void collect_bound(NodeId stmt, absl::flat_hash_set<std::string>& bound,
                     absl::flat_hash_set<std::string>& declared) const;
  void collect_targets(NodeId target, absl::flat_hash_set<std::string>& bound) const;
  absl::flat_hash_map<std::pair<const Tree*, NodeId>,
                      std::shared_ptr<const absl::flat_hash_set<std::string>>>
      local_names_;
  static Env& binding_scope(Env& env, const std::string& name);
  Ref call_function(const Ref& f, CallArgs& args, const Ref& self, const Ref& owner);
  Ref eval_call(NodeId e, const std::shared_ptr<Env>& env);
  Ref eval_subscript(const Ref& v, const Ref& index, Span at);
  Ref comprehension(NodeId e, const std::shared_ptr<Env>& env);
  void install_builtins();
  const Node& node(NodeId id) const { return tree_->at(id); }

  ir::TermStore& store_;
  TensorHooks hooks_;
  int plain_helper_depth_ = 0;
  const Tree* tree_ = nullptr;
  // Where the program called into keq's Python models of libraries, innermost last.
  std::vector<std::string> model_callers_;
  static bool is_model_tree(const Tree* t) { return t && t->file.rfind("<keq's model of", 0) == 0; }
  std::shared_ptr<Env> builtins_;
  absl::flat_hash_map<std::string, Ref> modules_;
  absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>> real_names_;
  absl::flat_hash_set<std::string> library_submodules_;
  absl::flat_hash_set<std::string> names_complete_;
  absl::flat_hash_map<std::string, const char*> model_sources_;
  absl::flat_hash_map<std::string, std::string> model_attributes_;  // register_model_attribute
  absl::flat_hash_map<std::string, std::vector<std::string>> builtin_parameters_;
  absl::flat_hash_map<std::string, std::vector<std::pair<std::string, Ref>>> model_builtins_;
  // keq's model of `module` lacks `name`, which the real module may have (not CPython's error).
  bool model_lacks(const Ref& module, const std::string& name) const;
  Ref return_value_;
  int depth_ = 0;
  const Env* module_env_ = nullptr;
  absl::flat_hash_map<std::string, std::vector<int64_t>> overrides_;
  std::vector<std::string>* applied_ = nullptr;
  std::vector<std::string> search_path_;
  std::vector<std::string> import_notes_;
  std::vector<std::string> import_stops_;
  // A @contextmanager's body runs until its `yield`, which runs the with statement's body.
  std::vector<std::function<void(const Ref&)>> yield_handlers_;
  bool contextmanager_call_ = false;  // the next generator call is a @contextmanager's body
  // Whether a def's body yields (not counting nested defs, classes and lambdas); memoized.
  bool is_generator(NodeId def);
  bool yields_in(NodeId n) const;
  absl::flat_hash_map<std::pair<const Tree*, NodeId>, bool> generators_;
  Ref run_generator(const Node& def, const std::shared_ptr<Env>& env, Span at);
  std::vector<std::exception_ptr> handling_;  // the exceptions `except` blocks are handling
};

}  // namespace keq::python
