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

// torch.autograd.grad_mode, as torch 2.11 behaves: entering a context sets the mode and leaving
// restores what it was; each is a ContextDecorator, so `@torch.no_grad()` (and the bare
// `@torch.no_grad`) runs a function in the mode. set_grad_enabled(mode) sets it when called, as
// torch's does. The mode lives in TorchState.
constexpr const char* kGradMode = R"PY(
import functools
from torch.autograd._keq import (_set_grad_enabled, _set_inference_mode, is_grad_enabled,
                                 is_inference_mode_enabled)


class _DecoratorContext:
    def __call__(self, func):
        ctx = self

        def decorated(*args, **kwargs):
            with ctx._fresh():
                return func(*args, **kwargs)

        return functools.wraps(func)(decorated)


class _GradMode(_DecoratorContext):
    def __init__(self, enabled):
        self.enabled = enabled
        self.prev = None

    def _fresh(self):
        return _GradMode(self.enabled)

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(self.enabled)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)
        return False


def no_grad(orig_func=None):
    if orig_func is None:
        return _GradMode(False)
    return _GradMode(False)(orig_func)


def enable_grad(orig_func=None):
    if orig_func is None:
        return _GradMode(True)
    return _GradMode(True)(orig_func)


class set_grad_enabled(_DecoratorContext):
    def __init__(self, mode):
        self.prev = is_grad_enabled()
        self.mode = mode
        _set_grad_enabled(mode)

    def _fresh(self):
        return _GradMode(self.mode)

    def __call__(self, func):
        _set_grad_enabled(self.prev)
        return _DecoratorContext.__call__(self, func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)
        return False


class _InferenceMode(_DecoratorContext):
    def __init__(self, mode):
        self.mode = mode
        self.prev = None

    def _fresh(self):
        return _InferenceMode(self.mode)

    def __enter__(self):
        self.prev = (is_grad_enabled(), is_inference_mode_enabled())
        _set_inference_mode(self.mode)
        if self.mode:
            _set_grad_enabled(False)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev[0])
        _set_inference_mode(self.prev[1])
        return False


def inference_mode(mode=True):
    if not isinstance(mode, bool):
        return _InferenceMode(True)(mode)
    return _InferenceMode(mode)
)PY";

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

// Sets grad mode for its lifetime, as torch runs an autograd.Function's forward.
class GradModeScope {
 public:
  GradModeScope(TorchState& st, bool enabled) : st_(st), prev_(st.grad_enabled) {
    st.set_grad_enabled(enabled);
  }
  ~GradModeScope() { st_.set_grad_enabled(prev_); }

 private:
  TorchState& st_;
  bool prev_;
};

void install_grad_mode(Interp& in, TorchState& st, const Ref& torch_module) {
  Ref keq = python::module_object("torch.autograd._keq");
  auto& k = *keq->attrs;
  k["_set_grad_enabled"] =
      python::builtin("torch._C._set_grad_enabled", [&st](Interp& i2, CallArgs& a) {
        st.set_grad_enabled(i2.truthy(a.get(0, "mode"), a.at));
        return python::none();
      });
  k["is_grad_enabled"] = python::builtin("torch.is_grad_enabled", [&st](Interp&, CallArgs&) {
    if (!st.grad_enabled && st.harness_no_grad)
      st.host_assumptions.insert(
          "torch.is_grad_enabled() is False: KernelBench runs get_inputs(), builds both models "
          "and runs forward under torch.no_grad()");
    return python::boolean(st.grad_enabled);
  });
  k["_set_inference_mode"] =
      python::builtin("torch.autograd._set_inference_mode", [&st](Interp& i2, CallArgs& a) {
        st.inference_mode = i2.truthy(a.get(0, "mode"), a.at);
        return python::none();
      });
  k["is_inference_mode_enabled"] =
      python::builtin("torch.is_inference_mode_enabled",
                      [&st](Interp&, CallArgs&) { return python::boolean(st.inference_mode); });
  in.register_module("torch.autograd._keq", keq);
  in.register_model_source("torch.autograd.grad_mode", kGradMode);
  for (const char* name : {"is_grad_enabled", "is_inference_mode_enabled"})
    (*torch_module->attrs)[name] = k[name];
  for (const char* name : {"no_grad", "enable_grad", "set_grad_enabled", "inference_mode"}) {
    in.register_model_attribute("torch", name, "torch.autograd.grad_mode");
    in.register_model_attribute("torch.autograd", name, "torch.autograd.grad_mode");
  }
}

}  // namespace

void install_autograd(Interp& in, TorchState& st, const Ref& torch_module) {
  auto fn_attrs = std::make_shared<Attrs>();
  // torch runs forward in no-grad mode (what it computes is recorded by apply, not in forward).
  // A Function that defines setup_context (torch 2's style) has a forward without ctx:
  // setup_context(ctx, inputs, output) is called after it.
  Ref apply = python::builtin("torch.autograd.Function.apply", [&st](Interp& i2, CallArgs& a) {
    Ref cls = a.pos.at(0);  // bound as a classmethod (Interp::getattr)
    Ref forward = i2.getattr(cls, "forward", a.at);
    Ref setup = i2.getattr(cls, "setup_context", a.at);
    bool separate = setup->kind != K::Builtin;  // the program's own, not Function's
    Ref ctx = make_ctx(i2, a.pos.size() - 1);
    CallArgs call;
    call.at = a.at;
    if (!separate) call.pos.push_back(ctx);
    call.pos.insert(call.pos.end(), a.pos.begin() + 1, a.pos.end());
    call.kw = a.kw;
    GradModeScope no_grad(st, false);
    Ref output = i2.call(forward, call);
    if (separate) {
      if (!a.kw.empty()) i2.unsupported(a.at, "Function.apply with keywords and setup_context");
      CallArgs setup_call;
      setup_call.at = a.at;
      setup_call.pos = {ctx, python::tuple({a.pos.begin() + 1, a.pos.end()}), output};
      i2.call(setup, setup_call);
    }
    return output;
  });
  apply->b = true;  // a classmethod
  (*fn_attrs)["apply"] = apply;
  (*fn_attrs)["setup_context"] = inert("Function.setup_context");
  Ref function = in.make_class("Function", nullptr, fn_attrs);
  Ref autograd = python::module_object("torch.autograd");
  (*autograd->attrs)["Function"] = function;
  auto function_module = std::make_shared<python::Value>(*autograd);
  function_module->s = "torch.autograd.function";
  function_module->attrs = std::make_shared<Attrs>(*autograd->attrs);
  // @once_differentiable wraps a backward, which keq reads but never runs.
  (*function_module->attrs)["once_differentiable"] =
      python::builtin("torch.autograd.function.once_differentiable", [](Interp& i2, CallArgs& a) {
        if (a.pos.size() != 1) i2.error(a.at, "once_differentiable decorates one function");
        return a.pos[0];
      });
  (*autograd->attrs)["function"] = function_module;
  (*torch_module->attrs)["autograd"] = autograd;
  in.register_module("torch.autograd", autograd);
  in.register_module("torch.autograd.function", function_module);
  install_grad_mode(in, st, torch_module);
}

}  // namespace keq::torch
