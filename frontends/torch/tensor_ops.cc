#include "frontends/torch/tensor_ops.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "frontends/torch/torch.h"

namespace keq::torch::detail {

using python::Value;
using K = Value::Kind;

ir::Type term_type(DType d) {
  switch (d) {
    case DType::I32:
    case DType::I8:
    case DType::U8:
      return ir::Type::I32;
    case DType::I64:
      return ir::Type::I64;
    case DType::Bool:
      return ir::Type::Bool;
    default:
      return ir::Type::F32;
  }
}

namespace {
thread_local NarrowRounding current_rounding = NarrowRounding::EachOp;
thread_local bool rounded_after_op = false;  // torch::rounded_after_an_op
}  // namespace

ir::TermId round_to(ir::TermStore& s, DType d, ir::TermId t) {
  const bool narrow_float =
      d == DType::F16 || d == DType::BF16 || d == DType::E4M3 || d == DType::E5M2;
  if (!narrow_float) return rounded(s, d, t);
  if (current_rounding == NarrowRounding::Once) return t;
  ir::TermId r = rounded(s, d, t);
  if (r != t) rounded_after_op = true;
  return r;
}

ir::TermId rounded(ir::TermStore& s, DType d, ir::TermId t) {
  auto once = [&](ir::Op op) {
    if (s.op(t) == ir::Op::Const) {  // a narrow constant is its rounded value (0.1 in fp16)
      ir::IeeeValue c = ir::IeeeValue::of(s.constant_of(t));
      return s.constant(ir::eval_ieee(op, std::span<const ir::IeeeValue>(&c, 1)).to_constant());
    }
    return s.op(t) == op ? t : s.make(op, {t});
  };  // rounding is idempotent
  switch (d) {
    case DType::F16:
      return once(ir::Op::CastF16);
    case DType::BF16:
      return once(ir::Op::CastBF16);
    case DType::E4M3:
      return once(ir::Op::CastE4M3);
    case DType::E5M2:
      return once(ir::Op::CastE5M2);
    case DType::I8:  // int8 arithmetic wraps to the byte (torch and Triton alike)
      return once(ir::Op::CastI8);
    case DType::U8:
      return once(ir::Op::CastU8);
    default:
      return t;
  }
}

ir::TermId constant(ir::TermStore& s, DType d, double v) {
  switch (d) {
    case DType::I32:
    case DType::I64:
      return s.constant(ir::Constant::of_int(term_type(d), static_cast<int64_t>(v)));
    case DType::I8:
    case DType::U8:
      return rounded(s, d,
                     s.constant(ir::Constant::of_int(ir::Type::I32, static_cast<int64_t>(v))));
    case DType::Bool:
      return s.constant(ir::Constant::of_bool(v != 0));
    default:
      // A Python float meets an fp32 tensor as its fp32 value.
      return rounded(s, d, s.constant(ir::Constant::of_float(static_cast<float>(v))));
  }
}

bool may_be_negative_zero(const ir::TermStore& s, ir::TermId t) {
  switch (s.op(t)) {
    case ir::Op::Const: {
      double v = s.constant_of(t).f;
      return v == 0 && std::signbit(v);
    }
    case ir::Op::Exp:
    case ir::Op::Exp2:
    case ir::Op::Abs:
      return false;
    case ir::Op::Mul:  // a square
      return s.children(t)[0] != s.children(t)[1];
    default:
      return true;
  }
}

ir::TermId sum_from_zero(ir::TermStore& s, std::span<const ir::TermId> terms) {
  // torch's sum over no elements is +0 (a float sum: keq's integer sums have terms).
  if (terms.empty()) return s.constant(ir::Constant::of_float(0.0));
  ir::TermId sum = terms.size() == 1 ? terms[0] : s.make(ir::Op::Sum, terms);
  if (s.type(sum) != ir::Type::F32 ||
      std::ranges::none_of(terms, [&](ir::TermId t) { return may_be_negative_zero(s, t); }))
    return sum;
  return s.make(ir::Op::Add, {sum, s.constant(ir::Constant::of_float(0.0))});
}

ir::TermId convert(ir::TermStore& s, ir::TermId t, DType from, DType to) {
  if (from == to) return t;
  if (to == DType::Bool && s.op(t) == ir::Op::Const) {  // a constant mask: decided here
    const ir::Constant c = s.constant_of(t);
    return s.constant(ir::Constant::of_bool(
        ir::is_int(c.type) || c.type == ir::Type::Bool ? c.i != 0 : c.f != 0));
  }
  if (to == DType::Bool) return s.make(ir::Op::CastBool, {t});
  if (to == DType::I32) return s.make(ir::Op::CastI32, {t});
  if (to == DType::I64) return s.make(ir::Op::CastI64, {t});
  if (to == DType::I8 || to == DType::U8) return rounded(s, to, t);
  if (!torch::is_float(from)) t = s.make(ir::Op::CastF32, {t});
  return rounded(s, to, t);
}

bool reaches_parameter(const ir::TermStore& s, std::span<const ir::TermId> roots) {
  absl::flat_hash_set<ir::TermId> seen;
  std::vector<ir::TermId> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    ir::TermId e = stack.back();
    stack.pop_back();
    if (e == Tensor::kUninit || !seen.insert(e).second) continue;
    if (s.op(e) == ir::Op::Var) {
      const std::string& v = s.variable_of(e).name;
      if (v.size() > 1 && v[0] == 'p' && std::isdigit(static_cast<unsigned char>(v[1])))
        return true;
    }
    for (ir::TermId c : s.children(e)) stack.push_back(c);
  }
  return false;
}

