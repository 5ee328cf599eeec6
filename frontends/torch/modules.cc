// torch.nn: Module, parameters and buffers, the layers, and ModuleList.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

// eval() and train(mode) set `training` on a module and every submodule, as torch does.
void set_training(Interp& in, const Ref& v, bool mode, Span at, int depth) {
  if (depth > 64) return;
  if (v->kind == Value::Kind::Instance && v->attrs && v->attrs->contains("training")) {
    in.setattr(v, "training", python::boolean(mode), at);
    for (auto& [k, child] : *v->attrs)
      if (k != "training") set_training(in, child, mode, at, depth + 1);
  } else if (v->kind == Value::Kind::List || v->kind == Value::Kind::Tuple) {
    for (const Ref& x : v->items) set_training(in, x, mode, at, depth + 1);
  }
}

namespace {

// A module's registered members as torch's named_modules and named_parameters list them:
// modules pre-order from `m`, each once; parameters each once, a module's own (attributes holding
// an nn.Parameter, in assignment order) before its children's. A registered container
// (ModuleList, ParameterList, ModuleDict, ParameterDict) is a module whose members are its items,
// named by index or key; a plain list or dict attribute registers nothing, as in torch.
struct ModuleMembers {
  std::vector<std::pair<std::string, Ref>> modules, parameters;
  absl::flat_hash_set<const void*> seen;
};

// A buffer computed from weights as the model is built: some element a term over parameters'
// variables, not a parameter's variable itself.
bool computed_from_parameters(const ir::TermStore& s, const Tensor& t) {
  std::vector<TermId> computed;
  for (TermId e : t.elems)
    if (e != Tensor::kUninit && s.op(e) != ir::Op::Var) computed.push_back(e);
  return reaches_parameter(s, computed);
}

bool is_module(const Ref& v) {
  return v->kind == Value::Kind::Instance && v->attrs && v->attrs->contains("training");
}
bool is_container(const Ref& v) {
  return (v->kind == Value::Kind::List || v->kind == Value::Kind::Dict) && v->b &&
         !python::is_iterator(v);
}

void collect_members(Interp& in, const Ref& m, const std::string& prefix, bool recurse,
                     ModuleMembers& out, int depth = 0) {
  if (depth > 64 || !out.seen.insert(m.get()).second) return;
  out.modules.push_back({prefix, m});
  std::vector<std::pair<std::string, Ref>> members;
  if (m->kind == Value::Kind::Instance) {
    for (const std::string& name : m->attr_order) {
      auto it = m->attrs->find(name);
      if (it == m->attrs->end()) continue;
      if (name == "_modules_list" && it->second->kind == Value::Kind::List) {  // nn.Sequential's
        for (size_t k = 0; k < it->second->items.size(); ++k)
          members.push_back({std::to_string(k), it->second->items[k]});
        continue;
      }
      members.push_back(*it);
    }
  } else if (m->kind == Value::Kind::List) {
    for (size_t k = 0; k < m->items.size(); ++k)
      members.push_back({std::to_string(k), m->items[k]});
  } else {
    for (const auto& [key, v] : m->dict) members.push_back({in.repr(key), v});
  }
  auto named = [&](const std::string& n) { return prefix.empty() ? n : prefix + "." + n; };
  bool holds_parameters = m->kind != Value::Kind::Instance;  // ParameterList's tensors are
  for (const auto& [name, v] : members)
    if (v->kind == Value::Kind::Tensor && (v->b || holds_parameters) &&
        out.seen.insert(v->tensor.get()).second)
      out.parameters.push_back({named(name), v});
  if (!recurse && depth > 0) return;
  for (const auto& [name, v] : members)
    if (is_module(v) || is_container(v)) {
      if (!recurse) {  // children only
        if (out.seen.insert(v.get()).second) out.modules.push_back({named(name), v});
        continue;
      }
      collect_members(in, v, named(name), recurse, out, depth + 1);
    }
}

}  // namespace

