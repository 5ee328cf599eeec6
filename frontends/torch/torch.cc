// The torch frontend: torch, torch.nn and torch.nn.functional as symbolic builtins over the term
// store. Each family of ops has its file (elementwise, reductions, shape, creation, modules,
// conv_pool_norm, activations, selection, linalg, losses); this one installs them and the hooks
// the interpreter calls for tensor operators, attributes and subscripts.
#include "frontends/torch/torch_impl.h"

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
  for (const char* n : {"cumsum", "cumprod", "cummax", "flip", "masked_fill", "diag", "diagonal",
                        "gather", "einsum", "glu"})
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
  in.hooks().unop = [t](Interp& i2, const std::string& op, const Ref& a, Span at) -> Ref {
    if (op == "-") {
      CallArgs c;
      c.at = at;
      c.pos = {a};
      return t->ops.at("neg")(i2, c);
    }
    if (op == "+") return a;
    i2.unsupported(at, "tensor operator " + op);
  };
  in.hooks().getattr = [t](Interp&, const Ref& v, const std::string& name, Span at) {
    return t->tensor_attr(v, name, at);
  };
  in.hooks().repr = [](const Ref& v) {
    std::string s = "Tensor(shape=[";
    for (size_t k = 0; k < v->tensor->shape.size(); ++k)
      s += (k ? ", " : "") + std::to_string(v->tensor->shape[k]);
    return s + "], dtype=" + std::string(dtype_name(v->tensor->dtype)) + ")";
  };
  in.hooks().subscript = [t](Interp&, const Ref& v, const Ref& index, Span at) {
    return t->subscript(v->tensor, index, at);
  };
}

}  // namespace keq::torch
