import torch
import torch.nn as nn
import triton
import triton.language as tl


def max(a, b):  # rebinds a builtin Triton's DependenciesFinder reads unchecked
    return a if a > b else b


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    WIDTH: tl.constexpr = max(BLOCK, 16)  # constexprs only: plain Python, as Triton runs it
    offs = tl.program_id(0) * WIDTH + tl.arange(0, WIDTH)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 16),)](x, y, x.numel(), BLOCK=8)
        return y


def get_inputs():
    return [torch.randn(4, 5)]


def get_init_inputs():
    return []