void Torch::install_nn(const Ref& nn, const Ref& F) {
  auto& fa = *F->attrs;
  for (const char* name :
       {"relu", "relu6", "gelu", "sigmoid", "tanh", "silu", "softmax", "log_softmax", "leaky_relu",
        "softplus", "elu", "selu", "hardtanh", "hardsigmoid", "hardswish", "mish", "softsign"})
    fa[name] = python::builtin(std::string("F.") + name, ops.at(name));
  fa["linear"] = python::builtin("F.linear", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input"), w = tensor_arg(a, 1, "weight");
    Ref y = matmul(x, permuted(w, {1, 0}), a.at);
    Ref b = a.get(2, "bias");
    return b && b->kind != K::None ? binary("+", y, b, a.at) : y;
  });
  fa["layer_norm"] = python::builtin("F.layer_norm", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "input");
    CallArgs sz;
    sz.pos = {a.get(1, "normalized_shape")};
    sz.at = a.at;
    Ref w = a.get(2, "weight"), b = a.get(3, "bias");
    return wrap(layer_norm(x, sizes(sz, 0), w && w->kind == K::Tensor ? w->tensor : nullptr,
                           b && b->kind == K::Tensor ? b->tensor : nullptr,
                           float_arg(a, 4, "eps", 1e-5), a.at));
  });
  fa["dropout"] = python::builtin("F.dropout", [this](Interp&, CallArgs& a) -> Ref {
    double p = float_arg(a, 1, "p", 0.5);
    bool training = bool_arg(a, 2, "training", true);
    if (p != 0 && training) in.unsupported(a.at, "dropout with p > 0 in training mode is random");
    return a.pos.at(0);
  });

  // nn.Module and the layers. A layer is a class whose __init__ and forward are builtins.
  auto& na = *nn->attrs;
  auto module_attrs = std::make_shared<Attrs>();
  (*module_attrs)["__init__"] = python::builtin("Module.__init__", [](Interp& i2, CallArgs& a) {
    i2.setattr(a.pos.at(0), "training", python::boolean(true), a.at);
    return python::none();
  });
  (*module_attrs)["__call__"] = python::builtin("Module.__call__", [](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    a.pos.erase(a.pos.begin());
    return i2.call(i2.getattr(self, "forward", a.at), a);
  });
  // cuda(), and to(device, dtype, tensor=...): a CPU device moves nothing; a dtype, or a
  // tensor's, converts the floating-point parameters and buffers.
  for (const char* gpu : {"cuda", "to"})
    (*module_attrs)[gpu] =
        python::builtin(std::string("Module.") + gpu, [this, gpu](Interp& i2, CallArgs& a) {
          bool to_cpu = false;
          Ref dtype = gpu == std::string("to") ? a.get(SIZE_MAX, "dtype") : nullptr;
          for (size_t k = 1; k < a.pos.size(); ++k) {
            to_cpu |= names_cpu(a.pos[k]);
            if (gpu != std::string("to")) continue;
            if (a.pos[k]->kind == K::DType) dtype = a.pos[k];
            if (a.pos[k]->kind == K::Tensor) dtype = dtype_value(a.pos[k]->tensor->dtype);
          }
          if (Ref d = a.get(SIZE_MAX, "device")) to_cpu |= names_cpu(d);
          if (!to_cpu) move_module_to_gpu(i2, a.pos.at(0));
          if (dtype && dtype->kind != K::None) convert_module(i2, a.pos.at(0), dtype, a.at);
          return a.pos.at(0);
        });
  for (auto [method, dtype] : {std::pair{"half", DType::F16}, std::pair{"bfloat16", DType::BF16},
                               std::pair{"float", DType::F32}})
    (*module_attrs)[method] = python::builtin(
        std::string("Module.") + method, [this, d = dtype](Interp& i2, CallArgs& a) {
          convert_module(i2, a.pos.at(0), dtype_value(d), a.at);
          return a.pos.at(0);
        });
  (*module_attrs)["double"] = python::builtin("Module.double", [](Interp& i2, CallArgs& a) {
    i2.unsupported(a.at, "Module.double(): float64 tensors are not modelled");
    return python::none();
  });
  for (const char* same : {"cpu", "requires_grad_"})
    (*module_attrs)[same] = python::builtin(std::string("Module.") + same,
                                            [](Interp&, CallArgs& a) { return a.pos.at(0); });
  (*module_attrs)["eval"] = python::builtin("Module.eval", [](Interp& i2, CallArgs& a) {
    set_training(i2, a.pos.at(0), false, a.at, 0);
    return a.pos.at(0);
  });
  (*module_attrs)["train"] = python::builtin("Module.train", [](Interp& i2, CallArgs& a) {
    Ref mode = a.get(1, "mode");
    set_training(i2, a.pos.at(0), !mode || i2.truthy(mode, a.at), a.at, 0);
    return a.pos.at(0);
  });
  install_module_members(*module_attrs);
  // register_buffer(name, tensor) and register_parameter(name, param) are attribute stores.
  for (const char* reg : {"register_buffer", "register_parameter"})
    (*module_attrs)[reg] =
        python::builtin(std::string("Module.") + reg, [this, reg](Interp& i2, CallArgs& a) {
          Ref name = a.get(1, "name"),
              value = a.get(2, reg == std::string("register_buffer") ? "tensor" : "param");
          if (!name || name->kind != K::Str) i2.error(a.at, std::string(reg) + " needs a name");
          if (reg == std::string("register_buffer") && value && value->kind == K::Tensor) {
            st.buffers.insert(value->tensor.get());
            if (computed_from_parameters(s, *value->tensor))
              st.host_assumptions.insert(
                  "the buffer `" + name->s + "` (" + i2.where(a.at) +
                  ") is computed from parameters as the model is built: it keeps the values they "
                  "start with, which KernelBench's seeding makes the reference's (weights loaded "
                  "later would leave it stale)");
          }
          i2.setattr(a.pos.at(0), name->s, value ? value : python::none(), a.at);
          return python::none();
        });
  Ref module_cls = in.make_class("Module", nullptr, module_attrs);
  na["Module"] = module_cls;
  install_init(nn);
  na["Parameter"] = python::builtin("nn.Parameter", [this](Interp&, CallArgs& a) {
    TensorPtr x = tensor_arg(a, 0, "data");
    // Made inside forward, it holds the data it is made from on every call: nothing trains it.
    if (st.phase == TorchState::Phase::Forward) return parameter_value(x);
    const auto last = static_cast<int64_t>(st.parameters.size()) - 1;
    // nn.Parameter(randn(...)), or of a view of it in another shape (randn(c, 1, 1).squeeze()):
    // the same values, which the seeded draw gives both models.
    if (x == st.last_symbolic_parameter ||
        (st.last_symbolic_parameter && x->elems == st.last_symbolic_parameter->elems)) {
      st.parameter_objects.push_back({last, x.get()});
      return parameter_value(x);
    }
    bool deterministic = std::all_of(x->elems.begin(), x->elems.end(), [&](TermId e) {
      return e != Tensor::kUninit && s.op(e) == Op::Const;
    });
    // Trained weights can be anything: the initial values are not the parameter's.
    TensorPtr p = deterministic ? initialized_parameter("nn.Parameter", x, a.at)
                                : symbolic("nn.Parameter", x->shape, x->dtype, a.at, true);
    if (p == x) {
      st.parameter_objects.push_back({-1, x.get()});
      return parameter_value(x);
    }
    p->device = x->device;  // where its data was
    st.parameter_objects.push_back({last + 1, p.get()});
    return parameter_value(p);
  });
  auto layer = [&](const std::string& name, BuiltinFn init, BuiltinFn forward) {
    auto attrs = std::make_shared<Attrs>();
    (*attrs)["__init__"] = python::builtin(name + ".__init__", [init](Interp& i2, CallArgs& a) {
      i2.setattr(a.pos.at(0), "training", python::boolean(true), a.at);
      return init(i2, a);
    });
    take_factory_kwargs(name, *attrs);
    (*attrs)["forward"] = python::builtin(name + ".forward", std::move(forward));
    na[name] = in.make_class(name, module_cls, attrs);
  };
  // A module weight; `initial` is its deterministic initial value (1 or 0), if it has one.
  auto param = [this](Interp& i2, const Ref& self, const std::string& attr,
                      const std::string& origin, std::vector<int64_t> shape, Span at,
                      std::optional<double> initial = std::nullopt) {
    TensorPtr t = initial
                      ? initialized_parameter(origin, filled(shape, parameter_dtype, *initial), at)
                      : symbolic(origin, shape, parameter_dtype, at, true);
    i2.setattr(self, attr, layer_parameter(t), at);
  };
  auto x_of = [this](CallArgs& a) { return tensor_arg(a, 1, "input"); };
  layer(
      "Linear",
      [this, param](Interp& i2, CallArgs& a) {
        int64_t fin = i2.to_int(a.get(1, "in_features"), a.at),
                fout = i2.to_int(a.get(2, "out_features"), a.at);
        i2.setattr(a.pos[0], "in_features", python::integer(fin), a.at);
        i2.setattr(a.pos[0], "out_features", python::integer(fout), a.at);
        param(i2, a.pos[0], "weight", "nn.Linear.weight", {fout, fin}, a.at);
        if (bool_arg(a, 3, "bias", true))
          param(i2, a.pos[0], "bias", "nn.Linear.bias", {fout}, a.at);
        else
          i2.setattr(a.pos[0], "bias", python::none(), a.at);
        return python::none();
      },
      [this, x_of](Interp& i2, CallArgs& a) {
        Ref self = a.pos.at(0);
        Ref y = matmul(x_of(a), permuted(i2.getattr(self, "weight", a.at)->tensor, {1, 0}), a.at);
        Ref b = i2.getattr(self, "bias", a.at);
        return b->kind == K::None ? y : binary("+", y, b, a.at);
      });
  auto norm_init = [this, param](const std::string& origin, bool has_bias_default) {
    return [this, param, origin, has_bias_default](Interp& i2, CallArgs& a) {
      Ref shape_v = a.get(1, "normalized_shape");
      CallArgs sz;
      sz.pos = {shape_v};
      sz.at = a.at;
      std::vector<int64_t> shape = sizes(sz, 0);
      Ref self = a.pos[0];
      // torch keeps a tuple of ints, whatever was passed (LayerNorm(64).normalized_shape).
      std::vector<Ref> dims;
      for (int64_t d : shape) dims.push_back(python::integer(d));
      i2.setattr(self, "normalized_shape", python::tuple(dims), a.at);
      // As torch stores it: LayerNorm's eps defaults to 1e-5, RMSNorm's to None.
      Ref eps = a.get(2, "eps");
      bool layer_norm = origin == "nn.LayerNorm";
      i2.setattr(self, "eps",
                 eps          ? eps
                 : layer_norm ? python::floating(1e-5)
                              : python::none(),
                 a.at);
      bool affine = bool_arg(a, 3, "elementwise_affine", true);
      i2.setattr(self, "elementwise_affine", python::boolean(affine), a.at);
      if (affine)
        param(i2, self, "weight", origin + ".weight", shape, a.at, 1.0);
      else
        i2.setattr(self, "weight", python::none(), a.at);
      if (affine && has_bias_default && bool_arg(a, 4, "bias", true))
        param(i2, self, "bias", origin + ".bias", shape, a.at, 0.0);
      else
        i2.setattr(self, "bias", python::none(), a.at);
      return python::none();
    };
  };
  layer("LayerNorm", norm_init("nn.LayerNorm", true), [this, x_of](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    CallArgs sz;
    sz.pos = {i2.getattr(self, "normalized_shape", a.at)};
    sz.at = a.at;
    Ref w = i2.getattr(self, "weight", a.at), b = i2.getattr(self, "bias", a.at),
        eps = i2.getattr(self, "eps", a.at);
    return wrap(layer_norm(x_of(a), sizes(sz, 0), w->kind == K::Tensor ? w->tensor : nullptr,
                           b->kind == K::Tensor ? b->tensor : nullptr,
                           eps->kind == K::None ? 1e-5 : i2.to_float(eps, a.at), a.at));
  });
  layer("RMSNorm", norm_init("nn.RMSNorm", false), [this, x_of](Interp& i2, CallArgs& a) {
    Ref self = a.pos.at(0);
    TensorPtr x = x_of(a);
    CallArgs sz;
    sz.pos = {i2.getattr(self, "normalized_shape", a.at)};
    sz.at = a.at;
    std::vector<int64_t> shape = sizes(sz, 0);
    if (shape.size() > x->shape.size() ||
        !std::equal(shape.begin(), shape.end(), x->shape.end() - static_cast<long>(shape.size())))
      in.raise(a.at,
               "RuntimeError: RMSNorm: normalized_shape does not match the input's last "
               "dimensions");
    int64_t len = 1;
    for (int64_t d : shape) len *= d;
    Ref w = i2.getattr(self, "weight", a.at), epsv = i2.getattr(self, "eps", a.at);
    // eps=None: torch uses the dtype's machine epsilon (fp32: 2^-23).
    double eps = epsv->kind == K::None ? std::ldexp(1.0, -23) : i2.to_float(epsv, a.at);
    auto r = std::make_shared<Tensor>(*x);
    for (int64_t off = 0; off < x->numel(); off += len) {
      std::vector<TermId> sq;
      for (int64_t k = 0; k < len; ++k)
        sq.push_back(mk(Op::Mul, {x->elems[off + k], x->elems[off + k]}));
      TermId rstd =
          mk(Op::Rsqrt, {mk(Op::Add, {mk(Op::Div, {sum_of(sq), fconst(static_cast<double>(len))}),
                                      fconst(static_cast<float>(eps))})});
      for (int64_t k = 0; k < len; ++k) {
        TermId y = mk(Op::Mul, {x->elems[off + k], rstd});
        if (w->kind == K::Tensor) y = mk(Op::Mul, {y, w->tensor->elems[k]});
        r->elems[off + k] = round_to(s, x->dtype, y);
      }
    }
    return wrap(r);
  });
  // Stateless layers forward to the functional op with their constructor's arguments, which
  // they keep as attributes, torch's defaults included (None: not passed on).
  using Param = std::pair<std::string, Ref>;
  auto functional_layer = [&](const std::string& name, const std::string& op,
                              std::vector<Param> params) {
    layer(
        name,
        [params](Interp& i2, CallArgs& a) {
          for (size_t k = 0; k < params.size(); ++k) {
            Ref v = a.get(k + 1, params[k].first);
            i2.setattr(a.pos[0], params[k].first, v ? v : params[k].second, a.at);
          }
          return python::none();
        },
        [this, name, op, params](Interp& i2, CallArgs& a) {
          Ref self = a.pos.at(0);
          CallArgs c;
          c.at = a.at;
          c.pos = {a.pos.at(1)};
          bool in_place = false;
          for (const auto& p : params) {
            Ref v = i2.getattr(self, p.first, a.at);
            if (p.first == "inplace")
              in_place = i2.truthy(v, a.at);
            else if (v->kind != K::None)
              c.kw.push_back({p.first, v});
          }
          if (!in_place) return ops.at(op)(i2, c);
          // inplace=True writes the result into the input (and every view of it).
          Ref method =
              a.pos.at(1)->kind == K::Tensor ? in_place_method(a.pos.at(1), op + "_") : nullptr;
          if (!method) i2.unsupported(a.at, "nn." + name + "(inplace=True) on this input");
          c.pos.clear();
          return i2.call(method, c);
        });
  };
  auto f = [](double v) { return python::floating(v); };
  auto i = [](int64_t v) { return python::integer(v); };
  Ref none = python::none(), no = python::boolean(false);
  Param inplace{"inplace", no};
  functional_layer("ReLU", "relu", {inplace});
  functional_layer("ReLU6", "relu6", {inplace});
  functional_layer("GELU", "gelu", {{"approximate", python::string("none")}});
  functional_layer("Sigmoid", "sigmoid", {});
  functional_layer("Tanh", "tanh", {});
  functional_layer("SiLU", "silu", {inplace});
  functional_layer("Mish", "mish", {inplace});
  functional_layer("Softsign", "softsign", {});
  functional_layer("Hardsigmoid", "hardsigmoid", {inplace});
  functional_layer("Hardswish", "hardswish", {inplace});
  functional_layer("Softmax", "softmax", {{"dim", none}});
  functional_layer("LogSoftmax", "log_softmax", {{"dim", none}});
  functional_layer("LeakyReLU", "leaky_relu", {{"negative_slope", f(0.01)}, inplace});
  functional_layer("ELU", "elu", {{"alpha", f(1.0)}, inplace});
  functional_layer("SELU", "selu", {inplace});
  functional_layer("Hardtanh", "hardtanh", {{"min_val", f(-1.0)}, {"max_val", f(1.0)}, inplace});
  functional_layer("Softplus", "softplus", {{"beta", f(1.0)}, {"threshold", f(20.0)}});
  functional_layer("Flatten", "flatten", {{"start_dim", i(1)}, {"end_dim", i(-1)}});
  functional_layer("LogSigmoid", "logsigmoid", {});
  functional_layer("Hardshrink", "hardshrink", {{"lambd", f(0.5)}});
  functional_layer("Softshrink", "softshrink", {{"lambd", f(0.5)}});
  functional_layer("CELU", "celu", {{"alpha", f(1.0)}, inplace});
  functional_layer("GLU", "glu", {{"dim", i(-1)}});
  functional_layer("PixelShuffle", "pixel_shuffle", {{"upscale_factor", none}});
  functional_layer("ChannelShuffle", "channel_shuffle", {{"groups", none}});
  functional_layer("LocalResponseNorm", "local_response_norm",
                   {{"size", none}, {"alpha", f(1e-4)}, {"beta", f(0.75)}, {"k", f(1.0)}});
  functional_layer("PixelUnshuffle", "pixel_unshuffle", {{"downscale_factor", none}});
  functional_layer("Upsample", "interpolate",
                   {{"size", none},
                    {"scale_factor", none},
                    {"mode", python::string("nearest")},
                    {"align_corners", none},
                    {"recompute_scale_factor", none}});
  functional_layer("UpsamplingBilinear2d", "interpolate",
                   {{"size", none},
                    {"scale_factor", none},
                    {"mode", python::string("bilinear")},
                    {"align_corners", python::boolean(true)}});
  functional_layer("UpsamplingNearest2d", "interpolate", {{"size", none}, {"scale_factor", none}});
  functional_layer("Tanhshrink", "tanhshrink", {});
  functional_layer("Softmin", "softmin", {{"dim", none}});
  functional_layer("Threshold", "threshold", {{"threshold", none}, {"value", none}, inplace});
  layer(
      "Unflatten",
      [](Interp& i2, CallArgs& a) {
        i2.setattr(a.pos[0], "dim", a.get(1, "dim"), a.at);
        i2.setattr(a.pos[0], "unflattened_size", a.get(2, "unflattened_size"), a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) {
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), i2.getattr(a.pos[0], "dim", a.at),
                 i2.getattr(a.pos[0], "unflattened_size", a.at)};
        return ops.at("unflatten")(i2, c);
      });
  // Embedding(num_embeddings, embedding_dim, padding_idx=None, max_norm=None, ...): a weight
  // (trained: symbolic) whose rows the input's indices pick.
  layer(
      "Embedding",
      [this, param](Interp& i2, CallArgs& a) {
        int64_t n = i2.to_int(a.get(1, "num_embeddings"), a.at),
                d = i2.to_int(a.get(2, "embedding_dim"), a.at);
        if (Ref m = a.get(4, "max_norm"); m && m->kind != K::None)
          i2.unsupported(a.at, "nn.Embedding with max_norm (it renormalizes the weight in place)");
        if (Ref w = a.get(8, "_weight"); w && w->kind != K::None)
          i2.unsupported(a.at, "nn.Embedding with _weight");
        i2.setattr(a.pos[0], "num_embeddings", python::integer(n), a.at);
        i2.setattr(a.pos[0], "embedding_dim", python::integer(d), a.at);
        Ref pad = a.get(3, "padding_idx");
        i2.setattr(a.pos[0], "padding_idx", pad ? pad : python::none(), a.at);
        param(i2, a.pos[0], "weight", "nn.Embedding.weight", {n, d}, a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) {
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), i2.getattr(a.pos.at(0), "weight", a.at)};
        return ops.at("embedding")(i2, c);
      });
  // MultiheadAttention(embed_dim, num_heads, dropout=0, bias=True, ..., batch_first=False): its
  // parameters as torch creates them (in_proj_weight [3E, E], in_proj_bias [3E], then the
  // out_proj Linear), and forward as F.multi_head_attention_forward computes it.
  layer(
      "MultiheadAttention",
      [this, param, &na](Interp& i2, CallArgs& a) {
        Ref self = a.pos[0];
        int64_t e = i2.to_int(a.get(1, "embed_dim"), a.at),
                h = i2.to_int(a.get(2, "num_heads"), a.at);
        if (h <= 0 || e % h)
          i2.raise(a.at, "AssertionError: embed_dim must be divisible by num_heads");
        bool bias = bool_arg(a, 4, "bias", true);
        for (auto [pos, name] : {std::pair<size_t, const char*>{5, "add_bias_kv"},
                                 std::pair<size_t, const char*>{6, "add_zero_attn"}})
          if (Ref v = a.get(pos, name); v && i2.truthy(v, a.at))
            i2.unsupported(a.at, std::string("nn.MultiheadAttention with ") + name + "=True");
        for (auto [pos, name] :
             {std::pair<size_t, const char*>{7, "kdim"}, std::pair<size_t, const char*>{8, "vdim"}})
          if (Ref v = a.get(pos, name); v && v->kind != K::None && i2.to_int(v, a.at) != e)
            i2.unsupported(
                a.at, std::string("nn.MultiheadAttention with ") + name + " other than embed_dim");
        i2.setattr(self, "embed_dim", python::integer(e), a.at);
        i2.setattr(self, "num_heads", python::integer(h), a.at);
        i2.setattr(self, "head_dim", python::integer(e / h), a.at);
        Ref dropout = a.get(3, "dropout");
        i2.setattr(self, "dropout", dropout ? dropout : python::floating(0.0), a.at);
        Ref batch_first = a.get(9, "batch_first");
        i2.setattr(self, "batch_first", batch_first ? batch_first : python::boolean(false), a.at);
        param(i2, self, "in_proj_weight", "nn.MultiheadAttention.in_proj_weight", {3 * e, e}, a.at);
        if (bias)
          param(i2, self, "in_proj_bias", "nn.MultiheadAttention.in_proj_bias", {3 * e}, a.at);
        else
          i2.setattr(self, "in_proj_bias", python::none(), a.at);
        CallArgs lin;
        lin.at = a.at;
        lin.pos = {python::integer(e), python::integer(e)};
        lin.kw = {{"bias", python::boolean(bias)}};
        i2.setattr(self, "out_proj", i2.call(na.at("Linear"), lin), a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) { return multihead_attention(i2, a); });
  for (const char* kind : {"RNN", "LSTM", "GRU"}) {
    std::string k = kind;
    layer(
        k,
        [this, param, k](Interp& i2, CallArgs& a) {
          recurrent_init(i2, a, k, param);
          return python::none();
        },
        [this, k](Interp& i2, CallArgs& a) { return recurrent_forward(i2, a, k); });
  }
  // RReLU(lower=1/8, upper=1/3): random slopes in training (UNSUPPORTED); in eval, leaky_relu
  // with the mean slope (lower + upper) / 2.
  layer(
      "RReLU",
      [](Interp& i2, CallArgs& a) {
        Ref lo = a.get(1, "lower"), hi = a.get(2, "upper");
        i2.setattr(a.pos[0], "lower", lo ? lo : python::floating(1.0 / 8), a.at);
        i2.setattr(a.pos[0], "upper", hi ? hi : python::floating(1.0 / 3), a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) {
        Ref self = a.pos.at(0);
        if (i2.truthy(i2.getattr(self, "training", a.at), a.at))
          i2.unsupported(a.at, "nn.RReLU in training mode draws random slopes");
        double slope = (i2.to_float(i2.getattr(self, "lower", a.at), a.at) +
                        i2.to_float(i2.getattr(self, "upper", a.at), a.at)) /
                       2;
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), python::floating(slope)};
        return ops.at("leaky_relu")(i2, c);
      });
  // Bilinear(in1, in2, out, bias=True): y_k = x1^T W_k x2 + b_k, weight [out, in1, in2].
  layer(
      "Bilinear",
      [this, param](Interp& i2, CallArgs& a) {
        int64_t n1 = i2.to_int(a.get(1, "in1_features"), a.at),
                n2 = i2.to_int(a.get(2, "in2_features"), a.at),
                out = i2.to_int(a.get(3, "out_features"), a.at);
        param(i2, a.pos[0], "weight", "nn.Bilinear.weight", {out, n1, n2}, a.at);
        if (bool_arg(a, 4, "bias", true))
          param(i2, a.pos[0], "bias", "nn.Bilinear.bias", {out}, a.at);
        else
          i2.setattr(a.pos[0], "bias", python::none(), a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) {
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), a.pos.at(2), i2.getattr(a.pos[0], "weight", a.at),
                 i2.getattr(a.pos[0], "bias", a.at)};
        return ops.at("bilinear")(i2, c);
      });
  // Softmax2d: a softmax over the channels of a (C, H, W) or (N, C, H, W) input.
  layer(
      "Softmax2d", [](Interp&, CallArgs&) { return python::none(); },
      [this](Interp& i2, CallArgs& a) {
        TensorPtr x = tensor_arg(a, 1, "input");
        if (x->shape.size() != 3 && x->shape.size() != 4)
          i2.raise(a.at, "ValueError: Softmax2d: expected input of 3 or 4 dimensions");
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), python::integer(-3)};
        return ops.at("softmax")(i2, c);
      });
  // PReLU(num_parameters=1, init=0.25): x where x >= 0, else weight * x, the weight per channel
  // (dimension 1) or one for all; the weight is a parameter (trained: symbolic).
  layer(
      "PReLU",
      [this](Interp& i2, CallArgs& a) {
        int64_t n = a.get(1, "num_parameters") ? i2.to_int(a.get(1, "num_parameters"), a.at) : 1;
        double init = float_arg(a, 2, "init", 0.25);
        i2.setattr(a.pos[0], "num_parameters", python::integer(n), a.at);
        Ref w = layer_parameter(
            initialized_parameter("nn.PReLU.weight", filled({n}, DType::F32, init), a.at));
        i2.setattr(a.pos[0], "weight", w, a.at);
        return python::none();
      },
      [this](Interp& i2, CallArgs& a) {
        CallArgs c;
        c.at = a.at;
        c.pos = {a.pos.at(1), i2.getattr(a.pos.at(0), "weight", a.at)};
        return ops.at("prelu")(i2, c);
      });
  for (const char* name :
       {"Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"}) {
    std::string n = name;
    layer(
        n,
        [](Interp& i2, CallArgs& a) {
          i2.setattr(a.pos[0], "p", a.get(1, "p") ? a.get(1, "p") : python::floating(0.5), a.at);
          return python::none();
        },
        [n](Interp& i2, CallArgs& a) -> Ref {
          Ref self = a.pos.at(0);
          if (i2.to_float(i2.getattr(self, "p", a.at), a.at) != 0 &&
              i2.truthy(i2.getattr(self, "training", a.at), a.at))
            i2.unsupported(a.at, "nn." + n + " with p > 0 in training mode is random");
          return a.pos.at(1);
        });
  }
  layer(
      "Identity", [](Interp&, CallArgs&) { return python::none(); },
      [](Interp&, CallArgs& a) { return a.pos.at(1); });
  layer(
      "Dropout",
      [](Interp& i2, CallArgs& a) {
        i2.setattr(a.pos[0], "p", a.get(1, "p") ? a.get(1, "p") : python::floating(0.5), a.at);
        return python::none();
      },
      [](Interp& i2, CallArgs& a) -> Ref {
        Ref self = a.pos.at(0);
        if (i2.to_float(i2.getattr(self, "p", a.at), a.at) != 0 &&
            i2.truthy(i2.getattr(self, "training", a.at), a.at))
          i2.unsupported(a.at, "nn.Dropout with p > 0 in training mode is random");
        return a.pos.at(1);
      });
  layer(
      "Sequential",
      [](Interp& i2, CallArgs& a) {
        std::vector<Ref> mods(a.pos.begin() + 1, a.pos.end());
        i2.setattr(a.pos[0], "_modules_list", python::list(mods), a.at);
        return python::none();
      },
      [](Interp& i2, CallArgs& a) {
        Ref x = a.pos.at(1);
        for (const Ref& m : i2.getattr(a.pos[0], "_modules_list", a.at)->items) {
          CallArgs c;
          c.at = a.at;
          c.pos = {x};
          x = i2.call(m, c);
        }
        return x;
      });
  // len(seq), seq[i] (seq[-1]), and iteration over it (by those two, CPython's sequence
  // protocol): a Sequential's modules in order. A slice (another Sequential) is not modelled.
  auto modules_of = [](Interp& i2, CallArgs& a) {
    return i2.getattr(a.pos.at(0), "_modules_list", a.at)->items;
  };
  Attrs& sequential = *na["Sequential"]->attrs;
  sequential["__len__"] =
      python::builtin("nn.Sequential.__len__", [modules_of](Interp& i2, CallArgs& a) {
        return python::integer(static_cast<int64_t>(modules_of(i2, a).size()));
      });
  sequential["__getitem__"] =
      python::builtin("nn.Sequential.__getitem__", [modules_of](Interp& i2, CallArgs& a) {
        std::vector<Ref> mods = modules_of(i2, a);
        Ref index = a.pos.at(1);
        if (index->kind != K::Int)
          i2.unsupported(a.at, "nn.Sequential indexed by " + index->type_name());
        int64_t n = static_cast<int64_t>(mods.size()), k = index->i < 0 ? index->i + n : index->i;
        if (k < 0 || k >= n)
          i2.raise(a.at, "IndexError: index " + std::to_string(index->i) + " is out of range");
        return mods[static_cast<size_t>(k)];
      });
  // nn.ModuleList: a list of modules (iteration, indexing, len, append are the list's).
  na["ModuleList"] = python::builtin("nn.ModuleList", [](Interp& i2, CallArgs& a) {
    Ref mods = a.get(0, "modules");
    Ref l = python::list(mods && mods->kind != K::None ? i2.to_sequence(mods, a.at)
                                                       : std::vector<Ref>{});
    l->b = true;  // registered: Module.parameters() looks inside
    return l;
  });
  // nn.ModuleDict / nn.ParameterDict: a dict of modules or parameters (indexing, `in`, len,
  // keys/values/items and assignment are the dict's); nn.ParameterList: a list of parameters.
  for (const char* name : {"ModuleDict", "ParameterDict"})
    na[name] = python::builtin(std::string("nn.") + name, [name](Interp& i2, CallArgs& a) {
      auto d = std::make_shared<python::Value>();
      d->kind = K::Dict;
      Ref from = a.get(0, name == std::string("ModuleDict") ? "modules" : "parameters");
      if (from && from->kind == K::Dict) {
        d->dict = from->dict;
      } else if (from && from->kind != K::None) {
        for (const Ref& kv : i2.to_sequence(from, a.at)) {
          std::vector<Ref> pair = i2.to_sequence(kv, a.at);
          if (pair.size() != 2)
            i2.error(a.at, std::string("nn.") + name + " takes (key, value) pairs");
          d->dict.push_back({pair[0], pair[1]});
        }
      }
      d->b = true;
      return Ref(d);
    });
  na["ParameterList"] = python::builtin("nn.ParameterList", [](Interp& i2, CallArgs& a) {
    Ref ps = a.get(0, "values");
    Ref l = python::list(ps && ps->kind != K::None ? i2.to_sequence(ps, a.at) : std::vector<Ref>{});
    l->b = true;
    return l;
  });
  install_conv_pool_norm(nn, F, module_cls);
  install_more(nn, F, module_cls);
  // Padding layers: F.pad in the layer's mode; an int pads both sides of each of its dimensions.
  Ref pad = (*F->attrs).at("pad");
  for (auto [mode, prefix] :
       std::vector<std::pair<std::string, std::string>>{{"reflect", "ReflectionPad"},
                                                        {"replicate", "ReplicationPad"},
                                                        {"circular", "CircularPad"},
                                                        {"constant", "ZeroPad"},
                                                        {"constant", "ConstantPad"}})
    for (int dims = 1; dims <= 3; ++dims) {
      std::string name = prefix + std::to_string(dims) + "d", m = mode;
      bool has_value = prefix == "ConstantPad";
      layer(
          name,
          [dims, has_value, name](Interp& i2, CallArgs& a) {
            Ref p = a.get(1, "padding");
            if (!p) i2.error(a.at, "nn." + name + " needs padding");
            if (p->kind == K::Int) p = python::tuple(std::vector<Ref>(2 * dims, p));
            i2.setattr(a.pos.at(0), "padding", p, a.at);
            Ref v = has_value ? a.get(2, "value") : nullptr;
            if (has_value && !v) i2.error(a.at, "nn." + name + " needs value");
            i2.setattr(a.pos.at(0), "value", v ? v : python::floating(0.0), a.at);
            return python::none();
          },
          [pad, m](Interp& i2, CallArgs& a) {
            CallArgs c;
            c.at = a.at;
            c.pos = {a.pos.at(1), i2.getattr(a.pos.at(0), "padding", a.at), python::string(m)};
            if (m == "constant") c.pos.push_back(i2.getattr(a.pos.at(0), "value", a.at));
            return i2.call(pad, c);
          });
    }
}

