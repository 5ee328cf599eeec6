// Values of the host interpreter: Python objects keq models, tensors among them.
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

namespace keq::python {

struct Value;
using Ref = std::shared_ptr<Value>;
class Interp;
struct Env;

// An element type of a tensor, as torch names it.
enum class DType : uint8_t { F32, F16, BF16, E4M3, E5M2, I32, I64, Bool };
std::string_view dtype_name(DType d);
bool is_float(DType d);

// A tensor: concrete shape, a dtype, one term per element (row-major). Views copy their
// elements' ids, which costs an id each, never a term.
struct Tensor {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  std::vector<ir::TermId> elems;  // kUninit where nothing was written (torch.empty)
  static constexpr ir::TermId kUninit = UINT32_MAX;
  // torch's layout would not be contiguous (a permute, transpose, expand or slice view, or an
  // op on one, which keeps its strides): the elements here are still in logical order, but a
  // kernel given this tensor would read torch's strides. Launches and stride() refuse it.
  bool strided = false;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  std::vector<int64_t> strides() const {
    std::vector<int64_t> s(shape.size(), 1);
    for (int k = static_cast<int>(shape.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * shape[k + 1];
    return s;
  }
};

// Arguments of a call, positional and keyword, with the call's position for errors.
struct CallArgs {
  std::vector<Ref> pos;
  std::vector<std::pair<std::string, Ref>> kw;
  Span at;
  Ref get(size_t i,
          const std::string& name) const;  // positional i, or keyword name; null if neither
  bool has(const std::string& name) const;
};

using BuiltinFn = std::function<Ref(Interp&, CallArgs&)>;

struct Function {
  std::string name;
  const Tree* tree;
  NodeId def;                 // FunctionDef or Lambda
  std::vector<Ref> defaults;  // one per Param (null: none)
  std::shared_ptr<Env> closure;
};

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
    BigInt    // a Python int past int64 (frontends/python/integers.h)
  };
  Kind kind = Kind::None;
  // Bool: the value. Class: defined by the program (not keq's model of a library class).
  // Function: a staticmethod. Builtin: a classmethod (bound to the class it is looked up on).
  // Int: a Triton runtime scalar (a kernel argument not annotated tl.constexpr, or computed
  // from one), which Triton refuses where it needs a constexpr.
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;           // Str; names of modules, classes, builtins
  std::vector<Ref> items;  // Tuple, List; Slice (start, stop, step); BoundMethod (self, fn)
  std::vector<std::pair<Ref, Ref>> dict;                         // Dict (insertion order)
  std::shared_ptr<Function> fn;                                  // Function
  BuiltinFn builtin;                                             // Builtin
  std::shared_ptr<absl::flat_hash_map<std::string, Ref>> attrs;  // Class, Instance, Module
  std::vector<std::string> attr_order;   // Instance: attributes in assignment order
  Ref cls;                               // Instance: its class; Class: its base
  std::shared_ptr<Tensor> tensor;        // Tensor
  DType dtype = DType::F32;              // DType
  std::vector<int64_t> shape, offsets;   // Pointer: block shape, offsets into tensor
  std::shared_ptr<const mpz_class> big;  // BigInt

  std::string type_name() const;
};

Ref none();
Ref boolean(bool b);
Ref integer(int64_t i);
Ref floating(double f);
Ref string(std::string s);
Ref tuple(std::vector<Ref> items);
Ref list(std::vector<Ref> items);
Ref builtin(std::string name, BuiltinFn fn);
Ref tensor_value(std::shared_ptr<Tensor> t);
Ref dtype_value(DType d);

// Where evaluation stopped: the construct is outside what keq models (UNSUPPORTED), or the
// program is wrong (an error the program itself would raise), always with file:line:col.
struct Unsupported : Error {
  explicit Unsupported(const std::string& what) : Error(ErrorKind::Unsupported, what) {}
};
// `confirmed`: the message is what CPython, torch or Triton raise here (Interp::raise): a
// candidate that raises it does not run (NOT_EQUIVALENT). Otherwise it is keq's model of an op
// refusing its arguments (Interp::error), which may be keq's gap: UNSUPPORTED, never a verdict.
struct ProgramError : Error {
  explicit ProgramError(const std::string& what, bool is_confirmed = false,
                        bool is_assertion = false)
      : Error(ErrorKind::Program, what), confirmed(is_confirmed), assertion(is_assertion) {}
  bool confirmed;
  bool assertion;  // an `assert` failed: it rejects this configuration (the bound may choose
                   // another)
};

}  // namespace keq::python
