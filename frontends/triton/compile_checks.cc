#include "frontends/triton/compile_checks.h"

#include <algorithm>
#include <string>
#include <vector>

#include "frontends/torch/tensor_ops.h"

namespace keq::triton {
namespace {
using K = python::Value::Kind;

bool power_of_two(int64_t x) {
  return x > 0 && (x & (x - 1)) == 0;
}
}  // namespace

python::Ref runtime_int(int64_t v) {
  python::Ref r = python::integer(v);
  r->b = true;  // an Int's `b` marks a runtime scalar (value.h)
  return r;
}

bool is_runtime_int(const python::Ref& v) {
  return v->kind == K::Int && v->b;
}

python::Ref specialized_one() {
  python::Ref r = runtime_int(1);
  r->f = 1;
  return r;
}

bool is_specialized_one(const python::Ref& v) {
  return is_runtime_int(v) && v->f == 1;
}

void check_arange(python::Interp& in, python::Span at, const python::Ref& start,
                  const python::Ref& end) {
  auto runtime = [](const python::Ref& v) { return is_runtime_int(v) && !is_specialized_one(v); };
  if (runtime(start) || runtime(end))
    in.raise(at, "ValueError: arange's arguments must be of type tl.constexpr");
  int64_t lo = in.to_int(start, at), hi = in.to_int(end, at);
  if ((lo >> 32) != 0 || (hi >> 32) != 0) in.raise(at, "ValueError: arange must fit in int32");
  if (hi <= lo)
    in.raise(at, "ValueError: arange's end argument must be greater than the start argument");
  if (!power_of_two(hi - lo)) in.raise(at, "ValueError: arange's range must be a power of 2");
  if (hi - lo > kMaxTensorNumel)  // Triton 3.6 checks the range as a block shape
    in.raise(at, "ValueError: numel (" + std::to_string(hi - lo) +
                     ") exceeds triton maximum tensor numel (" + std::to_string(kMaxTensorNumel) +
                     ")");
}

void check_block_shape(python::Interp& in, python::Span at, const std::vector<python::Ref>& dims) {
  int64_t numel = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const python::Ref& d = dims[i];
    if (d->kind != K::Int || (is_runtime_int(d) && !is_specialized_one(d)))
      in.raise(
          at, "TypeError: Shape element " + std::to_string(i) + " must have type `constexpr[int]`");
    if (!power_of_two(d->i))
      in.raise(at, "ValueError: Shape element " + std::to_string(i) + " must be a power of 2");
    numel = numel > kMaxTensorNumel ? numel : numel * d->i;
  }
  if (numel > kMaxTensorNumel)
    in.raise(at, "ValueError: numel (" + std::to_string(numel) +
                     ") exceeds triton maximum tensor numel (" + std::to_string(kMaxTensorNumel) +
                     ")");
}

namespace {
// A scalar type's name inside Triton's pointer type (pointer<fp32>).
std::string short_name(torch::DType d) {
  switch (d) {
    case torch::DType::F32:
      return "fp32";
    case torch::DType::F16:
      return "fp16";
    case torch::DType::BF16:
      return "bf16";
    case torch::DType::E4M3:
      return "fp8e4nv";
    case torch::DType::E5M2:
      return "fp8e5";
    case torch::DType::I32:
      return "int32";
    case torch::DType::I64:
      return "int64";
    case torch::DType::I8:
      return "int8";
    case torch::DType::U8:
      return "uint8";
    default:
      return "int1";
  }
}

}  // namespace

