// torch's tensor creation: zeros, ones, full, arange, randn (symbolic), dtypes and devices.
#include <cfloat>
#include <map>

#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

// torch.finfo's fields for each float dtype keq models, as torch 2.11 prints them.
struct FloatInfo {
  double max, eps, tiny, resolution;
  int64_t bits;
};
FloatInfo float_info(DType d) {
  switch (d) {
    case DType::F16:
      return {65504.0, 0x1p-10, 0x1p-14, 1e-3, 16};
    case DType::BF16:
      return {0x1.fep+127, 0x1p-7, 0x1p-126, 1e-2, 16};
    case DType::E4M3:
      return {448.0, 0.125, 0x1p-6, 1.0, 8};
    case DType::E5M2:
      return {57344.0, 0.25, 0x1p-14, 1.0, 8};
    default:
      return {0x1.fffffep+127, 0x1p-23, 0x1p-126, 1e-6, 32};
  }
}

}  // namespace

// torch.finfo and torch.iinfo: quantization code reads the format's range from them
// (torch.finfo(torch.float8_e4m3fn).max is 448), for dtypes keq has no tensors of too
// (torch.iinfo(torch.int8).max before an int8 kernel).
void Torch::install_type_info(const Ref& torch) {
  auto& t = *torch->attrs;
  struct Info {
    bool is_float;
    double max, min, eps, tiny, resolution;
    int64_t bits;
  };
  auto info_of = [this](CallArgs& a, const char* fn) -> std::pair<std::string, Info> {
    Ref d = a.get(0, "type");
    if (d && d->kind != K::None && d->kind != K::DType)
      in.raise(a.at, std::string("TypeError: ") + fn + "() needs a dtype");
    if (torch::is_unmodelled_dtype(d)) {
      static const std::map<std::string, Info> kOthers = {
          {"int16", {false, 32767, -32768, 0, 0, 0, 16}},
          {"float64", {true, DBL_MAX, -DBL_MAX, DBL_EPSILON, DBL_MIN, 1e-15, 64}},
          {"float8_e4m3fnuz", {true, 240, -240, 0.125, 0x1p-7, 1.0, 8}},
          {"float8_e5m2fnuz", {true, 57344, -57344, 0.125, 0x1p-15, 1.0, 8}}};
      auto it = kOthers.find(d->s);
      if (it == kOthers.end()) in.unsupported(a.at, std::string(fn) + "(torch." + d->s + ")");
      return {d->s, it->second};
    }
    DType dt = d && d->kind == K::DType ? d->dtype : DType::F32;  // none: the default dtype
    std::string name(dtype_name(dt));
    if (dt == DType::I8) return {name, {false, 127, -128, 0, 0, 0, 8}};
    if (dt == DType::U8) return {name, {false, 255, 0, 0, 0, 0, 8}};
    if (!is_float(dt)) {
      bool wide = dt == DType::I64;
      return {name,
              {false, wide ? 0x1p63 - 1 : INT32_MAX, wide ? -0x1p63 : INT32_MIN, 0, 0, 0,
               dt == DType::Bool ? 0
               : wide            ? 64
                                 : 32}};
    }
    FloatInfo f = float_info(dt);
    return {name, {true, f.max, -f.max, f.eps, f.tiny, f.resolution, f.bits}};
  };
  t["finfo"] = python::builtin("torch.finfo", [this, info_of](Interp&, CallArgs& a) {
    auto [name, f] = info_of(a, "torch.finfo");
    if (!f.is_float)
      in.raise(a.at, "TypeError: torch.finfo() requires a floating point input type");
    Ref o = python::module_object("torch.finfo");
    auto& at = *o->attrs;
    at["dtype"] = python::string(name);
    at["max"] = python::floating(f.max);
    at["min"] = python::floating(f.min);
    at["eps"] = python::floating(f.eps);
    at["tiny"] = at["smallest_normal"] = python::floating(f.tiny);
    at["resolution"] = python::floating(f.resolution);
    at["bits"] = python::integer(f.bits);
    return o;
  });
  t["iinfo"] = python::builtin("torch.iinfo", [this, info_of](Interp&, CallArgs& a) {
    auto [name, f] = info_of(a, "torch.iinfo");
    if (f.is_float || f.bits == 0)
      in.raise(a.at,
               "TypeError: torch.iinfo() requires an integer input type (torch." + name + ")");
    Ref o = python::module_object("torch.iinfo");
    auto& at = *o->attrs;
    at["dtype"] = python::string(name);
    bool wide = f.bits == 64;  // INT64_MIN and MAX are not doubles: exact integers
    at["max"] = python::integer(wide ? INT64_MAX : static_cast<int64_t>(f.max));
    at["min"] = python::integer(wide ? INT64_MIN : static_cast<int64_t>(f.min));
    at["bits"] = python::integer(f.bits);
    return o;
  });
}

