"""Shows that Triton's compiler rejects every kernel in tests/golden/triton_compile_rejects/ with
the message keq reports (expected_messages.txt: name, message, constexpr values). These are
rules of the compiler that Triton's interpreter does not apply (a kernel's local assigned from a
constexpr is a tensor), so each file's `kernel` is compiled for an sm_90 target, which needs no
GPU. Pointer arguments are *fp32 (names ending in _ptr), the others i32.

usage: python triton_compile_rejects.py DIR   (without TRITON_INTERPRET)
"""
import importlib.util
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

assert os.environ.get("TRITON_INTERPRET", "0") != "1", "run without TRITON_INTERPRET"
folder = sys.argv[1]
failures = 0
with open(os.path.join(folder, "expected_messages.txt")) as f:
    cases = [line.rstrip("\n").split("\t") for line in f if line.strip()]
for name, message, constexprs in cases:
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = module.kernel
    values = {k: int(v) for k, v in (kv.split("=") for kv in constexprs.split(","))}
    signature = {a: "constexpr" if a in values else "*fp32" if a.endswith("_ptr") else "i32"
                 for a in fn.arg_names}
    source = ASTSource(fn, signature=signature,
                       constexprs={(fn.arg_names.index(k),): v for k, v in values.items()})
    try:
        triton.compile(source, target=GPUTarget("cuda", 90, 32))
        print(f"FAIL {name}: Triton compiled it")
        failures += 1
    except Exception as e:  # CompilationError wrapping the semantic error
        text, cause = "", e
        while cause is not None:  # the semantic error may be a cause of the one raised
            text += f"{type(cause).__name__}: {cause}\n"
            cause = cause.__cause__
        if message in text:
            print(f"ok   {name}: {message}")
        else:
            print(f"FAIL {name}: Triton raised, but not '{message}':\n{text[-2000:]}")
            failures += 1
print(f"{len(cases) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