bool check_fp_downcast_rounding(python::Interp& in, python::Span at, const python::Ref& rounding,
                                torch::DType from, torch::DType to) {
  if (!rounding || rounding->kind == python::Value::Kind::None || from == to) return false;
  const bool named = rounding->kind == python::Value::Kind::Str;
  if (!named || (rounding->s != "rtne" && rounding->s != "rtz"))
    in.raise(at, "ValueError: Invalid rounding mode: " + (named ? rounding->s : in.repr(rounding)) +
                     ". Supported rounding modes are 'rtne' and 'rtz'.");
  if (!torch::is_float(from) || !torch::is_float(to) ||
      torch::element_size(to) >= torch::element_size(from))
    in.raise(at,
             "ValueError: fp_downcast_rounding should be set only for truncating fp conversions. "
             "Source scalar type is " +
                 short_name(from) + " and destination type is " + short_name(to));
  return rounding->s == "rtz";
}

namespace {

// The type as Triton's repr prints it in IncompatibleTypeErrorImpl.
std::string repr(OperandType t) {
  if (t.pointer) return "pointer<" + short_name(t.dtype) + ">";
  std::string name = short_name(t.dtype);
  if (name == "fp32") name = "float32";
  if (name == "fp16") name = "float16";
  if (name == "bf16") name = "bfloat16";
  return "triton.language." + name;
}

// check_ptr_type_impl: `a` beside `b`, where a pointer `a` is allowed or not.
void check_beside(python::Interp& in, python::Span at, OperandType a, OperandType b,
                  bool pointer_allowed) {
  if (!a.pointer) return;
  if (!pointer_allowed || (b.pointer && a.dtype != b.dtype) ||
      (!b.pointer && torch::is_float(b.dtype)))
    in.raise(at,
             "IncompatibleTypeErrorImpl: invalid operands of type " + repr(a) + " and " + repr(b));
}
}  // namespace

void check_pointer_offset(python::Interp& in, python::Span at, torch::DType pointee,
                          torch::DType offset) {
  check_pointer_operands(in, at, "+", {true, pointee}, {false, offset});
}

void check_pointer_operands(python::Interp& in, python::Span at, const std::string& op,
                            OperandType lhs, OperandType rhs) {
  check_beside(in, at, lhs, rhs, op == "+" || op == "-");
  check_beside(in, at, rhs, lhs, op == "+");
  if (lhs.pointer && rhs.pointer) in.raise(at, "TypeError: cannot add pointers together");
}

void check_dot(python::Interp& in, python::Span at, const std::vector<int64_t>& a,
               const std::vector<int64_t>& b, torch::DType element, torch::DType other) {
  if (a.size() != b.size() || a.size() < 2)  // core.dot's asserts, then semantic.dot's
    in.raise(at, "AssertionError: input and other must have equal ranks >= 2");
  if (!std::equal(a.begin(), a.end() - 2, b.begin()))
    in.raise(at, "AssertionError: input and other must have equal batch shapes");
  if (a[a.size() - 1] != b[b.size() - 2])
    in.raise(at, "AssertionError: input and other must have equal reduction dimensions");
  const bool fp8 = (element == torch::DType::E4M3 || element == torch::DType::E5M2) &&
                   (other == torch::DType::E4M3 || other == torch::DType::E5M2);
  if (element != other && !fp8)  // semantic.dot: any two fp8 types, else one dtype
    in.raise(at, "AssertionError: Both operands must be same dtype. Got " + short_name(element) +
                     " and " + short_name(other));
  // Triton 3.6's NVIDIA backend (min_dot_size): K >= 32 for 8-bit operands, else 16. Measured:
  // an fp8 dot with K = 16 does not compile for the H200 (examples/fp8_block_scaled_matmul).
  const int64_t k_min = torch::element_size(element) == 1 ? 32 : 16;
  if (a.back() < k_min)
    in.raise(at, "tl.dot with K = " + std::to_string(a.back()) + " on " +
                     std::string(torch::dtype_name(element)) +
                     ": Triton requires K >= " + std::to_string(k_min) +
                     " (\"Input shapes should have M >= 1, N >= 1 and K >= " +
                     std::to_string(k_min) + "\")");
}

