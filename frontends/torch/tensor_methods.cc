// A tensor's attributes and methods (shape, dtype, T, mT, device, ...), augmented assignment
// (x += v) and in-place methods (add_, zero_, copy_, ...) written through the storage.
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <numeric>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

// t.data = w: the tensor object (a Parameter stays one) now holds w's storage, dtype and shape,
// as torch's set_data does. requires_grad and grad = None are accepted (keq tracks no autograd);
// torch's read-only properties raise as torch does.
void Torch::set_tensor_attr(const Ref& self, const std::string& name, const Ref& v, Span at) {
  if (name == "data") {
    if (v->kind != K::Tensor)
      in.raise(at, "TypeError: Variable data has to be a tensor, but got " + v->type_name());
    for (auto& p : st.parameter_objects)
      if (p.values == self->tensor.get()) p.values = v->tensor.get();
    self->tensor = v->tensor;
    return;
  }
  if (name == "requires_grad") {
    tensor_attr(self, name, at);  // unsupported where it is computed from parameters
    bool flag = in.truthy(v, at);
    st.requires_grad_set.emplace_back(self->tensor, flag);
    st.grad_leaf_made |= flag;
    return;
  }
  if (name == "grad" && v->kind == K::None) return;
  for (const char* p : {"shape", "dtype", "device", "ndim", "T", "mT", "H", "mH", "is_cuda",
                        "is_cpu", "layout", "is_leaf"})
    if (name == p)
      in.raise(at, "AttributeError: attribute '" + name +
                       "' of 'torch._C.TensorBase' objects is not writable");
  in.unsupported(at, "setting attribute '" + name + "' on a tensor");
}