ir::TermId where_term(ir::TermStore& s, ir::TermId condition, ir::TermId then,
                      ir::TermId otherwise) {
  if (s.op(condition) == ir::Op::Const) return s.constant_of(condition).i != 0 ? then : otherwise;
  return s.make(ir::Op::Select, {condition, then, otherwise});
}

TensorPtr as_tensor(Interp& in, const Ref& v, Span at, DType like) {
  if (v->kind == K::Tensor) return v->tensor;
  auto t = std::make_shared<Tensor>();
  if (v->kind == K::Float) {
    t->dtype = torch::is_float(like) ? like : DType::F32;
    t->elems = {constant(in.store(), t->dtype, v->f)};
  } else if (v->kind == K::InputDependentFloat) {  // a Python float, as the constant above
    t->dtype = torch::is_float(like) ? like : DType::F32;
    t->elems = {convert(in.store(), v->tensor->elems[0], v->tensor->dtype, t->dtype)};
  } else if (v->kind == K::Int || v->kind == K::Bool) {
    t->dtype = v->kind == K::Bool && like == DType::Bool ? DType::Bool : like;
    t->elems = {constant(in.store(), t->dtype, static_cast<double>(v->i))};
  } else {
    in.error(at, "expected a tensor or a number, got " + v->type_name());
  }
  return t;
}

DType kernel_scalar_dtype(const Ref& v) {
  if (v->kind == K::Float) return DType::F32;
  if (v->kind == K::Bool) return DType::Bool;
  return v->i < INT32_MIN || v->i > INT32_MAX ? DType::I64 : DType::I32;
}