void check_broadcast(python::Interp& in, python::Span at, const std::vector<int64_t>& a,
                     const std::vector<int64_t>& b) {
  size_t n = std::max(a.size(), b.size());
  for (size_t k = 0; k < n; ++k) {
    int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1, y = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (x != y && x != 1 && y != 1)
      in.raise(at, "ValueError: Cannot make_shape_compatible: incompatible dimensions at index " +
                       std::to_string(n - 1 - k) + ": " + std::to_string(x) + " and " +
                       std::to_string(y));
  }
}

void check_reshape(python::Interp& in, python::Span at, int64_t from_numel, int64_t to_numel) {
  if (from_numel != to_numel)
    in.raise(at, "ValueError: reshape() cannot change total number of elements in tensor");
}

void check_num_warps(python::Interp& in, python::Span at, const python::Ref& num_warps) {
  if (!num_warps || num_warps->kind != python::Value::Kind::Int) return;
  int64_t w = num_warps->i;
  if (w <= 0 || (w & (w - 1)) != 0) in.raise(at, "AssertionError: num_warps must be a power of 2");
  constexpr int64_t kMaxThreads = 1024, kWarpSize = 32;
  if (w * kWarpSize > kMaxThreads)
    in.raise(
        at, "OutOfResources: out of resource: threads, Required: " + std::to_string(w * kWarpSize) +
                ", Hardware limit: " + std::to_string(kMaxThreads) +
                ". Reducing block sizes or `num_stages` may help.");
}

void check_grid(python::Interp& in, python::Span at, const int64_t (&grid)[3]) {
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0) in.raise(at, "a grid dimension is negative: " + std::to_string(grid[d]));
  // CUDA's limits: 2^31 - 1 programs along axis 0, 65535 along 1 and 2.
  if (grid[0] > INT32_MAX || grid[1] > 65535 || grid[2] > 65535)
    in.raise(at, "the grid (" + std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + ", " +
                     std::to_string(grid[2]) + ") exceeds CUDA's grid limits");
  int64_t programs = grid[0];
  for (int d = 1; d < 3; ++d) programs = programs > kMaxPrograms ? programs : programs * grid[d];
  if (programs > kMaxPrograms)
    in.size_limit(at, "a grid of " + std::to_string(programs) + " programs (size limit " +
                          std::to_string(kMaxPrograms) + ")");
}

void check_tensor_index(python::Interp& in, python::Span at, const python::Ref& index) {
  std::vector<python::Ref> items =
      index->kind == K::Tuple ? index->items : std::vector<python::Ref>{index};
  for (const python::Ref& sl : items) {
    if (sl->kind == K::None) continue;
    bool bare = sl->kind == K::Slice;
    for (size_t k = 0; bare && k < sl->items.size(); ++k) bare = sl->items[k]->kind == K::None;
    if (!bare)
      in.raise(at, "ValueError: unsupported tensor index: " +
                       std::string(sl->kind == K::Slice ? "a slice with bounds"
                                                        : "a " + sl->type_name()) +
                       " (Triton blocks take only None and `:`)");
  }
}

namespace {
struct MemoryOption {
  size_t position;
  const char* keyword;
  const char* what;  // Triton's words in the ValueError
  std::vector<std::string> names;
};

std::vector<MemoryOption> memory_options(MemoryCall call) {
  const std::vector<std::string> eviction = {"evict_last", "evict_first"};
  switch (call) {
    case MemoryCall::Load:  // semantic.load checks cache, then eviction, then padding
      return {{5, "cache_modifier", "Cache modifier", {".ca", ".cg", ".cv"}},
              {6, "eviction_policy", "Eviction policy", eviction},
              {4, "padding_option", "Padding option", {"zero", "nan"}}};
    case MemoryCall::Store:
      return {{4, "cache_modifier", "Cache modifier", {".wb", ".cg", ".cs", ".wt"}},
              {5, "eviction_policy", "Eviction policy", eviction}};
    case MemoryCall::Atomic:  // every atomic takes sem and scope at 3 and 4
      return {{3, "sem", "Memory semantic", {"acquire", "release", "acq_rel", "relaxed"}},
              {4, "scope", "Memory semantic", {"gpu", "cta", "sys"}}};
  }
  return {};
}
}  // namespace

