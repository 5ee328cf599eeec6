"""Runs one third-party pair's candidate once at given sizes, for compute-sanitizer to watch:
keq's out-of-bounds findings are reads whose values the kernel may never use, so comparing
outputs cannot confirm them; memcheck sees the access itself.

usage: PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck \
           python memcheck_ext.py DIR/<problem> NAME=V,...

(Without the caching allocator every tensor is its own allocation, so a read past a small
buffer is past an allocation, which memcheck reports.) The inputs are the reference's
get_inputs() at those sizes; an autotuned kernel runs every config, as the autotuner does.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confirm_ext import DEVICE, build, load  # noqa: E402


def main():
    problem_dir, sizes = sys.argv[1], sys.argv[2]
    dims = {k: int(v) for k, v in (kv.split("=") for kv in sizes.split(","))}
    sys.path.insert(0, problem_dir)  # a candidate importing its kernels from its own folder
    ref = load(os.path.join(problem_dir, "ref.py"), "ref", dims)
    cand = load(os.path.join(problem_dir, "cand.py"), "cand", dims)
    init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
    model, _ = build(cand.ModelNew, init)
    inputs = [x.to(DEVICE) if torch.is_tensor(x) else x for x in ref.get_inputs()]
    out = model(*inputs)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    print("ran:", [tuple(o.shape) for o in (out if isinstance(out, (tuple, list)) else [out])])


if __name__ == "__main__":
    main()
