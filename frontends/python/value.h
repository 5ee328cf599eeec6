// Values of the host interpreter: Python objects keq models. Tensors and dtypes are opaque here
// (torch::Tensor, torch::DType): the torch frontend defines them.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <gmpxx.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontends/python/ast.h"
#include "ir/ir.h"

namespace keq::torch {
// The interpreter holds tensors and dtypes without knowing them: torch defines both
// (frontends/torch/tensor.h) and reaches them through the interpreter's hooks.
struct Tensor;
enum class DType : uint8_t;
}  // namespace keq::torch

namespace keq::python {

struct Value;
using Ref = std::shared_ptr<Value>;
class Interp;
struct Env;

// Arguments of a call, positional and keyword, with the call's position for errors.
struct CallArgs {
  std::vector<Ref> pos;
  std::vector<std::pair<std::string, Ref>> kw;
  Span at;
  Ref get(size_t i,
          const std::string& name) const;  // positional i, or keyword name; null if neither
  bool has(const std::string& name) const;
  // The first keyword argument that no get() or has() asked for (a model that ignores one, such
  // as torch.mm's out=, would compute something else than the call does); null if none.
  const std::string* unread_keyword() const;

 private:
  mutable uint64_t kw_read = 0;  // bit k: kw[k] was asked for
};

using BuiltinFn = std::function<Ref(Interp&, CallArgs&)>;

struct Function {
  std::string name;
  const Tree* tree;
  NodeId def;                 // FunctionDef or Lambda
  std::vector<Ref> defaults;  // one per Param (null: none)
  std::shared_ptr<Env> closure;
};

// A Bool's `f` for a comparison of a program id with its grid's extent (still a runtime bool).
inline constexpr double kGridGuard = 2;

struct Value {
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    List,
    Dict,
    Function,
    Builtin,
    Class,
    Instance,
    Module,
    BoundMethod,
    Tensor,
    Slice,
    Ellipsis,
    DType,
    Device,
    Range,
    Pointer,  // a Triton pointer block: a buffer (tensor), a shape, an element offset per lane
    BigInt,   // a Python int past int64 (frontends/python/integers.h)
    // A Python float that depends on the inputs' values (t.item() of a parameter's sum): its
    // term is `tensor`'s one element, `s` where it was made. It may reach a kernel as an fp32
    // scalar; host Python that reads it (arithmetic, a branch, a comparison) is unsupported.
    InputDependentFloat
  };
  Kind kind = Kind::None;
  // Bool: the value in b and i (and `f` 1 for a comparison of Triton runtime scalars,
  // kGridGuard for one of a program id with its grid's extent: TensorHooks::grid_guard). Class:
  // defined by the program (not keq's model of a library class). Function: a staticmethod. Builtin:
  // a classmethod (bound to the class it is looked up on). Int, Float: a Triton runtime scalar (a
  // kernel argument not annotated tl.constexpr, or an int computed from one), which Triton refuses
  // where it needs a constexpr and computes with in the kernel; a runtime Int's `f` 1 marks an
  // argument equal to 1, which Triton specializes into the constexpr 1 (weak in promotion). Tensor:
  // an nn.Parameter (nn.Parameter(t) or a layer made it). List, Dict: an nn container (ModuleList,
  // ParameterList, ModuleDict, ParameterDict), whose items the module holding it registers. Tuple:
  // a torch.Size (x.shape, torch.Size(seq)), which also has numel().
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;           // Str; names of modules, classes, builtins
  std::vector<Ref> items;  // Tuple, List; Slice (start, stop, step); BoundMethod (self, fn)
  std::vector<std::pair<Ref, Ref>> dict;                         // Dict (insertion order)
  std::shared_ptr<Function> fn;                                  // Function
  BuiltinFn builtin;                                             // Builtin
  std::shared_ptr<absl::flat_hash_map<std::string, Ref>> attrs;  // Class, Instance, Module
  std::vector<std::string> attr_order;    // Instance: attributes in assignment order
  Ref cls;                                // Instance: its class; Class: its base
  std::shared_ptr<torch::Tensor> tensor;  // Tensor
  torch::DType dtype{};                   // DType
  std::vector<int64_t> shape, offsets;    // Pointer: block shape, offsets into tensor
  // Pointer: each lane's offset part that depends on loaded data (x_ptr + target), added to
  // `offsets`; empty when every lane's offset is known. A lane with none holds kNoTerm.
  std::vector<uint32_t> loaded_offsets;
  static constexpr uint32_t kNoTerm = UINT32_MAX;
  std::shared_ptr<const mpz_class> big;  // BigInt
  std::shared_ptr<Env> scope;            // Module read from source: its globals

