// torch.library's custom operators as keq models them, in Python: custom_op and triton_op
// wrap a Python implementation that a call runs eagerly, as torch's dispatcher does on a CUDA
// tensor (a kernel registered for "cuda" by register_kernel or impl takes precedence);
// wrap_triton returns the kernel itself. Fake (meta) kernels, autograd formulas and schemas
// are recorded nowhere: nothing here runs them. torch.ops.<namespace>.<name> finds an operator
// defined so; torch's own namespaces (aten, prims, ...) are not modelled.
#include "frontends/torch/torch_impl.h"

namespace keq::torch::impl {

namespace {

constexpr const char* kLibrary = R"PY(
from torch._keq_library import unsupported

_defined = {}


def _qualified(name):
    if "::" not in name:
        raise ValueError(f"Expected there to be a namespace in {name}, i.e. The operator name "
                         f"should look something like ns::foo")
    return name


def _is_cuda(device_types):
    if device_types is None:
        return True
    if isinstance(device_types, str):
        return device_types == "cuda"
    return "cuda" in device_types


class CustomOpDef:
    def __init__(self, name, fn, device_types):
        self._name = name
        self._cuda = fn if _is_cuda(device_types) else None
        self._default = fn if device_types is None else None
        self.__name__ = name.split("::")[1]

    def __call__(self, *args, **kwargs):
        fn = self._cuda if self._cuda is not None else self._default
        if fn is None:
            unsupported(f"the custom op {self._name} called on CUDA tensors, for which it has "
                        f"no kernel (torch raises NotImplementedError)")
        return fn(*args, **kwargs)

    def register_kernel(self, device_types, fn=None):
        def register(f):
            if _is_cuda(device_types):
                self._cuda = f
            return f
        return register if fn is None else register(fn)

    def register_fake(self, fn):
        return fn

    def register_autograd(self, backward, *, setup_context=None):
        return None

    def register_torch_dispatch(self, torch_dispatch_class, fn=None):
        return (lambda f: f) if fn is None else fn

    def register_vmap(self, fn=None):
        return (lambda f: f) if fn is None else fn

    def set_kernel_enabled(self, device_type, enabled=True):
        unsupported(f"CustomOpDef.set_kernel_enabled of {self._name}")


def custom_op(name, fn=None, *, mutates_args, device_types=None, schema=None, tags=None):
    def define(f):
        op = CustomOpDef(_qualified(name), f, device_types)
        _defined[name] = op
        return op
    return define if fn is None else define(fn)


def triton_op(name, fn=None, *, mutates_args, schema=None):
    return custom_op(name, fn, mutates_args=mutates_args, schema=schema)


def wrap_triton(triton_kernel):
    return triton_kernel


def register_fake(op, fn=None, *, lib=None, _stacklevel=1, allow_override=False):
    return (lambda f: f) if fn is None else fn


def register_autograd(op, backward, *, setup_context=None, lib=None):
    return None


def register_kernel(op, device_types, fn=None, *, lib=None):
    name = op if isinstance(op, str) else op._name
    if name not in _defined:
        unsupported(f"torch.library.register_kernel for {name}, an operator keq did not see "
                    f"defined by torch.library.custom_op")
    return _defined[name].register_kernel(device_types, fn)


impl = register_kernel


class _OpOverloadPacket:
    def __init__(self, op):
        self._op = op
        self.default = op

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)


class _OpNamespace:
    def __init__(self, namespace):
        self._namespace = namespace

    def __getattr__(self, name):
        qualified = self._namespace + "::" + name
        if qualified in _defined:
            return _OpOverloadPacket(_defined[qualified])
        if self._namespace in ("aten", "prims", "quantized", "_c10d_functional", "c10d",
                               "profiler", "higher_order", "inductor", "mkldnn", "_quantized",
                               "torchvision", "fbgemm", "triton", "xformers", "vllm", "sgl_kernel",
                               "_C", "_moe_C", "flash_attn"):
            unsupported(f"torch.ops.{self._namespace}.{name} is not modelled")
        raise AttributeError(f"'_OpNamespace' '{self._namespace}' object has no attribute "
                             f"'{name}'")


class _Ops:
    def __getattr__(self, namespace):
        if namespace.startswith("__"):
            raise AttributeError(namespace)
        return _OpNamespace(namespace)