Ref Torch::tensor_attr(const Ref& self, const std::string& name, Span at) {
  if (self->kind == K::DType) {  // torch.float32.is_floating_point & co.
    if (name == "is_floating_point" || name == "is_complex" || name == "is_signed")
      return python::boolean(dtype_kind_is(self, name));
    require_modelled_dtype(in, self, at);
    if (name == "itemsize") return python::integer(element_size(self->dtype));
    in.unsupported(at, "torch.dtype." + name + " is not modelled");
  }
  if (self->kind != K::Tensor)  // x.to(...) of a Python number: only kernels have scalar blocks
    in.unsupported(at, "attribute '" + name + "' of " + self->type_name());
  const TensorPtr& t = self->tensor;
  if (name == "__len__")
    return python::builtin("Tensor.__len__", [t](Interp& i2, CallArgs& a) {
      if (t->shape.empty()) i2.error(a.at, "len() of a 0-d tensor");
      return python::integer(t->shape[0]);
    });
  if (name == "shape") return size_value(t->shape);
  if (name == "dtype") return torch::dtype_value(t->dtype);
  if (name == "ndim") return python::integer(static_cast<int64_t>(t->shape.size()));
  if (name == "mT" || name == "mH") {  // the last two dimensions swapped (real tensors)
    if (t->shape.size() < 2) throw python::ProgramError("tensor." + name + " needs 2 dimensions");
    std::vector<int64_t> perm;
    for (size_t d = 0; d < t->shape.size(); ++d) perm.push_back(static_cast<int64_t>(d));
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return wrap(permuted(t, perm));
  }
  if (name == "T") {
    std::vector<int64_t> perm;
    for (size_t d = t->shape.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
    return wrap(permuted(t, perm));
  }
  if (name == "device") {
    auto dev = std::make_shared<Value>();
    dev->kind = K::Device;
    dev->s = t->on_cpu() ? "cpu" : "cuda:0";
    if (!t->on_cpu())
      st.host_assumptions.insert(
          "tensor.device is cuda:0 (keq models the H200 KernelBench runs on)");
    return dev;
  }
  if (name == "requires_grad")  // the program's latest setting
    for (auto it = st.requires_grad_set.rbegin(); it != st.requires_grad_set.rend(); ++it)
      if (it->first.lock() == t) return python::boolean(it->second);
  if (name == "requires_grad" && self->b) return python::boolean(true);  // an nn.Parameter
  if (name == "requires_grad") {
    // A tensor computed with grad mode on from one that requires grad requires it too; keq does
    // not track which tensors those are, so it answers only where none can have been computed.
    st.note_grad_use();
    bool could = reaches_parameter(s, t->elems) || st.grad_leaf_made;
    if (could && st.grad_may_have_flowed)
      in.unsupported(at,
                     "Tensor.requires_grad of a tensor that may have been computed with grad mode "
                     "on from one that requires grad (keq does not track autograd)");
    if (could)
      st.host_assumptions.insert(
          "no tensor was computed with grad mode on from one that requires grad (KernelBench "
          "builds both models and runs forward under torch.no_grad())");
    return python::boolean(false);
  }
  if (name == "_version") {  // read by caches that rebuild when a weight changes in place
    st.host_assumptions.insert(
        "Tensor._version counts the in-place torch updates keq ran (a module's parameters "
        "start at 1, as torch's reset_parameters leaves them; Triton's stores do not count, "
        "as in torch)");
    return python::integer(t->storage.version ? *t->storage.version : 0);
  }
  if (name == "data") return self;  // the same storage, detached: keq tracks no autograd
  if (name == "is_floating_point" || name == "is_complex" || name == "is_signed")
    return python::builtin("Tensor." + name, [self, name](Interp&, CallArgs&) {
      return python::boolean(dtype_kind_is(dtype_value(self->tensor->dtype), name));
    });
  if (name == "is_cuda" || name == "is_cpu") {
    if (!t->on_cpu())
      st.host_assumptions.insert(
          "tensor.is_cuda is True (keq models the H200 KernelBench runs on)");
    return python::boolean((name == "is_cuda") != t->on_cpu());
  }
  auto method = [&](const OpFn& f) {
    return python::builtin("Tensor." + name, [self, f](Interp& i2, CallArgs& a) {
      a.pos.insert(a.pos.begin(), self);
      return f(i2, a);
    });
  };
  if (auto it = ops.find(name); it != ops.end()) return method(it->second);
  auto self_fn = [&](std::function<Ref(Interp&, CallArgs&)> f) { return method(std::move(f)); };
  if (name == "size")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      const TensorPtr& x = a.pos[0]->tensor;
      if (a.pos.size() > 1)
        return python::integer(
            x->shape[norm_dim(in, in.to_int(a.pos[1], a.at), x->shape.size(), a.at)]);
      std::vector<Ref> dims;
      for (int64_t d : x->shape) dims.push_back(python::integer(d));
      return python::tuple(dims);
    });
  if (name == "dim")
    return self_fn([](Interp&, CallArgs& a) {
      return python::integer(static_cast<int64_t>(a.pos[0]->tensor->shape.size()));
    });
  if (name == "numel")
    return self_fn([](Interp&, CallArgs& a) { return python::integer(a.pos[0]->tensor->numel()); });
  if (name == "requires_grad_")  // in place, as t.requires_grad = flag; returns t
    return self_fn([this](Interp&, CallArgs& a) {
      Ref flag = a.get(1, "requires_grad");
      set_tensor_attr(a.pos[0], "requires_grad", flag ? flag : python::boolean(true), a.at);
      return a.pos[0];
    });
  if (name == "detach")  // the same storage
    return self_fn([](Interp&, CallArgs& a) { return a.pos[0]; });
  if (name == "cuda" || name == "cpu")
    return self_fn([this, name](Interp&, CallArgs& a) { return moved(a.pos[0], name == "cpu"); });
  if (name == "clone")  // a new storage: writes into either no longer reach the other
    return self_fn([this](Interp&, CallArgs& a) {
      MemoryFormat f = memory_format(in, a.get(1, "memory_format"), MemoryFormat::Preserve, a.at);
      return wrap(laid_out(in, a.pos[0]->tensor, f, true, a.at));
    });
  if (name == "element_size")
    return self_fn([](Interp&, CallArgs& a) {
      return python::integer(element_size(a.pos[0]->tensor->dtype));
    });
  if (name == "data_ptr")
    return self_fn([this](Interp&, CallArgs& a) {
      // Distinct tensors get distinct addresses, each aligned as the caching allocator aligns
      // a fresh allocation (keq's tensors are contiguous and start at their buffer).
      auto [it, fresh] = data_ptrs.try_emplace(
          a.pos[0]->tensor.get(), (int64_t{0x7f} << 40) + (int64_t(data_ptrs.size()) << 30));
      st.host_assumptions.insert(
          "data_ptr() is 1 GiB-aligned and distinct per tensor (a fresh CUDA allocation)");
      return python::integer(it->second);
    });
  auto cast_to = [&](DType d) {
    return self_fn([this, d](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype;
      return wrap(map1(
          in, x, d, [&](TermId e) { return convert(s, e, from, d); }, a.at));
    });
  };
  if (name == "float") return cast_to(DType::F32);
  if (name == "half") return cast_to(DType::F16);
  if (name == "bfloat16") return cast_to(DType::BF16);
  if (name == "int") return cast_to(DType::I32);
  if (name == "long") return cast_to(DType::I64);
  if (name == "bool") return cast_to(DType::Bool);
  if (name == "to" || name == "type")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      Ref target, device = a.get(SIZE_MAX, "device");
      for (size_t k = 1; k < a.pos.size(); ++k) {
        const Ref v = python_type_as_dtype(a.pos[k]);
        if (v->kind == K::DType) target = v;
        if (v->kind == K::Str || v->kind == K::Device || v->kind == K::Int) device = v;
        if (v->kind == K::Tensor) {  // x.to(other): other's dtype, and its device if known
          target = dtype_value(v->tensor->dtype);
          if (v->tensor->device != Tensor::Device::Unknown)
            device = python::string(v->tensor->on_cpu() ? "cpu" : "cuda");
        }
      }
      if (Ref d = a.get(SIZE_MAX, "dtype")) target = python_type_as_dtype(d);
      Ref placed = a.pos[0];
      MemoryFormat f =
          memory_format(in, a.get(SIZE_MAX, "memory_format"), MemoryFormat::Preserve, a.at);
      if (TensorPtr x = placed->tensor; f != MemoryFormat::Preserve)
        if (TensorPtr r = laid_out(in, x, f, false, a.at); r != x) placed = wrap(r);
      if (device && device->kind != K::None) placed = moved(placed, names_cpu(device));
      if (!target) return placed;  // .to(device)
      a.pos[0] = placed;
      require_modelled_dtype(in, target, a.at);
      TensorPtr x = a.pos[0]->tensor;
      DType from = x->dtype, to = target->dtype;
      return wrap(map1(
          in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at));
    });
  if (name == "type_as")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor, other = tensor_arg(a, 1, "other");
      DType from = x->dtype, to = other->dtype;
      return wrap(map1(
          in, x, to, [&](TermId e) { return convert(s, e, from, to); }, a.at));
    });
  if (name == "item")
    return self_fn([this](Interp&, CallArgs& a) { return item(a.pos[0]->tensor, a.at); });
  // view_as/reshape_as: self's elements in other's shape.
  if (name == "view_as" || name == "reshape_as")
    return self_fn([this, name](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor, other = tensor_arg(a, 1, "other");
      if (x->numel() != other->numel()) {
        std::string text;
        for (int64_t d : other->shape) text += (text.empty() ? "" : ", ") + std::to_string(d);
        in.raise_exception(
            a.at, "RuntimeError",
            "shape '[" + text + "]' is invalid for input of size " + std::to_string(x->numel()));
      }
      return wrap(reshaped(x, other->shape));
    });
  // new_empty/new_zeros/new_ones/new_full: a fresh tensor with self's dtype unless dtype= says.
  if (name == "new_empty" || name == "new_zeros" || name == "new_ones" || name == "new_full")
    return self_fn([this, name](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor;
      CallArgs shape_args = a;
      double fill = name == "new_ones" ? 1.0 : 0.0;
      if (name == "new_full") {
        Ref f = a.get(2, "fill_value");
        if (!f) in.error(a.at, "new_full needs a fill_value");
        fill = in.to_float(f, a.at);
        shape_args.pos.resize(std::min<size_t>(shape_args.pos.size(), 2));
      }
      std::vector<int64_t> shape = sizes(shape_args, 1);
      in.check_shape(a.at, shape, "Tensor." + name);
      DType d = dtype_kw(a, x->dtype);
      return wrap(name == "new_empty" ? filled(shape, d, std::nullopt) : filled(shape, d, fill));
    });
  // new_tensor(data): torch.tensor(data) with self's dtype unless dtype= says.
  if (name == "new_tensor")
    return self_fn([this](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = a.pos[0]->tensor;
      CallArgs b;
      b.at = a.at;
      b.pos = {a.get(1, "data")};
      if (!b.pos[0]) in.error(a.at, "Tensor.new_tensor needs data");
      b.kw = {{"dtype", dtype_value(dtype_kw(a, x->dtype))}};
      Ref r = in.call(in.getattr(in.module_value("torch", a.at), "tensor", a.at), b);
      r->tensor->device = x->device;  // self's
      return r;
    });
  if (name == "expand" || name == "expand_as" || name == "broadcast_to")  // the same view
    return self_fn([this, name](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> shape =
          name == "expand_as" ? tensor_arg(a, 1, "other")->shape : sizes(a, 1);
      auto list = [](const std::vector<int64_t>& v) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
        return s + "]";
      };
      if (shape.size() < x->shape.size())
        in.raise(a.at, "RuntimeError: expand: the number of sizes provided (" +
                           std::to_string(shape.size()) +
                           ") must be greater or equal to the number of dimensions in the "
                           "tensor (" +
                           std::to_string(x->shape.size()) + ")");
      size_t off = shape.size() - x->shape.size();
      for (size_t d = 0; d < x->shape.size(); ++d) {
        if (shape[d + off] == -1) shape[d + off] = x->shape[d];
        if (x->shape[d] != 1 && x->shape[d] != shape[d + off])  // torch's words
          in.raise(a.at, "RuntimeError: The expanded size of the tensor (" +
                             std::to_string(shape[d + off]) + ") must match the existing size (" +
                             std::to_string(x->shape[d]) + ") at non-singleton dimension " +
                             std::to_string(d + off) + ".  Target sizes: " + list(shape) +
                             ".  Tensor sizes: " + list(x->shape));
      }
      TensorPtr zero = filled(shape, x->dtype, 0);
      TensorPtr r = map2(
          in, x, zero, x->dtype, [](TermId p, TermId) { return p; }, a.at);
      r->strided |= r->numel() != x->numel();  // broadcast dimensions have stride 0
      if (x->strided && x->storage.strides.empty()) return wrap(r);  // a layout keq lacks
      // A view of x's storage, as torch's: a later write into x shows through it.
      std::vector<int64_t> layout = x->storage.strides.empty() ? x->strides() : x->storage.strides;
      std::vector<int64_t> strides(shape.size(), 0);
      for (size_t d = 0; d < x->shape.size(); ++d)
        if (x->shape[d] == shape[d + off]) strides[d + off] = layout[d];
      if (r->numel() > 0) strided_view(x, r, 0, strides);
      return wrap(r);
    });
  if (name == "repeat")
    return self_fn([this](Interp&, CallArgs& a) {
      TensorPtr x = a.pos[0]->tensor;
      std::vector<int64_t> reps = sizes(a, 1);
      if (reps.size() < x->shape.size())
        in.raise(a.at,
                 "RuntimeError: Number of dimensions of repeat dims can not be smaller than "
                 "number of dimensions of tensor");
      std::vector<int64_t> shape(reps.size() - x->shape.size(), 1);
      shape.insert(shape.end(), x->shape.begin(), x->shape.end());
      TensorPtr base = reshaped(x, shape);
      auto r = std::make_shared<Tensor>();
      r->dtype = x->dtype;
      for (size_t d = 0; d < shape.size(); ++d) r->shape.push_back(shape[d] * reps[d]);
      std::vector<int64_t> idx(r->shape.size(), 0), st = base->strides();
      for (int64_t k = 0; k < r->numel(); ++k) {
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) flat += (idx[d] % shape[d]) * st[d];
        r->elems.push_back(base->elems[flat]);
        for (size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < r->shape[d]) break;
          idx[d] = 0;
        }
      }
      return wrap(r);
    });
  if (Ref f = in_place_method(self, name)) return f;
  in.unsupported(at, "Tensor." + name + " is not modelled");
}

