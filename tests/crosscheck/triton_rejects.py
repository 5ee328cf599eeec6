"""Shows that Triton itself rejects every kernel in tests/golden/triton_rejects/, with the
message keq reports (expected_messages.txt): run under TRITON_INTERPRET=1 on the CPU.

usage: TRITON_INTERPRET=1 python triton_rejects.py DIR
"""
import importlib.util
import os
import sys

import torch

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
folder = sys.argv[1]
failures = 0
with open(os.path.join(folder, "expected_messages.txt")) as f:
    cases = [line.rstrip("\n").split("\t") for line in f if line.strip()]
for name, message in cases:
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    try:  # some raise at import (a triton.Config keyword Triton does not take)
        spec.loader.exec_module(module)
        module.ModelNew()(torch.randn(2, 5))
        print(f"FAIL {name}: Triton ran it")
        failures += 1
    except Exception as e:  # Triton raises CompilationError wrapping the semantic error
        text = f"{type(e).__name__}: {e}"
        if message in text:
            print(f"ok   {name}: {message}")
        else:
            print(f"FAIL {name}: Triton raised, but not '{message}':\n{text[-2000:]}")
            failures += 1
print(f"{len(cases) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