// torch.nn.init: initializers act in place on a tensor. A parameter (symbolic: trained weights
// can be anything) keeps its variables, unless --params initial asks for deterministic initial
// values (zeros_, ones_, constant_); a plain tensor takes deterministic values always, and
// random ones (normal_, uniform_, kaiming_*, xavier_*, ...) become symbolic like torch.randn.
void Torch::install_init(const Ref& nn) {
  auto init = module("torch.nn.init");
  auto is_symbolic = [this](const TensorPtr& t) {
    return !t->elems.empty() && t->elems[0] != Tensor::kUninit && s.op(t->elems[0]) == Op::Var;
  };
  // eye_: the identity matrix (torch raises for other than 2 dimensions).
  for (const char* name : {"zeros_", "ones_", "constant_", "eye_"}) {
    std::string n = name;
    (*init->attrs)[n] = python::builtin("nn.init." + n, [this, n, is_symbolic](Interp&,
                                                                               CallArgs& a) {
      TensorPtr t = tensor_arg(a, 0, "tensor");
      if (n == "eye_" && t->shape.size() != 2)
        in.raise(a.at, "ValueError: Only tensors with 2 dimensions are supported");
      bump_version(t);  // in place in torch, whatever value keq leaves symbolic
      if (is_symbolic(t) && !st.params_initial && !holds_initial(*t)) return a.pos[0];
      double v = n == "zeros_" ? 0 : n == "ones_" || n == "eye_" ? 1 : float_arg(a, 1, "val", 0);
      if (n == "constant_" && !a.get(1, "val")) in.error(a.at, "nn.init.constant_ needs val");
      for (size_t k = 0; k < t->elems.size(); ++k) {  // a strided view's own elements only
        bool off_diagonal = n == "eye_" && static_cast<int64_t>(k) / t->shape[1] !=
                                               static_cast<int64_t>(k) % t->shape[1];
        t->write(t->storage_position(static_cast<int64_t>(k)),
                 constant(s, t->dtype, off_diagonal ? 0 : v));
      }
      return a.pos[0];
    });
  }
  for (const char* name : {"normal_", "uniform_", "kaiming_uniform_", "kaiming_normal_",
                           "xavier_uniform_", "xavier_normal_", "trunc_normal_", "orthogonal_"}) {
    std::string n = name;
    (*init->attrs)[n] =
        python::builtin("nn.init." + n, [this, n, is_symbolic](Interp&, CallArgs& a) {
          TensorPtr t = tensor_arg(a, 0, "tensor");
          if (!is_symbolic(t))
            randomize(t, "nn.init." + n, a.at);  // bumps _version
          else
            bump_version(t);
          return a.pos[0];
        });
  }
  // nn.Linear's own reset_parameters, which LLM-written modules copy: fan_in is size(1) times
  // the receptive field (the product of the sizes past the second), fan_out size(0) times it.
  (*init->attrs)["_calculate_fan_in_and_fan_out"] =
      python::builtin("nn.init._calculate_fan_in_and_fan_out", [this](Interp&, CallArgs& a) {
        TensorPtr t = tensor_arg(a, 0, "tensor");
        if (t->shape.size() < 2)
          in.raise(
              a.at,
              "ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 "
              "dimensions");
        int64_t field = 1;
        for (size_t d = 2; d < t->shape.size(); ++d) field *= t->shape[d];
        return python::tuple(
            {python::integer(t->shape[1] * field), python::integer(t->shape[0] * field)});
      });
  // The gain torch's initializers recommend for a nonlinearity (torch/nn/init.py's table).
  (*init->attrs)["calculate_gain"] =
      python::builtin("nn.init.calculate_gain", [this](Interp&, CallArgs& a) {
        Ref which = a.get(0, "nonlinearity");
        if (!which || which->kind != K::Str) in.unsupported(a.at, "calculate_gain of a non-string");
        const std::string& n = which->s;
        for (const char* one : {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                                "conv_transpose2d", "conv_transpose3d", "sigmoid"})
          if (n == one) return python::integer(1);
        if (n == "tanh") return python::floating(5.0 / 3);
        if (n == "relu") return python::floating(std::sqrt(2.0));
        if (n == "selu") return python::floating(3.0 / 4);
        if (n != "leaky_relu") in.raise(a.at, "ValueError: Unsupported nonlinearity " + n);
        Ref param = a.get(1, "param");
        double slope = 0.01;
        if (param && param->kind != K::None) {
          if (param->kind != K::Int && param->kind != K::Float && param->kind != K::Bool)
            in.raise(a.at, "ValueError: negative_slope " + in.repr(param) + " not a valid number");
          slope = in.to_float(param, a.at);
        }
        return python::floating(std::sqrt(2.0 / (1 + slope * slope)));
      });
  (*nn->attrs)["init"] = init;
  in.register_module("torch.nn.init", init);
  install_module_utils(nn);
}

