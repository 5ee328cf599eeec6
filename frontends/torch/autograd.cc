#include "frontends/torch/autograd.h"

#include <memory>
#include <string>

namespace keq::torch {
namespace {
using python::CallArgs;
using python::Interp;
using python::Ref;
using K = python::Value::Kind;
using Attrs = absl::flat_hash_map<std::string, Ref>;

Ref inert(const std::string& name) {
  return python::builtin(name, [](Interp&, CallArgs&) { return python::none(); });
}

// The ctx forward receives: save_for_backward keeps its tensors as ctx.saved_tensors; the marks
// that only matter to backward do nothing; attributes set on it stay on it.
Ref make_ctx(Interp& in, size_t inputs) {
  auto cls_attrs = std::make_shared<Attrs>();
  for (const char* n : {"mark_non_differentiable", "mark_dirty", "set_materialize_grads"})
    (*cls_attrs)[n] = inert(std::string("FunctionCtx.") + n);
  Ref cls = in.make_class("FunctionCtx", nullptr, cls_attrs);
  auto ctx = std::make_shared<python::Value>();
  ctx->kind = K::Instance;
  ctx->cls = cls;
  ctx->attrs = std::make_shared<Attrs>();
  std::vector<Ref> no_grad(inputs, python::boolean(false));
  (*ctx->attrs)["needs_input_grad"] = python::tuple(no_grad);
  (*ctx->attrs)["saved_tensors"] = python::tuple({});
  std::weak_ptr<python::Value> self = ctx;
  (*ctx->attrs)["save_for_backward"] =
      python::builtin("FunctionCtx.save_for_backward", [self](Interp&, CallArgs& a) {
        if (auto c = self.lock()) (*c->attrs)["saved_tensors"] = python::tuple(a.pos);
        return python::none();
      });
  return ctx;
}

}  // namespace

void install_autograd(Interp& in, const Ref& torch_module) {
  auto fn_attrs = std::make_shared<Attrs>();
  Ref apply = python::builtin("torch.autograd.Function.apply", [](Interp& i2, CallArgs& a) {
    Ref cls = a.pos.at(0);  // bound as a classmethod (Interp::getattr)
    Ref forward = i2.getattr(cls, "forward", a.at);
    CallArgs call;
    call.at = a.at;
    call.pos.push_back(make_ctx(i2, a.pos.size() - 1));
    call.pos.insert(call.pos.end(), a.pos.begin() + 1, a.pos.end());
    call.kw = a.kw;
    return i2.call(forward, call);
  });
  apply->b = true;  // a classmethod
  (*fn_attrs)["apply"] = apply;
  Ref function = in.make_class("Function", nullptr, fn_attrs);
  Ref autograd = python::module_object("torch.autograd");
  (*autograd->attrs)["Function"] = function;
  auto function_module = std::make_shared<python::Value>(*autograd);
  function_module->s = "torch.autograd.function";
  function_module->attrs = std::make_shared<Attrs>(*autograd->attrs);
  (*autograd->attrs)["function"] = function_module;
  (*torch_module->attrs)["autograd"] = autograd;
  in.register_module("torch.autograd", autograd);
  in.register_module("torch.autograd.function", function_module);
}

}  // namespace keq::torch