DType promote(const Ref& a, const Ref& b, Interp& in, Span at) {
  auto kind_of = [](DType d) { return torch::is_float(d) ? 2 : d == DType::Bool ? 0 : 1; };
  auto scalar_kind = [](const Ref& v) {
    return v->kind == K::Float || v->kind == K::InputDependentFloat ? 2
           : v->kind == K::Bool                                     ? 0
                                                                    : 1;
  };
  if (a->kind == K::Tensor && b->kind == K::Tensor) {
    DType x = a->tensor->dtype, y = b->tensor->dtype;
    if (x == y) return x;
    if (kind_of(x) != kind_of(y)) return kind_of(x) > kind_of(y) ? x : y;
    // torch: a 0-d tensor beside one with dimensions does not widen it within its category
    // (bf16 x times torch.tensor(0.1) is bf16; x.sum() of fp32 beside it too). Triton's scalars
    // are tensors like any other.
    const bool x0 = a->tensor->shape.empty(), y0 = b->tensor->shape.empty();
    if (x0 != y0 && !in.in_jit_code()) return x0 ? y : x;
    if (kind_of(x) == 2) {
      if (x == DType::F32 || y == DType::F32) return DType::F32;
      // fp16 with bf16: torch computes in fp32; Triton in fp16, the bf16 side cast to it
      // (computation_type_impl's rule for a half; its interpreter agrees).
      const bool halves =
          (x == DType::F16 && y == DType::BF16) || (x == DType::BF16 && y == DType::F16);
      if (halves) return in.in_jit_code() ? DType::F16 : DType::F32;
      in.unsupported(at, "mixing " + std::string(torch::dtype_name(x)) + " and " +
                             std::string(torch::dtype_name(y)));
    }
    if (x == DType::I64 || y == DType::I64) return DType::I64;
    if (x == DType::I32 || y == DType::I32) return DType::I32;
    in.unsupported(at, "mixing int8 and uint8 (torch computes in int16)");
  }
  if (a->kind != K::Tensor && b->kind != K::Tensor) {  // two Python scalars: where(c, 1.0, -1.0)
    int k = std::max(scalar_kind(a), scalar_kind(b));
    return k == 2 ? DType::F32 : k == 1 ? DType::I64 : DType::Bool;
  }
  const Ref& t = a->kind == K::Tensor ? a : b;
  const Ref& s = a->kind == K::Tensor ? b : a;
  // In a kernel a runtime scalar argument is a typed tensor (fp32; int32, or int64 past int32's
  // range) that takes part in promotion: an fp16 block times a float argument is fp32, an int8
  // block plus an int argument int32 (the prototype's typed arguments,
  // semantic.computation_type_impl). A literal stays weak, as in torch.
  // An int argument equal to 1 is the exception: Triton specializes it into the constexpr 1,
  // weak (value.h: Int's `f`).
  const bool specialized_one = s->kind == K::Int && s->f == 1;
  if ((s->kind == K::Int || s->kind == K::Float) && s->b && !specialized_one && in.in_jit_code()) {
    auto scalar = std::make_shared<Tensor>();
    scalar->dtype = kernel_scalar_dtype(s);
    return promote(t, tensor_value(scalar), in, at);
  }
  // A Python scalar never widens a tensor of its own kind; a float scalar makes ints float32.
  if (scalar_kind(s) > kind_of(t->tensor->dtype))
    return scalar_kind(s) == 2 ? DType::F32 : DType::I64;
  return t->tensor->dtype;
}

std::vector<int64_t> broadcast_shapes(Interp& in, const std::vector<int64_t>& a,
                                      const std::vector<int64_t>& b, Span at) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t k = 0; k < n; ++k) {
    int64_t x = k < n - a.size() ? 1 : a[k - (n - a.size())];
    int64_t y = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (x != y && x != 1 && y != 1)  // torch's message, or Triton's in a kernel
      in.raise(at, in.in_jit_code()
                       ? "ValueError: Cannot make_shape_compatible: incompatible dimensions at "
                         "index " +
                             std::to_string(k) + ": " + std::to_string(x) + " and " +
                             std::to_string(y)
                       : "RuntimeError: The size of tensor a (" + std::to_string(x) +
                             ") must match the size of tensor b (" + std::to_string(y) +
                             ") at non-singleton dimension " + std::to_string(k));
    out[k] = x == 1 ? y : x;
  }
  return out;
}

int64_t broadcast_index(const Tensor& t, const std::vector<int64_t>& out_shape,
                        const std::vector<int64_t>& idx) {
  size_t off = out_shape.size() - t.shape.size();
  int64_t flat = 0, stride = 1;
  for (size_t k = t.shape.size(); k-- > 0;) {
    if (t.shape[k] != 1) flat += idx[k + off] * stride;
    stride *= t.shape[k];
  }
  return flat;
}

void define_unwritten(Interp& in, Tensor& t, Span at) {
  // The memory holds some value keq cannot know: an undefined one (as a kernel's read of it), a
  // finding if it reaches an output (triton's report_undefined_outputs). The elements keep it,
  // so later reads of them see the same value.
  for (size_t k = 0; k < t.elems.size(); ++k)
    if (t.elems[k] == Tensor::kUninit)
      t.elems[k] =
          in.store().variable("undef@" + in.where(at) + "#" + std::to_string(in.store().size()) +
                                  "[memory that nothing wrote (torch.empty), read on the host]",
                              term_type(t.dtype));
}