void Torch::move_module_to_gpu(Interp& i2, const Ref& m) {
  ModuleMembers members;
  collect_members(i2, m, "", true, members);
  for (auto& [name, p] : members.parameters) p->tensor->device = Tensor::Device::Gpu;
  for (auto& [name, mod] : members.modules)
    if (mod->kind == K::Instance)
      for (auto& [attr, v] : *mod->attrs)
        if (v->kind == K::Tensor && st.buffers.contains(v->tensor.get()))
          v->tensor->device = Tensor::Device::Gpu;
}

void Torch::take_factory_kwargs(const std::string& cls, Attrs& attrs) {
  auto init = attrs.find("__init__");
  if (init == attrs.end()) return;
  Ref built_in = init->second;
  init->second = python::builtin(cls + ".__init__", [this, built_in](Interp& i2, CallArgs& a) {
    Ref dtype = a.get(SIZE_MAX, "dtype");  // (device= is left alone: KernelBench's .cuda())
    const bool typed = dtype && dtype->kind == K::DType;
    const DType outer = parameter_dtype;
    if (typed) parameter_dtype = dtype->dtype;
    Ref r;
    try {
      r = i2.call(built_in, a);
    } catch (...) {
      parameter_dtype = outer;
      throw;
    }
    parameter_dtype = outer;
    // parameters the layer made another way (a submodule's) follow, as .to(dtype) converts them
    if (typed) convert_module(i2, a.pos.at(0), dtype, a.at);
    return r;
  });
}

