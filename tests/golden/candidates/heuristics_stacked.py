import torch
import torch.nn as nn
import triton
import triton.language as tl


# Stacked heuristics (mamba's layernorm_gated.py): the outer one computes first and the inner
# ones see its value; all reach the kernel.
@triton.heuristics({"BLOCK": lambda args: 4 if args["n"] % 4 == 0 else 2})
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.heuristics({"SCALE": lambda args: 2.0 if args["EVEN"] else 3.0})
@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * SCALE, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 2),)](x, y, x.numel())
        return y


def get_inputs():
    return [torch.randn(2, 3)]


def get_init_inputs():
    return []
