"""For confirming tests/realworld/production/ on a GPU machine (PYTHONPATH=this folder:LIBS).

The production libraries are read from their PyPI sources (scripts/production-libs.sh), without
the compiled CUDA extensions their package __init__s import (flash_attn_2_cuda,
selective_scan_cuda, ...). The pairs use only the libraries' Triton kernels, so such a module
is given as an empty stand-in: importing it succeeds, and any use of it raises AttributeError
(so `from causal_conv1d import f` raises the ImportError that libraries catch for an optional
extension, as where it is not installed). Each stand-in is
listed in KEQ_SHIMMED (printed at exit), so a run says what it stood in for.
"""
import atexit
import importlib.abc
import importlib.machinery
import sys
import types

_COMPILED = {"flash_attn_2_cuda", "selective_scan_cuda", "causal_conv1d", "causal_conv1d_cuda",
             "fused_dense_lib", "dropout_layer_norm", "rotary_emb", "xentropy_cuda_lib",
             "mamba_ssm_cuda", "tilelang", "cutlass", "quack", "cuda"}
_PACKAGES = {"cuda", "tilelang", "cutlass", "quack"}
SHIMMED = []


class _Unusable(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{self.__name__}.{name}: a compiled extension stood in for "
                             f"(tests/realworld/gpu/extension_shim)")


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        m = _Unusable(spec.name)
        if spec.name.split(".")[0] in _PACKAGES:  # `import cuda.bindings.driver`
            m.__path__ = []
        return m

    def exec_module(self, module):
        SHIMMED.append(module.__name__)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in _COMPILED:
            return None
        for finder in sys.meta_path:  # the real module where it is installed
            if finder is not self and hasattr(finder, "find_spec"):
                try:
                    if finder.find_spec(name, path, target) is not None:
                        return None
                except Exception:
                    pass
        top = name.split(".")[0]
        if name != top and top not in _PACKAGES:
            return None
        return importlib.machinery.ModuleSpec(name, _Loader(), is_package=top in _PACKAGES)


sys.meta_path.append(_Finder())
atexit.register(lambda: SHIMMED and print("KEQ_SHIMMED", sorted(set(SHIMMED)), file=sys.stderr))