// As torch's Module._apply: each floating-point parameter and buffer takes its values
// converted (param.data = param.data.to(dtype)), so the Parameter objects stay the same ones.
void Torch::convert_module(Interp& i2, const Ref& m, const Ref& dtype, Span at) {
  if (dtype->kind != K::DType) in.error(at, "Module.to(dtype): a dtype is needed");
  ModuleMembers members;
  collect_members(i2, m, "", true, members);
  std::vector<Ref> tensors;
  for (auto& [name, p] : members.parameters) tensors.push_back(p);
  for (auto& [name, mod] : members.modules)
    if (mod->kind == K::Instance)
      for (auto& [attr, v] : *mod->attrs)
        if (v->kind == K::Tensor && st.buffers.contains(v->tensor.get())) tensors.push_back(v);
  for (const Ref& t : tensors) {
    if (!is_float(t->tensor->dtype)) continue;
    CallArgs c;
    c.at = at;
    c.pos = {dtype};
    bool buffer = st.buffers.contains(t->tensor.get());
    set_tensor_attr(t, "data", i2.call(i2.getattr(t, "to", at), c), at);
    if (buffer) st.buffers.insert(t->tensor.get());
  }
}

// parameters(), named_parameters(), children(), named_children(), modules(), named_modules():
// iterators, as torch's generators, over collect_members' lists.
void Torch::install_module_members(Attrs& module_attrs) {
  auto members = [](Interp& i2, CallArgs& a, bool recurse) {
    ModuleMembers m;
    Ref prefix = a.get(SIZE_MAX, "prefix");
    collect_members(i2, a.pos.at(0), prefix ? i2.repr(prefix) : "", recurse, m);
    return m;
  };
  auto listed = [](const std::vector<std::pair<std::string, Ref>>& items, bool with_names,
                   size_t skip) {
    std::vector<Ref> out;
    for (size_t k = skip; k < items.size(); ++k)
      out.push_back(with_names ? python::tuple({python::string(items[k].first), items[k].second})
                               : items[k].second);
    return python::iterator(std::move(out));
  };
  for (bool with_names : {false, true}) {
    std::string p = with_names ? "named_" : "";
    module_attrs[p + "parameters"] = python::builtin(
        "Module." + p + "parameters", [members, listed, with_names](Interp& i2, CallArgs& a) {
          Ref recurse = a.get(with_names ? 2 : 1, "recurse");
          bool deep = !recurse || i2.truthy(recurse, a.at);
          return listed(members(i2, a, deep).parameters, with_names, 0);
        });
    module_attrs[p + "modules"] = python::builtin(
        "Module." + p + "modules", [members, listed, with_names](Interp& i2, CallArgs& a) {
          return listed(members(i2, a, true).modules, with_names, 0);
        });
    module_attrs[p + "children"] = python::builtin(
        "Module." + p + "children", [members, listed, with_names](Interp& i2, CallArgs& a) {
          return listed(members(i2, a, false).modules, with_names, 1);  // past the module itself
        });
  }
  // state_dict(): a dict of each module's parameters, then its buffers, then its children's,
  // under their dotted names (torch's _save_to_state_dict order); the tensors themselves, as
  // torch's detached ones share their storage (KernelAgent's UNet reads its weights from it).
  module_attrs["state_dict"] =
      python::builtin("Module.state_dict", [this](Interp& i2, CallArgs& a) {
        ModuleMembers m;
        collect_members(i2, a.pos.at(0), "", true, m);
        auto out = std::make_shared<python::Value>();
        out->kind = K::Dict;
        for (const auto& entry : m.modules) {       // no structured binding: clang 14 (the fuzz
          const std::string& prefix = entry.first;  // build) refuses one captured in a lambda
          const Ref& mod = entry.second;
          auto named = [&](const std::string& n) { return prefix.empty() ? n : prefix + "." + n; };
          if (mod->kind != K::Instance) {  // ParameterList, ParameterDict: their tensors
            for (size_t k = 0; mod->kind == K::List && k < mod->items.size(); ++k)
              if (mod->items[k]->kind == K::Tensor)
                out->dict.push_back({python::string(named(std::to_string(k))), mod->items[k]});
            for (const auto& [key, v] : mod->kind == K::Dict ? mod->dict : decltype(mod->dict){})
              if (v->kind == K::Tensor)
                out->dict.push_back({python::string(named(i2.repr(key))), v});
            continue;
          }
          for (bool buffers : {false, true})
            for (const std::string& name : mod->attr_order) {
              auto it = mod->attrs->find(name);
              if (it == mod->attrs->end() || it->second->kind != K::Tensor) continue;
              bool is_buffer = st.buffers.contains(it->second->tensor.get());
              if (buffers ? is_buffer : it->second->b && !is_buffer)
                out->dict.push_back({python::string(named(name)), it->second});
            }
        }
        return Ref(out);
      });
}