void check_memory_options(python::Interp& in, const python::CallArgs& a, MemoryCall call) {
  for (const MemoryOption& o : memory_options(call)) {
    python::Ref v = a.get(o.position, o.keyword);
    if (!v || v->kind == K::None || !in.truthy(v, a.at)) continue;
    bool listed = false;
    for (const std::string& name : o.names) listed = listed || (v->kind == K::Str && v->s == name);
    if (!listed)
      in.raise(a.at, std::string("ValueError: ") + o.what + " " + in.repr(v) + " not supported");
  }
}

void check_hint(python::Interp& in, python::Span at, const std::string& hint,
                const python::Ref& input, const python::Ref& values) {
  if (input->kind == K::Int && !is_runtime_int(input))
    in.raise(at, "AttributeError: 'constexpr' object has no attribute 'shape'");
  std::vector<python::Ref> items = values->kind == K::List || values->kind == K::Tuple
                                       ? values->items
                                       : std::vector<python::Ref>{values};
  for (size_t i = 0; i < items.size(); ++i) {
    if (is_runtime_int(items[i]) || items[i]->kind == K::Tensor)
      in.raise(at,
               "TypeError: values element " + std::to_string(i) + " must have type `constexpr`");
    if (items[i]->kind != K::Int)
      in.raise(at, "TypeError: values element " + std::to_string(i) +
                       " must have type `constexpr[int]`");
  }
  size_t dims = input->kind == K::Pointer  ? input->shape.size()
                : input->kind == K::Tensor ? input->tensor->shape.size()
                                           : 0;
  if ((hint == "multiple_of" ? std::max<size_t>(1, dims) : dims) != items.size())
    in.raise(at, "ValueError: Shape of input to " + hint + " does not match the length of values");
}

namespace {
// A shape as Triton prints it in its messages: ['16', '2'].
std::string quoted_shape(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", '" : "'") + std::to_string(shape[i]) + "'";
  return s + "]";
}

python::KernelType typed(const std::vector<int64_t>& shape, const std::string& element) {
  python::KernelType t{element, element, 1, !shape.empty()};
  for (int64_t d : shape) t.numel *= d;
  if (t.block) t.name = "<" + quoted_shape(shape) + ", " + element + ">";
  return t;
}
}  // namespace

std::optional<python::KernelType> kernel_type(const python::Ref& v) {
  // Integer scalars of any width are one type here: keq knows an int's value, not always the
  // width Triton gave it.
  switch (v->kind) {
    case K::Tensor: {
      torch::DType d = v->tensor->dtype;
      bool int_scalar = v->tensor->shape.empty() &&
                        (d == torch::DType::I64 || d == torch::DType::I8 || d == torch::DType::U8);
      return typed(v->tensor->shape, int_scalar ? "int32" : short_name(d));
    }
    case K::Pointer:
      return typed(v->shape, "pointer<" + short_name(v->tensor->dtype) + ">");
    case K::Int:
      return is_runtime_int(v) ? std::optional(typed({}, "int32")) : std::nullopt;
    case K::Float:
      return typed({}, "fp32");
    case K::Bool:
      return typed({}, "int1");
    default:
      return std::nullopt;
  }
}

void check_pointer_operand(python::Interp& in, python::Span at, const python::Ref& p,
                           const std::string& op) {
  std::optional<python::KernelType> t = kernel_type(p);
  if (!t) return;
  std::string name = t->name;
  if (!t->block)  // a scalar prints as its dtype's repr
    name = repr(
        {false, p->kind == K::Tensor ? p->tensor->dtype : torch::detail::kernel_scalar_dtype(p)});
  in.raise(at, "ValueError: Unsupported ptr type " + name + " in `tl." + op + "`");
}