void adopt_strides(const TensorPtr& r, const std::vector<int64_t>& strides) {
  std::vector<int64_t> row_major = r->strides();
  r->strided = false;
  r->storage = SameStorage{};
  for (size_t d = 0; d < strides.size(); ++d)
    r->strided |= r->shape[d] > 1 && strides[d] != row_major[d];
  if (!r->strided) return;
  r->storage.strides = strides;
  r->storage.members = std::make_shared<std::vector<std::weak_ptr<Tensor>>>();
  r->storage.members->push_back(r);
}

namespace {

// torch's strides of t; none where keq does not track them (an expand or a slice view).
std::optional<std::vector<int64_t>> torch_strides(const Tensor& t) {
  if (!t.strided) return t.strides();
  if (t.storage.strides.empty()) return std::nullopt;
  return t.storage.strides;
}

// The layout torch's TensorIterator gives a new elementwise result: contiguous when every
// operand is; else r's dimensions are ordered fastest first by the operands' strides, the
// first operand that tells two dimensions apart deciding (broadcast dimensions tell nothing;
// equal strides put the shorter dimension first), and r is dense in that order
// (reorder_dimensions in aten/src/ATen/TensorIterator.cpp). x.T + x is contiguous, x.T * 2
// keeps x.T's strides.
void take_elementwise_layout(const TensorPtr& r, std::initializer_list<const Tensor*> operands) {
  bool any_strided = false;
  // Where every operand is, if they agree (a Python number's is unknown here: binary() knows).
  r->device = operands.size() ? (*operands.begin())->device : Tensor::Device::Unknown;
  for (const Tensor* t : operands) {
    any_strided |= t->strided;
    if (t->device != r->device) r->device = Tensor::Device::Unknown;
  }
  r->strided = false;
  if (!any_strided) return;
  size_t n = r->shape.size();
  std::vector<std::vector<int64_t>> st;  // per operand, over r's dimensions; 0: broadcast
  for (const Tensor* t : operands) {
    std::optional<std::vector<int64_t>> s = torch_strides(*t);
    if (!s) {
      r->strided = true;  // an operand keq does not track: neither is its result
      return;
    }
    std::vector<int64_t> full(n, 0);
    size_t off = n - t->shape.size();
    for (size_t d = 0; d < t->shape.size(); ++d)
      full[off + d] = t->shape[d] == 1 && r->shape[off + d] != 1 ? 0 : (*s)[d];
    st.push_back(std::move(full));
  }
  auto should_swap = [&](size_t d0, size_t d1) {
    for (const auto& s : st) {
      if (s[d0] == 0 || s[d1] == 0) continue;
      if (s[d0] != s[d1]) return s[d0] < s[d1] ? -1 : 1;
      if (r->shape[d0] > r->shape[d1]) return 1;
    }
    return 0;
  };
  std::vector<size_t> perm(n);  // fastest-moving dimension first
  for (size_t k = 0; k < n; ++k) perm[k] = n - 1 - k;
  for (size_t i = 1; i < n; ++i) {  // torch's insertion sort, which tolerates ambiguity
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<int64_t> strides(n);
  int64_t next = 1;
  for (size_t k = 0; k < n; ++k) {
    strides[perm[k]] = next;
    next *= r->shape[perm[k]];
  }
  adopt_strides(r, strides);
}

}  // namespace

void copy_layout(const TensorPtr& r, const Tensor& x) {
  if (std::optional<std::vector<int64_t>> s = torch_strides(x); s && x.strided)
    adopt_strides(r, *s);
  else
    r->strided = x.strided;
}

MemoryFormat memory_format(Interp& in, const Ref& f, MemoryFormat fallback, Span at) {
  if (!f || f->kind == python::Value::Kind::None) return fallback;
  if (f->kind == python::Value::Kind::Module) {
    if (f->s == "torch.contiguous_format") return MemoryFormat::Contiguous;
    if (f->s == "torch.preserve_format") return MemoryFormat::Preserve;
    if (f->s == "torch.channels_last") return MemoryFormat::ChannelsLast;
  }
  in.unsupported(at, "memory_format " + in.repr(f));
}

namespace {
std::vector<int64_t> channels_last_strides(const std::vector<int64_t>& shape) {
  int64_t c = shape[1], h = shape[2], w = shape[3];
  return {h * w * c, 1, w * c, c};
}

void need_rank_4(Interp& in, const Tensor& x, Span at) {
  if (x.shape.size() != 4)
    in.raise_exception(at, "RuntimeError", "required rank 4 tensor to use channels_last format");
}
}  // namespace

bool is_channels_last(Interp& in, const Tensor& x, Span at) {
  need_rank_4(in, x, at);
  std::optional<std::vector<int64_t>> st = torch_strides(x);
  if (!st)
    in.unsupported(at,
                   "is_contiguous(memory_format=torch.channels_last) of a view whose torch "
                   "layout keq does not track");
  int64_t expected = 1;
  for (size_t d : {1, 3, 2, 0}) {
    if (x.shape[d] == 1) continue;
    if ((*st)[d] != expected) return false;
    expected *= x.shape[d];
  }
  return true;
}

TensorPtr laid_out(Interp& in, const TensorPtr& x, MemoryFormat format, bool copy, Span at) {
  if (format == MemoryFormat::ChannelsLast) {
    if (!copy && is_channels_last(in, *x, at)) return x;
    auto r = std::make_shared<Tensor>(*x);
    r->strided = false;
    adopt_strides(r, channels_last_strides(x->shape));
    return r;
  }
  if (format == MemoryFormat::Contiguous && (copy || x->strided)) {
    auto r = std::make_shared<Tensor>(*x);
    r->strided = false;
    return r;
  }
  if (!copy) return x;
  auto r = std::make_shared<Tensor>(*x);  // preserve_format: x's strides where keq knows them
  r->strided = false;
  copy_layout(r, *x);
  return r;
}

TensorPtr map1(Interp& in, const TensorPtr& a, DType out,
               const std::function<ir::TermId(ir::TermId)>& f, Span at) {
  define_unwritten(in, *a, at);
  auto r = std::make_shared<Tensor>();
  r->shape = a->shape;
  r->dtype = out;
  r->elems.reserve(a->elems.size());
  for (ir::TermId e : a->elems) r->elems.push_back(round_to(in.store(), out, f(e)));
  take_elementwise_layout(r, {a.get()});
  return r;
}

TensorPtr map2(Interp& in, const TensorPtr& a, const TensorPtr& b, DType out,
               const std::function<ir::TermId(ir::TermId, ir::TermId)>& f, Span at) {
  define_unwritten(in, *a, at);
  define_unwritten(in, *b, at);
  auto r = std::make_shared<Tensor>();
  r->shape = broadcast_shapes(in, a->shape, b->shape, at);
  r->dtype = out;
  r->elems.resize(r->numel());
  for_each_index(r->shape, [&](const std::vector<int64_t>& idx, int64_t k) {
    r->elems[k] = round_to(in.store(), out,
                           f(a->elems[broadcast_index(*a, r->shape, idx)],
                             b->elems[broadcast_index(*b, r->shape, idx)]));
  });
  take_elementwise_layout(r, {a.get(), b.get()});
  return r;
}

TensorPtr map3(Interp& in, const TensorPtr& a, const TensorPtr& b, const TensorPtr& c, DType out,
               const std::function<ir::TermId(ir::TermId, ir::TermId, ir::TermId)>& f, Span at) {
  auto r = std::make_shared<Tensor>();
  r->shape = broadcast_shapes(in, broadcast_shapes(in, a->shape, b->shape, at), c->shape, at);
  r->dtype = out;
  r->elems.resize(r->numel());
  for_each_index(r->shape, [&](const std::vector<int64_t>& idx, int64_t k) {
    r->elems[k] = round_to(in.store(), out,
                           f(a->elems[broadcast_index(*a, r->shape, idx)],
                             b->elems[broadcast_index(*b, r->shape, idx)],
                             c->elems[broadcast_index(*c, r->shape, idx)]));
  });
  take_elementwise_layout(r, {a.get(), b.get(), c.get()});
  return r;
}

std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& old_shape,
                                                 const std::vector<int64_t>& old_strides,
                                                 const std::vector<int64_t>& shape) {
  std::vector<int64_t> out(shape.size(), 1);
  if (old_shape.empty()) return out;
  int64_t numel = 1;
  for (int64_t d : old_shape) numel *= d;
  if (numel == 0) return old_shape == shape ? std::optional(old_strides) : std::nullopt;
  // Each run of old dimensions that is one contiguous chunk is cut anew into view dimensions.
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base = old_strides.back(), tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_shape.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_shape[d];
    if (d == 0 || (old_shape[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base = old_strides[d - 1];
        tensor_numel = 1, view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

std::vector<ir::TermId> permuted_elems(const Tensor& t, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape, st = t.strides(), idx(perm.size(), 0);
  for (int64_t p : perm) shape.push_back(t.shape[p]);
  std::vector<ir::TermId> out;
  out.reserve(t.elems.size());
  for (int64_t k = 0; k < t.numel(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) src += idx[d] * st[perm[d]];
    out.push_back(t.elems[src]);
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

int64_t norm_dim(Interp& in, int64_t d, size_t rank, Span at) {
  int64_t r = static_cast<int64_t>(rank), n = std::max<int64_t>(r, 1);  // a 0-d tensor wraps as 1-d
  if (d < -n || d >= n)                                                 // torch's maybe_wrap_dim
    in.raise(at, "IndexError: Dimension out of range (expected to be in range of [" +
                     std::to_string(-n) + ", " + std::to_string(n - 1) + "], but got " +
                     std::to_string(d) + ")");
  return d < 0 ? d + r : d;
}

TensorPtr reduce(Interp& in, const TensorPtr& a, std::vector<int64_t> dims, bool keepdim, DType out,
                 const std::function<ir::TermId(std::vector<ir::TermId>&)>& f, Span at) {
  define_unwritten(in, *a, at);
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  std::vector<bool> reduced(a->shape.size(), false);
  for (int64_t d : dims) reduced[d] = true;
  std::vector<int64_t> kept_shape, out_shape;
  for (size_t d = 0; d < a->shape.size(); ++d) {
    if (!reduced[d]) kept_shape.push_back(a->shape[d]);
    if (!reduced[d] || keepdim) out_shape.push_back(reduced[d] ? 1 : a->shape[d]);
  }
  int64_t groups = 1;
  for (int64_t d : kept_shape) groups *= d;
  std::vector<std::vector<ir::TermId>> members(groups);
  std::vector<int64_t> strides = a->strides();
  for_each_index(a->shape, [&](const std::vector<int64_t>& idx, int64_t flat) {
    int64_t g = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      if (!reduced[d]) g = g * a->shape[d] + idx[d];
    members[g].push_back(a->elems[flat]);
  });
  auto r = std::make_shared<Tensor>();
  r->shape = out_shape;
  r->dtype = out;
  r->strided = a->strided && out_shape.size() > 1;  // reductions may keep a permuted layout
  for (auto& m : members) {
    if (m.empty()) in.unsupported(at, "a reduction over an empty dimension");
    r->elems.push_back(round_to(in.store(), out, f(m)));
  }
  return r;
}

}  // namespace keq::torch::detail

namespace keq::torch {

NarrowRounding narrow_rounding() {
  return detail::current_rounding;
}

bool rounded_after_an_op() {
  return detail::rounded_after_op;
}

NarrowRoundingScope::NarrowRoundingScope(NarrowRounding r)
    : saved_(detail::current_rounding), saved_rounded_(detail::rounded_after_op) {
  detail::current_rounding = r;
  detail::rounded_after_op = false;
}

NarrowRoundingScope::~NarrowRoundingScope() {
  detail::current_rounding = saved_;
  detail::rounded_after_op = detail::rounded_after_op || saved_rounded_;
}

}  // namespace keq::torch