    def load_library(self, path):
        unsupported(f"torch.ops.load_library({path!r}): a compiled extension keq cannot read")


ops = _Ops()
)PY";

// torch._library.triton, which torch.library's triton_op wraps: libraries that write their own
// triton_op (flash-attn's, which keeps the schema) import set_wrap_triton_enabled from it. It
// says whether wrap_triton traces a kernel into a higher-order op for torch.compile; an eager
// call runs the kernel either way.
constexpr const char* kLibraryTriton = R"PY(
from torch.library import custom_op, triton_op, wrap_triton, CustomOpDef

capture_triton = wrap_triton


class set_wrap_triton_enabled:
    def __init__(self, enabled):
        self._enabled = enabled

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def is_wrap_triton_enabled():
    return True
)PY";

// torch._subclasses.functional_tensor's mode, which such a triton_op registers a decomposition
// for: it is active only while torch.compile or export traces, which nothing here does.
constexpr const char* kFunctionalTensor = R"PY(
from torch._keq_library import unsupported


class FunctionalTensorMode:
    def __init__(self, *args, **kwargs):
        unsupported("torch._subclasses.functional_tensor.FunctionalTensorMode (a tracing mode)")
)PY";

}  // namespace

void install_library(python::Interp& in) {
  // unsupported(message): keq's gap, named where the program's call into the model reached it.
  Ref keq = python::module_object("torch._keq_library");
  (*keq->attrs)["unsupported"] = python::builtin("unsupported", [](Interp& i2, CallArgs& a) -> Ref {
    i2.unsupported(a.at, a.pos.empty() ? std::string("torch.library") : a.pos[0]->s);
  });
  in.register_module("torch._keq_library", keq);
  in.register_model_source("torch.library", kLibrary);
  in.register_model_attribute("torch", "ops", "torch.library");
  in.register_model_source("torch._library", "");
  in.register_model_source("torch._library.triton", kLibraryTriton);
  in.register_model_source("torch._subclasses", "");
  in.register_model_source("torch._subclasses.functional_tensor", kFunctionalTensor);
  in.set_real_names("torch._library.triton", {"capture_triton",
                                              "custom_op",
                                              "get_inner_triton_kernels",
                                              "get_triton_kernels_for_op",
                                              "infer_schema",
                                              "is_wrap_triton_enabled",
                                              "set_wrap_triton_enabled",
                                              "triton_op",
                                              "triton_ops_to_kernels",
                                              "wrap_triton",
                                              "wrap_triton_enabled",
                                              "wrap_triton_enabled_default",
                                              "CustomOpDef",
                                              "Any",
                                              "Callable",
                                              "Generator",
                                              "Iterable",
                                              "Optional",
                                              "Union",
                                              "ast",
                                              "contextlib",
                                              "exposed_in",
                                              "inspect",
                                              "logger",
                                              "logging",
                                              "threading"});
  in.set_real_names("torch._subclasses.functional_tensor",
                    {"FunctionalTensor", "FunctionalTensorMode", "BaseFunctionalizeAPI",
                     "CppFunctionalizeAPI", "FunctorchFunctionalizeAPI", "PythonFunctionalizeAPI",
                     "TorchDispatchMode", "disable_functional_mode", "dispatch_functionalize",
                     "mb_unwrap_functional_tensor", "return_and_correct_aliasing"});
  in.set_real_names("torch.library",
                    {"custom_op", "triton_op", "wrap_triton", "register_fake", "register_autograd",
                     "register_kernel", "impl", "Library", "define", "fallthrough_kernel",
                     "impl_abstract", "get_ctx", "register_torch_dispatch", "register_vmap",
                     "infer_schema", "opcheck", "CustomOpDef"});
}

}  // namespace keq::torch::impl