void check_math_dtype(python::Interp& in, python::Span at, const std::string& name,
                      torch::DType arg) {
  static const std::vector<std::string> fp32_or_64 = {"exp", "exp2",  "log",  "log2",
                                                      "cos", "sin",   "sqrt", "rsqrt",
                                                      "erf", "floor", "ceil", "sigmoid"};
  const bool fp32_only = name == "sqrt_rn" || name == "div_rn";
  if (name == "fdiv" && !torch::is_float(arg))
    in.raise(at, "TypeError: both operands of fdiv must have floating scalar type");
  if (!fp32_only && std::find(fp32_or_64.begin(), fp32_or_64.end(), name) == fp32_or_64.end())
    return;
  if (arg != torch::DType::F32)
    in.raise(at, std::string("ValueError: Expected dtype ") +
                     (fp32_only ? "['fp32']" : "['fp32', 'fp64']") + " but got " + short_name(arg));
}

bool check_beside_pointer(python::Interp& in, python::Span at, const std::vector<int64_t>& pointer,
                          const std::vector<int64_t>& other, const std::string& role,
                          bool is_store) {
  if (pointer.empty()) {
    if (!other.empty())
      in.raise(at, "ValueError: " + role +
                       " argument cannot be block type if pointer argument is not a block");
    return false;
  }
  check_broadcast(in, at, pointer, other);
  bool wider = other.size() > pointer.size();
  for (size_t k = 0; k < std::min(other.size(), pointer.size()); ++k)
    wider = wider || (pointer[pointer.size() - 1 - k] != other[other.size() - 1 - k] &&
                      other[other.size() - 1 - k] != 1);
  if (wider && is_store)
    in.raise(at, "ValueError: Expected pointer argument to have shape of the " + role +
                     " argument, which is wider than the pointer block");
  return wider;
}

void check_axis(python::Interp& in, python::Span at, int64_t axis, size_t rank) {
  const int64_t n = static_cast<int64_t>(rank);
  if (axis < -n || axis >= n)
    in.raise(at, "ValueError: invalid axis " + std::to_string(axis) + ". Expected " +
                     std::to_string(-n) + " <= axis < " + std::to_string(n));
}

void check_reduce_axis(python::Interp& in, python::Span at, const python::Ref& axis, size_t rank) {
  if (axis->kind != K::Float) return;
  const auto n = static_cast<double>(rank);
  if (axis->f < -n || axis->f >= n)  // _wrap_axis compares the float as it is
    in.raise(at, "ValueError: invalid axis " + in.repr(axis) + ". Expected " +
                     std::to_string(-static_cast<int64_t>(rank)) + " <= axis < " +
                     std::to_string(rank));
  in.raise(at,
           "TypeError: reduce(): incompatible function arguments. The following argument types "
           "are supported: (self: ir.builder, arg0: Sequence[ir.value], arg1: SupportsInt)");
}

void check_broadcast_to(python::Interp& in, python::Span at, const std::vector<int64_t>& from,
                        const std::vector<int64_t>& to) {
  if (from.empty() || to.empty()) return;  // a scalar is splat
  const std::string list_from = quoted_shape(from), list_to = quoted_shape(to);
  if (from.size() != to.size())
    in.raise(at, "ValueError: Cannot broadcast, rank mismatch: " + list_from + ", " + list_to);
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != to[i] && from[i] != 1)
      in.raise(at, "ValueError: Cannot broadcast, the expanded size of the tensor (" +
                       std::to_string(to[i]) + ") must match the existing size (" +
                       std::to_string(from[i]) + ") at non-singleton dimension " +
                       std::to_string(i) + ": " + list_from + ", " + list_to);
}

}  // namespace keq::triton