// torch.randn(..., requires_grad=True): a tensor that requires grad, as the program asked.
void Torch::made_requiring_grad(const Ref& r, const Ref& flag, python::Span at) {
  if (!flag || r->kind != K::Tensor || !in.truthy(flag, at)) return;
  st.requires_grad_set.emplace_back(r->tensor, true);
  st.grad_leaf_made = true;
}

// torch's factories put a tensor on the CPU unless device= says otherwise, and *_like puts it on
// its input's device. KernelBench moves get_inputs()'s and get_init_inputs()'s tensors to the
// GPU, and the model's parameters and buffers (Module.cuda() after __init__): anything else made
// without a device stays on the CPU (keq checks where a kernel or a torch op is given one). A
// pinned tensor is the CPU's but reachable from a kernel (tests/fixtures/gpu/cpu_tensors.txt):
// its device is left unknown, which nothing refuses.
void Torch::place_factories(Attrs& t) {
  for (const char* name : {"randn", "rand", "randint", "zeros", "ones", "empty", "full", "tensor",
                           "arange", "empty_strided", "linspace", "eye"}) {
    auto it = t.find(name);
    if (it == t.end()) continue;
    BuiltinFn make = it->second->builtin;
    it->second =
        python::builtin(std::string("torch.") + name, [this, make](Interp& i2, CallArgs& a) {
          a.get(SIZE_MAX, "generator");  // its draws are symbolic too (torch.Generator)
          Ref r = make(i2, a);
          made_requiring_grad(r, a.get(SIZE_MAX, "requires_grad"), a.at);
          Ref pinned = a.get(SIZE_MAX, "pin_memory"), device = a.get(SIZE_MAX, "device");
          bool cpu = !device || device->kind == K::None || names_cpu(device);  // the default: CPU
          if (r->kind == K::Tensor)  // pinned: on the CPU, but a kernel reaches it (unknown here)
            r->tensor->device = !cpu                                ? Tensor::Device::Gpu
                                : pinned && i2.truthy(pinned, a.at) ? Tensor::Device::Unknown
                                                                    : Tensor::Device::Cpu;
          return r;
        });
  }
  for (const char* name :
       {"randn_like", "rand_like", "zeros_like", "ones_like", "empty_like", "full_like"}) {
    auto it = t.find(name);
    if (it == t.end()) continue;
    BuiltinFn make = it->second->builtin;
    it->second =
        python::builtin(std::string("torch.") + name, [this, make](Interp& i2, CallArgs& a) {
          Ref r = make(i2, a);
          made_requiring_grad(r, a.get(SIZE_MAX, "requires_grad"), a.at);
          Ref device = a.get(SIZE_MAX, "device");  // None: the input's, as no device=
          if (r->kind == K::Tensor && a.pos.at(0)->kind == K::Tensor)
            r->tensor->device = !device || device->kind == K::None ? a.pos[0]->tensor->device
                                : names_cpu(device)                ? Tensor::Device::Cpu
                                                                   : Tensor::Device::Gpu;
          return r;
        });
  }
}

