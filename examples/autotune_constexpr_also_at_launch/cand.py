# Autotuned over BLOCK, and launched with BLOCK= as well (an LLM-written argmin, KernelBench
# level-1 #52, launches BLOCK_K=64 on a kernel tuned over BLOCK_K). Triton's autotuner refuses
# it: ValueError "Conflicting meta-parameters: BLOCK" while benchmarking (tests/fixtures/gpu/
# autotune_launch_keywords.txt); keq let the launch's value through and proved the kernel.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 32})], key=["n"])
@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 16),)](x, y, n, BLOCK=16)
        return y
