"""Runs third-party KernelBench pairs as KernelBench's own harness does: both models built right
after the same torch.manual_seed, so parameters (and buffers computed from them in __init__)
start alike, then both run on one draw of get_inputs(). confirm_ext.py instead gives the
candidate the reference's parameters after construction, which a buffer computed from them in
__init__ does not follow (keq notes such a buffer: its verdict rests on this seeding).

usage: python confirm_seeded.py DIR PROBLEM...   (DIR/<problem>/ref.py and cand.py; a CUDA
       device, else the CPU under TRITON_INTERPRET=1)
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confirm_ext import DEVICE, load  # noqa: E402


def main():
    root, problems = sys.argv[1], sys.argv[2:]
    for problem in problems:
        ref = load(os.path.join(root, problem, "ref.py"), "ref")
        cand = load(os.path.join(root, problem, "cand.py"), "cand")
        init = ref.get_init_inputs() if hasattr(ref, "get_init_inputs") else []
        worst = 0.0
        for seed in (42, 43, 44):
            torch.manual_seed(seed)
            r = ref.Model(*init).to(DEVICE)
            torch.manual_seed(seed)
            c = cand.ModelNew(*init).to(DEVICE)
            torch.manual_seed(seed + 100)
            inputs = [x.to(DEVICE) if torch.is_tensor(x) else x for x in ref.get_inputs()]
            with torch.no_grad():
                a, b = r(*inputs), c(*inputs)
            worst = max(worst, (a.float() - b.float()).abs().max().item())
        print(f"{problem}: KernelBench seeding, 3 seeds: max |reference - candidate| {worst:.6g}")


if __name__ == "__main__":
    main()
