import torch
import torch.nn as nn
import triton
import triton.language as tl


def twice_plus_one(x):  # no @triton.jit: Triton refuses the kernel that names it
    return x * 2.0 + 1.0


@triton.jit
def affine_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, twice_plus_one(tl.load(x_ptr + offs, mask=mask)), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        affine_kernel[(triton.cdiv(n, 32),)](x, y, n, BLOCK=32)
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