void Torch::install_creation(const Ref& torch) {
  auto& t = *torch->attrs;
  auto def = [&](const std::string& name, BuiltinFn fn) {
    t[name] = python::builtin("torch." + name, std::move(fn));
  };
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::I32,
                  DType::I64, DType::Bool, DType::I8, DType::U8})
    t[std::string(torch::dtype_name(d))] = torch::dtype_value(d);
  for (const char* name : {"int16", "float64", "float8_e4m3fnuz", "float8_e5m2fnuz", "complex64"})
    t[name] = torch::unmodelled_dtype_value(name);
  // Copies, not t[a] = t[b]: inserting a may rehash and leave b's reference dangling.
  for (auto [alias, name] :
       {std::pair{"float", "float32"}, std::pair{"half", "float16"}, std::pair{"int", "int32"},
        std::pair{"long", "int64"}, std::pair{"double", "float64"}, std::pair{"short", "int16"}}) {
    Ref v = t[name];
    t[alias] = v;
  }
  // torch's Python-number constants (torch.inf in a masked_fill).
  for (auto [name, value] : {std::pair{"inf", double(INFINITY)}, std::pair{"nan", double(NAN)},
                             std::pair{"pi", M_PI}, std::pair{"e", M_E}})
    t[name] = python::floating(value);
  t["newaxis"] = python::none();
  for (const char* name : {"randn", "rand"}) {
    std::string n = name;
    bool unit = n == "rand";  // rand: [0, 1); randn: any finite value
    def(n, [this, n, unit](Interp&, CallArgs& a) {
      return wrap(symbolic("torch." + n, sizes(a, 0), dtype_kw(a, DType::F32), a.at, false,
                           unit ? 0 : -INFINITY, unit ? 1 : INFINITY, unit));
    });
    def(n + "_like", [this, n](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      TensorPtr r = symbolic("torch." + n + "_like", x->shape, dtype_kw(a, x->dtype), a.at, false);
      copy_layout(r, *x);  // *_like keeps the input's strides (preserve_format)
      return wrap(r);
    });
  }
  def("randint", [this](Interp&, CallArgs& a) {
    // randint(high, size) or randint(low, high, size): integers in [low, high).
    size_t size_at = a.pos.size() >= 3 ? 2 : 1;
    Ref size = a.get(size_at, "size");
    if (!size) in.error(a.at, "randint needs a size");
    CallArgs sz;
    sz.pos = {size};
    sz.at = a.at;
    int64_t lo = a.pos.size() >= 3 ? in.to_int(a.pos[0], a.at) : 0;
    int64_t hi = in.to_int(a.pos.size() >= 3 ? a.pos[1] : a.pos.at(0), a.at);
    if (lo >= hi) in.error(a.at, "randint: low must be below high");
    return wrap(symbolic("torch.randint", sizes(sz, 0), dtype_kw(a, DType::I64), a.at, false,
                         static_cast<double>(lo), static_cast<double>(hi), true));
  });
  for (const char* name : {"zeros", "ones", "empty"}) {
    std::string n = name;
    std::optional<double> v = n == "zeros"  ? std::optional(0.0)
                              : n == "ones" ? std::optional(1.0)
                                            : std::nullopt;
    def(n, [this, v, n](Interp&, CallArgs& a) {
      std::vector<int64_t> shape = sizes(a, 0);
      in.check_shape(a.at, shape, "torch." + n);
      return wrap(filled(shape, dtype_kw(a, DType::F32), v));
    });
    def(n + "_like", [this, v](Interp&, CallArgs& a) {
      TensorPtr x = tensor_arg(a, 0, "input");
      TensorPtr r = filled(x->shape, dtype_kw(a, x->dtype), v);
      copy_layout(r, *x);  // *_like keeps the input's strides (preserve_format)
      return wrap(r);
    });
  }
  // empty_strided(size, stride): uninitialized storage as long as the layout reaches, seen
  // through as_strided at those strides.
  def("empty_strided", [this](Interp&, CallArgs& a) {
    Ref size_v = a.get(0, "size"), stride_v = a.get(1, "stride");
    if (!size_v || !stride_v) in.error(a.at, "empty_strided() missing size or stride");
    std::vector<int64_t> size, stride;
    for (const Ref& v : in.to_sequence(size_v, a.at)) size.push_back(in.to_int(v, a.at));
    for (const Ref& v : in.to_sequence(stride_v, a.at)) stride.push_back(in.to_int(v, a.at));
    if (size.size() != stride.size())
      in.error(a.at, "empty_strided: mismatch in length of strides and shape");
    int64_t span = 1;
    for (size_t d = 0; d < size.size(); ++d) {
      if (size[d] < 0 || stride[d] < 0) in.error(a.at, "empty_strided: negative size or stride");
      span = size[d] == 0 || span == 0 ? 0 : span + (size[d] - 1) * stride[d];
    }
    in.check_shape(a.at, {span}, "torch.empty_strided");
    CallArgs b;
    b.at = a.at;
    b.pos = {wrap(filled({span}, dtype_kw(a, DType::F32), std::nullopt)), size_v, stride_v,
             python::integer(0)};
    return ops.at("as_strided")(in, b);
  });
  // torch.Size(seq): a tuple of ints that also has numel().
  def("Size", [](Interp& in, CallArgs& a) {
    if (a.pos.size() > 1 || !a.kw.empty())
      in.raise(a.at, "TypeError: torch.Size() takes at most one positional argument");
    std::vector<Ref> dims = a.pos.empty() ? std::vector<Ref>{} : in.to_sequence(a.pos[0], a.at);
    for (const Ref& d : dims)
      if (d->kind != K::Int)
        in.raise(a.at, "TypeError: torch.Size() takes an iterable of 'int' (item of type '" +
                           d->type_name() + "')");
    Ref size = python::tuple(dims);
    size->b = true;
    return size;
  });
  def("get_default_dtype", [](Interp&, CallArgs&) { return dtype_value(DType::F32); });
  // Memory formats: the ops that take one read it (tensor_ops.h, laid_out); the others do not
  // read the keyword, which makes it UNSUPPORTED there. channels_last_3d is not modelled.
  for (const char* n : {"contiguous_format", "preserve_format", "channels_last"})
    t[n] = python::module_object(std::string("torch.") + n);
  install_type_info(torch);
  def("is_tensor", [](Interp&, CallArgs& a) {
    return python::boolean(!a.pos.empty() && a.pos[0]->kind == K::Tensor);
  });
  def("broadcast_to", [this](Interp&, CallArgs& a) {  // Tensor.broadcast_to (expand's view)
    CallArgs shape;
    shape.at = a.at;
    shape.pos = {a.get(1, "size")};
    if (!shape.pos[0]) in.error(a.at, "torch.broadcast_to(input, size)");
    return in.call(in.getattr(a.pos.at(0), "broadcast_to", a.at), shape);
  });
  def("broadcast_shapes", [this](Interp&, CallArgs& a) {  // a torch.Size
    size_t longest = 0;  // torch starts from 1s as long as the longest shape
    for (const Ref& s : a.pos)
      longest = std::max(longest, s->kind == K::Int ? 1 : in.to_sequence(s, a.at).size());
    std::vector<int64_t> shape(longest, 1);
    for (size_t i = 0; i < a.pos.size(); ++i) shape = broadcast_with(shape, a.pos[i], i, a.at);
    return size_value(shape);
  });
  def("broadcast_tensors", [this](Interp&, CallArgs& a) {  // expand's views, torch's message
    std::vector<int64_t> shape;
    for (const Ref& t : a.pos)
      shape = broadcast_shapes(in, shape, as_tensor(in, t, a.at)->shape, a.at);
    std::vector<Ref> views;
    for (const Ref& t : a.pos) {
      CallArgs to;
      to.at = a.at;
      to.pos = {size_value(shape)};
      views.push_back(in.call(in.getattr(t, "expand", a.at), to));
    }
    return python::tuple(views);
  });
  // torch.as_tensor: a tensor as it is (converted where dtype= says), other data as torch.tensor.
  def("as_tensor", [this, module = std::weak_ptr(torch)](Interp&, CallArgs& a) {
    Ref data = a.get(0, "data");
    if (!data) in.error(a.at, "torch.as_tensor(data, dtype=None, device=None)");
    if (data->kind != K::Tensor) return in.call((*module.lock()->attrs)["tensor"], a);
    Ref dtype = a.get(1, "dtype");
    if (!dtype || dtype->kind == K::None) return data;
    CallArgs to;
    to.at = a.at;
    to.pos = {dtype};
    return in.call(in.getattr(data, "to", a.at), to);
  });
  def("result_type", [this](Interp&, CallArgs& a) {
    Ref x = a.get(0, "tensor1"), y = a.get(1, "tensor2");
    if (!x || !y) in.error(a.at, "torch.result_type(tensor1, tensor2)");
    if ((x->kind == K::Tensor && x->tensor->shape.empty()) ||
        (y->kind == K::Tensor && y->tensor->shape.empty()))
      in.unsupported(a.at,
                     "torch.result_type of a 0-d tensor (which promotes as a lower category)");
    return dtype_value(promote(x, y, in, a.at));
  });
  def("promote_types", [this](Interp&, CallArgs& a) {
    Ref x = a.get(0, "type1"), y = a.get(1, "type2");
    if (!x || !y || x->kind != K::DType || y->kind != K::DType)
      in.error(a.at, "torch.promote_types(type1, type2) takes two dtypes");
    return dtype_value(
        promote(wrap(filled({1}, x->dtype, 0)), wrap(filled({1}, y->dtype, 0)), in, a.at));
  });
  for (const char* query : {"is_floating_point", "is_complex"})
    def(query, [this, query](Interp&, CallArgs& a) {
      return python::boolean(dtype_kind_is(dtype_value(tensor_arg(a, 0, "input")->dtype), query));
    });
  def("full", [this](Interp&, CallArgs& a) {
    Ref v = a.get(1, "fill_value");
    if (!v) in.error(a.at, "full needs a fill value");
    CallArgs sz;
    sz.pos = {a.pos.at(0)};
    sz.at = a.at;
    DType d = dtype_kw(a, v->kind == K::Float  ? DType::F32
                          : v->kind == K::Bool ? DType::Bool
                                               : DType::I64);
    std::vector<int64_t> shape = sizes(sz, 0);
    in.check_shape(a.at, shape, "torch.full");
    return wrap(filled(shape, d, in.to_float(v, a.at)));
  });
  def("full_like", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    Ref v = a.get(1, "fill_value");
    if (!v) in.error(a.at, "full_like needs a fill value");
    TensorPtr r = filled(x->shape, dtype_kw(a, x->dtype), in.to_float(v, a.at));
    copy_layout(r, *x);  // *_like keeps the input's strides (preserve_format)
    return wrap(r);
  });
  // The legacy typed constructors of older modules (KernelBook's `torch.FloatTensor((1.0,))`):
  // ints or a torch.Size are sizes, uninitialized as torch.empty; one sequence is data, as
  // torch.tensor with that dtype.
  const std::pair<const char*, DType> legacy[] = {
      {"FloatTensor", DType::F32}, {"HalfTensor", DType::F16}, {"BFloat16Tensor", DType::BF16},
      {"IntTensor", DType::I32},   {"LongTensor", DType::I64}, {"CharTensor", DType::I8},
      {"ByteTensor", DType::U8},   {"BoolTensor", DType::Bool}};
  for (const auto& entry : legacy)  // (not a structured binding: clang 14 cannot capture one)
    def(entry.first,
        [this, dtype = entry.second, module = std::weak_ptr(torch)](Interp&, CallArgs& a) {
          bool sizes = std::all_of(a.pos.begin(), a.pos.end(),
                                   [](const Ref& v) { return v->kind == K::Int; });
          bool size_tuple = a.pos.size() == 1 && a.pos[0]->kind == K::Tuple && a.pos[0]->b;
          if (!a.kw.empty() || (!sizes && !size_tuple && a.pos.size() != 1) ||
              (a.pos.size() == 1 && a.pos[0]->kind == K::Tensor))
            in.unsupported(a.at, "this form of the legacy constructor torch." +
                                     std::string(torch::dtype_name(dtype)) + " tensor");
          if (sizes || size_tuple) {
            std::vector<int64_t> shape;
            for (const Ref& d : size_tuple ? a.pos[0]->items : a.pos) shape.push_back(d->i);
            if (shape.empty()) shape.push_back(0);  // torch.FloatTensor() is empty, of 0 elements
            in.check_shape(a.at, shape, "the legacy constructor");
            return wrap(filled(shape, dtype, std::nullopt));
          }
          CallArgs data;
          data.at = a.at;
          data.pos = {a.pos[0]};
          data.kw = {{"dtype", dtype_value(dtype)}};
          return in.call((*module.lock()->attrs)["tensor"], data);
        });
  def("tensor", [this](Interp&, CallArgs& a) {  // concrete data: nested lists of numbers
    Ref data = a.get(0, "data");
    if (!data) in.error(a.at, "torch.tensor needs data");
    std::vector<int64_t> shape;
    std::vector<Ref> flat;
    bool any_float = false, all_bool = true;
    std::function<void(const Ref&, size_t)> walk = [&](const Ref& v, size_t depth) {
      if (v->kind == K::List || v->kind == K::Tuple) {
        if (depth == shape.size())
          shape.push_back(static_cast<int64_t>(v->items.size()));
        else if (shape[depth] != static_cast<int64_t>(v->items.size()))
          in.error(a.at, "torch.tensor: ragged nested lists");
        for (const Ref& x : v->items) walk(x, depth + 1);
        return;
      }
      if (v->kind == K::Tensor) in.unsupported(a.at, "torch.tensor of tensors");
      any_float = any_float || v->kind == K::Float;
      all_bool = all_bool && v->kind == K::Bool;
      flat.push_back(v);
    };
    walk(data, 0);
    DType d = dtype_kw(a, any_float                   ? DType::F32
                          : all_bool && !flat.empty() ? DType::Bool
                                                      : DType::I64);
    auto r = std::make_shared<Tensor>();
    r->shape = shape;
    r->dtype = d;
    for (const Ref& v : flat) r->elems.push_back(constant(s, d, in.to_float(v, a.at)));
    return wrap(r);
  });
  def("arange", [this](Interp&, CallArgs& a) {
    double lo = 0, hi, step = 1;
    bool any_float = false;
    for (const Ref& p : a.pos) any_float = any_float || p->kind == K::Float;
    if (a.pos.size() == 1)
      hi = in.to_float(a.pos[0], a.at);
    else
      lo = in.to_float(a.pos.at(0), a.at), hi = in.to_float(a.pos.at(1), a.at);
    if (a.pos.size() > 2) step = in.to_float(a.pos[2], a.at);
    if (step == 0 || !std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step))
      in.error(a.at, "RuntimeError: torch.arange needs a finite start, end and a nonzero step");
    double count = std::ceil((hi - lo) / step);
    in.check_count(a.at, count > 9e18 ? INT64_MAX : static_cast<int64_t>(std::max(count, 0.0)),
                   "torch.arange");
    DType d = dtype_kw(a, any_float ? DType::F32 : DType::I64);
    auto r = std::make_shared<Tensor>();
    r->dtype = d;
    for (double v = lo; step > 0 ? v < hi : v > hi; v += step)
      r->elems.push_back(constant(s, d, v));
    r->shape = {static_cast<int64_t>(r->elems.size())};
    return wrap(r);
  });
  for (bool lower : {true, false}) {
    define(lower ? "tril" : "triu", [this, lower](Interp&, CallArgs& a) -> Ref {
      TensorPtr x = tensor_arg(a, 0, "input");
      int64_t diag = int_arg(a, 1, "diagonal").value_or(0);
      if (x->shape.size() < 2) in.error(a.at, "tril/triu need a matrix");
      auto r = std::make_shared<Tensor>(*x);
      int64_t rows = x->shape[x->shape.size() - 2], cols = x->shape.back();
      TermId zero = constant(s, x->dtype, 0);
      for (int64_t k = 0; k < x->numel(); ++k) {
        int64_t i = (k / cols) % rows, j = k % cols;
        bool keep = lower ? j - i <= diag : j - i >= diag;
        if (!keep) r->elems[k] = zero;
      }
      return wrap(r);
    });
  }
  def("device", [this](Interp&, CallArgs& a) {
    if (!a.pos.empty() && a.pos[0]->kind == K::Device) return a.pos[0];
    auto dev = std::make_shared<Value>();
    dev->kind = K::Device;
    dev->s = a.pos.empty() ? "cuda" : a.pos[0]->kind == K::Str ? a.pos[0]->s : in.repr(a.pos[0]);
    return Ref(dev);
  });
  // KernelBench runs on a GPU: torch.cuda.is_available() is True in the modelled world.
  Ref cuda = module("torch.cuda");
  (*cuda->attrs)["is_available"] = python::builtin(
      "torch.cuda.is_available", [](Interp&, CallArgs&) { return python::boolean(true); });
  (*cuda->attrs)["synchronize"] =
      python::builtin("torch.cuda.synchronize", [](Interp&, CallArgs&) { return python::none(); });
  install_cuda_queries(st, cuda);
  install_host_environment(in, st, torch, cuda);
  install_autograd(in, st, torch);
  install_inductor(torch, cuda);
  t["cuda"] = cuda;
  for (auto& [name, fn] : ops) t[name] = python::builtin("torch." + name, fn);
  place_factories(t);
  // torch.Tensor, for isinstance.
  t["Tensor"] = in.make_class("Tensor", nullptr, std::make_shared<Attrs>());
}

}  // namespace keq::torch::impl