// torch.nn.modules.utils: _single, _pair, _triple, _quadruple and _ntuple(n), which module
// code (Liger's among it) imports to normalise conv arguments. An iterable becomes a tuple of
// its items; anything else is repeated n times.
void Torch::install_module_utils(const Ref& nn) {
  Ref modules = module("torch.nn.modules"), utils = module("torch.nn.modules.utils");
  auto ntuple = [](int64_t n, const std::string& name) {
    return python::builtin("torch.nn.modules.utils." + name, [n](Interp& i2, CallArgs& a) {
      Ref x = a.pos.at(0);
      if (x->kind == K::Tuple || x->kind == K::List) return python::tuple(i2.to_sequence(x, a.at));
      return python::tuple(std::vector<Ref>(static_cast<size_t>(n), x));
    });
  };
  auto& u = *utils->attrs;
  u["_single"] = ntuple(1, "_single");
  u["_pair"] = ntuple(2, "_pair");
  u["_triple"] = ntuple(3, "_triple");
  u["_quadruple"] = ntuple(4, "_quadruple");
  u["_ntuple"] =
      python::builtin("torch.nn.modules.utils._ntuple", [ntuple](Interp& i2, CallArgs& a) {
        int64_t n = i2.to_int(a.pos.at(0), a.at);
        return ntuple(n, "_ntuple(" + std::to_string(n) + ")");
      });
  (*modules->attrs)["utils"] = utils;
  (*nn->attrs)["modules"] = modules;
  in.register_module("torch.nn.modules", modules);
  in.register_module("torch.nn.modules.utils", utils);
}

}  // namespace keq::torch::impl
