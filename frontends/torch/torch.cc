// The torch frontend: torch, torch.nn and torch.nn.functional as symbolic builtins over the term
// store. Each family of ops has its file (elementwise, reductions, shape, creation, modules,
// conv_pool_norm, activations, selection, linalg, losses); this one installs them and the hooks
// the interpreter calls for tensor operators, attributes and subscripts.
#include <limits>

#include "frontends/torch/torch_impl.h"
#include "ir/enclosure.h"

namespace keq::torch {

namespace impl {

void Torch::install_ops() {
  install_elementwise();
  install_reductions();
  install_views();
}

void Torch::install_more(const Ref& nn, const Ref& F, Ref module_cls) {
  install_activations(F);
  install_scans_and_selection();
  install_linalg(F);
  install_losses(nn, F, module_cls);
  install_adaptive_pooling(nn, F, module_cls);
  install_resampling(F);
  install_rearrangements(F);
  expose(F, "embedding");
  expose(F, "one_hot");
  for (const char* n : {"cumsum", "cumprod", "cummax", "flip", "masked_fill", "diag", "diagonal",
                        "gather", "index_select", "einsum", "glu", "sort", "roll", "outer", "ger",
                        "pixel_shuffle", "pixel_unshuffle", "logcumsumexp", "cdist"})
    (*in.module_value("torch", {}).get()->attrs)[n] =
        python::builtin(std::string("torch.") + n, ops.at(n));
}

}  // namespace impl

using namespace impl;

void install(python::Interp& in, TorchState& state) {
  auto t = std::make_shared<Torch>(Torch{in, state, in.store(), {}, {}});
  t->install_ops();
  Ref torch = t->module("torch"), nn = t->module("torch.nn"), F = t->module("torch.nn.functional");
  t->install_creation(torch);
  in.register_module("torch", torch);  // install_nn's late ops add themselves to it
  t->install_nn(nn, F);
  (*torch->attrs)["nn"] = nn;
  (*nn->attrs)["functional"] = F;
  in.register_module("torch", torch);
  in.register_module("torch.nn", nn);
  in.register_module("torch.nn.functional", F);
  install_einops(in);
  install_library(in);
  t->install_transformer();
  // Triton: decorators keep the function until the Triton frontend (frontends/triton/) installs
  // its own, which launch kernels.
  Ref triton = t->module("triton"), tl = t->module("triton.language");
  auto pass_through =
      python::builtin("triton.jit", [](Interp&, CallArgs& a) { return a.pos.at(0); });
  (*triton->attrs)["jit"] = pass_through;
  for (const char* deco : {"autotune", "heuristics"})
    (*triton->attrs)[deco] = python::builtin(
        std::string("triton.") + deco, [pass_through](Interp&, CallArgs&) { return pass_through; });
  (*triton->attrs)["Config"] =
      python::builtin("triton.Config", [](Interp&, CallArgs&) { return python::none(); });
  (*triton->attrs)["cdiv"] = python::builtin("triton.cdiv", [](Interp& i2, CallArgs& a) {
    int64_t x = i2.to_int(a.pos.at(0), a.at), y = i2.to_int(a.pos.at(1), a.at);
    return python::integer((x + y - 1) / y);
  });
  (*triton->attrs)["next_power_of_2"] =
      python::builtin("triton.next_power_of_2", [](Interp& i2, CallArgs& a) {
        int64_t x = i2.to_int(a.pos.at(0), a.at), p = 1;
        while (p < x) p <<= 1;
        return python::integer(p);
      });
  (*triton->attrs)["language"] = tl;
  (*tl->attrs)["constexpr"] = python::builtin("tl.constexpr", python::triton_constexpr);
  in.register_module("triton", triton);
  in.register_module("triton.language", tl);
  // The hooks own the Torch object.
  in.hooks().binop = [t](Interp&, const std::string& op, const Ref& a, const Ref& b, Span at) {
    return t->binary(op, a, b, at);
  };
  in.hooks().augassign = [t](Interp&, const std::string& op, const Ref& x, const Ref& v, Span at) {
    return t->augmented(op, x, v, at);
  };
  in.hooks().unop = [t](Interp& i2, const std::string& op, const Ref& a, Span at) -> Ref {
    if (op == "-") {
      CallArgs c;
      c.at = at;
      c.pos = {a};
      return t->ops.at("neg")(i2, c);
    }
    if (op == "+") return a;
    if (op == "~" && a->kind == K::Tensor && a->tensor->dtype == DType::Bool) {  // ~mask
      CallArgs c;
      c.at = at;
      c.pos = {a};
      return t->ops.at("logical_not")(i2, c);
    }
    i2.unsupported(
        at, "tensor operator " + op + (op == "~" ? " on a non-bool tensor (bitwise not)" : ""));
  };
  in.hooks().getattr = [t](Interp&, const Ref& v, const std::string& name, Span at) {
    return t->tensor_attr(v, name, at);
  };
  in.hooks().setattr = [t](Interp&, const Ref& v, const std::string& name, const Ref& value,
                           Span at) { t->set_tensor_attr(v, name, value, at); };
  in.hooks().repr = [](const Ref& v) {
    std::string s = "Tensor(shape=[";
    for (size_t k = 0; k < v->tensor->shape.size(); ++k)
      s += (k ? ", " : "") + std::to_string(v->tensor->shape[k]);
    return s + "], dtype=" + std::string(dtype_name(v->tensor->dtype)) + ")";
  };
  in.hooks().subscript = [t](Interp&, const Ref& v, const Ref& index, Span at) {
    return t->subscript(v->tensor, index, at);
  };
  in.hooks().setitem = [t](Interp&, const Ref& v, const Ref& index, const Ref& value, Span at) {
    t->setitem(v->tensor, index, value, at);
  };
  in.hooks().item = [t](Interp&, const Ref& v, Span at) { return t->item(v->tensor, at); };
  in.hooks().host_scalar = [t](Interp&, const Ref& v, Span at) {
    return t->host_scalar(v->tensor, at);
  };
  in.hooks().truth = [t](Interp& i2, const Ref& v, Span at) -> int {
    const char* why = "control flow on a tensor's value (data-dependent branching)";
    return i2.truthy(t->host_scalar(v->tensor, at, why), at) ? 1 : 0;
  };
}

namespace {
ir::Enclosure enclosure_over_inputs(const TorchState& st, const ir::TermStore& s, ir::TermId e) {
  auto range = [&](const ir::Variable& v) -> std::optional<ir::Enclosure> {
    std::string tensor = v.name.substr(0, v.name.find('['));
    for (const SymbolicTensor& in : st.inputs) {
      if (in.name != tensor) continue;
      ir::Enclosure r = ir::Enclosure::any(v.type);
      if (v.type == ir::Type::F32) {
        r.lo = ir::Real(in.lo);
        r.hi = ir::Real(in.hi);
        r.nan = !std::isfinite(in.lo) || !std::isfinite(in.hi);
      } else if (v.type != ir::Type::Bool && std::isfinite(in.lo) && std::isfinite(in.hi)) {
        r.ilo = static_cast<int64_t>(std::ceil(in.lo));
        r.ihi = static_cast<int64_t>(in.hi_open ? std::ceil(in.hi) - 1 : std::floor(in.hi));
      }
      return r;
    }
    return ir::Enclosure::any(v.type);
  };
  return ir::evaluate_enclosure_over(s, e, range);
}
}  // namespace

std::optional<std::pair<int64_t, int64_t>> int_range_over_inputs(const TorchState& st,
                                                                 const ir::TermStore& s,
                                                                 ir::TermId e) {
  if (s.type(e) == ir::Type::F32 || s.type(e) == ir::Type::Bool) return std::nullopt;
  ir::Enclosure r = enclosure_over_inputs(st, s, e);
  // An integer enclosure with no finite bounds spans its whole type.
  if (r.ilo <= std::numeric_limits<int32_t>::min() || r.ihi >= std::numeric_limits<int32_t>::max())
    return std::nullopt;
  return std::pair{r.ilo, r.ihi};
}

std::optional<ir::RealValue> value_over_inputs(const TorchState& st, const ir::TermStore& s,
                                               ir::TermId e) {
  ir::Enclosure r = enclosure_over_inputs(st, s, e);
  if (!r.is_point()) return std::nullopt;
  ir::RealValue v;
  v.type = r.type;
  if (r.type != ir::Type::F32) {
    v.i = r.ilo;
    return v;
  }
  if (r.nan || !r.real) return std::nullopt;  // a NaN that some input makes is not one value
  v.f = r.lo;
  return v;
}

Ref Torch::item(const TensorPtr& x, Span at) {
  if (x->numel() != 1 || !is_float(x->dtype) || x->elems[0] == Tensor::kUninit ||
      value_over_inputs(st, s, x->elems[0]))
    return host_scalar(x, at);
  auto v = std::make_shared<python::Value>();
  v->kind = python::Value::Kind::InputDependentFloat;
  v->s = "the .item() or float() at " + in.where(at);
  v->tensor = std::make_shared<Tensor>();
  v->tensor->dtype = x->dtype;
  v->tensor->elems = {x->elems[0]};
  return v;
}

Ref Torch::host_scalar(const TensorPtr& x, Span at, const char* unsupported) {
  if (x->numel() != 1)
    in.error(at, "a Python number from a tensor of " + std::to_string(x->numel()) +
                     " elements (only one-element tensors convert)");
  TermId e = x->elems[0];
  if (e == Tensor::kUninit) in.unsupported(at, "the value of an uninitialized tensor element");
  std::optional<ir::RealValue> r = value_over_inputs(st, s, e);
  std::optional<double> f = r && r->type == ir::Type::F32 ? r->f.exact_double() : std::nullopt;
  if (!r || (r->type == ir::Type::F32 && !f)) in.unsupported(at, unsupported);
  Ref v = r->type == ir::Type::Bool  ? python::boolean(r->i != 0)
          : r->type == ir::Type::F32 ? python::floating(*f)
                                     : python::integer(r->i);
  st.host_assumptions.insert("host value: " + in.where(at) + " is " + in.repr(v) +
                             " for every input in the get_inputs() domains");
  return v;
}

}  // namespace keq::torch