Ref Torch::augmented(const std::string& op, const Ref& x, const Ref& v, Span at) {
  static const absl::flat_hash_map<std::string, std::string> kMethod = {
      {"+", "add_"},           {"-", "sub_"},        {"*", "mul_"},  {"/", "div_"},
      {"//", "floor_divide_"}, {"%", "remainder_"},  {"**", "pow_"}, {"&", "bitwise_and_"},
      {"|", "bitwise_or_"},    {"^", "bitwise_xor_"}};
  auto it = kMethod.find(op);
  Ref method = it == kMethod.end() ? nullptr : in_place_method(x, it->second);
  if (!method) in.unsupported(at, "the in-place tensor operator " + op + "=");
  return in.call(method, {v}, at);
}

// t.uniform_(..) and t.normal_(..) make t a parameter (randomize); t.zero_(), t.fill_(v),
// t.copy_(src) and t.OP_(...) for every out-of-place OP keq models
// (add_, div_, clamp_, relu_, ...): OP's result, broadcast to t's shape and cast to its dtype,
// written into t and every view of its storage; t itself is returned, as torch does.
Ref Torch::in_place_method(const Ref& self, const std::string& name) {
  if (name.size() < 2 || name.back() != '_' || name[0] == '_') return nullptr;
  std::string base = name.substr(0, name.size() - 1);
  if (base == "uniform" || base == "normal")
    return python::builtin("Tensor." + name, [this, self, name](Interp&, CallArgs& a) -> Ref {
      randomize(self->tensor, "Tensor." + name, a.at);
      return self;
    });
  bool known = base == "zero" || base == "fill" || base == "copy" || ops.contains(base);
  if (!known) return nullptr;
  return python::builtin("Tensor." + name, [this, self, base, name](Interp&, CallArgs& a) -> Ref {
    const TensorPtr& t = self->tensor;
    Ref value;
    if (base == "zero")
      value = python::integer(0);
    else if (base == "fill" || base == "copy")
      value = a.get(0, base == "fill" ? "value" : "src");
    else {
      a.pos.insert(a.pos.begin(), self);
      value = ops.at(base)(in, a);
    }
    if (!value) in.error(a.at, "Tensor." + name + " needs a value");
    TensorPtr v = value->kind == K::Tensor ? value->tensor : as_tensor(in, value, a.at, t->dtype);
    // In place, the result keeps self's dtype: a float result into an integer tensor is
    // torch's "result type Float can't be cast to the desired output type" (copy_ casts).
    if (base != "copy" && base != "fill" && is_float(v->dtype) && !is_float(t->dtype))
      in.raise(a.at, "RuntimeError: result type " + std::string(dtype_name(v->dtype)) +
                         " can't be cast to the desired output type " +
                         std::string(dtype_name(t->dtype)));
    Selection all{t->shape, std::vector<int64_t>(t->numel()), true};
    std::iota(all.flat.begin(), all.flat.end(), 0);
    write_selection(t, all, v, "Tensor." + name, a.at);
    return self;
  });
}

}  // namespace keq::torch::impl