  std::string type_name() const;
};

Ref none();
Ref boolean(bool b);
inline constexpr const char* kPropertyTag = "<property>";  // a Module made by property()
Ref integer(int64_t i);
Ref floating(double f);
Ref string(std::string s);
Ref tuple(std::vector<Ref> items);
Ref list(std::vector<Ref> items);
Ref builtin(std::string name, BuiltinFn fn);
// A module, or a plain object with attributes only (torch.version, a device's properties): a
// Module named `name` with no attributes yet.
Ref module_object(std::string name);
// A Python set: a dict (Kind::Dict) marked "set" whose keys are the members, values None.
inline constexpr const char* kSetMarker = "set";
// A collections.defaultdict: a dict marked "defaultdict" whose items[0] is its default_factory
// (None: a plain dict's KeyError).
inline constexpr const char* kDefaultDictMarker = "defaultdict";
// A float that is a GPU timing (torch.cuda.Event.elapsed_time; `i` its id, 0 for one computed
// from timings): keq cannot know its value, so a comparison of it, the choice a hand-rolled
// autotuner makes, goes the way the run's TimingChoices say.
inline constexpr const char* kTimingMarker = "timing";
inline bool is_timing(const Ref& v) {
  return v->kind == Value::Kind::Float && v->s == kTimingMarker;
}
inline bool is_set(const Ref& v) {
  return v->kind == Value::Kind::Dict && v->s == kSetMarker;
}
// An iterator (iter(x), a generator keq models eagerly: Module.parameters()): a list (Kind::List)
// marked "iterator" whose items are those not yet taken; next() takes the first, a for loop
// takes them all. `i` 1: a generator function's values, its body run at the call.
inline constexpr const char* kIteratorMarker = "iterator";
inline bool is_iterator(const Ref& v) {
  return v->kind == Value::Kind::List && v->s == kIteratorMarker;
}
Ref iterator(std::vector<Ref> items);
// A collections.deque: a list (Kind::List) marked "deque" whose `i` is its maxlen (-1: none);
// append and extend drop items from the other end past it.
inline constexpr const char* kDequeMarker = "deque";
inline bool is_deque(const Ref& v) {
  return v->kind == Value::Kind::List && v->s == kDequeMarker;
}
// What Python's callable() answers.
bool is_callable(const Ref& v);
// tl.constexpr(v): v itself where Triton unwraps it (kernels, launches), marked (`s` is
// "tl.constexpr") so that `.value`, which only a constexpr has, reads it.
Ref triton_constexpr(Interp& in, CallArgs& a);

// Where evaluation stopped: the construct is outside what keq models (UNSUPPORTED), or the
// program is wrong (an error the program itself would raise), always with file:line:col.
struct Unsupported : Error {
  explicit Unsupported(const std::string& what, bool is_size_limit = false)
      : Error(ErrorKind::Unsupported, what), size_limit(is_size_limit) {}
  // Past keq's limits (elements of a tensor, programs of a grid) at these sizes: other sizes
  // may run, so the default bound, which chose them, passes them over.
  bool size_limit;
};
// `confirmed`: the message is what CPython, torch or Triton raise here (Interp::raise): a
// candidate that raises it does not run (NOT_EQUIVALENT). Otherwise it is keq's model of an op
// refusing its arguments (Interp::error), which may be keq's gap: UNSUPPORTED, never a verdict.
struct ProgramError : Error {
  explicit ProgramError(const std::string& what, bool is_confirmed = false,
                        bool is_assertion = false)
      : Error(ErrorKind::Program, what), confirmed(is_confirmed), assertion(is_assertion) {}
  bool confirmed;
  // A confirmed error's Python class and its bases, most derived first (try/except matches on
  // them); empty: Exception.
  std::vector<std::string> classes;
  bool assertion;  // an `assert` failed: it rejects this configuration (the bound may choose
                   // another)
  // An ImportError that the pinned torch or Triton raise (a name torch 2.11 lacks), not one
  // that depends on what keq found on its search path.
  bool pinned_import = false;
  // The exception object an `except ... as e` binds (its args and attributes, such as
  // ModuleNotFoundError.name); null: one built from the message.
  Ref instance;
};

}  // namespace keq::python
